/* libFuzzer target: fits of lines, circles and ellipses (edgel_fit_*) on points and options
 * read from the input: the first 8 bytes choose the shape and the options (any values,
 * refused ones included), the rest are the points' coordinates, either raw doubles (NaN,
 * infinities and huge values included) or small integers plus fractions (shapes that fit).
 * A fit that succeeds must give finite numbers, kept flags that agree with its count, and at
 * least the points its shape needs; one that fails, a documented status. */
#define EDGEL_EXPERIMENTAL /* the fits */
#include "edgel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 96

static int finite_all(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8)
        return 0;
    const int shape = data[0] % 3, raw = data[1] & 1;
    edgel_fit_params p;
    edgel_fit_params_default(&p);
    p.geometric = data[1] >> 1 & 3;             /* 2 and 3: refused */
    p.weight = (edgel_fit_weight)(data[2] % 4); /* 3: refused */
    p.iterations = (int8_t)data[3] % 12; /* (0 and below: refused) */
    p.clipping_factor = (double)(int8_t)data[4] / 16.0;
    p.clip_ends = (int8_t)data[5] / 8;
    p.algebraic = (edgel_fit_algebraic)(data[6] % 3);
    data += 8, size -= 8;
    static double x[MAX_POINTS], y[MAX_POINTS];
    int64_t n = 0;
    if (raw) {
        for (; n < MAX_POINTS && (size_t)(n + 1) * 16 <= size; n++) {
            memcpy(&x[n], data + 16 * n, 8);
            memcpy(&y[n], data + 16 * n + 8, 8);
        }
    } else {
        for (; n < MAX_POINTS && (size_t)(n + 1) * 4 <= size; n++) {
            const uint8_t *q = data + 4 * n;
            x[n] = (double)(int8_t)q[0] + q[1] / 256.0;
            y[n] = (double)(int8_t)q[2] + q[3] / 256.0;
        }
    }
    uint8_t kept[MAX_POINTS];
    edgel_fit_quality q;
    edgel_status st;
    int least, finite;
    if (shape == 0) {
        edgel_line_fit f;
        st = edgel_fit_line(x, y, n, &p, &f, kept);
        least = 2, q = f.quality;
        const double v[] = {f.nx, f.ny, f.distance, f.x0, f.y0, f.x1, f.y1};
        finite = finite_all(v, sizeof v / sizeof v[0]);
    } else if (shape == 1) {
        edgel_circle_fit f;
        st = edgel_fit_circle(x, y, n, &p, &f, kept);
        least = 3, q = f.quality;
        const double v[] = {f.cx, f.cy, f.radius, f.start_angle, f.end_angle, f.sd_cx, f.sd_cy,
                            f.sd_radius};
        finite = finite_all(v, sizeof v / sizeof v[0]);
    } else {
        edgel_ellipse_fit f;
        st = edgel_fit_ellipse(x, y, n, &p, &f, kept);
        least = 5, q = f.quality;
        const double v[] = {f.cx, f.cy, f.a, f.b, f.angle, f.start_angle, f.end_angle,
                            f.sd_cx, f.sd_cy, f.sd_a, f.sd_b, f.sd_angle};
        finite = finite_all(v, sizeof v / sizeof v[0]) && f.a >= f.b && f.b > 0.0;
    }
    if (st != EDGEL_OK) {
        if (st != EDGEL_ERROR_INVALID_ARGUMENT && st != EDGEL_ERROR_INVALID_SIZE)
            abort();
        return 0;
    }
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++)
        count += kept[i];
    if (!finite || !isfinite(q.rms) || !isfinite(q.max_distance) || q.kept != count ||
        count < least || q.rms > q.max_distance * (1.0 + 1e-12))
        abort();
    return 0;
}
