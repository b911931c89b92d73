/*
 * The per-pixel arithmetic of the itk preset (itk::CannyEdgeDetectionImageFilter<float>),
 * shared by the CPU and CUDA backends. Each function repeats ITK's operations in ITK's order
 * and precision (double where ITK promotes, float where it stores), so the results are the
 * same floats ITK computes. Builds must not contract a*b+c into fused multiply-adds
 * (-ffp-contract=off, nvcc --fmad=false): ITK's binaries do not.
 *
 * Neighbourhoods are 3x3, row-major, n[4] the centre, borders already replicated.
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

/* ComputeCannyEdge: the second derivative along the gradient of the smoothed image g,
 * scaled by |grad|^2 / (|grad|^2 + 1e-4). */
EDGEL_HD float edgel_itk_second_derivative(const float g[9])
{
    const float dx = edgel_itk_d1(g[3], g[4], g[5]), dy = edgel_itk_d1(g[1], g[4], g[7]);
    const float dxx = edgel_itk_d2(g[3], g[4], g[5]), dyy = edgel_itk_d2(g[1], g[4], g[7]);
    const float dxy = (float)(0.25 * g[0] - 0.25 * g[6] - 0.25 * g[2] + 0.25 * g[8]);
    float deriv = 0.0f;
    deriv = (float)((double)deriv + 2.0 * dx * dy * dxy);
    float grad2 = (float)0.0001;
    deriv += dx * dx * dxx;
    grad2 += dx * dx;
    deriv += dy * dy * dyy;
    grad2 += dy * dy;
    return deriv / grad2;
}

/* Compute2ndDerivativePos: the gradient magnitude sqrt(1e-4 + |grad g|^2) where the
 * derivative of l along the gradient is <= 0 (the magnitude is maximal there), else 0. */
EDGEL_HD float edgel_itk_gradient_at_maximum(const float g[9], const float l[9])
{
    float mag = (float)0.0001;
    const float gx = edgel_itk_d1(g[3], g[4], g[5]);
    mag += gx * gx;
    const float lx = edgel_itk_d1(l[3], l[4], l[5]);
    const float gy = edgel_itk_d1(g[1], g[4], g[7]);
    mag += gy * gy;
    const float ly = edgel_itk_d1(l[1], l[4], l[7]);
    mag = (float)sqrt((double)mag);
    float along = 0.0f;
    along += lx * (gx / mag);
    along += ly * (gy / mag);
    const float at_maximum = along <= 0.0f ? 1.0f : 0.0f;
    return at_maximum * mag;
}

/* ZeroCrossingImageFilter against one face neighbour t: is there a crossing that marks the
 * centre c? The closer to zero of the two is marked; a tie goes to the neighbour on the
 * minus side, so c is marked only when t is a plus (+x or +y) neighbour. */
EDGEL_HD int edgel_itk_marks_crossing(float c, float t, int plus_side)
{
    if ((c < 0.0f && t > 0.0f) || (c > 0.0f && t < 0.0f) || (c == 0.0f && t != 0.0f) ||
        (c != 0.0f && t == 0.0f)) {
        const float ac = fabsf(c), at = fabsf(t);
        return ac < at || (ac == at && plus_side);
    }
    return 0;
}

/* The non-maximum-suppression image: U x ZeroCrossing(L), from the smoothed image g and the
 * second derivative l around one pixel. */
EDGEL_HD float edgel_itk_suppressed(const float g[9], const float l[9])
{
    const float c = l[4];
    const int crossing = edgel_itk_marks_crossing(c, l[3], 0) ||
                         edgel_itk_marks_crossing(c, l[1], 0) ||
                         edgel_itk_marks_crossing(c, l[5], 1) ||
                         edgel_itk_marks_crossing(c, l[7], 1);
    return edgel_itk_gradient_at_maximum(g, l) * (crossing ? 1.0f : 0.0f);
}

/* Hysteresis classes, with ITK's strict comparisons in float. Thresholds are not swapped:
 * when upper < lower, a seed at or below lower is still an edge and spreads to neighbours
 * above lower, as in ITK's flood fill. */
EDGEL_HD uint8_t edgel_itk_class(float v, float lower, float upper)
{
    return v > upper ? EDGEL_MAP_STRONG : v > lower ? EDGEL_MAP_WEAK : EDGEL_MAP_NONE;
}

#endif
