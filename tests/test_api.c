/* The public API: bad input of every function gives the right status and message; basic
 * behaviour (thread-count invariance, in-place, stages) holds. */
#include "check.h"
#include "edgel.h"
#include "test_random.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


/* A smooth random image: random blobs, so Canny finds structure, not just noise. */
static void fill_image(uint8_t *p, int w, int h, int cn)
{
    int cx[6], cy[6], val[6];
    for (int i = 0; i < 6; i++) {
        cx[i] = (int)(next_random() % (unsigned)w);
        cy[i] = (int)(next_random() % (unsigned)h);
        val[i] = (int)(next_random() % 256);
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < cn; c++) {
                int best = 0, bd = 1 << 30;
                for (int i = 0; i < 6; i++) {
                    int d = (x - cx[i]) * (x - cx[i]) + (y - cy[i]) * (y - cy[i]) + c * 7 * i;
                    if (d < bd)
                        bd = d, best = i;
                }
                p[((size_t)y * w + x) * cn + c] = (uint8_t)(val[best] + next_random() % 9);
            }
}

static void test_status_and_version(void)
{
    CHECK(!strcmp(edgel_status_name(EDGEL_OK), "EDGEL_OK"));
    CHECK(!strcmp(edgel_status_name(EDGEL_ERROR_INVALID_PITCH), "EDGEL_ERROR_INVALID_PITCH"));
    CHECK(!strcmp(edgel_status_name((edgel_status)999), "EDGEL_ERROR_UNKNOWN"));
    CHECK(EDGEL_ERROR_NULL_ARGUMENT == 1 && EDGEL_ERROR_INTERNAL == 11); /* pinned values */
    CHECK(edgel_version_number() == EDGEL_VERSION_NUMBER);
    CHECK(!strcmp(edgel_version_string(), EDGEL_VERSION_STRING));
    CHECK(edgel_pixel_size(EDGEL_S32) == 4 && edgel_pixel_size((edgel_pixel_type)77) == 0);
}

static void test_contexts(void)
{
    edgel_context *ctx = (edgel_context *)1;
    CHECK_STATUS(edgel_context_create(EDGEL_BACKEND_CPU, NULL, NULL), EDGEL_ERROR_NULL_ARGUMENT,
                 "out");
    CHECK_STATUS(edgel_context_create((edgel_backend)9, NULL, &ctx), EDGEL_ERROR_INVALID_ARGUMENT,
                 "backend");
    CHECK(ctx == NULL);
    edgel_context_options o;
    edgel_context_options_default(&o);
    CHECK(o.threads == 0 && o.device == 0);
    o.threads = -1;
    CHECK_STATUS(edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx), EDGEL_ERROR_INVALID_ARGUMENT,
                 "threads");
    o.threads = 3;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx) == EDGEL_OK);
    int32_t t = 0;
    edgel_backend b = EDGEL_BACKEND_AUTO;
    CHECK(edgel_context_threads(ctx, &t) == EDGEL_OK && t == 3);
    CHECK(edgel_context_backend(ctx, &b) == EDGEL_OK && b == EDGEL_BACKEND_CPU);
    CHECK_STATUS(edgel_context_threads(NULL, &t), EDGEL_ERROR_NULL_ARGUMENT, "NULL");
    edgel_context_destroy(ctx);
    edgel_context_destroy(NULL); /* a no-op */
    CHECK(edgel_context_create(EDGEL_BACKEND_AUTO, NULL, &ctx) == EDGEL_OK);
    CHECK(edgel_context_threads(ctx, &t) == EDGEL_OK && t >= 1);
    edgel_context_destroy(ctx);
}

static void test_bad_canny_input(edgel_context *ctx)
{
    enum { W = 17, H = 9 };
    static uint8_t src_px[W * H * 4], dst_px[W * H];
    edgel_image src = edgel_image_host(src_px, W, H, EDGEL_U8, 1);
    edgel_image dst = edgel_image_host(dst_px, W, H, EDGEL_U8, 1);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    CHECK(p.low_threshold == 50 && p.high_threshold == 150 && p.aperture == 3);

    CHECK_STATUS(edgel_canny(NULL, &p, &src, &dst, NULL), EDGEL_ERROR_NULL_ARGUMENT, "context");
    CHECK_STATUS(edgel_canny(ctx, NULL, &src, &dst, NULL), EDGEL_ERROR_NULL_ARGUMENT, "params");
    CHECK_STATUS(edgel_canny(ctx, &p, NULL, &dst, NULL), EDGEL_ERROR_NULL_ARGUMENT, "input");
    CHECK_STATUS(edgel_canny(ctx, &p, &src, NULL, NULL), EDGEL_ERROR_NULL_ARGUMENT, "edges");
    edgel_image bad = src;
    bad.data = NULL;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_NULL_ARGUMENT, "data");
    bad = src;
    bad.width = 0;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_SIZE, "1x1");
    bad.width = -5;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_SIZE, "1x1");
    bad = src;
    bad.width = EDGEL_MAX_DIMENSION + 1; /* host images this large go tiled: sizes still match */
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_SIZE, "but input");
    bad.width = 60000;
    bad.height = 60000; /* each side fine, pixel count past the whole-image maximum */
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_SIZE, "but input");
    edgel_canny_stages big_stages = {0};
    big_stages.suppressed = &dst; /* ...but stages need the whole image */
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, &big_stages), EDGEL_ERROR_INVALID_SIZE,
                 "maximum");
    bad.width = EDGEL_MAX_TILED_DIMENSION + 1;
    bad.height = 2;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_SIZE, "a side");
    bad = src;
    bad.pitch = W - 1;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_PITCH, "pitch");
    bad.pitch = SIZE_MAX / 4; /* rows would wrap the address space */
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_PITCH, "overflow");
    bad = src;
    bad.type = EDGEL_F32; /* the error names the preset that reads it */
    bad.pitch = W * 4;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_UNSUPPORTED,
                 "the itk and skimage presets read it");
    bad.type = EDGEL_U16;
    bad.pitch = W * 2;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_UNSUPPORTED,
                 "pixel type u16: the opencv preset reads u8");
    bad = src;
    bad.type = (edgel_pixel_type)42;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "type");
    bad = src;
    bad.channels = 2;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "channels");
    bad.channels = 7;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "channels");
    bad = src;
    bad.memory = EDGEL_MEMORY_DEVICE;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_UNSUPPORTED, "host");
    bad = dst;
    bad.height = H - 1;
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &bad, NULL), EDGEL_ERROR_INVALID_SIZE, "edges");
    bad = edgel_image_host(src_px, W, H, EDGEL_U8, 3);
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &bad, NULL), EDGEL_ERROR_UNSUPPORTED, "channels");
    /* Output overlapping a 3-channel input is refused; an identical 1-channel view is fine. */
    edgel_image rgb = edgel_image_host(src_px, W, H, EDGEL_U8, 3);
    CHECK_STATUS(edgel_canny(ctx, &p, &rgb, &src, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "overlap");
    CHECK(edgel_canny(ctx, &p, &src, &src, NULL) == EDGEL_OK);

    edgel_canny_params q = p;
    q.low_threshold = NAN;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "NaN");
    q = p;
    q.high_threshold = INFINITY;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "outside");
    q = p;
    q.aperture = 4;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "aperture");
    q.aperture = EDGEL_APERTURE_SCHARR;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_UNSUPPORTED, "L2");
    q = p;
    q.l2_gradient = 2;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "l2");
    q = p;
    q.preset = (edgel_preset)5;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "preset");
    q = p;
    q.gray = (edgel_gray)9;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "gray");
    q = p;
    q.blur = (edgel_blur)9;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "blur");
    q.blur = EDGEL_BLUR_GAUSSIAN;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "sigma");
    q.blur_ksize = 4;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "odd");
    q.blur_ksize = 0;
    q.blur_sigma = 1e6;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "wider");
    q.blur_sigma = NAN;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "finite");

    /* Stage views are checked too. */
    static int16_t s16[W * H];
    edgel_image dx = edgel_image_host(s16, W, H, EDGEL_S16, 1);
    edgel_canny_stages st = {0};
    st.magnitude = &dx; /* wrong type */
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &dst, &st), EDGEL_ERROR_UNSUPPORTED, "magnitude");
    memset(&st, 0, sizeof st);
    st.gray = &dst;
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &dst, &st), EDGEL_ERROR_INVALID_ARGUMENT, "overlap");
    static uint8_t g[W * H];
    edgel_image gv = edgel_image_host(g, W, H, EDGEL_U8, 1);
    st.gray = &gv; /* gray stage without a gray mode */
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &dst, &st), EDGEL_ERROR_INVALID_ARGUMENT, "gray mode");
}

static void test_bad_other_input(edgel_context *ctx)
{
    enum { W = 8, H = 5 };
    static uint8_t rgb_px[W * H * 3], g_px[W * H];
    static int16_t a[W * H], b[W * H * 3];
    edgel_image rgb = edgel_image_host(rgb_px, W, H, EDGEL_U8, 3);
    edgel_image gray = edgel_image_host(g_px, W, H, EDGEL_U8, 1);
    CHECK_STATUS(edgel_to_gray(ctx, EDGEL_GRAY_NONE, &rgb, &gray), EDGEL_ERROR_INVALID_ARGUMENT,
                 "order");
    CHECK_STATUS(edgel_to_gray(ctx, EDGEL_GRAY_RGB, &gray, &gray), EDGEL_ERROR_UNSUPPORTED,
                 "channels");
    CHECK_STATUS(edgel_to_gray(NULL, EDGEL_GRAY_RGB, &rgb, &gray), EDGEL_ERROR_NULL_ARGUMENT,
                 "context");
    CHECK(edgel_to_gray(ctx, EDGEL_GRAY_RGB, &rgb, &gray) == EDGEL_OK);
    CHECK_STATUS(edgel_gaussian_blur(ctx, &rgb, &gray, 3, 0), EDGEL_ERROR_UNSUPPORTED, "channels");
    CHECK_STATUS(edgel_gaussian_blur(ctx, &gray, &gray, 3, 0), EDGEL_ERROR_INVALID_ARGUMENT,
                 "overlap");
    static uint8_t o_px[W * H];
    edgel_image out = edgel_image_host(o_px, W, H, EDGEL_U8, 1);
    CHECK_STATUS(edgel_gaussian_blur(ctx, &gray, &out, 0, 0), EDGEL_ERROR_INVALID_ARGUMENT,
                 "sigma");
    CHECK_STATUS(edgel_gaussian_blur(ctx, &gray, &out, -3, 1), EDGEL_ERROR_INVALID_ARGUMENT,
                 "odd");
    CHECK(edgel_gaussian_blur(ctx, &gray, &out, 0, 1.2) == EDGEL_OK);

    edgel_canny_params p;
    edgel_canny_params_default(&p);
    edgel_image dx = edgel_image_host(a, W, H, EDGEL_S16, 1);
    edgel_image dy3 = edgel_image_host(b, W, H, EDGEL_S16, 3);
    CHECK_STATUS(edgel_canny_gradients(ctx, &p, &dx, &dy3, &out, NULL), EDGEL_ERROR_INVALID_SIZE,
                 "channels");
    CHECK_STATUS(edgel_canny_gradients(ctx, &p, &dx, &gray, &out, NULL), EDGEL_ERROR_UNSUPPORTED,
                 "s16");
    CHECK_STATUS(edgel_canny_gradients(ctx, &p, &dx, NULL, &out, NULL), EDGEL_ERROR_NULL_ARGUMENT,
                 "dy");
    p.low_threshold = NAN;
    CHECK_STATUS(edgel_canny_gradients(ctx, &p, &dx, &dx, &out, NULL),
                 EDGEL_ERROR_INVALID_ARGUMENT, "NaN");
}

/* A vertical step: the edge is the column where the gradient peaks, on every row. */
static void test_step_edge(edgel_context *ctx)
{
    enum { W = 32, H = 20 };
    static uint8_t img[W * H], edges[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y * W + x] = x < 16 ? 20 : 220;
    edgel_image src = edgel_image_host(img, W, H, EDGEL_U8, 1);
    edgel_image dst = edgel_image_host(edges, W, H, EDGEL_U8, 1);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    CHECK(edgel_canny(ctx, &p, &src, &dst, NULL) == EDGEL_OK);
    /* dx is 800 at x = 15 and 16; the tie goes to the left pixel (m > left, m >= right). */
    int ok = 1;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            ok &= edges[y * W + x] == (x == 15 ? 255 : 0);
    CHECK(ok);
    /* A flat image has no edges, whatever the thresholds (even negative ones). */
    memset(img, 77, sizeof img);
    p.low_threshold = -10;
    p.high_threshold = -5;
    CHECK(edgel_canny(ctx, &p, &src, &dst, NULL) == EDGEL_OK);
    int none = 1;
    for (int i = 0; i < W * H; i++)
        none &= edges[i] == 0;
    CHECK(none);
}

/* A frame whose top half is flat and bottom half noise (a strong pixel pushed for about a third
 * of its pixels): the threads of the top stripes tend to finish their rows first and take the
 * back halves of the others' (segments with their own joins; in some of the calls). Edges
 * and stages equal one thread's, with and without the fused pre-blur; low thresholds make
 * long chains across the segments' borders. */
static void test_uneven_stripes(void)
{
    enum { W = 320, H = 1200 };
    uint8_t *img = malloc(W * H);
    for (int i = 0; i < W * H; i++)
        img[i] = i < W * H / 2 ? 90 : (uint8_t)(next_random() % 256);
    edgel_image src = edgel_image_host(img, W, H, EDGEL_U8, 1);
    uint8_t *edges[2];
    int32_t *mag[2];
    uint8_t *sup[2];
    for (int blur = 0; blur < 2; blur++) {
        edgel_canny_params p;
        edgel_canny_params_default(&p);
        p.low_threshold = blur ? 20 : 30;
        p.high_threshold = blur ? 150 : 400;
        p.blur = blur ? EDGEL_BLUR_GAUSSIAN : EDGEL_BLUR_NONE;
        p.blur_sigma = 1.4;
        for (int t = 0; t < 2; t++) {
            edges[t] = malloc(W * H), mag[t] = malloc(sizeof(int32_t) * W * H), sup[t] = malloc(W * H);
            edgel_image e = edgel_image_host(edges[t], W, H, EDGEL_U8, 1);
            edgel_image m = edgel_image_host(mag[t], W, H, EDGEL_S32, 1);
            edgel_image su = edgel_image_host(sup[t], W, H, EDGEL_U8, 1);
            edgel_canny_stages st = {0};
            st.magnitude = &m;
            st.suppressed = &su;
            edgel_context_options o;
            edgel_context_options_default(&o);
            o.threads = t ? 8 : 1;
            edgel_context *ctx;
            CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx) == EDGEL_OK);
            for (int call = 0; call < (t ? 20 : 1); call++) { /* splits vary between calls */
                CHECK(edgel_canny(ctx, &p, &src, &e, t && call % 2 ? NULL : &st) == EDGEL_OK);
                if (t)
                    CHECK(memcmp(edges[0], edges[1], W * H) == 0);
            }
            edgel_context_destroy(ctx);
        }
        CHECK(memcmp(mag[0], mag[1], sizeof(int32_t) * W * H) == 0);
        CHECK(memcmp(sup[0], sup[1], W * H) == 0);
        int strong = 0;
        for (int i = W * H / 2; i < W * H; i++)
            strong += edges[0][i] != 0;
        CHECK(strong > W * H / 20); /* the noise has edges to join */
        for (int t = 0; t < 2; t++)
            free(edges[t]), free(mag[t]), free(sup[t]);
    }
    free(img);
}

/* Any thread count, pitched views and in-place give the same bytes; stages agree. */
static void test_invariance(void)
{
    static const int sizes[][2] = {{1, 1}, {1, 40}, {40, 1}, {2, 3}, {37, 29}, {300, 201},
                                   {64, 513}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const int w = sizes[s][0], h = sizes[s][1];
        for (int cn = 1; cn <= 4; cn += (cn == 1 ? 2 : 1)) {
            uint8_t *img = malloc((size_t)w * h * cn), *ref = malloc((size_t)w * h);
            uint8_t *out = malloc((size_t)w * h), *pitched = malloc((size_t)(w + 13) * h);
            fill_image(img, w, h, cn);
            edgel_image src = edgel_image_host(img, w, h, EDGEL_U8, cn);
            edgel_canny_params p;
            edgel_canny_params_default(&p);
            p.low_threshold = 20;
            p.high_threshold = 60;
            p.aperture = (int)(s % 3) * 2 + 3;
            p.l2_gradient = (int)(s & 1);
            p.blur = s % 2 ? EDGEL_BLUR_GAUSSIAN : EDGEL_BLUR_5X5_159;
            p.blur_sigma = 1.1;
            for (int threads = 1; threads <= 9; threads += 4) {
                edgel_context_options o;
                edgel_context_options_default(&o);
                o.threads = threads;
                edgel_context *ctx;
                CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx) == EDGEL_OK);
                edgel_image dst = edgel_image_host(threads == 1 ? ref : out, w, h, EDGEL_U8, 1);
                CHECK(edgel_canny(ctx, &p, &src, &dst, NULL) == EDGEL_OK);
                if (threads > 1)
                    CHECK(memcmp(ref, out, (size_t)w * h) == 0);
                edgel_image pv = {pitched, w, h, (size_t)w + 13, EDGEL_U8, 1, EDGEL_MEMORY_HOST};
                CHECK(edgel_canny(ctx, &p, &src, &pv, NULL) == EDGEL_OK);
                int same = 1;
                for (int y = 0; y < h; y++)
                    same &= memcmp(pitched + (size_t)y * (w + 13), ref + (size_t)y * w, w) == 0;
                CHECK(same);
                edgel_context_destroy(ctx);
            }
            free(img);
            free(ref);
            free(out);
            free(pitched);
        }
    }
}

static void test_stages(edgel_context *ctx)
{
    enum { W = 61, H = 47 };
    static uint8_t img[W * H], edges[W * H], sup[W * H], inplace[W * H];
    static int16_t dx[W * H], dy[W * H];
    static int32_t mag[W * H];
    fill_image(img, W, H, 1);
    edgel_image src = edgel_image_host(img, W, H, EDGEL_U8, 1);
    edgel_image e = edgel_image_host(edges, W, H, EDGEL_U8, 1);
    edgel_image s = edgel_image_host(sup, W, H, EDGEL_U8, 1);
    edgel_image vx = edgel_image_host(dx, W, H, EDGEL_S16, 1);
    edgel_image vy = edgel_image_host(dy, W, H, EDGEL_S16, 1);
    edgel_image vm = edgel_image_host(mag, W, H, EDGEL_S32, 1);
    edgel_canny_stages st = {NULL, NULL, &vx, &vy, &vm, &s};
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.low_threshold = 30;
    p.high_threshold = 90;
    CHECK(edgel_canny(ctx, &p, &src, &e, &st) == EDGEL_OK);
    int mag_ok = 1, sup_ok = 1, edge_ok = 1, any = 0;
    for (int i = 0; i < W * H; i++) {
        mag_ok &= mag[i] == abs(dx[i]) + abs(dy[i]);
        sup_ok &= sup[i] == 0 || mag[i] > 30;         /* candidates are above low */
        sup_ok &= sup[i] != 255 || mag[i] > 90;       /* strong ones above high */
        edge_ok &= sup[i] != 255 || edges[i] == 255;  /* strong pixels are edges */
        edge_ok &= edges[i] == 0 || sup[i] != 0;      /* edges were kept by NMS */
        any |= edges[i] != 0;
    }
    CHECK(mag_ok && sup_ok && edge_ok && any);
    /* The gradient form on the same dx, dy gives the same edges. */
    static uint8_t e2[W * H];
    edgel_image ev = edgel_image_host(e2, W, H, EDGEL_U8, 1);
    CHECK(edgel_canny_gradients(ctx, &p, &vx, &vy, &ev, NULL) == EDGEL_OK);
    CHECK(memcmp(edges, e2, sizeof e2) == 0);
    /* In place on a 1-channel image (allowed, as in OpenCV). */
    memcpy(inplace, img, sizeof img);
    edgel_image ip = edgel_image_host(inplace, W, H, EDGEL_U8, 1);
    CHECK(edgel_canny(ctx, &p, &ip, &ip, NULL) == EDGEL_OK);
    CHECK(memcmp(inplace, edges, sizeof edges) == 0);
}

/* Stage views that share memory are refused (before: gray == smoothed gave a wrong smoothed
 * stage); the parameter checks give the call's own status before any work. */
static void test_aliased_stages_and_param_checks(edgel_context *ctx)
{
    enum { W = 32, H = 24 };
    static uint8_t rgb[W * H * 3], edges[W * H], both[W * H];
    static int16_t grad[W * H];
    fill_image(rgb, W, H, 3);
    edgel_image src = edgel_image_host(rgb, W, H, EDGEL_U8, 3);
    edgel_image e = edgel_image_host(edges, W, H, EDGEL_U8, 1);
    edgel_image shared = edgel_image_host(both, W, H, EDGEL_U8, 1);
    edgel_image g = edgel_image_host(grad, W, H, EDGEL_S16, 1);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.gray = EDGEL_GRAY_RGB;
    p.blur = EDGEL_BLUR_GAUSSIAN;
    p.blur_sigma = 1.0;
    edgel_canny_stages st = {&shared, &shared, NULL, NULL, NULL, NULL};
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &e, &st), EDGEL_ERROR_INVALID_ARGUMENT,
                 "gray and smoothed stages overlap");
    edgel_canny_stages st2 = {NULL, NULL, &g, &g, NULL, NULL};
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &e, &st2), EDGEL_ERROR_INVALID_ARGUMENT,
                 "dx and dy stages overlap");

    CHECK(edgel_canny_params_check(&p) == EDGEL_OK);
    p.low_threshold = 1e10;
    CHECK_STATUS(edgel_canny_params_check(&p), EDGEL_ERROR_INVALID_ARGUMENT, "low threshold");
    p.low_threshold = 50;
    p.blur_sigma = 21.4; /* a kernel of 129 + 2 */
    CHECK_STATUS(edgel_canny_params_check(&p), EDGEL_ERROR_INVALID_ARGUMENT, "");
    CHECK_STATUS(edgel_canny_params_check(NULL), EDGEL_ERROR_NULL_ARGUMENT, "params");
    edgel_filter_params f;
    edgel_filter_params_default(&f);
    CHECK(edgel_filter_params_check(&f) == EDGEL_OK);
    f.border_value = 1e300;
    CHECK_STATUS(edgel_filter_params_check(&f), EDGEL_ERROR_INVALID_ARGUMENT, "border value");
}

/* Automatic thresholds: a two-level image's Otsu split and median, and the refusals. */
static void test_auto_thresholds(edgel_context *ctx)
{
    enum { W = 40, H = 30 };
    static uint8_t px[W * H];
    for (int i = 0; i < W * H; i++)
        px[i] = i % W < 10 ? 20 : 200; /* a quarter dark: median 200 */
    const edgel_image img = edgel_image_host(px, W, H, EDGEL_U8, 1);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    double low = -1, high = -1;
    CHECK(edgel_canny_auto_thresholds(ctx, &p, &img, EDGEL_AUTO_OTSU, &low, &high) == EDGEL_OK);
    CHECK(high == 20 && low == 10); /* Otsu: the last value of the lower class */
    CHECK(edgel_canny_auto_thresholds(ctx, &p, &img, EDGEL_AUTO_MEDIAN, &low, &high) == EDGEL_OK);
    CHECK(low == (int)((1.0 - 0.33) * 200) && high == 255);
    p.low_threshold = 0.5, p.high_threshold = 1.0;
    CHECK(edgel_canny_auto_thresholds(ctx, &p, &img, EDGEL_AUTO_QUANTILES, &low, &high) ==
          EDGEL_OK);
    CHECK(low == 0 && high > 0); /* the flat half has no gradient; the step has */
    p.high_threshold = 1.5;
    CHECK_STATUS(edgel_canny_auto_thresholds(ctx, &p, &img, EDGEL_AUTO_QUANTILES, &low, &high),
                 EDGEL_ERROR_INVALID_ARGUMENT, "[0, 1]");
    edgel_canny_params_default(&p);
    CHECK_STATUS(edgel_canny_auto_thresholds(ctx, &p, &img, (edgel_auto_rule)9, &low, &high),
                 EDGEL_ERROR_INVALID_ARGUMENT, "rule");
    CHECK_STATUS(edgel_canny_auto_thresholds(ctx, &p, &img, EDGEL_AUTO_OTSU, NULL, &high),
                 EDGEL_ERROR_NULL_ARGUMENT, "NULL");
    p.preset = EDGEL_PRESET_ITK;
    CHECK_STATUS(edgel_canny_auto_thresholds(ctx, &p, &img, EDGEL_AUTO_OTSU, &low, &high),
                 EDGEL_ERROR_UNSUPPORTED, "opencv preset");
}

/* The skimage preset: a step's edges in every output form, batches as single calls, and every
 * refusal with its status and message. */
static void test_skimage(edgel_context *ctx)
{
    enum { SW = 24, SH = 20 };
    static double img[SH][SW];
    static uint8_t e8[SH][SW], eb[SH][SW], m[SH][SW], e2[SH][SW];
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++)
            img[y][x] = x < SW / 2 ? 0.2 : 0.8, m[y][x] = 1;
    edgel_image src = edgel_image_host(img, SW, SH, EDGEL_F64, 1);
    edgel_image edges = edgel_image_host(e8, SW, SH, EDGEL_U8, 1);
    edgel_image bools = edgel_image_host(eb, SW, SH, EDGEL_BOOL, 1);
    edgel_image mask = edgel_image_host(m, SW, SH, EDGEL_BOOL, 1);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.preset = EDGEL_PRESET_SKIMAGE;
    p.low_threshold = p.high_threshold = NAN; /* skimage's None */
    CHECK(edgel_canny(ctx, &p, &src, &edges, NULL) == EDGEL_OK);
    CHECK(edgel_canny_masked(ctx, &p, &src, &mask, &bools, NULL) == EDGEL_OK);
    int on_step = 0, elsewhere = 0;
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++) {
            CHECK(e8[y][x] == (eb[y][x] ? 255 : 0));
            const int edge = y > 0 && y < SH - 1 && (x == SW / 2 - 1 || x == SW / 2);
            on_step += edge && eb[y][x];
            elsewhere += !edge && eb[y][x];
        }
    CHECK(on_step >= SH - 2 && elsewhere == 0);
    edgel_image srcs[2] = {src, src}, outs[2] = {edgel_image_host(e2, SW, SH, EDGEL_BOOL, 1),
                                                 bools};
    memset(eb, 7, sizeof eb);
    CHECK(edgel_canny_batch(ctx, &p, srcs, outs, 2) == EDGEL_OK);
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++)
            CHECK(eb[y][x] == (e8[y][x] ? 1 : 0) && e2[y][x] == eb[y][x]);

    edgel_canny_params q = p;
    q.sigma = -1;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &edges, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "sigma");
    q.sigma = NAN;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &edges, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "sigma");
    q = p, q.mode = (edgel_border)9;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &edges, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "mode");
    q = p, q.cval = INFINITY;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &edges, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "cval");
    q = p, q.use_quantiles = 1, q.low_threshold = 1.5;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &edges, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "between 0 and 1");
    q = p, q.low_threshold = 0.5, q.high_threshold = 0.2;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &edges, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "below the low threshold");
    const double skew[5] = {0.1, 0.2, 0.4, 0.2, 0.2};
    q = p, q.sigma = 0.3, q.gaussian_weights = skew + 1; /* radius 1: 0.2 0.4 0.2 */
    CHECK(edgel_canny(ctx, &q, &src, &edges, NULL) == EDGEL_OK);
    q.sigma = 0.5, q.gaussian_weights = skew; /* radius 2: 0.1 ... 0.2 */
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &edges, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "symmetric");
    edgel_image bad = src;
    bad.channels = 3;
    bad.pitch = SW * 24;
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &edges, NULL), EDGEL_ERROR_UNSUPPORTED, "reads 1");
    bad = edges;
    bad.type = EDGEL_F32;
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &bad, NULL), EDGEL_ERROR_UNSUPPORTED, "expected u8");
    bad = mask;
    bad.width = SW - 1;
    CHECK_STATUS(edgel_canny_masked(ctx, &p, &src, &bad, &edges, NULL), EDGEL_ERROR_INVALID_SIZE,
                 "mask");
    CHECK_STATUS(edgel_canny_masked(ctx, &p, &src, &edges, &edges, NULL),
                 EDGEL_ERROR_INVALID_ARGUMENT, "overlaps");
    static float f[SH][SW];
    edgel_image fs = edgel_image_host(f, SW, SH, EDGEL_F32, 1);
    edgel_canny_stages st = {0};
    st.smoothed = &fs; /* float64 input: float64 stages */
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &edges, &st), EDGEL_ERROR_UNSUPPORTED, "expected f64");
    st.smoothed = NULL, st.gray = &edges;
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &bools, &st), EDGEL_ERROR_INVALID_ARGUMENT, "gray");
    edgel_canny_params o;
    edgel_canny_params_default(&o);
    CHECK_STATUS(edgel_canny_masked(ctx, &o, &src, &mask, &edges, NULL), EDGEL_ERROR_UNSUPPORTED,
                 "mask is the skimage preset's");
    int32_t halo;
    CHECK_STATUS(edgel_canny_tile_halo(&p, &halo), EDGEL_ERROR_UNSUPPORTED, "whole images");
    edgel_image dx = edgel_image_host(img, SW, SH, EDGEL_S16, 1);
    CHECK_STATUS(edgel_canny_gradients(ctx, &p, &dx, &dx, &edges, NULL), EDGEL_ERROR_UNSUPPORTED,
                 "opencv preset only");
}

/* Frames of a batch that share written bytes are refused, naming two of them, exactly where
 * a pairwise check finds them (a frame's own source and edges apart); 200,000 frames take
 * no longer to check than to run. */
static int overlap(const edgel_image *a, const edgel_image *b)
{
    const uint8_t *a0 = a->data, *b0 = b->data;
    return a0 < b0 + (size_t)b->pitch * (size_t)(b->height - 1) + (size_t)b->width &&
           b0 < a0 + (size_t)a->pitch * (size_t)(a->height - 1) + (size_t)a->width;
}

static void test_batch_overlap(edgel_context *ctx)
{
    enum { ARENA = 400, MAX_FRAMES = 12 };
    static uint8_t arena[ARENA + 64];
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    edgel_image srcs[MAX_FRAMES], outs[MAX_FRAMES];
    int refused = 0, agreed = 0, cases = 3000;
    for (int c = 0; c < cases; c++) {
        const int n = 2 + (int)(next_random() % (MAX_FRAMES - 1));
        for (int i = 0; i < n; i++)
            do {
                const int w = 1 + (int)(next_random() % 4), h = 1 + (int)(next_random() % 3);
                const int pitch = w + (int)(next_random() % 3);
                srcs[i] = edgel_image_host(arena + next_random() % ARENA, w, h, EDGEL_U8, 1);
                outs[i] = edgel_image_host(arena + next_random() % ARENA, w, h, EDGEL_U8, 1);
                srcs[i].pitch = outs[i].pitch = (size_t)pitch;
            } while (overlap(&srcs[i], &outs[i]));
        int expect = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                expect |= i != j && (overlap(&outs[i], &outs[j]) || overlap(&outs[i], &srcs[j]));
        const edgel_status st = edgel_canny_batch(ctx, &p, srcs, outs, n);
        int named = 0, a = -1, b = -1;
        if (st == EDGEL_ERROR_INVALID_ARGUMENT &&
            sscanf(edgel_last_error(), "frames %d and %d overlap", &a, &b) == 2)
            named = a >= 0 && a < b && b < n &&
                    (overlap(&outs[a], &outs[b]) || overlap(&outs[a], &srcs[b]) ||
                     overlap(&outs[b], &srcs[a]));
        agreed += expect ? named : st == EDGEL_OK;
        refused += expect;
    }
    CHECK(agreed == cases && refused > cases / 10 && refused < cases - cases / 10);

    enum { MANY = 200000 };
    uint8_t *px = malloc(2 * MANY);
    edgel_image *s = malloc(sizeof *s * MANY), *o = malloc(sizeof *o * MANY);
    for (int i = 0; i < MANY; i++) {
        px[i] = (uint8_t)i;
        s[i] = edgel_image_host(px + i, 1, 1, EDGEL_U8, 1);
        o[i] = edgel_image_host(px + MANY + i, 1, 1, EDGEL_U8, 1);
    }
    CHECK(edgel_canny_batch(ctx, &p, s, o, MANY) == EDGEL_OK);
    o[MANY - 1] = s[7]; /* the last frame writes the eighth one's source */
    CHECK_STATUS(edgel_canny_batch(ctx, &p, s, o, MANY), EDGEL_ERROR_INVALID_ARGUMENT,
                 "frames 7 and 199999 overlap");
    free(px), free(s), free(o);
}

int main(void)
{
    test_status_and_version();
    test_contexts();
    edgel_context *ctx;
    if (edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) != EDGEL_OK)
        return 1;
    test_bad_canny_input(ctx);
    test_bad_other_input(ctx);
    test_step_edge(ctx);
    test_stages(ctx);
    test_aliased_stages_and_param_checks(ctx);
    test_auto_thresholds(ctx);
    test_skimage(ctx);
    test_batch_overlap(ctx);
    edgel_context_destroy(ctx);
    test_invariance();
    test_uneven_stripes();
    return check_summary("test_api");
}
