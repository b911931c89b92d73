/*
 * Thresholds chosen from the image (edgel_canny_auto_thresholds): the rules run on the image
 * Canny reads, which the backend's smoothed stage gives (gray conversion and blur included),
 * from a histogram, as the references compute them.
 */
#include "api/context.h"
#include "core/auto_math.h"
#include "core/image.h"
#include "core/params.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>

/* One stage of the backend's pipeline on src into a new buffer (*out, freed by the caller):
 * the image Canny reads (u8) or, with `magnitude`, the gradient magnitude (s32). */
static edgel_status run_stage(edgel_context *ctx, const edgel_canny_params *params,
                              const edgel_image *src, int magnitude, void **out)
{
    const int w = src->width, h = src->height;
    const size_t n = (size_t)w * h;
    void *stage = malloc(n * (magnitude ? sizeof(int32_t) : 1));
    uint8_t *edges = malloc(n);
    edgel_status st = stage && edges ? EDGEL_OK
                                     : edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY,
                                                  "out of memory for a %dx%d image", w, h);
    if (st == EDGEL_OK) {
        const edgel_image sv = edgel_image_host(stage, w, h, magnitude ? EDGEL_S32 : EDGEL_U8, 1);
        const edgel_image ev = edgel_image_host(edges, w, h, EDGEL_U8, 1);
        edgel_canny_stages stages = {0};
        *(magnitude ? &stages.magnitude : &stages.smoothed) = &sv;
        st = ctx->ops->canny(ctx->state, params, src, &ev, 1, &stages);
    }
    free(edges);
    if (st != EDGEL_OK) {
        free(stage);
        stage = NULL;
    }
    *out = stage;
    return st;
}

static int by_value(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The quantile thresholds (params' thresholds in [0, 1]) of the magnitude stage. */
static edgel_status quantiles(edgel_context *ctx, const edgel_canny_params *params,
                              const edgel_image *src, double *low, double *high)
{
    const double ql = params->low_threshold, qh = params->high_threshold;
    if (!(ql >= 0 && ql <= 1 && qh >= 0 && qh <= 1))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "quantiles %g and %g must be in [0, 1]", ql, qh);
    const size_t n = (size_t)src->width * src->height;
    void *stage;
    EDGEL_TRY(run_stage(ctx, params, src, 1, &stage));
    int32_t *mag = stage;
    qsort(mag, n, sizeof *mag, by_value);
    /* aperture 7: OpenCV's magnitude is of gradients / 16, compared with thresholds / 16 */
    const double unit = params->aperture == 7 ? 16 : 1;
    *low = unit * edgel_percentile(mag, n, ql, params->l2_gradient);
    *high = unit * edgel_percentile(mag, n, qh, params->l2_gradient);
    free(mag);
    return EDGEL_OK;
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
    if (rule != EDGEL_AUTO_OTSU && rule != EDGEL_AUTO_MEDIAN && rule != EDGEL_AUTO_QUANTILES)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "unknown automatic threshold rule %d",
                          (int)rule);
    EDGEL_TRY(edgel_check_image(src, "input", EDGEL_U8, (1u << 1) | (1u << 3) | (1u << 4),
                                EDGEL_MEMORY_HOST));
    if (rule == EDGEL_AUTO_QUANTILES)
        return quantiles(ctx, params, src, low, high);
    if (src->channels > 1 && params->gray == EDGEL_GRAY_NONE)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "automatic thresholds of a colour image need "
                          "a gray conversion (params.gray), as cv2.threshold takes one channel");
    const size_t n = (size_t)src->width * src->height;
    void *stage;
    EDGEL_TRY(run_stage(ctx, params, src, 0, &stage));
    const uint8_t *smoothed = stage;
    int64_t hist[256] = {0};
    for (size_t i = 0; i < n; i++)
        hist[smoothed[i]]++;
    free(stage);
    if (rule == EDGEL_AUTO_OTSU) {
        *high = edgel_otsu(hist, (int64_t)n);
        *low = *high / 2;
    } else {
        const double v = edgel_hist_median(hist, (int64_t)n);
        const double l = (1.0 - 0.33) * v, u = (1.0 + 0.33) * v;
        *low = (double)(int)(l > 0 ? l : 0);
        *high = (double)(int)(u < 255 ? u : 255);
    }
    return EDGEL_OK;
}

edgel_status edgel_canny_auto_thresholds(edgel_context *ctx, const edgel_canny_params *params,
                                         const edgel_image *src, edgel_auto_rule rule,
                                         double *low, double *high)
{
    edgel_canny_params p;
    EDGEL_TRY(edgel_canny_params_read(params, &p));
    EDGEL_WITH_CONTEXT(ctx, auto_held(ctx, &p, src, rule, low, high));
}
