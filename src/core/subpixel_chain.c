/*
 * Steps 3b to 5 of the Canny/Devernay detector: the links (subpixel_link.c), the hysteresis
 * along them and the listing, equal to the reference's single pass over the points, on many
 * threads.
 *
 * Why the chains split the work: after the links, the hysteresis and the listing only follow
 * and cut links, so work from one point stays on its chain (the points joined by links), and
 * work on two chains touches disjoint memory and commutes: the single pass over all points
 * in memory order equals, chain by chain, the pass over each chain's points in memory order.
 * The chains are labelled by a concurrent union-find over the links; each thread takes the
 * chains whose lowest point is in its stripe, puts a chain's points in memory order (a chain
 * is short and local: its points lie close in memory too) and makes its curves, each keyed
 * by the point that lists it. The curves are then put in the order of their keys, which is
 * the order in which the single pass lists them.
 */
#include "core/subpixel_chain.h"

#include "core/host_pool.h"
#include "core/subpixel_link.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- the chains' labels --------------------------------------------------------------- */

/* The root of a's set: parents always have a lower index (a root joins the lower root), so
 * halving the path as it goes, concurrently with joins, keeps every set a tree. */
static int32_t root_of(_Atomic int32_t *parent, int32_t a)
{
    for (;;) {
        const int32_t p = atomic_load_explicit(&parent[a], memory_order_relaxed);
        if (p == a)
            return a;
        const int32_t g = atomic_load_explicit(&parent[p], memory_order_relaxed);
        if (g != p)
            atomic_store_explicit(&parent[a], g, memory_order_relaxed);
        a = g;
    }
}

static void join(_Atomic int32_t *parent, int32_t a, int32_t b)
{
    for (;;) {
        a = root_of(parent, a), b = root_of(parent, b);
        if (a == b)
            return;
        if (a < b) {
            const int32_t t = a;
            a = b, b = t;
        }
        int32_t expected = a;
        if (atomic_compare_exchange_weak_explicit(&parent[a], &expected, b,
                                                  memory_order_relaxed, memory_order_relaxed))
            return;
    }
}

static _Atomic int32_t *parents(const edgel_curves *c)
{
    return (_Atomic int32_t *)c->label;
}

static void start_labels(void *arg, int t, int n)
{
    const edgel_curves *c = arg;
    int a, b;
    edgel_stripe(t, n, (int)c->all.count, &a, &b);
    for (int32_t i = a; i < b; i++)
        atomic_init(&parents(c)[i], i);
}

static void join_links(void *arg, int t, int n)
{
    const edgel_curves *c = arg;
    int a, b;
    edgel_stripe(t, n, (int)c->all.count, &a, &b);
    for (int32_t i = a; i < b; i++)
        if (c->next[i] >= 0)
            join(parents(c), i, c->next[i]);
}

/* Each label its chain's root (a write of the root is one more halving: safe beside
 * others). */
static void settle_labels(void *arg, int t, int n)
{
    const edgel_curves *c = arg;
    int a, b;
    edgel_stripe(t, n, (int)c->all.count, &a, &b);
    for (int32_t i = a; i < b; i++)
        atomic_store_explicit(&parents(c)[i], root_of(parents(c), i), memory_order_relaxed);
}

void edgel_subpixel_label_chains(edgel_curves *c, int threads)
{
    if (threads <= 1) { /* one thread meets each chain's lowest point first: no labels */
        memset(c->label, 0xff, sizeof(int32_t) * c->all.count);
        return;
    }
    edgel_host_parallel(threads, start_labels, c);
    edgel_host_parallel(threads, join_links, c);
    edgel_host_parallel(threads, settle_labels, c);
}

/* ---- one chain's hysteresis and curves ------------------------------------------------ */

static int chained(const edgel_curves *c, int32_t i)
{
    return c->prev[i] >= 0 || c->next[i] >= 0;
}

/* Step 4 from point i: a chain starts at a point of modulus >= high, followed forward then
 * backward while the modulus stays >= low (cut at the first point below); c->valid marks the
 * points kept. */
static void hysteresis_at(edgel_curves *c, int32_t i, double high, double low)
{
    const double *mod = c->all.mod;
    int32_t *next = c->next, *prev = c->prev;
    uint8_t *valid = c->valid;
    if (!(chained(c, i) && !valid[i] && mod[i] >= high))
        return;
    valid[i] = 1;
    int32_t j, k;
    for (j = i; j >= 0 && (k = next[j]) >= 0 && !valid[k]; j = next[j])
        if (mod[k] < low)
            next[j] = prev[k] = -1;
        else
            valid[k] = 1;
    for (j = i; j >= 0 && (k = prev[j]) >= 0 && !valid[k]; j = prev[j])
        if (mod[k] < low)
            prev[j] = next[k] = -1;
        else
            valid[k] = 1;
}

/* Step 5 at point i: the first point of the curve listed there (the first chained point not
 * yet listed starts its chain's curve, from the chain's start or, on a closed chain, from the
 * point after it), or -1 where i lists none. */
static int32_t curve_at(const edgel_curves *c, int32_t i)
{
    if (!(c->valid[i] && chained(c, i)))
        return -1;
    int32_t k = i, q;
    while ((q = c->prev[k]) >= 0 && q != i)
        k = q;
    return k;
}

static int grow(void **p, int64_t *cap, int64_t want, size_t size)
{
    if (want <= *cap)
        return 1;
    const int64_t n = want > 2 * *cap ? want : 2 * *cap;
    void *q = realloc(*p, (size_t)n * size);
    if (!q)
        return 0;
    *p = q, *cap = n;
    return 1;
}

static double **output_field(edgel_curve_output *o, int field)
{
    double **f[] = {&o->x, &o->y, &o->gx, &o->gy, &o->mod};
    return f[field];
}

static int push_point(edgel_curve_output *o, const edgel_curves *c, int32_t j)
{
    if (o->points == o->point_cap) {
        const int64_t cap = o->point_cap ? 2 * o->point_cap : 4096;
        for (int f = 0; f < 5; f++) {
            double *grown = realloc(*output_field(o, f), sizeof(double) * (size_t)cap);
            if (!grown)
                return 0;
            *output_field(o, f) = grown;
        }
        o->point_cap = cap;
    }
    const edgel_point_list *p = &c->all;
    o->x[o->points] = p->x[j], o->y[o->points] = p->y[j];
    o->gx[o->points] = p->gx[j], o->gy[o->points] = p->gy[j], o->mod[o->points] = p->mod[j];
    o->points++;
    return 1;
}

/* The curve listed at a point of key `key`, from its first point `first`, into o (its points
 * leave c->valid as they are listed). */
static int make_curve(edgel_curve_output *o, edgel_curves *c, int32_t first, int64_t key, int t)
{
    if (!grow((void **)&o->curve, &o->curve_cap, o->curves + 1, sizeof *o->curve))
        return 0;
    edgel_curve_record *r = &o->curve[o->curves++];
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
    const int64_t x = ((const edgel_keyed_point *)a)->key, y = ((const edgel_keyed_point *)b)->key;
    return (x > y) - (x < y);
}

/* A chain's points by key: most chains are short, where insertion beats qsort (which
 * allocates on every call). */
static void sort_by_key(edgel_keyed_point *p, int64_t n)
{
    if (n > 48) {
        qsort(p, (size_t)n, sizeof *p, by_key);
        return;
    }
    for (int64_t i = 1; i < n; i++) {
        const edgel_keyed_point v = p[i];
        int64_t j = i;
        for (; j > 0 && p[j - 1].key > v.key; j--)
            p[j] = p[j - 1];
        p[j] = v;
    }
}

typedef struct chain_job {
    edgel_curves *c;
    double high, low;
    int32_t final_column;
    uint8_t *keep;
    edgel_curve_output *out;
} chain_job;

/* Point j as the n-th of the chain of lowest point r, keyed by memory order (and labelled,
 * where the chains were not: one thread). */
static int add_point(edgel_curve_output *o, edgel_curves *c, int32_t r, int32_t j, int64_t n,
                     int32_t final_column, int *open)
{
    if (c->label[j] < 0)
        c->label[j] = r;
    if (!grow((void **)&o->chain, &o->chain_cap, n + 1, sizeof *o->chain))
        return 0;
    o->chain[n].key = (int64_t)c->all.py[j] << 31 | c->all.px[j];
    o->chain[n].point = j;
    *open |= c->all.px[j] >= final_column;
    return 1;
}

/* The chain of lowest point r: where any of its points is at final_column or after, kept
 * (keep); else its hysteresis and curves, its points in memory order. */
static int finish_chain(const chain_job *job, int32_t r, edgel_curve_output *o, int t)
{
    edgel_curves *c = job->c;
    int64_t n = 0;
    int open = 0;
    /* its points: forward from r, then, where the chain is no loop, backward from r */
    int32_t j = r;
    do {
        if (!add_point(o, c, r, j, n++, job->final_column, &open))
            return 0;
        j = c->next[j];
    } while (j >= 0 && j != r);
    for (j = j == r ? -1 : c->prev[r]; j >= 0; j = c->prev[j])
        if (!add_point(o, c, r, j, n++, job->final_column, &open))
            return 0;
    if (open) {
        for (int64_t i = 0; i < n; i++)
            job->keep[o->chain[i].point] = 1;
        return 1;
    }
    sort_by_key(o->chain, n);
    for (int64_t i = 0; i < n; i++)
        hysteresis_at(c, o->chain[i].point, job->high, job->low);
    for (int64_t i = 0; i < n; i++) { /* invalid points unlinked (their partners are too) */
        const int32_t k = o->chain[i].point;
        if (!c->valid[k])
            c->prev[k] = c->next[k] = -1;
    }
    for (int64_t i = 0; i < n; i++) {
        const int32_t first = curve_at(c, o->chain[i].point);
        if (first >= 0 && !make_curve(o, c, first, o->chain[i].key, t))
            return 0;
    }
    return 1;
}

/* The chains whose lowest point is in thread t's stripe (labelled, or unlabelled on one
 * thread: there a chain's first point met is its lowest, and its points are labelled as it
 * is made). */
static void finish_stripe(void *arg, int t, int n)
{
    const chain_job *job = arg;
    const edgel_curves *c = job->c;
    edgel_curve_output *o = &job->out[t];
    int a, b;
    edgel_stripe(t, n, (int)c->all.count, &a, &b);
    for (int32_t i = a; i < b && !o->failed; i++)
        if ((c->label[i] == i || c->label[i] < 0) && chained(c, i))
            o->failed = !finish_chain(job, i, o, t);
}

int edgel_subpixel_finish_chains(edgel_curves *c, int32_t final_column, double high, double low,
                                 uint8_t *keep, edgel_curve_output *out, int threads)
{
    chain_job job = {c, high, low, final_column, keep, out};
    for (int t = 0; t < threads; t++)
        out[t].failed = 0;
    edgel_host_parallel(threads, finish_stripe, &job);
    for (int t = 0; t < threads; t++)
        if (out[t].failed)
            return 0;
    return 1;
}

/* ---- the curves in order ------------------------------------------------------------- */

typedef struct gather_job {
    edgel_curve_output *out;
    const edgel_curve_record *curve;
    int64_t curves;
    edgel_curves *result;
    int field; /* the array written: x, y, gx, gy, modulus */
} gather_job;

static int by_curve_key(const void *a, const void *b)
{
    const int64_t x = ((const edgel_curve_record *)a)->key;
    const int64_t y = ((const edgel_curve_record *)b)->key;
    return (x > y) - (x < y);
}

static void gather_field(void *arg, int t, int n)
{
    const gather_job *job = arg;
    edgel_curves *c = job->result;
    double *to[] = {c->x, c->y, c->gx, c->gy, c->modulus};
    const int64_t a = job->curves * t / n, b = job->curves * (t + 1) / n;
    for (int64_t k = a; k < b; k++) {
        const edgel_curve_record *r = &job->curve[k];
        const double *from = *output_field(&job->out[r->thread], job->field);
        memcpy(to[job->field] + c->limits[k], from + r->at, sizeof(double) * (size_t)r->length);
        c->closed[k] = r->closed;
    }
}

int edgel_subpixel_gather_curves(edgel_curve_output *out, int outs, edgel_curves *result,
                                 int release, int threads)
{
    int64_t curves = 0, points = 0;
    for (int t = 0; t < outs; t++)
        curves += out[t].curves, points += out[t].points;
    edgel_curve_record *all = malloc(sizeof *all * (size_t)(curves ? curves : 1));
    if (!all || !edgel_curves_reserve_result(result, (size_t)points, (size_t)curves)) {
        free(all);
        return 0;
    }
    int64_t k = 0;
    for (int t = 0; t < outs; t++) {
        memcpy(all + k, out[t].curve, sizeof *all * (size_t)out[t].curves);
        k += out[t].curves;
    }
    qsort(all, (size_t)curves, sizeof *all, by_curve_key);
    result->limits[0] = 0;
    for (k = 0; k < curves; k++)
        result->limits[k + 1] = result->limits[k] + all[k].length;
    for (int field = 0; field < 5; field++) {
        gather_job job = {out, all, curves, result, field};
        edgel_host_parallel(threads, gather_field, &job);
        for (int t = 0; release && t < outs; t++) { /* (held about 1.2 times, not twice) */
            free(*output_field(&out[t], field));
            *output_field(&out[t], field) = NULL;
        }
    }
    for (int t = 0; t < outs; t++)
        out[t].points = out[t].curves = 0, out[t].point_cap *= !release;
    result->points = points, result->curves = curves;
    free(all);
    return 1;
}

int edgel_curve_outputs_reserve(edgel_curve_output **out, int *outs, int threads)
{
    if (threads <= *outs)
        return 1;
    edgel_curve_output *o = realloc(*out, sizeof *o * (size_t)threads);
    if (!o)
        return 0;
    memset(o + *outs, 0, sizeof *o * (size_t)(threads - *outs));
    *out = o, *outs = threads;
    return 1;
}

void edgel_curve_outputs_free(edgel_curve_output *out, int outs)
{
    for (int t = 0; t < outs; t++) {
        for (int f = 0; f < 5; f++)
            free(*output_field(&out[t], f));
        free(out[t].curve), free(out[t].chain);
    }
    free(out);
}

/* ---- the whole pass ------------------------------------------------------------------ */

int edgel_subpixel_chain(edgel_curves *c, int w, double high, double low, int threads)
{
    if (!edgel_subpixel_link(c, w, threads) ||
        !edgel_curve_outputs_reserve(&c->out, &c->outs, threads))
        return 0;
    memset(c->valid, 0, c->all.count);
    edgel_subpixel_label_chains(c, threads);
    return edgel_subpixel_finish_chains(c, INT32_MAX, high, low, NULL, c->out, threads) &&
           edgel_subpixel_gather_curves(c->out, c->outs, c, 0, threads);
}
