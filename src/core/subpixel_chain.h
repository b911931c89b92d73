/* Internal: steps 3b to 5 of the Canny/Devernay detector (subpixel_chain.c), from the numbered
 * edge points and their best neighbours to the curves; shared by the backends, which find
 * the points and neighbours each their own way. */
#ifndef EDGEL_CORE_SUBPIXEL_CHAIN_H
#define EDGEL_CORE_SUBPIXEL_CHAIN_H

#include "core/curves.h"

#ifdef __cplusplus
extern "C" {
#endif

/* From c->all (numbered in the reference's order over `w` columns, c->column_start[x] the
 * first of column x), c->row_order, c->fwd, c->bck and their scores: the links, the
 * hysteresis along them (modulus >= high starts, >= low continues) and the curves listed
 * into c's result, on up to `threads` threads, equal to the reference's single pass at every
 * thread count. Uses c->next, c->prev, c->valid, c->label and c->bucket, and c->fwd and
 * c->bck once the links are made. Returns 0 when out of memory. */
int edgel_subpixel_chain(edgel_curves *c, int w, double high, double low, int threads);

#ifdef __cplusplus
}
#endif

#endif
