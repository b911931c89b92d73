/* GPU suite: the itk preset (ITK's floats, bit for bit) and the skimage preset, CPU against
 * GPU. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"
#include "../test_random.h"

/* ---- the itk preset ---------------------------------------------------------------------- */

/* CPU and GPU (host views, device views) must give the same edges (f32 and u8) and the same
 * floats in the smoothed and suppressed stages. */
static void compare_itk_case(const edgel_canny_params *p, const edgel_image *src, const char *name)
{
    const int w = src->width, h = src->height;
    const size_t n = (size_t)w * h;
    float *ref = malloc(n * 4), *ref_sup = malloc(n * 4), *ref_smooth = malloc(n * 4);
    float *got = malloc(n * 4), *got_sup = malloc(n * 4), *got_smooth = malloc(n * 4);
    uint8_t *got8 = malloc(n);
    edgel_image e = edgel_image_host(ref, w, h, EDGEL_F32, 1);
    edgel_image es = edgel_image_host(ref_sup, w, h, EDGEL_F32, 1);
    edgel_image eg = edgel_image_host(ref_smooth, w, h, EDGEL_F32, 1);
    edgel_canny_stages st = {0};
    st.suppressed = &es;
    st.smoothed = &eg;
    CHECK(edgel_canny(cpu, p, src, &e, &st) == EDGEL_OK);

    edgel_image g = edgel_image_host(got, w, h, EDGEL_F32, 1);
    edgel_image gs = edgel_image_host(got_sup, w, h, EDGEL_F32, 1);
    edgel_image gg = edgel_image_host(got_smooth, w, h, EDGEL_F32, 1);
    edgel_image g8 = edgel_image_host(got8, w, h, EDGEL_U8, 1);
    for (int device = 0; device < 2; device++) {
        memset(got, 0x5A, n * 4), memset(got_sup, 0x5A, n * 4), memset(got_smooth, 0x5A, n * 4);
        edgel_image ds = device ? device_copy(src) : *src;
        edgel_image dg = device ? device_copy(&g) : g, dgs = device ? device_copy(&gs) : gs;
        edgel_image dgg = device ? device_copy(&gg) : gg;
        /* cudaMemcpy from pageable memory may return before its DMA lands, and the context's
         * stream does not wait for the legacy default stream: finish the copies. */
        CUDA_CHECK(cudaDeviceSynchronize());
        edgel_canny_stages gst = {0};
        gst.suppressed = &dgs;
        gst.smoothed = &dgg;
        edgel_status status = edgel_canny(gpu, p, &ds, &dg, &gst);
        if (status == EDGEL_OK && device) {
            status = edgel_context_synchronize(gpu);
            device_download(&dg, got), device_download(&dgs, got_sup), device_download(&dgg, got_smooth);
        }
        const size_t de = status == EDGEL_OK ? count_float_diff(ref, got, n) : n;
        const size_t dsup = status == EDGEL_OK ? count_float_diff(ref_sup, got_sup, n) : n;
        const size_t dsm = status == EDGEL_OK ? count_float_diff(ref_smooth, got_smooth, n) : n;
        if (de || dsup || dsm)
            fprintf(stderr, "itk %s %dx%d variance %g %g/%g %s: %s (%s), differ: %zu edges, %zu "
                    "suppressed, %zu smoothed\n", name, w, h, p->variance, p->high_threshold,
                    p->low_threshold, device ? "device" : "host", edgel_status_name(status),
                    edgel_last_error(), de, dsup, dsm);
        CHECK(de == 0 && dsup == 0 && dsm == 0);
        if (device) {
            cudaFree(ds.data), cudaFree(dg.data), cudaFree(dgs.data), cudaFree(dgg.data);
        }
    }
    memset(got8, 0x5A, n);
    CHECK(edgel_canny(gpu, p, src, &g8, NULL) == EDGEL_OK);
    size_t d8 = 0;
    for (size_t i = 0; i < n; i++)
        d8 += got8[i] != (ref[i] == 1.0f ? 255 : 0);
    CHECK(d8 == 0);
    free(ref), free(ref_sup), free(ref_smooth), free(got), free(got_sup), free(got_smooth), free(got8);
}

/* Gray u8 and float (with fractions) versions of photographs and crops of many sizes, every
 * variance class (none, small, the 32-pixel radius cap), thresholds equal, swapped, zero. */
void test_itk(const edgel_image *photos, int n, int small)
{
    static const double variances[] = {0.0, 0.5, 1.0, 2.0, 4.7, 10.0, 50.0, 200.0};
    static const double th[][2] = {{30, 15}, {10, 5}, {0, 0}, {2, 8}, {5, 5}, {60, 20}};
    static const int sizes[][2] = {{1, 1},   {1, 9},     {9, 1},      {2, 3},      {31, 33},
                                   {64, 64}, {127, 129}, {481, 321},  {1000, 999}, {1920, 1080},
                                   {4096, 2160}};
    const int nsizes = small ? 5 : (int)(sizeof sizes / sizeof sizes[0]);
    int cases = 0;
    for (int i = 0; i < (small ? 1 : n) + nsizes; i++) {
        const int photo = i < n && !small ? i : 0;
        int w = photos[photo].width, h = photos[photo].height;
        if (i >= (small ? 1 : n)) {
            w = sizes[i - (small ? 1 : n)][0];
            h = sizes[i - (small ? 1 : n)][1];
        }
        void *mem;
        edgel_image frame = make_frame(&photos[photo], w, h, photos[photo].channels, &mem);
        uint8_t *gray = malloc((size_t)w * h);
        float *fl = malloc((size_t)w * h * 4);
        edgel_image g8 = edgel_image_host(gray, w, h, EDGEL_U8, 1);
        if (frame.channels > 1)
            CHECK(edgel_to_gray(cpu, EDGEL_GRAY_RGB, &frame, &g8) == EDGEL_OK);
        else
            memcpy(gray, frame.data, (size_t)w * h);
        for (size_t k = 0; k < (size_t)w * h; k++)
            fl[k] = gray[k] + (float)(next_random() % 1000) / 1000.0f;
        edgel_image g32 = edgel_image_host(fl, w, h, EDGEL_F32, 1);
        edgel_canny_params p;
        edgel_canny_params_default(&p);
        p.preset = EDGEL_PRESET_ITK;
        p.variance = variances[i % 8];
        p.high_threshold = th[i % 6][0];
        p.low_threshold = th[i % 6][1];
        compare_itk_case(&p, i % 2 ? &g8 : &g32, i < n ? "bsds" : "size");
        cases++;
        free(mem), free(gray), free(fl);
    }
    printf("itk preset: %d cases compared\n", cases);
}

/* ---- the skimage preset ------------------------------------------------------------------ */

static const char *const skimage_type_names[] = {"u8", "u16", "s16", "s32", "f32", "f64", "bool"};

/* CPU and GPU (host views, device views) must give the same edges and the same bits in all
 * five stages, with and without a mask. */
static void compare_skimage_case(const edgel_canny_params *p, const edgel_image *src,
                                 const edgel_image *mask, const char *name)
{
    const int w = src->width, h = src->height;
    const size_t n = (size_t)w * h;
    const edgel_pixel_type ft = src->type == EDGEL_F32 ? EDGEL_F32 : EDGEL_F64;
    const size_t fb = n * edgel_pixel_size(ft);
    uint8_t *ref = malloc(n), *got = malloc(n), *rs = malloc(5 * fb), *gs = malloc(5 * fb);
    edgel_image re = edgel_image_host(ref, w, h, EDGEL_BOOL, 1);
    edgel_image rv[5], gv[5];
    for (int k = 0; k < 5; k++) {
        rv[k] = edgel_image_host(rs + k * fb, w, h, ft, 1);
        gv[k] = edgel_image_host(gs + k * fb, w, h, ft, 1);
    }
    edgel_canny_stages rst = {NULL, &rv[0], &rv[1], &rv[2], &rv[3], &rv[4]};
    CHECK(edgel_canny_masked(cpu, p, src, mask, &re, &rst) == EDGEL_OK);
    for (int device = 0; device < 2; device++) {
        memset(got, 0x5A, n), memset(gs, 0x5A, 5 * fb);
        edgel_image ge = edgel_image_host(got, w, h, EDGEL_BOOL, 1);
        edgel_image ds = device ? device_copy(src) : *src, de = device ? device_copy(&ge) : ge;
        edgel_image dm = mask && device ? device_copy(mask) : mask ? *mask : ge, dv[5];
        for (int k = 0; k < 5; k++)
            dv[k] = device ? device_copy(&gv[k]) : gv[k];
        CUDA_CHECK(cudaDeviceSynchronize()); /* as in compare_itk_case */
        edgel_canny_stages gst = {NULL, &dv[0], &dv[1], &dv[2], &dv[3], &dv[4]};
        edgel_status status = edgel_canny_masked(gpu, p, &ds, mask ? &dm : NULL, &de, &gst);
        if (status == EDGEL_OK && device) {
            status = edgel_context_synchronize(gpu);
            device_download(&de, got);
            for (int k = 0; k < 5; k++)
                device_download(&dv[k], gs + k * fb);
        }
        size_t first, de_count = status == EDGEL_OK ? count_diff(ref, got, n, &first) : n;
        size_t ds_count = 0;
        for (int k = 0; k < 5 && status == EDGEL_OK; k++)
            ds_count += memcmp(rs + k * fb, gs + k * fb, fb) != 0;
        if (de_count || ds_count || status != EDGEL_OK)
            fprintf(stderr, "skimage %s %dx%d %s sigma %g mode %d q %d mask %d %s: %s (%s), "
                    "differ: %zu edges, %zu stages\n", name, w, h, skimage_type_names[src->type],
                    p->sigma, (int)p->mode, (int)p->use_quantiles, mask != NULL,
                    device ? "device" : "host", edgel_status_name(status), edgel_last_error(),
                    de_count, ds_count);
        CHECK(status == EDGEL_OK && de_count == 0 && ds_count == 0);
        if (device) {
            cudaFree(ds.data), cudaFree(de.data);
            if (mask)
                cudaFree(dm.data);
            for (int k = 0; k < 5; k++)
                cudaFree(dv[k].data);
        }
    }
    /* Without stages (and quantiles) the gradients never leave the chip: the same edges. */
    memset(got, 0x5A, n);
    edgel_image ge = edgel_image_host(got, w, h, EDGEL_BOOL, 1);
    const edgel_status status = edgel_canny_masked(gpu, p, src, mask, &ge, NULL);
    size_t first, de_count = status == EDGEL_OK ? count_diff(ref, got, n, &first) : n;
    if (de_count || status != EDGEL_OK)
        fprintf(stderr, "skimage %s %dx%d %s sigma %g mode %d q %d mask %d no stages: %s (%s), "
                "differ: %zu edges\n", name, w, h, skimage_type_names[src->type], p->sigma,
                (int)p->mode, (int)p->use_quantiles, mask != NULL, edgel_status_name(status),
                edgel_last_error(), de_count);
    CHECK(status == EDGEL_OK && de_count == 0);
    free(ref), free(got), free(rs), free(gs);
}

/* A gray u8 frame in the skimage preset's types: u8, u16 and s16/s32 scaled up, f32 and f64
 * in [0, 1] with fractions, bool of the upper half. */
static edgel_image skimage_input(const uint8_t *gray, int w, int h, edgel_pixel_type t, void **mem)
{
    const size_t n = (size_t)w * h;
    *mem = malloc(n * edgel_pixel_size(t));
    for (size_t i = 0; i < n; i++) {
        const double f = (gray[i] + (double)(next_random() % 1000) / 1000.0) / 256.0;
        switch (t) {
        case EDGEL_U8: ((uint8_t *)*mem)[i] = gray[i]; break;
        case EDGEL_BOOL: ((uint8_t *)*mem)[i] = gray[i] > 127; break;
        case EDGEL_U16: ((uint16_t *)*mem)[i] = (uint16_t)(gray[i] * 257); break;
        case EDGEL_S16: ((int16_t *)*mem)[i] = (int16_t)(gray[i] * 256 - 32768); break;
        case EDGEL_S32: ((int32_t *)*mem)[i] = (int32_t)(gray[i] * 8000000 - 1000000000); break;
        case EDGEL_F32: ((float *)*mem)[i] = (float)f; break;
        default: ((double *)*mem)[i] = f; break;
        }
    }
    return edgel_image_host(*mem, w, h, t, 1);
}

/* Photographs and crops of many sizes in every input type, every mode, sigmas from none to
 * wider than the image, absolute, default and quantile thresholds, with and without masks. */
void test_skimage(const edgel_image *photos, int n, int small)
{
    static const edgel_pixel_type types[] = {EDGEL_U8, EDGEL_F32, EDGEL_F64, EDGEL_U16,
                                             EDGEL_S16, EDGEL_S32, EDGEL_BOOL};
    static const double sigmas[] = {1.0, 0.0, 0.5, 1.4, 2.0, 3.3, 7.0, 40.0};
    static const int sizes[][2] = {{1, 1},   {1, 9},     {9, 1},     {2, 3},      {31, 33},
                                   {64, 64}, {127, 129}, {481, 321}, {1000, 999}, {1920, 1080}};
    const int nsizes = small ? 5 : (int)(sizeof sizes / sizeof sizes[0]);
    const int nphotos = small ? 1 : (n < 40 ? n : 40);
    int cases = 0;
    for (int i = 0; i < nphotos + nsizes; i++) {
        const int photo = i < nphotos ? i % (n > 0 ? n : 1) : 0;
        int w = photos[photo].width, h = photos[photo].height;
        if (i >= nphotos)
            w = sizes[i - nphotos][0], h = sizes[i - nphotos][1];
        void *mem, *in_mem;
        edgel_image frame = make_frame(&photos[photo], w, h, photos[photo].channels, &mem);
        uint8_t *gray = malloc((size_t)w * h), *m = malloc((size_t)w * h);
        edgel_image g8 = edgel_image_host(gray, w, h, EDGEL_U8, 1);
        if (frame.channels > 1)
            CHECK(edgel_to_gray(cpu, EDGEL_GRAY_RGB, &frame, &g8) == EDGEL_OK);
        else
            memcpy(gray, frame.data, (size_t)w * h);
        for (size_t k = 0; k < (size_t)w * h; k++)
            m[k] = next_random() % 10 != 0;
        const edgel_image mask = edgel_image_host(m, w, h, EDGEL_BOOL, 1);
        const edgel_image src = skimage_input(gray, w, h, types[i % 7], &in_mem);
        edgel_canny_params p;
        edgel_canny_params_default(&p);
        p.preset = EDGEL_PRESET_SKIMAGE;
        p.sigma = sigmas[i % 8];
        p.mode = (edgel_border)(i % 5);
        p.cval = i % 3 ? 0.0 : 0.25;
        p.low_threshold = p.high_threshold = NAN;
        if (i % 4 == 1) {
            p.use_quantiles = 1;
            p.low_threshold = 0.6, p.high_threshold = 0.85;
        } else if (i % 4 == 2) {
            const double max = types[i % 7] == EDGEL_U8 ? 255 : 1;
            p.low_threshold = 0.03 * max, p.high_threshold = 0.09 * max;
        }
        compare_skimage_case(&p, &src, i % 3 == 2 ? &mask : NULL, i < nphotos ? "bsds" : "size");
        cases++;
        free(mem), free(in_mem), free(gray), free(m);
    }
    /* The shared-memory tiles' edges: every mode, kernels up to the tiles' longest (r 12,
     * sigma 3.0) and past it (r 13), frames smaller than a tile and than the kernel, tiles
     * cut by the frame's right and bottom sides. */
    static const double tile_sigmas[] = {0.5, 1.4, 3.0, 3.2};
    static const int tile_sizes[][2] = {{1, 1}, {5, 70}, {33, 31}, {100, 37}};
    for (int i = 0; i < 5 * 4 * 4; i++) {
        const int w = tile_sizes[i % 4][0], h = tile_sizes[i % 4][1];
        uint8_t *gray = malloc((size_t)w * h);
        for (size_t k = 0; k < (size_t)w * h; k++)
            gray[k] = (uint8_t)(next_random() % 256);
        void *in_mem;
        const edgel_image src = skimage_input(gray, w, h, i % 2 ? EDGEL_F32 : EDGEL_U8, &in_mem);
        edgel_canny_params p;
        edgel_canny_params_default(&p);
        p.preset = EDGEL_PRESET_SKIMAGE;
        p.sigma = tile_sigmas[(i / 4) % 4];
        p.mode = (edgel_border)(i / 16);
        p.cval = 0.25;
        p.low_threshold = p.high_threshold = NAN;
        compare_skimage_case(&p, &src, NULL, "tile");
        cases++;
        free(in_mem), free(gray);
    }
    printf("skimage preset: %d cases compared\n", cases);
}
