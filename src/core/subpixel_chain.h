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

/* The steps of one point, for callers that walk the points of a chain themselves (chains are
 * independent: each chain's points in memory order give the whole pass's result on it).
 * The hysteresis started at point i (c->valid marks the points kept) ... */
void edgel_subpixel_hysteresis_at(edgel_curves *c, int32_t i, double high, double low);
/* ... then, once the chain's points have all had it, each left invalid unlinked ... */
void edgel_subpixel_drop_invalid_at(edgel_curves *c, int32_t i);
/* ... then the first point of the curve listed at point i, or -1 where i lists none (the
 * caller follows c->next from it, clearing c->valid, and a closed curve comes back to it). */
int32_t edgel_subpixel_curve_at(const edgel_curves *c, int32_t i);
/* c->label: each point's chain, named by its lowest point, on up to `threads` threads. */
void edgel_subpixel_label_chains(edgel_curves *c, int threads);

#ifdef __cplusplus
}
#endif

#endif
