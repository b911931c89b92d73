/*
 * Step 3b of the Canny/Devernay detector: the links, equal to the reference's single pass over
 * the points (numbered column by column), on many threads.
 *
 * Why bands of columns work: a point's visit reads and writes only itself, its best forward
 * and backward neighbours (within two columns) and their current partners (links are only
 * made along such proposals: two columns further), so every visit stays within REACH = 4
 * columns of its point. The columns are cut into one band a thread, and each band runs the
 * pass over its own points at once, speculatively, from no links at all (on a private copy of
 * the points within REACH of it). Band after band, the true pass is then recovered: band k's
 * true run starts from the links bands 0 .. k-1 left, which differ from the speculation's
 * start only within REACH of its first column. The true run and the speculative run are
 * replayed side by side, visit by visit, keeping the set of points whose links differ;
 * points more than REACH columns behind the visits can no longer change and leave the set
 * with their true links. Once the set is empty the two runs agree on every point the rest of
 * the band can touch, so the rest of the band is the speculation's; a band that never
 * agrees has been run whole. Differences die out within a few columns in practice, so the
 * sequential part is a few columns a band.
 */
#include "core/subpixel_link.h"

#include "core/host_pool.h"
#include "core/subpixel_visit.h"

#include <stdlib.h>
#include <string.h>

enum {
    REACH = EDGEL_SUBPIXEL_REACH,
    BAND_MIN = 32,    /* the narrowest band */
    MAX_TOUCHED = 8   /* points one visit may write */
};

/* Links of the points base .. base + length - 1 (all of them: base 0). */
typedef struct link_state {
    int32_t *next, *prev;
    int32_t base;
} link_state;

static int32_t *next_of(const link_state *s, int32_t i) { return &s->next[i - s->base]; }
static int32_t *prev_of(const link_state *s, int32_t i) { return &s->prev[i - s->base]; }

/* The reference's visit of point `from`: its forward proposal, then its backward one.
 * Returns how many points it wrote, listed in `touched`. */
static int visit(const edgel_curves *c, const link_state *s, int32_t from, int32_t *touched)
{
    const edgel_point_list *p = &c->all;
    const edgel_subpixel_geometry g = {p->x, p->y, p->gx, p->gy};
    if (!edgel_subpixel_proposes(g, from))
        return 0;
    const int n = edgel_subpixel_propose_forward(s->next, s->prev, s->base, g, from,
                                                 c->fwd[from], c->fwd_score[from], touched);
    return n + edgel_subpixel_propose_backward(s->next, s->prev, s->base, g, from, c->bck[from],
                                               c->bck_score[from], touched + n);
}

typedef struct band {
    int a, b;              /* its columns */
    int32_t lo, hi;        /* the points within REACH of them */
    size_t at;             /* where its speculative links start */
    int32_t cut;           /* its points from here on take the speculative links */
    int speculated;        /* (else its true run went through to the end) */
} band;

typedef struct link_job {
    const edgel_curves *c;
    const int32_t *column; /* w + 1 entries: each column's first point */
    int w, bands;
    band *band;
    int32_t *spec;         /* the bands' speculative next links, then their prev links */
    size_t spec_size;
    int32_t *next, *prev;  /* the true links */
} link_job;

static int clamp_column(int x, int w) { return x < 0 ? 0 : x > w ? w : x; }

/* Each band's run from no links; the first band's from the links already made (before
 * its first column), which makes its run the true one. */
static void speculate(void *arg, int t, int n)
{
    const link_job *job = arg;
    for (int k = t; k < job->bands; k += n) {
        const band *b = &job->band[k];
        const link_state s = {job->spec + b->at, job->spec + job->spec_size + b->at, b->lo};
        const size_t bytes = sizeof(int32_t) * (size_t)(b->hi - b->lo);
        if (k == 0) {
            memcpy(s.next, job->next + b->lo, bytes);
            memcpy(s.prev, job->prev + b->lo, bytes);
        } else {
            memset(s.next, 0xff, bytes);
            memset(s.prev, 0xff, bytes);
        }
        int32_t touched[MAX_TOUCHED];
        for (int32_t from = job->column[b->a]; from < job->column[b->b]; from++)
            visit(job->c, &s, from, touched);
    }
}

/* Band k's true run from the links the bands before it left (in job->next, job->prev), beside
 * its speculative run replayed in `scratch` (2 x its points) with `differs` (1 a point), until
 * the two agree on every point the rest of the band can touch. */
static void recover_band(const link_job *job, int k, int32_t *scratch, uint8_t *differs)
{
    band *b = &job->band[k];
    const int32_t *column = job->column, lo = b->lo, length = b->hi - b->lo;
    const link_state truth = {job->next, job->prev, 0};
    const link_state spec = {scratch, scratch + length, lo};
    int32_t ready = lo; /* scratch and differs are set up below this point */
#define READY_UP_TO(end)                                                                     \
    for (; ready < (end); ready++)                                                           \
        scratch[ready - lo] = scratch[length + ready - lo] = -1, differs[ready - lo] = 0
    int32_t open = 0; /* points that differ and may still be touched */
    const int32_t start_hi = column[clamp_column(b->a + REACH, job->w)];
    READY_UP_TO(start_hi);
    for (int32_t i = lo; i < start_hi; i++)
        if (job->next[i] != -1 || job->prev[i] != -1)
            differs[i - lo] = 1, open++;
    int32_t settled = lo; /* points below are out of reach: their true links are final */
    int x = b->a;
    for (int32_t from = column[b->a]; from < column[b->b]; from++) {
        while (column[x + 1] <= from)
            x++;
        for (const int32_t out = column[clamp_column(x - REACH, job->w)]; settled < out; settled++)
            if (differs[settled - lo])
                differs[settled - lo] = 0, open--;
        if (open == 0) {
            b->cut = settled, b->speculated = 1;
            return;
        }
        READY_UP_TO(column[clamp_column(x + REACH + 1, job->w)]);
        int32_t touched[2 * MAX_TOUCHED];
        int n = visit(job->c, &truth, from, touched);
        n += visit(job->c, &spec, from, touched + n);
        for (int i = 0; i < n; i++) {
            const int32_t q = touched[i];
            const uint8_t d = job->next[q] != *next_of(&spec, q) || job->prev[q] != *prev_of(&spec, q);
            open += (int32_t)d - (int32_t)differs[q - lo];
            differs[q - lo] = d;
        }
    }
#undef READY_UP_TO
    b->speculated = 0; /* the true run went through: its links are in place */
}

/* The speculative links of band k for its points [from, to) into the true links. */
static void take_speculation(const link_job *job, int k, int32_t from, int32_t to)
{
    const band *b = &job->band[k];
    if (!b->speculated || from >= to)
        return;
    const int32_t *next = job->spec + b->at, *prev = job->spec + job->spec_size + b->at;
    memcpy(job->next + from, next + (from - b->lo), sizeof(int32_t) * (size_t)(to - from));
    memcpy(job->prev + from, prev + (from - b->lo), sizeof(int32_t) * (size_t)(to - from));
}

/* The points of band k whose speculative links are final and not yet taken: from its cut up
 * to where the next band's reach starts (that part was taken before the next band ran). */
static void take_rest(void *arg, int t, int n)
{
    const link_job *job = arg;
    for (int k = t; k < job->bands; k += n) {
        const band *b = &job->band[k];
        const int32_t end = k + 1 < job->bands ? job->band[k + 1].lo : b->hi;
        take_speculation(job, k, b->cut, end);
    }
}

int edgel_subpixel_link_columns(edgel_curves *c, int w, int first, int end, int threads)
{
    const int32_t *column = c->column_start;
    int bands = threads < (end - first) / BAND_MIN ? threads : (end - first) / BAND_MIN;
    if (bands <= 1) {
        const link_state all = {c->next, c->prev, 0};
        int32_t touched[MAX_TOUCHED];
        for (int32_t from = column[first]; from < column[end]; from++)
            visit(c, &all, from, touched);
        return 1;
    }
    band *band_of = calloc((size_t)bands, sizeof *band_of);
    if (!band_of)
        return 0;
    link_job job = {c, c->column_start, w, bands, band_of, NULL, 0, c->next, c->prev};
    int32_t widest = 0;
    for (int k = 0; k < bands; k++) {
        band *b = &band_of[k];
        b->a = first + (int)((long long)(end - first) * k / bands);
        b->b = first + (int)((long long)(end - first) * (k + 1) / bands);
        b->lo = job.column[clamp_column(b->a - REACH, w)];
        b->hi = job.column[clamp_column(b->b + REACH, w)];
        b->at = job.spec_size;
        job.spec_size += (size_t)(b->hi - b->lo);
        widest = b->hi - b->lo > widest ? b->hi - b->lo : widest;
    }
    job.spec = malloc(sizeof(int32_t) * (2 * job.spec_size + 1));
    int32_t *scratch = malloc(sizeof(int32_t) * (2 * (size_t)widest + 1));
    uint8_t *differs = malloc((size_t)widest + 1);
    const int ok = job.spec && scratch && differs;
    if (ok) {
        edgel_host_parallel(threads, speculate, &job);
        band_of[0].cut = band_of[0].lo, band_of[0].speculated = 1; /* (its run was true) */
        for (int k = 0; k < bands; k++) {
            if (k > 0)
                recover_band(&job, k, scratch, differs);
            if (k + 1 < bands) /* the next band starts from these */
                take_speculation(&job, k, band_of[k].cut > band_of[k + 1].lo ? band_of[k].cut
                                                                            : band_of[k + 1].lo,
                                 band_of[k].hi);
        }
        edgel_host_parallel(threads, take_rest, &job);
    }
    free(band_of), free(job.spec), free(scratch), free(differs);
    return ok;
}

int edgel_subpixel_link(edgel_curves *c, int w, int threads)
{
    memset(c->next, 0xff, sizeof(int32_t) * c->all.count); /* -1: no link */
    memset(c->prev, 0xff, sizeof(int32_t) * c->all.count);
    return edgel_subpixel_link_columns(c, w, 0, w, threads);
}
