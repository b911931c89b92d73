/* Sub-pixel curves in bands of columns (edgel_subpixel_stream_*): equal to the whole image's
 * curves, array for array, for random images, parameters, band widths and thread counts;
 * and every refusal. */
#include "check.h"
#include "edgel.h"
#include "test_random.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_W = 260, MAX_H = 90 };

static double pixels[MAX_W * MAX_H];
static uint8_t u8[MAX_W * MAX_H];
static uint16_t u16[MAX_W * MAX_H];
static float f32[MAX_W * MAX_H];

/* An image of one of several kinds into `pixels`: noise, few grey levels (exact ties), disks
 * and rings (closed curves), lines across the whole width (chains through every band). */
static void make_image(int kind, int w, int h)
{
    const double cx = next_random() % 1000 / 1000.0 * w, cy = next_random() % 1000 / 1000.0 * h;
    const double r = 3 + next_random() % 40;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double v;
            switch (kind) {
            case 0: v = next_random() % 256; break;
            case 1: v = 60 * (next_random() % 4); break;
            case 2: v = (hypot(x - cx, y - cy) < r ? 200 : 40) + next_random() % 9; break;
            case 3: v = (fabs(hypot(x - cx, y - cy) - r) < 2 ? 220 : 30) + next_random() % 5;
                break;
            default: v = (y % 11 < 5 ? 180 : 60) + (x * 7 + y * 3) % 13 + next_random() % 3;
                break;
            }
            pixels[y * w + x] = v;
        }
    for (int i = 0; i < w * h; i++)
        u8[i] = (uint8_t)pixels[i], u16[i] = (uint16_t)(pixels[i] * 200),
        f32[i] = (float)(pixels[i] * 0.37);
}

static int same(const edgel_curves_view *a, const edgel_curves_view *b)
{
    if (a->points != b->points || a->curves != b->curves)
        return 0;
    const size_t d = sizeof(double) * (size_t)a->points;
    return !memcmp(a->x, b->x, d) && !memcmp(a->y, b->y, d) && !memcmp(a->gx, b->gx, d) &&
           !memcmp(a->gy, b->gy, d) && !memcmp(a->modulus, b->modulus, d) &&
           !memcmp(a->limits, b->limits, sizeof(int64_t) * (size_t)(a->curves + 1)) &&
           !memcmp(a->closed, b->closed, (size_t)a->curves);
}

/* The stream's curves of `src` with bands of about `band` columns (each piece starting up
 * to `extra` columns further left than it must), into c. */
static edgel_status by_bands(edgel_context *ctx, const edgel_subpixel_params *p,
                             const edgel_image *src, int band, int extra, edgel_curves *c)
{
    edgel_subpixel_stream *s = NULL;
    edgel_status st = edgel_subpixel_stream_create(p, src->width, src->height, &s);
    const int halo = edgel_subpixel_halo(p->sigma);
    const size_t item = edgel_pixel_size(src->type);
    while (st == EDGEL_OK && edgel_subpixel_stream_columns(s) < src->width) {
        const int64_t added = edgel_subpixel_stream_columns(s);
        const int64_t want = added + 1 + (int64_t)(next_random() % (unsigned)band);
        int64_t x0 = added - halo - (extra ? next_random() % (unsigned)(extra + 1) : 0);
        int64_t x1 = want + halo;
        x0 = x0 < 0 ? 0 : x0, x1 = x1 > src->width ? src->width : x1;
        edgel_image piece = *src;
        piece.data = (uint8_t *)src->data + (size_t)x0 * item;
        piece.width = (int32_t)(x1 - x0);
        st = edgel_subpixel_stream_add(ctx, s, &piece, x0);
    }
    if (st == EDGEL_OK)
        st = edgel_subpixel_stream_finish(ctx, s, c);
    edgel_subpixel_stream_destroy(s);
    return st;
}

static void test_equal_to_whole(void)
{
    edgel_context *one = NULL, *ctx[4] = {NULL};
    edgel_context_options o;
    edgel_context_options_default(&o);
    o.threads = 1;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &one) == EDGEL_OK);
    for (int t = 0; t < 4; t++) {
        o.threads = t + 1;
        CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx[t]) == EDGEL_OK);
    }
    edgel_curves *whole = NULL, *bands = NULL;
    CHECK(edgel_curves_create(&whole) == EDGEL_OK && edgel_curves_create(&bands) == EDGEL_OK);
    static const double sigmas[] = {0.0, 0.6, 1.0, 2.0};
    int cases = 0, equal = 0, curves = 0, closed = 0;
    for (int n = 0; n < 400; n++) {
        const int kind = n % 5;
        const int w = 1 + (int)(next_random() % (n < 40 ? 12 : MAX_W));
        const int h = 1 + (int)(next_random() % (n < 40 ? 12 : MAX_H));
        make_image(kind, w, h);
        edgel_subpixel_params p;
        edgel_subpixel_params_default(&p);
        p.sigma = sigmas[next_random() % 4];
        p.high = n % 3 ? 15.0 : 0.0, p.low = n % 3 ? 5.0 : 0.0;
        const int type = (int)(next_random() % 4);
        void *data = type == 0 ? (void *)u8 : type == 1 ? (void *)u16
                   : type == 2 ? (void *)f32 : (void *)pixels;
        const edgel_pixel_type types[] = {EDGEL_U8, EDGEL_U16, EDGEL_F32, EDGEL_F64};
        const edgel_image src = edgel_image_host(data, w, h, types[type], 1);
        edgel_curves_view a, b;
        edgel_curves_view_default(&a), edgel_curves_view_default(&b);
        const int band = 1 + (int)(next_random() % (n % 4 == 0 ? 4 : n % 4 == 1 ? MAX_W : 90));
        const int extra = n % 3 == 0 ? (int)(next_random() % 7) : 0;
        edgel_context *c = ctx[n % 4];
        const int ok = edgel_subpixel_edges(one, &p, &src, whole) == EDGEL_OK &&
                       by_bands(c, &p, &src, band, extra, bands) == EDGEL_OK &&
                       edgel_curves_get(whole, &a) == EDGEL_OK &&
                       edgel_curves_get(bands, &b) == EDGEL_OK;
        const int eq = ok && same(&a, &b);
        if (!eq)
            fprintf(stderr, "case %d: %dx%d kind %d type %d sigma %g band %d extra %d threads "
                    "%d: %lld/%lld curves, %lld/%lld points\n", n, w, h, kind, type, p.sigma,
                    band, extra, n % 4 + 1, (long long)a.curves, (long long)b.curves,
                    (long long)a.points, (long long)b.points);
        cases++, equal += eq;
        curves += (int)a.curves;
        for (int64_t k = 0; k < a.curves; k++)
            closed += a.closed[k];
    }
    printf("stream = whole: %d of %d images (%d curves, %d closed)\n", equal, cases, curves,
           closed);
    CHECK(equal == cases);
    CHECK(curves > 1000 && closed > 20); /* (the cases do cover curves and closures) */
    edgel_curves_destroy(whole), edgel_curves_destroy(bands);
    edgel_context_destroy(one);
    for (int t = 0; t < 4; t++)
        edgel_context_destroy(ctx[t]);
}

static void test_refusals(void)
{
    edgel_context *ctx = NULL;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) == EDGEL_OK);
    edgel_curves *c = NULL;
    CHECK(edgel_curves_create(&c) == EDGEL_OK);
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    p.sigma = 1.0; /* a halo of 8 */
    edgel_subpixel_stream *s = NULL;
    CHECK_STATUS(edgel_subpixel_stream_create(&p, 0, 10, &s), EDGEL_ERROR_INVALID_ARGUMENT,
                 "a side");
    CHECK_STATUS(edgel_subpixel_stream_create(&p, 10, EDGEL_MAX_TILED_DIMENSION + 1LL, &s),
                 EDGEL_ERROR_INVALID_ARGUMENT, "a side");
    CHECK_STATUS(edgel_subpixel_stream_create(&p, 10, 10, NULL), EDGEL_ERROR_NULL_ARGUMENT,
                 "stream");
    CHECK_STATUS(edgel_subpixel_stream_create(NULL, 10, 10, &s), EDGEL_ERROR_NULL_ARGUMENT,
                 "params");
    edgel_subpixel_params bad = p;
    bad.sigma = -1.0;
    CHECK_STATUS(edgel_subpixel_stream_create(&bad, 10, 10, &s), EDGEL_ERROR_INVALID_ARGUMENT,
                 "sigma");
    CHECK(s == NULL);
    make_image(2, 100, 40);
    CHECK(edgel_subpixel_stream_create(&p, 100, 40, &s) == EDGEL_OK && s);
    edgel_image piece = edgel_image_host(u8, 30, 40, EDGEL_U8, 1);
    piece.pitch = 100;
    CHECK_STATUS(edgel_subpixel_stream_finish(ctx, s, c), EDGEL_ERROR_INVALID_ARGUMENT,
                 "not in yet");
    edgel_image low = piece;
    low.height = 39;
    CHECK_STATUS(edgel_subpixel_stream_add(ctx, s, &low, 0), EDGEL_ERROR_INVALID_ARGUMENT,
                 "every row");
    CHECK_STATUS(edgel_subpixel_stream_add(ctx, s, &piece, 71), EDGEL_ERROR_INVALID_ARGUMENT,
                 "every row");
    CHECK_STATUS(edgel_subpixel_stream_add(ctx, s, &piece, 1), EDGEL_ERROR_INVALID_ARGUMENT,
                 "first not yet added");
    edgel_image narrow = piece;
    narrow.width = 8; /* only its halo */
    CHECK_STATUS(edgel_subpixel_stream_add(ctx, s, &narrow, 0), EDGEL_ERROR_INVALID_ARGUMENT,
                 "halo of 8");
    edgel_image rgb = edgel_image_host(u8, 10, 40, EDGEL_U8, 3);
    CHECK_STATUS(edgel_subpixel_stream_add(ctx, s, &rgb, 0), EDGEL_ERROR_UNSUPPORTED, "channels");
    CHECK_STATUS(edgel_subpixel_stream_add(ctx, s, NULL, 0), EDGEL_ERROR_NULL_ARGUMENT, "input");
    CHECK_STATUS(edgel_subpixel_stream_add(ctx, NULL, &piece, 0), EDGEL_ERROR_NULL_ARGUMENT,
                 "stream");
    CHECK(edgel_subpixel_stream_add(ctx, s, &piece, 0) == EDGEL_OK);
    CHECK(edgel_subpixel_stream_columns(s) == 22); /* 30 less the halo */
    CHECK_STATUS(edgel_subpixel_stream_add(ctx, s, &piece, 0), EDGEL_ERROR_INVALID_ARGUMENT,
                 "column 22");
    piece.data = u8 + 13; /* columns 13 .. 42 */
    CHECK_STATUS(edgel_subpixel_stream_add(ctx, s, &piece, 15), EDGEL_ERROR_INVALID_ARGUMENT,
                 "first not yet added");
    CHECK(edgel_subpixel_stream_add(ctx, s, &piece, 13) == EDGEL_OK);
    piece.data = u8 + 26, piece.width = 74; /* to the last column */
    CHECK(edgel_subpixel_stream_add(ctx, s, &piece, 26) == EDGEL_OK);
    CHECK(edgel_subpixel_stream_columns(s) == 100);
    CHECK_STATUS(edgel_subpixel_stream_add(ctx, s, &piece, 26), EDGEL_ERROR_INVALID_ARGUMENT,
                 "every column");
    CHECK_STATUS(edgel_subpixel_stream_finish(ctx, s, NULL), EDGEL_ERROR_NULL_ARGUMENT, "curves");
    CHECK_STATUS(edgel_subpixel_stream_finish(NULL, s, c), EDGEL_ERROR_NULL_ARGUMENT, "context");
    CHECK(edgel_subpixel_stream_finish(ctx, s, c) == EDGEL_OK);
    edgel_curves_view v, whole;
    edgel_curves_view_default(&v), edgel_curves_view_default(&whole);
    edgel_curves *w = NULL;
    CHECK(edgel_curves_create(&w) == EDGEL_OK);
    CHECK_STATUS(edgel_subpixel_stream_finish(ctx, s, w), EDGEL_ERROR_INVALID_ARGUMENT,
                 "earlier finish");
    const edgel_image src = edgel_image_host(u8, 100, 40, EDGEL_U8, 1);
    CHECK(edgel_subpixel_edges(ctx, &p, &src, w) == EDGEL_OK);
    CHECK(edgel_curves_get(c, &v) == EDGEL_OK && edgel_curves_get(w, &whole) == EDGEL_OK &&
          v.curves > 0 && same(&v, &whole));
    edgel_subpixel_stream_destroy(s);
    edgel_subpixel_stream_destroy(NULL);
    CHECK(edgel_subpixel_stream_columns(NULL) == 0);
    edgel_curves_destroy(c), edgel_curves_destroy(w);
    edgel_context_destroy(ctx);
}

int main(void)
{
    test_refusals();
    test_equal_to_whole();
    return check_summary("subpixel_stream");
}
