/*
 * Sub-pixel curves of an image given in bands of columns, equal to the whole image's.
 *
 * Why bands of columns: the reference visits the points column by column, and a visit reads
 * and writes only points within EDGEL_SUBPIXEL_REACH columns of its own (subpixel_link.c).
 * So the one pass can be continued band after band: once a band's points are in, the points
 * up to REACH columns before its last can be visited (the later ones are still needed as
 * candidates and partners), and then no later visit can touch a point more than REACH
 * columns before the next column to visit: its links are final. A chain whose points are
 * all final is final, and its hysteresis and listing follow its links alone
 * (subpixel_chain.c): its curves are made at once, each keyed by the point that lists it in
 * memory order (y * width + x). The final chains' points and the points no chain holds
 * leave; what is held is a band, a few columns before it and the chains still open. At the
 * end the curves are put in the order of their keys, which is the reference's. The bands are
 * a grid of one row of the chunked driver (core/chunks.h), whose axis arithmetic gives the
 * columns a band computes exactly.
 */
#include "core/subpixel_stream.h"

#include "core/chunks.h"
#include "core/grow.h"
#include "core/host_pool.h"
#include "core/status.h"
#include "core/subpixel_chain.h"
#include "core/subpixel_link.h"
#include "core/subpixel_math.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { REACH = EDGEL_SUBPIXEL_REACH };

typedef struct curve_record {
    int64_t key;    /* the point that lists it, in memory order */
    int64_t at;     /* its first point in its thread's output */
    int32_t length; /* its points (a closed curve's first one twice) */
    int32_t thread;
    uint8_t closed;
} curve_record;

typedef struct keyed_point {
    int64_t key;
    int32_t point;
} keyed_point;

/* The curves one thread has made: their points, in order, and their records. */
typedef struct curve_output {
    double *x, *y, *gx, *gy, *mod;
    int64_t points, point_cap;
    curve_record *curve;
    int64_t curves, curve_cap;
    keyed_point *chain; /* a chain's points in memory order */
    int64_t chain_cap;
    int failed;
} curve_output;

struct edgel_stream_state {
    edgel_subpixel_params p;
    int32_t width, height, halo;
    int32_t added, visited; /* columns whose points are in; whose points are visited */
    edgel_curves *held;     /* the points held, in the reference's order */
    edgel_curves *spare;    /* room for the next band's */
    uint8_t *keep;          /* a held point stays for the next band */
    int32_t *renumber;      /* its number there */
    size_t keep_cap;
    curve_output *out;
    int outs;
};

/* A neighbour not yet an index is named by its offset from the point (two pixels at most
 * either way): -2 - ((dy + 2) * 5 + dx + 2); -1 is none. */
static int32_t neighbour_code(int32_t dx, int32_t dy)
{
    return -2 - ((dy + 2) * 5 + dx + 2);
}

static void free_output(curve_output *o)
{
    free(o->x), free(o->y), free(o->gx), free(o->gy), free(o->mod);
    free(o->curve), free(o->chain);
}

edgel_stream_state *edgel_stream_state_create(const edgel_subpixel_params *p, int32_t width,
                                              int32_t height)
{
    edgel_stream_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->p = *p, s->width = width, s->height = height;
    s->halo = edgel_subpixel_piece_halo(p->sigma);
    s->held = calloc(1, sizeof *s->held);
    s->spare = calloc(1, sizeof *s->spare);
    if (!s->held || !s->spare ||
        !edgel_curves_reserve_columns(s->held, (size_t)width + 1) ||
        !edgel_curves_reserve_columns(s->spare, (size_t)width + 1)) {
        edgel_stream_state_free(s);
        return NULL;
    }
    return s;
}

void edgel_stream_state_free(edgel_stream_state *s)
{
    if (!s)
        return;
    edgel_curves_free(s->held), edgel_curves_free(s->spare);
    free(s->keep), free(s->renumber);
    for (int t = 0; t < s->outs; t++)
        free_output(&s->out[t]);
    free(s->out);
    free(s);
}

int32_t edgel_stream_state_added(const edgel_stream_state *s)
{
    return s->added;
}

int64_t edgel_stream_state_points(const edgel_stream_state *s)
{
    int64_t n = 0;
    for (int t = 0; t < s->outs; t++)
        n += s->out[t].points;
    return n;
}

void edgel_stream_state_own(const edgel_stream_state *s, int64_t x0, int32_t piece_width,
                            int32_t *own_lo, int32_t *own_hi)
{
    int64_t lo, hi;
    edgel_chunk_axis_own(s->width, x0, piece_width, s->halo, &lo, &hi);
    *own_lo = (int32_t)lo, *own_hi = (int32_t)hi;
}

/* ---- a band in ------------------------------------------------------------------------ */

/* The first point of `l` (in the reference's order) in column x or after, its columns
 * shifted by x0. */
static int32_t first_in_column(const edgel_point_list *l, int64_t x0, int64_t x)
{
    int32_t lo = 0, hi = (int32_t)l->count;
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (l->px[mid] + x0 < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void copy_point(edgel_curves *to, int32_t j, const edgel_curves *from, int32_t i)
{
    edgel_point_list *a = &to->all;
    const edgel_point_list *b = &from->all;
    a->x[j] = b->x[i], a->y[j] = b->y[i], a->gx[j] = b->gx[i], a->gy[j] = b->gy[i];
    a->mod[j] = b->mod[i], a->px[j] = b->px[i], a->py[j] = b->py[i];
    to->fwd_score[j] = from->fwd_score[i], to->bck_score[j] = from->bck_score[i];
}

/* Taking a band in, on threads: the held points are counted by stripes (as many whatever
 * the threads), numbered, then copied with the band's points. */
enum { STRIPES = 256 };

typedef struct band_job {
    edgel_stream_state *s;
    int64_t x0;
    const edgel_curves *found;   /* the piece's points */
    int32_t lo, hi;              /* the band's among them */
    int32_t first[STRIPES + 1];  /* each stripe's first new number */
    _Atomic int failed;          /* a neighbour farther than the reference looks */
} band_job;

static void count_kept(void *arg, int t, int n)
{
    band_job *job = arg;
    for (int k = t; k < STRIPES; k += n) {
        int a, b, kept = 0;
        edgel_stripe(k, STRIPES, (int)job->s->held->all.count, &a, &b);
        for (int i = a; i < b; i++)
            kept += job->s->keep[i];
        job->first[k + 1] = kept;
    }
}

static void number_kept(void *arg, int t, int n)
{
    band_job *job = arg;
    for (int k = t; k < STRIPES; k += n) {
        int a, b;
        edgel_stripe(k, STRIPES, (int)job->s->held->all.count, &a, &b);
        for (int32_t i = a, m = job->first[k]; i < b; i++)
            job->s->renumber[i] = job->s->keep[i] ? m++ : -1;
    }
}

/* The held points that stay (renumbered; those already visited keep no neighbours, the
 * others' are within two columns, held), then the band's points (their neighbours among
 * them by index, others by offset). */
static void copy_points(void *arg, int t, int n)
{
    band_job *job = arg;
    const edgel_stream_state *s = job->s;
    const edgel_curves *old = s->held, *w = job->found;
    edgel_curves *c = s->spare;
    const int32_t *renumber = s->renumber, kept = job->first[STRIPES];
    int a, b;
    edgel_stripe(t, n, (int)old->all.count, &a, &b);
    for (int32_t i = a; i < b; i++) {
        const int32_t j = renumber[i];
        if (j < 0)
            continue;
        copy_point(c, j, old, i);
        const int visited = old->all.px[i] < s->visited;
        c->fwd[j] = visited ? -1 : old->fwd[i] >= 0 ? renumber[old->fwd[i]] : old->fwd[i];
        c->bck[j] = visited ? -1 : old->bck[i] >= 0 ? renumber[old->bck[i]] : old->bck[i];
        c->next[j] = old->next[i] < 0 ? -1 : renumber[old->next[i]];
        c->prev[j] = old->prev[i] < 0 ? -1 : renumber[old->prev[i]];
    }
    edgel_stripe(t, n, job->hi - job->lo, &a, &b);
    for (int32_t i = job->lo + a; i < job->lo + b; i++) {
        const int32_t m = kept + (i - job->lo);
        copy_point(c, m, w, i);
        c->all.px[m] = (int32_t)(w->all.px[i] + job->x0);
        const int32_t ends[2] = {w->fwd[i], w->bck[i]};
        int32_t code[2];
        for (int e = 0; e < 2; e++) {
            const int32_t k = ends[e];
            const int32_t dx = k < 0 ? 0 : w->all.px[k] - w->all.px[i];
            const int32_t dy = k < 0 ? 0 : w->all.py[k] - w->all.py[i];
            if (dx < -2 || dx > 2 || dy < -2 || dy > 2)
                atomic_store(&job->failed, 1);
            code[e] = k < 0 ? -1 : k >= job->lo && k < job->hi ? kept + (k - job->lo)
                                                               : neighbour_code(dx, dy);
        }
        c->fwd[m] = code[0], c->bck[m] = code[1];
        c->next[m] = c->prev[m] = -1;
    }
}

/* Each column's first point: the columns of thread t's share. */
static void find_columns(void *arg, int t, int n)
{
    const band_job *job = arg;
    const edgel_curves *c = job->s->held;
    int a, b;
    edgel_stripe(t, n, job->s->width + 1, &a, &b);
    int32_t k = first_in_column(&c->all, 0, a);
    for (int32_t x = a; x < b; x++) {
        while (k < (int32_t)c->all.count && c->all.px[k] < x)
            k++;
        c->column_start[x] = k;
    }
}

/* The held points that stay and the piece's points of columns s->added .. own_hi - 1, held
 * in place of the old, with each column's first point. */
static edgel_status take_band(edgel_stream_state *s, const edgel_curves *piece, int64_t x0,
                              int32_t own_hi, int threads)
{
    const edgel_point_list *found = &piece->all;
    band_job job = {.s = s, .x0 = x0, .found = piece, .lo = first_in_column(found, x0, s->added),
                    .hi = first_in_column(found, x0, own_hi)};
    edgel_host_parallel(threads, count_kept, &job);
    for (int k = 0; k < STRIPES; k++)
        job.first[k + 1] += job.first[k];
    const int64_t total = (int64_t)job.first[STRIPES] + (job.hi - job.lo);
    if (total > INT32_MAX)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: more than 2^31 - 1 "
                          "points held at once");
    if (!edgel_curves_reserve_points(s->spare, (size_t)total))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory for "
                          "%lld points", (long long)total);
    edgel_host_parallel(threads, number_kept, &job);
    edgel_host_parallel(threads, copy_points, &job);
    if (atomic_load(&job.failed))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: a neighbour "
                          "farther than two pixels (pieces of different images, or pixels "
                          "that changed between pieces)");
    edgel_curves *c = s->spare;
    c->all.count = (size_t)total;
    s->spare = s->held, s->held = c;
    edgel_host_parallel(threads, find_columns, &job);
    return EDGEL_OK;
}

typedef struct stream_job {
    edgel_stream_state *s;
    int32_t from, to;  /* points to resolve */
    int32_t final_col; /* chains wholly before it are final */
    _Atomic int failed;
} stream_job;

/* The point at pixel (x, y), or -1. */
static int32_t point_at(const edgel_curves *c, int32_t width, int32_t x, int32_t y)
{
    if (x < 0 || x >= width)
        return -1;
    int32_t lo = c->column_start[x], hi = c->column_start[x + 1];
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (c->all.py[mid] < y)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->column_start[x + 1] && c->all.py[lo] == y ? lo : -1;
}

/* The neighbours of the points to visit, from offsets to indices (they are held: within two
 * columns of points to visit, all of whose columns are in). */
static void resolve(void *arg, int t, int n)
{
    stream_job *job = arg;
    edgel_curves *c = job->s->held;
    int a, b;
    edgel_stripe(t, n, job->to - job->from, &a, &b);
    for (int32_t i = job->from + a; i < job->from + b; i++) {
        int32_t *ends[2] = {&c->fwd[i], &c->bck[i]};
        for (int e = 0; e < 2; e++) {
            if (*ends[e] >= -1)
                continue;
            const int32_t k = -2 - *ends[e];
            *ends[e] = point_at(c, job->s->width, c->all.px[i] + k % 5 - 2,
                                c->all.py[i] + k / 5 - 2);
            if (*ends[e] < 0)
                atomic_store(&job->failed, 1);
        }
    }
}

/* ---- final chains into curves ------------------------------------------------------- */

static void mark_columns(void *arg, int t, int n)
{
    const stream_job *job = arg;
    edgel_curves *c = job->s->held;
    int a, b;
    edgel_stripe(t, n, (int)c->all.count, &a, &b);
    for (int32_t i = a; i < b; i++)
        job->s->keep[i] = c->all.px[i] >= job->final_col, c->valid[i] = 0;
}

static int push_point(curve_output *o, const edgel_curves *c, int32_t j)
{
    if (o->points == o->point_cap) {
        const int64_t cap = o->point_cap ? 2 * o->point_cap : 4096;
        double **arrays[] = {&o->x, &o->y, &o->gx, &o->gy, &o->mod};
        for (int a = 0; a < 5; a++) {
            double *grown = realloc(*arrays[a], sizeof(double) * (size_t)cap);
            if (!grown)
                return 0;
            *arrays[a] = grown;
        }
        o->point_cap = cap;
    }
    const edgel_point_list *p = &c->all;
    o->x[o->points] = p->x[j], o->y[o->points] = p->y[j];
    o->gx[o->points] = p->gx[j], o->gy[o->points] = p->gy[j], o->mod[o->points] = p->mod[j];
    o->points++;
    return 1;
}

/* The curve listed at a point of key `key`, from its first point `first`, into o. */
static int make_curve(curve_output *o, edgel_curves *c, int32_t first, int64_t key, int t)
{
    if (!edgel_grow((void **)&o->curve, &o->curve_cap, o->curves + 1, sizeof *o->curve))
        return 0;
    curve_record *r = &o->curve[o->curves++];
    r->key = key, r->at = o->points, r->thread = t;
    int32_t j = first;
    do {
        if (!push_point(o, c, j))
            return 0;
        c->valid[j] = 0;
        j = c->next[j];
    } while (j >= 0 && j != first);
    r->closed = j == first;
    if (r->closed && !push_point(o, c, first))
        return 0;
    r->length = (int32_t)(o->points - r->at);
    return 1;
}

static int by_key(const void *a, const void *b)
{
    const int64_t x = ((const keyed_point *)a)->key, y = ((const keyed_point *)b)->key;
    return (x > y) - (x < y);
}

/* A chain's points by key: most chains are short, where insertion beats qsort (which
 * allocates on every call). */
static void sort_by_key(keyed_point *p, int64_t n)
{
    if (n > 48) {
        qsort(p, (size_t)n, sizeof *p, by_key);
        return;
    }
    for (int64_t i = 1; i < n; i++) {
        const keyed_point v = p[i];
        int64_t j = i;
        for (; j > 0 && p[j - 1].key > v.key; j--)
            p[j] = p[j - 1];
        p[j] = v;
    }
}

/* The chain of lowest point r: held while any of its points may still change; else its
 * hysteresis and curves, its points in memory order (as the whole pass takes them). */
static int finish_chain(const stream_job *job, int32_t r, curve_output *o, int t)
{
    const edgel_stream_state *s = job->s;
    edgel_curves *c = s->held;
    int32_t start = r, q;
    while ((q = c->prev[start]) >= 0 && q != r)
        start = q;
    int64_t n = 0;
    int open = 0;
    int32_t j = start;
    do {
        if (!edgel_grow((void **)&o->chain, &o->chain_cap, n + 1, sizeof *o->chain))
            return 0;
        o->chain[n].key = (int64_t)c->all.py[j] * s->width + c->all.px[j];
        o->chain[n++].point = j;
        open |= c->all.px[j] >= job->final_col;
        j = c->next[j];
    } while (j >= 0 && j != start);
    if (open) {
        for (int64_t i = 0; i < n; i++)
            s->keep[o->chain[i].point] = 1;
        return 1;
    }
    sort_by_key(o->chain, n);
    for (int64_t i = 0; i < n; i++)
        edgel_subpixel_hysteresis_at(c, o->chain[i].point, s->p.high, s->p.low);
    for (int64_t i = 0; i < n; i++)
        edgel_subpixel_drop_invalid_at(c, o->chain[i].point);
    for (int64_t i = 0; i < n; i++) {
        const int32_t first = edgel_subpixel_curve_at(c, o->chain[i].point);
        if (first >= 0 && !make_curve(o, c, first, o->chain[i].key, t))
            return 0;
    }
    return 1;
}

static void finish_chains(void *arg, int t, int n)
{
    stream_job *job = arg;
    edgel_curves *c = job->s->held;
    curve_output *o = &job->s->out[t];
    int a, b;
    edgel_stripe(t, n, (int)c->all.count, &a, &b);
    for (int32_t i = a; i < b && !o->failed; i++)
        if (c->label[i] == i && (c->next[i] >= 0 || c->prev[i] >= 0))
            o->failed = !finish_chain(job, i, o, t);
}

/* Room for a keep mark, a new number and labels for each held point. */
static int reserve_marks(edgel_stream_state *s, size_t count)
{
    if (count <= s->keep_cap)
        return 1;
    free(s->keep), free(s->renumber);
    s->keep = malloc(count), s->renumber = malloc(sizeof(int32_t) * count);
    s->keep_cap = s->keep && s->renumber ? count : 0;
    return s->keep_cap != 0;
}

static int reserve_outputs(edgel_stream_state *s, int threads)
{
    if (threads <= s->outs)
        return 1;
    curve_output *o = realloc(s->out, sizeof *o * (size_t)threads);
    if (!o)
        return 0;
    memset(o + s->outs, 0, sizeof *o * (size_t)(threads - s->outs));
    s->out = o, s->outs = threads;
    return 1;
}

edgel_status edgel_stream_state_add(edgel_stream_state *s, const edgel_curves *found, int64_t x0,
                                    int32_t piece_width, int threads)
{
    int32_t own_lo, own_hi;
    edgel_stream_state_own(s, x0, piece_width, &own_lo, &own_hi);
    if (!reserve_marks(s, s->held->all.count + 1) || !reserve_outputs(s, threads))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory");
    EDGEL_TRY(take_band(s, found, x0, own_hi, threads));
    s->added = own_hi;
    edgel_curves *c = s->held;
    if (!reserve_marks(s, c->all.count + 1))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory");
    /* visit what the points held allow */
    int32_t end = own_hi == s->width ? s->width : own_hi - REACH;
    end = end > s->visited ? end : s->visited;
    stream_job job = {s, c->column_start[s->visited], c->column_start[end], 0, 0};
    edgel_host_parallel(threads, resolve, &job);
    if (atomic_load(&job.failed))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: a neighbour is no "
                          "point held (pieces of different images, or pixels that changed "
                          "between pieces)");
    if (!edgel_subpixel_link_columns(c, s->width, s->visited, end, threads))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory");
    s->visited = end;
    /* the chains that can no longer change into curves */
    job.final_col = end == s->width ? s->width : end - REACH;
    edgel_host_parallel(threads, mark_columns, &job);
    edgel_subpixel_label_chains(c, threads);
    for (int t = 0; t < s->outs; t++)
        s->out[t].failed = 0;
    edgel_host_parallel(threads, finish_chains, &job);
    for (int t = 0; t < s->outs; t++)
        if (s->out[t].failed)
            return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory for "
                              "the curves");
    return EDGEL_OK;
}

/* ---- the result ------------------------------------------------------------------------ */

typedef struct result_job {
    edgel_stream_state *s;
    const curve_record *curve;
    int64_t curves;
    edgel_curves *out;
    int field; /* the array written: x, y, gx, gy, modulus */
} result_job;

static int by_curve_key(const void *a, const void *b)
{
    const int64_t x = ((const curve_record *)a)->key, y = ((const curve_record *)b)->key;
    return (x > y) - (x < y);
}

static double **output_field(curve_output *o, int field)
{
    double **f[] = {&o->x, &o->y, &o->gx, &o->gy, &o->mod};
    return f[field];
}

static void write_field(void *arg, int t, int n)
{
    const result_job *job = arg;
    edgel_curves *c = job->out;
    double *to[] = {c->x, c->y, c->gx, c->gy, c->modulus};
    const int64_t a = job->curves * t / n, b = job->curves * (t + 1) / n;
    for (int64_t k = a; k < b; k++) {
        const curve_record *r = &job->curve[k];
        const double *from = *output_field(&job->s->out[r->thread], job->field);
        memcpy(to[job->field] + c->limits[k], from + r->at, sizeof(double) * (size_t)r->length);
        c->closed[k] = r->closed;
    }
}

edgel_status edgel_stream_state_finish(edgel_stream_state *s, edgel_curves *out, int threads)
{
    int64_t curves = 0, points = 0;
    for (int t = 0; t < s->outs; t++)
        curves += s->out[t].curves, points += s->out[t].points;
    curve_record *all = malloc(sizeof *all * (size_t)(curves ? curves : 1));
    if (!all || !edgel_curves_reserve_result(out, (size_t)points, (size_t)curves)) {
        free(all);
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory for "
                          "%lld points", (long long)points);
    }
    int64_t k = 0;
    for (int t = 0; t < s->outs; t++)
        for (int64_t i = 0; i < s->out[t].curves; i++)
            all[k++] = s->out[t].curve[i];
    qsort(all, (size_t)curves, sizeof *all, by_curve_key);
    out->limits[0] = 0;
    for (k = 0; k < curves; k++)
        out->limits[k + 1] = out->limits[k] + all[k].length;
    /* array after array, each thread's freed once written: the curves are held about
     * 1.2 times, not twice */
    for (int field = 0; field < 5; field++) {
        result_job job = {s, all, curves, out, field};
        edgel_host_parallel(threads, write_field, &job);
        for (int t = 0; t < s->outs; t++) {
            free(*output_field(&s->out[t], field));
            *output_field(&s->out[t], field) = NULL;
        }
    }
    for (int t = 0; t < s->outs; t++)
        s->out[t].points = s->out[t].point_cap = 0, s->out[t].curves = 0;
    out->points = points, out->curves = curves;
    free(all);
    return EDGEL_OK;
}
