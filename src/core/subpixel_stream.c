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
 * end the curves are put in the order of their keys, which is the reference's.
 */
#include "core/subpixel_stream.h"

#include "core/host_pool.h"
#include "core/status.h"
#include "core/subpixel_chain.h"
#include "core/subpixel_link.h"
#include "core/subpixel_math.h"
#include "cpu/cpu_backend.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { REACH = EDGEL_SUBPIXEL_REACH };

struct edgel_stream_state {
    edgel_subpixel_params p;
    int32_t width, height, halo;
    int32_t added, visited; /* columns whose points are in; whose points are visited */
    edgel_curves *work;     /* a piece's points as found */
    edgel_curves *held;     /* the points held, in the reference's order */
    edgel_curves *spare;    /* room for the next band's */
    uint8_t *keep;          /* a held point stays for the next band */
    int32_t *renumber;      /* its number there */
    size_t keep_cap;
    edgel_curve_output *out; /* the curves each thread makes */
    int outs;
};

/* A neighbour not yet an index is named by its offset from the point (two pixels at most
 * either way): -2 - ((dy + 2) * 5 + dx + 2); -1 is none. */
static int32_t neighbour_code(int32_t dx, int32_t dy)
{
    return -2 - ((dy + 2) * 5 + dx + 2);
}

edgel_stream_state *edgel_stream_state_create(const edgel_subpixel_params *p, int32_t width,
                                              int32_t height)
{
    edgel_stream_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->p = *p, s->width = width, s->height = height;
    s->halo = edgel_subpixel_radius(p->sigma) + 4;
    s->work = calloc(1, sizeof *s->work);
    s->held = calloc(1, sizeof *s->held);
    s->spare = calloc(1, sizeof *s->spare);
    if (!s->work || !s->held || !s->spare ||
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
    edgel_curves_free(s->work), edgel_curves_free(s->held), edgel_curves_free(s->spare);
    free(s->keep), free(s->renumber);
    edgel_curve_outputs_free(s->out, s->outs);
    free(s);
}

int32_t edgel_stream_state_added(const edgel_stream_state *s)
{
    return s->added;
}

void edgel_stream_state_own(const edgel_stream_state *s, int64_t x0, int32_t piece_width,
                            int32_t *own_lo, int32_t *own_hi)
{
    const int64_t end = x0 + piece_width;
    *own_lo = (int32_t)(x0 == 0 ? 0 : x0 + s->halo < s->width ? x0 + s->halo : s->width);
    *own_hi = (int32_t)(end >= s->width ? s->width : end - s->halo > 0 ? end - s->halo : 0);
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
    int32_t lo, hi;              /* the band's points in s->work */
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
    const edgel_curves *old = s->held, *w = s->work;
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
static edgel_status take_band(edgel_stream_state *s, int64_t x0, int32_t own_hi, int threads)
{
    const edgel_point_list *found = &s->work->all;
    band_job job = {.s = s, .x0 = x0, .lo = first_in_column(found, x0, s->added),
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
        return edgel_fail(EDGEL_ERROR_INTERNAL, "sub-pixel stream: a neighbour farther than "
                          "two pixels");
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
static int32_t point_at(const edgel_curves *c, int32_t x, int32_t y)
{
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
            *ends[e] = point_at(c, c->all.px[i] + k % 5 - 2, c->all.py[i] + k / 5 - 2);
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

edgel_status edgel_stream_state_add(edgel_stream_state *s, const edgel_image *piece, int64_t x0,
                                    int threads)
{
    int32_t own_lo, own_hi;
    edgel_stream_state_own(s, x0, piece->width, &own_lo, &own_hi);
    EDGEL_TRY(edgel_cpu_subpixel_points(&s->p, piece, x0, 0, s->work, threads));
    if (!reserve_marks(s, s->held->all.count + 1) ||
        !edgel_curve_outputs_reserve(&s->out, &s->outs, threads))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory");
    EDGEL_TRY(take_band(s, x0, own_hi, threads));
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
        return edgel_fail(EDGEL_ERROR_INTERNAL, "sub-pixel stream: a neighbour is no point held");
    if (!edgel_subpixel_link_columns(c, s->width, s->visited, end, threads))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory");
    s->visited = end;
    /* the chains that can no longer change into curves */
    job.final_col = end == s->width ? s->width : end - REACH;
    edgel_host_parallel(threads, mark_columns, &job);
    edgel_subpixel_label_chains(c, threads);
    if (!edgel_subpixel_finish_chains(c, job.final_col, s->p.high, s->p.low, s->keep, s->out,
                                      threads))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory for "
                          "the curves");
    return EDGEL_OK;
}

/* ---- the result ------------------------------------------------------------------------ */

edgel_status edgel_stream_state_finish(edgel_stream_state *s, edgel_curves *out, int threads)
{
    if (!edgel_subpixel_gather_curves(s->out, s->outs, out, 1, threads))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory for the "
                          "curves");
    return EDGEL_OK;
}
