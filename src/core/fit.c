/* Fits of lines, circles and ellipses (core/fit.h). */
#include "core/fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

void edgel_fit_defaults(edgel_fit_params *p)
{
    memset(p, 0, sizeof *p);
    p->struct_size = sizeof *p;
    p->geometric = 1;
    p->weight = EDGEL_FIT_PLAIN;
    p->iterations = 5;
    p->clipping_factor = 2.0;
    p->clip_ends = 0;
    p->algebraic = EDGEL_FIT_TAUBIN;
}

/* ---- small dense algebra ---------------------------------------------------------------- */

/* Solves the k x k system a x = b (k <= 5) by Gaussian elimination with partial pivoting, b
 * replaced by x; 0 where a is singular. */
static int solve(double *a, double *b, int k)
{
    for (int c = 0; c < k; c++) {
        int p = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(a[r * k + c]) > fabs(a[p * k + c]))
                p = r;
        if (!(fabs(a[p * k + c]) > 0.0))
            return 0;
        if (p != c) {
            for (int j = 0; j < k; j++) {
                const double t = a[c * k + j];
                a[c * k + j] = a[p * k + j], a[p * k + j] = t;
            }
            const double t = b[c];
            b[c] = b[p], b[p] = t;
        }
        for (int r = c + 1; r < k; r++) {
            const double f = a[r * k + c] / a[c * k + c];
            for (int j = c; j < k; j++)
                a[r * k + j] -= f * a[c * k + j];
            b[r] -= f * b[c];
        }
    }
    for (int c = k - 1; c >= 0; c--) {
        double s = b[c];
        for (int j = c + 1; j < k; j++)
            s -= a[c * k + j] * b[j];
        b[c] = s / a[c * k + c];
    }
    return 1;
}

/* The diagonal of the inverse of the k x k matrix a (k <= 5); 0 where it is singular. */
static int inverse_diagonal(const double *a, int k, double *diag)
{
    for (int i = 0; i < k; i++) {
        double m[25], e[5] = {0};
        memcpy(m, a, sizeof(double) * (size_t)(k * k));
        e[i] = 1.0;
        if (!solve(m, e, k))
            return 0;
        diag[i] = e[i];
    }
    return 1;
}

/* ---- weights -------------------------------------------------------------------------- */

/* The k-th smallest of v[0 .. n-1] (reordering v). */
static double select_kth(double *v, int64_t n, int64_t k)
{
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        const double pivot = v[lo + (hi - lo) / 2];
        int64_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                const double t = v[i];
                v[i++] = v[j], v[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

/* One fit's state: the points' range after the clipped ends, their weights and distances
 * (signed, to the last fit), and scratch for the median. */
typedef struct fit_run {
    const double *x, *y;
    int64_t lo, hi;
    double *w, *d, *scratch;
} fit_run;

static edgel_fit_outcome run_start(fit_run *r, const double *x, const double *y, int64_t n,
                                   const edgel_fit_params *p)
{
    r->x = x, r->y = y;
    r->lo = p->clip_ends, r->hi = n - p->clip_ends;
    r->w = malloc(sizeof(double) * (size_t)n);
    r->d = malloc(sizeof(double) * (size_t)n);
    r->scratch = malloc(sizeof(double) * (size_t)n);
    if (!r->w || !r->d || !r->scratch)
        return EDGEL_FIT_NO_MEMORY;
    for (int64_t i = 0; i < n; i++)
        r->w[i] = i >= r->lo && i < r->hi ? 1.0 : 0.0;
    return EDGEL_FIT_DONE;
}

static void run_end(fit_run *r)
{
    free(r->w), free(r->d), free(r->scratch);
}

/* New weights from the distances: Huber's or Tukey's on a scale of the clipping factor times
 * the distances' robust spread. Returns 0 where the spread is 0 (the fit passes through every
 * point: nothing to weigh). */
static int reweigh(fit_run *r, const edgel_fit_params *p)
{
    const int64_t m = r->hi - r->lo;
    for (int64_t i = 0; i < m; i++)
        r->scratch[i] = fabs(r->d[r->lo + i]);
    const double median = select_kth(r->scratch, m, m / 2);
    const double c = p->clipping_factor * median / 0.6745;
    if (!(c > 0.0))
        return 0;
    for (int64_t i = r->lo; i < r->hi; i++) {
        const double a = fabs(r->d[i]);
        if (p->weight == EDGEL_FIT_HUBER) {
            r->w[i] = a <= c ? 1.0 : c / a;
        } else {
            const double u = a / c;
            r->w[i] = u < 1.0 ? (1.0 - u * u) * (1.0 - u * u) : 0.0;
        }
    }
    return 1;
}

/* The quality of a fit: distances of the kept points; kept[] marked. */
static void quality_of(const fit_run *r, int64_t n, edgel_fit_quality *q, uint8_t *kept)
{
    double sum = 0.0, worst = 0.0;
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++) {
        const int in = r->w[i] > 0.0;
        if (kept)
            kept[i] = (uint8_t)in;
        if (!in)
            continue;
        sum += r->d[i] * r->d[i];
        worst = fabs(r->d[i]) > worst ? fabs(r->d[i]) : worst;
        count++;
    }
    q->rms = count ? sqrt(sum / (double)count) : 0.0;
    q->max_distance = worst;
    q->kept = count;
}

static int64_t kept_count(const fit_run *r)
{
    int64_t k = 0;
    for (int64_t i = r->lo; i < r->hi; i++)
        k += r->w[i] > 0.0;
    return k;
}

/* The weighted mean of the points, and the weighted second moments about it. */
typedef struct moments {
    double w, mx, my, sxx, sxy, syy;
} moments;

static moments moments_of(const fit_run *r)
{
    moments m = {0};
    for (int64_t i = r->lo; i < r->hi; i++) {
        m.w += r->w[i];
        m.mx += r->w[i] * r->x[i];
        m.my += r->w[i] * r->y[i];
    }
    m.mx /= m.w, m.my /= m.w;
    for (int64_t i = r->lo; i < r->hi; i++) {
        const double u = r->x[i] - m.mx, v = r->y[i] - m.my;
        m.sxx += r->w[i] * u * u;
        m.sxy += r->w[i] * u * v;
        m.syy += r->w[i] * v * v;
    }
    return m;
}

/* The first and last kept points. */
static void kept_ends(const fit_run *r, int64_t *first, int64_t *last)
{
    *first = r->lo, *last = r->hi - 1;
    while (*first < *last && !(r->w[*first] > 0.0))
        (*first)++;
    while (*last > *first && !(r->w[*last] > 0.0))
        (*last)--;
}

/* The arc the kept points span about (cx, cy), in their order: its start and end angles. */
static void arc_of(const fit_run *r, double cx, double cy, double *start, double *end)
{
    double sweep = 0.0, first = 0.0, last = 0.0, prev = 0.0;
    int any = 0;
    for (int64_t i = r->lo; i < r->hi; i++) {
        if (!(r->w[i] > 0.0))
            continue;
        const double a = atan2(r->y[i] - cy, r->x[i] - cx);
        if (!any) {
            first = prev = a, any = 1;
            continue;
        }
        double step = a - prev;
        step -= 2.0 * PI * floor((step + PI) / (2.0 * PI));
        sweep += step;
        prev = last = a;
    }
    if (sweep < 0.0) { /* run it the other way: counter-clockwise from the last point */
        first = last;
        sweep = -sweep;
    }
    if (sweep > 2.0 * PI)
        sweep = 2.0 * PI;
    first -= 2.0 * PI * floor(first / (2.0 * PI));
    *start = first;
    *end = first + sweep;
}

/* A shape fitted to the points in range with their weights, their distances to it into
 * r->d; 0 where none fits. */
typedef int (*shape_fn)(fit_run *r, const edgel_fit_params *p, void *shape);

/* The fit's rounds: the shape from every point in range, then, with robust weights, again
 * from the reweighed points `iterations` times; degenerate where no shape fits or fewer than
 * `least` points are kept. */
static edgel_fit_outcome fit_rounds(fit_run *r, const edgel_fit_params *p, int64_t least,
                                    shape_fn fit, void *shape)
{
    if (!fit(r, p, shape))
        return EDGEL_FIT_DEGENERATE;
    for (int it = 0; p->weight != EDGEL_FIT_PLAIN && it < p->iterations; it++) {
        if (!reweigh(r, p))
            break;
        if (kept_count(r) < least || !fit(r, p, shape))
            return EDGEL_FIT_DEGENERATE;
    }
    return EDGEL_FIT_DONE;
}

/* ---- lines ------------------------------------------------------------------------------ */

/* Total least squares: the normal is the second moments' eigenvector of the least value. */
static int line_shape(fit_run *r, const edgel_fit_params *p, void *shape)
{
    edgel_line_fit *f = shape;
    (void)p;
    const moments m = moments_of(r);
    if (!(m.sxx + m.syy > 0.0))
        return 0;
    const double theta = 0.5 * atan2(2.0 * m.sxy, m.sxx - m.syy); /* the direction */
    f->nx = -sin(theta), f->ny = cos(theta);
    f->distance = f->nx * m.mx + f->ny * m.my;
    if (f->distance < 0.0)
        f->nx = -f->nx, f->ny = -f->ny, f->distance = -f->distance;
    for (int64_t i = r->lo; i < r->hi; i++)
        r->d[i] = f->nx * r->x[i] + f->ny * r->y[i] - f->distance;
    return 1;
}

edgel_fit_outcome edgel_fit_line_run(const double *x, const double *y, int64_t n,
                                     const edgel_fit_params *p, edgel_line_fit *out,
                                     uint8_t *kept)
{
    fit_run r;
    edgel_fit_outcome o = run_start(&r, x, y, n, p);
    edgel_line_fit f = {0};
    if (o == EDGEL_FIT_DONE)
        o = fit_rounds(&r, p, 2, line_shape, &f);
    if (o == EDGEL_FIT_DONE) {
        int64_t a, b;
        kept_ends(&r, &a, &b);
        const double da = f.nx * x[a] + f.ny * y[a] - f.distance;
        const double db = f.nx * x[b] + f.ny * y[b] - f.distance;
        f.x0 = x[a] - da * f.nx, f.y0 = y[a] - da * f.ny;
        f.x1 = x[b] - db * f.nx, f.y1 = y[b] - db * f.ny;
        quality_of(&r, n, &f.quality, kept);
        *out = f;
    }
    run_end(&r);
    return o;
}

/* ---- circles ---------------------------------------------------------------------------- */

/* Taubin's fit (Chernov's Newton iteration on its characteristic polynomial) or Kasa's, on
 * the points centred at their weighted mean. */
static int circle_algebraic(const fit_run *r, edgel_fit_algebraic kind, double c[3])
{
    const moments m = moments_of(r);
    double mxx = 0, myy = 0, mxy = 0, mxz = 0, myz = 0, mzz = 0;
    for (int64_t i = r->lo; i < r->hi; i++) {
        const double w = r->w[i], u = r->x[i] - m.mx, v = r->y[i] - m.my, z = u * u + v * v;
        mxx += w * u * u, myy += w * v * v, mxy += w * u * v;
        mxz += w * u * z, myz += w * v * z, mzz += w * z * z;
    }
    mxx /= m.w, myy /= m.w, mxy /= m.w, mxz /= m.w, myz /= m.w, mzz /= m.w;
    const double mz = mxx + myy, cov = mxx * myy - mxy * mxy;
    if (!(cov > 1e-14 * mz * mz)) /* collinear (or coincident) points: a sagitta below 1e-7 */
        return 0;
    double root = 0.0;
    if (kind == EDGEL_FIT_TAUBIN) {
        const double var = mzz - mz * mz;
        const double a3 = 4.0 * mz, a2 = -3.0 * mz * mz - mzz;
        const double a1 = var * mz + 4.0 * cov * mz - mxz * mxz - myz * myz;
        const double a0 = mxz * (mxz * myy - myz * mxy) + myz * (myz * mxx - mxz * mxy) - var * cov;
        double y = a0;
        for (int k = 0; k < 99; k++) {
            const double dy = a1 + root * (2.0 * a2 + 3.0 * a3 * root);
            const double next = root - y / dy;
            if (next == root || !isfinite(next))
                break;
            const double ny = a0 + next * (a1 + next * (a2 + next * a3));
            if (fabs(ny) >= fabs(y))
                break;
            root = next, y = ny;
        }
    }
    /* Kasa's is Taubin's with the root 0: the centre of (mxx - root) etc. */
    const double det = root * root - root * mz + cov;
    if (!(fabs(det) > 0.0))
        return 0;
    const double u0 = (mxz * (myy - root) - myz * mxy) / det / 2.0;
    const double v0 = (myz * (mxx - root) - mxz * mxy) / det / 2.0;
    c[0] = u0 + m.mx, c[1] = v0 + m.my, c[2] = sqrt(u0 * u0 + v0 * v0 + mz);
    return isfinite(c[0]) && isfinite(c[1]) && isfinite(c[2]);
}

static void circle_distances(const fit_run *r, const double c[3])
{
    for (int64_t i = r->lo; i < r->hi; i++)
        r->d[i] = hypot(r->x[i] - c[0], r->y[i] - c[1]) - c[2];
}

/* The weighted sum of squared distances and, where asked, the normal equations J'WJ and
 * J'Wd of the residuals' Jacobian. */
static double circle_normal(const fit_run *r, const double c[3], double *jtj, double *jtd)
{
    double cost = 0.0;
    if (jtj)
        memset(jtj, 0, sizeof(double) * 9), memset(jtd, 0, sizeof(double) * 3);
    for (int64_t i = r->lo; i < r->hi; i++) {
        const double w = r->w[i];
        if (!(w > 0.0))
            continue;
        const double dx = r->x[i] - c[0], dy = r->y[i] - c[1], rho = hypot(dx, dy);
        const double d = rho - c[2];
        cost += w * d * d;
        if (!jtj)
            continue;
        const double j[3] = {rho > 0.0 ? -dx / rho : 0.0, rho > 0.0 ? -dy / rho : 0.0, -1.0};
        for (int a = 0; a < 3; a++) {
            jtd[a] += w * j[a] * d;
            for (int b = 0; b < 3; b++)
                jtj[a * 3 + b] += w * j[a] * j[b];
        }
    }
    return cost;
}

/* Levenberg-Marquardt on k parameters: `normal` gives the cost and, where asked, the normal
 * equations at a parameter vector. Returns the final J'WJ in jtj_out. */
typedef double (*normal_fn)(const fit_run *r, const double *c, double *jtj, double *jtd);

static void levenberg_marquardt(const fit_run *r, double *c, int k, normal_fn normal,
                                double *jtj_out)
{
    double jtj[25], jtd[5], lambda = 1e-3;
    double cost = normal(r, c, jtj, jtd);
    for (int it = 0; it < 100; it++) {
        double a[25], step[5], trial[5];
        memcpy(a, jtj, sizeof(double) * (size_t)(k * k));
        for (int i = 0; i < k; i++) {
            a[i * k + i] += lambda * (jtj[i * k + i] > 0.0 ? jtj[i * k + i] : 1.0);
            step[i] = -jtd[i];
        }
        if (!solve(a, step, k))
            break;
        double size = 0.0, scale = 0.0;
        for (int i = 0; i < k; i++) {
            trial[i] = c[i] + step[i];
            size += step[i] * step[i];
            scale += c[i] * c[i];
        }
        const double next = normal(r, trial, NULL, NULL);
        if (isfinite(next) && next <= cost) {
            memcpy(c, trial, sizeof(double) * (size_t)k);
            /* done: a step of 1e-12 of the parameters, or a cost 1e-12 lower at most */
            const int done = size <= 1e-24 * (scale + 1.0) || cost - next <= 1e-12 * cost;
            cost = normal(r, c, jtj, jtd);
            lambda = lambda / 10.0 > 1e-12 ? lambda / 10.0 : 1e-12;
            if (done)
                break;
        } else {
            lambda *= 10.0;
            if (lambda > 1e8) /* no step down from here: a minimum */
                break;
        }
    }
    memcpy(jtj_out, jtj, sizeof(double) * (size_t)(k * k));
}

/* Standard deviations of k parameters: the residual variance times (J'WJ)^-1's diagonal. */
static void deviations(const fit_run *r, const double *jtj, int k, double *sd)
{
    double cost = 0.0;
    for (int64_t i = r->lo; i < r->hi; i++)
        cost += r->w[i] * r->d[i] * r->d[i];
    const int64_t dof = kept_count(r) - k;
    double diag[5];
    for (int i = 0; i < k; i++)
        sd[i] = 0.0;
    if (dof < 1 || !inverse_diagonal(jtj, k, diag))
        return;
    for (int i = 0; i < k; i++)
        sd[i] = diag[i] > 0.0 ? sqrt(cost / (double)dof * diag[i]) : 0.0;
}

static double circle_normal_fn(const fit_run *r, const double *c, double *jtj, double *jtd)
{
    return circle_normal(r, c, jtj, jtd);
}

/* A circle's centre, radius and their standard deviations. */
typedef struct circle_shape_t {
    double c[3], sd[3];
} circle_shape_t;

static int circle_shape(fit_run *r, const edgel_fit_params *p, void *shape)
{
    double *c = ((circle_shape_t *)shape)->c, *sd = ((circle_shape_t *)shape)->sd;
    if (!circle_algebraic(r, p->algebraic, c))
        return 0;
    sd[0] = sd[1] = sd[2] = 0.0;
    if (p->geometric) {
        double jtj[9];
        levenberg_marquardt(r, c, 3, circle_normal_fn, jtj);
        c[2] = fabs(c[2]);
        circle_distances(r, c);
        deviations(r, jtj, 3, sd);
    } else {
        circle_distances(r, c);
    }
    return isfinite(c[0]) && isfinite(c[1]) && isfinite(c[2]);
}

edgel_fit_outcome edgel_fit_circle_run(const double *x, const double *y, int64_t n,
                                       const edgel_fit_params *p, edgel_circle_fit *out,
                                       uint8_t *kept)
{
    fit_run r;
    edgel_fit_outcome o = run_start(&r, x, y, n, p);
    circle_shape_t shape;
    if (o == EDGEL_FIT_DONE)
        o = fit_rounds(&r, p, 3, circle_shape, &shape);
    const double *c = shape.c, *sd = shape.sd;
    if (o == EDGEL_FIT_DONE) {
        edgel_circle_fit f = {0};
        f.cx = c[0], f.cy = c[1], f.radius = c[2];
        f.sd_cx = sd[0], f.sd_cy = sd[1], f.sd_radius = sd[2];
        arc_of(&r, f.cx, f.cy, &f.start_angle, &f.end_angle);
        quality_of(&r, n, &f.quality, kept);
        *out = f;
    }
    run_end(&r);
    return o;
}

/* ---- ellipses --------------------------------------------------------------------------- */

/* The real eigenvalues of the 3 x 3 matrix m (roots of its characteristic polynomial, by
 * the trigonometric or Cardano form); how many. */
static int eigenvalues3(const double *m, double *root)
{
    const double tr = m[0] + m[4] + m[8];
    const double minors = m[0] * m[4] - m[1] * m[3] + m[0] * m[8] - m[2] * m[6] + m[4] * m[8] -
                          m[5] * m[7];
    const double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                       m[2] * (m[3] * m[7] - m[4] * m[6]);
    /* l^3 - tr l^2 + minors l - det = 0; l = t + tr / 3: t^3 + p t + q = 0 */
    const double s = tr / 3.0;
    const double pp = minors - tr * tr / 3.0;
    const double q = -2.0 * tr * tr * tr / 27.0 + tr * minors / 3.0 - det;
    const double disc = q * q / 4.0 + pp * pp * pp / 27.0;
    if (disc > 0.0) {
        const double sq = sqrt(disc);
        root[0] = cbrt(-q / 2.0 + sq) + cbrt(-q / 2.0 - sq) + s;
        return 1;
    }
    const double rr = sqrt(-pp / 3.0);
    if (!(rr > 0.0)) {
        root[0] = s;
        return 1;
    }
    double cosine = -q / (2.0 * rr * rr * rr);
    cosine = cosine > 1.0 ? 1.0 : cosine < -1.0 ? -1.0 : cosine;
    const double phi = acos(cosine);
    for (int k = 0; k < 3; k++)
        root[k] = 2.0 * rr * cos((phi - 2.0 * PI * k) / 3.0) + s;
    return 3;
}

/* An eigenvector of m for eigenvalue l: the largest cross product of two rows of m - l I. */
static void eigenvector3(const double *m, double l, double *v)
{
    double a[9];
    memcpy(a, m, sizeof a);
    a[0] -= l, a[4] -= l, a[8] -= l;
    v[0] = v[1] = v[2] = 0.0;
    double best = -1.0;
    for (int i = 0; i < 3; i++) {
        const double *r = a + 3 * i, *q = a + 3 * ((i + 1) % 3);
        const double c[3] = {r[1] * q[2] - r[2] * q[1], r[2] * q[0] - r[0] * q[2],
                             r[0] * q[1] - r[1] * q[0]};
        const double n = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        if (n > best)
            best = n, memcpy(v, c, sizeof c);
    }
}

/* Fitzgibbon's direct fit in Halir and Flusser's form, on the points centred at their mean
 * and scaled to unit spread, to centre, half axes and angle: e = {cx, cy, a, b, angle}. */
static int ellipse_algebraic(const fit_run *r, double e[5])
{
    const moments m = moments_of(r);
    const double scale = sqrt((m.sxx + m.syy) / m.w);
    if (!(scale > 0.0))
        return 0;
    double s1[9] = {0}, s2[9] = {0}, s3[9] = {0};
    for (int64_t i = r->lo; i < r->hi; i++) {
        const double w = r->w[i];
        if (!(w > 0.0))
            continue;
        const double u = (r->x[i] - m.mx) / scale, v = (r->y[i] - m.my) / scale;
        const double d1[3] = {u * u, u * v, v * v}, d2[3] = {u, v, 1.0};
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                s1[a * 3 + b] += w * d1[a] * d1[b];
                s2[a * 3 + b] += w * d1[a] * d2[b];
                s3[a * 3 + b] += w * d2[a] * d2[b];
            }
    }
    double t[9]; /* t = -s3^-1 s2' */
    for (int col = 0; col < 3; col++) {
        double a[9], b[3] = {-s2[col * 3 + 0], -s2[col * 3 + 1], -s2[col * 3 + 2]};
        memcpy(a, s3, sizeof a);
        if (!solve(a, b, 3))
            return 0;
        for (int row = 0; row < 3; row++)
            t[row * 3 + col] = b[row];
    }
    double mm[9]; /* s1 + s2 t */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double sum = s1[a * 3 + b];
            for (int k = 0; k < 3; k++)
                sum += s2[a * 3 + k] * t[k * 3 + b];
            mm[a * 3 + b] = sum;
        }
    const double red[9] = {mm[6] / 2.0, mm[7] / 2.0, mm[8] / 2.0, -mm[3], -mm[4], -mm[5],
                           mm[0] / 2.0, mm[1] / 2.0, mm[2] / 2.0}; /* C1^-1 mm */
    double roots[3], conic[6] = {0};
    const int nroots = eigenvalues3(red, roots);
    double best = 0.0;
    for (int k = 0; k < nroots; k++) {
        double v[3];
        eigenvector3(red, roots[k], v);
        const double cond = 4.0 * v[0] * v[2] - v[1] * v[1];
        const double norm = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if (norm > 0.0 && cond / norm > best) {
            best = cond / norm;
            conic[0] = v[0], conic[1] = v[1], conic[2] = v[2];
        }
    }
    if (!(best > 0.0))
        return 0;
    for (int row = 0; row < 3; row++)
        conic[3 + row] = t[row * 3] * conic[0] + t[row * 3 + 1] * conic[1] +
                         t[row * 3 + 2] * conic[2];
    /* A u^2 + B u v + C v^2 + D u + E v + F = 0 */
    const double A = conic[0], B = conic[1], C = conic[2], D = conic[3], E = conic[4];
    const double den = 4.0 * A * C - B * B;
    const double u0 = (B * E - 2.0 * C * D) / den, v0 = (B * D - 2.0 * A * E) / den;
    const double f0 = conic[5] + (D * u0 + E * v0) / 2.0;
    /* [[A, B/2], [B/2, C]]: eigenvalues l1 <= l2; the major axis goes with l1 */
    const double mean = (A + C) / 2.0, half = hypot((A - C) / 2.0, B / 2.0);
    const double l1 = mean - half, l2 = mean + half;
    const double a2 = -f0 / l1, b2 = -f0 / l2;
    if (!(a2 > 0.0) || !(b2 > 0.0))
        return 0;
    const double angle = 0.5 * atan2(-B, C - A); /* l1's eigenvector: a2's axis */
    e[0] = u0 * scale + m.mx, e[1] = v0 * scale + m.my;
    e[2] = sqrt(a2) * scale, e[3] = sqrt(b2) * scale, e[4] = angle;
    return isfinite(e[0]) && isfinite(e[1]) && isfinite(e[2]) && isfinite(e[3]);
}

/* The foot of the point (q0, q1) >= 0 on the ellipse of half axes e0 >= e1 > 0 (Eberly's
 * robust distance: bisection on the root of its secular equation), as (cos t, sin t). */
static void foot_quadrant(double e0, double e1, double q0, double q1, double *ct, double *st)
{
    if (q1 > 0.0) {
        if (q0 > 0.0) {
            const double z0 = q0 / e0, z1 = q1 / e1, g = z0 * z0 + z1 * z1 - 1.0;
            if (g != 0.0) {
                const double ratio = (e0 / e1) * (e0 / e1);
                double lo = -1.0 + z1, hi = g < 0.0 ? 0.0 : hypot(ratio * z0, z1) - 1.0, s = 0.0;
                for (int i = 0; i < 160; i++) {
                    s = (lo + hi) / 2.0;
                    if (s == lo || s == hi)
                        break;
                    const double n0 = ratio * z0 / (s + ratio), n1 = z1 / (s + 1.0);
                    const double gs = n0 * n0 + n1 * n1 - 1.0;
                    if (gs > 0.0)
                        lo = s;
                    else if (gs < 0.0)
                        hi = s;
                    else
                        break;
                }
                const double x0 = ratio * q0 / (s + ratio), x1 = q1 / (s + 1.0);
                *ct = x0 / e0, *st = x1 / e1;
                return;
            }
            *ct = z0, *st = z1;
            return;
        }
        *ct = 0.0, *st = 1.0;
        return;
    }
    const double numer = e0 * q0, denom = e0 * e0 - e1 * e1;
    if (numer < denom) {
        const double xde0 = numer / denom;
        *ct = xde0, *st = sqrt(1.0 - xde0 * xde0 > 0.0 ? 1.0 - xde0 * xde0 : 0.0);
        return;
    }
    *ct = 1.0, *st = 0.0;
}

/* The signed distance of (px, py) to the ellipse e (positive outside) and the derivatives of
 * it by e's five parameters (the envelope theorem: -n . d foot / d parameter at the foot). */
static double ellipse_distance(const double e[5], double px, double py, double *grad)
{
    const double c = cos(e[4]), s = sin(e[4]);
    const double dx = px - e[0], dy = py - e[1];
    const double q0 = c * dx + s * dy, q1 = -s * dx + c * dy; /* in the ellipse's frame */
    double a = fabs(e[2]), b = fabs(e[3]), ct, st;
    if (a >= b) {
        foot_quadrant(a, b, fabs(q0), fabs(q1), &ct, &st);
    } else {
        foot_quadrant(b, a, fabs(q1), fabs(q0), &st, &ct);
    }
    ct = q0 < 0.0 ? -ct : ct, st = q1 < 0.0 ? -st : st;
    const double f0 = a * ct, f1 = b * st; /* the foot, in the frame */
    double n0 = b * ct, n1 = a * st;      /* the outward normal there */
    const double nn = hypot(n0, n1);
    n0 /= nn, n1 /= nn;
    const double d = n0 * (q0 - f0) + n1 * (q1 - f1);
    if (grad) {
        /* the normal in the image's axes, and the foot's derivatives */
        const double gx = c * n0 - s * n1, gy = s * n0 + c * n1;
        grad[0] = -gx, grad[1] = -gy;
        grad[2] = -(n0 * ct) * (e[2] < 0.0 ? -1.0 : 1.0);
        grad[3] = -(n1 * st) * (e[3] < 0.0 ? -1.0 : 1.0);
        /* d foot / d angle = R'(angle) (f0, f1) = (-s f0 - c f1, c f0 - s f1) in the image */
        grad[4] = -(gx * (-s * f0 - c * f1) + gy * (c * f0 - s * f1));
    }
    return d;
}

static double ellipse_normal_fn(const fit_run *r, const double *e, double *jtj, double *jtd)
{
    double cost = 0.0;
    if (jtj)
        memset(jtj, 0, sizeof(double) * 25), memset(jtd, 0, sizeof(double) * 5);
    for (int64_t i = r->lo; i < r->hi; i++) {
        const double w = r->w[i];
        if (!(w > 0.0))
            continue;
        double g[5];
        const double d = ellipse_distance(e, r->x[i], r->y[i], jtj ? g : NULL);
        cost += w * d * d;
        if (!jtj)
            continue;
        for (int a = 0; a < 5; a++) {
            jtd[a] += w * g[a] * d;
            for (int b = 0; b < 5; b++)
                jtj[a * 5 + b] += w * g[a] * g[b];
        }
    }
    return cost;
}

/* Half axes a >= b > 0 and the angle in (-pi/2, pi/2]. */
static void ellipse_normalise(double e[5])
{
    e[2] = fabs(e[2]), e[3] = fabs(e[3]);
    if (e[2] < e[3]) {
        const double t = e[2];
        e[2] = e[3], e[3] = t;
        e[4] += PI / 2.0;
    }
    e[4] -= PI * floor(e[4] / PI);
    if (e[4] > PI / 2.0)
        e[4] -= PI;
}

/* An ellipse's centre, half axes, angle and their standard deviations. */
typedef struct ellipse_shape_t {
    double e[5], sd[5];
} ellipse_shape_t;

static int ellipse_shape(fit_run *r, const edgel_fit_params *p, void *shape)
{
    double *e = ((ellipse_shape_t *)shape)->e, *sd = ((ellipse_shape_t *)shape)->sd;
    if (!ellipse_algebraic(r, e))
        return 0;
    for (int i = 0; i < 5; i++)
        sd[i] = 0.0;
    if (p->geometric) {
        double jtj[25];
        levenberg_marquardt(r, e, 5, ellipse_normal_fn, jtj);
        for (int64_t i = r->lo; i < r->hi; i++)
            r->d[i] = ellipse_distance(e, r->x[i], r->y[i], NULL);
        deviations(r, jtj, 5, sd);
        if (fabs(e[2]) < fabs(e[3])) { /* the axes swapped roles */
            const double t = sd[2];
            sd[2] = sd[3], sd[3] = t;
        }
    }
    ellipse_normalise(e);
    for (int64_t i = r->lo; i < r->hi; i++)
        r->d[i] = ellipse_distance(e, r->x[i], r->y[i], NULL);
    return isfinite(e[0]) && isfinite(e[1]) && isfinite(e[2]) && isfinite(e[3]) && e[3] > 0.0;
}

edgel_fit_outcome edgel_fit_ellipse_run(const double *x, const double *y, int64_t n,
                                        const edgel_fit_params *p, edgel_ellipse_fit *out,
                                        uint8_t *kept)
{
    fit_run r;
    edgel_fit_outcome o = run_start(&r, x, y, n, p);
    ellipse_shape_t shape;
    if (o == EDGEL_FIT_DONE)
        o = fit_rounds(&r, p, 5, ellipse_shape, &shape);
    const double *e = shape.e, *sd = shape.sd;
    if (o == EDGEL_FIT_DONE) {
        edgel_ellipse_fit f = {0};
        f.cx = e[0], f.cy = e[1], f.a = e[2], f.b = e[3], f.angle = e[4];
        f.sd_cx = sd[0], f.sd_cy = sd[1], f.sd_a = sd[2], f.sd_b = sd[3], f.sd_angle = sd[4];
        arc_of(&r, f.cx, f.cy, &f.start_angle, &f.end_angle);
        quality_of(&r, n, &f.quality, kept);
        *out = f;
    }
    run_end(&r);
    return o;
}
