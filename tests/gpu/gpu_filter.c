/* GPU suite: the convolution engine (direct, FFT, fixed-point, streamed) and the building
 * blocks, CPU against GPU. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"
#include "../test_random.h"

/* ---- the convolution engine --------------------------------------------------------------- */

/* GPU (host and device views) against the CPU: direct and separable give the same floats
 * (the same fmaf order); the FFT within 1e-5 of the CPU's direct result, norm-wise. */
static void compare_filter_case(const edgel_filter_params *p, const edgel_image *src,
                                const edgel_image *kernel, edgel_pixel_type out_type)
{
    const int w = src->width, h = src->height, cn = src->channels;
    const size_t n = (size_t)w * h * cn, bytes = n * edgel_pixel_size(out_type);
    void *ref = malloc(bytes), *got = malloc(bytes);
    edgel_image er = edgel_image_host(ref, w, h, out_type, cn);
    edgel_image eg = edgel_image_host(got, w, h, out_type, cn);
    edgel_filter_params pd = *p;
    if (pd.method == EDGEL_CONV_FFT)
        pd.method = EDGEL_CONV_DIRECT;
    CHECK(edgel_filter2d(cpu, &pd, src, &er, kernel) == EDGEL_OK);
    /* An FFT's rounding error scales with the sums of |image| * |kernel|, not with the result,
     * which can cancel (a 1x1 frame with wrap gives pixel * sum of taps): FFT results are held
     * to 1e-5 of the norm of those sums. */
    float *scale = NULL;
    if (p->method == EDGEL_CONV_FFT && out_type == EDGEL_F32) {
        const size_t kn = (size_t)kernel->width * kernel->height;
        float *ak = malloc(kn * sizeof(float)), *as = malloc(n * sizeof(float));
        scale = malloc(n * sizeof(float));
        for (size_t i = 0; i < kn; i++)
            ak[i] = fabsf(((const float *)kernel->data)[i]);
        for (size_t i = 0; i < n; i++)
            as[i] = src->type == EDGEL_F32 ? fabsf(((const float *)src->data)[i])
                                           : (float)((const uint8_t *)src->data)[i];
        const edgel_image ai = edgel_image_host(as, w, h, EDGEL_F32, cn);
        const edgel_image ao = edgel_image_host(scale, w, h, EDGEL_F32, cn);
        const edgel_image aki = edgel_image_host(ak, kernel->width, kernel->height, EDGEL_F32, 1);
        edgel_filter_params pa = pd;
        pa.border_value = fabs(pa.border_value);
        CHECK(edgel_filter2d(cpu, &pa, &ai, &ao, &aki) == EDGEL_OK);
        free(ak), free(as);
    }
    for (int device = 0; device < 2; device++) {
        memset(got, 0x5A, bytes);
        edgel_image ds = device ? device_copy(src) : *src, dd = device ? device_copy(&eg) : eg;
        CUDA_CHECK(cudaDeviceSynchronize()); /* as in compare_itk_case */
        edgel_status st = edgel_filter2d(gpu, p, &ds, &dd, kernel);
        if (st == EDGEL_OK && device) {
            st = edgel_context_synchronize(gpu);
            device_download(&dd, got);
        }
        int ok = st == EDGEL_OK;
        if (ok && p->method != EDGEL_CONV_FFT) {
            ok = memcmp(ref, got, bytes) == 0;
        } else if (ok && out_type == EDGEL_F32) {
            double err = 0, norm = 0;
            for (size_t i = 0; i < n; i++) {
                const double d = (double)((float *)got)[i] - ((float *)ref)[i];
                err += d * d;
                norm += (double)((float *)scale)[i] * ((float *)scale)[i];
            }
            ok = sqrt(err) <= 1e-5 * sqrt(norm) + 1e-20;
        } else if (ok) {
            for (size_t i = 0; i < n && ok; i++)
                ok = abs((int)((uint8_t *)got)[i] - ((uint8_t *)ref)[i]) <= 1;
        }
        if (!ok)
            fprintf(stderr, "filter %dx%dx%d kernel %dx%d method %d border %d out %d %s: %s (%s)\n",
                    w, h, cn, (int)kernel->width, (int)kernel->height, (int)p->method,
                    (int)p->border, (int)out_type, device ? "device" : "host",
                    edgel_status_name(st), edgel_last_error());
        CHECK(ok);
        if (device)
            cudaFree(ds.data), cudaFree(dd.data);
    }
    free(ref), free(got), free(scale);
}

void test_filter(const edgel_image *photo, int small)
{
    static const int sizes[][2] = {{1, 1}, {7, 5}, {33, 31}, {481, 321}, {1920, 1080}};
    static const int ks[][2] = {{1, 1}, {3, 3}, {4, 6}, {15, 15}, {29, 9}, {65, 65}, {129, 129}};
    int cases = 0;
    for (int s = 0; s < (small ? 3 : 5); s++)
        for (int q = 0; q < (small ? 4 : 7); q++) {
            const int w = sizes[s][0], h = sizes[s][1], kw = ks[q][0], kh = ks[q][1];
            void *mem;
            const int cn = (s + q) % 3 == 0 ? 3 : 1;
            edgel_image u8 = make_frame(photo, w, h, cn, &mem);
            float *f32 = malloc(sizeof(float) * (size_t)w * h * cn);
            for (size_t i = 0; i < (size_t)w * h * cn; i++)
                f32[i] = ((uint8_t *)u8.data)[i] + (float)(next_random() % 100) / 100.0f;
            edgel_image fi = edgel_image_host(f32, w, h, EDGEL_F32, cn);
            float *k = malloc(sizeof(float) * kw * kh);
            float kx[129], ky[129];
            for (int i = 0; i < kw; i++)
                kx[i] = (float)(next_random() % 2001) / 1000.0f - 1.0f;
            for (int j = 0; j < kh; j++)
                ky[j] = (float)(next_random() % 2001) / 1000.0f - 1.0f;
            for (int j = 0; j < kh; j++)
                for (int i = 0; i < kw; i++)
                    k[j * kw + i] = q % 2 ? ky[j] * kx[i] / (kw * kh)
                                          : (float)(next_random() % 2001) / 1000.0f - 1.0f;
            edgel_image ker = edgel_image_host(k, kw, kh, EDGEL_F32, 1);
            for (int m = EDGEL_CONV_DIRECT; m <= EDGEL_CONV_FFT; m++) {
                if (m == EDGEL_CONV_SEPARABLE && q % 2 == 0 && kw * kh > 1)
                    continue;
                if (m == EDGEL_CONV_DIRECT && w * h > 500000 && kw * kh > 1000)
                    continue; /* the CPU reference would take minutes */
                edgel_filter_params p;
                edgel_filter_params_default(&p);
                p.method = (edgel_conv_method)m;
                p.border = (edgel_border)((s + q + m) % 5);
                p.border_value = 3;
                compare_filter_case(&p, &fi, &ker, EDGEL_F32);
                compare_filter_case(&p, &u8, &ker, EDGEL_U8);
                cases += 2;
            }
            free(mem), free(f32), free(k);
        }
    printf("filter: %d cases compared\n", cases);
}

/* The FFT method with cuFFT's callbacks and with passes of its own (EDGEL_CUFFT_CALLBACKS=1
 * and 0, read when a plan is made), each against the CPU: tilings of one tile and of many,
 * every border, 1 and 3 channels, kernels up to 129 taps, and an image whose tiles take two
 * batches (over 2^26 grid values). */
void test_fft_paths(const edgel_image *photo, int small)
{
    /* (1000 x 60 with 9 x 5 taps: two tiles a row, a power of two; 1100 x 700: three) */
    static const int sizes[][4] = {{1, 1, 1, 1},       {17, 300, 3, 29},     {300, 200, 29, 29},
                                   {1100, 700, 65, 9}, {700, 500, 129, 129}, {1000, 60, 9, 5}};
    static const char *paths[] = {"1", "0"};
    int cases = 0;
    for (int a = 0; a < 2; a++) {
        setenv("EDGEL_CUFFT_CALLBACKS", paths[a], 1);
        for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
            const int w = sizes[s][0], h = sizes[s][1], kw = sizes[s][2], kh = sizes[s][3];
            const int cn = s % 2 ? 3 : 1;
            void *mem;
            edgel_image u8 = make_frame(photo, w, h, cn, &mem);
            float *f32 = malloc(sizeof(float) * (size_t)w * h * cn);
            for (size_t i = 0; i < (size_t)w * h * cn; i++)
                f32[i] = ((uint8_t *)u8.data)[i] - 100.0f + (float)(next_random() % 100) / 50.0f;
            edgel_image fi = edgel_image_host(f32, w, h, EDGEL_F32, cn);
            float *k = malloc(sizeof(float) * kw * kh);
            for (int i = 0; i < kw * kh; i++)
                k[i] = (float)(next_random() % 2001) / 1000.0f - 1.0f;
            edgel_image ker = edgel_image_host(k, kw, kh, EDGEL_F32, 1);
            for (int border = 0; border < 5; border++) {
                edgel_filter_params p;
                edgel_filter_params_default(&p);
                p.method = EDGEL_CONV_FFT;
                p.border = (edgel_border)border;
                p.border_value = -7;
                p.anchor_x = (int)(next_random() % (unsigned)kw);
                p.anchor_y = (int)(next_random() % (unsigned)kh);
                compare_filter_case(&p, &fi, &ker, EDGEL_F32);
                compare_filter_case(&p, &u8, &ker, EDGEL_U8);
                cases += 2;
            }
            free(mem), free(f32), free(k);
        }
        if (!small) { /* 8200 x 8200 with 5 x 5 taps: 33 x 33 tiles of 256 x 256, two batches */
            void *mem;
            edgel_image u8 = make_frame(photo, 8200, 8200, 1, &mem);
            float k[25];
            for (int i = 0; i < 25; i++)
                k[i] = (float)(next_random() % 2001) / 10000.0f;
            edgel_image ker = edgel_image_host(k, 5, 5, EDGEL_F32, 1);
            edgel_filter_params p;
            edgel_filter_params_default(&p);
            p.method = EDGEL_CONV_FFT;
            compare_filter_case(&p, &u8, &ker, EDGEL_U8);
            cases++;
            free(mem);
        }
    }
    unsetenv("EDGEL_CUFFT_CALLBACKS");
    printf("fft paths: %d cases compared\n", cases);
}

/* 1-D factors of 256 in `n` non-negative steps (some zero), summing to 256. */
static void q8_factors(int n, float *k)
{
    int left = 256;
    for (int i = 0; i < n; i++) {
        const int q = i == n - 1 ? left : (int)(next_random() % (unsigned)(left / 2 + 1));
        k[i] = (float)q / 256.0f;
        left -= q;
    }
}

/* u8 kernels of factors in 1/256 steps run the fixed-point separable method (the one the
 * Canny blur runs): the GPU's bytes equal the CPU's, tile kernel (up to 17 taps a side) and
 * pass-by-pass kernels, every border, anchors, 1, 3 and 4 channels. */
void test_fixed_filter(const edgel_image *photo, int small)
{
    static const int sizes[][2] = {{1, 1}, {5, 9}, {40, 33}, {481, 321}};
    static const int ks[][2] = {{3, 3}, {2, 7}, {17, 17}, {18, 5}, {41, 129}};
    int cases = 0;
    for (int s = 0; s < (small ? 3 : 4); s++)
        for (int q = 0; q < 5; q++)
            for (int cn = 1; cn <= 4; cn += cn == 1 ? 2 : 1) {
                const int w = sizes[s][0], h = sizes[s][1], kw = ks[q][0], kh = ks[q][1];
                void *mem;
                edgel_image u8 = make_frame(photo, w, h, cn, &mem);
                float kx[129], ky[129], *k = malloc(sizeof(float) * kw * kh);
                q8_factors(kw, kx);
                q8_factors(kh, ky);
                for (int j = 0; j < kh; j++)
                    for (int i = 0; i < kw; i++)
                        k[j * kw + i] = ky[j] * kx[i];
                edgel_image ker = edgel_image_host(k, kw, kh, EDGEL_F32, 1);
                edgel_filter_params p;
                edgel_filter_params_default(&p);
                p.border = (edgel_border)((s + q + cn) % 5);
                p.border_value = 200;
                p.anchor_x = (s + q) % kw;
                p.anchor_y = q % 2 ? -1 : kh - 1;
                uint8_t *o = malloc((size_t)w * h * cn);
                const edgel_image out = edgel_image_host(o, w, h, EDGEL_U8, cn);
                edgel_conv_method m = EDGEL_CONV_AUTO;
                CHECK(edgel_filter2d_method(gpu, &p, &u8, &out, &ker, &m) == EDGEL_OK &&
                      m == EDGEL_CONV_SEPARABLE);
                compare_filter_case(&p, &u8, &ker, EDGEL_U8);
                cases++;
                free(mem), free(k), free(o);
            }
    printf("fixed-point filter: %d cases compared\n", cases);
}

/* The one-channel streaming kernel of the fixed-point method (square kernels of 3 to 17 taps,
 * centred): sizes around its warps of 120 and 112 columns and its bands of 2 to 16 rows, every
 * border, device views with aligned rows and with an odd pitch at an odd address. */
void test_fixed_stream(const edgel_image *photo, int small)
{
    /* (on a GPU of 132 SMs the last three take bands of 4, 8 and 16 rows, the others 2; up to
     * 2^20 pixels, symmetric column taps of up to nine take two pixels a lane, in warps of 56
     * or 60 columns, else four, of 112 or 120) */
    static const int sizes[][2] = {{2, 2},     {5, 9},       {119, 17},    {57, 40},
                                   {121, 33},  {61, 9},      {113, 3},     {241, 16},
                                   {169, 21},  {300, 70},    {1000, 37},   {1921, 1081},
                                   {3001, 1500}, {4001, 2300}};
    int cases = 0;
    for (int s = 0; s < (small ? 7 : 14); s++)
        for (int k = 3; k <= 17; k += 2) {
            const int w = sizes[s][0], h = sizes[s][1];
            void *mem;
            const edgel_image src = make_frame(photo, w, h, 1, &mem);
            float kx[17], ky[17], taps[17 * 17];
            q8_factors(k, kx);
            q8_factors(k, ky);
            if ((s + k / 2) % 2) { /* symmetric column taps (the kernel's other sums) */
                int side = 0;
                for (int j = 0; j < k / 2; j++) {
                    const int q = (int)(next_random() % (unsigned)(128 / (k / 2) + 1));
                    ky[j] = ky[k - 1 - j] = (float)q / 256.0f;
                    side += 2 * q;
                }
                ky[k / 2] = (float)(256 - side) / 256.0f;
            }
            for (int j = 0; j < k; j++)
                for (int i = 0; i < k; i++)
                    taps[j * k + i] = ky[j] * kx[i];
            const edgel_image ker = edgel_image_host(taps, k, k, EDGEL_F32, 1);
            edgel_filter_params p;
            edgel_filter_params_default(&p);
            p.border = (edgel_border)((s + k / 2) % 5);
            p.border_value = 200;
            uint8_t *want = malloc((size_t)w * h), *got = malloc((size_t)w * h);
            const edgel_image hw = edgel_image_host(want, w, h, EDGEL_U8, 1);
            CHECK(edgel_filter2d(cpu, &p, &src, &hw, &ker) == EDGEL_OK);
            for (int odd = 0; odd < 2; odd++) {
                const size_t pitch = odd ? (size_t)(w + 4) | 1u : ((size_t)w + 3) & ~(size_t)3;
                uint8_t *a, *b;
                CUDA_CHECK(cudaMalloc((void **)&a, pitch * h + 1));
                CUDA_CHECK(cudaMalloc((void **)&b, pitch * h + 1));
                edgel_image ds = {a + odd, w, h, pitch, EDGEL_U8, 1, EDGEL_MEMORY_DEVICE};
                edgel_image dd = ds;
                dd.data = b + odd;
                CUDA_CHECK(cudaMemcpy2D(ds.data, pitch, src.data, src.pitch, (size_t)w, h,
                                        cudaMemcpyHostToDevice));
                CUDA_CHECK(cudaMemset(b, 0x5A, pitch * h + 1));
                /* The context's stream does not wait for the legacy default stream: without
                 * this the poison could land after the kernel's output */
                CUDA_CHECK(cudaDeviceSynchronize());
                CHECK(edgel_filter2d(gpu, &p, &ds, &dd, &ker) == EDGEL_OK);
                CHECK(edgel_context_synchronize(gpu) == EDGEL_OK);
                device_download(&dd, got);
                size_t first;
                const size_t d = count_diff(want, got, (size_t)w * h, &first);
                if (d)
                    fprintf(stderr, "fixed stream %dx%d kernel %d border %d odd %d: %zu differ "
                            "(first at %zu)\n", w, h, k, (int)p.border, odd, d, first);
                CHECK(d == 0);
                cudaFree(a), cudaFree(b);
                cases++;
            }
            free(want), free(got), free(mem);
        }
    printf("fixed-point stream kernel: %d cases compared\n", cases);
}

/* The building blocks on device views equal the CPU's on host views: luma of RGB and RGBA
 * in both orders, and GaussianBlur of 1, 3 and 4 channels for sizes and sigmas from a 3-tap
 * kernel to one past the tile kernel's 17 taps; host views on a CUDA context run too. */
void test_building_blocks(const edgel_image *photo, int small)
{
    static const int sizes[][2] = {{1, 1}, {7, 5}, {64, 48}, {333, 211}, {1920, 1080}};
    static const double sigmas[] = {0.8, 1.4, 3.0, 5.0};
    const int nsizes = small ? 4 : 5;
    for (int si = 0; si < nsizes; si++)
        for (int cn = 1; cn <= 4; cn++) {
            if (cn == 2)
                continue;
            const int w = sizes[si][0], h = sizes[si][1];
            void *mem;
            edgel_image src = make_frame(photo, w, h, cn, &mem);
            const size_t px = (size_t)w * h;
            uint8_t *want = malloc(px * cn), *got = malloc(px * cn);
            edgel_image dsrc = device_copy(&src);
            if (cn > 1)
                for (int order = EDGEL_GRAY_RGB; order <= EDGEL_GRAY_BGR; order++) {
                    edgel_image hg = edgel_image_host(want, w, h, EDGEL_U8, 1);
                    CHECK(edgel_to_gray(cpu, (edgel_gray)order, &src, &hg) == EDGEL_OK);
                    edgel_image dg = device_copy(&hg);
                    CHECK(edgel_to_gray(gpu, (edgel_gray)order, &dsrc, &dg) == EDGEL_OK);
                    CHECK(edgel_context_synchronize(gpu) == EDGEL_OK);
                    device_download(&dg, got);
                    size_t first;
                    CHECK(count_diff(want, got, px, &first) == 0);
                    edgel_image hg2 = edgel_image_host(got, w, h, EDGEL_U8, 1);
                    CHECK(edgel_to_gray(gpu, (edgel_gray)order, &src, &hg2) == EDGEL_OK);
                    CHECK(count_diff(want, got, px, &first) == 0); /* host views: the CPU's */
                    cudaFree(dg.data);
                }
            for (int k = 0; k < 4; k++) {
                edgel_image hb = edgel_image_host(want, w, h, EDGEL_U8, cn);
                CHECK(edgel_gaussian_blur(cpu, &src, &hb, 0, sigmas[k]) == EDGEL_OK);
                edgel_image db = device_copy(&hb);
                CHECK(edgel_gaussian_blur(gpu, &dsrc, &db, 0, sigmas[k]) == EDGEL_OK);
                CHECK(edgel_context_synchronize(gpu) == EDGEL_OK);
                device_download(&db, got);
                size_t first;
                const size_t d = count_diff(want, got, px * cn, &first);
                if (d)
                    fprintf(stderr, "blur %dx%dx%d sigma %g: %zu bytes differ\n", w, h, cn,
                            sigmas[k], d);
                CHECK(d == 0);
                cudaFree(db.data);
            }
            cudaFree(dsrc.data);
            free(want);
            free(got);
            free(mem);
        }
}
