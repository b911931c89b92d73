/* ITK's Canny on volumes in bricks (edgel_canny_volume_bricks) against one call on the whole
 * volume: random volumes of blobs, planes and noise (u8, u16, f32) in random brick sizes, down
 * to one voxel a side, on 1 to 5 threads (a brick's slabs labelled apart and joined), with
 * anisotropic variances and spacings; edges that cross brick faces,
 * edges and corners; refusals, failing callbacks and a source that changes between passes. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "edgel.h"
#include "test_random.h"

typedef struct source {
    const uint8_t *data; /* packed volume */
    int w, h, d, item;
    uint8_t *edges;      /* the bricks' edges, assembled */
    int reads, writes, fail_read_at, fail_write_at;
    int change_at;       /* from this read on, voxel 0 reads otherwise (-1: never) */
    int64_t last_x, last_y, last_z;
    int order_ok;
} source;

static edgel_status read_box(void *user, int64_t x, int64_t y, int64_t z, const edgel_volume *dst)
{
    source *s = user;
    if (s->reads++ == s->fail_read_at)
        return EDGEL_ERROR_IO;
    for (int k = 0; k < dst->depth; k++)
        for (int j = 0; j < dst->height; j++)
            memcpy((uint8_t *)dst->data + k * dst->slice_pitch + j * dst->pitch,
                   s->data + (((size_t)(z + k) * s->h + (size_t)(y + j)) * s->w + (size_t)x) *
                                 s->item,
                   (size_t)dst->width * s->item);
    if (s->change_at >= 0 && s->reads > s->change_at && x == 0 && y == 0 && z == 0)
        memset(dst->data, 0x7f, (size_t)s->item); /* voxel 0 changes */
    return EDGEL_OK;
}

static edgel_status write_brick(void *user, int64_t x, int64_t y, int64_t z,
                                const edgel_volume *e)
{
    source *s = user;
    if (s->writes++ == s->fail_write_at)
        return EDGEL_ERROR_IO;
    /* x fastest, then y, then z */
    const int later = z > s->last_z || (z == s->last_z && (y > s->last_y ||
                                                           (y == s->last_y && x > s->last_x)));
    s->order_ok &= later;
    s->last_x = x, s->last_y = y, s->last_z = z;
    for (int k = 0; k < e->depth; k++)
        for (int j = 0; j < e->height; j++)
            memcpy(s->edges + ((size_t)(z + k) * s->h + (size_t)(y + j)) * s->w + (size_t)x,
                   (const uint8_t *)e->data + k * e->slice_pitch + j * e->pitch,
                   (size_t)e->width);
    return EDGEL_OK;
}

static edgel_brick_io io_of(source *s, edgel_pixel_type type)
{
    s->reads = s->writes = 0;
    s->fail_read_at = s->fail_write_at = s->change_at = -1;
    s->last_x = s->last_y = s->last_z = -1;
    s->order_ok = 1;
    edgel_brick_io io = {s->w, s->h, s->d, type, read_box, write_brick, s};
    return io;
}

/* Blobs and planes of random levels over noise: components that wind across bricks. */
static void fill(uint8_t *data, int w, int h, int d, edgel_pixel_type type)
{
    const int cx = (int)(next_random() % (unsigned)w), cy = (int)(next_random() % (unsigned)h),
              cz = (int)(next_random() % (unsigned)d), r = 2 + (int)(next_random() % 6);
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const size_t i = ((size_t)z * h + y) * w + x;
                const int inside = (x - cx) * (x - cx) + (y - cy) * (y - cy) +
                                   (z - cz) * (z - cz) < r * r;
                const double v = 40.0 * inside + 30.0 * (x + 2 * y > w) +
                                 (double)(next_random() % 25);
                if (type == EDGEL_U8)
                    data[i] = (uint8_t)v;
                else if (type == EDGEL_U16)
                    ((uint16_t *)data)[i] = (uint16_t)(v * 100);
                else
                    ((float *)data)[i] = (float)v * 0.5f;
            }
}

static void test_against_whole(edgel_context *ctx)
{
    static const edgel_pixel_type types[] = {EDGEL_U8, EDGEL_U16, EDGEL_F32};
    edgel_context *threaded[4] = {NULL};
    for (int i = 0; i < 4; i++) { /* 1, 2, 3 and 5 threads: slabs of a brick labelled apart */
        edgel_context_options o;
        edgel_context_options_default(&o);
        o.threads = i == 3 ? 5 : i + 1;
        CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &threaded[i]) == EDGEL_OK);
    }
    int compared = 0;
    for (int round = 0; round < 80; round++) {
        const int w = 1 + (int)(next_random() % 30), h = 1 + (int)(next_random() % 25),
                  d = 1 + (int)(next_random() % 20);
        const edgel_pixel_type type = types[round % 3];
        const int item = (int)edgel_pixel_size(type);
        uint8_t *data = malloc((size_t)w * h * d * item);
        uint8_t *want = malloc((size_t)w * h * d), *got = malloc((size_t)w * h * d);
        fill(data, w, h, d, type);
        edgel_volume_canny_params p;
        edgel_volume_canny_params_default(&p);
        for (int a = 0; a < 3; a++) {
            p.variance[a] = (double)(next_random() % 5) * 0.5;
            p.spacing[a] = a == 2 ? 1.0 + (double)(next_random() % 3) : 1.0;
        }
        const double unit = type == EDGEL_U16 ? 100.0 : type == EDGEL_F32 ? 0.5 : 1.0;
        p.upper_threshold = (double)(5 + next_random() % 20) * unit;
        p.lower_threshold = round % 7 == 6 ? p.upper_threshold + 1 : p.upper_threshold * 0.4;
        const edgel_volume src = edgel_volume_host(data, w, h, d, type);
        const edgel_volume whole = edgel_volume_host(want, w, h, d, EDGEL_U8);
        CHECK(edgel_canny_volume(ctx, &p, &src, &whole, NULL) == EDGEL_OK);
        for (int trial = 0; trial < 3; trial++) {
            const int bw = 1 + (int)(next_random() % (unsigned)(trial ? w : 4)),
                      bh = 1 + (int)(next_random() % (unsigned)(trial ? h : 4)),
                      bd = 1 + (int)(next_random() % (unsigned)(trial ? d : 4));
            source s = {.data = data, .w = w, .h = h, .d = d, .item = item, .edges = got};
            memset(got, 0x33, (size_t)w * h * d);
            const edgel_brick_io io = io_of(&s, type);
            CHECK(edgel_canny_volume_bricks(threaded[(round + trial) % 4], &p, &io, bw, bh, bd) ==
                  EDGEL_OK);
            const int bricks = ((w + bw - 1) / bw) * ((h + bh - 1) / bh) * ((d + bd - 1) / bd);
            CHECK(s.writes == bricks && s.reads == 2 * bricks && s.order_ok);
            if (memcmp(want, got, (size_t)w * h * d)) {
                fprintf(stderr, "bricks %dx%dx%d of %dx%dx%d (type %d) differ from the whole\n",
                        bw, bh, bd, w, h, d, (int)type);
                CHECK(0);
            }
            compared++;
        }
        free(data), free(want), free(got);
    }
    for (int i = 0; i < 4; i++)
        edgel_context_destroy(threaded[i]);
    printf("bricks: %d tilings compared with the whole volume\n", compared);
}

static void test_failures(edgel_context *ctx)
{
    enum { W = 12, H = 10, D = 9 };
    static uint8_t data[W * H * D], edges[W * H * D];
    fill(data, W, H, D, EDGEL_U8);
    edgel_volume_canny_params p;
    edgel_volume_canny_params_default(&p);
    p.variance[0] = p.variance[1] = p.variance[2] = 1.0;
    p.upper_threshold = 10, p.lower_threshold = 4;
    source s = {.data = data, .w = W, .h = H, .d = D, .item = 1, .edges = edges};
    edgel_brick_io io = io_of(&s, EDGEL_U8);
    int32_t halo[3];
    CHECK(edgel_canny_volume_halo(&p, halo) == EDGEL_OK && halo[0] >= 3 && halo[0] == halo[2]);
    p.spacing[2] = 2.0;
    CHECK(edgel_canny_volume_halo(&p, halo) == EDGEL_OK && halo[2] < halo[0]);
    CHECK_STATUS(edgel_canny_volume_halo(&p, NULL), EDGEL_ERROR_NULL_ARGUMENT, "halo");

    CHECK_STATUS(edgel_canny_volume_bricks(ctx, &p, NULL, 4, 4, 4), EDGEL_ERROR_NULL_ARGUMENT,
                 "io");
    CHECK_STATUS(edgel_canny_volume_bricks(ctx, &p, &io, 4, 0, 4), EDGEL_ERROR_INVALID_ARGUMENT,
                 "along y");
    edgel_brick_io bad = io;
    bad.depth = 0;
    CHECK_STATUS(edgel_canny_volume_bricks(ctx, &p, &bad, 4, 4, 4),
                 EDGEL_ERROR_INVALID_ARGUMENT, "along z");
    bad = io;
    bad.width = bad.height = bad.depth = 1 << 20; /* 2^60 voxels */
    CHECK_STATUS(edgel_canny_volume_bricks(ctx, &p, &bad, 4, 4, 4),
                 EDGEL_ERROR_INVALID_ARGUMENT, "EDGEL_MAX_BRICKED_VOXELS");
    bad = io;
    bad.type = EDGEL_F64;
    CHECK_STATUS(edgel_canny_volume_bricks(ctx, &p, &bad, 4, 4, 4), EDGEL_ERROR_UNSUPPORTED,
                 "u8, u16 or f32");
    bad = io;
    bad.width = bad.height = 1 << 19, bad.depth = 2;
    CHECK_STATUS(edgel_canny_volume_bricks(ctx, &p, &bad, 1 << 19, 1 << 19, 1),
                 EDGEL_ERROR_INVALID_ARGUMENT, "too large");
    CHECK(s.reads == 0 && s.writes == 0); /* refused before any callback */
    edgel_volume_canny_params q = p;
    q.maximum_error[0] = 0.0;
    CHECK_STATUS(edgel_canny_volume_bricks(ctx, &q, &io, 4, 4, 4), EDGEL_ERROR_INVALID_ARGUMENT,
                 "maximum error along x");

    io = io_of(&s, EDGEL_U8);
    s.fail_read_at = 5;
    CHECK(edgel_canny_volume_bricks(ctx, &p, &io, 4, 4, 4) == EDGEL_ERROR_IO);
    CHECK(s.reads == 6 && s.writes == 0); /* nothing called after the failure */
    io = io_of(&s, EDGEL_U8);
    s.fail_write_at = 2;
    CHECK(edgel_canny_volume_bricks(ctx, &p, &io, 4, 4, 4) == EDGEL_ERROR_IO);
    CHECK(s.writes == 3);
    /* a source that reads otherwise the second time: here a strong edge appears at voxel 0 */
    memset(data, 0, sizeof data);
    io = io_of(&s, EDGEL_U8);
    s.change_at = 1;
    CHECK_STATUS(edgel_canny_volume_bricks(ctx, &p, &io, 12, 10, 9), EDGEL_ERROR_IO,
                 "second time");
}

int main(void)
{
    edgel_context *ctx = NULL;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) == EDGEL_OK);
    test_against_whole(ctx);
    test_failures(ctx);
    edgel_context_destroy(ctx);
    return check_summary("volume bricks");
}
