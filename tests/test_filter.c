/* The convolution engine through the C API: argument checks, and every method and border
 * against a naive double-precision correlation on small images (kernels larger than the
 * image included), so that the sanitizer build walks every border path. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "edgel.h"
#include "test_random.h"

static float uniform(void) { return (float)(next_random() % 20001) / 10000.0f - 1.0f; }

/* The index p reads from under a border (-1: constant), written independently of the
 * library: extend by stepping one reflection at a time. */
static int naive_index(int p, int n, edgel_border b)
{
    if (b == EDGEL_BORDER_CONSTANT && (p < 0 || p >= n))
        return -1;
    while (p < 0 || p >= n) {
        if (b == EDGEL_BORDER_REPLICATE || n == 1)
            p = p < 0 ? 0 : n - 1;
        else if (b == EDGEL_BORDER_WRAP)
            p = p < 0 ? p + n : p - n;
        else if (b == EDGEL_BORDER_REFLECT)
            p = p < 0 ? -p - 1 : 2 * n - 1 - p;
        else
            p = p < 0 ? -p : 2 * n - 2 - p;
    }
    return p;
}

static void test_methods_and_borders(edgel_context *ctx)
{
    const int sizes[][4] = {{1, 1, 3, 3}, {5, 3, 7, 9}, {17, 9, 4, 6}, {3, 20, 9, 1}, {30, 25, 5, 5}};
    for (int s = 0; s < 5; s++) {
        const int w = sizes[s][0], h = sizes[s][1], kw = sizes[s][2], kh = sizes[s][3];
        float *in = malloc(sizeof(float) * w * h * 3), *out = malloc(sizeof(float) * w * h * 3);
        float *k = malloc(sizeof(float) * kw * kh), kx[9], ky[9];
        for (int i = 0; i < w * h * 3; i++)
            in[i] = uniform();
        for (int i = 0; i < kw; i++)
            kx[i] = uniform();
        for (int j = 0; j < kh; j++)
            ky[j] = uniform();
        for (int j = 0; j < kh; j++)
            for (int i = 0; i < kw; i++)
                k[j * kw + i] = ky[j] * kx[i]; /* rank 1: every method applies */
        edgel_image src = edgel_image_host(in, w, h, EDGEL_F32, 3);
        edgel_image dst = edgel_image_host(out, w, h, EDGEL_F32, 3);
        edgel_image ker = edgel_image_host(k, kw, kh, EDGEL_F32, 1);
        for (int b = 0; b <= EDGEL_BORDER_WRAP; b++)
            for (int m = EDGEL_CONV_DIRECT; m <= EDGEL_CONV_FFT; m++) {
                edgel_filter_params p;
                edgel_filter_params_default(&p);
                p.border = (edgel_border)b;
                p.border_value = 0.5;
                p.method = (edgel_conv_method)m;
                memset(out, 0xFF, sizeof(float) * w * h * 3); /* NaN poison */
                edgel_status st = s % 2 ? edgel_sep_filter2d(ctx, &p, &src, &dst, kx, kw, ky, kh)
                                        : edgel_filter2d(ctx, &p, &src, &dst, &ker);
                CHECK(st == EDGEL_OK);
                double err = 0, norm = 0;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++)
                        for (int c = 0; c < 3; c++) {
                            double ref = 0;
                            for (int j = 0; j < kh; j++)
                                for (int i = 0; i < kw; i++) {
                                    const int sx = naive_index(x + i - kw / 2, w, p.border);
                                    const int sy = naive_index(y + j - kh / 2, h, p.border);
                                    const double v = sx < 0 || sy < 0 ? 0.5 : in[(sy * w + sx) * 3 + c];
                                    ref += (double)k[j * kw + i] * v;
                                }
                            const double d = out[(y * w + x) * 3 + c] - ref;
                            err += d * d;
                            norm += ref * ref;
                        }
                CHECK(sqrt(err) <= 1e-5 * sqrt(norm) + 1e-12);
            }
        free(in), free(out), free(k);
    }
}

static void test_bad_input(edgel_context *ctx)
{
    float in[64] = {0}, out[64], k[9] = {0, 0, 0, 0, 1, 0, 0, 0, 0}, nan_k[1] = {NAN};
    uint8_t out8[64];
    edgel_image src = edgel_image_host(in, 8, 8, EDGEL_F32, 1);
    edgel_image dst = edgel_image_host(out, 8, 8, EDGEL_F32, 1);
    edgel_image ker = edgel_image_host(k, 3, 3, EDGEL_F32, 1);
    edgel_filter_params p, q;
    edgel_filter_params_default(&p);
    CHECK(edgel_filter2d(ctx, &p, &src, &dst, &ker) == EDGEL_OK);
    CHECK_STATUS(edgel_filter2d(NULL, &p, &src, &dst, &ker), EDGEL_ERROR_NULL_ARGUMENT, "context");
    CHECK_STATUS(edgel_filter2d(ctx, NULL, &src, &dst, &ker), EDGEL_ERROR_NULL_ARGUMENT, "params");
    CHECK_STATUS(edgel_filter2d(ctx, &p, &src, &dst, NULL), EDGEL_ERROR_NULL_ARGUMENT, "kernel");
    CHECK_STATUS(edgel_sep_filter2d(ctx, &p, &src, &dst, NULL, 3, k, 3), EDGEL_ERROR_NULL_ARGUMENT,
                 "kx");
    edgel_image big = ker;
    big.width = 130;
    big.pitch = 130 * 4;
    float *bigk = calloc(130 * 3, sizeof(float));
    big.data = bigk;
    CHECK_STATUS(edgel_filter2d(ctx, &p, &src, &dst, &big), EDGEL_ERROR_INVALID_SIZE, "kernel");
    free(bigk);
    edgel_image nk = edgel_image_host(nan_k, 1, 1, EDGEL_F32, 1);
    CHECK_STATUS(edgel_filter2d(ctx, &p, &src, &dst, &nk), EDGEL_ERROR_INVALID_ARGUMENT, "finite");
    q = p;
    q.border = (edgel_border)7;
    CHECK_STATUS(edgel_filter2d(ctx, &q, &src, &dst, &ker), EDGEL_ERROR_INVALID_ARGUMENT, "border");
    q = p;
    q.method = (edgel_conv_method)9;
    CHECK_STATUS(edgel_filter2d(ctx, &q, &src, &dst, &ker), EDGEL_ERROR_INVALID_ARGUMENT, "method");
    q = p;
    q.anchor_x = 3;
    CHECK_STATUS(edgel_filter2d(ctx, &q, &src, &dst, &ker), EDGEL_ERROR_INVALID_ARGUMENT, "anchor");
    q = p;
    q.border_value = INFINITY;
    CHECK_STATUS(edgel_filter2d(ctx, &q, &src, &dst, &ker), EDGEL_ERROR_INVALID_ARGUMENT, "border value");
    edgel_image d8 = edgel_image_host(out8, 8, 8, EDGEL_U8, 1);
    CHECK_STATUS(edgel_filter2d(ctx, &p, &src, &d8, &ker), EDGEL_ERROR_UNSUPPORTED, "output");
    edgel_image d3 = edgel_image_host(out, 4, 4, EDGEL_F32, 3);
    CHECK_STATUS(edgel_filter2d(ctx, &p, &src, &d3, &ker), EDGEL_ERROR_UNSUPPORTED, "channels");
    edgel_image small = edgel_image_host(out, 4, 4, EDGEL_F32, 1);
    CHECK_STATUS(edgel_filter2d(ctx, &p, &src, &small, &ker), EDGEL_ERROR_INVALID_SIZE, "output");
    CHECK_STATUS(edgel_filter2d(ctx, &p, &src, &src, &ker), EDGEL_ERROR_INVALID_ARGUMENT, "overlaps");
    float eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    edgel_image e = edgel_image_host(eye, 3, 3, EDGEL_F32, 1);
    q = p;
    q.method = EDGEL_CONV_SEPARABLE;
    CHECK_STATUS(edgel_filter2d(ctx, &q, &src, &dst, &e), EDGEL_ERROR_INVALID_ARGUMENT, "rank-1");
    edgel_conv_method m = EDGEL_CONV_AUTO;
    CHECK(edgel_filter2d_method(ctx, &p, &src, &dst, &e, &m) == EDGEL_OK && m == EDGEL_CONV_DIRECT);
}

/* The value (c of pixel x, y) that the border gives, as the library's f32 input sees it. */
static float naive_pixel(const float *in, int w, int h, int cn, int x, int y, int c,
                         edgel_border b, float value)
{
    const int sx = naive_index(x, w, b), sy = naive_index(y, h, b);
    return sx < 0 || sy < 0 ? value : in[((size_t)sy * w + sx) * cn + c];
}

/* CPU contexts of 1 and 3 threads, whose results must agree. */
static void one_and_three_threads(edgel_context *ctx[2])
{
    edgel_context_options o;
    edgel_context_options_default(&o);
    o.threads = 1;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx[0]) == EDGEL_OK);
    o.threads = 3;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx[1]) == EDGEL_OK);
}

/* The direct method's floats are each output's fused multiply-adds over the non-zero taps in
 * raster order (cv2.filter2D's arithmetic; it is what makes u8 results identical), however
 * the rows are blocked and split over threads. Compared bit for bit on sizes around the vector and block
 * widths, with dense kernels (the blocked path) and kernels with zero taps. */
static void test_direct_is_raster_fma(void)
{
    const int sizes[][2] = {{1, 1}, {8, 2}, {31, 3}, {33, 4}, {40, 5}, {70, 13}, {97, 10}};
    const int kernels[][2] = {{7, 7}, {5, 9}, {8, 13}, {3, 3}, {1, 11}};
    edgel_context *ctx[2] = {NULL, NULL};
    one_and_three_threads(ctx);
    for (int s = 0; s < 7; s++)
        for (int q = 0; q < 5; q++)
            for (int cn = 1; cn <= 3; cn += 2) {
                const int w = sizes[s][0], h = sizes[s][1], kw = kernels[q][0], kh = kernels[q][1];
                const int n = w * h * cn, zeros = (s + q) % 3 == 0;
                float *in = malloc(sizeof(float) * n), *out = malloc(sizeof(float) * n);
                float *ref = malloc(sizeof(float) * n), k[13 * 13];
                for (int i = 0; i < n; i++)
                    in[i] = uniform();
                for (int i = 0; i < kw * kh; i++)
                    k[i] = zeros && i % 4 == 1 ? 0.0f : uniform();
                const edgel_border b = (edgel_border)((s + q + cn) % (EDGEL_BORDER_WRAP + 1));
                const float bv = 0.25f;
                edgel_image src = edgel_image_host(in, w, h, EDGEL_F32, cn);
                edgel_image dst = edgel_image_host(out, w, h, EDGEL_F32, cn);
                edgel_image ker = edgel_image_host(k, kw, kh, EDGEL_F32, 1);
                edgel_filter_params p;
                edgel_filter_params_default(&p);
                p.border = b;
                p.border_value = bv;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++)
                        for (int c = 0; c < cn; c++) {
                            float acc = 0.0f;
                            for (int j = 0; j < kh; j++)
                                for (int i = 0; i < kw; i++)
                                    if (k[j * kw + i] != 0.0f)
                                        acc = fmaf(k[j * kw + i],
                                                   naive_pixel(in, w, h, cn, x + i - kw / 2,
                                                               y + j - kh / 2, c, b, bv),
                                                   acc);
                            ref[((size_t)y * w + x) * cn + c] = acc;
                        }
                p.method = EDGEL_CONV_DIRECT;
                for (int t = 0; t < 2; t++) {
                    memset(out, 0xFF, sizeof(float) * n);
                    CHECK(edgel_filter2d(ctx[t], &p, &src, &dst, &ker) == EDGEL_OK);
                    CHECK(memcmp(out, ref, sizeof(float) * n) == 0);
                }
                free(in), free(out), free(ref);
            }
    edgel_context_destroy(ctx[0]);
    edgel_context_destroy(ctx[1]);
}

/* u8 kernels given as factors qx / 256 and qy / 256 run in fixed point (the method auto picks
 * for them): each output is the exact sum rounded half to even, which the float direct
 * method also reaches. Checked against integer sums written here, over every border,
 * anchors, convolution, 1, 3 and 4 channels, kernels larger than the image, and 1 or 3 threads. */
static void test_fixed_point_is_exact(void)
{
    const int sizes[][4] = {{1, 1, 3, 3}, {9, 4, 5, 7}, {40, 13, 4, 3}, {3, 30, 9, 2},
                            {67, 21, 17, 11}, {23, 5, 2, 1}};
    edgel_context *ctx[2] = {NULL, NULL};
    one_and_three_threads(ctx);
    for (int s = 0; s < 6; s++)
        for (int cn = 1; cn <= 4; cn += cn == 1 ? 2 : 1) {
            const int w = sizes[s][0], h = sizes[s][1], kw = sizes[s][2], kh = sizes[s][3];
            const int n = w * h * cn, flip = (s + cn) % 2;
            unsigned char *in = malloc(n), *out = malloc(n), *ref = malloc(n);
            for (int i = 0; i < n; i++)
                in[i] = (unsigned char)(next_random() % 256);
            int qx[17], qy[17], left = 256;
            float kx[17], ky[17];
            for (int i = 0; i < kw; i++) { /* non-negative, summing to at most 256 */
                qx[i] = i % 3 == 1 ? 0 : (int)(next_random() % (unsigned)(left / 2 + 1));
                left -= qx[i];
                kx[i] = (float)qx[i] / 256.0f;
            }
            for (int j = 0, rest = 256; j < kh; j++) {
                qy[j] = j == kh - 1 ? rest : (int)(next_random() % (unsigned)(rest / 2 + 1));
                rest -= qy[j];
                ky[j] = (float)qy[j] / 256.0f;
            }
            if (s == 5) { /* halves: every other output a tie, rounded to even */
                qx[0] = qx[1] = 128, qy[0] = 256;
                kx[0] = kx[1] = 0.5f, ky[0] = 1.0f;
            }
            edgel_filter_params p;
            edgel_filter_params_default(&p);
            p.border = (edgel_border)((s + cn) % (EDGEL_BORDER_WRAP + 1));
            p.border_value = 77;
            p.anchor_x = (s * 5) % kw;
            p.anchor_y = cn % 2 ? -1 : kh - 1;
            p.convolve = flip;
            /* correlation with the (flipped) factors and anchor */
            const int ax = flip ? kw - 1 - p.anchor_x : p.anchor_x;
            const int ay = flip ? kh - 1 - (p.anchor_y < 0 ? kh / 2 : p.anchor_y)
                                : (p.anchor_y < 0 ? kh / 2 : p.anchor_y);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    for (int c = 0; c < cn; c++) {
                        long long sum = 0;
                        for (int j = 0; j < kh; j++)
                            for (int i = 0; i < kw; i++) {
                                const int sx = naive_index(x + i - ax, w, p.border);
                                const int sy = naive_index(y + j - ay, h, p.border);
                                const int v = sx < 0 || sy < 0 ? 77 : in[((size_t)sy * w + sx) * cn + c];
                                sum += (long long)(flip ? qy[kh - 1 - j] * qx[kw - 1 - i]
                                                        : qy[j] * qx[i]) * v;
                            }
                        long long q = sum / 65536, r = sum % 65536;
                        if (r > 32768 || (r == 32768 && q % 2 == 1))
                            q++;
                        ref[((size_t)y * w + x) * cn + c] = (unsigned char)(q > 255 ? 255 : q);
                    }
            edgel_image src = edgel_image_host(in, w, h, EDGEL_U8, cn);
            edgel_image dst = edgel_image_host(out, w, h, EDGEL_U8, cn);
            const edgel_conv_method methods[] = {EDGEL_CONV_AUTO, EDGEL_CONV_SEPARABLE,
                                                 EDGEL_CONV_DIRECT};
            for (int m = 0; m < 3; m++)
                for (int t = 0; t < 2; t++) {
                    p.method = methods[m];
                    memset(out, 0xAB, n);
                    CHECK(edgel_sep_filter2d(ctx[t], &p, &src, &dst, kx, kw, ky, kh) == EDGEL_OK);
                    CHECK(memcmp(out, ref, n) == 0);
                }
            free(in), free(out), free(ref);
        }
    /* auto picks the fixed point only for such factors */
    unsigned char px[64] = {0}, py[64];
    edgel_image src = edgel_image_host(px, 8, 8, EDGEL_U8, 1);
    edgel_image dst = edgel_image_host(py, 8, 8, EDGEL_U8, 1);
    float k[9] = {1 / 16.f, 2 / 16.f, 1 / 16.f, 2 / 16.f, 4 / 16.f, 2 / 16.f, 1 / 16.f, 2 / 16.f, 1 / 16.f};
    edgel_image ker = edgel_image_host(k, 3, 3, EDGEL_F32, 1);
    edgel_filter_params p;
    edgel_filter_params_default(&p);
    edgel_conv_method m = EDGEL_CONV_AUTO;
    CHECK(edgel_filter2d_method(ctx[0], &p, &src, &dst, &ker, &m) == EDGEL_OK &&
          m == EDGEL_CONV_SEPARABLE);
    k[4] = 0.3f;
    CHECK(edgel_filter2d_method(ctx[0], &p, &src, &dst, &ker, &m) == EDGEL_OK &&
          m == EDGEL_CONV_DIRECT);
    edgel_context_destroy(ctx[0]);
    edgel_context_destroy(ctx[1]);
}

/* u8 results: each float rounded half to even and saturated, over rows long enough for the
 * vector loop and its tail: halves (0.5 and 1.5 times a ramp), negative sums, sums past 255
 * and infinite ones (0, as cv2.filter2D on x86). */
static void test_u8_rounding(edgel_context *ctx)
{
    enum { W = 77, H = 3 };
    unsigned char in[W * H], out[W * H];
    for (int i = 0; i < W * H; i++)
        in[i] = (unsigned char)(i * 7 % 256);
    const float taps[] = {0.5f, 1.5f, -1.0f, 1000.0f, 3e38f, 0.0f, 1.0f / 3.0f};
    for (int t = 0; t < 7; t++) {
        float k = taps[t];
        edgel_image src = edgel_image_host(in, W, H, EDGEL_U8, 1);
        edgel_image dst = edgel_image_host(out, W, H, EDGEL_U8, 1);
        edgel_image ker = edgel_image_host(&k, 1, 1, EDGEL_F32, 1);
        edgel_filter_params p;
        edgel_filter_params_default(&p);
        p.method = EDGEL_CONV_DIRECT;
        memset(out, 0xAB, sizeof out);
        CHECK(edgel_filter2d(ctx, &p, &src, &dst, &ker) == EDGEL_OK);
        int bad = 0;
        for (int i = 0; i < W * H; i++) {
            const float v = k == 0.0f ? 0.0f : k * in[i]; /* (the direct method skips zero taps) */
            const float r = nearbyintf(v); /* infinite sums store 0 (core/filter_math.h) */
            bad += out[i] != (!isfinite(v) ? 0 : r <= 0.0f ? 0 : r >= 255.0f ? 255 : (int)r);
        }
        CHECK(bad == 0);
    }
}

/* Sums that overflow (taps of 3e38) or read NaN and infinite pixels: every method stores
 * the same bytes (u8: 0 where not finite) and the same floats (NaN where not finite), with
 * no float-to-int conversion of NaN (UBSan's float-cast-overflow watches this test). */
static void test_non_finite_sums_agree(edgel_context *ctx)
{
    enum { W = 64, H = 64, K = 5 };
    static unsigned char in8[W * H], out8[4][W * H];
    static float in32[W * H], out32[4][W * H];
    for (int i = 0; i < W * H; i++) {
        in8[i] = (unsigned char)(next_random() % 256);
        in32[i] = (float)in8[i];
    }
    in32[100] = NAN;
    in32[2000] = INFINITY;
    in32[3000] = -INFINITY;
    float huge[K * K]; /* rank 1, so the separable method applies; signs mixed */
    for (int i = 0; i < K * K; i++)
        huge[i] = ((i / K + i % K) % 2 ? -3e38f : 3e38f);
    const edgel_conv_method methods[] = {EDGEL_CONV_DIRECT, EDGEL_CONV_SEPARABLE,
                                         EDGEL_CONV_FFT};
    edgel_image ker = edgel_image_host(huge, K, K, EDGEL_F32, 1);
    for (int input = 0; input < 2; input++) {
        int ran = 0;
        for (int m = 0; m < 3; m++) {
            edgel_filter_params p;
            edgel_filter_params_default(&p);
            p.method = methods[m];
            edgel_image src = input ? edgel_image_host(in32, W, H, EDGEL_F32, 1)
                                    : edgel_image_host(in8, W, H, EDGEL_U8, 1);
            edgel_image d8 = edgel_image_host(out8[m], W, H, EDGEL_U8, 1);
            edgel_image d32 = edgel_image_host(out32[m], W, H, EDGEL_F32, 1);
            edgel_status st = edgel_filter2d(ctx, &p, &src, input ? &d32 : &d8, &ker);
            CHECK(st == EDGEL_OK);
            if (!input) { /* u8 in, u8 out */
                int zero = 0;
                for (int i = 0; i < W * H; i++)
                    zero += out8[m][i] == 0;
                CHECK(zero > W * H / 2);
                CHECK(m == 0 || !memcmp(out8[m], out8[0], sizeof out8[0]));
            } else { /* f32: NaN where not finite, never an infinity */
                int inf = 0, nan_mismatch = 0;
                for (int i = 0; i < W * H; i++) {
                    inf += isinf(out32[m][i]);
                    nan_mismatch += isnan(out32[m][i]) != isnan(out32[0][i]);
                }
                CHECK(inf == 0 && nan_mismatch == 0);
            }
            ran++;
        }
        CHECK(ran >= 2);
    }
}

/* The FFT method keeps a kernel's spectrum between calls on a context: a call with other taps
 * of the same size, or the same taps on another grid, must not take the kept one. Each result
 * against the direct method on the same context. */
static void test_fft_kernel_kept(edgel_context *ctx)
{
    enum { W = 90, H = 70, K = 9 };
    static float in[W * H], fft[W * H], direct[W * H], k[3][K * K];
    for (int i = 0; i < W * H; i++)
        in[i] = uniform();
    for (int t = 0; t < 3; t++)
        for (int i = 0; i < K * K; i++)
            k[t][i] = t == 2 ? k[0][i] : uniform() - 0.5f;
    k[2][K * K - 1] += 1.0f; /* the same as the first but the last tap */
    const int sizes[][2] = {{W, H}, {W, H}, {W, H}, {W / 2, H}, {W, H}};
    const int kernel[] = {0, 1, 2, 2, 0};
    for (int c = 0; c < 5; c++) {
        const int w = sizes[c][0], h = sizes[c][1];
        edgel_image src = edgel_image_host(in, w, h, EDGEL_F32, 1);
        edgel_image a = edgel_image_host(fft, w, h, EDGEL_F32, 1);
        edgel_image b = edgel_image_host(direct, w, h, EDGEL_F32, 1);
        edgel_image ker = edgel_image_host(k[kernel[c]], K, K, EDGEL_F32, 1);
        edgel_filter_params p;
        edgel_filter_params_default(&p);
        p.method = EDGEL_CONV_FFT;
        const edgel_status st = edgel_filter2d(ctx, &p, &src, &a, &ker);
        p.method = EDGEL_CONV_DIRECT;
        CHECK(st == EDGEL_OK && edgel_filter2d(ctx, &p, &src, &b, &ker) == EDGEL_OK);
        double err = 0;
        for (int i = 0; i < w * h; i++)
            err = fmax(err, fabs((double)fft[i] - direct[i]));
        if (err > 1e-4)
            fprintf(stderr, "FFT call %d: off the direct method by %g\n", c, err);
        CHECK(err <= 1e-4);
    }
}

int main(void)
{
    edgel_context *ctx = NULL;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) == EDGEL_OK);
    if (ctx) {
        test_bad_input(ctx);
        test_methods_and_borders(ctx);
        test_direct_is_raster_fma();
        test_fixed_point_is_exact();
        test_u8_rounding(ctx);
        test_non_finite_sums_agree(ctx);
        test_fft_kernel_kept(ctx);
    }
    edgel_context_destroy(ctx);
    return check_summary("test_filter");
}
