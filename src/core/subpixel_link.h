/* Internal: step 3b of the Canny/Devernay detector, the links (subpixel_link.c). */
#ifndef EDGEL_CORE_SUBPIXEL_LINK_H
#define EDGEL_CORE_SUBPIXEL_LINK_H

#include "core/curves.h"

#ifdef __cplusplus
extern "C" {
#endif

/* c->next and c->prev: the links the reference's single pass over c->all makes from each
 * point's best neighbours (c->fwd, c->bck and their scores), on up to `threads` threads, the
 * same at every thread count. The points are numbered column by column over `w` columns,
 * c->column_start[x] the first of column x (w + 1 entries). Returns 0 when out of memory. */
int edgel_subpixel_link(edgel_curves *c, int w, int threads);

#ifdef __cplusplus
}
#endif

#endif
