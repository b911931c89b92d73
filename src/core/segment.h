/* Internal: curves split into lines, circular and elliptic arcs (api/api_segment.c checks the
 * arguments and holds the result; include/edgel_experimental.h documents the method). Host
 * code on core/fit.c's fits. */
#ifndef EDGEL_CORE_SEGMENT_H
#define EDGEL_CORE_SEGMENT_H

#include "edgel.h" /* (the library sees its experimental section) */

#include <stdint.h>

/* The pieces found so far, and the work arrays a curve's split reuses. */
typedef struct edgel_segment_work {
    edgel_piece *pieces;
    int64_t count, cap;
    double *sx, *sy;  /* the smoothed points */
    int64_t *breaks;  /* the polygon's corners, in order */
    int64_t *stack;   /* ranges still to split */
    int64_t points_cap;
} edgel_segment_work;

/* Appends the pieces of one curve: its n points x[0 .. n-1] (the closed curve's first point
 * not repeated at its end), numbered from `offset` in the caller's arrays. Returns 0 when out
 * of memory. */
int edgel_segment_curve(edgel_segment_work *w, const double *x, const double *y, int64_t n,
                        int closed, int64_t curve, int64_t offset, const edgel_segment_params *p);
void edgel_segment_work_free(edgel_segment_work *w);

#endif
