/*
 * The Canny core of the opencv preset on the CPU: Sobel, magnitude, non-maximum suppression,
 * double threshold and hysteresis, with the exact arithmetic of src/core/opencv_math.h.
 *
 * Work is split into stripes of rows. Each stripe streams its rows through a 3-row ring of
 * gradient lines (recomputing the row above and below it, so stripes share nothing), writes
 * its rows of the hysteresis map and grows edges inside its own rows. After all stripes,
 * the joins grow edges from the stripes' first and last rows across stripe borders (one task
 * a border, in parallel).
 * The final edge set is the same closure for any stripe count, so any thread count gives
 * the same bytes.
 */
#include "cpu/cpu.h"
#include "core/host_pool.h"
#include "cpu/cpu_hysteresis.h"
#include "core/image.h"
#include "core/opencv_math.h"
#include "core/status.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* One gradient line: dx, dy of the selected channel and the magnitude with a zero on each
 * side (mag[-1] and mag[w]); narrow jobs keep the magnitude in mag16 instead. */
typedef struct grad_line {
    int16_t *dx, *dy;
    int32_t *mag;
    int16_t *mag16;
} grad_line;

typedef struct sobel_kernel {
    int size;
    int smooth[7], deriv[7];
} sobel_kernel;

static sobel_kernel sobel_kernel_for(int aperture)
{
    sobel_kernel k = {3, {1, 2, 1}, {-1, 0, 1}};
    if (aperture == 5)
        k = (sobel_kernel){5, {1, 4, 6, 4, 1}, {-1, -2, 0, 2, 1}};
    else if (aperture == 7)
        k = (sobel_kernel){7, {1, 6, 15, 20, 15, 6, 1}, {-1, -4, -5, 0, 5, 4, 1}};
    else if (aperture == EDGEL_APERTURE_SCHARR)
        k = (sobel_kernel){3, {3, 10, 3}, {-1, 0, 1}};
    return k;
}

typedef struct stripe_scratch {
    int32_t *vs, *vd; /* vertical pass results, (w + 2r) * cn each, r pixels of padding */
    int32_t *gx, *gy; /* horizontal pass results, w * cn each */
    int16_t *line_mem, *mag16_mem;
    int32_t *mag_mem;
    grad_line lines[3];
    edgel_offset_stack stack;
    edgel_fixed_rows blur; /* with a fused pre-blur: its rows, */
    uint8_t *blurred;      /* the last k.size of them, row y in slot y % k.size */
    int blurred_row[7];
} stripe_scratch;

typedef struct canny_job {
    const edgel_cpu_canny_input *in;
    int w, h, cn;
    sobel_kernel k;
    int narrow; /* Sobel 3x3 of one channel, L1: magnitudes fit 16 bits (edgel_nms_keep_i16) */
    edgel_cpu_map map;
    const edgel_canny_stages *stages;
    int nstripes;                  /* the initial split: a stripe a thread */
    struct row_range *ranges;      /* each stripe's rows left */
    uint8_t *segment_start;        /* rows where a segment starts (joins grow across above) */
    atomic_int failed;             /* out of memory in a stripe */
} canny_job;

/* Source row y (0 <= y < h): the input's, or with a fused pre-blur the blurred row, made
 * when first asked for (rows come in increasing order, a window of k.size at a time). */
static const uint8_t *source_row(const canny_job *job, stripe_scratch *s, int y)
{
    if (!job->in->blur)
        return edgel_row_u8(job->in->src, y);
    const int slot = y % job->k.size;
    uint8_t *row = s->blurred + (size_t)slot * (size_t)job->w * (size_t)job->cn;
    if (s->blurred_row[slot] != y) {
        edgel_fixed_rows_next(&s->blur, y, row);
        s->blurred_row[slot] = y;
    }
    return row;
}

/* Gradient line of image row y for aperture 3, one channel: int16 all the way, vectorisable. */
EDGEL_VECTOR_CLONES static void sobel3_row_c1(const canny_job *job, int y, stripe_scratch *s, grad_line *out)
{
    const int w = job->w, h = job->h;
    const uint8_t *r0 = source_row(job, s, edgel_clamp_index(y - 1, h));
    const uint8_t *r1 = source_row(job, s, y);
    const uint8_t *r2 = source_row(job, s, edgel_clamp_index(y + 1, h));
    int16_t *vs = (int16_t *)s->vs + 1, *vd = (int16_t *)s->vd + 1;
    for (int x = 0; x < w; x++) {
        vs[x] = (int16_t)(r0[x] + 2 * r1[x] + r2[x]);
        vd[x] = (int16_t)(r2[x] - r0[x]);
    }
    vs[-1] = vs[0];
    vd[-1] = vd[0];
    vs[w] = vs[w - 1];
    vd[w] = vd[w - 1];
    int16_t *dx = out->dx, *dy = out->dy, *mag16 = out->mag16;
    if (job->narrow) { /* L1 */
        for (int x = 0; x < w; x++) {
            const int16_t gx = (int16_t)(vs[x + 1] - vs[x - 1]);
            const int16_t gy = (int16_t)(vd[x - 1] + 2 * vd[x] + vd[x + 1]);
            dx[x] = gx;
            dy[x] = gy;
            mag16[x] = (int16_t)(abs(gx) + abs(gy));
        }
        return;
    }
    for (int x = 0; x < w; x++) { /* L2 */
        dx[x] = (int16_t)(vs[x + 1] - vs[x - 1]);
        dy[x] = (int16_t)(vd[x - 1] + 2 * vd[x] + vd[x + 1]);
    }
    for (int x = 0; x < w; x++)
        out->mag[x] = (int32_t)dx[x] * dx[x] + (int32_t)dy[x] * dy[x];
}

/* Separable Sobel of one row for kernel side n (inlined with n constant, so the tap loops
 * unroll and the row loops vectorise): vertical pass into vs/vd, replicated r pixels left and
 * right, then the horizontal pass into gx/gy (w * cn values each). */
static inline __attribute__((always_inline)) void
sobel_passes(const uint8_t *const *rows, int n, const int *sm, const int *de, int w, int cn,
             int32_t *restrict vs, int32_t *restrict vd, int32_t *restrict gx,
             int32_t *restrict gy)
{
    const int r = n / 2, len = w * cn;
    int32_t *vs0 = vs + r * cn, *vd0 = vd + r * cn;
    for (int i = 0; i < len; i++) {
        int32_t a = 0, b = 0;
        for (int t = 0; t < n; t++) {
            a += sm[t] * rows[t][i];
            b += de[t] * rows[t][i];
        }
        vs0[i] = a;
        vd0[i] = b;
    }
    for (int p = 1; p <= r; p++)
        for (int c = 0; c < cn; c++) {
            vs0[-p * cn + c] = vs0[c];
            vd0[-p * cn + c] = vd0[c];
            vs0[(w - 1 + p) * cn + c] = vs0[(w - 1) * cn + c];
            vd0[(w - 1 + p) * cn + c] = vd0[(w - 1) * cn + c];
        }
    for (int i = 0; i < len; i++) {
        int32_t a = 0, b = 0;
        for (int t = 0; t < n; t++) {
            a += de[t] * vs[i + t * cn];
            b += sm[t] * vd[i + t * cn];
        }
        gx[i] = a;
        gy[i] = b;
    }
}

EDGEL_VECTOR_CLONES static void sobel_generic_passes(const uint8_t *const *rows, int n,
                                                     const int *sm, const int *de, int w, int cn,
                                                     int32_t *vs, int32_t *vd, int32_t *gx,
                                                     int32_t *gy)
{
    switch (n) {
    case 3: sobel_passes(rows, 3, sm, de, w, cn, vs, vd, gx, gy); break;
    case 5: sobel_passes(rows, 5, sm, de, w, cn, vs, vd, gx, gy); break;
    default: sobel_passes(rows, 7, sm, de, w, cn, vs, vd, gx, gy); break;
    }
}

/* Gradient line for any aperture and channel count (int32 sums, 7x7 rounded /16); for
 * several channels, per pixel the one of largest magnitude (the first on ties). */
static void sobel_row_generic(const canny_job *job, int y, stripe_scratch *s, grad_line *out)
{
    const int w = job->w, h = job->h, cn = job->cn, n = job->k.size, r = n / 2;
    const int l2 = job->in->l2;
    const uint8_t *rows[7];
    for (int t = 0; t < n; t++)
        rows[t] = source_row(job, s, edgel_clamp_index(y + t - r, h));
    int32_t *gx = s->gx, *gy = s->gy;
    sobel_generic_passes(rows, n, job->k.smooth, job->k.deriv, w, cn, s->vs, s->vd, gx, gy);
    const int len = w * cn;
    if (job->in->aperture == 7)
        for (int i = 0; i < len; i++) {
            gx[i] = edgel_div16_round_even(gx[i]);
            gy[i] = edgel_div16_round_even(gy[i]);
        }
    for (int x = 0; x < w; x++) {
        const int i0 = x * cn;
        int32_t best = edgel_magnitude(gx[i0], gy[i0], l2), bi = i0;
        for (int c = 1; c < cn; c++) {
            const int32_t m = edgel_magnitude(gx[i0 + c], gy[i0 + c], l2);
            bi = m > best ? i0 + c : bi;
            best = m > best ? m : best;
        }
        out->dx[x] = (int16_t)gx[bi];
        out->dy[x] = (int16_t)gy[bi];
        out->mag[x] = best;
    }
}

/* Gradient line from caller-supplied dx, dy (the cv::Canny(dx, dy, ...) form). */
static void given_gradient_row(const canny_job *job, int y, stripe_scratch *s, grad_line *out)
{
    (void)s;
    const int16_t *gx = (const int16_t *)edgel_row_u8(job->in->dx, y);
    const int16_t *gy = (const int16_t *)edgel_row_u8(job->in->dy, y);
    const int w = job->w, cn = job->cn, l2 = job->in->l2;
    for (int x = 0; x < w; x++) {
        int32_t best = 0, bdx = 0, bdy = 0;
        for (int c = 0; c < cn; c++) {
            int32_t m = edgel_magnitude(gx[x * cn + c], gy[x * cn + c], l2);
            if (c == 0 || m > best) {
                best = m;
                bdx = gx[x * cn + c];
                bdy = gy[x * cn + c];
            }
        }
        out->dx[x] = (int16_t)bdx;
        out->dy[x] = (int16_t)bdy;
        out->mag[x] = best;
    }
}

static void gradient_line(const canny_job *job, int y, stripe_scratch *s, grad_line *out)
{
    if (y < 0 || y >= job->h) {
        if (job->narrow)
            memset(out->mag16 - 1, 0, sizeof(int16_t) * (size_t)(job->w + 2));
        else
            memset(out->mag - 1, 0, sizeof(int32_t) * (size_t)(job->w + 2));
        return;
    }
    if (!job->in->src)
        given_gradient_row(job, y, s, out);
    else if (job->cn == 1 && job->in->aperture == 3)
        sobel3_row_c1(job, y, s, out);
    else
        sobel_row_generic(job, y, s, out);
}

static void write_stage_rows(const canny_job *job, int y, const grad_line *g, const uint8_t *map)
{
    const edgel_canny_stages *st = job->stages;
    const size_t w = (size_t)job->w;
    if (!st)
        return;
    if (st->dx)
        memcpy(edgel_row_u8(st->dx, y), g->dx, w * sizeof(int16_t));
    if (st->dy)
        memcpy(edgel_row_u8(st->dy, y), g->dy, w * sizeof(int16_t));
    if (st->magnitude && job->narrow) {
        int32_t *d = (int32_t *)edgel_row_u8(st->magnitude, y);
        for (size_t x = 0; x < w; x++)
            d[x] = g->mag16[x];
    } else if (st->magnitude) {
        memcpy(edgel_row_u8(st->magnitude, y), g->mag, w * sizeof(int32_t));
    }
    if (st->suppressed) {
        uint8_t *d = edgel_row_u8(st->suppressed, y);
        for (size_t x = 0; x < w; x++)
            d[x] = edgel_map_to_suppressed(map[x]);
    }
}

static int16_t clamp_i16(int32_t v) { return (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v); }

/* Non-maximum suppression and double threshold of one row into the map (a vectorised pass,
 * at 16 lanes a vector for narrow jobs). */
EDGEL_VECTOR_CLONES static void nms_row(const canny_job *job, const grad_line *prev,
                                        const grad_line *cur, const grad_line *next, uint8_t *map)
{
    const int w = job->w;
    const int32_t low = job->in->thresholds.low, high = job->in->thresholds.high;
    const int16_t *dx = cur->dx, *dy = cur->dy;
    if (job->narrow) {
        const int16_t *up = prev->mag16, *mid = cur->mag16, *down = next->mag16;
        const int16_t low16 = clamp_i16(low), high16 = clamp_i16(high);
        for (int x = 0; x < w; x++)
            map[x] = edgel_nms_decide_i16(up, mid, down, x, dx[x], dy[x], low16, high16);
        return;
    }
    const int32_t *up = prev->mag, *mid = cur->mag, *down = next->mag;
    for (int x = 0; x < w; x++)
        map[x] = edgel_nms_value(up, mid, down, x, dx[x], dy[x], low, high);
}

static int scratch_init(const canny_job *job, stripe_scratch *s, int w, int cn, int r)
{
    memset(s, 0, sizeof *s);
    if (job->in->blur) {
        s->blurred = malloc((size_t)w * (size_t)cn * (size_t)job->k.size);
        if (!s->blurred || !edgel_fixed_rows_init(&s->blur, job->in->blur, job->in->src))
            return 0;
        for (int i = 0; i < job->k.size; i++)
            s->blurred_row[i] = -1;
    }
    const size_t padded = (size_t)(w + 2 * r) * (size_t)cn + 2;
    s->vs = malloc(sizeof(int32_t) * padded);
    s->vd = malloc(sizeof(int32_t) * padded);
    s->gx = malloc(sizeof(int32_t) * padded);
    s->gy = malloc(sizeof(int32_t) * padded);
    s->line_mem = malloc(sizeof(int16_t) * 6 * (size_t)w);
    s->mag_mem = malloc(sizeof(int32_t) * 3 * (size_t)(w + 2));
    s->mag16_mem = calloc(3 * (size_t)(w + 2), sizeof(int16_t));
    if (!s->vs || !s->vd || !s->gx || !s->gy || !s->line_mem || !s->mag_mem || !s->mag16_mem)
        return 0;
    for (int i = 0; i < 3; i++) {
        s->lines[i].dx = s->line_mem + (size_t)(2 * i) * w;
        s->lines[i].dy = s->line_mem + (size_t)(2 * i + 1) * w;
        s->lines[i].mag = s->mag_mem + (size_t)i * (w + 2) + 1;
        s->lines[i].mag[-1] = 0;
        s->lines[i].mag[w] = 0;
        s->lines[i].mag16 = s->mag16_mem + (size_t)i * (w + 2) + 1; /* zeros on each side */
    }
    return 1;
}

static void scratch_free(stripe_scratch *s)
{
    free(s->vs);
    free(s->vd);
    free(s->gx);
    free(s->gy);
    free(s->line_mem);
    free(s->mag_mem);
    free(s->mag16_mem);
    free(s->stack.items);
    free(s->blurred);
    if (s->blur.p)
        edgel_fixed_rows_free(&s->blur);
}

/* Rows still to do of a stripe, next and end in one word: its thread takes rows from the
 * front, and a thread with none left takes the back half (see sweep()). */
typedef struct row_range {
    _Atomic uint64_t rows; /* next << 32 | end */
    atomic_flag claimed;
    char pad[64 - sizeof(uint64_t) - sizeof(atomic_flag)]; /* one cache line each */
} row_range;

static uint64_t pack_rows(uint32_t next, uint32_t end) { return (uint64_t)next << 32 | end; }

/* Takes row y of r for the caller (y: the row it expects, the range's front); 0 when the
 * range ends before y (done, or the back taken by another thread). */
static int take_row(row_range *r, int y)
{
    uint64_t v = atomic_load(&r->rows);
    while ((int)(v >> 32) == y && y < (int)(uint32_t)v)
        if (atomic_compare_exchange_weak(&r->rows, &v, pack_rows((uint32_t)y + 1, (uint32_t)v)))
            return 1;
    return 0;
}

/* Gradient, NMS and local hysteresis of the rows of r from y0 on, as long as the range
 * gives them. Returns 0 when out of memory. */
static int run_segment(canny_job *job, stripe_scratch *s, row_range *r, int y0)
{
    if (y0 > 0)
        job->segment_start[y0] = 1; /* a border the joins grow across */
    grad_line *prev = &s->lines[0], *cur = &s->lines[1], *next = &s->lines[2];
    gradient_line(job, y0 - 1, s, prev);
    gradient_line(job, y0, s, cur);
    int y = y0;
    for (; take_row(r, y); y++) {
        gradient_line(job, y + 1, s, next);
        uint8_t *map = edgel_map_row(&job->map, y);
        nms_row(job, prev, cur, next, map);
        edgel_cpu_push_strong(&job->map, y, &s->stack);
        write_stage_rows(job, y, cur, map);
        grad_line *t = prev;
        prev = cur;
        cur = next;
        next = t;
    }
    return y == y0 || edgel_cpu_grow_stripe(&job->map, &s->stack, y0, y);
}

/* Rows left in a range below which a thread steals none: a segment of fewer rows costs more
 * in its halo (the pre-blur's and the Sobel's rows above and below) than it saves. */
#define STEAL_MIN_ROWS 16

/* Moves the back half of the range with most rows left into `mine`; 0 when none has enough. */
static int steal_rows(canny_job *job, row_range *mine, int *y0)
{
    for (;;) {
        row_range *victim = NULL;
        uint64_t v = 0;
        int most = STEAL_MIN_ROWS - 1;
        for (int i = 0; i < job->nstripes; i++) {
            const uint64_t w = atomic_load(&job->ranges[i].rows);
            const int left = (int)(uint32_t)w - (int)(w >> 32);
            if (left > most)
                most = left, victim = &job->ranges[i], v = w;
        }
        if (!victim)
            return 0;
        const uint32_t next = (uint32_t)(v >> 32), end = (uint32_t)v, mid = next + (end - next) / 2;
        if (atomic_compare_exchange_strong(&victim->rows, &v, pack_rows(next, mid))) {
            atomic_store(&mine->rows, pack_rows(mid, end));
            *y0 = (int)mid;
            return 1;
        }
    }
}

/* One thread's sweep: its own stripe (or any not yet claimed, when the pool runs fewer
 * threads than stripes), then the back halves of others' as long as one has enough rows
 * left. Each segment's rows are written whole by one thread; the edges are the same for
 * any split (the joins grow across every segment's border). */
static void sweep(void *arg, int thread, int nthreads)
{
    canny_job *job = arg;
    (void)nthreads;
    stripe_scratch s;
    int ok = scratch_init(job, &s, job->w, job->cn, job->k.size / 2);
    row_range *mine = NULL;
    for (int k = 0; ok && k < job->nstripes; k++) {
        row_range *r = &job->ranges[(thread + k) % job->nstripes];
        if (atomic_flag_test_and_set(&r->claimed))
            continue;
        mine = r;
        ok = run_segment(job, &s, r, (int)(atomic_load(&r->rows) >> 32));
    }
    int y0;
    while (ok && mine && steal_rows(job, mine, &y0))
        ok = run_segment(job, &s, mine, y0);
    if (!ok)
        atomic_store(&job->failed, 1);
    scratch_free(&s);
}

edgel_status edgel_cpu_canny_core(int threads, edgel_cpu_workspace *ws,
                                  const edgel_cpu_canny_input *in, const edgel_image *edges,
                                  const edgel_canny_stages *stages)
{
    canny_job job;
    const edgel_image *ref = in->src ? in->src : in->dx;
    job.in = in;
    job.w = ref->width;
    job.h = ref->height;
    job.cn = ref->channels;
    job.k = sobel_kernel_for(in->src ? in->aperture : 3);
    job.narrow = in->src && job.cn == 1 && in->aperture == 3 && !in->l2;
    job.stages = stages;
    EDGEL_TRY(edgel_cpu_map_init(&ws->map, job.w, job.h, &job.map));

    /* A stripe a thread (the pool runs no more threads than cores), split further only
     * where a thread runs out of rows: each segment's halo rows and its join across its
     * border cost time that more stripes would multiply. */
    job.nstripes = threads < edgel_host_cores() ? threads : edgel_host_cores();
    job.nstripes = job.nstripes < job.h ? job.nstripes : job.h;
    row_range local[64];
    job.ranges = job.nstripes <= 64 ? local : malloc(sizeof(row_range) * (size_t)job.nstripes);
    job.segment_start = calloc((size_t)job.h, 1);
    int *borders = malloc(sizeof(int) * (size_t)job.h);
    int failed = !job.ranges || !job.segment_start || !borders;
    if (!failed) {
        for (int i = 0; i < job.nstripes; i++) {
            int y0, y1;
            edgel_stripe(i, job.nstripes, job.h, &y0, &y1);
            atomic_init(&job.ranges[i].rows, pack_rows((uint32_t)y0, (uint32_t)y1));
            atomic_flag_clear(&job.ranges[i].claimed);
        }
        atomic_init(&job.failed, 0);
        edgel_host_parallel(threads, sweep, &job);
        failed = atomic_load(&job.failed);
    }
    if (!failed) { /* across the segments' borders */
        int nborders = 0;
        for (int y = 1; y < job.h; y++)
            if (job.segment_start[y])
                borders[nborders++] = y;
        failed = !edgel_cpu_grow_across(threads, &job.map, borders, nborders);
    }
    if (job.ranges != local)
        free(job.ranges);
    free(job.segment_start);
    free(borders);
    if (failed)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory during hysteresis");
    edgel_cpu_write_edges(threads, &job.map, edges);
    return EDGEL_OK;
}
