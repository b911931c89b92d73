/*
 * The convolution engine on the CPU: the direct and separable methods (the FFT method is in
 * cpu_fft.c). Rows are independent, so they are split over threads; each output row is
 * accumulated in float with fused multiply-adds, tap by tap in raster order, which is
 * cv2.filter2D's arithmetic for the direct method.
 */
#include "core/border.h"
#include "core/filter.h"
#include "core/image.h"
#include "core/status.h"
#include "cpu/cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * One output row: acc[x] = sum over j, i of taps[j * kw + i] * rows[j][x + i * cn], the
 * non-zero taps in raster order, each a fused multiply-add in float (fmaf, as OpenCV's vector
 * code). rows[j] are extended rows. The AVX2+FMA version keeps 64 outputs in registers over
 * all taps; the generic one (other CPUs, and the last few outputs) gives the same floats.
 */
static void direct_row_generic(const float *taps, int kw, int kh, int cn,
                               const float *const *rows, float *acc, int x0, int n)
{
    for (int x = x0; x < n; x++) {
        float s = 0.0f;
        for (int j = 0; j < kh; j++)
            for (int i = 0; i < kw; i++)
                if (taps[j * kw + i] != 0.0f)
                    s = fmaf(taps[j * kw + i], rows[j][x + i * cn], s);
        acc[x] = s;
    }
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#include <immintrin.h>

/* N vectors of 8 outputs at acc + x, over every tap (N independent accumulators keep both
 * FMA units busy through their latency). */
#define DIRECT_CHUNK(N)                                                                   \
    do {                                                                                  \
        __m256 a[N];                                                                      \
        for (int v = 0; v < N; v++)                                                       \
            a[v] = _mm256_setzero_ps();                                                   \
        for (int j = 0; j < kh; j++) {                                                    \
            const float *r = rows[j] + x, *t = taps + (size_t)j * kw;                     \
            for (int i = 0; i < kw; i++) {                                                \
                if (t[i] == 0.0f)                                                         \
                    continue;                                                             \
                const __m256 f = _mm256_set1_ps(t[i]);                                    \
                const float *q = r + (size_t)i * cn;                                      \
                for (int v = 0; v < N; v++)                                               \
                    a[v] = _mm256_fmadd_ps(f, _mm256_loadu_ps(q + 8 * v), a[v]);          \
            }                                                                             \
        }                                                                                 \
        for (int v = 0; v < N; v++)                                                       \
            _mm256_storeu_ps(acc + x + 8 * v, a[v]);                                      \
    } while (0)

__attribute__((target("avx2,fma"))) static void direct_row_avx2(const float *taps, int kw, int kh,
                                                                int cn, const float *const *rows,
                                                                float *acc, int n)
{
    int x = 0;
    for (; x + 64 <= n; x += 64)
        DIRECT_CHUNK(8);
    for (; x + 16 <= n; x += 16)
        DIRECT_CHUNK(2);
    direct_row_generic(taps, kw, kh, cn, rows, acc, x, n);
}

static void direct_row(const float *taps, int kw, int kh, int cn, const float *const *rows,
                       float *acc, int n)
{
    static int fma = -1; /* a benign race: every thread stores the same value */
    if (fma < 0)
        fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (fma)
        direct_row_avx2(taps, kw, kh, cn, rows, acc, n);
    else
        direct_row_generic(taps, kw, kh, cn, rows, acc, 0, n);
}
#else
static void direct_row(const float *taps, int kw, int kh, int cn, const float *const *rows,
                       float *acc, int n)
{
    direct_row_generic(taps, kw, kh, cn, rows, acc, 0, n);
}
#endif

/* Source row sy (or -1: a constant-border row) extended by the border to w + kw - 1
 * pixels, as float; xmap[xx] is the column pixel xx reads (-1: the border value). */
static void extended_row(const edgel_filter_plan *p, const edgel_image *src, int sy,
                         const int *xmap, float *out)
{
    const int n = p->w + p->kw - 1, cn = p->cn;
    const float bv = p->border_value;
    if (sy < 0) {
        for (int i = 0; i < n * cn; i++)
            out[i] = bv;
        return;
    }
    const unsigned char *row = edgel_row_u8(src, sy);
    float *inside = out + (size_t)p->ax * cn; /* the row itself, converted in one loop */
    if (p->in_type == EDGEL_U8)
        for (int i = 0; i < p->w * cn; i++)
            inside[i] = (float)row[i];
    else
        memcpy(inside, row, sizeof(float) * (size_t)p->w * cn);
    for (int xx = 0; xx < n; xx++) {
        if (xx == p->ax)
            xx += p->w; /* skip the inside */
        if (xx >= n)
            break;
        const int sx = xmap[xx];
        for (int c = 0; c < cn; c++)
            out[xx * cn + c] = sx < 0 ? bv : inside[sx * cn + c];
    }
}

/* An accumulated row into dst row y: f32 as it is, u8 rounded half to even and saturated. */
static void store_row(const edgel_filter_plan *p, const edgel_image *dst, int y, const float *acc)
{
    const int n = p->w * p->cn;
    unsigned char *row = edgel_row_u8(dst, y);
    if (p->out_type == EDGEL_F32) {
        memcpy(row, acc, sizeof(float) * (size_t)n);
        return;
    }
    for (int i = 0; i < n; i++) {
        const float v = nearbyintf(acc[i]);
        row[i] = (unsigned char)(v <= 0.0f ? 0 : v >= 255.0f ? 255 : (int)v);
    }
}

/* Per-thread memory: a ring of kh extended rows (row v of the extended image in slot
 * v mod kh), their pointers, and one accumulated row. */
typedef struct row_scratch {
    float *ring, *acc;
    const float **rows;
    int lo, hi; /* extended rows held: [lo, hi) */
} row_scratch;

static int scratch_alloc(const edgel_filter_plan *p, row_scratch *s)
{
    const size_t ext = (size_t)(p->w + p->kw - 1) * (size_t)p->cn;
    s->ring = malloc(sizeof(float) * ext * (size_t)p->kh);
    s->acc = malloc(sizeof(float) * (size_t)p->w * (size_t)p->cn);
    s->rows = malloc(sizeof(float *) * (size_t)p->kh);
    s->lo = s->hi = 0;
    return s->ring && s->acc && s->rows;
}

static void scratch_free(row_scratch *s)
{
    free(s->ring);
    free(s->acc);
    free(s->rows);
}

/* Points s->rows at the extended rows y - ay .. y - ay + kh - 1, extending the new ones. */
static void ring_rows(const edgel_filter_plan *p, const edgel_image *src, const int *xmap, int y,
                      row_scratch *s)
{
    const size_t ext = (size_t)(p->w + p->kw - 1) * (size_t)p->cn;
    const int first = y - p->ay, last = first + p->kh;
    if (first >= s->hi || first < s->lo)
        s->lo = s->hi = first; /* not a continuation: start over */
    for (int v = s->hi; v < last; v++) {
        const int slot = ((v % p->kh) + p->kh) % p->kh;
        extended_row(p, src, edgel_border_index(v, p->h, p->border), xmap, s->ring + slot * ext);
    }
    s->hi = last;
    s->lo = first;
    for (int j = 0; j < p->kh; j++)
        s->rows[j] = s->ring + (size_t)((((first + j) % p->kh) + p->kh) % p->kh) * ext;
}

edgel_status edgel_cpu_filter(int threads, const edgel_filter_plan *p, const edgel_image *src,
                              const edgel_image *dst)
{
    if (p->method == EDGEL_CONV_FFT)
        return edgel_cpu_filter_fft(threads, p, src, dst);
    const int ext = p->w + p->kw - 1, n = p->w * p->cn, cn = p->cn;
    const int separable = p->method == EDGEL_CONV_SEPARABLE;
    int *xmap = malloc(sizeof(int) * (size_t)ext);
    /* separable: the row-filtered image, plus one row for a constant border outside */
    float *rows = separable ? malloc(sizeof(float) * (size_t)n * (size_t)(p->h + 1)) : NULL;
    if (!xmap || (separable && !rows)) {
        free(xmap), free(rows);
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the filter");
    }
    for (int xx = 0; xx < ext; xx++)
        xmap[xx] = edgel_border_index(xx - p->ax, p->w, p->border);
    /* Small images: fewer threads (a parallel region costs microseconds per thread). */
    const double work = (double)n * p->h * (separable ? p->kw + p->kh : p->nonzero + 4);
    int tasks = (int)(work / 2e5) + 1;
    tasks = tasks < threads ? tasks : threads;
    tasks = tasks < p->h ? tasks : p->h;
    int failed = 0;
    (void)threads;
#pragma omp parallel num_threads(tasks) reduction(| : failed)
    {
        row_scratch s;
        const int ok = scratch_alloc(p, &s);
        failed |= !ok;
        if (!separable) {
#pragma omp for schedule(static)
            for (int y = 0; y < p->h; y++) {
                if (!ok)
                    continue;
                ring_rows(p, src, xmap, y, &s);
                direct_row(p->taps, p->kw, p->kh, cn, s.rows, s.acc, n);
                store_row(p, dst, y, s.acc);
            }
        } else {
#pragma omp for schedule(static)
            for (int y = 0; y <= p->h; y++) { /* the row pass (row h: the constant row) */
                if (!ok)
                    continue;
                extended_row(p, src, y < p->h ? y : -1, xmap, s.ring);
                const float *one = s.ring;
                direct_row(p->kx, p->kw, 1, cn, &one, rows + (size_t)y * n, n);
            }
#pragma omp for schedule(static)
            for (int y = 0; y < p->h; y++) { /* the column pass */
                if (!ok)
                    continue;
                for (int j = 0; j < p->kh; j++) {
                    const int sy = edgel_border_index(y + j - p->ay, p->h, p->border);
                    s.rows[j] = rows + (size_t)(sy < 0 ? p->h : sy) * n;
                }
                direct_row(p->ky, 1, p->kh, cn, s.rows, s.acc, n);
                store_row(p, dst, y, s.acc);
            }
        }
        scratch_free(&s);
    }
    free(xmap);
    free(rows);
    if (failed)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the filter's rows");
    return EDGEL_OK;
}
