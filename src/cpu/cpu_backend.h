/* The CPU backend as the entry points see it: its table of functions and its state. */
#ifndef EDGEL_CPU_BACKEND_H
#define EDGEL_CPU_BACKEND_H

#include "core/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

const edgel_backend_ops *edgel_cpu_ops(void);
/* The state of a context on `threads` worker threads. Its to_gray and gaussian_blur also
 * run with a NULL state (on all cores), for contexts of backends without them. */
edgel_status edgel_cpu_backend_create(int threads, void **state);
/* The sub-pixel detector's points and neighbours of a checked host image that starts at
 * (x0, y0) of a larger one, on `threads` threads (cpu_subpixel.c). */
edgel_status edgel_cpu_subpixel_points(const edgel_subpixel_params *p, const edgel_image *src,
                                       int64_t x0, int64_t y0, edgel_curves *curves,
                                       int threads);

#ifdef __cplusplus
}
#endif

#endif
