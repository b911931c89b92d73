/*
 * Steps 3b to 5 of the Canny/Devernay detector: the links (subpixel_link.c), the hysteresis
 * along them and the listing, equal to the reference's single pass over the points, on many
 * threads.
 *
 * Why the chains split the work: after the links, the hysteresis and the listing only follow
 * and cut links, so work from one point stays on its chain (the points joined by links), and
 * work on two chains touches disjoint memory and commutes: the single pass over all points
 * equals, chain by chain, the pass over each chain's points in the same order. The chains
 * are labelled by a concurrent union-find over the links and hashed by their root into 256
 * buckets; each thread takes whole buckets and walks the points in memory order, working on
 * those of its buckets.
 */
#include "core/subpixel_chain.h"
#include "core/union_find.h"

#include "core/host_pool.h"
#include "core/subpixel_link.h"

#include <stdatomic.h>
#include <string.h>

typedef struct chain_job {
    edgel_curves *c;
    double high, low;
    int by_chains; /* the chains are labelled (more than one thread) */
    int64_t curves;
} chain_job;

static _Atomic int32_t *parents(const edgel_curves *c)
{
    return (_Atomic int32_t *)c->label;
}

static void start_chains(void *arg, int t, int n)
{
    const chain_job *job = arg;
    int a, b;
    edgel_stripe(t, n, (int)job->c->all.count, &a, &b);
    for (int32_t i = a; i < b; i++)
        atomic_init(&parents(job->c)[i], i);
}

static void join_links(void *arg, int t, int n)
{
    const chain_job *job = arg;
    const edgel_curves *c = job->c;
    int a, b;
    edgel_stripe(t, n, (int)c->all.count, &a, &b);
    for (int32_t i = a; i < b; i++)
        if (c->next[i] >= 0)
            edgel_uf_shared_join(parents(c), i, c->next[i]);
}

/* Each label its chain's root (a write of the root is one more halving: safe beside
 * others). */
static void settle_labels(void *arg, int t, int n)
{
    const chain_job *job = arg;
    int a, b;
    edgel_stripe(t, n, (int)job->c->all.count, &a, &b);
    for (int32_t i = a; i < b; i++)
        atomic_store_explicit(&parents(job->c)[i], edgel_uf_shared_find(parents(job->c), i),
                              memory_order_relaxed);
}

void edgel_subpixel_label_chains(edgel_curves *c, int threads)
{
    chain_job job = {c, 0.0, 0.0, 1, 0};
    edgel_host_parallel(threads, start_chains, &job);
    edgel_host_parallel(threads, join_links, &job);
    edgel_host_parallel(threads, settle_labels, &job);
}

/* Buckets are ranges of roots: a chain's root is its lowest number, and chains are short and
 * local, so a thread's chains lie mostly in its own columns and threads seldom share cache
 * lines. */
static uint8_t bucket_of(int32_t root, int32_t count)
{
    return (uint8_t)((int64_t)root * 256 / count);
}

/* Each label its chain's root (a write of the root is one more halving: safe beside others);
 * each point's bucket, by number and by memory order. */
static void label_chains(void *arg, int t, int n)
{
    const chain_job *job = arg;
    edgel_curves *c = job->c;
    uint8_t *row_bucket = c->bucket + c->all.count;
    int a, b;
    edgel_stripe(t, n, (int)c->all.count, &a, &b);
    for (int32_t i = a; i < b; i++) {
        const int32_t root = edgel_uf_shared_find(parents(c), i);
        atomic_store_explicit(&parents(c)[i], root, memory_order_relaxed);
        c->bucket[i] = bucket_of(root, (int32_t)c->all.count);
        row_bucket[i] = bucket_of(edgel_uf_shared_find(parents(c), c->row_order[i]),
                                  (int32_t)c->all.count);
    }
}

/* Which of the 256 buckets thread t of n works on. */
static void take_buckets(int t, int n, uint8_t take[256])
{
    for (int k = 0; k < 256; k++)
        take[k] = k * n / 256 == t;
}

static int chained(const edgel_curves *c, int32_t i)
{
    return c->prev[i] >= 0 || c->next[i] >= 0;
}

void edgel_subpixel_hysteresis_at(edgel_curves *c, int32_t i, double high, double low)
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

void edgel_subpixel_drop_invalid_at(edgel_curves *c, int32_t i)
{
    if (chained(c, i) && !c->valid[i])
        c->prev[i] = c->next[i] = -1;
}

/* Step 4 for the thread's chains: chains from each point of modulus >= high (in memory
 * order), followed forward then backward while the modulus stays >= low (cut at the first
 * point below). */
static void hysteresis(void *arg, int t, int n)
{
    const chain_job *job = arg;
    edgel_curves *c = job->c;
    const int32_t count = (int32_t)c->all.count;
    const uint8_t *row_bucket = c->bucket + count;
    uint8_t take[256];
    take_buckets(t, n, take);
    for (int32_t r = 0; r < count; r++)
        if (!job->by_chains || take[row_bucket[r]])
            edgel_subpixel_hysteresis_at(c, c->row_order[r], job->high, job->low);
}

/* The chains that hysteresis left invalid are unlinked (their partners are invalid too);
 * each point's curve length (by memory order) cleared for the listing. */
static void drop_invalid(void *arg, int t, int n)
{
    const chain_job *job = arg;
    edgel_curves *c = job->c;
    int a, b;
    edgel_stripe(t, n, (int)c->all.count, &a, &b);
    for (int32_t i = a; i < b; i++) {
        edgel_subpixel_drop_invalid_at(c, i);
        c->fwd[i] = 0;
    }
}

/* Step 5, first half, for the thread's chains: the curve that each point (in memory order)
 * starts, if any: the first chained point not yet listed starts its chain's curve, from the
 * chain's start (or, on a closed chain, from the point after it). Its length (a closed
 * curve repeats its first point) goes to fwd and its first point to bck, by memory order;
 * valid clears as points are listed. */
int32_t edgel_subpixel_curve_at(const edgel_curves *c, int32_t i)
{
    if (!(c->valid[i] && chained(c, i)))
        return -1;
    int32_t k = i, q;
    while ((q = c->prev[k]) >= 0 && q != i)
        k = q;
    return k;
}

static void measure_curves(void *arg, int t, int n)
{
    const chain_job *job = arg;
    edgel_curves *c = job->c;
    const int32_t count = (int32_t)c->all.count;
    const uint8_t *row_bucket = c->bucket + count;
    uint8_t take[256];
    take_buckets(t, n, take);
    for (int32_t r = 0; r < count; r++) {
        if (job->by_chains && !take[row_bucket[r]])
            continue;
        const int32_t first = edgel_subpixel_curve_at(c, c->row_order[r]);
        if (first < 0)
            continue;
        int32_t k = first, length = 0;
        do {
            c->valid[k] = 0;
            length++;
            k = c->next[k];
        } while (k >= 0 && k != first);
        c->fwd[r] = length + (k == first);
        c->bck[r] = first;
    }
}

/* Step 5, second half: curve k written from its first point (c->bck[k]) at c->limits[k]. */
static void write_curves(void *arg, int t, int n)
{
    const chain_job *job = arg;
    edgel_curves *c = job->c;
    const edgel_point_list *p = &c->all;
    int a, b;
    edgel_stripe(t, n, (int)job->curves, &a, &b);
    for (int32_t k = a; k < b; k++) {
        const int32_t first = c->bck[k];
        int64_t o = c->limits[k];
        int32_t j = first;
        do {
            c->x[o] = p->x[j], c->y[o] = p->y[j];
            c->gx[o] = p->gx[j], c->gy[o] = p->gy[j], c->modulus[o] = p->mod[j];
            o++;
            j = c->next[j];
        } while (j >= 0 && j != first);
        c->closed[k] = j == first;
        if (j == first) {
            c->x[o] = p->x[j], c->y[o] = p->y[j];
            c->gx[o] = p->gx[j], c->gy[o] = p->gy[j], c->modulus[o] = p->mod[j];
        }
    }
}

int edgel_subpixel_chain(edgel_curves *c, int w, double high, double low, int threads)
{
    const int32_t count = (int32_t)c->all.count;
    chain_job job = {c, high, low, threads > 1 && count > 0, 0};
    if (!edgel_subpixel_link(c, w, threads))
        return 0;
    memset(c->valid, 0, (size_t)count);
    if (job.by_chains) {
        edgel_host_parallel(threads, start_chains, &job);
        edgel_host_parallel(threads, join_links, &job);
        edgel_host_parallel(threads, label_chains, &job);
    }
    const int workers = job.by_chains ? threads : 1;
    edgel_host_parallel(workers, hysteresis, &job);
    edgel_host_parallel(workers, drop_invalid, &job);
    edgel_host_parallel(workers, measure_curves, &job);
    /* the curves in memory order of the points that start them: lengths to limits, first
     * points moved down to their curve's index (k <= r: in place) */
    int64_t curves = 0, points = 0;
    for (int32_t r = 0; r < count; r++)
        if (c->fwd[r] > 0) {
            c->bck[curves] = c->bck[r];
            c->fwd[curves++] = c->fwd[r];
            points += c->fwd[r];
        }
    c->points = c->curves = 0;
    if (!edgel_curves_reserve_result(c, (size_t)points, (size_t)curves))
        return 0;
    c->limits[0] = 0;
    for (int64_t k = 0; k < curves; k++)
        c->limits[k + 1] = c->limits[k] + c->fwd[k];
    job.curves = curves;
    edgel_host_parallel(threads, write_curves, &job);
    c->points = points, c->curves = curves;
    return 1;
}
