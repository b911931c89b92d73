/* edgel_curves_refine: a noiseless circle lands where a blurred disk of that radius has its
 * gradient's maximum at the detected radius (checked against the blurred disk's profile
 * maximised here by a search); noise along a line is averaged out; corners move little;
 * short curves stay; the same points at every thread count; refusals with named statuses. */
#include "check.h"
#include "edgel.h"
#include "test_random.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static edgel_status refine(edgel_context *ctx, const edgel_refine_params *p, int64_t n,
                           int64_t m, const double *xy, const int64_t *limits,
                           const uint8_t *closed, double *out)
{
    return edgel_curves_refine(ctx, p, n, m, xy, limits, closed, out);
}

/* I1(z) by its power series (z small here). */
static double bessel_i1(double z)
{
    double term = z / 2.0, sum = term;
    for (int k = 1; k < 200; k++) {
        term *= (z / 2.0) * (z / 2.0) / ((double)k * (k + 1));
        sum += term;
    }
    return sum;
}

/* Where the radial derivative of a disk of radius R blurred with variance s2 is largest. */
static double blurred_disk_peak(double R, double s2)
{
    double lo = 0.0, hi = R;
    for (int i = 0; i < 200; i++) { /* golden-section search of a unimodal profile */
        const double a = hi - (hi - lo) * 0.6180339887, b = lo + (hi - lo) * 0.6180339887;
        const double fa = exp(-(a * a + R * R) / (2 * s2)) * bessel_i1(a * R / s2);
        const double fb = exp(-(b * b + R * R) / (2 * s2)) * bessel_i1(b * R / s2);
        if (fa < fb)
            lo = a;
        else
            hi = b;
    }
    return (lo + hi) / 2.0;
}

static void test_circle(edgel_context *ctx)
{
    enum { N = 60 };
    const double cx = 20.25, cy = 17.5, rho = 6.0;
    double xy[2 * (N + 1)], out[2 * (N + 1)];
    for (int i = 0; i < N; i++) {
        xy[2 * i] = cx + rho * cos(2 * 3.14159265358979323846 * i / N);
        xy[2 * i + 1] = cy + rho * sin(2 * 3.14159265358979323846 * i / N);
    }
    xy[2 * N] = xy[0];
    xy[2 * N + 1] = xy[1];
    const int64_t limits[2] = {0, N + 1};
    const uint8_t closed[1] = {1};
    edgel_refine_params p;
    edgel_refine_params_default(&p);
    p.sigma = 1.0;
    p.blur = 1.0;
    CHECK(refine(ctx, &p, N + 1, 1, xy, limits, closed, out) == EDGEL_OK);
    const double s2 = 1.0 + 1.0 + 0.5;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i <= N; i++) {
        const double r = hypot(out[2 * i] - cx, out[2 * i + 1] - cy);
        lo = r < lo ? r : lo;
        hi = r > hi ? r : hi;
    }
    CHECK(hi - lo < 1e-9 && lo > rho + 0.1);
    CHECK(fabs(blurred_disk_peak(lo, s2) - rho) < 1e-6);
    CHECK(out[2 * N] == out[0] && out[2 * N + 1] == out[1]);
    /* Below 1.5 standard deviations of the blur, no shift: the points stay on the circle. */
    for (int i = 0; i <= N; i++) {
        xy[2 * i] = cx + (xy[2 * i] - cx) / 3.0;
        xy[2 * i + 1] = cy + (xy[2 * i + 1] - cy) / 3.0;
    }
    CHECK(refine(ctx, &p, N + 1, 1, xy, limits, closed, out) == EDGEL_OK);
    for (int i = 0; i <= N; i++)
        CHECK(fabs(hypot(out[2 * i] - cx, out[2 * i + 1] - cy) - rho / 3.0) < 1e-9);
}

/* Noisy points along y = 0.3 x + 2, an L-shaped corner, and curves too short to fit. */
enum { LINE = 200, CORNER = 41, SHORT = 4, POINTS = LINE + CORNER + SHORT };

static void make_curves(double *xy, int64_t *limits, uint8_t *closed)
{
    for (int i = 0; i < LINE; i++) {
        const double t = i * 0.9, noise = ((double)(next_random() % 2001) - 1000.0) / 5000.0;
        xy[2 * i] = t - 0.3 * noise / sqrt(1.09);
        xy[2 * i + 1] = 0.3 * t + 2.0 + noise / sqrt(1.09);
    }
    for (int i = 0; i < CORNER; i++) { /* (0, 20) down to the corner (0, 0), then right */
        xy[2 * (LINE + i)] = i <= 20 ? 0.0 : i - 20.0;
        xy[2 * (LINE + i) + 1] = i <= 20 ? 20.0 - i : 0.0;
    }
    for (int i = 0; i < SHORT; i++) {
        xy[2 * (LINE + CORNER + i)] = 3.0 * i;
        xy[2 * (LINE + CORNER + i) + 1] = (double)(i * i);
    }
    limits[0] = 0;
    limits[1] = LINE;
    limits[2] = LINE + CORNER;
    limits[3] = POINTS;
    closed[0] = closed[1] = closed[2] = 0;
}

static double line_rms(const double *xy)
{
    double sum = 0.0;
    for (int i = 0; i < LINE; i++) {
        const double d = (0.3 * xy[2 * i] - xy[2 * i + 1] + 2.0) / sqrt(1.09);
        sum += d * d;
    }
    return sqrt(sum / LINE);
}

static void test_open_curves(edgel_context *ctx, edgel_context *one)
{
    static double xy[2 * POINTS], out[2 * POINTS], out1[2 * POINTS];
    int64_t limits[4];
    uint8_t closed[3];
    make_curves(xy, limits, closed);
    edgel_refine_params p;
    edgel_refine_params_default(&p);
    CHECK(p.window == 20 && p.tolerance == 0.25 && p.sigma == 0.0 && p.blur == 0.0);
    CHECK(refine(ctx, &p, POINTS, 3, xy, limits, closed, out) == EDGEL_OK);
    CHECK(refine(one, &p, POINTS, 3, xy, limits, closed, out1) == EDGEL_OK);
    CHECK(memcmp(out, out1, sizeof out) == 0);
    CHECK(line_rms(out) < line_rms(xy) / 2.0);
    double most = 0.0;
    for (int i = LINE; i < LINE + CORNER; i++)
        most = fmax(most, hypot(out[2 * i] - xy[2 * i], out[2 * i + 1] - xy[2 * i + 1]));
    CHECK(most < 0.5);
    CHECK(fabs(out[2 * LINE] - xy[2 * LINE]) < 1e-9); /* on its line, far from the corner */
    CHECK(memcmp(out + 2 * (LINE + CORNER), xy + 2 * (LINE + CORNER), 16 * SHORT) == 0);
    /* A smaller window averages less. */
    p.window = 3;
    CHECK(refine(ctx, &p, POINTS, 3, xy, limits, closed, out1) == EDGEL_OK);
    CHECK(line_rms(out) < line_rms(out1) && line_rms(out1) < line_rms(xy));
}

static void test_refusals(edgel_context *ctx)
{
    double xy[2 * POINTS], out[2 * POINTS];
    int64_t limits[4];
    uint8_t closed[3];
    make_curves(xy, limits, closed);
    edgel_refine_params p;
    edgel_refine_params_default(&p);
    CHECK_STATUS(refine(ctx, NULL, POINTS, 3, xy, limits, closed, out),
                 EDGEL_ERROR_NULL_ARGUMENT, "params");
    CHECK_STATUS(refine(ctx, &p, POINTS, 3, NULL, limits, closed, out),
                 EDGEL_ERROR_NULL_ARGUMENT, "xy");
    CHECK_STATUS(refine(ctx, &p, POINTS, 3, xy, limits, closed, NULL),
                 EDGEL_ERROR_NULL_ARGUMENT, "refined_xy");
    CHECK_STATUS(refine(ctx, &p, POINTS, 3, xy, limits, closed, xy + 2),
                 EDGEL_ERROR_INVALID_ARGUMENT, "overlaps");
    CHECK_STATUS(refine(ctx, &p, POINTS - 1, 3, xy, limits, closed, out),
                 EDGEL_ERROR_INVALID_SIZE, "limits run");
    CHECK_STATUS(refine(ctx, &p, -1, 3, xy, limits, closed, out), EDGEL_ERROR_INVALID_SIZE,
                 "points");
    limits[1] = LINE + CORNER + 1;
    CHECK_STATUS(refine(ctx, &p, POINTS, 3, xy, limits, closed, out), EDGEL_ERROR_INVALID_SIZE,
                 "limits[2]");
    limits[1] = LINE;
    closed[1] = 1;
    CHECK_STATUS(refine(ctx, &p, POINTS, 3, xy, limits, closed, out),
                 EDGEL_ERROR_INVALID_ARGUMENT, "curve 1 is closed");
    closed[1] = 0;
    const struct {
        double sigma, blur, tolerance;
        int window;
        const char *needle;
    } bad[] = {{NAN, 0, 0.25, 20, "sigma"},  {-1, 0, 0.25, 20, "sigma"},
               {0, NAN, 0.25, 20, "blur"},   {0, 2000, 0.25, 20, "blur"},
               {0, 0, 0.0, 20, "tolerance"}, {0, 0, NAN, 20, "tolerance"},
               {0, 0, 0.25, 1, "window"},    {0, 0, 0.25, EDGEL_REFINE_MAX_WINDOW + 1, "window"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        edgel_refine_params q = p;
        q.sigma = bad[i].sigma;
        q.blur = bad[i].blur;
        q.tolerance = bad[i].tolerance;
        q.window = bad[i].window;
        CHECK_STATUS(refine(ctx, &q, POINTS, 3, xy, limits, closed, out),
                     EDGEL_ERROR_INVALID_ARGUMENT, bad[i].needle);
    }
    edgel_refine_params never;
    memset(&never, 0, sizeof never);
    CHECK_STATUS(refine(ctx, &never, POINTS, 3, xy, limits, closed, out),
                 EDGEL_ERROR_INVALID_ARGUMENT, "edgel_refine_params_default");
    /* No curves at all is a valid, empty input. */
    const int64_t none[1] = {0};
    CHECK(refine(ctx, &p, 0, 0, xy, none, closed, out) == EDGEL_OK);
}

int main(void)
{
    edgel_context *ctx = NULL, *one = NULL;
    edgel_context_options o;
    edgel_context_options_default(&o);
    o.threads = 3;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx) == EDGEL_OK);
    o.threads = 1;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &one) == EDGEL_OK);
    test_circle(ctx);
    test_open_curves(ctx, one);
    test_refusals(ctx);
    edgel_context_destroy(ctx);
    edgel_context_destroy(one);
    return check_summary("refine");
}
