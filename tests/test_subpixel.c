/* The sub-pixel detector's C API: refusals with named statuses (nothing run, the previous
 * result kept only where the call never started), views of older and newer struct sizes,
 * the curves object's reuse, one object under two threads, tiny images, and the same curves
 * at every thread count. (Conformance with the reference program: test_subpixel.py.) */
#include "check.h"
#define EDGEL_EXPERIMENTAL /* edgel_components, the sub-pixel pieces */
#include "edgel.h"
#include "test_random.h"

#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { W = 64, H = 48 };

static uint8_t image[W * H];

static void make_image(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) { /* a disk and noise */
            const double d = hypot(x - 30.3, y - 22.7);
            image[y * W + x] = (uint8_t)((d < 14.2 ? 190 : 50) + next_random() % 9);
        }
}

/* A digest of everything a view holds. */
static uint64_t digest(const edgel_curves_view *v)
{
    uint64_t h = 1469598103934665603ull;
    const double *arrays[] = {v->x, v->y, v->gx, v->gy, v->modulus};
    for (int a = 0; a < 5; a++)
        for (int64_t i = 0; i < v->points; i++) {
            uint64_t bits;
            memcpy(&bits, &arrays[a][i], sizeof bits);
            h = (h ^ bits) * 1099511628211ull;
        }
    for (int64_t k = 0; k <= v->curves; k++)
        h = (h ^ (uint64_t)v->limits[k]) * 1099511628211ull;
    for (int64_t k = 0; k < v->curves; k++)
        h = (h ^ v->closed[k]) * 1099511628211ull;
    return h;
}

typedef struct racer {
    edgel_curves *c;
    int ok, busy, bad;
} racer;

static void *race(void *arg)
{
    racer *r = arg;
    edgel_context *ctx = NULL;
    edgel_context_options o;
    edgel_context_options_default(&o);
    o.threads = 1;
    edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx);
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    const edgel_image src = edgel_image_host(image, W, H, EDGEL_U8, 1);
    for (int i = 0; i < 200; i++) {
        const edgel_status st = edgel_subpixel_edges(ctx, &p, &src, r->c);
        r->ok += st == EDGEL_OK;
        r->busy += st == EDGEL_ERROR_CONTEXT_BUSY;
        r->bad += st != EDGEL_OK && st != EDGEL_ERROR_CONTEXT_BUSY;
    }
    edgel_context_destroy(ctx);
    return NULL;
}

/* Noise and few grey levels over 1 to 16 threads: the links run in bands of columns that
 * are recovered band after band, and the chains are split over threads (the same digest as
 * one thread; run under ASan and TSan too). */
static void test_threads_on_noise(void)
{
    enum { NW = 230, NH = 90 };
    static uint8_t noise[NW * NH];
    for (int kind = 0; kind < 2; kind++) {
        for (int i = 0; i < NW * NH; i++)
            noise[i] = (uint8_t)(kind ? next_random() % 3 * 60 : next_random() & 255);
        const edgel_image src = edgel_image_host(noise, NW, NH, EDGEL_U8, 1);
        edgel_subpixel_params p;
        edgel_subpixel_params_default(&p);
        p.sigma = kind ? 0.0 : 0.7;
        edgel_curves *c = NULL;
        CHECK(edgel_curves_create(&c) == EDGEL_OK);
        uint64_t want = 0;
        for (int threads = 1; threads <= 16; threads++) {
            edgel_context *t = NULL;
            edgel_context_options o;
            edgel_context_options_default(&o);
            o.threads = threads;
            CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &t) == EDGEL_OK);
            edgel_curves_view v;
            edgel_curves_view_default(&v);
            CHECK(edgel_subpixel_edges(t, &p, &src, c) == EDGEL_OK);
            CHECK(edgel_curves_get(c, &v) == EDGEL_OK && v.curves > 10);
            if (threads == 1)
                want = digest(&v);
            CHECK(digest(&v) == want);
            edgel_context_destroy(t);
        }
        edgel_curves_destroy(c);
    }
}

/* edgel_curves_copy: the view's arrays, interleaved, at 1 to 4 threads and every core (a
 * result large enough to be split); NULL arrays skipped; refusals. */
static void test_copy(edgel_context *ctx)
{
    enum { CW = 1400, CH = 1000 };
    uint8_t *noise = malloc((size_t)CW * CH);
    CHECK(noise != NULL);
    for (size_t i = 0; i < (size_t)CW * CH; i++)
        noise[i] = (uint8_t)(next_random() & 255);
    const edgel_image src = edgel_image_host(noise, CW, CH, EDGEL_U8, 1);
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    p.sigma = 0.7;
    edgel_curves *c = NULL;
    CHECK(edgel_curves_create(&c) == EDGEL_OK);
    CHECK(edgel_subpixel_edges(ctx, &p, &src, c) == EDGEL_OK);
    edgel_curves_view v;
    edgel_curves_view_default(&v);
    CHECK(edgel_curves_get(c, &v) == EDGEL_OK && v.points > 262144); /* two shares at least */
    const size_t n = (size_t)v.points, m = (size_t)v.curves;
    double *xy = malloc(16 * n), *grad = malloc(16 * n), *mod = malloc(8 * n);
    int64_t *limits = malloc(8 * (m + 1));
    uint8_t *closed = malloc(m);
    CHECK(xy && grad && mod && limits && closed);
    for (int threads = 0; threads <= 4; threads++) {
        memset(xy, 0, 16 * n), memset(grad, 0, 16 * n), memset(mod, 0, 8 * n);
        memset(limits, 0xff, 8 * (m + 1)), memset(closed, 9, m);
        CHECK(edgel_curves_copy(c, xy, grad, mod, limits, closed, threads) == EDGEL_OK);
        int same = !memcmp(mod, v.modulus, 8 * n) && !memcmp(limits, v.limits, 8 * (m + 1)) &&
                   !memcmp(closed, v.closed, m);
        for (size_t i = 0; same && i < n; i++)
            same = xy[2 * i] == v.x[i] && xy[2 * i + 1] == v.y[i] && grad[2 * i] == v.gx[i] &&
                   grad[2 * i + 1] == v.gy[i];
        CHECK(same);
    }
    memset(mod, 0, 8 * n);
    CHECK(edgel_curves_copy(c, NULL, NULL, mod, NULL, NULL, 2) == EDGEL_OK &&
          !memcmp(mod, v.modulus, 8 * n));
    CHECK_STATUS(edgel_curves_copy(c, xy, NULL, NULL, NULL, NULL, -1),
                 EDGEL_ERROR_INVALID_ARGUMENT, "negative");
    CHECK_STATUS(edgel_curves_copy(NULL, xy, NULL, NULL, NULL, NULL, 1),
                 EDGEL_ERROR_NULL_ARGUMENT, "curves");
    free(xy), free(grad), free(mod), free(limits), free(closed), free(noise);
    edgel_curves_destroy(c);
}

/* edgel_curves_set_place: refusals; a CPU context's curves stay on the host (device -1). */
static void test_place(edgel_context *ctx)
{
    edgel_curves *c = NULL;
    CHECK(edgel_curves_create(&c) == EDGEL_OK);
    CHECK_STATUS(edgel_curves_set_place(c, (edgel_curves_place)7), EDGEL_ERROR_INVALID_ARGUMENT,
                 "place 7");
    CHECK_STATUS(edgel_curves_set_place(NULL, EDGEL_CURVES_ON_HOST), EDGEL_ERROR_NULL_ARGUMENT,
                 "curves");
    edgel_curves_view v;
    edgel_curves_view_default(&v);
    CHECK(v.device == -1);
    CHECK(edgel_curves_get(c, &v) == EDGEL_OK && v.device == -1 && v.points == 0);
    uint8_t disk[40 * 40];
    for (int i = 0; i < 40 * 40; i++) {
        const int x = i % 40 - 20, y = i / 40 - 20;
        disk[i] = x * x + y * y < 144 ? 200 : 20;
    }
    const edgel_image src = edgel_image_host(disk, 40, 40, EDGEL_U8, 1);
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    p.sigma = 1.0;
    CHECK(edgel_curves_set_place(c, EDGEL_CURVES_ON_DEVICE) == EDGEL_OK);
    CHECK(edgel_subpixel_edges(ctx, &p, &src, c) == EDGEL_OK);
    CHECK(edgel_curves_get(c, &v) == EDGEL_OK && v.device == -1 && v.curves == 1 &&
          v.closed[0] == 1 && v.points > 40);
    edgel_curves_destroy(c);
}

/* The pieces API's refusals (the equality of pieces and whole: test_dask.py). */
static void test_pieces_refusals(edgel_context *ctx)
{
    edgel_curves *c = NULL;
    CHECK(edgel_curves_create(&c) == EDGEL_OK);
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    edgel_subpixel_points v;
    edgel_subpixel_points_default(&v);
    CHECK(edgel_subpixel_halo(0.0) == 4 && edgel_subpixel_halo(1.0) == 8 &&
          edgel_subpixel_halo(-1.0) == -1 && edgel_subpixel_halo(NAN) == -1);
    CHECK_STATUS(edgel_curves_get_points(c, &v), EDGEL_ERROR_INVALID_ARGUMENT, "no points");
    const edgel_image src = edgel_image_host(image, W, H, EDGEL_U8, 1);
    CHECK(edgel_subpixel_find_points(ctx, &p, &src, 100, 7, c) == EDGEL_OK);
    CHECK(edgel_curves_get_points(c, &v) == EDGEL_OK && v.count > 10);
    int inside = 1;
    for (int64_t i = 0; i < v.count; i++) /* positions in the larger image's frame */
        inside &= v.x[i] > 100 && v.y[i] > 7 && v.px[i] < W && v.py[i] < H &&
                  fabs(v.x[i] - 100 - v.px[i]) <= 0.5 && fabs(v.y[i] - 7 - v.py[i]) <= 0.5;
    CHECK(inside);
    CHECK_STATUS(edgel_subpixel_find_points(ctx, &p, &src, -1, 0, c),
                 EDGEL_ERROR_INVALID_ARGUMENT, "piece");
    CHECK_STATUS(edgel_curves_get_points(c, &v), EDGEL_ERROR_INVALID_ARGUMENT, "no points");

    double d[3] = {5, 6, 7};
    int32_t px[3] = {1, 1, 2}, py[3] = {4, 5, 4}, nb[3] = {1, -1, 0}, none[3] = {-1, -1, -1};
    edgel_subpixel_points in;
    edgel_subpixel_points_default(&in);
    in.count = 3, in.x = in.y = in.gx = in.gy = in.modulus = in.fwd_score = in.bck_score = d;
    in.px = px, in.py = py, in.fwd = nb, in.bck = none;
    CHECK(edgel_subpixel_chain_points(ctx, &p, &in, c) == EDGEL_OK);
    py[1] = 4; /* a pixel twice */
    CHECK_STATUS(edgel_subpixel_chain_points(ctx, &p, &in, c), EDGEL_ERROR_INVALID_ARGUMENT,
                 "reference's order");
    py[1] = 5, nb[2] = 3;
    CHECK_STATUS(edgel_subpixel_chain_points(ctx, &p, &in, c), EDGEL_ERROR_INVALID_ARGUMENT,
                 "not indices");
    nb[2] = 0, px[0] = -1;
    CHECK_STATUS(edgel_subpixel_chain_points(ctx, &p, &in, c), EDGEL_ERROR_INVALID_ARGUMENT,
                 "outside 0 ..");
    /* coordinates far apart: refused, not tables over their span */
    px[0] = 1, px[2] = INT32_MAX;
    CHECK_STATUS(edgel_subpixel_chain_points(ctx, &p, &in, c), EDGEL_ERROR_INVALID_ARGUMENT,
                 "outside 0 ..");
    /* a neighbour far from its point: refused (bands of columns, linked in parallel, would
     * read and write outside their own points) */
    px[2] = EDGEL_MAX_TILED_DIMENSION - 1;
    CHECK_STATUS(edgel_subpixel_chain_points(ctx, &p, &in, c), EDGEL_ERROR_INVALID_ARGUMENT,
                 "farther than two pixels");
    nb[0] = nb[2] = -1, py[1] = EDGEL_MAX_TILED_DIMENSION - 1; /* the largest image's corners */
    CHECK(edgel_subpixel_chain_points(ctx, &p, &in, c) == EDGEL_OK);
    nb[0] = 1, nb[2] = 0, px[2] = 2, py[1] = EDGEL_MAX_TILED_DIMENSION;
    CHECK_STATUS(edgel_subpixel_chain_points(ctx, &p, &in, c), EDGEL_ERROR_INVALID_ARGUMENT,
                 "outside 0 ..");
    py[1] = 5, in.gx = NULL;
    CHECK_STATUS(edgel_subpixel_chain_points(ctx, &p, &in, c), EDGEL_ERROR_NULL_ARGUMENT,
                 "NULL");
    in.gx = d, in.count = -2;
    CHECK_STATUS(edgel_subpixel_chain_points(ctx, &p, &in, c), EDGEL_ERROR_INVALID_ARGUMENT,
                 "count");
    in.count = 0;
    edgel_curves_view cv;
    edgel_curves_view_default(&cv);
    CHECK(edgel_subpixel_chain_points(ctx, &p, &in, c) == EDGEL_OK &&
          edgel_curves_get(c, &cv) == EDGEL_OK && cv.points == 0 && cv.curves == 0);
    edgel_curves_destroy(c);
}

/* Batches: every frame's curves those of its single call, frames of several sizes and pixel
 * types, at 1 to 16 threads (a frame a thread, or frames in turn where they are few); a
 * failing frame named, and no curves left in any frame; refusals. */
static void test_batch(void)
{
    enum { N = 12, BW = 97, BH = 61 };
    static uint8_t pixels[N][BW * BH];
    static float floats[BW * BH];
    edgel_image srcs[N];
    edgel_curves *curves[N];
    uint64_t want[N];
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    p.sigma = 0.7, p.high = 20.0, p.low = 6.0;
    edgel_context *ctx = NULL;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) == EDGEL_OK);
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < BW * BH; j++) /* disks of several sizes, and noise */
            pixels[i][j] = (uint8_t)((hypot(j % BW - 40.5, j / BW - 30.2) < 5 + 2 * i ? 180 : 60) +
                                     next_random() % (1 + 8 * i));
        const int w = i == 3 ? 4 : BW - 5 * i, h = i == 3 ? 9 : BH - 3 * i; /* frame 3: none */
        srcs[i] = edgel_image_host(pixels[i], w, h, EDGEL_U8, 1);
        srcs[i].pitch = BW;
        if (i == 7) { /* a float frame */
            for (int j = 0; j < BW * BH; j++)
                floats[j] = pixels[i][j] + 0.25f;
            srcs[i] = edgel_image_host(floats, w, h, EDGEL_F32, 1);
            srcs[i].pitch = BW * sizeof(float);
        }
        CHECK(edgel_curves_create(&curves[i]) == EDGEL_OK);
        CHECK(edgel_subpixel_edges(ctx, &p, &srcs[i], curves[i]) == EDGEL_OK);
        edgel_curves_view v;
        edgel_curves_view_default(&v);
        CHECK(edgel_curves_get(curves[i], &v) == EDGEL_OK && (i == 3 || v.curves > 0));
        want[i] = digest(&v);
    }
    for (int threads = 1; threads <= 16; threads *= 2)
        for (int count = 1; count <= N; count += count < 3 ? 2 : 9) {
            edgel_context *t = NULL;
            edgel_context_options o;
            edgel_context_options_default(&o);
            o.threads = threads;
            CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &t) == EDGEL_OK);
            CHECK(edgel_subpixel_edges_batch(t, &p, srcs, curves, count) == EDGEL_OK);
            for (int i = 0; i < count; i++) {
                edgel_curves_view v;
                edgel_curves_view_default(&v);
                CHECK(edgel_curves_get(curves[i], &v) == EDGEL_OK && digest(&v) == want[i]);
            }
            edgel_context_destroy(t);
        }
    /* A bad frame: named, and every frame's curves gone. */
    edgel_image bad[N];
    memcpy(bad, srcs, sizeof bad);
    bad[5].type = EDGEL_S16;
    CHECK_STATUS(edgel_subpixel_edges_batch(ctx, &p, bad, curves, N), EDGEL_ERROR_UNSUPPORTED,
                 "frame 5");
    for (int i = 0; i < N; i++) {
        edgel_curves_view v;
        edgel_curves_view_default(&v);
        CHECK(edgel_curves_get(curves[i], &v) == EDGEL_OK && v.points == 0 && v.curves == 0);
    }
    bad[5] = srcs[5];
    bad[9].pitch = 1;
    CHECK_STATUS(edgel_subpixel_edges_batch(ctx, &p, bad, curves, N), EDGEL_ERROR_INVALID_PITCH,
                 "frame 9");
    edgel_curves *twice[N];
    memcpy(twice, curves, sizeof twice);
    twice[8] = twice[2];
    CHECK_STATUS(edgel_subpixel_edges_batch(ctx, &p, srcs, twice, N),
                 EDGEL_ERROR_INVALID_ARGUMENT, "twice");
    twice[8] = NULL;
    CHECK_STATUS(edgel_subpixel_edges_batch(ctx, &p, srcs, twice, N), EDGEL_ERROR_NULL_ARGUMENT,
                 "curves[8]");
    CHECK_STATUS(edgel_subpixel_edges_batch(ctx, &p, srcs, curves, -1),
                 EDGEL_ERROR_INVALID_ARGUMENT, "negative");
    CHECK_STATUS(edgel_subpixel_edges_batch(ctx, &p, NULL, curves, N), EDGEL_ERROR_NULL_ARGUMENT,
                 "srcs");
    CHECK_STATUS(edgel_subpixel_edges_batch(ctx, &p, srcs, NULL, N), EDGEL_ERROR_NULL_ARGUMENT,
                 "curves");
    CHECK_STATUS(edgel_subpixel_edges_batch(ctx, NULL, srcs, curves, N),
                 EDGEL_ERROR_NULL_ARGUMENT, "params");
    CHECK(edgel_subpixel_edges_batch(ctx, &p, NULL, NULL, 0) == EDGEL_OK);
    /* the refusals held nothing: the objects serve the next call */
    CHECK(edgel_subpixel_edges_batch(ctx, &p, srcs, curves, N) == EDGEL_OK);
    for (int i = 0; i < N; i++) {
        edgel_curves_view v;
        edgel_curves_view_default(&v);
        CHECK(edgel_curves_get(curves[i], &v) == EDGEL_OK && digest(&v) == want[i]);
        edgel_curves_destroy(curves[i]);
    }
    edgel_context_destroy(ctx);
}

int main(void)
{
    make_image();
    test_threads_on_noise();
    test_batch();
    edgel_context *ctx = NULL;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) == EDGEL_OK);
    test_pieces_refusals(ctx);
    test_copy(ctx);
    test_place(ctx);
    edgel_curves *c = NULL;
    CHECK(edgel_curves_create(&c) == EDGEL_OK && c);
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    CHECK(p.struct_size == sizeof p && p.sigma == 0.0 && p.high == 0.0 && p.low == 0.0);
    edgel_curves_view v;
    edgel_curves_view_default(&v);
    CHECK(edgel_curves_get(c, &v) == EDGEL_OK && v.points == 0 && v.curves == 0 &&
          v.limits && v.limits[0] == 0);
    const edgel_image src = edgel_image_host(image, W, H, EDGEL_U8, 1);

    /* Refusals. */
    edgel_subpixel_params bad = p;
    bad.sigma = -0.5;
    CHECK_STATUS(edgel_subpixel_edges(ctx, &bad, &src, c), EDGEL_ERROR_INVALID_ARGUMENT, "sigma");
    bad.sigma = NAN;
    CHECK_STATUS(edgel_subpixel_edges(ctx, &bad, &src, c), EDGEL_ERROR_INVALID_ARGUMENT, "sigma");
    bad.sigma = EDGEL_SUBPIXEL_MAX_SIGMA * 2;
    CHECK_STATUS(edgel_subpixel_edges(ctx, &bad, &src, c), EDGEL_ERROR_INVALID_ARGUMENT, "sigma");
    bad = p;
    bad.low = NAN;
    CHECK_STATUS(edgel_subpixel_edges(ctx, &bad, &src, c), EDGEL_ERROR_INVALID_ARGUMENT, "NaN");
    bad = p;
    bad.struct_size = 0;
    CHECK_STATUS(edgel_subpixel_edges(ctx, &bad, &src, c), EDGEL_ERROR_INVALID_ARGUMENT,
                 "edgel_subpixel_params_default");
    CHECK_STATUS(edgel_subpixel_edges(ctx, NULL, &src, c), EDGEL_ERROR_NULL_ARGUMENT, "params");
    CHECK_STATUS(edgel_subpixel_edges(ctx, &p, NULL, c), EDGEL_ERROR_NULL_ARGUMENT, "input");
    CHECK_STATUS(edgel_subpixel_edges(ctx, &p, &src, NULL), EDGEL_ERROR_NULL_ARGUMENT, "curves");
    CHECK_STATUS(edgel_subpixel_edges(NULL, &p, &src, c), EDGEL_ERROR_NULL_ARGUMENT, "context");
    edgel_image rgb = edgel_image_host(image, W / 3, H, EDGEL_U8, 3);
    CHECK_STATUS(edgel_subpixel_edges(ctx, &p, &rgb, c), EDGEL_ERROR_UNSUPPORTED, "channels");
    edgel_image s16 = edgel_image_host(image, W / 2, H, EDGEL_S16, 1);
    CHECK_STATUS(edgel_subpixel_edges(ctx, &p, &s16, c), EDGEL_ERROR_UNSUPPORTED, "s16");
    edgel_image dev = src;
    dev.memory = EDGEL_MEMORY_DEVICE;
    CHECK_STATUS(edgel_subpixel_edges(ctx, &p, &dev, c), EDGEL_ERROR_UNSUPPORTED, "host");
    edgel_image narrow = src;
    narrow.pitch = W - 1;
    CHECK_STATUS(edgel_subpixel_edges(ctx, &p, &narrow, c), EDGEL_ERROR_INVALID_PITCH, "pitch");
    CHECK_STATUS(edgel_curves_create(NULL), EDGEL_ERROR_NULL_ARGUMENT, "curves");
    CHECK_STATUS(edgel_curves_get(c, NULL), EDGEL_ERROR_NULL_ARGUMENT, "view");
    edgel_curves_view unset = {0};
    CHECK_STATUS(edgel_curves_get(c, &unset), EDGEL_ERROR_INVALID_ARGUMENT,
                 "edgel_curves_view_default");

    /* A run and its view; views shorter than the first version, or from a newer header, are
     * refused without a write. */
    p.sigma = 1.0, p.high = 12.0, p.low = 4.0;
    CHECK(edgel_subpixel_edges(ctx, &p, &src, c) == EDGEL_OK);
    CHECK(edgel_curves_get(c, &v) == EDGEL_OK && v.points > 30 && v.curves >= 1);
    CHECK(v.limits[0] == 0 && v.limits[v.curves] == v.points);
    int any_closed = 0;
    for (int64_t k = 0; k < v.curves; k++) {
        CHECK(v.limits[k + 1] > v.limits[k]);
        const int64_t a = v.limits[k], b = v.limits[k + 1] - 1;
        if (v.closed[k]) {
            any_closed = 1;
            CHECK(v.x[a] == v.x[b] && v.y[a] == v.y[b]);
        }
    }
    CHECK(any_closed); /* the disk */
    for (int64_t i = 0; i < v.points; i++)
        CHECK(v.modulus[i] >= p.low && v.x[i] >= 2 - 0.5 && v.x[i] <= W - 3 + 0.5);
    const uint64_t want = digest(&v);
    struct {
        edgel_curves_view v;
        uint8_t past[16];
    } other;
    memset(&other, 0xAB, sizeof other);
    other.v.struct_size = (uint32_t)offsetof(edgel_curves_view, y);
    CHECK_STATUS(edgel_curves_get(c, &other.v), EDGEL_ERROR_INVALID_ARGUMENT, "view");
    other.v.struct_size = (uint32_t)sizeof other;
    CHECK_STATUS(edgel_curves_get(c, &other.v), EDGEL_ERROR_UNSUPPORTED, "newer");
    CHECK(other.past[0] == 0xAB && other.v.x != v.x); /* nothing written */

    /* The same curves at every thread count; the object reused for another image. */
    for (int threads = 1; threads <= 9; threads += 2) {
        edgel_context *t = NULL;
        edgel_context_options o;
        edgel_context_options_default(&o);
        o.threads = threads;
        CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &t) == EDGEL_OK);
        CHECK(edgel_subpixel_edges(t, &p, &src, c) == EDGEL_OK);
        CHECK(edgel_curves_get(c, &v) == EDGEL_OK && digest(&v) == want);
        edgel_context_destroy(t);
    }
    for (int h = 1; h <= 6; h++) /* tiny images: no points, then the full one again */
        for (int w = 1; w <= 6; w++) {
            edgel_image t = edgel_image_host(image, w, h, EDGEL_U8, 1);
            t.pitch = W;
            CHECK(edgel_subpixel_edges(ctx, &p, &t, c) == EDGEL_OK);
            CHECK(edgel_curves_get(c, &v) == EDGEL_OK && ((w >= 5 && h >= 5) || v.points == 0));
        }
    CHECK(edgel_subpixel_edges(ctx, &p, &src, c) == EDGEL_OK);
    CHECK(edgel_curves_get(c, &v) == EDGEL_OK && digest(&v) == want);
    /* Other pixel types give the same curves for the same values. */
    float f32[W * H];
    double f64[W * H];
    uint16_t u16[W * H];
    for (int i = 0; i < W * H; i++)
        f32[i] = image[i], f64[i] = image[i], u16[i] = image[i];
    const edgel_image views[3] = {edgel_image_host(f32, W, H, EDGEL_F32, 1),
                                  edgel_image_host(f64, W, H, EDGEL_F64, 1),
                                  edgel_image_host(u16, W, H, EDGEL_U16, 1)};
    for (int i = 0; i < 3; i++) {
        CHECK(edgel_subpixel_edges(ctx, &p, &views[i], c) == EDGEL_OK);
        CHECK(edgel_curves_get(c, &v) == EDGEL_OK && digest(&v) == want);
    }
    /* A failed call leaves no curves. */
    CHECK(edgel_subpixel_edges(ctx, &p, &s16, c) == EDGEL_ERROR_UNSUPPORTED);
    CHECK(edgel_curves_get(c, &v) == EDGEL_OK && v.points == 0 && v.curves == 0);

    /* One object, two threads: every call OK or BUSY. */
    racer r1 = {c, 0, 0, 0}, r2 = {c, 0, 0, 0};
    pthread_t a, b;
    CHECK(pthread_create(&a, NULL, race, &r1) == 0 && pthread_create(&b, NULL, race, &r2) == 0);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    CHECK(r1.bad == 0 && r2.bad == 0 && r1.ok + r2.ok >= 200);

    edgel_curves_destroy(c);
    edgel_curves_destroy(NULL);
    edgel_context_destroy(ctx);
    return check_summary("subpixel");
}
