/* Internal: the sub-pixel curves of an image given in bands of columns (subpixel_stream.c),
 * behind edgel_subpixel_stream_* (api_subpixel_stream.c). */
#ifndef EDGEL_CORE_SUBPIXEL_STREAM_H
#define EDGEL_CORE_SUBPIXEL_STREAM_H

#include "core/curves.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct edgel_stream_state edgel_stream_state;

/* A stream for an image of width x height (each at most EDGEL_MAX_TILED_DIMENSION); NULL
 * when out of memory. */
edgel_stream_state *edgel_stream_state_create(const edgel_subpixel_params *p, int32_t width,
                                              int32_t height);
void edgel_stream_state_free(edgel_stream_state *s);
/* The columns added so far (0 .. width). */
int32_t edgel_stream_state_added(const edgel_stream_state *s);
/* The points of the curves it has made so far (a closed curve's first twice). */
int64_t edgel_stream_state_points(const edgel_stream_state *s);
/* The image's columns own_lo .. own_hi - 1 whose points `piece` (columns x0 .. of every row)
 * finds exactly: its columns less the halo, except at the image's sides. */
void edgel_stream_state_own(const edgel_stream_state *s, int64_t x0, int32_t piece_width,
                            int32_t *own_lo, int32_t *own_hi);
/* Adds the points of the columns added .. own_hi - 1 of a piece (columns x0 .. x0 +
 * piece_width - 1 of every row; checked by the caller: own_lo <= added < own_hi) from
 * `found`, the piece's points as edgel_cpu_subpixel_points finds them (x0 given), links them
 * as far as the points held allow, and turns the chains that can no longer change into
 * curves, on up to `threads` threads. EDGEL_ERROR_OUT_OF_MEMORY or EDGEL_ERROR_INTERNAL
 * (with the message set) when it fails; the stream is then unusable. */
edgel_status edgel_stream_state_add(edgel_stream_state *s, const edgel_curves *found, int64_t x0,
                                    int32_t piece_width, int threads);
/* Once every column is in: the curves, in the reference's order, into `out`. */
edgel_status edgel_stream_state_finish(edgel_stream_state *s, edgel_curves *out, int threads);

#ifdef __cplusplus
}
#endif

#endif
