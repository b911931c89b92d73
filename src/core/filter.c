/* The convolution engine's parameters, kernel normalisation and method choice. */
#include "core/filter.h"
#include "core/params.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void edgel_filter_params_default(edgel_filter_params *params)
{
    if (!params)
        return;
    memset(params, 0, sizeof *params);
    params->method = EDGEL_CONV_AUTO;
    params->border = EDGEL_BORDER_REFLECT_101;
    params->border_value = 0.0;
    params->anchor_x = -1;
    params->anchor_y = -1;
    params->convolve = 0;
}

void edgel_filter_plan_free(edgel_filter_plan *plan)
{
    free(plan->taps);
    free(plan->kx);
    free(plan->ky);
    plan->taps = plan->kx = plan->ky = NULL;
}

/* The least m >= n whose prime factors are all at most `largest` (5 or 7), even if asked. */
static int smooth_size(int n, int largest, int even)
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

int edgel_fft_size(int n) { return n <= 1 ? 1 : smooth_size(n, 7, 0); }

/* An even product of 2, 3 and 5 (KissFFT is fastest there) of at least n. */
static int even_235(int n) { return smooth_size(n, 5, 1); }

/* Output blocks of n - k + 1 along an axis of extended side e. */
static int tile_blocks(int n, int k, int e)
{
    const int b = n - k + 1;
    return (e - k + 1 + b - 1) / b;
}

/* Blocks of n - k + 1 outputs, each an n-point transform plus a fixed cost per block. */
static double tile_work(int n, int k, int e)
{
    return (double)tile_blocks(n, k, e) * (n * log2((double)n) + 64.0);
}

/* The CPU FFT's predicted time (ns) for a grid whose sides have tile_work wx, wy and
 * tile_blocks bx, by: the work over the threads the tiles can keep busy (a frame of few
 * tiles leaves threads idle). */
static double grid_cost(const edgel_filter_plan *p, double wx, int bx, double wy, int by,
                        int threads)
{
    const double jobs = (double)bx * by * p->cn;
    return 0.64 * wx * wy * p->cn / (jobs < threads ? jobs : threads);
}

static double tiles_cost(const edgel_filter_plan *p, int nx, int ny, int threads)
{
    const int ew = p->w + p->kw - 1, eh = p->h + p->kh - 1;
    return grid_cost(p, tile_work(nx, p->kw, ew), tile_blocks(nx, p->kw, ew),
                     tile_work(ny, p->kh, eh), tile_blocks(ny, p->kh, eh), threads);
}

/* Even products of 2, 3 and 5 in [lo, hi], ascending, at most `max` of them. */
static int grid_sides(int lo, int hi, int *out, int max)
{
    int n = 0;
    for (long p2 = 2; p2 <= hi; p2 *= 2)
        for (long p3 = p2; p3 <= hi; p3 *= 3)
            for (long v = p3; v <= hi && n < max; v *= 5)
                if (v >= lo)
                    out[n++] = (int)v;
    for (int i = 1; i < n; i++) /* insertion sort: a few dozen values */
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            const int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* The CPU FFT's grid (nx x ny, even products of 2, 3 and 5) with the least predicted time on
 * EDGEL_FFT_TILE_THREADS threads: little work per output, and enough tiles to share. Found
 * once per plan and kept in it. */
static void fft_tiles(edgel_filter_plan *p)
{
    if (p->fft_nx)
        return;
    /* The last grid found on this thread: calls repeat sizes, and the search costs a call
     * of 1024x1024 about 20 us. */
    static _Thread_local struct {
        int w, h, cn, kw, kh, nx, ny;
    } last;
    if (last.nx && last.w == p->w && last.h == p->h && last.cn == p->cn && last.kw == p->kw &&
        last.kh == p->kh) {
        p->fft_nx = last.nx;
        p->fft_ny = last.ny;
        return;
    }
    int *nx = &p->fft_nx, *ny = &p->fft_ny;
    const int threads = EDGEL_FFT_TILE_THREADS; /* not the context's: see filter.h */
    const int ew = p->w + p->kw - 1, eh = p->h + p->kh - 1;
    const int capx = even_235(ew), capy = even_235(eh);
    int xs[96], ys[96];
    const int cx = grid_sides(p->kw + 1 > 32 ? p->kw + 1 : 32, capx < 4 * p->kw + 1024 ? capx - 1
                             : 4 * p->kw + 1024, xs, 96);
    const int cy = grid_sides(p->kh + 1 > 32 ? p->kh + 1 : 32, capy < 4 * p->kh + 1024 ? capy - 1
                             : 4 * p->kh + 1024, ys, 96);
    *nx = capx;
    *ny = capy;
    double best = tiles_cost(p, capx, capy, threads);
    /* each side's terms once (the logarithms of 96 x 96 pairs cost auto 70 us a call) */
    double wx[96], wy[96];
    int bx[96], by[96];
    for (int i = 0; i < cx; i++)
        wx[i] = tile_work(xs[i], p->kw, ew), bx[i] = tile_blocks(xs[i], p->kw, ew);
    for (int j = 0; j < cy; j++)
        wy[j] = tile_work(ys[j], p->kh, eh), by[j] = tile_blocks(ys[j], p->kh, eh);
    for (int i = 0; i < cx; i++)
        for (int j = 0; j < cy; j++) {
            const double c = grid_cost(p, wx[i], bx[i], wy[j], by[j], threads);
            if (c < best * 0.98) { /* near ties: the larger grid, fewer fixed costs */
                best = c;
                *nx = xs[i];
                *ny = ys[j];
            }
        }
    last.w = p->w, last.h = p->h, last.cn = p->cn, last.kw = p->kw, last.kh = p->kh;
    last.nx = *nx, last.ny = *ny;
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

/* Predicted time of a method in nanoseconds, fitted to the times bench/bench_filter.py
 * measured on an NVIDIA H200 and its 16-core host (2026-11-22, docs/benchmarks.md). Only
 * the ratios between methods matter. */
static double predicted_cost(edgel_filter_plan *p, edgel_conv_method m, edgel_backend b,
                             int threads)
{
    const double values = (double)p->w * p->h * p->cn;
    const int ew = p->w + p->kw - 1, eh = p->h + p->kh - 1;
    if (b == EDGEL_BACKEND_CUDA) {
        if (m == EDGEL_CONV_DIRECT) { /* throughput, or one block's chain of taps when few */
            const double blocks = ceil(p->w / 32.0) * ceil(p->h / 64.0) * p->cn;
            const double busy = values * 0.000156 * p->nonzero;
            const double chain = ceil(blocks / 264.0) * p->nonzero * 60.0;
            return (busy > chain ? busy : chain) + values * 0.0045 + 8000;
        }
        if (m == EDGEL_CONV_SEPARABLE)
            return values * (0.0004 * (p->kw + p->kh) + 0.012) + 12000;
        /* two transforms per channel; the kernel's spectrum is reused while it stays */
        const double area = (double)edgel_fft_size(ew) * edgel_fft_size(eh);
        return area * log2(area) * (2.0 * p->cn + 0.25) * 0.000636 + 45000;
    }
    const double rows = threads < p->h ? threads : p->h;
    if (m == EDGEL_CONV_DIRECT) { /* rows blocked for dense kernels: fewer loads per tap */
        const int blocked = p->nonzero == p->kw * p->kh && p->kh >= EDGEL_CPU_BLOCK_MIN_KH;
        return values * ((blocked ? 0.05 : 0.08) * p->nonzero + 1.6) / rows + 20000;
    }
    if (m == EDGEL_CONV_SEPARABLE)
        return values * (0.08 * (p->kw + p->kh) + 3.0) / rows + 30000;
    fft_tiles(p);
    return tiles_cost(p, p->fft_nx, p->fft_ny, threads) + 250000;
}

static edgel_conv_method choose(edgel_filter_plan *p, edgel_backend b, int fft_ok,
                                int threads)
{
    /* Integers reach the exact value, so OpenCV's bytes, faster than any float method. */
    if (p->fixed_point)
        return EDGEL_CONV_SEPARABLE;
    /* u8 -> u8: OpenCV's direct arithmetic, bit for bit, wherever OpenCV filters directly. */
    if (p->in_type == EDGEL_U8 && p->out_type == EDGEL_U8 && p->nonzero < EDGEL_OPENCV_DFT_TAPS)
        return EDGEL_CONV_DIRECT;
    edgel_conv_method best = EDGEL_CONV_DIRECT;
    double cost = predicted_cost(p, EDGEL_CONV_DIRECT, b, threads);
    const double separable = p->kx ? predicted_cost(p, EDGEL_CONV_SEPARABLE, b, threads) : cost;
    if (separable < cost) {
        best = EDGEL_CONV_SEPARABLE;
        cost = separable;
    }
    /* Where the FFT's fixed cost alone exceeds the job, there is no need to size its tiles. */
    const double fft_fixed = b == EDGEL_BACKEND_CUDA ? 45000 : 250000;
    if (fft_ok && cost > fft_fixed && predicted_cost(p, EDGEL_CONV_FFT, b, threads) < cost)
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

edgel_status edgel_filter_params_check(const edgel_filter_params *params)
{
    if (!params)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "params is NULL");
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
                                    edgel_backend backend, int threads, int fft_ok,
                                    edgel_filter_plan *plan)
{
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
                        "this build has no FFT for this backend (the CPU needs KissFFT)");
    if (st != EDGEL_OK) {
        edgel_filter_plan_free(plan);
        return st;
    }
    plan->method = params->method != EDGEL_CONV_AUTO ? params->method
                                                     : choose(plan, backend, fft_ok, threads);
    if (plan->method == EDGEL_CONV_FFT && backend != EDGEL_BACKEND_CUDA)
        fft_tiles(plan);
    return EDGEL_OK;
}
