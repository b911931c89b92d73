/*
 * The Canny/Devernay sub-pixel detector on the CPU (edgel_subpixel_edges), written from its
 * description (IPOL 2017; the arithmetic of each pixel is core/subpixel_math.h's):
 *   1. the image as doubles, blurred by a separable Gaussian (rows' pass first), borders by
 *      symmetry of period 2X;
 *   2. centred differences and their modulus, and the edge points: maxima of the modulus
 *      along x or y inside a two-pixel ring, placed at the parabola's vertex along that axis;
 *   3. chaining: each edge point, column by column, proposes a link to its best forward and
 *      best backward neighbour within two pixels; a link replaces one already made at the
 *      target only where it scores better. The best neighbours are a function of the points
 *      alone and are found in parallel; the links are made in the reference's order;
 *   4. hysteresis along the chains, in memory order; 5. the curves listed in memory order.
 * Steps 1, 2 and 3's search run in parallel (each value computed once, by one thread, in the
 * same order of operations: the result does not depend on the threads); step 2 keeps only the
 * edge points, a few in a hundred pixels. The links of step 3 and steps 4 and 5 depend on
 * their order of visit and run as the reference's single pass, over the points alone:
 * numbered column by column, so that step 3 walks them in order, its neighbours near in
 * memory; steps 4 and 5 walk them in memory order through a second list.
 */
#include "core/curves.h"
#include "core/host_pool.h"
#include "core/status.h"
#include "core/subpixel_chain.h"
#include "core/subpixel_math.h"
#include "cpu/cpu.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct subpixel_job {
    const edgel_image *src;
    edgel_curves *c;
    int w, h, radius;
    const double *kernel; /* 2 * radius + 1 taps */
    const int *col_of;    /* symmetric index of column j - radius, w + 2 * radius entries */
    const int *row_of;    /* the same for rows */
    int64_t x0, y0;       /* the image's place in a larger one (positions are in its frame) */
    atomic_int failed;
} subpixel_job;

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
EDGEL_WIDE_CLONES static void blur_row(void *arg, int y)
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
EDGEL_WIDE_CLONES static void blur_column_row(void *arg, int y)
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

/* Centred differences and modulus of row y (1 <= y <= h - 2) into three rows of w. */
EDGEL_WIDE_CLONES static void gradient_row(const double *im, int w, int y, double *gx, double *gy,
                                           double *mod)
{
    const double *row = im + (size_t)y * w;
    gx[0] = gy[0] = mod[0] = gx[w - 1] = gy[w - 1] = mod[w - 1] = 0.0;
    for (int x = 1; x < w - 1; x++) {
        const double dx = row[x + 1] - row[x - 1], dy = row[x + w] - row[x - w];
        gx[x] = dx;
        gy[x] = dy;
        mod[x] = sqrt(dx * dx + dy * dy);
    }
}

/* The axis of the edge point at each pixel 2 .. w - 3 of a row (edgel_subpixel_axis): the
 * modulus of the row, of the rows below (y - 1) and above (y + 1), the gradient. */
EDGEL_WIDE_CLONES static void axis_row(const double *m, const double *below,
                                       const double *above, const double *gx, const double *gy,
                                       int w, uint8_t *axis)
{
    for (int x = 2; x < w - 2; x++)
        axis[x] = (uint8_t)edgel_subpixel_axis(m[x], m[x - 1], m[x + 1], below[x], above[x],
                                               fabs(gx[x]), fabs(gy[x]));
}

/* Worker t of n: the edge points of its stripe of rows 2 .. h - 3, in memory order, into
 * its own list. The gradient's rows roll through three buffers (rows y - 1, y, y + 1). */
static void find_points(void *arg, int t, int n)
{
    subpixel_job *job = arg;
    edgel_curves *c = job->c;
    const int w = job->w, rows = job->h - 4;
    int y0, y1;
    edgel_stripe(t, n, rows, &y0, &y1);
    y0 += 2, y1 += 2;
    edgel_point_list *out = &c->found[t];
    out->count = 0;
    double *buf = malloc(sizeof(double) * 9 * (size_t)w + (size_t)w + 8);
    if (!buf) {
        atomic_store(&job->failed, 1);
        return;
    }
    double *gx[3], *gy[3], *mod[3];
    for (int i = 0; i < 3; i++)
        gx[i] = buf + (size_t)(3 * i) * w, gy[i] = gx[i] + w, mod[i] = gy[i] + w;
    uint8_t *axis = (uint8_t *)(buf + 9 * (size_t)w);
    memset(axis, 0, (size_t)w + 8);
    for (int y = y0; y < y1; y++) {
        const int b = (y + 1) % 3, cur = y % 3, a = (y + 2) % 3; /* rows y + 1, y, y - 1 */
        if (y == y0) {
            gradient_row(c->image, w, y - 1, gx[a], gy[a], mod[a]);
            gradient_row(c->image, w, y, gx[cur], gy[cur], mod[cur]);
        }
        gradient_row(c->image, w, y + 1, gx[b], gy[b], mod[b]);
        const double *m = mod[cur];
        axis_row(m, mod[a], mod[b], gx[cur], gy[cur], w, axis);
        if (!edgel_point_list_reserve(out, out->count + (size_t)w)) {
            atomic_store(&job->failed, 1);
            free(buf);
            return;
        }
        for (int x = 2; x < w - 2; x++) {
            uint64_t eight; /* most pixels are no edge point: skip them eight at a time */
            memcpy(&eight, axis + x, 8);
            if (!eight) {
                x += 7;
                continue;
            }
            if (!axis[x])
                continue;
            const double offset = axis[x] == 1
                                      ? edgel_subpixel_offset(m[x - 1], m[x], m[x + 1])
                                      : edgel_subpixel_offset(mod[a][x], m[x], mod[b][x]);
            const size_t k = out->count++;
            const int dx = axis[x] == 1, dy = axis[x] == 2;
            out->x[k] = (double)(job->x0 + x) + offset * dx;
            out->y[k] = (double)(job->y0 + y) + offset * dy;
            out->gx[k] = gx[cur][x];
            out->gy[k] = gy[cur][x];
            out->mod[k] = m[x];
            out->px[k] = x;
            out->py[k] = y;
        }
    }
    free(buf);
}

/* Numbering the threads' lists (row-major, thread after thread) column by column: list t's
 * points of column x take the numbers cursor[t][x] on; lists run in parallel, each
 * counting, then placing, its own points. */
typedef struct number_job {
    edgel_curves *c;
    int w, lists;
    int32_t *cursors; /* lists x w */
    size_t *base;     /* each list's first place in memory order */
} number_job;

static void count_columns(void *arg, int t, int n)
{
    const number_job *job = arg;
    for (int l = t; l < job->lists; l += n) {
        int32_t *cnt = job->cursors + (size_t)l * job->w;
        const edgel_point_list *f = &job->c->found[l];
        memset(cnt, 0, sizeof(int32_t) * (size_t)job->w);
        for (size_t i = 0; i < f->count; i++)
            cnt[f->px[i]]++;
    }
}

static void place_points(void *arg, int t, int n)
{
    const number_job *job = arg;
    edgel_curves *c = job->c;
    edgel_point_list *all = &c->all;
    for (int l = t; l < job->lists; l += n) {
        int32_t *cursor = job->cursors + (size_t)l * job->w;
        const edgel_point_list *f = &c->found[l];
        int32_t *order = c->row_order + job->base[l];
        for (size_t i = 0; i < f->count; i++) {
            const int32_t id = cursor[f->px[i]]++;
            all->x[id] = f->x[i], all->y[id] = f->y[i];
            all->gx[id] = f->gx[i], all->gy[id] = f->gy[i], all->mod[id] = f->mod[i];
            all->px[id] = f->px[i], all->py[id] = f->py[i];
            order[i] = id;
        }
    }
}

/* The edge points of the threads' lists numbered column by column, down each column, into
 * c->all; c->row_order lists them in memory order. Returns 0 when out of memory. */
static int number_points(edgel_curves *c, int w, int lists, int threads)
{
    size_t total = 0, base[lists];
    for (int t = 0; t < lists; t++)
        base[t] = total, total += c->found[t].count;
    if (!edgel_curves_reserve_points(c, total))
        return 0;
    const size_t columns = ((size_t)lists + 1) * ((size_t)w + 1);
    if (!edgel_curves_reserve_columns(c, columns))
        return 0;
    int32_t *start = c->column_start;
    number_job job = {c, w, lists, start + w + 1, base};
    edgel_host_parallel(threads, count_columns, &job);
    start[0] = 0;
    for (int x = 0; x < w; x++) { /* counts -> each list's first number in each column */
        int32_t at = start[x];
        for (int l = 0; l < lists; l++) {
            int32_t *cur = job.cursors + (size_t)l * w + x;
            const int32_t n = *cur;
            *cur = at;
            at += n;
        }
        start[x + 1] = at;
    }
    edgel_host_parallel(threads, place_points, &job);
    c->all.count = total;
    return 1;
}

/* Step 3a for points first .. last - 1 (a thread's share): each point's best forward and
 * best backward neighbour and their scores, as the reference's visit finds them: the
 * neighbours by column (x offset -2..2), then down the column (y offset -2..2), ties to the
 * first met. A pure function of the points, so shares run in parallel. A column's points in
 * rows y - 2 .. y + 2 are numbered consecutively: `rank` (each column's points above each
 * row) gives their range without a search. */
static void best_neighbours(edgel_curves *c, int w, int h, const int32_t *rank, int32_t first,
                            int32_t last)
{
    const edgel_point_list *p = &c->all;
    const int32_t *start = c->column_start;
    for (int32_t from = first; from < last; from++) {
        const int x = p->px[from], y = p->py[from];
        const int y0 = y - 2 > 0 ? y - 2 : 0, y1 = y + 3 < h ? y + 3 : h;
        const double fx = p->x[from], fy = p->y[from], fgx = p->gx[from], fgy = p->gy[from];
        double fwd_s = 0.0, bck_s = 0.0;
        int32_t fwd = -1, bck = -1;
        const int c0 = x - 2 > 0 ? x - 2 : 0, c1 = x + 2 < w - 1 ? x + 2 : w - 1;
        for (int cx = c0; cx <= c1; cx++) {
            const int32_t *r = rank + (size_t)cx * (size_t)(h + 1);
            const int32_t lo = start[cx] + r[y0], hi = start[cx] + r[y1];
            for (int32_t to = lo; to < hi; to++) {
                const double s = to == from ? 0.0
                                            : edgel_subpixel_score(fx, fy, fgx, fgy, p->x[to],
                                                                   p->y[to], p->gx[to], p->gy[to]);
                const int better = s > fwd_s, worse = s < bck_s; /* (chosen without branches) */
                fwd_s = better ? s : fwd_s;
                fwd = better ? to : fwd;
                bck_s = worse ? s : bck_s;
                bck = worse ? to : bck;
            }
        }
        c->fwd[from] = fwd, c->bck[from] = bck;
        c->fwd_score[from] = fwd_s, c->bck_score[from] = bck_s;
    }
}

typedef struct neighbours_job {
    edgel_curves *c;
    int w, h;
    int32_t *rank; /* by column: the column's points above each row y (h + 1 a column) */
} neighbours_job;

static void rank_columns(void *arg, int t, int n)
{
    const neighbours_job *job = arg;
    const int32_t *start = job->c->column_start, *py = job->c->all.py;
    int a, b;
    edgel_stripe(t, n, job->w, &a, &b);
    for (int x = a; x < b; x++) {
        int32_t *r = job->rank + (size_t)x * (size_t)(job->h + 1);
        int32_t k = start[x];
        for (int y = 0; y <= job->h; y++) {
            while (k < start[x + 1] && py[k] < y)
                k++;
            r[y] = k - start[x];
        }
    }
}

static void best_neighbours_share(void *arg, int t, int n)
{
    const neighbours_job *job = arg;
    int a, b;
    edgel_stripe(t, n, (int)job->c->all.count, &a, &b);
    best_neighbours(job->c, job->w, job->h, job->rank, a, b);
}

/* Room for `workers` threads' point lists. */
static int reserve_workers(edgel_curves *c, int workers)
{
    if (workers <= c->found_cap)
        return 1;
    edgel_point_list *f = realloc(c->found, sizeof *f * (size_t)workers);
    if (!f)
        return 0;
    c->found = f;
    memset(f + c->found_cap, 0, sizeof *f * (size_t)(workers - c->found_cap));
    c->found_cap = workers;
    return 1;
}

static edgel_status oom(const char *what)
{
    return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel edges: out of memory for %s", what);
}

/* The Gaussian blur of c->image in place (through c->pass). */
static edgel_status blur(subpixel_job *job, double sigma, int threads)
{
    const int w = job->w, h = job->h, r = edgel_subpixel_radius(sigma), taps = 2 * r + 1;
    double *kernel = malloc(sizeof(double) * (size_t)taps);
    int *col_of = malloc(sizeof(int) * ((size_t)w + 2 * (size_t)r));
    int *row_of = malloc(sizeof(int) * ((size_t)h + 2 * (size_t)r));
    if (!kernel || !col_of || !row_of) {
        free(kernel), free(col_of), free(row_of);
        return oom("the blur");
    }
    edgel_subpixel_weights(sigma, r, kernel);
    for (long long j = 0; j < (long long)w + 2 * r; j++)
        col_of[j] = edgel_subpixel_mirror(j - r, w);
    for (long long j = 0; j < (long long)h + 2 * r; j++)
        row_of[j] = edgel_subpixel_mirror(j - r, h);
    job->radius = r, job->kernel = kernel, job->col_of = col_of, job->row_of = row_of;
    edgel_host_parallel_for(threads, h, blur_row, job);
    edgel_host_parallel_for(threads, h, blur_column_row, job);
    free(kernel), free(col_of), free(row_of);
    return EDGEL_OK;
}

edgel_status edgel_cpu_subpixel_points(const edgel_subpixel_params *p, const edgel_image *src,
                                       int64_t x0, int64_t y0, edgel_curves *c, int threads)
{
    const int w = src->width, h = src->height;
    c->points = c->curves = 0;
    c->all.count = 0;
    if (!edgel_curves_set_none(c))
        return oom("the curves");
    if (w < 5 || h < 5) /* no pixel inside the two-pixel ring */
        return EDGEL_OK;
    if (!edgel_curves_reserve_pixels(c, (size_t)w * h))
        return oom("the image as doubles (16 bytes a pixel)");
    const int workers = threads < h - 4 ? threads : h - 4;
    if (!reserve_workers(c, workers))
        return oom("the threads' points");
    subpixel_job job = {src, c, w, h, 0, NULL, NULL, NULL, x0, y0, 0};
    atomic_init(&job.failed, 0);
    edgel_host_parallel_for(threads, h, convert_row, &job);
    if (p->sigma != 0.0)
        EDGEL_TRY(blur(&job, p->sigma, threads));
    for (int t = 0; t < workers; t++)
        c->found[t].count = 0;
    /* (a pool busy elsewhere runs fewer workers: the stripes then follow their number) */
    edgel_host_parallel(workers, find_points, &job);
    if (atomic_load(&job.failed))
        return oom("the edge points");
    if (!number_points(c, w, workers, threads))
        return oom("the edge points");
    const size_t ranks = (size_t)w * ((size_t)h + 1);
    if (ranks > c->rank_cap) {
        free(c->rank);
        c->rank = malloc(sizeof(int32_t) * ranks);
        c->rank_cap = c->rank ? ranks : 0;
        if (!c->rank)
            return oom("the columns' ranks");
    }
    neighbours_job nj = {c, w, h, c->rank};
    edgel_host_parallel(threads, rank_columns, &nj);
    edgel_host_parallel(threads, best_neighbours_share, &nj);
    return EDGEL_OK;
}

edgel_status edgel_cpu_subpixel(const edgel_subpixel_params *p, const edgel_image *src,
                                edgel_curves *c, int threads)
{
    EDGEL_TRY(edgel_cpu_subpixel_points(p, src, 0, 0, c, threads));
    if (c->all.count && !edgel_subpixel_chain(c, src->width, p->high, p->low, threads))
        return oom("the curves");
    return EDGEL_OK;
}
