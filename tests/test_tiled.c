/* Tiled Canny equals the whole-image call byte for byte: random images, sizes, tile sizes
 * down to 1x1 and options of the opencv preset; failing callbacks stop the call. */
#include "check.h"
#include "edgel.h"
#include "test_random.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct image_io {
    const uint8_t *src;
    uint8_t *dst;
    int w, h, cn; /* cn: bytes a pixel */
    int reads, writes, fail_read_at, fail_write_at;
    int tiles_in_order; /* raster order seen so far */
    int64_t last_x, last_y;
    const uint8_t *later; /* read from `later` once `later_from` reads are done (NULL: never) */
    int later_from;
} image_io;

static edgel_status read_region(void *user, int64_t x, int64_t y, const edgel_image *dst)
{
    image_io *io = user;
    if (++io->reads == io->fail_read_at)
        return EDGEL_ERROR_IO;
    if (x < 0 || y < 0 || x + dst->width > io->w || y + dst->height > io->h ||
        dst->channels * (int)edgel_pixel_size(dst->type) != io->cn)
        return EDGEL_ERROR_INTERNAL; /* a request outside the image: the test fails */
    const uint8_t *src = io->later && io->reads > io->later_from ? io->later : io->src;
    for (int r = 0; r < dst->height; r++)
        memcpy((uint8_t *)dst->data + (size_t)r * dst->pitch,
               src + ((size_t)(y + r) * io->w + (size_t)x) * io->cn,
               (size_t)dst->width * io->cn);
    return EDGEL_OK;
}

static edgel_status write_tile(void *user, int64_t x, int64_t y, const edgel_image *e)
{
    image_io *io = user;
    if (++io->writes == io->fail_write_at)
        return EDGEL_ERROR_IO;
    if (y < io->last_y || (y == io->last_y && x <= io->last_x && io->writes > 1))
        io->tiles_in_order = 0;
    io->last_x = x, io->last_y = y;
    for (int r = 0; r < e->height; r++)
        memcpy(io->dst + (size_t)(y + r) * io->w + (size_t)x,
               (const uint8_t *)e->data + (size_t)r * e->pitch, (size_t)e->width);
    return EDGEL_OK;
}

/* Blobs, ramps and noise: long weak chains that cross tiles and strong seeds far away. */
static void fill(uint8_t *p, int w, int h, int cn)
{
    const int cx = (int)(next_random() % (unsigned)w), cy = (int)(next_random() % (unsigned)h);
    const int64_t r2 = (int64_t)(next_random() % (uint64_t)((int64_t)w * w / 4 + (int64_t)h * h / 4 + 1)) + 1;
    const int noise = (int)(next_random() % 40) + 1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < cn; c++) {
                const int64_t d = (int64_t)(x - cx) * (x - cx) + (int64_t)(y - cy) * (y - cy);
                int v = (d < r2 ? 170 : 60) + (x * 3 + y * 2) % 50 + c * 9;
                v += (int)(next_random() % (unsigned)noise);
                p[((size_t)y * w + x) * cn + c] = (uint8_t)(v > 255 ? 255 : v);
            }
}

static void random_params(edgel_canny_params *p, int cn)
{
    static const int apertures[] = {3, 5, 7, EDGEL_APERTURE_SCHARR};
    edgel_canny_params_default(p);
    p->aperture = apertures[next_random() % 4];
    p->l2_gradient = p->aperture == EDGEL_APERTURE_SCHARR || next_random() % 2;
    p->low_threshold = (double)(next_random() % 200);
    p->high_threshold = (double)(next_random() % 400);
    if (p->aperture == 7) {
        p->low_threshold *= 16;
        p->high_threshold *= 16;
    }
    const unsigned blur = next_random() % 4;
    p->blur = blur == 0 ? EDGEL_BLUR_NONE : blur == 3 ? EDGEL_BLUR_5X5_159 : EDGEL_BLUR_GAUSSIAN;
    p->blur_sigma = 0.6 + (double)(next_random() % 30) / 10;
    p->blur_ksize = next_random() % 3 == 0 ? (int)(next_random() % 5) * 2 + 1 : 0;
    p->gray = cn == 1 ? EDGEL_GRAY_NONE : (edgel_gray)(next_random() % 3);
}

/* edgel_canny_tiled_image on the same tiles gives `want`. */
static int same_through_views(edgel_context *ctx, const edgel_canny_params *p,
                              const edgel_image *src, const uint8_t *want, int tw, int th)
{
    const int w = src->width, h = src->height;
    uint8_t *got = malloc((size_t)w * h);
    memset(got, 7, (size_t)w * h);
    const edgel_image d = edgel_image_host(got, w, h, EDGEL_U8, 1);
    const edgel_status st = edgel_canny_tiled_image(ctx, p, src, &d, tw, th);
    const int same = st == EDGEL_OK && !memcmp(want, got, (size_t)w * h);
    if (!same)
        fprintf(stderr, "on views %dx%d in %dx%d tiles: differs (%s)\n", w, h, tw, th,
                st == EDGEL_OK ? "" : edgel_last_error());
    free(got);
    return same;
}

static void test_equal_to_whole(edgel_context *ctx, int cases)
{
    int identical = 0, ran = 0, views_same = 0;
    for (int k = 0; k < cases; k++) {
        const int cn = (int)(next_random() % 3) == 0 ? 1 : (next_random() % 2 ? 3 : 4);
        const int w = 1 + (int)(next_random() % 180), h = 1 + (int)(next_random() % 140);
        const int tw = 1 + (int)(next_random() % (next_random() % 2 ? 8 : 90));
        const int th = 1 + (int)(next_random() % (next_random() % 2 ? 8 : 90));
        uint8_t *src = malloc((size_t)w * h * cn), *want = malloc((size_t)w * h);
        uint8_t *got = malloc((size_t)w * h);
        fill(src, w, h, cn);
        edgel_canny_params p;
        random_params(&p, cn);
        edgel_image s = edgel_image_host(src, w, h, EDGEL_U8, cn);
        edgel_image d = edgel_image_host(want, w, h, EDGEL_U8, 1);
        CHECK(edgel_canny(ctx, &p, &s, &d, NULL) == EDGEL_OK);
        memset(got, 7, (size_t)w * h);
        image_io io = {src, got, w, h, cn, 0, 0, 0, 0, 1, 0, 0, NULL, 0};
        edgel_tile_io tio = {w, h, cn, EDGEL_U8, read_region, write_tile, &io};
        const edgel_status st = edgel_canny_tiled(ctx, &p, &tio, tw, th);
        CHECK(st == EDGEL_OK);
        ran++;
        const int same = st == EDGEL_OK && !memcmp(want, got, (size_t)w * h);
        identical += same;
        if (!same)
            fprintf(stderr, "tiled %dx%dx%d in %dx%d tiles (aperture %d, l2 %d, blur %d "
                            "sigma %g k %d, gray %d, %g/%g): differs (%s)\n",
                    w, h, cn, tw, th, (int)p.aperture, (int)p.l2_gradient, (int)p.blur,
                    p.blur_sigma, (int)p.blur_ksize, (int)p.gray, p.low_threshold,
                    p.high_threshold, edgel_last_error());
        const int tiles = ((w + tw - 1) / tw) * ((h + th - 1) / th);
        CHECK(io.writes == tiles && io.reads == 2 * tiles && io.tiles_in_order);
        views_same += same_through_views(ctx, &p, &s, want, tw, th);
        free(src), free(want), free(got);
    }
    printf("tiled: %d of %d cases identical to the whole-image call (%d on views)\n", identical,
           ran, views_same);
    CHECK(identical == ran && views_same == ran);
}

/* The itk preset: float, u16 and u8 gray images, variances 0 to 8, thresholds of either
 * order; edges u8 255/0 against the whole-image call with u8 edges. */
static void test_itk_equal_to_whole(edgel_context *ctx, int cases)
{
    static const edgel_pixel_type types[] = {EDGEL_F32, EDGEL_U16, EDGEL_U8};
    int identical = 0, views_same = 0;
    for (int k = 0; k < cases; k++) {
        const edgel_pixel_type type = types[k % 3];
        const int px = (int)edgel_pixel_size(type);
        const int w = 1 + (int)(next_random() % 120), h = 1 + (int)(next_random() % 100);
        const int tw = 1 + (int)(next_random() % (next_random() % 2 ? 6 : 60));
        const int th = 1 + (int)(next_random() % (next_random() % 2 ? 6 : 60));
        uint8_t *u8 = malloc((size_t)w * h), *src = malloc((size_t)w * h * px);
        uint8_t *want = malloc((size_t)w * h), *got = malloc((size_t)w * h);
        fill(u8, w, h, 1);
        for (int i = 0; i < w * h; i++) {
            if (type == EDGEL_F32)
                ((float *)src)[i] = u8[i] * 0.37f + (float)(next_random() % 100) / 50.0f;
            else if (type == EDGEL_U16)
                ((uint16_t *)src)[i] = (uint16_t)(u8[i] * 200 + next_random() % 500);
            else
                src[i] = u8[i];
        }
        edgel_canny_params p;
        edgel_canny_params_default(&p);
        p.preset = EDGEL_PRESET_ITK;
        p.variance = (double)(next_random() % 9) * (next_random() % 2 ? 1.0 : 0.5);
        p.maximum_error = next_random() % 2 ? 0.01 : 0.2;
        const double scale = type == EDGEL_U16 ? 200 : 1;
        p.high_threshold = scale * (double)(next_random() % 40);
        p.low_threshold = scale * (double)(next_random() % 30);
        edgel_image s = edgel_image_host(src, w, h, type, 1);
        edgel_image d = edgel_image_host(want, w, h, EDGEL_U8, 1);
        CHECK(edgel_canny(ctx, &p, &s, &d, NULL) == EDGEL_OK);
        image_io io = {src, got, w, h, px, 0, 0, 0, 0, 1, 0, 0, NULL, 0};
        edgel_tile_io tio = {w, h, 1, type, read_region, write_tile, &io};
        const edgel_status st = edgel_canny_tiled(ctx, &p, &tio, tw, th);
        const int same = st == EDGEL_OK && !memcmp(want, got, (size_t)w * h);
        identical += same;
        views_same += same_through_views(ctx, &p, &s, want, tw, th);
        if (!same)
            fprintf(stderr, "itk tiled %dx%d type %d in %dx%d tiles (variance %g, error %g, "
                            "%g/%g): differs (%s)\n", w, h, (int)type, tw, th, p.variance,
                    p.maximum_error, p.high_threshold, p.low_threshold, edgel_last_error());
        free(u8), free(src), free(want), free(got);
    }
    printf("tiled itk: %d of %d cases identical to the whole-image call (%d on views)\n",
           identical, cases, views_same);
    CHECK(identical == cases && views_same == cases);
}

static void test_errors(edgel_context *ctx)
{
    enum { W = 50, H = 40 };
    static uint8_t src[W * H], dst[W * H];
    fill(src, W, H, 1);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.low_threshold = 20;
    p.high_threshold = 60;
    for (int fail = 1; fail <= 3; fail++) {
        image_io io = {src, dst, W, H, 1, 0, 0, fail, 0, 1, 0, 0, NULL, 0};
        edgel_tile_io tio = {W, H, 1, EDGEL_U8, read_region, write_tile, &io};
        CHECK_STATUS(edgel_canny_tiled(ctx, &p, &tio, 16, 16), EDGEL_ERROR_IO, "read callback");
        CHECK(io.reads == fail && io.writes == 0); /* nothing more after the failure */
        image_io io2 = {src, dst, W, H, 1, 0, 0, 0, fail, 1, 0, 0, NULL, 0};
        edgel_tile_io tio2 = {W, H, 1, EDGEL_U8, read_region, write_tile, &io2};
        CHECK_STATUS(edgel_canny_tiled(ctx, &p, &tio2, 16, 16), EDGEL_ERROR_IO,
                     "write callback");
        CHECK(io2.writes == fail);
    }
    image_io io = {src, dst, W, H, 1, 0, 0, 0, 0, 1, 0, 0, NULL, 0};
    edgel_tile_io tio = {W, H, 1, EDGEL_U8, read_region, write_tile, &io};
    CHECK_STATUS(edgel_canny_tiled(NULL, &p, &tio, 16, 16), EDGEL_ERROR_NULL_ARGUMENT, "context");
    CHECK_STATUS(edgel_canny_tiled(ctx, &p, &tio, 0, 16), EDGEL_ERROR_INVALID_SIZE, "tiles");
    CHECK_STATUS(edgel_canny_tiled(ctx, &p, NULL, 16, 16), EDGEL_ERROR_NULL_ARGUMENT, "io");
    edgel_tile_io big = tio;
    big.width = EDGEL_MAX_TILED_DIMENSION + 1;
    CHECK_STATUS(edgel_canny_tiled(ctx, &p, &big, 16, 16), EDGEL_ERROR_INVALID_SIZE, "a side");
    big.width = big.height = EDGEL_MAX_TILED_DIMENSION; /* 2^40 pixels: allowed... */
    big.channels = 2;
    CHECK_STATUS(edgel_canny_tiled(ctx, &p, &big, 16, 16), EDGEL_ERROR_INVALID_ARGUMENT,
                 "channels");
    edgel_tile_io f32 = tio;
    f32.type = EDGEL_F32;
    CHECK_STATUS(edgel_canny_tiled(ctx, &p, &f32, 16, 16), EDGEL_ERROR_UNSUPPORTED, "u8");
    edgel_canny_params itk;
    edgel_canny_params_default(&itk);
    itk.preset = EDGEL_PRESET_ITK;
    edgel_tile_io rgb = tio;
    rgb.channels = 3;
    CHECK_STATUS(edgel_canny_tiled(ctx, &itk, &rgb, 16, 16), EDGEL_ERROR_UNSUPPORTED, "1-channel");
    p.low_threshold = 1e300;
    CHECK_STATUS(edgel_canny_tiled(ctx, &p, &tio, 16, 16), EDGEL_ERROR_INVALID_ARGUMENT,
                 "threshold");
}

/* A source whose pixels change between the two passes (a file replaced during the call):
 * more, fewer or other open components the second time end the call with a message, never
 * with a write outside the labels. */
static void test_changing_source(edgel_context *ctx)
{
    enum { W = 300, H = 200, T = 64 };
    static uint8_t zeros[W * H], noise[W * H], dst[W * H];
    for (int i = 0; i < W * H; i++)
        noise[i] = (uint8_t)next_random();
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.low_threshold = 5;
    p.high_threshold = 2000;
    const int tiles = ((W + T - 1) / T) * ((H + T - 1) / T);
    const uint8_t *first[] = {zeros, noise}, *second[] = {noise, zeros};
    for (int c = 0; c < 2; c++)
        for (int at = tiles / 2; at <= tiles + 1; at += tiles / 2 + 1) {
            image_io io = {first[c], dst, W, H, 1, 0, 0, 0, 0, 1, 0, 0, second[c], at};
            edgel_tile_io tio = {W, H, 1, EDGEL_U8, read_region, write_tile, &io};
            CHECK_STATUS(edgel_canny_tiled(ctx, &p, &tio, T, T), EDGEL_ERROR_IO,
                         "changed during the call");
        }
}

/* A read callback that calls the library with its tiled call's context: refused as a call on
 * this thread, not another's. */
static edgel_context *reentrant_ctx;
static edgel_status reentrant_status;
static char reentrant_message[256];

static edgel_status read_reentrant(void *user, int64_t x, int64_t y, const edgel_image *dst)
{
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    static uint8_t px[16], out[16];
    const edgel_image s = edgel_image_host(px, 4, 4, EDGEL_U8, 1);
    const edgel_image e = edgel_image_host(out, 4, 4, EDGEL_U8, 1);
    reentrant_status = edgel_canny(reentrant_ctx, &p, &s, &e, NULL);
    snprintf(reentrant_message, sizeof reentrant_message, "%s", edgel_last_error());
    return read_region(user, x, y, dst);
}

static void test_reentrant_callback(edgel_context *ctx)
{
    enum { W = 40, H = 30 };
    static uint8_t src[W * H], dst[W * H];
    fill(src, W, H, 1);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    image_io io = {src, dst, W, H, 1, 0, 0, 0, 0, 1, 0, 0, NULL, 0};
    edgel_tile_io tio = {W, H, 1, EDGEL_U8, read_reentrant, write_tile, &io};
    reentrant_ctx = ctx;
    CHECK(edgel_canny_tiled(ctx, &p, &tio, 16, 16) == EDGEL_OK);
    CHECK(reentrant_status == EDGEL_ERROR_CONTEXT_BUSY &&
          strstr(reentrant_message, "on this thread already") != NULL);
    uint8_t px[16] = {0}, out[16];
    const edgel_image s = edgel_image_host(px, 4, 4, EDGEL_U8, 1);
    const edgel_image e = edgel_image_host(out, 4, 4, EDGEL_U8, 1);
    CHECK(edgel_canny(ctx, &p, &s, &e, NULL) == EDGEL_OK); /* and free again after it */
}

/* edgel_canny on a host image wider than EDGEL_MAX_DIMENSION goes tiled: the same edges as
 * the callback driver in other tiles; the views' own errors. */
static void test_past_whole_image(edgel_context *ctx)
{
    const int w = EDGEL_MAX_DIMENSION + 300, h = 37;
    uint8_t *src = malloc((size_t)w * h * 3), *a = malloc((size_t)w * h), *b = malloc((size_t)w * h);
    fill(src, w, h, 3);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.low_threshold = 30;
    p.high_threshold = 90;
    const edgel_image s = edgel_image_host(src, w, h, EDGEL_U8, 3);
    const edgel_image d = edgel_image_host(a, w, h, EDGEL_U8, 1);
    CHECK(edgel_canny(ctx, &p, &s, &d, NULL) == EDGEL_OK);
    image_io io = {src, b, w, h, 3, 0, 0, 0, 0, 1, 0, 0, NULL, 0};
    edgel_tile_io tio = {w, h, 3, EDGEL_U8, read_region, write_tile, &io};
    CHECK(edgel_canny_tiled(ctx, &p, &tio, 1000, 9) == EDGEL_OK);
    CHECK(!memcmp(a, b, (size_t)w * h));
    size_t edges = 0;
    for (size_t i = 0; i < (size_t)w * h; i++)
        edges += a[i] != 0;
    CHECK(edges > 1000); /* not an empty map */

    edgel_canny_stages stages = {0};
    stages.suppressed = &d;
    CHECK_STATUS(edgel_canny(ctx, &p, &s, &d, &stages), EDGEL_ERROR_INVALID_SIZE, "maximum");
    const edgel_image same = edgel_image_host(src, w, h, EDGEL_U8, 1);
    const edgel_image gray = edgel_image_host(src, w, h, EDGEL_U8, 1);
    CHECK_STATUS(edgel_canny_tiled_image(ctx, &p, &gray, &same, 64, 64),
                 EDGEL_ERROR_INVALID_ARGUMENT, "overlap");
    edgel_image f32 = d;
    f32.type = EDGEL_F32;
    CHECK_STATUS(edgel_canny_tiled_image(ctx, &p, &s, &f32, 64, 64), EDGEL_ERROR_UNSUPPORTED,
                 "u8");
    CHECK_STATUS(edgel_canny_tiled_image(ctx, &p, &s, &d, 64, 0), EDGEL_ERROR_INVALID_SIZE,
                 "tiles");
    CHECK_STATUS(edgel_canny_tiled_image(ctx, &p, NULL, &d, 64, 64), EDGEL_ERROR_NULL_ARGUMENT,
                 "NULL");
    free(src), free(a), free(b);
}

int main(void)
{
    edgel_context *ctx;
    if (edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) != EDGEL_OK)
        return 1;
    test_equal_to_whole(ctx, 300);
    test_itk_equal_to_whole(ctx, 150);
    test_errors(ctx);
    test_changing_source(ctx);
    test_reentrant_callback(ctx);
    test_past_whole_image(ctx);
    edgel_context_destroy(ctx);
    return check_summary("tiled");
}
