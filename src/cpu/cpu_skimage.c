/*
 * The skimage preset on the CPU: skimage.feature.canny (src/core/skimage_math.h) in
 * row-parallel passes over double images of the workspace, each value rounded to float where
 * skimage stores float32:
 *   1. the input as skimage's floats (img_as_float), masked pixels 0       -> x
 *   2. scipy's Gaussian along the rows' axis (0): x -> v, the mask -> vm
 *   3. along axis 1, and the bleed-over division: v -> s (the smoothed image, in x)
 *   4. ndi.sobel along both axes and the magnitude: s -> i, j (in v, vm) and m
 *   5. (use_quantiles) the thresholds: np.percentile of m
 *   6. in stripes: non-maximum suppression, the hysteresis classes and the stripe's own
 *      hysteresis; then growth across stripes and the edge image.
 * The passes only reorder independent pixels, so the result does not depend on the thread
 * count.
 */
#include "core/image.h"
#include "core/params.h"
#include "core/skimage_math.h"
#include "core/status.h"
#include "core/border.h"
#include "cpu/cpu.h"
#include "cpu/cpu_hysteresis.h"
#include "core/host_pool.h"

#include <float.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct sk_job {
    const edgel_image *src, *mask;
    int w, h, r, f32;
    const double *weights; /* r + 1, centre first */
    int mode;
    double cval;
    int bleed;       /* divide by the Gaussian of the mask (skimage's bleed-over) */
    double *x, *v, *vm, *m; /* w * h doubles each */
    double *row_vm;  /* no mask: the mask's axis-0 pass, one value a row */
    float low;
    double high;     /* as compared: float for float32 arrays, unless a quantile */
    edgel_cpu_map map;
    const edgel_canny_stages *stages;
    int nstripes;
    int phase;
    atomic_int failed;
} sk_job;

static double *at(const sk_job *job, double *img, int y)
{
    return img + (size_t)y * (size_t)job->w;
}

static int masked_out(const sk_job *job, int x, int y)
{
    return job->mask && !edgel_row_u8(job->mask, y)[x];
}

/* Pass 1: img_as_float of the masked image. */
static void convert_rows(const sk_job *job, int y0, int y1)
{
    for (int y = y0; y < y1; y++) {
        const uint8_t *row = edgel_row_u8(job->src, y);
        double *out = at(job, job->x, y);
        for (int x = 0; x < job->w; x++)
            out[x] = masked_out(job, x, y) ? 0.0 : edgel_sk_pixel(row, x, job->src->type);
    }
}

/* The row a tap at row y + d reads along axis 0 (NULL: cval). */
static const double *tap_row(const sk_job *job, const double *img, int y)
{
    const int iy = edgel_border_index(y, job->h, job->mode);
    return iy < 0 ? NULL : img + (size_t)iy * (size_t)job->w;
}

/* correlate1d along axis 0 of `img` into `out`, rows [y0, y1); cvals: w doubles of cval. */
static void vertical_rows(const sk_job *job, const double *img, double *out, int y0, int y1,
                          const double *cvals)
{
    const int w = job->w, r = job->r;
    for (int y = y0; y < y1; y++) {
        double *o = out + (size_t)y * (size_t)w;
        const double *c = img + (size_t)y * (size_t)w;
        for (int x = 0; x < w; x++)
            o[x] = c[x] * job->weights[0];
        for (int k = r; k >= 1; k--) {
            const double *b = tap_row(job, img, y - k), *a = tap_row(job, img, y + k);
            b = b ? b : cvals;
            a = a ? a : cvals;
            const double wk = job->weights[k];
            for (int x = 0; x < w; x++)
                o[x] += (b[x] + a[x]) * wk;
        }
        for (int x = 0; x < w; x++)
            o[x] = edgel_sk_store(o[x], job->f32);
    }
}

/* The padded row of `in` (w values) with the mode's border: pad[r + x] = in[x]. */
static void pad_row(const sk_job *job, const double *in, double *pad)
{
    const int w = job->w, r = job->r;
    for (int x = -r; x < w + r; x++) {
        const int ix = edgel_border_index(x, w, job->mode);
        pad[x + r] = ix < 0 ? job->cval : in[ix];
    }
}

/* correlate1d along axis 1 of the padded row into out[x0, x1). */
static void horizontal(const sk_job *job, const double *pad, double *out, int x0, int x1)
{
    for (int x = x0; x < x1; x++)
        out[x] = edgel_sk_store(edgel_sk_correlate(job->weights, job->r, pad + job->r + x, 1),
                                job->f32);
}

/* The mask's smoothed row when there is no mask: ones inside, cval outside; inside the
 * borders every value is the same sum, computed once. */
static void ones_row(const sk_job *job, int y, double *pad, double *out)
{
    const int w = job->w, r = job->r;
    for (int x = -r; x < w + r; x++)
        pad[x + r] = x >= 0 && x < w ? job->row_vm[y] : job->cval;
    const int lo = r < w ? r : w, hi = w - r > lo ? w - r : lo;
    horizontal(job, pad, out, 0, lo);
    if (hi > lo) {
        horizontal(job, pad, out, lo, lo + 1);
        for (int x = lo + 1; x < hi; x++)
            out[x] = out[lo];
    }
    horizontal(job, pad, out, hi, w);
}

/* Pass 3: the smoothed rows into x (x is no longer read). */
static int smooth_rows(const sk_job *job, int y0, int y1)
{
    const int w = job->w;
    double *pad = malloc(sizeof(double) * (size_t)(w + 2 * job->r));
    double *g = malloc(sizeof(double) * (size_t)w);
    if (!pad || !g) {
        free(pad);
        free(g);
        return 0;
    }
    const double eps = job->f32 ? FLT_EPSILON : DBL_EPSILON;
    for (int y = y0; y < y1; y++) {
        double *s = at(job, job->x, y);
        pad_row(job, at(job, job->v, y), pad);
        horizontal(job, pad, s, 0, w);
        if (!job->bleed)
            continue;
        if (job->mask) {
            pad_row(job, at(job, job->vm, y), pad);
            horizontal(job, pad, g, 0, w);
        } else {
            ones_row(job, y, pad, g);
        }
        for (int x = 0; x < w; x++)
            s[x] = edgel_sk_store(s[x] / edgel_sk_store(g[x] + eps, job->f32), job->f32);
    }
    free(pad);
    free(g);
    return 1;
}

/* ndi.sobel's first pass along axis 1 of smoothed row y: out[x]. */
static void derivative_along_row(const sk_job *job, const double *s, double *out)
{
    const int w = job->w;
    for (int x = 0; x < w; x++) {
        const int l = edgel_border_index(x - 1, w, EDGEL_BORDER_REFLECT);
        const int r = edgel_border_index(x + 1, w, EDGEL_BORDER_REFLECT);
        out[x] = edgel_sk_store(edgel_sk_derivative(s[l], s[x], s[r]), job->f32);
    }
}

/* Pass 4: isobel into v, jsobel into vm, the magnitude into m. */
static int gradient_rows(const sk_job *job, int y0, int y1)
{
    const int w = job->w, h = job->h;
    double *t = malloc(sizeof(double) * 4 * (size_t)w);
    if (!t)
        return 0;
    double *jt[3] = {t, t + w, t + 2 * (size_t)w}, *it = t + 3 * (size_t)w;
    for (int y = y0; y < y1; y++) {
        const int yu = edgel_border_index(y - 1, h, EDGEL_BORDER_REFLECT);
        const int yd = edgel_border_index(y + 1, h, EDGEL_BORDER_REFLECT);
        const double *su = at(job, job->x, yu), *sc = at(job, job->x, y),
                     *sd = at(job, job->x, yd);
        derivative_along_row(job, su, jt[0]);
        derivative_along_row(job, sc, jt[1]);
        derivative_along_row(job, sd, jt[2]);
        for (int x = 0; x < w; x++)
            it[x] = edgel_sk_store(edgel_sk_derivative(su[x], sc[x], sd[x]), job->f32);
        double *irow = at(job, job->v, y), *jrow = at(job, job->vm, y), *mrow = at(job, job->m, y);
        for (int x = 0; x < w; x++) {
            const int l = edgel_border_index(x - 1, w, EDGEL_BORDER_REFLECT);
            const int r = edgel_border_index(x + 1, w, EDGEL_BORDER_REFLECT);
            const double j = edgel_sk_store(edgel_sk_smooth3(jt[0][x], jt[1][x], jt[2][x]),
                                            job->f32);
            const double i = edgel_sk_store(edgel_sk_smooth3(it[l], it[x], it[r]), job->f32);
            irow[x] = i;
            jrow[x] = j;
            mrow[x] = edgel_sk_magnitude(i, j, job->f32);
        }
    }
    free(t);
    return 1;
}

/* Inside the eroded mask: not on the image's border, and (with a mask) all 9 pixels in it. */
static int eroded(const sk_job *job, int x, int y)
{
    if (x < 1 || y < 1 || x >= job->w - 1 || y >= job->h - 1)
        return 0;
    for (int dy = -1; job->mask && dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (masked_out(job, x + dx, y + dy))
                return 0;
    return 1;
}

static void store_stage(const edgel_image *stage, int y, int x, double v)
{
    if (!stage)
        return;
    uint8_t *row = edgel_row_u8(stage, y);
    if (stage->type == EDGEL_F32)
        ((float *)row)[x] = (float)v;
    else
        ((double *)row)[x] = v;
}

/* Pass 6 for one stripe. */
static int suppress_stripe(const sk_job *job, int y0, int y1)
{
    const int w = job->w;
    const edgel_image *sup = job->stages ? job->stages->suppressed : NULL;
    edgel_offset_stack stack = {0};
    for (int y = y0; y < y1; y++) {
        uint8_t *map = edgel_map_row(&job->map, y);
        const double *irow = at(job, job->v, y), *jrow = at(job, job->vm, y);
        for (int x = 0; x < w; x++) {
            double kept = 0.0;
            if (eroded(job, x, y)) {
                double n[9];
                for (int k = 0; k < 9; k++)
                    n[k] = at(job, job->m, y + k / 3 - 1)[x + k % 3 - 1];
                kept = edgel_sk_suppress(irow[x], jrow[x], n, job->low, job->f32);
            }
            map[x] = edgel_sk_class(kept, job->high);
            store_stage(sup, y, x, kept);
        }
        edgel_cpu_push_strong(&job->map, y, &stack);
    }
    const int ok = edgel_cpu_grow_stripe(&job->map, &stack, y0, y1);
    free(stack.items);
    return ok;
}

enum { CONVERT, VERTICAL, SMOOTH, GRADIENT, SUPPRESS, PHASES };

static void sk_stripe(void *arg, int i)
{
    sk_job *job = arg;
    int y0, y1, ok = 1;
    edgel_stripe(i, job->nstripes, job->h, &y0, &y1);
    switch (job->phase) {
    case CONVERT:
        convert_rows(job, y0, y1);
        break;
    case VERTICAL: {
        double *cvals = malloc(sizeof(double) * (size_t)job->w);
        ok = cvals != NULL;
        for (int x = 0; ok && x < job->w; x++)
            cvals[x] = job->cval;
        if (ok)
            vertical_rows(job, job->x, job->v, y0, y1, cvals);
        free(cvals);
        break;
    }
    case SMOOTH:
        ok = smooth_rows(job, y0, y1);
        break;
    case GRADIENT:
        ok = gradient_rows(job, y0, y1);
        break;
    case SUPPRESS:
        ok = suppress_stripe(job, y0, y1);
        break;
    }
    if (!ok)
        atomic_store(&job->failed, 1);
}

/* The mask's Gaussian along axis 0 (serial: small). With a mask, into vm; without, one
 * value a row (ones inside, cval outside). */
static int mask_vertical(sk_job *job)
{
    const int w = job->w, h = job->h;
    if (!job->mask) {
        for (int y = 0; y < h; y++) {
            double s = 1.0 * job->weights[0];
            for (int k = job->r; k >= 1; k--) {
                const double b = edgel_border_index(y - k, h, job->mode) < 0 ? job->cval : 1.0;
                const double a = edgel_border_index(y + k, h, job->mode) < 0 ? job->cval : 1.0;
                s += (b + a) * job->weights[k];
            }
            job->row_vm[y] = edgel_sk_store(s, job->f32);
        }
        return 1;
    }
    /* the mask as floats in m (free until pass 4), its pass into vm */
    double *cvals = malloc(sizeof(double) * (size_t)w);
    if (!cvals)
        return 0;
    for (int x = 0; x < w; x++)
        cvals[x] = job->cval;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            at(job, job->m, y)[x] = masked_out(job, x, y) ? 0.0 : 1.0;
    vertical_rows(job, job->m, job->vm, 0, h, cvals);
    free(cvals);
    return 1;
}

static int by_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The k-th smallest of v[0, n) into v[k] (v reordered), no NaN. */
static void select_kth(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 16) {
        const double a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1];
        const double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t i = lo, j = hi - 1;
        for (;;) { /* Hoare partition */
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i >= j)
                break;
            const double t = v[i];
            v[i++] = v[j];
            v[j--] = t;
        }
        if (k <= j)
            hi = j + 1;
        else
            lo = j + 1;
    }
    qsort(v + lo, hi - lo, sizeof *v, by_double);
}

/* Pass 5: np.percentile(magnitude, [100 low, 100 high]) over the whole image. */
static edgel_status quantiles(sk_job *job, double *scratch, double ql, double qh, double *low,
                              double *high)
{
    const size_t n = (size_t)job->w * (size_t)job->h;
    for (size_t i = 0; i < n; i++) {
        if (isnan(job->m[i])) { /* numpy's percentile of data with NaN is NaN */
            *low = *high = NAN;
            return EDGEL_OK;
        }
    }
    const double q[2] = {ql, qh};
    double *out[2] = {low, high};
    for (int i = 0; i < 2; i++) {
        memcpy(scratch, job->m, n * sizeof(double));
        size_t below, above;
        const double t = edgel_sk_quantile_index(q[i], n, &below, &above);
        select_kth(scratch, n, below);
        double b = scratch[below];
        if (above != below) { /* the next order statistic: the least above position below */
            b = scratch[above];
            for (size_t k = above + 1; k < n; k++)
                b = scratch[k] < b ? scratch[k] : b;
        }
        *out[i] = edgel_sk_quantile_value(scratch[below], b, t, job->f32);
    }
    return EDGEL_OK;
}

static void write_stage(const sk_job *job, const edgel_image *stage, double *img)
{
    for (int y = 0; stage && y < job->h; y++)
        for (int x = 0; x < job->w; x++)
            store_stage(stage, y, x, at(job, img, y)[x]);
}

static void run_phase(sk_job *job, int threads, int phase)
{
    job->phase = phase;
    if (!atomic_load(&job->failed))
        edgel_host_parallel_for(threads, job->nstripes, sk_stripe, job);
}

edgel_status edgel_cpu_canny_skimage(int threads, edgel_cpu_workspace *ws,
                                     const edgel_canny_params *params, const edgel_image *src,
                                     const edgel_image *mask, const edgel_image *edges,
                                     const edgel_canny_stages *stages)
{
    sk_job job = {0};
    job.src = src;
    job.mask = mask;
    job.w = src->width;
    job.h = src->height;
    job.f32 = src->type == EDGEL_F32;
    job.r = edgel_skimage_radius(params->sigma);
    job.mode = params->mode;
    job.cval = params->cval;
    job.bleed = params->mode == EDGEL_BORDER_CONSTANT || mask != NULL;
    job.stages = stages;
    double low, high;
    EDGEL_TRY(edgel_skimage_thresholds(params, src->type, &low, &high));

    const size_t n = (size_t)job.w * (size_t)job.h, bytes = n * sizeof(double);
    double *weights = malloc(sizeof(double) * (size_t)(job.r + 1));
    job.row_vm = malloc(sizeof(double) * (size_t)job.h);
    job.x = (double *)edgel_cpu_buffer_reserve(&ws->sk_x, bytes);
    job.v = (double *)edgel_cpu_buffer_reserve(&ws->sk_v, bytes);
    job.vm = (double *)edgel_cpu_buffer_reserve(&ws->sk_vm, bytes);
    job.m = (double *)edgel_cpu_buffer_reserve(&ws->sk_m, bytes);
    edgel_status st = EDGEL_OK;
    if (!weights || !job.row_vm || !job.x || !job.v || !job.vm || !job.m)
        st = edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the skimage preset's images");
    if (st == EDGEL_OK)
        st = edgel_skimage_weights(params, weights);
    job.weights = weights;
    if (st == EDGEL_OK)
        st = edgel_cpu_map_init(&ws->map, job.w, job.h, &job.map);
    if (st != EDGEL_OK) {
        free(weights);
        free(job.row_vm);
        return st;
    }

    job.nstripes = threads < edgel_host_cores() ? threads : edgel_host_cores();
    job.nstripes = job.nstripes < job.h ? job.nstripes : job.h;
    atomic_init(&job.failed, 0);
    run_phase(&job, threads, CONVERT);
    if (job.r > 0) {
        run_phase(&job, threads, VERTICAL);
        if (job.bleed && !mask_vertical(&job))
            atomic_store(&job.failed, 1);
        run_phase(&job, threads, SMOOTH);
    } else if (job.bleed) {
        /* sigma 0: scipy copies; the bleed-over divides by the mask (1 inside) + eps */
        const double eps = job.f32 ? FLT_EPSILON : DBL_EPSILON;
        const double one = edgel_sk_store(1.0 + eps, job.f32), zero = edgel_sk_store(eps, job.f32);
        for (size_t i = 0; i < n; i++) {
            const int in = !mask || !masked_out(&job, (int)(i % (size_t)job.w),
                                                (int)(i / (size_t)job.w));
            job.x[i] = edgel_sk_store(job.x[i] / (in ? one : zero), job.f32);
        }
    }
    run_phase(&job, threads, GRADIENT);
    if (stages)
        write_stage(&job, stages->smoothed, job.x);
    if (!atomic_load(&job.failed) && params->use_quantiles) /* scratch: x, read no more */
        st = quantiles(&job, job.x, low, high, &low, &high);
    job.low = edgel_sk_low(low);
    job.high = edgel_sk_high(high, job.f32, params->use_quantiles);
    run_phase(&job, threads, SUPPRESS);
    int failed = atomic_load(&job.failed);
    if (!failed)
        failed = !edgel_cpu_grow_across(&job.map, job.nstripes);
    free(weights);
    free(job.row_vm);
    if (failed)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory in the skimage preset");
    EDGEL_TRY(st);
    if (stages) {
        write_stage(&job, stages->dy, job.v);
        write_stage(&job, stages->dx, job.vm);
        write_stage(&job, stages->magnitude, job.m);
    }
    edgel_cpu_write_edges(threads, &job.map, edges);
    return EDGEL_OK;
}
