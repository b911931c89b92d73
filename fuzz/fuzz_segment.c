/* libFuzzer target: segmentation of curves (edgel_segment_curves) read from the input: the
 * first 6 bytes choose the mode, the smoothing and the two distances (refused values
 * included), the next the number of curves (1 to 4) and their closed flags; then each point
 * is 4 bytes (x and y, a signed integer and a fraction each), shared out among the curves.
 * A segmentation that succeeds must give pieces inside their curves, in order, of a known
 * kind, with finite fits; one that fails, a documented status. */
#define EDGEL_EXPERIMENTAL /* the segmentation */
#include "edgel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define MAX_POINTS 400

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8)
        return 0;
    static edgel_segments *seg;
    if (!seg && edgel_segments_create(&seg) != EDGEL_OK)
        abort();
    edgel_segment_params p;
    edgel_segment_params_default(&p);
    p.mode = (edgel_segment_mode)(data[0] % 4); /* 3: refused */
    p.smooth = data[1] % 53;                    /* past 50: refused */
    p.split_distance = (double)(int8_t)data[2] / 16.0;
    p.max_distance = (double)(int8_t)data[3] / 32.0;
    const int curves = 1 + data[4] % 4;
    uint8_t closed[4];
    for (int k = 0; k < 4; k++)
        closed[k] = data[5] >> k & 1;
    data += 8, size -= 8;
    static double x[MAX_POINTS], y[MAX_POINTS];
    int64_t n = 0;
    for (; n < MAX_POINTS && (size_t)(n + 1) * 4 <= size; n++) {
        const uint8_t *q = data + 4 * n;
        x[n] = (double)(int8_t)q[0] + q[1] / 256.0;
        y[n] = (double)(int8_t)q[2] + q[3] / 256.0;
    }
    int64_t limits[5];
    for (int k = 0; k <= curves; k++)
        limits[k] = n * k / curves;
    edgel_curves_view v;
    edgel_curves_view_default(&v);
    v.points = n, v.curves = curves, v.x = x, v.y = y, v.limits = limits, v.closed = closed;
    v.device = -1;
    const edgel_status st = edgel_segment_curves(&v, &p, seg);
    if (st != EDGEL_OK) {
        if (st != EDGEL_ERROR_INVALID_ARGUMENT)
            abort();
        return 0;
    }
    const edgel_piece *pc;
    int64_t count;
    if (edgel_segments_get(seg, &pc, &count) != EDGEL_OK)
        abort();
    int64_t curve = 0, next = 0;
    for (int64_t i = 0; i < count; i++) {
        if (pc[i].curve < curve || pc[i].curve >= curves || pc[i].kind > EDGEL_PIECE_ELLIPSE)
            abort();
        if (pc[i].curve != curve)
            curve = pc[i].curve, next = limits[curve];
        if (pc[i].first < limits[curve] || pc[i].count < 2 ||
            pc[i].first + pc[i].count > limits[curve + 1] || pc[i].first < next - 1)
            abort();
        next = pc[i].first + pc[i].count;
        double v0 = pc[i].line.distance, v1 = pc[i].line.nx;
        if (pc[i].kind == EDGEL_PIECE_CIRCLE)
            v0 = pc[i].circle.radius, v1 = pc[i].circle.cx;
        else if (pc[i].kind == EDGEL_PIECE_ELLIPSE)
            v0 = pc[i].ellipse.a, v1 = pc[i].ellipse.b;
        if (!isfinite(v0) || !isfinite(v1))
            abort();
    }
    return 0;
}
