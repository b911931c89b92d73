/* ITK's Canny on volumes through the C API (edgel_canny_volume): refusals with named statuses
 * and nothing written, a one-slice volume equal to the 2-D itk preset (the z axis then changes
 * nothing in ITK's arithmetic), and the same edges at every thread count through pitched
 * views. (The voxel-for-voxel comparison with ITK is tests/python/test_itk_volume.py.) */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "edgel.h"
#include "test_random.h"

enum { W = 23, H = 17, D = 9 };

static edgel_volume_canny_params volume_params(double variance, double upper, double lower)
{
    edgel_volume_canny_params p;
    edgel_volume_canny_params_default(&p);
    for (int i = 0; i < 3; i++)
        p.variance[i] = variance;
    p.upper_threshold = upper, p.lower_threshold = lower;
    return p;
}

static void test_refusals(edgel_context *ctx)
{
    static float in[W * H * D], out[W * H * D];
    static uint8_t out8[W * H * D];
    static int16_t s16[W * H * D];
    edgel_volume src = edgel_volume_host(in, W, H, D, EDGEL_F32);
    edgel_volume dst = edgel_volume_host(out8, W, H, D, EDGEL_U8);
    edgel_volume_canny_params p = volume_params(1.0, 10, 5), q;
    CHECK(edgel_canny_volume(ctx, &p, &src, &dst, NULL) == EDGEL_OK);
    memset(out8, 0x5A, sizeof out8);

    q = p;
    q.variance[2] = -1;
    CHECK_STATUS(edgel_canny_volume(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "variance along z");
    q.variance[2] = NAN;
    CHECK_STATUS(edgel_canny_volume(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "variance along z");
    q = p;
    q.variance[0] = 8.0, q.spacing[0] = 0.1; /* 800 voxels^2 */
    CHECK_STATUS(edgel_canny_volume(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "overflows");
    q = p;
    q.spacing[1] = 0;
    CHECK_STATUS(edgel_canny_volume(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "spacing along y");
    q.spacing[1] = INFINITY;
    CHECK_STATUS(edgel_canny_volume(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "spacing along y");
    q = p;
    q.maximum_error[1] = 1.0;
    CHECK_STATUS(edgel_canny_volume(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "maximum error along y");
    q = p;
    q.lower_threshold = NAN;
    CHECK_STATUS(edgel_canny_volume(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "NaN");
    q = p;
    q.struct_size = 8;
    CHECK_STATUS(edgel_canny_volume(ctx, &q, &src, &dst, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "params");
    CHECK_STATUS(edgel_canny_volume(ctx, NULL, &src, &dst, NULL), EDGEL_ERROR_NULL_ARGUMENT,
                 "params");

    edgel_volume bad = edgel_volume_host(s16, W, H, D, EDGEL_S16);
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_UNSUPPORTED,
                 "pixel type");
    bad = edgel_volume_host(out, W, H, D, EDGEL_U16);
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &src, &bad, NULL), EDGEL_ERROR_UNSUPPORTED, "edges");
    bad = edgel_volume_host(out8, W, H, D - 1, EDGEL_U8);
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &src, &bad, NULL), EDGEL_ERROR_INVALID_SIZE, "edges");
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &src, NULL, NULL), EDGEL_ERROR_NULL_ARGUMENT, "edges");
    CHECK_STATUS(edgel_canny_volume(ctx, &p, NULL, &dst, NULL), EDGEL_ERROR_NULL_ARGUMENT, "input");
    bad = src;
    bad.data = NULL;
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_NULL_ARGUMENT, "data");
    bad = src;
    bad.depth = 0;
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_SIZE, "1x1x1");
    bad = src;
    bad.width = bad.height = bad.depth = 40000; /* 6.4e13 voxels */
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_SIZE,
                 "maximum");
    bad = src;
    bad.pitch = W * 4 - 4;
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_PITCH,
                 "less than a row");
    bad = src;
    bad.slice_pitch = bad.pitch * H - 4;
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_PITCH,
                 "less than a slice");
    bad = src;
    bad.slice_pitch = SIZE_MAX / 4 / 4 * 4;
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_PITCH,
                 "overflows");
    bad = src;
    bad.slice_pitch += 2; /* not a whole number of floats */
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_INVALID_PITCH,
                 "multiples of the voxel size");
    bad = src;
    bad.memory = EDGEL_MEMORY_DEVICE;
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &bad, &dst, NULL), EDGEL_ERROR_UNSUPPORTED,
                 "CUDA context");
    bad = edgel_volume_host(in, W, H, D, EDGEL_U8); /* the edges inside the input */
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &src, &bad, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "overlap");
    edgel_volume stage = edgel_volume_host(out, W, H, D, EDGEL_U8);
    edgel_volume_canny_stages st = {&stage, NULL};
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &src, &dst, &st), EDGEL_ERROR_UNSUPPORTED,
                 "smoothed");
    stage = edgel_volume_host(out, W, H, D, EDGEL_F32);
    edgel_volume_canny_stages both = {&stage, &stage};
    CHECK_STATUS(edgel_canny_volume(ctx, &p, &src, &dst, &both), EDGEL_ERROR_INVALID_ARGUMENT,
                 "suppressed");
    int untouched = 1;
    for (size_t i = 0; i < sizeof out8; i++)
        untouched &= out8[i] == 0x5A;
    CHECK(untouched); /* nothing written by a refused call */
}

/* A volume one slice deep, with no smoothing along z, is ITK's 2-D filter: every z term is an
 * exact zero and the 26-neighbourhood within one slice is the 8-neighbourhood. */
static void test_one_slice_is_the_2d_preset(edgel_context *ctx)
{
    enum { IW = 61, IH = 47 };
    static uint8_t img[IW * IH], e2[IW * IH], e3[IW * IH];
    static float s2[IW * IH], s3[IW * IH], g2[IW * IH], g3[IW * IH];
    for (int i = 0; i < IW * IH; i++)
        img[i] = (uint8_t)((i % IW > 30 ? 140 : 60) + next_random() % 40);
    const double variances[] = {0.0, 1.0, 4.0, 40.0};
    for (int k = 0; k < 4; k++) {
        edgel_canny_params p2;
        edgel_canny_params_default(&p2);
        p2.preset = EDGEL_PRESET_ITK;
        p2.variance = variances[k], p2.high_threshold = 12, p2.low_threshold = 5;
        edgel_image src2 = edgel_image_host(img, IW, IH, EDGEL_U8, 1);
        edgel_image dst2 = edgel_image_host(e2, IW, IH, EDGEL_U8, 1);
        edgel_image sup2 = edgel_image_host(s2, IW, IH, EDGEL_F32, 1);
        edgel_image smo2 = edgel_image_host(g2, IW, IH, EDGEL_F32, 1);
        edgel_canny_stages st2 = {0};
        st2.suppressed = &sup2, st2.smoothed = &smo2;
        CHECK(edgel_canny(ctx, &p2, &src2, &dst2, &st2) == EDGEL_OK);

        edgel_volume_canny_params p3 = volume_params(variances[k], 12, 5);
        p3.variance[2] = 0.0;
        p3.spacing[2] = 3.0; /* no effect without smoothing along z */
        edgel_volume src3 = edgel_volume_host(img, IW, IH, 1, EDGEL_U8);
        edgel_volume dst3 = edgel_volume_host(e3, IW, IH, 1, EDGEL_U8);
        edgel_volume sup3 = edgel_volume_host(s3, IW, IH, 1, EDGEL_F32);
        edgel_volume smo3 = edgel_volume_host(g3, IW, IH, 1, EDGEL_F32);
        const edgel_volume_canny_stages st3 = {&smo3, &sup3};
        CHECK(edgel_canny_volume(ctx, &p3, &src3, &dst3, &st3) == EDGEL_OK);
        CHECK(!memcmp(e2, e3, sizeof e2) && !memcmp(s2, s3, sizeof s2) &&
              !memcmp(g2, g3, sizeof g2));
        int edges = 0;
        for (int i = 0; i < IW * IH; i++)
            edges += e3[i] == 255;
        CHECK(edges > 20 || variances[k] > 10); /* (wide blurs flatten the step below 12) */
    }
}

static void test_thread_counts_and_pitches(void)
{
    enum { PW = W + 5, PH = H + 3 };
    static float in[PW * PH * D];
    static uint8_t want[W * H * D], got[W * H * D];
    for (int i = 0; i < PW * PH * D; i++)
        in[i] = (float)(next_random() % 200) + (i % PW > 12 ? 50.0f : 0.0f);
    edgel_volume src = {in, W, H, D, PW * sizeof(float), PW * PH * sizeof(float), EDGEL_F32,
                        EDGEL_MEMORY_HOST};
    edgel_volume_canny_params p = volume_params(1.5, 20, 8);
    p.spacing[2] = 2.0, p.variance[0] = 0.7;
    for (int threads = 1; threads <= 8; threads++) {
        edgel_context *t = NULL;
        edgel_context_options o;
        edgel_context_options_default(&o);
        o.threads = threads;
        CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &t) == EDGEL_OK);
        edgel_volume dst = edgel_volume_host(threads == 1 ? want : got, W, H, D, EDGEL_U8);
        CHECK(edgel_canny_volume(t, &p, &src, &dst, NULL) == EDGEL_OK);
        if (threads > 1)
            CHECK(!memcmp(want, got, sizeof want));
        edgel_context_destroy(t);
    }
}

int main(void)
{
    edgel_context *ctx = NULL;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) == EDGEL_OK);
    edgel_volume_canny_params p;
    edgel_volume_canny_params_default(&p);
    CHECK(p.struct_size == sizeof p && p.variance[2] == 0.0 && p.maximum_error[1] == 0.01 &&
          p.spacing[0] == 1.0 && p.upper_threshold == 0.0);
    test_refusals(ctx);
    test_one_slice_is_the_2d_preset(ctx);
    test_thread_counts_and_pitches();
    edgel_context_destroy(ctx);
    return check_summary("volume");
}
