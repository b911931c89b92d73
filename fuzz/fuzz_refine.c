/* libFuzzer target: edgel_curves_refine on curves read from the input (lengths, closed flags,
 * points as small steps or raw doubles, limits sometimes broken, every parameter from its
 * bytes), repeated to span several threads' chunks: a refusal only with a named status; else
 * the same points on 1 and 3 threads, finite wherever the input is, each loop's last point
 * its first, and a curve shorter than 5 points where it was. */
#include "edgel.h"
#include "fuzz_input.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { HEADER = 6, MAX_CURVES = 64, MAX_POINTS = 1 << 16 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER || !fuzz_context() || !fuzz_context_of(3))
        return 0;
    edgel_refine_params p;
    edgel_refine_params_default(&p);
    p.window = data[0] < 250 ? 2 + data[0] % 40 : data[0] - 250; /* some out of range */
    p.tolerance = data[1] ? data[1] / 64.0 : 0.0;
    p.sigma = data[2] / 32.0;
    p.blur = data[3] == 255 ? NAN : data[3] / 32.0;
    const int copies = 1 + data[4] % 40;
    const int broken = data[5] & 7; /* 1: limits off the end; 2: an open loop made closed */
    data += HEADER;
    size -= HEADER;
    /* the curves once: a length byte (its top bit: closed), then 2 bytes a step (or, after a
     * step byte of 0x80, 16 bytes of a raw point) */
    static double xy[2 * MAX_POINTS], once[2 * MAX_POINTS], a[2 * MAX_POINTS], b[2 * MAX_POINTS];
    static int64_t limits[MAX_CURVES * 40 + 1], once_limits[MAX_CURVES + 1];
    static uint8_t closed[MAX_CURVES * 40], once_closed[MAX_CURVES];
    int64_t n = 0, m = 0;
    int finite = 1;
    once_limits[0] = 0;
    while (size > 0 && m < MAX_CURVES) {
        const int len = data[0] & 127, loop = data[0] >> 7;
        data++;
        size--;
        double x = 0.0, y = 0.0;
        const int64_t first = n;
        for (int i = 0; i < len && size >= 2 && n < MAX_POINTS / 40 - 1; i++) {
            if (data[0] == 0x80 && size >= 17) {
                memcpy(&x, data + 1, 8);
                memcpy(&y, data + 9, 8);
                finite &= isfinite(x) && isfinite(y);
                data += 17;
                size -= 17;
            } else {
                x += (int8_t)data[0] / 16.0;
                y += (int8_t)data[1] / 16.0;
                data += 2;
                size -= 2;
            }
            once[2 * n] = x;
            once[2 * n + 1] = y;
            n++;
        }
        once_closed[m] = (uint8_t)(loop && n > first);
        if (once_closed[m]) { /* a loop repeats its first point */
            once[2 * n] = once[2 * first];
            once[2 * n + 1] = once[2 * first + 1];
            n++;
        }
        once_limits[++m] = n;
    }
    int64_t points = 0, curves = 0;
    limits[0] = 0;
    for (int c = 0; c < copies; c++) {
        memcpy(xy + 2 * points, once, 16 * (size_t)n);
        for (int64_t k = 0; k < m; k++) {
            closed[curves] = once_closed[k];
            limits[++curves] = points + once_limits[k + 1];
        }
        points += n;
    }
    if (broken == 1 && curves > 0)
        limits[curves]++;
    if (broken == 2 && curves > 0 && !closed[0] && limits[1] - limits[0] >= 2)
        closed[0] = 1; /* refused unless its ends happen to match */
    const edgel_status s1 = edgel_curves_refine(fuzz_context(), &p, points, curves, xy, limits,
                                                closed, a);
    const edgel_status s3 = edgel_curves_refine(fuzz_context_of(3), &p, points, curves, xy,
                                                limits, closed, b);
    if (s1 != s3)
        abort();
    if (s1 != EDGEL_OK) {
        if (s1 != EDGEL_ERROR_INVALID_ARGUMENT && s1 != EDGEL_ERROR_INVALID_SIZE)
            abort();
        return 0;
    }
    if (memcmp(a, b, 16 * (size_t)points))
        abort();
    for (int64_t k = 0; k < curves; k++) {
        const int64_t first = limits[k], end = limits[k + 1];
        if (closed[k] && memcmp(a + 2 * (end - 1), a + 2 * first, 16))
            abort();
        if (end - first - closed[k] < 5 && memcmp(a + 2 * first, xy + 2 * first,
                                                  16 * (size_t)(end - first)))
            abort();
    }
    for (int64_t i = 0; finite && i < 2 * points; i++)
        if (!isfinite(a[i]))
            abort();
    return 0;
}
