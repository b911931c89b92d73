/* The itk preset through the C API: argument checks, and behaviour that does not need ITK
 * (the bit-for-bit comparison with ITK is tests/python/test_itk_conformance.py). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "edgel.h"
#include "test_random.h"

static edgel_canny_params itk_params(double variance, double upper, double lower)
{
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.preset = EDGEL_PRESET_ITK;
    p.variance = variance;
    p.high_threshold = upper;
    p.low_threshold = lower;
    return p;
}

static void test_bad_input(edgel_context *ctx)
{
    float in[64] = {0};
    float out[64];
    uint8_t out8[64];
    int16_t s16[64] = {0};
    edgel_image src = edgel_image_host(in, 8, 8, EDGEL_F32, 1);
    edgel_image dst = edgel_image_host(out, 8, 8, EDGEL_F32, 1);
    edgel_canny_params p = itk_params(1.0, 10, 5), q;

    CHECK(edgel_canny(ctx, &p, &src, &dst, NULL) == EDGEL_OK);
    q = p;
    q.variance = -1;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "variance");
    q.variance = NAN;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "variance");
    q.variance = 701;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "overflows");
    q = p;
    q.maximum_error = 0;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "maximum error");
    q.maximum_error = 1;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "maximum error");
    q = p;
    q.high_threshold = NAN;
    CHECK_STATUS(edgel_canny(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT, "NaN");

    edgel_image bad = edgel_image_host(s16, 8, 8, EDGEL_S16, 1);
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_UNSUPPORTED, "pixel type");
    bad = edgel_image_host(in, 4, 4, EDGEL_F32, 3);
    edgel_image small = edgel_image_host(out, 4, 4, EDGEL_F32, 1);
    CHECK_STATUS(edgel_canny(ctx, &p, &bad, &small, NULL), EDGEL_ERROR_UNSUPPORTED, "channels");
    bad = edgel_image_host(s16, 8, 8, EDGEL_S16, 1);
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &bad, NULL), EDGEL_ERROR_UNSUPPORTED, "edges");
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &small, NULL), EDGEL_ERROR_INVALID_SIZE, "edges");
    CHECK_STATUS(edgel_canny(ctx, &p, &src, NULL, NULL), EDGEL_ERROR_NULL_ARGUMENT, "edges");

    edgel_image u8 = edgel_image_host(out8, 8, 8, EDGEL_U8, 1);
    edgel_canny_stages st = {0};
    st.dx = &bad;
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &dst, &st), EDGEL_ERROR_INVALID_ARGUMENT,
                 "smoothed and suppressed");
    memset(&st, 0, sizeof st);
    st.suppressed = &u8;
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &dst, &st), EDGEL_ERROR_UNSUPPORTED, "suppressed");
    st.suppressed = &dst;
    CHECK_STATUS(edgel_canny(ctx, &p, &src, &dst, &st), EDGEL_ERROR_INVALID_ARGUMENT, "overlaps");

    CHECK_STATUS(edgel_canny_gradients(ctx, &p, &bad, &bad, &u8, NULL), EDGEL_ERROR_UNSUPPORTED,
                 "opencv preset only");
    edgel_image srcs[2] = {src, edgel_image_host(in, 8, 8, EDGEL_F32, 1)};
    uint8_t in8[64] = {0};
    srcs[1] = edgel_image_host(in8, 8, 8, EDGEL_U8, 1);
    float out2[64];
    edgel_image dsts[2] = {dst, edgel_image_host(out2, 8, 8, EDGEL_F32, 1)};
    CHECK_STATUS(edgel_canny_batch(ctx, &p, srcs, dsts, 2), EDGEL_ERROR_INVALID_SIZE, "type");
}

/* A vertical step from 0 to 100 between columns 19 and 20: with any smoothing, one edge
 * pixel per row, in column 19 or 20, and nothing else. */
static void test_step(edgel_context *ctx)
{
    enum { W = 40, H = 30 };
    static float in[W * H], out[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            in[y * W + x] = x < 20 ? 0.0f : 100.0f;
    edgel_image src = edgel_image_host(in, W, H, EDGEL_F32, 1);
    edgel_image dst = edgel_image_host(out, W, H, EDGEL_F32, 1);
    const double variances[] = {0.0, 1.0, 4.0, 30.0};
    for (int v = 0; v < 4; v++) {
        edgel_canny_params p = itk_params(variances[v], 1.0, 0.5);
        CHECK(edgel_canny(ctx, &p, &src, &dst, NULL) == EDGEL_OK);
        int rows_ok = 0, others = 0;
        for (int y = 0; y < H; y++) {
            const float *r = out + y * W;
            rows_ok += r[19] + r[20] == 1.0f;
            for (int x = 0; x < W; x++)
                others += (x != 19 && x != 20 && r[x] != 0.0f);
        }
        CHECK(rows_ok == H);
        CHECK(others == 0);
    }
}

/* u8, u16 and f32 input of the same values, u8 and f32 output, 1 and 4 threads, and an
 * in-place f32 call all give one edge map. */
static void test_consistency(void)
{
    enum { W = 97, H = 61, N = W * H };
    static uint8_t in8[N], e8[N];
    static uint16_t in16[N];
    static float in32[N], e32[N], ref[N], inplace[N];
    for (int i = 0; i < N; i++) {
        in8[i] = (uint8_t)(next_random() >> 24);
        in16[i] = in8[i];
        in32[i] = in8[i];
        inplace[i] = in8[i];
    }
    edgel_canny_params p = itk_params(2.0, 12.0, 4.0);
    edgel_context_options o;
    edgel_context_options_default(&o);
    o.threads = 1;
    edgel_context *one = NULL, *four = NULL;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &one) == EDGEL_OK);
    o.threads = 4;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &four) == EDGEL_OK);
    if (!one || !four)
        return;
    edgel_image s32 = edgel_image_host(in32, W, H, EDGEL_F32, 1);
    edgel_image r = edgel_image_host(ref, W, H, EDGEL_F32, 1);
    CHECK(edgel_canny(one, &p, &s32, &r, NULL) == EDGEL_OK);
    int edges = 0;
    for (int i = 0; i < N; i++)
        edges += ref[i] == 1.0f;
    CHECK(edges > 100 && edges < N / 2);

    edgel_image s8 = edgel_image_host(in8, W, H, EDGEL_U8, 1);
    edgel_image s16 = edgel_image_host(in16, W, H, EDGEL_U16, 1);
    edgel_image o8 = edgel_image_host(e8, W, H, EDGEL_U8, 1);
    edgel_image o32 = edgel_image_host(e32, W, H, EDGEL_F32, 1);
    const edgel_image *inputs[] = {&s8, &s16, &s32};
    for (int k = 0; k < 3; k++) {
        CHECK(edgel_canny(four, &p, inputs[k], &o8, NULL) == EDGEL_OK);
        CHECK(edgel_canny(four, &p, inputs[k], &o32, NULL) == EDGEL_OK);
        int same = 1;
        for (int i = 0; i < N; i++)
            same &= e32[i] == ref[i] && e8[i] == (ref[i] == 1.0f ? 255 : 0);
        CHECK(same);
    }
    edgel_image ip = edgel_image_host(inplace, W, H, EDGEL_F32, 1);
    CHECK(edgel_canny(four, &p, &ip, &ip, NULL) == EDGEL_OK);
    CHECK(memcmp(inplace, ref, sizeof ref) == 0);
    edgel_context_destroy(one);
    edgel_context_destroy(four);
}

int main(void)
{
    edgel_context *ctx = NULL;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) == EDGEL_OK);
    if (ctx) {
        test_bad_input(ctx);
        test_step(ctx);
    }
    test_consistency();
    edgel_context_destroy(ctx);
    return check_summary("test_itk");
}
