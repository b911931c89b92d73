/* libFuzzer target: ITK's Canny on volumes in bricks (edgel_canny_volume_bricks) of any small
 * volume, voxel type, brick sizes, variances, spacings and thresholds read from the input:
 * a status and never a crash, each brick written once, and edges identical to one call on the
 * whole volume (edgel_canny_volume). */
#include "edgel.h"
#include "fuzz_input.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { HEADER = 14, MAX_SIDE = 12 };

typedef struct box_source {
    const uint8_t *voxels;
    uint8_t *edges, *written;
    int w, h, d, item;
} box_source;

static edgel_status read_box(void *user, int64_t x, int64_t y, int64_t z, const edgel_volume *v)
{
    const box_source *s = user;
    if (x < 0 || y < 0 || z < 0 || x + v->width > s->w || y + v->height > s->h ||
        z + v->depth > s->d)
        abort(); /* a box outside the volume */
    for (int k = 0; k < v->depth; k++)
        for (int j = 0; j < v->height; j++)
            memcpy((uint8_t *)v->data + k * v->slice_pitch + j * v->pitch,
                   s->voxels + (((z + k) * s->h + y + j) * s->w + x) * s->item,
                   (size_t)v->width * s->item);
    return EDGEL_OK;
}

static edgel_status write_box(void *user, int64_t x, int64_t y, int64_t z, const edgel_volume *e)
{
    box_source *s = user;
    for (int k = 0; k < e->depth; k++)
        for (int j = 0; j < e->height; j++)
            for (int i = 0; i < e->width; i++) {
                const size_t at = ((size_t)(z + k) * s->h + (size_t)(y + j)) * s->w +
                                  (size_t)(x + i);
                if (x + i >= s->w || y + j >= s->h || z + k >= s->d || s->written[at]++)
                    abort(); /* outside, or written twice */
                s->edges[at] = ((const uint8_t *)e->data)[k * e->slice_pitch + j * e->pitch + i];
            }
    return EDGEL_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER)
        return 0;
    const int w = 1 + data[0] % MAX_SIDE, h = 1 + data[1] % MAX_SIDE, d = 1 + data[2] % MAX_SIDE;
    static const edgel_pixel_type types[3] = {EDGEL_U8, EDGEL_U16, EDGEL_F32};
    const edgel_pixel_type type = types[data[3] % 3];
    const int item = (int)edgel_pixel_size(type);
    /* one to four bricks a side (bricks of one voxel in volumes up to four a side) */
    const int kx = 1 + data[4] % 4, ky = 1 + data[5] % 4, kz = 1 + data[6] % 4;
    const int bw = (w + kx - 1) / kx, bh = (h + ky - 1) / ky, bd = (d + kz - 1) / kz;
    edgel_volume_canny_params p;
    edgel_volume_canny_params_default(&p);
    for (int i = 0; i < 3; i++) {
        p.variance[i] = data[7 + i] % 24 / 4.0;
        p.spacing[i] = 0.5 + data[10 + i] % 8 / 4.0;
    }
    p.upper_threshold = data[13] % 24;
    p.lower_threshold = data[13] / 24 % 12;
    const size_t n = (size_t)w * h * d;
    uint8_t *voxels = malloc(n * item), *want = malloc(n), *got = calloc(n, 1),
            *written = calloc(n, 1);
    const size_t left = size - HEADER;
    for (size_t i = 0; i < n * item; i++) /* the input's bytes, over and over */
        voxels[i] = left ? data[HEADER + i % left] : 0;
    const edgel_volume src = edgel_volume_host(voxels, w, h, d, type);
    const edgel_volume whole = edgel_volume_host(want, w, h, d, EDGEL_U8);
    box_source s = {voxels, got, written, w, h, d, item};
    const edgel_brick_io io = {w, h, d, type, read_box, write_box, &s};
    const edgel_status a = edgel_canny_volume(fuzz_context(), &p, &src, &whole, NULL);
    const edgel_status b = edgel_canny_volume_bricks(fuzz_context(), &p, &io, bw, bh, bd);
    if (a != b || (a == EDGEL_OK && (memchr(written, 0, n) || memcmp(want, got, n))))
        abort();
    free(voxels), free(want), free(got), free(written);
    return 0;
}
