/*
 * The two halves of the reference's visit of one edge point in step 3b of the Canny/Devernay
 * detector (the links): its forward proposal, then its backward one. Compiled for the host
 * (core/subpixel_link.c runs whole visits in the reference's order) and for the device
 * (cuda/cuda_subpixel_chain.cu replays the proposals that compete, each set in that order).
 *
 * The links are next[i] and prev[i] of points i, stored at index i - base. A link a -> b
 * sits in two slots, next[a] and prev[b]; a proposal writes only the slots of its own link and
 * of the links it displaces, which a proposal made along them put there before.
 */
#ifndef EDGEL_CORE_SUBPIXEL_VISIT_H
#define EDGEL_CORE_SUBPIXEL_VISIT_H

#include <stdint.h>

#include "core/subpixel_math.h"

/* The points' positions and gradients. */
typedef struct edgel_subpixel_geometry {
    const double *x, *y, *gx, *gy;
} edgel_subpixel_geometry;

/* Whether point i proposes links at all (a NaN position proposes nothing). */
EDGEL_HD int edgel_subpixel_proposes(edgel_subpixel_geometry g, int32_t i)
{
    return g.x[i] >= 0.0 && g.y[i] >= 0.0;
}

EDGEL_HD double edgel_subpixel_score_of(edgel_subpixel_geometry g, int32_t a, int32_t b)
{
    return edgel_subpixel_score(g.x[a], g.y[a], g.gx[a], g.gy[a], g.x[b], g.y[b], g.gx[b],
                                g.gy[b]);
}

/* `from` proposes the link from -> fwd (score `s` > 0): it replaces the link already ending at
 * fwd only where it scores better, and from's own forward link in any case. Returns how many
 * points it wrote, listed in `touched` (4 at most). */
EDGEL_HD int edgel_subpixel_propose_forward(int32_t *next, int32_t *prev, int32_t base,
                                            edgel_subpixel_geometry g, int32_t from, int32_t fwd,
                                            double s, int32_t *touched)
{
    int n = 0;
    int32_t alt, old;
    if (fwd >= 0 && next[from - base] != fwd &&
        ((alt = prev[fwd - base]) < 0 || edgel_subpixel_score_of(g, alt, fwd) < s)) {
        if ((old = next[from - base]) >= 0)
            prev[old - base] = -1, touched[n++] = old;
        next[from - base] = fwd;
        if (alt >= 0)
            next[alt - base] = -1, touched[n++] = alt;
        prev[fwd - base] = from;
        touched[n++] = from, touched[n++] = fwd;
    }
    return n;
}

/* `from` proposes the link bck -> from (score `s` < 0), the mirror image. */
EDGEL_HD int edgel_subpixel_propose_backward(int32_t *next, int32_t *prev, int32_t base,
                                             edgel_subpixel_geometry g, int32_t from,
                                             int32_t bck, double s, int32_t *touched)
{
    int n = 0;
    int32_t alt, old;
    if (bck >= 0 && prev[from - base] != bck &&
        ((alt = next[bck - base]) < 0 || edgel_subpixel_score_of(g, alt, bck) > s)) {
        if (alt >= 0)
            prev[alt - base] = -1, touched[n++] = alt;
        next[bck - base] = from;
        if ((old = prev[from - base]) >= 0)
            next[old - base] = -1, touched[n++] = old;
        prev[from - base] = bck;
        touched[n++] = bck, touched[n++] = from;
    }
    return n;
}

#endif
