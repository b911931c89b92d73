/*
 * The arithmetic of edgel_curves_refine, one point at a time (docs/subpixel.md, "Refined
 * points"): a circle (or a line) fitted to the point's neighbours along its curve by Pratt's
 * algebraic fit, the point projected onto it, then moved away from the circle's centre by
 * the shift that blurring gives a disk's edge. Only +, -, *, / and sqrt, so that every
 * backend computes the same bits. Compiled for the host, and for the device in CUDA sources.
 */
#ifndef EDGEL_CORE_REFINE_MATH_H
#define EDGEL_CORE_REFINE_MATH_H

#include <math.h>
#include <stdint.h>

#include "core/host_device.h"

/* Variance a detected edge's profile adds to the blurs: the pixel's area (1/12), the centred
 * differences (1/3) and the parabola's vertex, calibrated on the noiseless disks of
 * bench/bench_subpixel_accuracy.py. */
#define EDGEL_REFINE_SAMPLING_VARIANCE 0.5
/* Below this radius, in standard deviations of the total blur, a disk's detected radius
 * hardly depends on its true one, so the shift is not applied (it would magnify noise). */
#define EDGEL_REFINE_MIN_RADIUS 1.5

/* I0(z) / I1(z) for z > 0 (modified Bessel functions), to about 1e-14: Gauss's continued
 * fraction below 40 (12 + z terms), Hankel's expansion (10 terms) above. */
EDGEL_HD double edgel_refine_bessel_ratio(double z)
{
    if (z >= 40.0) {
        double s0 = 1.0, s1 = 1.0, t0 = 1.0, t1 = 1.0;
        for (int k = 1; k <= 10; k++) {
            const double odd = (double)(2 * k - 1) * (double)(2 * k - 1), step = 8.0 * k * z;
            t0 *= odd / step;
            t1 *= (odd - 4.0) / step;
            s0 += t0;
            s1 += t1;
        }
        return s0 / s1;
    }
    double r = 0.0; /* I(k) / I(k - 1), from k = 12 + z down to 1 */
    for (int k = 12 + (int)z; k >= 1; k--)
        r = z / (2.0 * k + z * r);
    return 1.0 / r;
}

/* How far inside its true edge the gradient's maximum of a disk of radius R blurred by a
 * Gaussian of variance s2 lies, given that maximum's radius rho (>= EDGEL_REFINE_MIN_RADIUS
 * standard deviations): R - rho, where F(R) = R (q - 1 / z) = rho, q = I0(z) / I1(z), z = rho
 * R / s2, the peak of the blurred disk's radial derivative (R / s2) exp(-(r^2 + R^2) / (2
 * s2)) I1(r R / s2). Newton's steps, with F'(R) = 2 q + z (1 - q^2). */
EDGEL_HD double edgel_refine_disk_shift(double rho, double s2)
{
    double R = rho + s2 / (2.0 * rho);
    for (int i = 0; i < 50; i++) {
        const double z = rho * R / s2, q = edgel_refine_bessel_ratio(z);
        const double slope = 2.0 * q + z * (1.0 - q * q);
        if (!(slope > 0.0))
            break;
        const double step = (R * (q - 1.0 / z) - rho) / slope;
        R -= step;
        if (fabs(step) <= 1e-13 * rho)
            break;
    }
    return R - rho;
}

/* A circle a (x^2 + y^2) + b x + c y + d = 0 (a line where a = 0) with b^2 + c^2 - 4 a d =
 * 1, in coordinates less (mx, my). */
typedef struct edgel_refine_circle {
    double a, b, c, d, mx, my;
} edgel_refine_circle;

/* Point k (-n < k < 2n) of a curve of n points: around a loop, by index mod n. */
EDGEL_HD const double *edgel_refine_at(const double *xy, int64_t n, int64_t k)
{
    return xy + 2 * (k < 0 ? k + n : k >= n ? k - n : k);
}

/* The signed distance of (x, y) (less mx, my) to the circle: outside > 0 where a > 0. */
EDGEL_HD double edgel_refine_distance(const edgel_refine_circle *f, double x, double y)
{
    const double p = f->a * (x * x + y * y) + f->b * x + f->c * y + f->d;
    const double root = 1.0 + 4.0 * f->a * p;
    return 2.0 * p / (1.0 + (root > 0.0 ? sqrt(root) : 0.0));
}

/* Pratt's fit to points lo .. hi: the smallest root of its characteristic polynomial by
 * Newton's steps from 0 (Chernov, "Circular and Linear Regression", 2010); then the RMS of
 * the points' distances to it. 0 where the fit is degenerate. */
EDGEL_HD int edgel_refine_fit(const double *xy, int64_t n, int64_t lo, int64_t hi,
                              edgel_refine_circle *f, double *rms)
{
    const double m = (double)(hi - lo + 1);
    double mx = 0.0, my = 0.0;
    for (int64_t k = lo; k <= hi; k++) {
        const double *q = edgel_refine_at(xy, n, k);
        mx += q[0];
        my += q[1];
    }
    mx /= m;
    my /= m;
    double mxx = 0.0, myy = 0.0, mxy = 0.0, mxz = 0.0, myz = 0.0, mzz = 0.0;
    for (int64_t k = lo; k <= hi; k++) {
        const double *q = edgel_refine_at(xy, n, k);
        const double x = q[0] - mx, y = q[1] - my, z = x * x + y * y;
        mxx += x * x;
        myy += y * y;
        mxy += x * y;
        mxz += x * z;
        myz += y * z;
        mzz += z * z;
    }
    mxx /= m;
    myy /= m;
    mxy /= m;
    mxz /= m;
    myz /= m;
    mzz /= m;
    const double mz = mxx + myy, cov = mxx * myy - mxy * mxy, var_z = mzz - mz * mz;
    const double a2 = 4.0 * cov - 3.0 * mz * mz - mzz;
    const double a1 = var_z * mz + 4.0 * cov * mz - mxz * mxz - myz * myz;
    const double a0 = mxz * (mxz * myy - myz * mxy) + myz * (myz * mxx - mxz * mxy) - var_z * cov;
    double eta = 0.0, value = a0;
    for (int k = 0; k < 50; k++) {
        const double slope = a1 + eta * (2.0 * a2 + 16.0 * eta * eta);
        if (slope == 0.0)
            break;
        const double next = eta - value / slope;
        const double next_value = a0 + next * (a1 + next * (a2 + 4.0 * next * next));
        if (!isfinite(next) || fabs(next_value) >= fabs(value))
            break;
        eta = next;
        value = next_value;
    }
    if (eta < 0.0)
        eta = 0.0;
    const double a = eta * eta - eta * mz + cov;
    const double b = -(mxz * (myy - eta) - myz * mxy);
    const double c = -(myz * (mxx - eta) - mxz * mxy);
    const double d = -a * (mz + 2.0 * eta);
    const double norm = b * b + c * c - 4.0 * a * d;
    if (!(norm > 0.0) || !isfinite(norm))
        return 0;
    const double scale = 1.0 / sqrt(norm);
    f->a = a * scale;
    f->b = b * scale;
    f->c = c * scale;
    f->d = d * scale;
    f->mx = mx;
    f->my = my;
    double sum = 0.0;
    for (int64_t k = lo; k <= hi; k++) {
        const double *q = edgel_refine_at(xy, n, k);
        const double e = edgel_refine_distance(f, q[0] - mx, q[1] - my);
        sum += e * e;
    }
    *rms = sqrt(sum / m);
    return isfinite(*rms);
}

/* Point `i` of a curve of `n` distinct points (x, y interleaved in xy; a closed curve's
 * repeated last point is not among them), refined into (*ox, *oy): fitted with the points
 * within `window` of it along the curve (around a loop; fewer at an open curve's ends; all
 * of a loop shorter than the window), or half as many, and so on, the first window whose
 * points lie within `tolerance` (RMS) of their circle; projected onto that circle, then
 * moved by the disk shift for a total blur of variance s2. A point without such a window of
 * at least 5 points stays where it is. */
EDGEL_HD void edgel_refine_point(const double *xy, int64_t n, int closed, int64_t i, int window,
                                 double tolerance, double s2, double *ox, double *oy)
{
    const double px = xy[2 * i], py = xy[2 * i + 1];
    *ox = px;
    *oy = py;
    edgel_refine_circle f;
    int fitted = 0;
    for (int w = window; w >= 2 && !fitted; w /= 2) {
        int64_t lo = i - w, hi = i + w;
        if (closed && 2 * (int64_t)w + 1 >= n) {
            lo = 0;
            hi = n - 1;
        } else if (!closed) {
            lo = lo < 0 ? 0 : lo;
            hi = hi > n - 1 ? n - 1 : hi;
        }
        double rms;
        if (hi - lo + 1 < 5)
            return;
        fitted = edgel_refine_fit(xy, n, lo, hi, &f, &rms) && rms <= tolerance;
    }
    if (!fitted)
        return;
    const double x = px - f.mx, y = py - f.my;
    const double dist = edgel_refine_distance(&f, x, y);
    const double gx = 2.0 * f.a * x + f.b, gy = 2.0 * f.a * y + f.c, g = sqrt(gx * gx + gy * gy);
    if (!(g > 0.0) || !isfinite(dist))
        return;
    double move = -dist; /* along (gx, gy) / g */
    const double rho = 0.5 / fabs(f.a);
    if (f.a != 0.0 && rho >= EDGEL_REFINE_MIN_RADIUS * sqrt(s2))
        move += (f.a > 0.0 ? 1.0 : -1.0) * edgel_refine_disk_shift(rho, s2);
    const double nx = px + move * gx / g, ny = py + move * gy / g;
    if (isfinite(nx) && isfinite(ny)) { /* (points near the doubles' limits stay) */
        *ox = nx;
        *oy = ny;
    }
}

#endif
