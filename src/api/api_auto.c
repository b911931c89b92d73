/*
 * Thresholds chosen from the image (edgel_canny_auto_thresholds): the rules run on the image
 * Canny reads, which the backend's smoothed stage gives (gray conversion and blur included),
 * from a histogram, as the references compute them.
 */
#include "api/context.h"
#include "core/image.h"
#include "core/params.h"
#include "core/status.h"

#include <float.h>
#include <stdlib.h>

/* cv2.threshold's Otsu value (OpenCV's getThreshVal_Otsu_8u, in its order of operations). */
static double otsu(const int64_t h[256], int64_t n)
{
    const double scale = 1.0 / (double)n;
    double mu = 0;
    for (int i = 0; i < 256; i++)
        mu += i * (double)h[i];
    mu *= scale;
    double mu1 = 0, q1 = 0, max_sigma = 0, max_val = 0;
    for (int i = 0; i < 256; i++) {
        const double p_i = (double)h[i] * scale;
        mu1 *= q1;
        q1 += p_i;
        const double q2 = 1. - q1;
        if ((q1 < q2 ? q1 : q2) < FLT_EPSILON || (q1 > q2 ? q1 : q2) > 1. - FLT_EPSILON)
            continue;
        mu1 = (mu1 + i * p_i) / q1;
        const double mu2 = (mu - q1 * mu1) / q2;
        const double sigma = q1 * q2 * (mu1 - mu2) * (mu1 - mu2);
        if (sigma > max_sigma) {
            max_sigma = sigma;
            max_val = i;
        }
    }
    return max_val;
}

/* The k-th smallest value (from 0) of a histogram. */
static int kth(const int64_t h[256], int64_t k)
{
    int v = 0;
    for (int64_t seen = h[0]; seen <= k; seen += h[++v]) {
    }
    return v;
}

/* numpy.median: the middle value, or the mean of the two middle ones. */
static double median(const int64_t h[256], int64_t n)
{
    return n % 2 ? kth(h, n / 2) : (kth(h, n / 2 - 1) + kth(h, n / 2)) / 2.0;
}

static edgel_status auto_held(edgel_context *ctx, const edgel_canny_params *params,
                              const edgel_image *src, edgel_auto_rule rule, double *low,
                              double *high)
{
    if (!params || !src || !low || !high)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "params, src, low or high is NULL");
    EDGEL_TRY(edgel_check_canny_params(params, 0));
    if (params->preset != EDGEL_PRESET_OPENCV)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "automatic thresholds are the opencv preset's");
    if (rule != EDGEL_AUTO_OTSU && rule != EDGEL_AUTO_MEDIAN)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "unknown automatic threshold rule %d",
                          (int)rule);
    EDGEL_TRY(edgel_check_image(src, "input", EDGEL_U8, (1u << 1) | (1u << 3) | (1u << 4),
                                EDGEL_MEMORY_HOST));
    if (src->channels > 1 && params->gray == EDGEL_GRAY_NONE)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "automatic thresholds of a colour image need "
                          "a gray conversion (params.gray), as cv2.threshold takes one channel");
    const int w = src->width, h = src->height;
    const size_t n = (size_t)w * h;
    uint8_t *smoothed = malloc(n), *edges = malloc(n);
    edgel_status st = smoothed && edges ? EDGEL_OK
                                        : edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY,
                                                     "out of memory for a %dx%d image", w, h);
    if (st == EDGEL_OK) {
        const edgel_image sv = edgel_image_host(smoothed, w, h, EDGEL_U8, 1);
        const edgel_image ev = edgel_image_host(edges, w, h, EDGEL_U8, 1);
        edgel_canny_stages stages = {0};
        stages.smoothed = &sv;
        st = ctx->ops->canny(ctx->state, params, src, &ev, 1, &stages);
    }
    if (st == EDGEL_OK) {
        int64_t hist[256] = {0};
        for (size_t i = 0; i < n; i++)
            hist[smoothed[i]]++;
        if (rule == EDGEL_AUTO_OTSU) {
            *high = otsu(hist, (int64_t)n);
            *low = *high / 2;
        } else {
            const double v = median(hist, (int64_t)n), l = (1.0 - 0.33) * v, u = (1.0 + 0.33) * v;
            *low = (double)(int)(l > 0 ? l : 0);
            *high = (double)(int)(u < 255 ? u : 255);
        }
    }
    free(smoothed);
    free(edges);
    return st;
}

edgel_status edgel_canny_auto_thresholds(edgel_context *ctx, const edgel_canny_params *params,
                                         const edgel_image *src, edgel_auto_rule rule,
                                         double *low, double *high)
{
    EDGEL_WITH_CONTEXT(ctx, auto_held(ctx, params, src, rule, low, high));
}
