/* The convolution engine's parameters, kernel normalisation and method choice. */
#include "core/backend.h"
#include "core/filter.h"
#include "core/grown.h"
#include "core/params.h"
#include "core/status.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The size of the struct's first version (0.3.0). */
#define FILTER_PARAMS_FIRST_SIZE (offsetof(edgel_filter_params, convolve) + sizeof(int32_t))

static void filter_defaults(edgel_filter_params *params)
{
    memset(params, 0, sizeof *params);
    params->struct_size = sizeof *params;
    params->method = EDGEL_CONV_AUTO;
    params->border = EDGEL_BORDER_REFLECT_101;
    params->border_value = 0.0;
    params->anchor_x = -1;
    params->anchor_y = -1;
    params->convolve = 0;
}

void edgel_filter_params_init(edgel_filter_params *params, size_t struct_size)
{
    edgel_filter_params full;
    filter_defaults(&full);
    edgel_grown_init(params, struct_size, &full, sizeof full);
}

edgel_status edgel_filter_params_read(const edgel_filter_params *in, edgel_filter_params *out)
{
    filter_defaults(out);
    return edgel_grown_read(in, out, sizeof *out, FILTER_PARAMS_FIRST_SIZE, "params",
                            "edgel_filter_params_default");
}

void edgel_filter_plan_free(edgel_filter_plan *plan)
{
    free(plan->taps);
    free(plan->kx);
    free(plan->ky);
    plan->taps = plan->kx = plan->ky = NULL;
}

int edgel_smooth_size(int n, int largest, int even)
{
    static const int primes[] = {2, 3, 5, 7};
    for (int m = n > 2 ? n : 2;; m++) {
        int r = m;
        for (int i = 0; i < 4 && primes[i] <= largest; i++)
            while (r % primes[i] == 0)
                r /= primes[i];
        if (r == 1 && (!even || m % 2 == 0))
            return m;
    }
}

/* kx, ky with taps = ky * kx within float precision, else 0. */
static int separate(edgel_filter_plan *p)
{
    const int kw = p->kw, kh = p->kh;
    int best = 0;
    for (int i = 1; i < kw * kh; i++)
        if (fabsf(p->taps[i]) > fabsf(p->taps[best]))
            best = i;
    const float peak = p->taps[best];
    const int r0 = best / kw, c0 = best % kw;
    float *kx = malloc(sizeof(float) * (size_t)kw), *ky = malloc(sizeof(float) * (size_t)kh);
    if (!kx || !ky) {
        free(kx), free(ky);
        return 0;
    }
    for (int i = 0; i < kw; i++)
        kx[i] = p->taps[r0 * kw + i];
    for (int j = 0; j < kh; j++)
        ky[j] = peak != 0.0f ? p->taps[j * kw + c0] / peak : 0.0f;
    for (int j = 0; j < kh; j++)
        for (int i = 0; i < kw; i++)
            if (fabsf(p->taps[j * kw + i] - ky[j] * kx[i]) > 1e-6f * fabsf(peak)) {
                free(kx), free(ky);
                return 0;
            }
    p->kx = kx;
    p->ky = ky;
    return 1;
}

/* The factors as given (two 1-D kernels), reversed for convolution; 0: out of memory. */
static int given_factors(edgel_filter_plan *p, const float *kx, const float *ky, int flip)
{
    p->kx = malloc(sizeof(float) * (size_t)p->kw);
    p->ky = malloc(sizeof(float) * (size_t)p->kh);
    if (!p->kx || !p->ky) {
        free(p->kx), free(p->ky);
        p->kx = p->ky = NULL;
        return 0;
    }
    for (int i = 0; i < p->kw; i++)
        p->kx[i] = kx[flip ? p->kw - 1 - i : i];
    for (int j = 0; j < p->kh; j++)
        p->ky[j] = ky[flip ? p->kh - 1 - j : j];
    return 1;
}

/* qx, qy from factors fx, fy that are multiples of 1/256, non-negative and each summing to
 * at most 1, whose products are exactly the taps; 0 where they are not. */
static int try_fixed(edgel_filter_plan *p, const float *fx, const float *fy)
{
    int sx = 0, sy = 0;
    for (int i = 0; i < p->kw + p->kh; i++) {
        const float v = (i < p->kw ? fx[i] : fy[i - p->kw]) * 256.0f;
        if (!(v >= 0.0f && v <= 256.0f && v == floorf(v)))
            return 0;
        if (i < p->kw)
            sx += (int)(p->qx[i] = (uint16_t)v);
        else
            sy += (int)(p->qy[i - p->kw] = (uint16_t)v);
    }
    if (sx > 256 || sy > 256)
        return 0;
    for (int j = 0; j < p->kh; j++)
        for (int i = 0; i < p->kw; i++)
            if ((float)(p->qy[j] * p->qx[i]) / 65536.0f != p->taps[j * p->kw + i])
                return 0;
    return 1;
}

/* Whether a u8 -> u8 separable plan can run in fixed point (see edgel_fixed_point_round):
 * its factors as given, or (a kernel view, whose factors separate() scaled) its column and
 * row sums, which are the factors when each sums to 1 (normalised smoothing kernels). */
static int fixed_factors(edgel_filter_plan *p)
{
    if (p->in_type != EDGEL_U8 || p->out_type != EDGEL_U8 || !p->kx)
        return 0;
    if (try_fixed(p, p->kx, p->ky))
        return 1;
    float cols[EDGEL_MAX_KERNEL_SIZE] = {0}, rows[EDGEL_MAX_KERNEL_SIZE] = {0};
    for (int j = 0; j < p->kh; j++)
        for (int i = 0; i < p->kw; i++) {
            cols[i] += p->taps[j * p->kw + i];
            rows[j] += p->taps[j * p->kw + i];
        }
    return try_fixed(p, cols, rows);
}

void edgel_filter_plan_gaussian(int w, int h, int cn, int ksize, double sigma,
                                edgel_filter_plan *p)
{
    memset(p, 0, sizeof *p);
    p->w = w, p->h = h, p->cn = cn;
    p->in_type = p->out_type = EDGEL_U8;
    p->kw = w == 1 ? 1 : ksize; /* OpenCV drops the kernel along a side of length 1 */
    p->kh = h == 1 ? 1 : ksize;
    p->ax = p->kw / 2, p->ay = p->kh / 2;
    p->nonzero = p->kw * p->kh;
    p->border = EDGEL_BORDER_REFLECT_101;
    p->method = EDGEL_CONV_SEPARABLE;
    p->fixed_point = p->round_half_up = 1;
    edgel_gaussian_kernel_q8(p->kw, sigma, p->qx);
    edgel_gaussian_kernel_q8(p->kh, sigma, p->qy);
}

/* The method for `auto`: rules of exactness first, then the backend's cost model. */
static edgel_conv_method choose(edgel_filter_plan *p, const edgel_backend_ops *ops, void *state)
{
    /* Integers reach the exact value, so OpenCV's bytes, faster than any float method. */
    if (p->fixed_point)
        return EDGEL_CONV_SEPARABLE;
    /* u8 -> u8: OpenCV's direct arithmetic, bit for bit, wherever OpenCV filters directly. */
    if (p->in_type == EDGEL_U8 && p->out_type == EDGEL_U8 && p->nonzero < EDGEL_OPENCV_DFT_TAPS)
        return EDGEL_CONV_DIRECT;
    edgel_conv_method best = EDGEL_CONV_DIRECT;
    double cost = ops->filter_cost(state, p, EDGEL_CONV_DIRECT, INFINITY);
    if (p->kx) {
        const double separable = ops->filter_cost(state, p, EDGEL_CONV_SEPARABLE, cost);
        if (separable < cost) {
            best = EDGEL_CONV_SEPARABLE;
            cost = separable;
        }
    }
    if (ops->has_fft(state) && ops->filter_cost(state, p, EDGEL_CONV_FFT, cost) < cost)
        best = EDGEL_CONV_FFT;
    return best;
}

static edgel_status check_kernel_size(int kw, int kh)
{
    if (kw < 1 || kh < 1 || kw > EDGEL_MAX_KERNEL_SIZE || kh > EDGEL_MAX_KERNEL_SIZE)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "kernel %dx%d: each side must be 1..%d", kw, kh,
                          EDGEL_MAX_KERNEL_SIZE);
    return EDGEL_OK;
}

/* The taps as given, row-major, from a view or the outer product of kx and ky. */
static edgel_status load_taps(edgel_filter_plan *p, const edgel_image *kernel, const float *kx,
                              const float *ky)
{
    p->taps = malloc(sizeof(float) * (size_t)p->kw * (size_t)p->kh);
    if (!p->taps)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the kernel");
    for (int j = 0; j < p->kh; j++)
        for (int i = 0; i < p->kw; i++) {
            const float v = kernel ? ((const float *)((const unsigned char *)kernel->data +
                                                      (size_t)j * kernel->pitch))[i]
                                   : ky[j] * kx[i];
            if (!isfinite(v) || (!kernel && (!isfinite(kx[i]) || !isfinite(ky[j]))))
                return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                                  "kernel value at (%d, %d) is not finite", i, j);
            p->taps[j * p->kw + i] = v;
        }
    return EDGEL_OK;
}

edgel_status edgel_filter_params_check(const edgel_filter_params *in)
{
    edgel_filter_params full;
    EDGEL_TRY(edgel_filter_params_read(in, &full));
    const edgel_filter_params *params = &full;
    if ((unsigned)params->method > EDGEL_CONV_FFT)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "unknown method %d", (int)params->method);
    if ((unsigned)params->border > EDGEL_BORDER_WRAP)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "unknown border %d", (int)params->border);
    if (!isfinite(params->border_value) || fabs(params->border_value) > 3.4e38)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "border value %g must be a finite float (|v| <= 3.4e38)",
                          params->border_value);
    if (params->convolve != 0 && params->convolve != 1)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "convolve must be 0 or 1");
    return EDGEL_OK;
}

edgel_status edgel_filter_plan_make(const edgel_filter_params *params, const edgel_image *src,
                                    const edgel_image *dst, const edgel_image *kernel,
                                    const float *kx, int kw, const float *ky, int kh,
                                    const edgel_backend_ops *ops, void *state,
                                    edgel_filter_plan *plan)
{
    const int fft_ok = ops->has_fft(state);
    memset(plan, 0, sizeof *plan);
    EDGEL_TRY(edgel_filter_params_check(params));
    if (kernel) {
        kw = kernel->width;
        kh = kernel->height;
    } else if (!kx || !ky) {
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "kx or ky is NULL");
    }
    EDGEL_TRY(check_kernel_size(kw, kh));
    if (params->anchor_x < -1 || params->anchor_x >= kw || params->anchor_y < -1 ||
        params->anchor_y >= kh)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "anchor (%d, %d) must lie in the %dx%d kernel (or be -1: the centre)",
                          (int)params->anchor_x, (int)params->anchor_y, kw, kh);
    plan->w = src->width;
    plan->h = src->height;
    plan->cn = src->channels;
    plan->in_type = src->type;
    plan->out_type = dst->type;
    plan->kw = kw;
    plan->kh = kh;
    plan->ax = params->anchor_x < 0 ? kw / 2 : params->anchor_x;
    plan->ay = params->anchor_y < 0 ? kh / 2 : params->anchor_y;
    plan->border = params->border;
    plan->border_value = (float)params->border_value;
    if (src->type == EDGEL_U8) /* the border is made of source pixels, as OpenCV's */
        plan->border_value = params->border_value <= 0 ? 0.0f
                           : params->border_value >= 255 ? 255.0f
                           : (float)nearbyint(params->border_value);
    edgel_status st = load_taps(plan, kernel, kx, ky);
    if (st == EDGEL_OK && params->convolve) { /* convolution = correlation, all flipped */
        const int n = kw * kh;
        for (int i = 0; i < n / 2; i++) {
            const float t = plan->taps[i];
            plan->taps[i] = plan->taps[n - 1 - i];
            plan->taps[n - 1 - i] = t;
        }
        plan->ax = kw - 1 - plan->ax;
        plan->ay = kh - 1 - plan->ay;
    }
    if (st == EDGEL_OK) {
        for (int i = 0; i < kw * kh; i++)
            plan->nonzero += plan->taps[i] != 0.0f;
        if (kernel)
            separate(plan); /* kx, ky where the kernel has rank 1 */
        else if (!given_factors(plan, kx, ky, params->convolve))
            st = edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the kernel");
        if (st == EDGEL_OK && !plan->kx && params->method == EDGEL_CONV_SEPARABLE)
            st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                            "the separable method needs a rank-1 kernel; this one is not");
        if (st == EDGEL_OK)
            plan->fixed_point = fixed_factors(plan);
    }
    if (st == EDGEL_OK && params->method == EDGEL_CONV_FFT && !fft_ok)
        st = edgel_fail(EDGEL_ERROR_UNSUPPORTED,
                        "this backend has no FFT here (the GPU's needs cuFFT, which did not load)");
    if (st != EDGEL_OK) {
        edgel_filter_plan_free(plan);
        return st;
    }
    plan->method = params->method != EDGEL_CONV_AUTO ? params->method
                                                     : choose(plan, ops, state);
    return EDGEL_OK;
}
