/* Internal: step 3b of the Canny/Devernay detector, the links (subpixel_link.c). */
#ifndef EDGEL_CORE_SUBPIXEL_LINK_H
#define EDGEL_CORE_SUBPIXEL_LINK_H

#include "core/curves.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Columns a point's visit reaches either side of it: its best neighbours are within two
 * columns, and their partners (links are only made along such proposals) two more. */
#define EDGEL_SUBPIXEL_REACH 4

/* c->next and c->prev: the links the reference's single pass over c->all makes from each
 * point's best neighbours (c->fwd, c->bck and their scores), on up to `threads` threads, the
 * same at every thread count. The points are numbered column by column over `w` columns,
 * c->column_start[x] the first of column x (w + 1 entries). Returns 0 when out of memory. */
int edgel_subpixel_link(edgel_curves *c, int w, int threads);
/* The same pass continued: the visits of the points of columns first .. end - 1, from the
 * links c->next and c->prev hold (those the visits of the columns before `first` made). The
 * points of columns end .. end + 3 must be there (a visit reaches them); the visited points'
 * c->fwd and c->bck must be indices. */
int edgel_subpixel_link_columns(edgel_curves *c, int w, int first, int end, int threads);

#ifdef __cplusplus
}
#endif

#endif
