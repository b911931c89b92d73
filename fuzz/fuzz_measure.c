/* libFuzzer target: the caliper (edgel_measure_pos) on a small image and a rectangle read from
 * the input: 16 bytes of options (the image's size and type, the rectangle, sigma, threshold
 * and transition: any values, refused ones included), then the pixels. Edges must lie on the
 * rectangle's axis within its length, in order, with amplitudes that pass the threshold and
 * the transition; a failure must be a documented status. */
#define EDGEL_EXPERIMENTAL /* the caliper */
#include "edgel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 16)
        return 0;
    const int w = 1 + data[0] % 48, h = 1 + data[1] % 48, type = data[2] % 3;
    edgel_measure_rect r;
    r.cx = (double)(int8_t)data[3] / 2.0, r.cy = (double)(int8_t)data[4] / 2.0;
    r.angle = (double)(int8_t)data[5] / 20.0;
    r.half_length = (double)data[6] / 4.0, r.half_width = (double)(data[7] % 24) / 2.0;
    edgel_measure_params p;
    edgel_measure_params_default(&p);
    p.sigma = (double)data[8] / 32.0;
    p.threshold = (double)(int8_t)data[9];
    p.transition = (int8_t)data[10] % 3;
    data += 16, size -= 16;
    static uint8_t pixels[48 * 48 * 4];
    const size_t item = type == 0 ? 1 : type == 1 ? 2 : 4, need = (size_t)w * h * item;
    for (size_t i = 0; i < need; i++)
        pixels[i] = size ? data[i % size] : 0;
    if (type == 2) /* floats: finite values from the bytes */
        for (size_t i = 0; i < (size_t)w * h; i++) {
            float v = (float)(int8_t)pixels[4 * i] * 4.0f;
            memcpy(pixels + 4 * i, &v, 4);
        }
    const edgel_image img = edgel_image_host(pixels, w, h,
                                             type == 0 ? EDGEL_U8 : type == 1 ? EDGEL_U16
                                                                              : EDGEL_F32, 1);
    edgel_measure_edge e[64];
    int64_t n = -1;
    const edgel_status st = edgel_measure_pos(&img, &r, &p, e, 64, &n);
    if (st != EDGEL_OK) {
        if (st != EDGEL_ERROR_INVALID_ARGUMENT)
            abort();
        return 0;
    }
    const double hl = floor(r.half_length), ux = cos(r.angle), uy = sin(r.angle);
    for (int64_t i = 0; i < n && i < 64; i++) {
        const double s = e[i].distance - hl; /* along the axis, from the centre */
        if (!isfinite(e[i].x) || !isfinite(e[i].amplitude) || e[i].distance < 0.0 ||
            e[i].distance > 2.0 * hl || fabs(e[i].x - (r.cx + s * ux)) > 1e-6 ||
            fabs(e[i].y - (r.cy + s * uy)) > 1e-6 || fabs(e[i].amplitude) < p.threshold ||
            (p.transition > 0 && e[i].amplitude < 0) || (p.transition < 0 && e[i].amplitude > 0) ||
            (i > 0 && e[i].distance <= e[i - 1].distance))
            abort();
    }
    return 0;
}
