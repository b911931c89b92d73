/*
 * The convolution engine's fixed-point separable method on the CPU: u8 -> u8 with taps
 * qx / 256 and qy / 256 (see edgel_fixed_point_round in core/opencv_math.h). It is OpenCV's
 * GaussianBlur arithmetic, and it runs edgel's Canny pre-smoothing. Integer rows of 16-bit
 * lanes: twice the float methods' lanes, and no rounding to reproduce. Each stripe of output
 * rows keeps a ring of kh row-filtered lines, so each source row is filtered once a stripe.
 */
#include "core/border.h"
#include "core/filter.h"
#include "core/image.h"
#include "core/opencv_math.h"
#include "core/status.h"
#include "cpu/cpu.h"
#include "core/host_pool.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Source row sy (-1: a constant border row) extended by the border to w + kw - 1 pixels;
 * xmap[xx] is the column pixel xx reads (-1: the border value). */
static void padded_row(const edgel_filter_plan *p, const edgel_image *src, int sy,
                       const int *xmap, uint8_t *pad)
{
    const int cn = p->cn, ext = p->w + p->kw - 1;
    const uint8_t bv = (uint8_t)p->border_value; /* an integer in [0, 255] for u8 plans */
    if (sy < 0) {
        memset(pad, bv, (size_t)ext * cn);
        return;
    }
    memcpy(pad + (size_t)p->ax * cn, edgel_row_u8(src, sy), (size_t)p->w * cn);
    EDGEL_EXTEND_BORDERS(pad, ext, cn, p->ax, p->w, xmap, bv);
}

/* Whether the k taps are symmetric (a Gaussian's are): then the passes add the two samples a
 * tap weighs alike first, half the multiplications. Sums wrap modulo 2^16 (row pass) or
 * do not overflow (column pass), and the true totals fit, so the result is the same. */
static int symmetric(const uint16_t *q, int k)
{
    for (int t = 0; t < k / 2; t++)
        if (q[t] != q[k - 1 - t])
            return 0;
    return 1;
}

/* The row pass stores each sum minus 2^15 (ROW_BIAS, modulo 2^16): a signed 16-bit value,
 * which the column pass's AVX2 code multiplies and adds in pairs (vpmaddwd) at 16 lanes
 * where 32-bit products give 8. Taps are at most 256 (plans' qx, qy), so no pair sum
 * overflows, and the column pass adds 2^15 * sum(qy) back. */
#define ROW_BIAS 0x8000u

/* Row pass: out[i] = sum over t of q[t] * pad[i + t * cn] - ROW_BIAS, exact modulo 2^16,
 * from x on. */
EDGEL_VECTOR_CLONES static void fixed_row_generic(const uint8_t *pad, int x, int n, int cn,
                                                  const uint16_t *q, int kw, uint16_t *out)
{
    for (int i = x; i < n; i++)
        out[i] = (uint16_t)(0u - ROW_BIAS);
    const int sym = symmetric(q, kw);
    for (int t = 0; t < (sym ? kw / 2 : kw); t++) {
        const uint16_t kt = q[t];
        const uint8_t *s = pad + (size_t)t * cn, *m = pad + (size_t)(kw - 1 - t) * cn;
        if (kt && sym)
            for (int i = x; i < n; i++)
                out[i] = (uint16_t)(out[i] + kt * (uint16_t)(s[i] + m[i]));
        else if (kt)
            for (int i = x; i < n; i++)
                out[i] = (uint16_t)(out[i] + kt * s[i]);
    }
    if (sym && kw % 2) {
        const uint16_t kt = q[kw / 2];
        const uint8_t *s = pad + (size_t)(kw / 2) * cn;
        for (int i = x; i < n; i++)
            out[i] = (uint16_t)(out[i] + kt * s[i]);
    }
}

/* Column pass: the sum over t of q[t] * rows[t] (each + ROW_BIAS), rounded to u8, from x on. */
EDGEL_VECTOR_CLONES static void fixed_column_generic(const uint16_t *const *rows,
                                                     const uint16_t *q, int kh, int x, int n,
                                                     int half_up, int32_t *acc, uint8_t *out)
{
    int32_t bias = 0;
    for (int t = 0; t < kh; t++)
        bias += (int32_t)(ROW_BIAS * q[t]);
    for (int i = x; i < n; i++)
        acc[i] = bias;
    const int sym = symmetric(q, kh);
    for (int t = 0; t < (sym ? kh / 2 : kh); t++) {
        const int16_t *r = (const int16_t *)rows[t], *m = (const int16_t *)rows[kh - 1 - t];
        const int32_t kt = q[t];
        if (kt && sym)
            for (int i = x; i < n; i++)
                acc[i] += kt * ((int32_t)r[i] + m[i]);
        else if (kt)
            for (int i = x; i < n; i++)
                acc[i] += kt * r[i];
    }
    if (sym && kh % 2) {
        const int16_t *r = (const int16_t *)rows[kh / 2];
        const int32_t kt = q[kh / 2];
        for (int i = x; i < n; i++)
            acc[i] += kt * r[i];
    }
    if (half_up) /* two loops, each with a constant rounding, so that both vectorise */
        for (int i = x; i < n; i++)
            out[i] = edgel_fixed_point_round((uint32_t)acc[i], 1);
    else
        for (int i = x; i < n; i++)
            out[i] = edgel_fixed_point_round((uint32_t)acc[i], 0);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(EDGEL_NO_CLONES)
#include <immintrin.h>
#define FIXED_AVX2 1

/* The row pass on 32 values a step in registers (GCC's loop keeps out[] in memory across
 * taps); returns where fixed_row_generic goes on. */
__attribute__((target("avx2"))) static int fixed_row_avx2(const uint8_t *pad, int n, int cn,
                                                          const uint16_t *q, int kw, uint16_t *out)
{
    const int sym = symmetric(q, kw), pairs = sym ? kw / 2 : 0;
    int x = 0;
    for (; x + 32 <= n; x += 32) {
        __m256i a0 = _mm256_set1_epi16((short)(0u - ROW_BIAS)), a1 = a0;
        for (int t = 0; t < pairs; t++) { /* symmetric: the two samples of a tap added first */
            const uint8_t *s = pad + x + (size_t)t * cn, *m = pad + x + (size_t)(kw - 1 - t) * cn;
            const __m256i k = _mm256_set1_epi16((short)q[t]);
            const __m256i s0 = _mm256_add_epi16(
                _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)s)),
                _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)m)));
            const __m256i s1 = _mm256_add_epi16(
                _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(s + 16))),
                _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(m + 16))));
            a0 = _mm256_add_epi16(a0, _mm256_mullo_epi16(k, s0));
            a1 = _mm256_add_epi16(a1, _mm256_mullo_epi16(k, s1));
        }
        for (int t = pairs; t < kw - pairs; t++) { /* the middle tap, or every tap */
            const uint8_t *s = pad + x + (size_t)t * cn;
            const __m256i k = _mm256_set1_epi16((short)q[t]);
            a0 = _mm256_add_epi16(
                a0, _mm256_mullo_epi16(k, _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)s))));
            a1 = _mm256_add_epi16(
                a1, _mm256_mullo_epi16(k, _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(s + 16)))));
        }
        _mm256_storeu_si256((__m256i *)(out + x), a0);
        _mm256_storeu_si256((__m256i *)(out + x + 16), a1);
    }
    return x;
}

/* The column pass on 16 values a step: rows t and t + 1 interleaved, times (q[t], q[t + 1])
 * in one vpmaddwd. Inlined for each common kh, whose tap loop then unrolls. */
__attribute__((target("avx2"), always_inline)) static inline int
fixed_column_avx2_body(const uint16_t *const *rows, const uint16_t *q, const int kh, int n,
                       int half_up, uint8_t *out)
{
    __m256i k[(EDGEL_MAX_KERNEL_SIZE + 1) / 2];
    int32_t bias = half_up ? 0x8000 : 0; /* half up: the rounding's half, added once */
    for (int t = 0; t < kh; t += 2) {
        const uint32_t hi = t + 1 < kh ? q[t + 1] : 0;
        k[t / 2] = _mm256_set1_epi32((int)(q[t] | hi << 16));
        bias += (int32_t)(ROW_BIAS * (q[t] + hi));
    }
    const __m256i b = _mm256_set1_epi32(bias), zero = _mm256_setzero_si256();
    const __m256i low17 = _mm256_set1_epi32(0x1ffff), tie = _mm256_set1_epi32(0x8000);
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i lo = b, hi = b; /* values 0-3 and 8-11; 4-7 and 12-15 */
        for (int t = 0; t < kh; t += 2) {
            const __m256i r0 = _mm256_loadu_si256((const __m256i *)(rows[t] + x));
            const __m256i r1 = t + 1 < kh ? _mm256_loadu_si256((const __m256i *)(rows[t + 1] + x)) : zero;
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(r0, r1), k[t / 2]));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(r0, r1), k[t / 2]));
        }
        __m256i qlo, qhi;
        if (half_up) {
            qlo = _mm256_srli_epi32(lo, 16);
            qhi = _mm256_srli_epi32(hi, 16);
        } else { /* (s + 2^15) >> 16, less one where s is a tie below an even value */
            qlo = _mm256_add_epi32(_mm256_srli_epi32(_mm256_add_epi32(lo, tie), 16),
                                   _mm256_cmpeq_epi32(_mm256_and_si256(lo, low17), tie));
            qhi = _mm256_add_epi32(_mm256_srli_epi32(_mm256_add_epi32(hi, tie), 16),
                                   _mm256_cmpeq_epi32(_mm256_and_si256(hi, low17), tie));
        }
        const __m256i w = _mm256_packus_epi32(qlo, qhi); /* values 0-7 | 8-15, at most 256 */
        _mm_storeu_si128((__m128i *)(out + x),
                         _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1)));
    }
    return x;
}

/* Returns where fixed_column_generic goes on. */
__attribute__((target("avx2"))) static int fixed_column_avx2(const uint16_t *const *rows,
                                                             const uint16_t *q, int kh, int n,
                                                             int half_up, uint8_t *out)
{
    switch (kh) { /* OpenCV's Gaussians for sigma up to 1.5 (the Canny pre-blurs) */
    case 3: return fixed_column_avx2_body(rows, q, 3, n, half_up, out);
    case 5: return fixed_column_avx2_body(rows, q, 5, n, half_up, out);
    case 7: return fixed_column_avx2_body(rows, q, 7, n, half_up, out);
    case 9: return fixed_column_avx2_body(rows, q, 9, n, half_up, out);
    default: return fixed_column_avx2_body(rows, q, kh, n, half_up, out);
    }
}

#endif

static void fixed_row(const uint8_t *pad, int n, int cn, const uint16_t *q, int kw, uint16_t *out)
{
    int x = 0;
#ifdef FIXED_AVX2
    if (edgel_cpu_has_avx2())
        x = fixed_row_avx2(pad, n, cn, q, kw, out);
#endif
    fixed_row_generic(pad, x, n, cn, q, kw, out);
}

static void fixed_column(const uint16_t *const *rows, const uint16_t *q, int kh, int n,
                         int half_up, int32_t *acc, uint8_t *out)
{
    int x = 0;
#ifdef FIXED_AVX2
    if (edgel_cpu_has_avx2())
        x = fixed_column_avx2(rows, q, kh, n, half_up, out);
#endif
    fixed_column_generic(rows, q, kh, x, n, half_up, acc, out);
}
int edgel_fixed_rows_init(edgel_fixed_rows *r, const edgel_filter_plan *p,
                          const edgel_image *src)
{
    const int kh = p->kh, n = p->w * p->cn, ext = p->w + p->kw - 1;
    memset(r, 0, sizeof *r);
    r->p = p;
    r->src = src;
    r->ring = malloc(sizeof(uint16_t) * (size_t)n * kh);
    r->pad = malloc((size_t)ext * p->cn);
    r->acc = malloc(sizeof(int32_t) * (size_t)n);
    r->xmap = malloc(sizeof(int) * (size_t)ext);
    if (!r->ring || !r->pad || !r->acc || !r->xmap) {
        edgel_fixed_rows_free(r);
        return 0;
    }
    for (int xx = 0; xx < ext; xx++)
        r->xmap[xx] = edgel_border_index(xx - p->ax, p->w, p->border);
    r->next = r->first = INT_MIN;
    return 1;
}

void edgel_fixed_rows_free(edgel_fixed_rows *r)
{
    free(r->ring);
    free(r->pad);
    free(r->acc);
    free(r->xmap);
    memset(r, 0, sizeof *r);
}

/* The ring holds the row-filtered lines of extended rows [max(first, next - kh), next), line
 * v in slot v % kh; output row y takes lines y .. y + kh - 1 (extended row v is source row
 * v - ay, with the border). */
void edgel_fixed_rows_next(edgel_fixed_rows *r, int y, uint8_t *out)
{
    const edgel_filter_plan *p = r->p;
    const int kh = p->kh, n = p->w * p->cn;
    if (y > r->next || y < r->first || y < r->next - kh)
        r->next = r->first = y; /* not a continuation: start again at y */
    for (; r->next < y + kh; r->next++) {
        padded_row(p, r->src, edgel_border_index(r->next - p->ay, p->h, p->border), r->xmap,
                   r->pad);
        fixed_row(r->pad, n, p->cn, p->qx, p->kw, r->ring + (size_t)(r->next % kh) * n);
    }
    const uint16_t *rows[EDGEL_MAX_KERNEL_SIZE];
    for (int t = 0; t < kh; t++)
        rows[t] = r->ring + (size_t)((y + t) % kh) * n;
    fixed_column(rows, p->qy, kh, n, p->round_half_up, r->acc, out);
}

/* Output rows [y0, y1); returns 1 when out of memory. */
static int fixed_stripe(const edgel_filter_plan *p, const edgel_image *src,
                        const edgel_image *dst, int y0, int y1)
{
    edgel_fixed_rows r;
    if (!edgel_fixed_rows_init(&r, p, src))
        return 1;
    for (int y = y0; y < y1; y++)
        edgel_fixed_rows_next(&r, y, edgel_row_u8(dst, y));
    edgel_fixed_rows_free(&r);
    return 0;
}

typedef struct fixed_job {
    const edgel_filter_plan *p;
    const edgel_image *src, *dst;
    int stripes;
    atomic_int failed;
} fixed_job;

static void fixed_stripe_job(void *arg, int s)
{
    fixed_job *job = arg;
    int y0, y1;
    edgel_stripe(s, job->stripes, job->p->h, &y0, &y1);
    if (fixed_stripe(job->p, job->src, job->dst, y0, y1))
        atomic_store(&job->failed, 1);
}

edgel_status edgel_cpu_filter_fixed(int threads, const edgel_filter_plan *p,
                                    const edgel_image *src, const edgel_image *dst)
{
    const int w = p->w, h = p->h;
    /* Small images: fewer stripes (waking a thread costs microseconds); one stripe runs on
     * the calling thread alone. */
    int stripes = (int)((double)w * p->cn * h * (p->kw + p->kh) / 1e6) + 1;
    stripes = stripes < threads ? stripes : threads;
    stripes = stripes < h ? stripes : h;
    fixed_job job = {p, src, dst, stripes, 0};
    edgel_host_parallel_for(stripes, stripes, fixed_stripe_job, &job);
    if (atomic_load(&job.failed))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the filter's rows");
    return EDGEL_OK;
}
