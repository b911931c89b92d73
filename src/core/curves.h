/* Internal: what an edgel_curves holds (edgel.h): the result of the last call, and the
 * working arrays a call reuses, each grown on demand and kept. */
#ifndef EDGEL_CORE_CURVES_H
#define EDGEL_CORE_CURVES_H

#include "edgel.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct edgel_curves {
    atomic_int busy;
    /* the result */
    int64_t points, curves;
    double *x, *y, *gx, *gy, *modulus;
    size_t point_cap;
    int64_t *limits;
    uint8_t *closed;
    size_t curve_cap;
    /* per pixel of the last image: the (blurred) image, the blur's pass, the gradient and
     * its modulus, the edge points' positions (-1 where none), the chain links (-1: none) */
    double *image, *pass, *grad_x, *grad_y, *mod, *edge_x, *edge_y;
    int32_t *next, *prev;
    uint8_t *valid;
    size_t pixel_cap;
};

/* Room for `pixels` working pixels (the arrays' old contents are not kept): 0 when out of
 * memory. */
int edgel_curves_reserve_pixels(edgel_curves *c, size_t pixels);
/* Room for `points` points and `curves` curves in the result (contents kept): 0 when out of
 * memory. */
int edgel_curves_reserve_result(edgel_curves *c, size_t points, size_t curves);

#ifdef __cplusplus
}
#endif

#endif
