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

int edgel_fixed_rows_init(edgel_fixed_rows *r, const edgel_filter_plan *p,
                          const edgel_image *src)
{
    const int kh = p->kh, n = p->w * p->cn, ext = p->w + p->kw - 1;
    memset(r, 0, sizeof *r);
    r->p = p;
    r->src = src;
    r->ring = malloc(sizeof(uint16_t) * (size_t)n * kh);
    r->pad = malloc((size_t)ext * p->cn);
    r->acc = malloc(sizeof(uint32_t) * (size_t)n);
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
