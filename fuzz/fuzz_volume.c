/* libFuzzer target: ITK's Canny on volumes (edgel_canny_volume) of any small size, voxel type,
 * pitches, variance, spacing, maximum error and thresholds read from the input: a status and
 * never a crash (misaligned slice pitches are refused); the same edges and suppression volume on 1 and 3 threads; and the edges what
 * the hysteresis allows (every voxel above the upper threshold an edge, every edge above the
 * upper or the lower threshold, values 255 or 0 only). */
#include "edgel.h"
#include "fuzz_input.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { HEADER = 12, MAX_SIDE = 14 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER)
        return 0;
    const int w = 1 + data[0] % MAX_SIDE, h = 1 + data[1] % MAX_SIDE, d = 1 + data[2] % MAX_SIDE;
    static const edgel_pixel_type types[3] = {EDGEL_U8, EDGEL_U16, EDGEL_F32};
    const edgel_pixel_type type = types[data[3] % 3];
    const size_t item = edgel_pixel_size(type), pad = data[4] % 5;
    edgel_volume_canny_params p;
    edgel_volume_canny_params_default(&p);
    for (int i = 0; i < 3; i++) {
        p.variance[i] = data[5 + i] % 64 / 4.0;
        p.spacing[i] = 0.25 + data[8 + i] % 16 / 4.0;
    }
    p.maximum_error[data[11] % 3] = 0.001 + data[11] / 256.0;
    p.upper_threshold = data[5] % 32;
    p.lower_threshold = data[6] % 32;
    const size_t pitch = (size_t)w * item + pad * item, slice = pitch * (size_t)h + pad;
    uint8_t *voxels = calloc(slice * (size_t)d + 16, 1);
    const uint8_t *rest = data + HEADER;
    const size_t left = size - HEADER;
    for (size_t i = 0; i < slice * (size_t)d; i++) /* the input's bytes, over and over */
        voxels[i] = left ? rest[i % left] : 0;
    edgel_volume src = {voxels, w, h, d, pitch, slice, type, EDGEL_MEMORY_HOST};
    const size_t n = (size_t)w * h * d;
    uint8_t *e1 = malloc(n), *e3 = malloc(n);
    float *s1 = malloc(n * sizeof(float)), *s3 = malloc(n * sizeof(float));
    edgel_volume v1 = edgel_volume_host(e1, w, h, d, EDGEL_U8);
    edgel_volume v3 = edgel_volume_host(e3, w, h, d, EDGEL_U8);
    edgel_volume u1 = edgel_volume_host(s1, w, h, d, EDGEL_F32);
    edgel_volume u3 = edgel_volume_host(s3, w, h, d, EDGEL_F32);
    const edgel_volume_canny_stages st1 = {NULL, &u1}, st3 = {NULL, &u3};
    const edgel_status a = edgel_canny_volume(fuzz_context(), &p, &src, &v1, &st1);
    const edgel_status b = edgel_canny_volume(fuzz_context_of(3), &p, &src, &v3, &st3);
    if (a != b || (a != EDGEL_OK && a != EDGEL_ERROR_INVALID_ARGUMENT &&
                   a != EDGEL_ERROR_INVALID_PITCH))
        abort();
    if (a == EDGEL_OK) {
        if (memcmp(e1, e3, n) || memcmp(s1, s3, n * sizeof(float)))
            abort();
        const float upper = (float)p.upper_threshold, lower = (float)p.lower_threshold;
        for (size_t i = 0; i < n; i++) {
            if ((e1[i] != 0 && e1[i] != 255) || (s1[i] > upper && !e1[i]) ||
                (e1[i] && !(s1[i] > upper || s1[i] > lower)))
                abort();
        }
    }
    free(voxels), free(e1), free(e3), free(s1), free(s3);
    return 0;
}
