/*
 * The per-pixel arithmetic of the skimage preset (skimage.feature.canny of scikit-image
 * 0.26 over scipy.ndimage), shared by the CPU and CUDA backends. Values travel as doubles;
 * where skimage stores an array of float32 (f32 input), `f32` rounds the value to float, which
 * gives float32 arithmetic's result exactly for + - * / and sqrt of floats (double has more
 * than twice float's precision). Builds must not contract a*b+c (-ffp-contract=off, nvcc
 * --fmad=false): NumPy's and SciPy's x86-64 binaries do not.
 */
#ifndef EDGEL_CORE_SKIMAGE_MATH_H
#define EDGEL_CORE_SKIMAGE_MATH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "core/host_device.h"
#include "core/opencv_math.h" /* the hysteresis map values */
#include "edgel.h"

/* An array store of skimage's float type. */
EDGEL_HD double edgel_sk_store(double v, int f32)
{
    return f32 ? (double)(float)v : v;
}

/* img_as_float of pixel x of a row: unsigned ints x * (1.0 / max), signed ones the same then
 * at least -1, bool 0 or 1, floats as they are. */
EDGEL_HD double edgel_sk_pixel(const void *row, int x, edgel_pixel_type type)
{
    switch (type) {
    case EDGEL_BOOL: return ((const uint8_t *)row)[x] ? 1.0 : 0.0;
    case EDGEL_U8: return (double)((const uint8_t *)row)[x] * (1.0 / 255);
    case EDGEL_U16: return (double)((const uint16_t *)row)[x] * (1.0 / 65535);
    case EDGEL_S16: {
        const double v = (double)((const int16_t *)row)[x] * (1.0 / 32767);
        return v < -1.0 ? -1.0 : v;
    }
    case EDGEL_S32: {
        const double v = (double)((const int32_t *)row)[x] * (1.0 / 2147483647);
        return v < -1.0 ? -1.0 : v;
    }
    case EDGEL_F32: return (double)((const float *)row)[x];
    default: return ((const double *)row)[x];
    }
}

/* scipy's correlate1d with a symmetric kernel: the sum starts at centre * w[0] and adds
 * edgel_sk_tap of the samples at distance k, for k = r down to 1. */
EDGEL_HD double edgel_sk_tap(double sum, double before, double after, double wk)
{
    return sum + (before + after) * wk;
}

/* skimage's bleed-over division: smoothed / (the mask's Gaussian + eps), stored. */
EDGEL_HD double edgel_sk_bleed(double smoothed, double mask_smoothed, double eps, int f32)
{
    return edgel_sk_store(smoothed / edgel_sk_store(mask_smoothed + eps, f32), f32);
}

/* ndi.sobel's two passes: correlate1d with [-1, 0, 1] (antisymmetric) along the derivative's
 * axis, then with [1, 2, 1] (symmetric) along the other. */
EDGEL_HD double edgel_sk_derivative(double before, double centre, double after)
{
    return centre * 0.0 + (before - after) * -1.0;
}

EDGEL_HD double edgel_sk_smooth3(double before, double centre, double after)
{
    return centre * 2.0 + (before + after) * 1.0;
}

/* ndi.sobel of the smoothed image along both axes at column x of the rows up, row and down
 * (y - 1, y, y + 1 after the 'reflect' border), with xl and xr its neighbours' columns:
 * isobel (axis 0) into *i, jsobel (axis 1) into *j, each pass stored. */
EDGEL_HD void edgel_sk_gradient(const double *up, const double *row, const double *down, int xl,
                                int x, int xr, int f32, double *i, double *j)
{
    const double jt0 = edgel_sk_store(edgel_sk_derivative(up[xl], up[x], up[xr]), f32);
    const double jt1 = edgel_sk_store(edgel_sk_derivative(row[xl], row[x], row[xr]), f32);
    const double jt2 = edgel_sk_store(edgel_sk_derivative(down[xl], down[x], down[xr]), f32);
    const double it0 = edgel_sk_store(edgel_sk_derivative(up[xl], row[xl], down[xl]), f32);
    const double it1 = edgel_sk_store(edgel_sk_derivative(up[x], row[x], down[x]), f32);
    const double it2 = edgel_sk_store(edgel_sk_derivative(up[xr], row[xr], down[xr]), f32);
    *j = edgel_sk_store(edgel_sk_smooth3(jt0, jt1, jt2), f32);
    *i = edgel_sk_store(edgel_sk_smooth3(it0, it1, it2), f32);
}

/* magnitude = isobel * isobel; magnitude += jsobel * jsobel; sqrt. */
EDGEL_HD double edgel_sk_magnitude(double i, double j, int f32)
{
    const double ii = edgel_sk_store(i * i, f32), jj = edgel_sk_store(j * j, f32);
    return edgel_sk_store(sqrt(edgel_sk_store(ii + jj, f32)), f32);
}

/* The bilinear non-maximum suppression of _nonmaximum_suppression_bilinear at one pixel
 * inside the eroded mask: isobel i (down the rows), jsobel j (along the columns), the
 * magnitude's 3x3 neighbourhood n (row-major, n[4] the pixel's) and the low threshold as the
 * float skimage passes; the magnitude kept, or 0. For float32 arrays the weight and the
 * diagonal product are floats and the rest double, as C promotes in skimage's Cython. */
EDGEL_HD double edgel_sk_suppress(double i, double j, const double n[9], float low, int f32)
{
    const double m = n[4];
    if (!(m >= (double)low))
        return 0.0;
    const int down = i <= 0, left = j <= 0;
    const int cond1 = (!down && !left) || (down && left);
    const double ai = fabs(i), aj = fabs(j);
    double w, a1, d1, a2, d2; /* axis and diagonal neighbours on either side */
    if (cond1) {
        if (ai > aj) {
            w = aj / ai;
            a1 = n[7], d1 = n[8], a2 = n[1], d2 = n[0];
        } else {
            w = ai / aj;
            a1 = n[5], d1 = n[8], a2 = n[3], d2 = n[0];
        }
    } else {
        if (ai < aj) {
            w = ai / aj;
            a1 = n[5], d1 = n[2], a2 = n[3], d2 = n[6];
        } else {
            w = aj / ai;
            a1 = n[1], d1 = n[2], a2 = n[7], d2 = n[6];
        }
    }
    w = edgel_sk_store(w, f32);
    const double plus = edgel_sk_store(d1 * w, f32) + a1 * (1.0 - w);
    if (!(plus <= m))
        return 0.0;
    const double minus = edgel_sk_store(d2 * w, f32) + a2 * (1.0 - w);
    return minus <= m ? m : 0.0;
}

/* The thresholds as skimage compares them: the low one as the C float the Cython takes (0
 * becomes 1e-14, so that zero magnitudes stay out); the high one against float32 arrays in
 * float for a Python float, in double for percentile's float64 (quantiles). */
EDGEL_HD float edgel_sk_low(double low)
{
    const float l = (float)low;
    return l == 0 ? (float)1e-14 : l;
}

EDGEL_HD double edgel_sk_high(double high, int f32, int quantiles)
{
    return f32 && !quantiles ? (double)(float)high : high;
}

/* Hysteresis class of a suppressed value: candidates are > 0, strong ones >= high. */
EDGEL_HD uint8_t edgel_sk_class(double suppressed, double high)
{
    if (!(suppressed > 0))
        return EDGEL_MAP_NONE;
    return suppressed >= high ? EDGEL_MAP_STRONG : EDGEL_MAP_WEAK;
}

/* np.percentile(values, 100 q) (linear) of n values whose order statistics number `below`
 * and `above` (ascending, from 0) are a and b: edgel_sk_quantile_index gives the two
 * numbers, edgel_sk_quantile_value the result. float32 arrays subtract in float. */
EDGEL_HD double edgel_sk_quantile_index(double q, size_t n, size_t *below, size_t *above)
{
    const double index = (double)(n - 1) * ((100.0 * q) / 100);
    *below = (size_t)floor(index);
    *above = *below + 1;
    if (index >= (double)(n - 1))
        *below = *above = n - 1;
    return index - floor(index);
}

EDGEL_HD double edgel_sk_quantile_value(double a, double b, double t, int f32)
{
    const double diff = edgel_sk_store(b - a, f32);
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

#endif
