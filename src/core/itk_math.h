/*
 * The per-pixel arithmetic of the itk preset (itk::CannyEdgeDetectionImageFilter<float>),
 * shared by the CPU and CUDA backends. Each function repeats ITK's operations in ITK's order
 * and precision (double where ITK promotes, float where it stores), so the results are the
 * same floats ITK computes. Builds must not contract a*b+c into fused multiply-adds
 * (-ffp-contract=off, nvcc --fmad=false): ITK's binaries do not.
 *
 * Neighbourhoods are 3 pixels a side, x fastest, borders already replicated.
 */
#ifndef EDGEL_CORE_ITK_MATH_H
#define EDGEL_CORE_ITK_MATH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "core/opencv_math.h" /* the hysteresis map values and edgel_clamp_index */

/* The 3x3 neighbourhood of (x, y) in a w x h float image of `stride` floats per row, borders
 * replicated (ITK's ZeroFluxNeumannBoundaryCondition). */
EDGEL_HD void edgel_itk_neighbourhood(const float *img, size_t stride, int w, int h, int x, int y,
                                      float n[9])
{
    const float *rows[3] = {img + (size_t)edgel_clamp_index(y - 1, h) * stride,
                            img + (size_t)y * stride,
                            img + (size_t)edgel_clamp_index(y + 1, h) * stride};
    const int xl = x > 0 ? x - 1 : 0, xr = x + 1 < w ? x + 1 : w - 1;
    for (int i = 0; i < 3; i++) {
        n[3 * i] = rows[i][xl];
        n[3 * i + 1] = rows[i][x];
        n[3 * i + 2] = rows[i][xr];
    }
}

/* ITK's first-derivative operator {0.5, 0, -0.5} applied by correlation (the negated central
 * difference; the sign cancels everywhere it is used), summed in double. */
EDGEL_HD float edgel_itk_d1(float before, float centre, float after)
{
    double s = 0.0;
    s += 0.5 * (double)before;
    s += 0.0 * (double)centre;
    s += -0.5 * (double)after;
    return (float)s;
}

/* Second-derivative operator {1, -2, 1}, summed in double. */
EDGEL_HD float edgel_itk_d2(float before, float centre, float after)
{
    double s = 0.0;
    s += 1.0 * (double)before;
    s += -2.0 * (double)centre;
    s += 1.0 * (double)after;
    return (float)s;
}

/* The functions below take a neighbourhood of 3 voxels a side in `dims` dimensions (2 or 3),
 * x fastest: n[centre + stride[i]] is the next voxel along axis i (strides 1, 3, 9; centre 4
 * in 2-D, 13 in 3-D). The loops over axes are ITK's, in its order. */

/* ComputeCannyEdge: the second derivative along the gradient of the smoothed image g,
 * scaled by |grad|^2 / (|grad|^2 + 1e-4). */
EDGEL_HD float edgel_itk_second_derivative_nd(const float *g, int centre, const int *stride,
                                              int dims)
{
    float dx[3], dxx[3];
    for (int i = 0; i < dims; i++) {
        dx[i] = edgel_itk_d1(g[centre - stride[i]], g[centre], g[centre + stride[i]]);
        dxx[i] = edgel_itk_d2(g[centre - stride[i]], g[centre], g[centre + stride[i]]);
    }
    float deriv = 0.0f;
    for (int i = 0; i < dims - 1; i++)
        for (int j = i + 1; j < dims; j++) {
            const int si = stride[i], sj = stride[j];
            const float dxy = (float)(0.25 * g[centre - si - sj] - 0.25 * g[centre - si + sj] -
                                      0.25 * g[centre + si - sj] + 0.25 * g[centre + si + sj]);
            deriv = (float)((double)deriv + 2.0 * dx[i] * dx[j] * dxy);
        }
    float grad2 = (float)0.0001;
    for (int i = 0; i < dims; i++) {
        deriv += dx[i] * dx[i] * dxx[i];
        grad2 += dx[i] * dx[i];
    }
    return deriv / grad2;
}

/* Compute2ndDerivativePos: the gradient magnitude sqrt(1e-4 + |grad g|^2) where the
 * derivative of l along the gradient is <= 0 (the magnitude is maximal there), else 0. */
EDGEL_HD float edgel_itk_gradient_at_maximum_nd(const float *g, const float *l, int centre,
                                                const int *stride, int dims)
{
    float mag = (float)0.0001, gx[3], lx[3];
    for (int i = 0; i < dims; i++) {
        gx[i] = edgel_itk_d1(g[centre - stride[i]], g[centre], g[centre + stride[i]]);
        mag += gx[i] * gx[i];
        lx[i] = edgel_itk_d1(l[centre - stride[i]], l[centre], l[centre + stride[i]]);
    }
    mag = (float)sqrt((double)mag);
    float along = 0.0f;
    for (int i = 0; i < dims; i++)
        along += lx[i] * (gx[i] / mag);
    const float at_maximum = along <= 0.0f ? 1.0f : 0.0f;
    return at_maximum * mag;
}

/* ZeroCrossingImageFilter against one face neighbour t: is there a crossing that marks the
 * centre c? The closer to zero of the two is marked; a tie goes to the neighbour on the
 * minus side, so c is marked only when t is a plus (+x, +y or +z) neighbour. */
EDGEL_HD int edgel_itk_marks_crossing(float c, float t, int plus_side)
{
    if ((c < 0.0f && t > 0.0f) || (c > 0.0f && t < 0.0f) || (c == 0.0f && t != 0.0f) ||
        (c != 0.0f && t == 0.0f)) {
        const float ac = fabsf(c), at = fabsf(t);
        return ac < at || (ac == at && plus_side);
    }
    return 0;
}

/* The non-maximum-suppression value: U x ZeroCrossing(L), from the smoothed image g and the
 * second derivative l around one voxel. */
EDGEL_HD float edgel_itk_suppressed_nd(const float *g, const float *l, int centre,
                                       const int *stride, int dims)
{
    const float c = l[centre];
    int crossing = 0;
    for (int i = 0; i < dims; i++)
        crossing |= edgel_itk_marks_crossing(c, l[centre - stride[i]], 0) |
                    edgel_itk_marks_crossing(c, l[centre + stride[i]], 1);
    return edgel_itk_gradient_at_maximum_nd(g, l, centre, stride, dims) *
           (crossing ? 1.0f : 0.0f);
}

/* The 2-D forms, on 3x3 neighbourhoods (edgel_itk_neighbourhood). */
EDGEL_HD float edgel_itk_second_derivative(const float g[9])
{
    const int stride[2] = {1, 3};
    return edgel_itk_second_derivative_nd(g, 4, stride, 2);
}

EDGEL_HD float edgel_itk_suppressed(const float g[9], const float l[9])
{
    const int stride[2] = {1, 3};
    return edgel_itk_suppressed_nd(g, l, 4, stride, 2);
}

/* Hysteresis classes, with ITK's strict comparisons in float. Thresholds are not swapped:
 * when upper < lower, a seed at or below lower is still an edge and spreads to neighbours
 * above lower, as in ITK's flood fill. */
EDGEL_HD uint8_t edgel_itk_class(float v, float lower, float upper)
{
    return v > upper ? EDGEL_MAP_STRONG : v > lower ? EDGEL_MAP_WEAK : EDGEL_MAP_NONE;
}

#endif
