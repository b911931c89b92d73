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
 * first of column x), c->fwd, c->bck and their scores: the links, the hysteresis along them
 * (modulus >= high starts, >= low continues) and the curves listed into c's result, on up to
 * `threads` threads, equal to the reference's single pass at every thread count. Uses
 * c->next, c->prev, c->valid, c->label and c->out. Returns 0 when out of memory. */
int edgel_subpixel_chain(edgel_curves *c, int w, double high, double low, int threads);

/* Its steps after the links, for callers that make the links in parts (subpixel_stream.c). */
/* c->label: each point's chain, named by its lowest point, on up to `threads` threads (on
 * one, all -1: the chains are met in order of their lowest points). */
void edgel_subpixel_label_chains(edgel_curves *c, int threads);
/* The curves of every labelled chain whose points all lie before column final_column
 * (c->valid cleared beforehand), into out[t] by thread; each other chain's points get
 * keep[i] = 1. 0 when out of memory. */
int edgel_subpixel_finish_chains(edgel_curves *c, int32_t final_column, double high, double low,
                                 uint8_t *keep, edgel_curve_output *out, int threads);
/* The curves of out[0 .. outs - 1] in the reference's order into result (release: each
 * output's points freed as they are written); out is emptied. 0 when out of memory. */
int edgel_subpixel_gather_curves(edgel_curve_output *out, int outs, edgel_curves *result,
                                 int release, int threads);
/* Room for `threads` outputs (kept ones kept). 0 when out of memory. */
int edgel_curve_outputs_reserve(edgel_curve_output **out, int *outs, int threads);
void edgel_curve_outputs_free(edgel_curve_output *out, int outs);

#ifdef __cplusplus
}
#endif

#endif
