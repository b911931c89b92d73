/* Fits of lines, circles and ellipses (edgel_fit_*): exact points give their shapes back to
 * 1e-9; Kasa's fit equals its normal equations solved here; robust weights leave injected
 * outliers out; the arcs' angles; bad points and parameters get a status and a message; two
 * threads fit at once. */
#define EDGEL_EXPERIMENTAL /* the fits */
#include "check.h"
#include "edgel.h"
#include "test_random.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol * (1.0 + fabs(b));
}

/* n points of the ellipse (cx, cy, a, b, angle) from angle t0 to t1. */
static void ellipse_points(double cx, double cy, double a, double b, double angle, double t0,
                           double t1, int n, double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        const double t = t0 + (t1 - t0) * i / (n - 1);
        const double u = a * cos(t), v = b * sin(t);
        x[i] = cx + cos(angle) * u - sin(angle) * v;
        y[i] = cy + sin(angle) * u + cos(angle) * v;
    }
}

static double uniform(void)
{
    return (double)(next_random() % 1000000) / 1000000.0 - 0.5;
}

/* Kasa's fit as its formula says: D, E, F of x^2 + y^2 + D x + E y + F = 0 least squared,
 * the 3 x 3 normal equations solved by Cramer's rule, on the points as they are. */
static void kasa_reference(const double *x, const double *y, int n, double *c)
{
    double m[9] = {0}, r[3] = {0};
    for (int i = 0; i < n; i++) {
        const double row[3] = {x[i], y[i], 1.0}, z = -(x[i] * x[i] + y[i] * y[i]);
        for (int a = 0; a < 3; a++) {
            r[a] += row[a] * z;
            for (int b = 0; b < 3; b++)
                m[a * 3 + b] += row[a] * row[b];
        }
    }
#define DET3(a)                                                                          \
    ((a)[0] * ((a)[4] * (a)[8] - (a)[5] * (a)[7]) - (a)[1] * ((a)[3] * (a)[8] - (a)[5] * (a)[6]) + \
     (a)[2] * ((a)[3] * (a)[7] - (a)[4] * (a)[6]))
    const double det = DET3(m);
    double s[3];
    for (int k = 0; k < 3; k++) {
        double t[9];
        memcpy(t, m, sizeof t);
        for (int a = 0; a < 3; a++)
            t[a * 3 + k] = r[a];
        s[k] = DET3(t) / det;
    }
    c[0] = -s[0] / 2.0, c[1] = -s[1] / 2.0, c[2] = sqrt(c[0] * c[0] + c[1] * c[1] - s[2]);
}

static void test_exact_shapes(void)
{
    double x[400], y[400];
    edgel_fit_params p;
    edgel_fit_params_default(&p);

    /* a line: normal form and projected ends */
    for (int i = 0; i < 50; i++)
        x[i] = 3.0 + 0.8 * i, y[i] = 10.0 - 0.6 * i;
    edgel_line_fit l;
    uint8_t kept[400];
    CHECK(edgel_fit_line(x, y, 50, &p, &l, kept) == EDGEL_OK);
    const double nx = 0.6, ny = 0.8, dist = 0.6 * 3.0 + 0.8 * 10.0;
    CHECK(near(l.nx, nx, 1e-12) && near(l.ny, ny, 1e-12) && near(l.distance, dist, 1e-12));
    CHECK(near(l.x0, 3.0, 1e-9) && near(l.y0, 10.0, 1e-9) && near(l.x1, 3.0 + 0.8 * 49, 1e-9));
    CHECK(l.quality.kept == 50 && l.quality.rms < 1e-12 && kept[0] == 1 && kept[49] == 1);

    /* circles: a full one and a quarter arc, Taubin and Kasa, algebraic and geometric */
    for (int shape = 0; shape < 2; shape++) {
        const double t1 = shape ? PI / 2 : 2 * PI * 99 / 100;
        ellipse_points(12.1, -3.4, 7.3, 7.3, 0.0, 0.25, 0.25 + t1, 100, x, y);
        for (int kind = 0; kind < 2; kind++)
            for (int geo = 0; geo < 2; geo++) {
                p.algebraic = kind ? EDGEL_FIT_KASA : EDGEL_FIT_TAUBIN;
                p.geometric = geo;
                edgel_circle_fit c;
                CHECK(edgel_fit_circle(x, y, 100, &p, &c, NULL) == EDGEL_OK);
                CHECK(near(c.cx, 12.1, 1e-9) && near(c.cy, -3.4, 1e-9) && near(c.radius, 7.3, 1e-9));
                CHECK(near(c.start_angle, 0.25, 1e-9) && near(c.end_angle, 0.25 + t1, 1e-9));
                CHECK(c.quality.max_distance < 1e-9 && c.quality.kept == 100);
            }
    }
    /* the same points in the other order: the same arc, counter-clockwise */
    ellipse_points(12.1, -3.4, 7.3, 7.3, 0.0, 1.0, 0.0, 50, x, y);
    edgel_fit_params_default(&p);
    edgel_circle_fit c;
    CHECK(edgel_fit_circle(x, y, 50, &p, &c, NULL) == EDGEL_OK);
    CHECK(near(c.start_angle, 0.0, 1e-9) || near(c.start_angle, 2 * PI, 1e-9));
    CHECK(near(c.end_angle - c.start_angle, 1.0, 1e-9));

    /* ellipses: several eccentricities and angles, a whole one and an arc */
    const double axes[3][2] = {{20.0, 8.0}, {15.0, 14.0}, {40.0, 3.0}};
    for (int k = 0; k < 3; k++)
        for (int geo = 0; geo < 2; geo++) {
            const double angle = -1.2 + 0.9 * k;
            ellipse_points(50.0, 40.0, axes[k][0], axes[k][1], angle, 0.0, k == 2 ? 2.0 : 6.2,
                           200, x, y);
            edgel_fit_params_default(&p);
            p.geometric = geo;
            edgel_ellipse_fit e;
            CHECK(edgel_fit_ellipse(x, y, 200, &p, &e, NULL) == EDGEL_OK);
            double da = e.angle - angle;
            da -= PI * floor(da / PI + 0.5);
            CHECK(near(e.cx, 50.0, 1e-9) && near(e.cy, 40.0, 1e-9));
            CHECK(near(e.a, axes[k][0], 1e-9) && near(e.b, axes[k][1], 1e-9) && fabs(da) < 1e-9);
            CHECK(e.quality.max_distance < 1e-8);
        }
}

static void test_kasa_reference(void)
{
    double x[300], y[300];
    for (int round = 0; round < 20; round++) {
        const int n = 5 + (int)(next_random() % 290);
        const double r = 3.0 + 50.0 * (uniform() + 0.5), arc = 1.0 + 5.0 * (uniform() + 0.5);
        ellipse_points(100.0 * uniform(), 100.0 * uniform(), r, r, 0.0, 0.0, arc, n, x, y);
        for (int i = 0; i < n; i++)
            x[i] += 0.05 * uniform(), y[i] += 0.05 * uniform();
        edgel_fit_params p;
        edgel_fit_params_default(&p);
        p.algebraic = EDGEL_FIT_KASA;
        p.geometric = 0;
        edgel_circle_fit c;
        double want[3];
        kasa_reference(x, y, n, want);
        CHECK(edgel_fit_circle(x, y, n, &p, &c, NULL) == EDGEL_OK);
        CHECK(near(c.cx, want[0], 1e-9) && near(c.cy, want[1], 1e-9) &&
              near(c.radius, want[2], 1e-9));
    }
}

static void test_robust(void)
{
    double x[200], y[200];
    ellipse_points(30.0, 20.0, 10.0, 10.0, 0.0, 0.0, 3.0, 200, x, y);
    for (int i = 0; i < 200; i++) /* noise of 0.01 px, and a tenth of the points far off */
        x[i] += 0.02 * uniform(), y[i] += 0.02 * uniform();
    for (int i = 0; i < 200; i += 10) { /* 3 to 5 px outwards */
        const double out = 4.0 + 2.0 * uniform(), t = 3.0 * i / 199;
        x[i] += out * cos(t), y[i] += out * sin(t);
    }
    edgel_fit_params p;
    edgel_fit_params_default(&p);
    edgel_circle_fit plain, tukey, huber;
    uint8_t kept[200];
    CHECK(edgel_fit_circle(x, y, 200, &p, &plain, NULL) == EDGEL_OK);
    const double plain_off = hypot(plain.cx - 30.0, plain.cy - 20.0) + fabs(plain.radius - 10.0);
    CHECK(plain_off > 0.2); /* the outliers pull a plain fit away */
    p.weight = EDGEL_FIT_TUKEY;
    p.iterations = 10;
    CHECK(edgel_fit_circle(x, y, 200, &p, &tukey, kept) == EDGEL_OK);
    CHECK(hypot(tukey.cx - 30.0, tukey.cy - 20.0) < 0.01 && fabs(tukey.radius - 10.0) < 0.01);
    int outliers_kept = 0, inliers_kept = 0;
    for (int i = 0; i < 200; i++)
        outliers_kept += i % 10 == 0 && kept[i], inliers_kept += i % 10 != 0 && kept[i];
    CHECK(outliers_kept == 0 && inliers_kept >= 150 && tukey.quality.kept == inliers_kept);
    CHECK(tukey.sd_cx > 0.0 && tukey.sd_cx < 0.01 && tukey.sd_radius > 0.0);
    p.weight = EDGEL_FIT_HUBER;
    CHECK(edgel_fit_circle(x, y, 200, &p, &huber, NULL) == EDGEL_OK);
    CHECK(hypot(huber.cx - 30.0, huber.cy - 20.0) + fabs(huber.radius - 10.0) < plain_off / 4);

    /* a line with outliers, and clipped ends */
    for (int i = 0; i < 100; i++)
        x[i] = i, y[i] = 5.0 + (i % 17 == 3 ? 9.0 : 0.0);
    y[0] = y[99] = 40.0;
    edgel_fit_params_default(&p);
    p.weight = EDGEL_FIT_TUKEY;
    p.clip_ends = 1;
    edgel_line_fit l;
    CHECK(edgel_fit_line(x, y, 100, &p, &l, kept) == EDGEL_OK);
    CHECK(near(l.nx, 0.0, 1e-12) && near(l.ny, 1.0, 1e-12) && near(l.distance, 5.0, 1e-12));
    CHECK(kept[0] == 0 && kept[99] == 0 && kept[3] == 0 && kept[4] == 1);
    CHECK(near(l.x0, 1.0, 1e-12) && near(l.x1, 98.0, 1e-12));
}

static void test_refusals(void)
{
    double x[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, y[10] = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18};
    edgel_fit_params p;
    edgel_fit_params_default(&p);
    edgel_line_fit l;
    edgel_circle_fit c;
    edgel_ellipse_fit e;
    CHECK_STATUS(edgel_fit_circle(x, y, 10, &p, &c, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "collinear");
    CHECK_STATUS(edgel_fit_ellipse(x, y, 10, &p, &e, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "no ellipse");
    CHECK_STATUS(edgel_fit_circle(x, y, 2, &p, &c, NULL), EDGEL_ERROR_INVALID_SIZE,
                 "fewer than 3");
    CHECK_STATUS(edgel_fit_ellipse(x, y, 4, &p, &e, NULL), EDGEL_ERROR_INVALID_SIZE,
                 "fewer than 5");
    CHECK_STATUS(edgel_fit_line(x, y, 1, &p, &l, NULL), EDGEL_ERROR_INVALID_SIZE, "fewer than 2");
    CHECK_STATUS(edgel_fit_line(x, y, -1, &p, &l, NULL), EDGEL_ERROR_INVALID_SIZE, "points");
    const double same[3] = {4, 4, 4};
    CHECK_STATUS(edgel_fit_line(same, same, 3, &p, &l, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "coincide");
    y[4] = NAN;
    CHECK_STATUS(edgel_fit_line(x, y, 10, &p, &l, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "point 4");
    y[4] = INFINITY;
    CHECK_STATUS(edgel_fit_circle(x, y, 10, &p, &c, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "not finite");
    y[4] = 8;
    CHECK_STATUS(edgel_fit_line(NULL, y, 10, &p, &l, NULL), EDGEL_ERROR_NULL_ARGUMENT, "NULL");
    CHECK_STATUS(edgel_fit_line(x, y, 10, &p, NULL, NULL), EDGEL_ERROR_NULL_ARGUMENT, "NULL");
    p.clip_ends = 5;
    CHECK_STATUS(edgel_fit_line(x, y, 10, &p, &l, NULL), EDGEL_ERROR_INVALID_SIZE, "clipped");
    edgel_fit_params_default(&p);
    p.iterations = 0;
    CHECK_STATUS(edgel_fit_line(x, y, 10, &p, &l, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "iterations");
    edgel_fit_params_default(&p);
    p.clipping_factor = NAN;
    CHECK_STATUS(edgel_fit_line(x, y, 10, &p, &l, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "clipping_factor");
    edgel_fit_params_default(&p);
    p.weight = (edgel_fit_weight)7;
    CHECK_STATUS(edgel_fit_line(x, y, 10, &p, &l, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "weight");
    edgel_fit_params_default(&p);
    p.geometric = 2;
    CHECK_STATUS(edgel_fit_line(x, y, 10, &p, &l, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "geometric");
    edgel_fit_params_default(&p);
    p.algebraic = (edgel_fit_algebraic)-1;
    CHECK_STATUS(edgel_fit_circle(x, y, 10, &p, &c, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "algebraic");
    edgel_fit_params never;
    memset(&never, 0, sizeof never);
    CHECK_STATUS(edgel_fit_line(x, y, 10, &never, &l, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "edgel_fit_params_default");
    CHECK(edgel_fit_line(x, y, 10, NULL, &l, NULL) == EDGEL_OK); /* NULL: the defaults */
}

typedef struct worker {
    double x[500], y[500];
    edgel_ellipse_fit first;
    int bad;
} worker;

static void *fit_repeatedly(void *arg)
{
    worker *w = arg;
    for (int i = 0; i < 200; i++) {
        edgel_ellipse_fit e;
        w->bad += edgel_fit_ellipse(w->x, w->y, 500, NULL, &e, NULL) != EDGEL_OK ||
                  memcmp(&e, &w->first, sizeof e) != 0;
    }
    return NULL;
}

static void test_threads(void)
{
    static worker w[2];
    for (int k = 0; k < 2; k++) {
        ellipse_points(10.0 * k, 5.0, 30.0, 12.0 + k, 0.4, 0.0, 5.0, 500, w[k].x, w[k].y);
        for (int i = 0; i < 500; i++)
            w[k].x[i] += 0.1 * uniform(), w[k].y[i] += 0.1 * uniform();
        CHECK(edgel_fit_ellipse(w[k].x, w[k].y, 500, NULL, &w[k].first, NULL) == EDGEL_OK);
    }
    pthread_t t[2];
    for (int k = 0; k < 2; k++)
        CHECK(pthread_create(&t[k], NULL, fit_repeatedly, &w[k]) == 0);
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    CHECK(w[0].bad == 0 && w[1].bad == 0);
}

int main(void)
{
    test_exact_shapes();
    test_kasa_reference();
    test_robust();
    test_refusals();
    test_threads();
    return check_summary("fit");
}
