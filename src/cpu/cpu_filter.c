/*
 * The convolution engine on the CPU: the direct and separable methods (the FFT method is in
 * cpu_fft.c). Rows are independent, so they are split over threads; each output row is
 * accumulated in float with fused multiply-adds, tap by tap in raster order, which is
 * cv2.filter2D's arithmetic for the direct method.
 */
#include "core/border.h"
#include "core/filter.h"
#include "core/filter_math.h"
#include "core/image.h"
#include "core/status.h"
#include "cpu/cpu.h"
#include "core/host_pool.h"

#include <math.h>
#include <stdatomic.h>
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
    /* The rest in steps of 32, 16 and 8: a step's accumulators are its independent chains,
     * and with two (steps of 16 only) a 96-wide row took longer than a 128-wide one. */
    if (x + 32 <= n) {
        DIRECT_CHUNK(4);
        x += 32;
    }
    if (x + 16 <= n) {
        DIRECT_CHUNK(2);
        x += 16;
    }
    if (x + 8 <= n) {
        DIRECT_CHUNK(1);
        x += 8;
    }
    direct_row_generic(taps, kw, kh, cn, rows, acc, x, n);
}

/*
 * BLOCK_ROWS output rows at once (rows[0 .. kh + BLOCK_ROWS - 2] the extended input rows of
 * output rows 0 .. BLOCK_ROWS - 1, acc row o at acc + o * stride). Input row r gives output
 * row o its kernel row r - o, so each output still takes its taps in raster order (the floats
 * of direct_row), while each vector loaded serves up to BLOCK_ROWS outputs instead of one:
 * direct_row spends a load per FMA and is bound by the load ports. Kernels with no zero taps
 * only (direct_row skips zero taps, as OpenCV does).
 */
#define BLOCK_ROWS 3    /* 3 x 4 vectors: 12 accumulators, 3 taps and the loaded vector */
#define BLOCK_VECTORS 4 /* fill the 16 AVX2 registers */
#define BLOCK_MIN_KH EDGEL_CPU_BLOCK_MIN_KH /* shorter kernels: the first and last rows, where
                         * fewer outputs take taps, are too large a share; direct_row measured
                         * faster there */

/* Taps of input row r (at rows[r] + x) into the outputs o for which ACTIVE(o) holds. */
#define BLOCK_TAPS(N, ACTIVE)                                                             \
    for (int i = 0; i < kw; i++) {                                                        \
        const float *q = rows[r] + x + (size_t)i * cn;                                    \
        __m256 t[BLOCK_ROWS];                                                             \
        for (int o = 0; o < BLOCK_ROWS; o++)                                              \
            t[o] = (ACTIVE) ? _mm256_broadcast_ss(taps + (size_t)(r - o) * kw + i)        \
                            : _mm256_setzero_ps();                                        \
        for (int v = 0; v < N; v++) {                                                     \
            const __m256 d = _mm256_loadu_ps(q + 8 * v);                                  \
            for (int o = 0; o < BLOCK_ROWS; o++)                                          \
                if (ACTIVE)                                                               \
                    a[o][v] = _mm256_fmadd_ps(t[o], d, a[o][v]);                          \
        }                                                                                 \
    }

#define BLOCK_CHUNK(N)                                                                    \
    do {                                                                                  \
        __m256 a[BLOCK_ROWS][N];                                                          \
        for (int o = 0; o < BLOCK_ROWS; o++)                                              \
            for (int v = 0; v < N; v++)                                                   \
                a[o][v] = _mm256_setzero_ps();                                            \
        int r = 0;                                                                        \
        for (; r < BLOCK_ROWS - 1 && r < kh; r++) /* the first rows: outputs o <= r */    \
            BLOCK_TAPS(N, o <= r)                                                         \
        for (; r < kh; r++) /* every output */                                            \
            BLOCK_TAPS(N, 1)                                                              \
        for (; r < kh + BLOCK_ROWS - 1; r++) /* the last rows: outputs o > r - kh */      \
            BLOCK_TAPS(N, o > r - kh && o <= r)                                           \
        for (int o = 0; o < BLOCK_ROWS; o++)                                              \
            for (int v = 0; v < N; v++)                                                   \
                _mm256_storeu_ps(acc + (size_t)o * stride + x + 8 * v, a[o][v]);          \
    } while (0)

__attribute__((target("avx2,fma"))) static void direct_rows_avx2(const float *taps, int kw,
                                                                 int kh, int cn,
                                                                 const float *const *rows,
                                                                 float *acc, size_t stride, int n)
{
    int x = 0;
    for (; x + 8 * BLOCK_VECTORS <= n; x += 8 * BLOCK_VECTORS)
        BLOCK_CHUNK(BLOCK_VECTORS);
    for (; x + 8 <= n; x += 8)
        BLOCK_CHUNK(1);
    for (int o = 0; o < BLOCK_ROWS; o++)
        direct_row_generic(taps, kw, kh, cn, rows + o, acc + (size_t)o * stride, x, n);
}

static void direct_row(const float *taps, int kw, int kh, int cn, const float *const *rows,
                       float *acc, int n)
{
    if (edgel_cpu_has_avx2_fma())
        direct_row_avx2(taps, kw, kh, cn, rows, acc, n);
    else
        direct_row_generic(taps, kw, kh, cn, rows, acc, 0, n);
}

/* `count` output rows of n values (rows[o ..] the input rows of row o, acc row o at
 * acc + o * stride); dense: the kernel has no zero taps. */
static void direct_rows(const float *taps, int kw, int kh, int cn, const float *const *rows,
                        float *acc, size_t stride, int n, int count, int dense)
{
    if (count == BLOCK_ROWS && dense && kh >= BLOCK_MIN_KH && edgel_cpu_has_avx2_fma()) {
        direct_rows_avx2(taps, kw, kh, cn, rows, acc, stride, n);
        return;
    }
    for (int o = 0; o < count; o++)
        direct_row(taps, kw, kh, cn, rows + o, acc + (size_t)o * stride, n);
}
#else
#define BLOCK_ROWS 1

static void direct_rows(const float *taps, int kw, int kh, int cn, const float *const *rows,
                        float *acc, size_t stride, int n, int count, int dense)
{
    (void)dense;
    for (int o = 0; o < count; o++)
        direct_row_generic(taps, kw, kh, cn, rows + o, acc + (size_t)o * stride, 0, n);
}
#endif

/* (The AVX2 clone converts eight values an instruction: the SSE2 loop was a fifth of a u8
 * 3x3 filter.) */
EDGEL_VECTOR_CLONES static void u8_to_float(const unsigned char *in, int n, float *out)
{
    for (int i = 0; i < n; i++)
        out[i] = (float)in[i];
}

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
        u8_to_float(row, p->w * cn, inside);
    else
        memcpy(inside, row, sizeof(float) * (size_t)p->w * cn);
    EDGEL_EXTEND_BORDERS(out, n, cn, p->ax, p->w, xmap, bv);
}

/* Rounded half to even and saturated; 0 where not finite (core/filter_math.h). */
static void round_to_u8_generic(const float *acc, int n, unsigned char *row)
{
    for (int i = 0; i < n; i++)
        row[i] = edgel_filter_store_u8(acc[i]);
}

/* f32 results in place: NaN where not finite (core/filter_math.h). */
static void store_f32(float *row, int n)
{
    for (int i = 0; i < n; i++)
        row[i] = edgel_filter_store_f32(row[i]);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
/* The same, 32 values a step: non-finite values zeroed, clamped to [0, 255], then
 * converted in the current rounding mode and packed. (nearbyintf is a call per value
 * without SSE4.1, and GCC's own vectorisation of the loop above blends its compares: each
 * took a third of a u8 3x3 filter.) */
__attribute__((target("avx2"))) static void round_to_u8_avx2(const float *acc, int n,
                                                             unsigned char *row)
{
    const __m256 lo = _mm256_setzero_ps(), hi = _mm256_set1_ps(255.0f);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    int i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i q[4];
        for (int v = 0; v < 4; v++) {
            const __m256 x = _mm256_loadu_ps(acc + i + 8 * v);
            const __m256 finite = _mm256_cmp_ps(_mm256_sub_ps(x, x), lo, _CMP_EQ_OQ);
            q[v] = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(_mm256_and_ps(x, finite),
                                                                  lo), hi));
        }
        const __m256i b = _mm256_packus_epi16(_mm256_packs_epi32(q[0], q[1]),
                                              _mm256_packs_epi32(q[2], q[3]));
        _mm256_storeu_si256((__m256i *)(row + i), _mm256_permutevar8x32_epi32(b, order));
    }
    round_to_u8_generic(acc + i, n - i, row + i);
}
#endif

static void round_to_u8(const float *acc, int n, unsigned char *row)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
    if (edgel_cpu_has_avx2_fma()) {
        round_to_u8_avx2(acc, n, row);
        return;
    }
#endif
    round_to_u8_generic(acc, n, row);
}

/* An accumulated row into dst row y: f32 as it is, u8 rounded half to even and saturated. */
static void store_row(const edgel_filter_plan *p, const edgel_image *dst, int y, const float *acc)
{
    const int n = p->w * p->cn;
    unsigned char *row = edgel_row_u8(dst, y);
    if (p->out_type == EDGEL_F32) {
        memcpy(row, acc, sizeof(float) * (size_t)n);
        store_f32((float *)row, n);
    } else
        round_to_u8(acc, n, row);
}

/* Per-thread memory: a ring of kh + BLOCK_ROWS - 1 extended rows (row v of the extended
 * image in slot v mod that), their pointers, and BLOCK_ROWS accumulated rows. */
typedef struct row_scratch {
    float *ring, *acc;
    const float **rows;
    int slots;
    int lo, hi;  /* extended rows held: [lo, hi) */
    int hi_slot; /* the slot row hi goes into */
} row_scratch;

static int scratch_alloc(const edgel_filter_plan *p, row_scratch *s)
{
    const size_t ext = (size_t)(p->w + p->kw - 1) * (size_t)p->cn;
    s->slots = p->kh + BLOCK_ROWS - 1;
    s->ring = malloc(sizeof(float) * ext * (size_t)s->slots);
    s->acc = malloc(sizeof(float) * (size_t)p->w * (size_t)p->cn * BLOCK_ROWS);
    s->rows = malloc(sizeof(float *) * (size_t)s->slots);
    s->lo = s->hi = s->hi_slot = 0;
    return s->ring && s->acc && s->rows;
}

static void scratch_free(row_scratch *s)
{
    free(s->ring);
    free(s->acc);
    free(s->rows);
}

/* Points s->rows at the extended rows first .. first + count - 1 (count <= s->slots),
 * extending the ones not held. */
static void ring_rows(const edgel_filter_plan *p, const edgel_image *src, const int *xmap,
                      int first, int count, row_scratch *s)
{
    const size_t ext = (size_t)(p->w + p->kw - 1) * (size_t)p->cn;
    const int last = first + count, n = s->slots;
    if (first > s->hi || first < s->lo) { /* not a continuation: start over */
        s->lo = s->hi = first;
        s->hi_slot = 0;
    }
    /* Slots are counted, never divided: the divisions of a slot index per block (four
     * idiv) cost a 64x64 call 15%. */
    for (; s->hi < last; s->hi++, s->hi_slot = s->hi_slot + 1 == n ? 0 : s->hi_slot + 1)
        extended_row(p, src, edgel_border_index(s->hi, p->h, p->border), xmap,
                     s->ring + (size_t)s->hi_slot * ext);
    s->lo = first;
    int slot = s->hi_slot - (s->hi - first); /* rows held never exceed the n slots */
    if (slot < 0)
        slot += n;
    for (int j = 0; j < count; j++, slot = slot + 1 == n ? 0 : slot + 1)
        s->rows[j] = s->ring + (size_t)slot * ext;
}

static int all_nonzero(const float *v, int count)
{
    for (int i = 0; i < count; i++)
        if (v[i] == 0.0f)
            return 0;
    return 1;
}

/* One call's shared state. */
typedef struct filter_job {
    const edgel_filter_plan *p;
    const edgel_image *src, *dst;
    const int *xmap;
    float *rows; /* separable: the row-filtered image, plus one row for a constant border */
    int separable, dense, in_place, blocks;
    atomic_int failed; /* out of memory for a thread's rows */
} filter_job;

/* This thread's rows, or the job marked failed (out of memory). */
static int job_scratch(filter_job *job, row_scratch *s)
{
    if (scratch_alloc(job->p, s))
        return 1;
    atomic_store(&job->failed, 1);
    return 0;
}

/* Thread t of n: the separable method's row pass over its share of the rows (row h: the
 * constant row). */
static void filter_row_pass(void *arg, int t, int nthreads)
{
    filter_job *job = arg;
    const edgel_filter_plan *p = job->p;
    const int n = p->w * p->cn, cn = p->cn;
    row_scratch s;
    if (!job_scratch(job, &s))
        return;
    int y0, y1;
    edgel_stripe(t, nthreads, p->h + 1, &y0, &y1);
    for (int y = y0; y < y1; y++) {
        extended_row(p, job->src, y < p->h ? y : -1, job->xmap, s.ring);
        const float *one = s.ring;
        direct_rows(p->kx, p->kw, 1, cn, &one, job->rows + (size_t)y * n, 0, n, 1, 0);
    }
    scratch_free(&s);
}

/* Thread t of n: its share of the blocks of BLOCK_ROWS output rows, the column pass
 * (separable) or the whole filter. */
static void filter_blocks(void *arg, int t, int nthreads)
{
    filter_job *job = arg;
    const edgel_filter_plan *p = job->p;
    const int n = p->w * p->cn, cn = p->cn;
    row_scratch s;
    if (!job_scratch(job, &s))
        return;
    int b0, b1;
    edgel_stripe(t, nthreads, job->blocks, &b0, &b1);
    for (int b = b0; b < b1; b++) {
        const int y = b * BLOCK_ROWS;
        const int count = p->h - y < BLOCK_ROWS ? p->h - y : BLOCK_ROWS;
        /* f32 results go straight into dst where its rows hold whole floats */
        float *out = job->in_place ? (float *)edgel_row_u8(job->dst, y) : s.acc;
        const size_t stride = job->in_place ? job->dst->pitch / sizeof(float) : (size_t)n;
        if (job->separable) {
            for (int j = 0; j < p->kh + count - 1; j++) {
                const int sy = edgel_border_index(y + j - p->ay, p->h, p->border);
                s.rows[j] = job->rows + (size_t)(sy < 0 ? p->h : sy) * n;
            }
            direct_rows(p->ky, 1, p->kh, cn, s.rows, out, stride, n, count, job->dense);
        } else {
            ring_rows(p, job->src, job->xmap, y - p->ay, p->kh + count - 1, &s);
            direct_rows(p->taps, p->kw, p->kh, cn, s.rows, out, stride, n, count, job->dense);
        }
        for (int o = 0; o < count; o++)
            if (job->in_place)
                store_f32(out + (size_t)o * stride, n);
            else
                store_row(p, job->dst, y + o, s.acc + (size_t)o * n);
    }
    scratch_free(&s);
}

edgel_status edgel_cpu_filter(int threads, edgel_cpu_workspace *ws, const edgel_filter_plan *p,
                              const edgel_image *src, const edgel_image *dst)
{
    if (p->method == EDGEL_CONV_FFT)
        return edgel_cpu_filter_fft(threads, ws, p, src, dst);
    if (p->method == EDGEL_CONV_SEPARABLE && p->fixed_point)
        return edgel_cpu_filter_fixed(threads, p, src, dst);
    const int ext = p->w + p->kw - 1, n = p->w * p->cn;
    filter_job job = {p, src, dst, NULL, NULL, p->method == EDGEL_CONV_SEPARABLE, 0, 0, 0, 0};
    int *xmap = malloc(sizeof(int) * (size_t)ext);
    job.rows = job.separable ? malloc(sizeof(float) * (size_t)n * (size_t)(p->h + 1)) : NULL;
    if (!xmap || (job.separable && !job.rows)) {
        free(xmap), free(job.rows);
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the filter");
    }
    for (int xx = 0; xx < ext; xx++)
        xmap[xx] = edgel_border_index(xx - p->ax, p->w, p->border);
    job.xmap = xmap;
    job.dense = job.separable ? all_nonzero(p->ky, p->kh) : p->nonzero == p->kw * p->kh;
    job.in_place = p->out_type == EDGEL_F32 && dst->pitch % sizeof(float) == 0 &&
                   (uintptr_t)dst->data % sizeof(float) == 0;
    job.blocks = (p->h + BLOCK_ROWS - 1) / BLOCK_ROWS;
    /* Small images: fewer threads (a parallel region costs microseconds per thread). */
    const double work = (double)n * p->h * (job.separable ? p->kw + p->kh : p->nonzero + 4);
    int tasks = (int)(work / 2e5) + 1;
    tasks = tasks < threads ? tasks : threads;
    tasks = tasks < job.blocks ? tasks : job.blocks;
    if (job.separable)
        edgel_host_parallel(tasks, filter_row_pass, &job);
    if (!atomic_load(&job.failed))
        edgel_host_parallel(tasks, filter_blocks, &job);
    free(xmap);
    free(job.rows);
    if (atomic_load(&job.failed))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the filter's rows");
    return EDGEL_OK;
}
