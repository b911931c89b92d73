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

/* Row pass: out[i] = sum over t of q[t] * pad[i + t * cn], exact in u16. */
EDGEL_VECTOR_CLONES static void fixed_row(const uint8_t *pad, int n, int cn, const uint16_t *q,
                                          int kw, uint16_t *out)
{
    for (int i = 0; i < n; i++)
        out[i] = 0;
    const int sym = symmetric(q, kw);
    for (int t = 0; t < (sym ? kw / 2 : kw); t++) {
        const uint16_t kt = q[t];
        const uint8_t *s = pad + (size_t)t * cn, *m = pad + (size_t)(kw - 1 - t) * cn;
        if (kt && sym)
            for (int i = 0; i < n; i++)
                out[i] = (uint16_t)(out[i] + kt * (uint16_t)(s[i] + m[i]));
        else if (kt)
            for (int i = 0; i < n; i++)
                out[i] = (uint16_t)(out[i] + kt * s[i]);
    }
    if (sym && kw % 2) {
        const uint16_t kt = q[kw / 2];
        const uint8_t *s = pad + (size_t)(kw / 2) * cn;
        for (int i = 0; i < n; i++)
            out[i] = (uint16_t)(out[i] + kt * s[i]);
    }
}

/* Column pass: the sum over t of q[t] * rows[t], rounded to u8. */
EDGEL_VECTOR_CLONES static void fixed_column(const uint16_t *const *rows, const uint16_t *q,
                                             int kh, int n, int half_up, uint32_t *acc,
                                             uint8_t *out)
{
    for (int i = 0; i < n; i++)
        acc[i] = 0;
    const int sym = symmetric(q, kh);
    for (int t = 0; t < (sym ? kh / 2 : kh); t++) {
        const uint16_t *r = rows[t], *m = rows[kh - 1 - t];
        const uint32_t kt = q[t];
        if (kt && sym)
            for (int i = 0; i < n; i++)
                acc[i] += kt * ((uint32_t)r[i] + m[i]);
        else if (kt)
            for (int i = 0; i < n; i++)
                acc[i] += kt * r[i];
    }
    if (sym && kh % 2) {
        const uint16_t *r = rows[kh / 2];
        const uint32_t kt = q[kh / 2];
        for (int i = 0; i < n; i++)
            acc[i] += kt * r[i];
    }
    if (half_up) /* two loops, each with a constant rounding, so that both vectorise */
        for (int i = 0; i < n; i++)
            out[i] = edgel_fixed_point_round(acc[i], 1);
    else
        for (int i = 0; i < n; i++)
            out[i] = edgel_fixed_point_round(acc[i], 0);
}

/* Output rows [y0, y1); returns 1 when out of memory. */
static int fixed_stripe(const edgel_filter_plan *p, const edgel_image *src,
                        const edgel_image *dst, const int *xmap, int y0, int y1)
{
    const int kh = p->kh, n = p->w * p->cn;
    uint16_t *ring = malloc(sizeof(uint16_t) * (size_t)n * kh); /* kh row-filtered lines */
    uint8_t *pad = malloc((size_t)(p->w + p->kw - 1) * p->cn);
    uint32_t *acc = malloc(sizeof(uint32_t) * (size_t)n);
    const int failed = !ring || !pad || !acc;
    /* Extended row v is source row v - ay, with the border; it goes into slot (v - y0) mod
     * kh, counted rather than divided. */
    for (int v = y0, slot = 0; v < y1 + kh - 1 && !failed; v++, slot = slot + 1 == kh ? 0 : slot + 1) {
        padded_row(p, src, edgel_border_index(v - p->ay, p->h, p->border), xmap, pad);
        fixed_row(pad, n, p->cn, p->qx, p->kw, ring + (size_t)slot * n);
        const int y = v - kh + 1; /* the output row whose lines are all in */
        if (y < y0)
            continue;
        const uint16_t *rows[EDGEL_MAX_KERNEL_SIZE];
        for (int t = 0, s = slot + 1 == kh ? 0 : slot + 1; t < kh; t++, s = s + 1 == kh ? 0 : s + 1)
            rows[t] = ring + (size_t)s * n; /* line y + t, from the oldest */
        fixed_column(rows, p->qy, kh, n, p->round_half_up, acc, edgel_row_u8(dst, y));
    }
    free(ring);
    free(pad);
    free(acc);
    return failed;
}

typedef struct fixed_job {
    const edgel_filter_plan *p;
    const edgel_image *src, *dst;
    const int *xmap;
    int stripes;
    atomic_int failed;
} fixed_job;

static void fixed_stripe_job(void *arg, int s)
{
    fixed_job *job = arg;
    int y0, y1;
    edgel_stripe(s, job->stripes, job->p->h, &y0, &y1);
    if (fixed_stripe(job->p, job->src, job->dst, job->xmap, y0, y1))
        atomic_store(&job->failed, 1);
}

edgel_status edgel_cpu_filter_fixed(int threads, const edgel_filter_plan *p,
                                    const edgel_image *src, const edgel_image *dst)
{
    const int w = p->w, h = p->h, ext = w + p->kw - 1;
    int *xmap = malloc(sizeof(int) * (size_t)ext);
    if (!xmap)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the filter");
    for (int xx = 0; xx < ext; xx++)
        xmap[xx] = edgel_border_index(xx - p->ax, w, p->border);
    /* Small images: fewer stripes (waking a thread costs microseconds); one stripe runs on
     * the calling thread alone. */
    int stripes = (int)((double)w * p->cn * h * (p->kw + p->kh) / 1e6) + 1;
    stripes = stripes < threads ? stripes : threads;
    stripes = stripes < h ? stripes : h;
    fixed_job job = {p, src, dst, xmap, stripes, 0};
    edgel_host_parallel_for(stripes, stripes, fixed_stripe_job, &job);
    free(xmap);
    if (atomic_load(&job.failed))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the filter's rows");
    return EDGEL_OK;
}
