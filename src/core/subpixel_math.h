/*
 * The per-pixel arithmetic of the Canny/Devernay sub-pixel detector (von Gioi and Randall,
 * IPOL 2017), written from its description: each expression in the reference's order of
 * operations and precision (doubles), so that every point equals the reference program's
 * bit for bit. Compiled for the host, and for the device in CUDA sources.
 */
#ifndef EDGEL_CORE_SUBPIXEL_MATH_H
#define EDGEL_CORE_SUBPIXEL_MATH_H

#include <float.h>
#include <math.h>

#include "core/host_device.h"

/* The half size of the blur's kernel: its first discarded tap is at least 10^3 times smaller
 * than the centre one. */
EDGEL_HD int edgel_subpixel_radius(double sigma)
{
    return (int)ceil(sigma * sqrt(2.0 * 3.0 * log(10.0)));
}

/* The halo in pixels a piece of an image needs for its points to be the whole image's: the
 * blur's radius, then two pixels for the points and two more for their neighbours. */
EDGEL_HD int edgel_subpixel_piece_halo(double sigma)
{
    return edgel_subpixel_radius(sigma) + 4;
}

/* Index j of 0..n-1 after the reference's symmetric extension (period 2n). */
EDGEL_HD int edgel_subpixel_mirror(long long j, int n)
{
    const long long n2 = 2LL * n;
    j %= n2;
    if (j < 0)
        j += n2;
    return (int)(j >= n ? n2 - 1 - j : j);
}

/* The blur's 2 * radius + 1 taps: a sampled Gaussian normalised to sum 1, computed on the host
 * (the C library's exp, as the reference's) for every backend. */
static inline void edgel_subpixel_weights(double sigma, int radius, double *kernel)
{
    double sum = 0.0;
    for (int i = 0; i < 2 * radius + 1; i++) {
        const double v = ((double)i - (double)radius) / sigma;
        kernel[i] = exp(-0.5 * v * v);
        sum += kernel[i];
    }
    if (sum > 0.0)
        for (int i = 0; i < 2 * radius + 1; i++)
            kernel[i] /= sum;
}

/* a > b by more than rounding: moduli equal up to 1000 ulps of 1 count as equal. (Written
 * as two refusals, so that a NaN compares as the reference's does.) */
EDGEL_HD int edgel_subpixel_greater(double a, double b)
{
    return !(a <= b) & !(a - b < 1000 * DBL_EPSILON);
}

/* The edge point of a pixel of modulus `mod`, neighbours left/right (`l`, `r`) and below/above
 * (`d`, `u`, rows y - 1 and y + 1), gradient |gx|, |gy|: 1 along x (a horizontal maximum, the
 * gradient mostly horizontal), 2 along y, 0 none. Of two equal maxima the left (or lower) one
 * is the edge. (Without branches, so that a row of pixels vectorises.) */
EDGEL_HD int edgel_subpixel_axis(double mod, double l, double r, double d, double u, double gx,
                                 double gy)
{
    const int along_x = edgel_subpixel_greater(mod, l) & !edgel_subpixel_greater(r, mod) &
                        (gx >= gy);
    const int along_y = edgel_subpixel_greater(mod, d) & !edgel_subpixel_greater(u, mod) &
                        (gx <= gy);
    return along_x | (along_y & !along_x) << 1;
}

/* The vertex of the parabola through (-1, a), (0, b), (1, c): the point's offset along its
 * axis, in [-0.5, 0.5] for a maximum b. */
EDGEL_HD double edgel_subpixel_offset(double a, double b, double c)
{
    return 0.5 * (a - c) / (a - b - b + c);
}

/* The score of chaining point f (at fx, fy, gradient fgx, fgy) to point t: 0 where the
 * gradients are not both roughly across the line joining them on the same side, else the
 * inverse of their distance, positive when t lies forward of f (the gradient on its right),
 * negative when backward. Points that are not edge points (a negative coordinate) score 0.
 * (Computed whole and then chosen, without branches: half the candidates fail the test, at
 * random.) */
EDGEL_HD double edgel_subpixel_score(double fx, double fy, double fgx, double fgy, double tx,
                                     double ty, double tgx, double tgy)
{
    const double dx = tx - fx, dy = ty - fy;
    const double across_f = fgy * dx - fgx * dy, across_t = tgy * dx - tgx * dy;
    const double dist = sqrt((tx - fx) * (tx - fx) + (ty - fy) * (ty - fy));
    /* +-1/dist as the sign times 1/dist: division is symmetric in sign, so -1.0 / dist and
     * -(1.0 / dist) are the same double */
    const double s = (double)(2 * (across_f >= 0.0) - 1) * (1.0 / dist);
    const int edge_points = !(fx < 0.0) & !(fy < 0.0) & !(tx < 0.0) & !(ty < 0.0);
    return (edge_points & !(across_f * across_t <= 0.0)) ? s : 0.0;
}

#endif
