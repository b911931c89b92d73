/* Parameter defaults and checks, OpenCV's threshold rules and Gaussian kernels. */
#include "core/params.h"
#include "core/grown.h"
#include "core/status.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The size of the struct's first version (0.3.0): the least a caller's struct_size may be. */
#define CANNY_PARAMS_FIRST_SIZE (offsetof(edgel_canny_params, maximum_error) + sizeof(double))

static void canny_defaults(edgel_canny_params *params)
{
    memset(params, 0, sizeof *params);
    params->struct_size = sizeof *params;
    params->preset = EDGEL_PRESET_OPENCV;
    params->low_threshold = 50.0;
    params->high_threshold = 150.0;
    params->aperture = 3;
    params->l2_gradient = 0;
    params->gray = EDGEL_GRAY_NONE;
    params->blur = EDGEL_BLUR_NONE;
    params->blur_sigma = 0.0;
    params->blur_ksize = 0;
    params->variance = 0.0;
    params->maximum_error = 0.01;
    params->sigma = 1.0;
    params->mode = EDGEL_BORDER_CONSTANT;
    params->cval = 0.0;
    params->use_quantiles = 0;
    params->gaussian_weights = NULL;
}

void edgel_canny_params_init(edgel_canny_params *params, size_t struct_size)
{
    edgel_canny_params full;
    canny_defaults(&full);
    edgel_grown_init(params, struct_size, &full, sizeof full);
}

edgel_status edgel_canny_params_read(const edgel_canny_params *in, edgel_canny_params *out)
{
    canny_defaults(out);
    return edgel_grown_read(in, out, sizeof *out, CANNY_PARAMS_FIRST_SIZE, "params",
                            "edgel_canny_params_default");
}

static edgel_status check_threshold(double t, const char *name)
{
    if (isnan(t))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "%s is NaN", name);
    if (!(fabs(t) <= EDGEL_MAX_ABS_THRESHOLD))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "%s %g is outside [-1e9, 1e9]", name, t);
    return EDGEL_OK;
}

/* The skimage preset's values that do not depend on the image (the thresholds' order does:
 * edgel_skimage_thresholds). NaN thresholds are skimage's None. */
static edgel_status check_skimage_params(const edgel_canny_params *params)
{
    if (!(params->sigma >= 0 && params->sigma <= EDGEL_SKIMAGE_MAX_SIGMA))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sigma %g must be in [0, %g]",
                          params->sigma, EDGEL_SKIMAGE_MAX_SIGMA);
    if (params->mode < EDGEL_BORDER_CONSTANT || params->mode > EDGEL_BORDER_WRAP)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "unknown mode %d", (int)params->mode);
    if (!isfinite(params->cval))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "cval must be finite");
    if (params->use_quantiles != 0 && params->use_quantiles != 1)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "use_quantiles must be 0 or 1");
    const double t[2] = {params->low_threshold, params->high_threshold};
    for (int i = 0; i < 2; i++)
        if (params->use_quantiles && !isnan(t[i]) && !(t[i] >= 0 && t[i] <= 1))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "quantile thresholds must be between 0 and 1 (%s is %g)",
                              i ? "high" : "low", t[i]);
    const double *w = params->gaussian_weights;
    const int r = edgel_skimage_radius(params->sigma);
    for (int k = 1; w && k <= r; k++)
        if (!(fabs(w[r + k] - w[r - k]) <= DBL_EPSILON))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "gaussian_weights are not symmetric (weights %d and %d differ)",
                              r - k, r + k);
    return EDGEL_OK;
}

int edgel_skimage_radius(double sigma)
{
    return sigma > 1e-15 ? (int)(4.0 * sigma + 0.5) : 0;
}

double edgel_skimage_type_max(edgel_pixel_type type)
{
    switch (type) {
    case EDGEL_U8: return 255;
    case EDGEL_U16: return 65535;
    case EDGEL_S16: return 32767;
    case EDGEL_S32: return 2147483647;
    default: return 1; /* floats and bool */
    }
}

/* numpy's pairwise summation (np.sum of a contiguous float64 array). */
static double pairwise_sum(const double *a, size_t n)
{
    if (n < 8) {
        double res = 0.;
        for (size_t i = 0; i < n; i++)
            res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        size_t i;
        for (i = 0; i < 8; i++)
            r[i] = a[i];
        for (i = 8; i < n - n % 8; i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += a[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

edgel_status edgel_skimage_weights(const edgel_canny_params *params, double *w)
{
    const int r = edgel_skimage_radius(params->sigma);
    if (r == 0) { /* scipy copies (sigma <= 1e-15) or multiplies by 1 */
        w[0] = 1.0;
        return EDGEL_OK;
    }
    if (params->gaussian_weights) {
        for (int k = 0; k <= r; k++)
            w[k] = params->gaussian_weights[r + k];
        return EDGEL_OK;
    }
    double *phi = malloc(sizeof(double) * (size_t)(2 * r + 1));
    if (!phi)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a Gaussian kernel");
    /* scipy's _gaussian_kernel1d: exp(-0.5 / sigma^2 * x^2) over the sum */
    const double c = -0.5 / (params->sigma * params->sigma);
    for (int x = -r; x <= r; x++)
        phi[x + r] = exp(c * (double)((int64_t)x * x));
    const double sum = pairwise_sum(phi, (size_t)(2 * r + 1));
    for (int k = 0; k <= r; k++)
        w[k] = phi[r + k] / sum;
    free(phi);
    return EDGEL_OK;
}

edgel_status edgel_skimage_thresholds(const edgel_canny_params *params, edgel_pixel_type type,
                                      double *low, double *high)
{
    const double max = edgel_skimage_type_max(type);
    const double l = params->low_threshold, h = params->high_threshold;
    *low = isnan(l) ? 0.1 : params->use_quantiles ? l : l / max;
    *high = isnan(h) ? 0.2 : params->use_quantiles ? h : h / max;
    if (*high < *low) /* said in the caller's units (the defaults: the type's 10% and 20%) */
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "the high threshold (%g%s) is below the low threshold (%g%s)",
                          isnan(h) ? 0.2 * max : h, isnan(h) ? ", the default" : "",
                          isnan(l) ? 0.1 * max : l, isnan(l) ? ", the default" : "");
    return EDGEL_OK;
}

edgel_status edgel_resolve_gaussian(int32_t ksize, double sigma, int32_t *ksize_out)
{
    if (isnan(sigma) || isinf(sigma))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "blur sigma must be finite");
    if (ksize < 0 || (ksize > 0 && (ksize % 2 == 0 || ksize > EDGEL_MAX_BLUR_KSIZE)))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "blur kernel size %d must be 0 (from sigma) or odd in 1..%d", (int)ksize,
                          EDGEL_MAX_BLUR_KSIZE);
    if (ksize == 0) {
        if (!(sigma > 0))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "blur needs a kernel size or a positive sigma");
        double side = sigma * 3 * 2 + 1; /* OpenCV's rule for u8 images */
        if (side > EDGEL_MAX_BLUR_KSIZE)
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "blur sigma %g gives a kernel wider than %d", sigma,
                              EDGEL_MAX_BLUR_KSIZE);
        ksize = (int32_t)lrint(side) | 1; /* cvRound: round half to even */
    }
    *ksize_out = ksize;
    return EDGEL_OK;
}

edgel_status edgel_check_canny_params(const edgel_canny_params *params, int from_gradients)
{
    if (!params)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "params is NULL");
    if (params->preset != EDGEL_PRESET_OPENCV && params->preset != EDGEL_PRESET_ITK &&
        params->preset != EDGEL_PRESET_SKIMAGE)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "unknown preset %d", (int)params->preset);
    if (params->preset == EDGEL_PRESET_SKIMAGE)
        return from_gradients ? edgel_fail(EDGEL_ERROR_UNSUPPORTED, "Canny from gradients exists "
                                           "for the opencv preset only")
                              : check_skimage_params(params);
    EDGEL_TRY(check_threshold(params->low_threshold, "low threshold"));
    EDGEL_TRY(check_threshold(params->high_threshold, "high threshold"));
    if (params->preset == EDGEL_PRESET_ITK) {
        if (from_gradients)
            return edgel_fail(EDGEL_ERROR_UNSUPPORTED,
                              "Canny from gradients exists for the opencv preset only");
        if (!(params->variance >= 0 && params->variance <= EDGEL_ITK_MAX_VARIANCE))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "variance %g must be in [0, %g] (ITK's Bessel kernel overflows "
                              "beyond)", params->variance, EDGEL_ITK_MAX_VARIANCE);
        if (!(params->maximum_error > 0 && params->maximum_error < 1))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "maximum error %g must be in (0, 1) as in ITK",
                              params->maximum_error);
        return EDGEL_OK;
    }
    if (params->l2_gradient != 0 && params->l2_gradient != 1)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "l2_gradient must be 0 or 1");
    if (from_gradients)
        return EDGEL_OK;
    int a = params->aperture;
    if (a != 3 && a != 5 && a != 7 && a != EDGEL_APERTURE_SCHARR)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "aperture %d must be 3, 5, 7 or -1 (Scharr)", a);
    if (a == EDGEL_APERTURE_SCHARR && !params->l2_gradient)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED,
                          "the Scharr aperture needs the L2 gradient (as in OpenCV)");
    if (params->gray != EDGEL_GRAY_NONE && params->gray != EDGEL_GRAY_RGB &&
        params->gray != EDGEL_GRAY_BGR)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "unknown gray mode %d", (int)params->gray);
    switch (params->blur) {
    case EDGEL_BLUR_NONE:
    case EDGEL_BLUR_5X5_159:
        return EDGEL_OK;
    case EDGEL_BLUR_GAUSSIAN: {
        int32_t k;
        return edgel_resolve_gaussian(params->blur_ksize, params->blur_sigma, &k);
    }
    }
    return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "unknown blur mode %d", (int)params->blur);
}

edgel_int_thresholds edgel_opencv_thresholds(const edgel_canny_params *params, int from_gradients)
{
    double low = params->low_threshold, high = params->high_threshold;
    if (!from_gradients && params->aperture == 7) {
        low /= 16;
        high /= 16;
    }
    if (low > high) {
        double t = low;
        low = high;
        high = t;
    }
    if (params->l2_gradient) {
        low = fmin(32767.0, low);
        high = fmin(32767.0, high);
        if (low > 0)
            low *= low;
        if (high > 0)
            high *= high;
    }
    edgel_int_thresholds t = {(int32_t)floor(low), (int32_t)floor(high)};
    return t;
}

/* Follows getGaussianKernelBitExact and getGaussianKernelFixedPoint_ED of OpenCV's
 * smooth.dispatch.cpp operation by operation (IEEE double, fused multiply-add where OpenCV
 * uses mulAdd), so the 8-bit fixed-point taps come out the same. */
void edgel_gaussian_kernel_q8(int n, double sigma, uint16_t *kernel)
{
    static const double small[5][9] = {
        {1.0},
        {0.25, 0.5, 0.25},
        {0.0625, 0.25, 0.375, 0.25, 0.0625},
        {0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125},
        {4 / 256., 13 / 256., 30 / 256., 51 / 256., 60 / 256., 51 / 256., 30 / 256., 13 / 256.,
         4 / 256.}};
    double k[EDGEL_MAX_BLUR_KSIZE];
    const int half = (n - 1) / 2;
    if (sigma <= 0 && n <= 9) {
        for (int i = 0; i < n; i++)
            k[i] = small[half][i];
    } else {
        double values[EDGEL_MAX_BLUR_KSIZE / 2 + 1];
        double s = sigma > 0 ? sigma : fma((double)n, 0.15, 0.35);
        double scale2 = -0.125 / (s * s);
        double sum = 0;
        for (int i = 0, x = 1 - n; i < half; i++, x += 2) {
            values[i] = exp((double)(x * x) * scale2);
            sum += values[i];
        }
        sum *= 2;
        sum += 1;
        double mul = 1 / sum;
        for (int i = 0; i < half; i++)
            k[i] = k[n - 1 - i] = values[i] * mul;
        k[half] = mul;
    }
    double err = 0;
    int64_t total = 0;
    for (int i = 0; i < half; i++) {
        double adj = k[i] * 256.0 + err;
        int64_t v = (int64_t)lrint(adj); /* cvRound */
        err = adj - (double)v;
        kernel[i] = kernel[n - 1 - i] = (uint16_t)v;
        total += v;
    }
    kernel[half] = (uint16_t)(256 - 2 * total);
}

edgel_status edgel_canny_params_check(const edgel_canny_params *params)
{
    edgel_canny_params p;
    EDGEL_TRY(edgel_canny_params_read(params, &p));
    return edgel_check_canny_params(&p, 0);
}
