/* Internal to the sub-pixel entry points (api_subpixel.c, api_subpixel_pieces.c,
 * api_subpixel_stream.c): what they share. */
#ifndef EDGEL_API_API_SUBPIXEL_H
#define EDGEL_API_API_SUBPIXEL_H

#include "edgel.h"

/* Holds `c` for this call (EDGEL_ERROR_CONTEXT_BUSY while another thread's holds it), and
 * lets it go with the call's status. */
edgel_status edgel_curves_enter(edgel_curves *c);
edgel_status edgel_curves_leave(edgel_curves *c, edgel_status st);
/* The caller's parameters (any older struct size) over the defaults, checked. */
edgel_status edgel_subpixel_read_params(const edgel_subpixel_params *in,
                                        edgel_subpixel_params *p);
/* Host images anywhere; device images on a GPU context. */
edgel_status edgel_subpixel_check_source(const edgel_context *ctx, const edgel_image *src);
/* The CPU's threads of a context (every core on another backend's). */
int edgel_subpixel_cpu_threads(const edgel_context *ctx);
/* A host piece's points: the context's backend's, or the CPU's on all cores where it has
 * none (core/backend.h says why). */
edgel_status edgel_subpixel_host_points(edgel_context *ctx, const edgel_subpixel_params *p,
                                        const edgel_image *src, int64_t x0, int64_t y0,
                                        edgel_curves *curves);

#endif
