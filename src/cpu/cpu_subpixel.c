/*
 * The Canny/Devernay sub-pixel detector on the CPU (edgel_subpixel_edges), written from its
 * description (IPOL 2017; the arithmetic of each pixel is core/subpixel_math.h's):
 *   1. the image as doubles, blurred by a separable Gaussian (rows' pass first), borders by
 *      symmetry of period 2X;
 *   2. centred differences and their modulus inside a one-pixel ring;
 *   3. edge points inside a two-pixel ring: maxima of the modulus along x or y, placed at the
 *      parabola's vertex along that axis;
 *   4. chaining: each edge point, column by column, proposes a link to its best forward and
 *      best backward neighbour within two pixels; a link replaces one already made at the
 *      target only where it scores better;
 *   5. hysteresis along the chains, in memory order; 6. the curves listed in memory order.
 * Steps 1 to 3 run over rows in parallel (each value computed once, by one thread, in the
 * same order of operations: the result does not depend on the threads). Steps 4 to 6 depend
 * on their order of visit and run as the reference's single pass.
 */
#include "core/curves.h"
#include "core/host_pool.h"
#include "core/status.h"
#include "core/subpixel_math.h"
#include "cpu/cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct subpixel_job {
    const edgel_image *src;
    edgel_curves *c;
    int w, h, radius;
    const double *kernel; /* 2 * radius + 1 taps */
    const int *col_of;    /* symmetric index of column j - radius, w + 2 * radius entries */
    const int *row_of;    /* the same for rows */
} subpixel_job;

/* Index j of 0..n-1 after the reference's symmetric extension (period 2n). */
static int symmetric(long long j, int n)
{
    const long long n2 = 2LL * n;
    j %= n2;
    if (j < 0)
        j += n2;
    return (int)(j >= n ? n2 - 1 - j : j);
}

static void convert_row(void *arg, int y)
{
    const subpixel_job *job = arg;
    const edgel_image *s = job->src;
    const uint8_t *row = (const uint8_t *)s->data + (size_t)y * s->pitch;
    double *out = job->c->image + (size_t)y * job->w;
    for (int x = 0; x < job->w; x++)
        switch (s->type) {
        case EDGEL_U8: out[x] = row[x]; break;
        case EDGEL_U16: out[x] = ((const uint16_t *)row)[x]; break;
        case EDGEL_F32: out[x] = ((const float *)row)[x]; break;
        default: out[x] = ((const double *)row)[x]; break;
        }
}

/* The blur along x of row y: image -> pass. Each output sums its taps in order from 0.0. */
static void blur_row(void *arg, int y)
{
    const subpixel_job *job = arg;
    const int w = job->w, r = job->radius, n = 2 * r + 1;
    const double *in = job->c->image + (size_t)y * w;
    double *out = job->c->pass + (size_t)y * w;
    const int lo = r < w ? r : w, hi = w - r > lo ? w - r : lo;
    for (int x = 0; x < w; x++)
        out[x] = 0.0;
    for (int i = 0; i < n; i++) {
        const double k = job->kernel[i];
        for (int x = 0; x < lo; x++)
            out[x] += in[job->col_of[x + i]] * k;
        for (int x = lo; x < hi; x++) /* inside: no wrap */
            out[x] += in[x + i - r] * k;
        for (int x = hi; x < w; x++)
            out[x] += in[job->col_of[x + i]] * k;
    }
}

/* The blur along y into row y: pass -> image. */
static void blur_column_row(void *arg, int y)
{
    const subpixel_job *job = arg;
    const int w = job->w, n = 2 * job->radius + 1;
    double *out = job->c->image + (size_t)y * w;
    for (int x = 0; x < w; x++)
        out[x] = 0.0;
    for (int i = 0; i < n; i++) {
        const double k = job->kernel[i];
        const double *in = job->c->pass + (size_t)job->row_of[y + i] * w;
        for (int x = 0; x < w; x++)
            out[x] += in[x] * k;
    }
}

/* Centred differences of row y (zero on the image's outer ring, which no later step reads). */
static void gradient_row(void *arg, int y)
{
    const subpixel_job *job = arg;
    const int w = job->w, h = job->h;
    const size_t o = (size_t)y * w;
    edgel_curves *c = job->c;
    const double *im = c->image + o;
    for (int x = 0; x < w; x++)
        c->grad_x[o + x] = c->grad_y[o + x] = c->mod[o + x] = 0.0;
    if (y < 1 || y > h - 2)
        return;
    for (int x = 1; x < w - 1; x++) {
        const double gx = im[x + 1] - im[x - 1], gy = im[x + w] - im[x - w];
        c->grad_x[o + x] = gx;
        c->grad_y[o + x] = gy;
        c->mod[o + x] = sqrt(gx * gx + gy * gy);
    }
}

/* The edge points of row y (-1, -1 where none). */
static void points_row(void *arg, int y)
{
    const subpixel_job *job = arg;
    const int w = job->w, h = job->h;
    const size_t o = (size_t)y * w;
    edgel_curves *c = job->c;
    for (int x = 0; x < w; x++)
        c->edge_x[o + x] = c->edge_y[o + x] = -1.0;
    if (y < 2 || y > h - 3)
        return;
    const double *m = c->mod + o;
    for (int x = 2; x < w - 2; x++) {
        const int axis = edgel_subpixel_axis(m[x], m[x - 1], m[x + 1], m[x - w], m[x + w],
                                             fabs(c->grad_x[o + x]), fabs(c->grad_y[o + x]));
        if (!axis)
            continue;
        const int dx = axis == 1, dy = axis == 2, step = dx ? 1 : w;
        const double offset = edgel_subpixel_offset(m[x - step], m[x], m[x + step]);
        c->edge_x[o + x] = x + offset * dx;
        c->edge_y[o + x] = y + offset * dy;
    }
}

/* The score of chaining pixel a to pixel b (0 for the same pixel). */
static double score(const edgel_curves *c, int32_t a, int32_t b)
{
    if (a == b)
        return 0.0;
    return edgel_subpixel_score(c->edge_x[a], c->edge_y[a], c->grad_x[a], c->grad_y[a],
                                c->edge_x[b], c->edge_y[b], c->grad_x[b], c->grad_y[b]);
}

/* Step 4, in the reference's order: x outer, y inner; neighbours x offset outer, y inner. */
static void chain_points(edgel_curves *c, int w, int h)
{
    int32_t *next = c->next, *prev = c->prev;
    for (size_t i = 0; i < (size_t)w * h; i++)
        next[i] = prev[i] = -1;
    for (int x = 2; x < w - 2; x++)
        for (int y = 2; y < h - 2; y++) {
            const int32_t from = x + y * w;
            if (!(c->edge_x[from] >= 0.0 && c->edge_y[from] >= 0.0))
                continue;
            double fwd_s = 0.0, bck_s = 0.0;
            int32_t fwd = -1, bck = -1;
            for (int i = -2; i <= 2; i++)
                for (int j = -2; j <= 2; j++) {
                    const int32_t to = x + i + (y + j) * w;
                    const double s = score(c, from, to);
                    if (s > fwd_s) {
                        fwd_s = s;
                        fwd = to;
                    }
                    if (s < bck_s) {
                        bck_s = s;
                        bck = to;
                    }
                }
            int32_t alt;
            if (fwd >= 0 && next[from] != fwd &&
                ((alt = prev[fwd]) < 0 || score(c, alt, fwd) < fwd_s)) {
                if (next[from] >= 0)
                    prev[next[from]] = -1;
                next[from] = fwd;
                if (alt >= 0)
                    next[alt] = -1;
                prev[fwd] = from;
            }
            if (bck >= 0 && prev[from] != bck &&
                ((alt = next[bck]) < 0 || score(c, alt, bck) > bck_s)) {
                if (alt >= 0)
                    prev[alt] = -1;
                next[bck] = from;
                if (prev[from] >= 0)
                    next[prev[from]] = -1;
                prev[from] = bck;
            }
        }
}

/* Step 5: chains from each point of modulus >= high (in memory order), followed forward then
 * backward while the modulus stays >= low (cut at the first point below); the rest unlinked. */
static void hysteresis(edgel_curves *c, size_t n, double high, double low)
{
    int32_t *next = c->next, *prev = c->prev;
    uint8_t *valid = c->valid;
    memset(valid, 0, n);
    for (size_t i = 0; i < n; i++) {
        if (!((prev[i] >= 0 || next[i] >= 0) && !valid[i] && c->mod[i] >= high))
            continue;
        valid[i] = 1;
        int32_t j, k;
        for (j = (int32_t)i; j >= 0 && (k = next[j]) >= 0 && !valid[k]; j = next[j])
            if (c->mod[k] < low)
                next[j] = prev[k] = -1;
            else
                valid[k] = 1;
        for (j = (int32_t)i; j >= 0 && (k = prev[j]) >= 0 && !valid[k]; j = prev[j])
            if (c->mod[k] < low)
                prev[j] = next[k] = -1;
            else
                valid[k] = 1;
    }
    for (size_t i = 0; i < n; i++)
        if ((prev[i] >= 0 || next[i] >= 0) && !valid[i])
            prev[i] = next[i] = -1;
}

/* Step 6: each chain from the first chained pixel not yet listed (memory order), from its
 * start (or from that pixel once round a closed chain), unlinked as it is listed. Returns 0
 * when out of memory. */
static int list_curves(edgel_curves *c, size_t n)
{
    int32_t *next = c->next, *prev = c->prev;
    c->points = c->curves = 0;
    if (!edgel_curves_reserve_result(c, 0, 0))
        return 0;
    c->limits[0] = 0;
    for (size_t i = 0; i < n; i++) {
        if (prev[i] < 0 && next[i] < 0)
            continue;
        if (!edgel_curves_reserve_result(c, (size_t)c->points, (size_t)c->curves + 1))
            return 0;
        int32_t k = (int32_t)i, p;
        while ((p = prev[k]) >= 0 && p != (int32_t)i)
            k = p;
        const int32_t first = k;
        int32_t last = k;
        do {
            if (!edgel_curves_reserve_result(c, (size_t)c->points + 1, (size_t)c->curves + 1))
                return 0;
            const int64_t q = c->points++;
            c->x[q] = c->edge_x[k];
            c->y[q] = c->edge_y[k];
            c->gx[q] = c->grad_x[k];
            c->gy[q] = c->grad_y[k];
            c->modulus[q] = c->mod[k];
            last = k;
            const int32_t nx = next[k];
            next[k] = prev[k] = -1;
            k = nx;
        } while (k >= 0);
        c->closed[c->curves] = last == first && c->points - c->limits[c->curves] > 1;
        c->limits[++c->curves] = c->points;
    }
    return 1;
}

edgel_status edgel_cpu_subpixel(const edgel_subpixel_params *p, const edgel_image *src,
                                edgel_curves *c, int threads)
{
    const int w = src->width, h = src->height;
    const size_t n = (size_t)w * h;
    if (!edgel_curves_reserve_pixels(c, n))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY,
                          "sub-pixel edges: out of memory for the working arrays of %dx%d "
                          "(%zu bytes a pixel)", w, h, 7 * sizeof(double) + 9);
    subpixel_job job = {src, c, w, h, 0, NULL, NULL, NULL};
    edgel_host_parallel_for(threads, h, convert_row, &job);
    if (p->sigma != 0.0) {
        const int r = edgel_subpixel_radius(p->sigma), taps = 2 * r + 1;
        double *kernel = malloc(sizeof(double) * (size_t)taps);
        int *col_of = malloc(sizeof(int) * ((size_t)w + 2 * (size_t)r));
        int *row_of = malloc(sizeof(int) * ((size_t)h + 2 * (size_t)r));
        if (!kernel || !col_of || !row_of) {
            free(kernel), free(col_of), free(row_of);
            return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel edges: out of memory for "
                              "the blur of sigma %g", p->sigma);
        }
        double sum = 0.0;
        for (int i = 0; i < taps; i++) {
            const double v = ((double)i - (double)r) / p->sigma;
            kernel[i] = exp(-0.5 * v * v);
            sum += kernel[i];
        }
        if (sum > 0.0)
            for (int i = 0; i < taps; i++)
                kernel[i] /= sum;
        for (long long j = 0; j < (long long)w + 2 * r; j++)
            col_of[j] = symmetric(j - r, w);
        for (long long j = 0; j < (long long)h + 2 * r; j++)
            row_of[j] = symmetric(j - r, h);
        job.radius = r, job.kernel = kernel, job.col_of = col_of, job.row_of = row_of;
        edgel_host_parallel_for(threads, h, blur_row, &job);
        edgel_host_parallel_for(threads, h, blur_column_row, &job);
        free(kernel), free(col_of), free(row_of);
    }
    edgel_host_parallel_for(threads, h, gradient_row, &job);
    edgel_host_parallel_for(threads, h, points_row, &job);
    chain_points(c, w, h);
    hysteresis(c, n, p->high, p->low);
    if (!list_curves(c, n))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel edges: out of memory for the "
                          "curves");
    return EDGEL_OK;
}
