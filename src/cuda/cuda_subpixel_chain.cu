/*
 * Steps 3b to 5 of the Canny/Devernay detector on the device: the links, the hysteresis along
 * them and the curves, equal to the reference's single pass (core/subpixel_chain.c) without
 * running it in order. The argument is in docs/subpixel.md ("On the GPU").
 *
 * The links: a link a -> b sits in two slots, next[a] and prev[b], and a proposal only ever
 * writes the slots of its own link and of links proposed before it that share a slot with
 * it. So the slots joined by the links proposed fall into sets that never meet: a set of
 * two slots holds one link, which ends up made; only a set where proposals compete (three
 * slots or more) needs its proposals in the reference's order, and each such set is replayed
 * alone (core/subpixel_visit.h, the visit's halves), one thread a set.
 *
 * The hysteresis (high >= low): a chain keeps its runs of points of modulus not below `low`
 * that hold a point of modulus at least `high`, and the links within them. The curves: each
 * such run of two points or more, listed from its first point in memory order (an open run
 * from its head, a closed one from the point after that first point), in that order; each
 * point's place in its curve by pointer jumping.
 */
#include <cub/cub.cuh>

#include "cuda/cuda_subpixel.cuh"
#include "cuda/cuda_union_find.cuh"

#include "core/curves.h"
#include "core/host_pool.h"
#include "core/subpixel_visit.h"

#include <limits.h>
#include <string.h>

namespace {

constexpr int BLOCK = 256;

unsigned blocks(int64_t n)
{
    return (unsigned)((n + BLOCK - 1) / BLOCK);
}

/* Thread i of n (the rest return). */
#define FOR_INDEX(i, n)                                               \
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; \
    if (i >= (n))                                                     \
        return;

struct point_view {
    edgel_subpixel_geometry g;
    const double *mod;
    const int32_t *fwd, *bck, *row_order;
    const double *fwd_s, *bck_s;
    int32_t count;
};

/* No links; every slot (next of i: i, prev of i: count + i) its own set. */
__global__ void links_init(subpixel_chain_buffers b, int32_t count)
{
    FOR_INDEX(i, count)
    b.next[i] = b.prev[i] = -1;
    b.parent[i] = (int32_t)i, b.parent[count + i] = count + (int32_t)i;
    b.size[i] = b.size[count + i] = 0;
}

/* The two slots of each link proposed joined. */
__global__ void links_join(subpixel_chain_buffers b, point_view p)
{
    FOR_INDEX(i, p.count)
    if (!edgel_subpixel_proposes(p.g, (int32_t)i))
        return;
    if (p.fwd[i] >= 0)
        join(b.parent, (int32_t)i, p.count + p.fwd[i]);
    if (p.bck[i] >= 0)
        join(b.parent, p.bck[i], p.count + (int32_t)i);
}

/* Each slot's set settled to its root, and the sets' sizes. */
__global__ void links_measure(subpixel_chain_buffers b, int32_t slots)
{
    FOR_INDEX(i, slots)
    const int32_t r = find_root(b.parent, (int32_t)i);
    b.parent[i] = r;
    atomicAdd(&b.size[r], 1);
}

/* A link alone in its two slots is made; the proposals of sets where links compete are listed
 * by number (2 i: i's forward proposal, 2 i + 1: its backward one). */
__global__ void links_make(subpixel_chain_buffers b, point_view p)
{
    FOR_INDEX(i, p.count)
    const int32_t from = (int32_t)i;
    const int proposes = edgel_subpixel_proposes(p.g, from);
    const int32_t fwd = proposes ? p.fwd[i] : -1, bck = proposes ? p.bck[i] : -1;
    int compete = 0;
    if (fwd >= 0 && !(compete = b.size[b.parent[from]] > 2))
        b.next[from] = fwd, b.prev[fwd] = from;
    b.proposal[2 * i] = compete ? 2 * from : -1;
    compete = 0;
    if (bck >= 0 && !(compete = b.size[b.parent[bck]] > 2))
        b.next[bck] = from, b.prev[from] = bck;
    b.proposal[2 * i + 1] = compete ? 2 * from + 1 : -1;
}

/* The set of each competing proposal (its link's next slot's). */
__global__ void links_owners(subpixel_chain_buffers b, point_view p, int32_t n)
{
    FOR_INDEX(k, n)
    const int32_t q = b.competing[k], from = q >> 1;
    b.owner[k] = b.parent[q & 1 ? p.bck[from] : from];
}

/* The competing proposals sorted by set (sorted_owner; the proposals into `proposal`), in the
 * reference's order within each (the sort is stable): the first thread of each set replays
 * them. */
__global__ void links_replay(subpixel_chain_buffers b, point_view p, int32_t n)
{
    FOR_INDEX(k, n)
    const int32_t set = b.sorted_owner[k];
    if (k > 0 && b.sorted_owner[k - 1] == set)
        return;
    int32_t touched[4];
    for (int64_t j = k; j < n && b.sorted_owner[j] == set; j++) {
        const int32_t q = b.proposal[j], from = q >> 1;
        if (q & 1)
            edgel_subpixel_propose_backward(b.next, b.prev, 0, p.g, from, p.bck[from],
                                            p.bck_s[from], touched);
        else
            edgel_subpixel_propose_forward(b.next, b.prev, 0, p.g, from, p.fwd[from],
                                           p.fwd_s[from], touched);
    }
}

__device__ int member(const point_view &p, int32_t i, double low)
{
    return !(p.mod[i] < low); /* (a NaN modulus is not below) */
}

/* Each point's run started at the lowest of it and its run's neighbours along the links (a
 * tree of lower numbers, so that the joins below meet shallow trees); its place in memory
 * order; the chains' facts cleared. */
__global__ void runs_init(subpixel_chain_buffers b, point_view p, double low)
{
    FOR_INDEX(i, p.count)
    int32_t parent = (int32_t)i;
    if (member(p, parent, low))
        for (const int32_t q : {b.next[i], b.prev[i]})
            if (q >= 0 && q < parent && member(p, q, low))
                parent = q;
    b.parent[i] = parent;
    b.size[i] = 0;
    b.strong[i] = 0;
    b.first[i] = INT_MAX;
    b.head[i] = -1;
    b.by_rank[i] = -1;
    b.rank[p.row_order[i]] = (int32_t)i;
}

/* A run: points joined by links, none of modulus below `low`. */
__global__ void runs_join(subpixel_chain_buffers b, point_view p, double low)
{
    FOR_INDEX(i, p.count)
    const int32_t q = b.next[i];
    if (q >= 0 && member(p, (int32_t)i, low) && member(p, q, low))
        join<int32_t, true>(b.parent, (int32_t)i, q);
}

/* Each point's run settled to its root; a run holding a modulus of at least `high` is strong. */
__global__ void runs_strong(subpixel_chain_buffers b, point_view p, double high)
{
    FOR_INDEX(i, p.count)
    const int32_t r = find_root(b.parent, (int32_t)i); /* (no halving beside the settling:
                                                           a stale halving would undo it) */
    b.parent[i] = r;
    if (p.mod[i] >= high)
        b.strong[r] = 1;
}

__device__ int kept(const subpixel_chain_buffers &b, const point_view &p, int32_t i, double low)
{
    return member(p, i, low) && b.strong[b.parent[i]];
}

/* The links the hysteresis keeps: both ends in a strong run. */
__global__ void runs_keep(subpixel_chain_buffers b, point_view p, double low)
{
    FOR_INDEX(i, p.count)
    const int32_t n = b.next[i], q = b.prev[i];
    const int k = kept(b, p, (int32_t)i, low);
    b.kept_next[i] = n >= 0 && k && kept(b, p, n, low) ? n : -1;
    b.kept_prev[i] = q >= 0 && k && kept(b, p, q, low) ? q : -1;
}

__device__ int chained(const subpixel_chain_buffers &b, int64_t i)
{
    return b.kept_next[i] >= 0 || b.kept_prev[i] >= 0;
}

/* Each chain's points, its first point in memory order and its head (none: closed). */
__global__ void chains_measure(subpixel_chain_buffers b, int32_t count)
{
    FOR_INDEX(i, count)
    if (!chained(b, i))
        return;
    const int32_t r = b.parent[i];
    atomicMin(&b.first[r], b.rank[i]);
    atomicAdd(&b.size[r], 1);
    if (b.kept_prev[i] < 0)
        b.head[r] = (int32_t)i;
}

/* Each chain at the memory-order place of its first point. */
__global__ void chains_order(subpixel_chain_buffers b, int32_t count)
{
    FOR_INDEX(i, count)
    if (b.parent[i] == i && b.size[i] > 0)
        b.by_rank[b.first[i]] = (int32_t)i;
}

/* Curve k (of the counters[1] listed): its chain's curve number, its first point, whether it
 * is closed and its length (a closed curve repeats its first point), 0 past the last curve
 * so that the scan's last entry is the points' total. */
__global__ void curves_measure(subpixel_chain_buffers b, point_view p, int32_t slots)
{
    FOR_INDEX(k, slots)
    if (k >= b.counters[1]) {
        b.lengths[k] = 0;
        return;
    }
    const int32_t r = b.curve_root[k];
    const int closed = b.head[r] < 0;
    b.curve_of[r] = (int32_t)k;
    b.start[k] = closed ? b.kept_next[p.row_order[b.first[r]]] : b.head[r];
    b.closed[k] = (uint8_t)closed;
    b.lengths[k] = b.size[r] + closed;
    atomicMax(&b.counters[3], b.size[r]);
}

/* Pointer jumping toward each curve's last point: the step after each point (none after
 * the last; a closed curve's cut before its first point) and its distance. */
__global__ void curves_steps(subpixel_chain_buffers b, int32_t count)
{
    FOR_INDEX(i, count)
    int32_t s = -1;
    if (chained(b, i)) {
        s = b.kept_next[i];
        if (s >= 0 && s == b.start[b.curve_of[b.parent[i]]])
            s = -1;
    }
    b.succ[0][i] = s;
    b.dist[0][i] = s >= 0;
}

__global__ void curves_jump(const int32_t *succ, const int32_t *dist, int32_t *succ_out,
                            int32_t *dist_out, int32_t count)
{
    FOR_INDEX(i, count)
    const int32_t s = succ[i];
    succ_out[i] = s >= 0 ? succ[s] : -1;
    dist_out[i] = s >= 0 ? dist[i] + dist[s] : dist[i];
}

struct curve_points {
    double *a[5]; /* x, y, gx, gy, modulus */
};

/* Each chained point into its curve's place (`dist` from the end); a closed curve's first
 * point once more at its end. */
__global__ void curves_write(subpixel_chain_buffers b, point_view p, const int32_t *dist,
                             curve_points out)
{
    FOR_INDEX(i, p.count)
    if (!chained(b, i))
        return;
    const int32_t r = b.parent[i], k = b.curve_of[r];
    int64_t at[2] = {b.limits[k] + b.size[r] - 1 - dist[i], -1};
    if (b.closed[k] && b.start[k] == i)
        at[1] = b.limits[k] + b.size[r];
    const double v[5] = {p.g.x[i], p.g.y[i], p.g.gx[i], p.g.gy[i], p.mod[i]};
    for (int n = 0; n < 2 && at[n] >= 0; n++)
        for (int a = 0; a < 5; a++)
            out.a[a][at[n]] = v[a];
}

__global__ void curves_total(subpixel_chain_buffers b)
{
    b.counters[2] = (int32_t)b.limits[b.counters[1]];
}

__global__ void counters_clear(subpixel_chain_buffers b)
{
    b.counters[3] = 0;
}

struct listed {
    __device__ bool operator()(int32_t v) const { return v >= 0; }
};

/* The block's arrays for `points` points, carved in order (each 256-byte aligned); with a
 * null base, only the total. */
size_t carve(subpixel_chain_buffers *b, uint8_t *base, size_t points)
{
    const size_t n = points, curves = points / 2 + 2, out = points + points / 2 + 1;
    size_t at = 0;
    auto take = [&](size_t bytes) {
        uint8_t *p = base ? base + at : NULL;
        at += (bytes + 255) & ~(size_t)255;
        return p;
    };
    int32_t **per_point[] = {&b->next, &b->prev, &b->kept_next, &b->kept_prev, &b->rank,
                             &b->first, &b->head, &b->by_rank, &b->curve_of, &b->succ[0],
                             &b->succ[1], &b->dist[0], &b->dist[1]};
    for (int32_t **a : per_point)
        *a = (int32_t *)take(4 * n);
    for (int32_t **a : {&b->parent, &b->size, &b->proposal, &b->competing, &b->owner,
                        &b->sorted_owner})
        *a = (int32_t *)take(8 * n); /* two a point: slots, proposals */
    b->curve_root = (int32_t *)take(4 * curves);
    b->start = (int32_t *)take(4 * curves);
    b->lengths = (int64_t *)take(8 * curves);
    b->limits = (int64_t *)take(8 * curves);
    b->counters = (int32_t *)take(16);
    b->strong = take(n);
    b->closed = take(curves);
    for (double *&o : b->out)
        o = (double *)take(8 * out);
    return at;
}

edgel_status ensure_chain(subpixel_chain_buffers *b, size_t points)
{
    if (points > b->points) {
        cudaFree(b->block);
        b->block = NULL, b->points = 0;
        const size_t bytes = carve(b, NULL, points);
        CUDA_TRY(cudaMalloc(&b->block, bytes));
        carve(b, (uint8_t *)b->block, points);
        b->points = points;
    }
    const int64_t n = (int64_t)points;
    size_t select = 0, sort = 0, scan = 0;
    CUDA_TRY(cub::DeviceSelect::If(NULL, select, b->proposal, b->competing, b->counters, 2 * n,
                                   listed()));
    CUDA_TRY(cub::DeviceRadixSort::SortPairs(NULL, sort, b->owner, b->sorted_owner, b->competing,
                                             b->proposal, 2 * n));
    CUDA_TRY(cub::DeviceScan::ExclusiveSum(NULL, scan, b->lengths, b->limits, n / 2 + 2));
    size_t want = select > sort ? select : sort;
    want = want > scan ? want : scan;
    if (want > b->tmp_bytes) {
        cudaFree(b->tmp);
        b->tmp = NULL, b->tmp_bytes = 0;
        CUDA_TRY(cudaMalloc(&b->tmp, want));
        b->tmp_bytes = want;
    }
    return EDGEL_OK;
}

/* Bits that hold every number below n. */
int bits_for(int64_t n)
{
    int k = 1;
    while (k < 62 && (1LL << k) < n)
        k++;
    return k;
}

} // namespace

void release_subpixel_chain_buffers(subpixel_chain_buffers *b)
{
    cudaFree(b->block), cudaFree(b->tmp);
    memset(b, 0, sizeof *b);
}

edgel_status subpixel_chain_on_device(subpixel_buffers *sb, cudaStream_t stream, int32_t count,
                                      double high, double low, int threads, int device,
                                      edgel_curves *c)
{
    subpixel_chain_buffers *b = &sb->chain;
    if (count == 0)
        return edgel_curves_set_none(c) ? EDGEL_OK
                                        : edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY,
                                                     "sub-pixel edges: out of memory");
    EDGEL_TRY(ensure_chain(b, (size_t)count));
    const point_view p = {{sb->x, sb->y, sb->gx, sb->gy}, sb->mod, sb->fwd, sb->bck,
                          sb->row_order, sb->fwd_s, sb->bck_s, count};
    const int64_t slots = 2 * (int64_t)count, curve_slots = count / 2 + 2;
    const unsigned grid = blocks(count);
    size_t bytes;

    links_init<<<grid, BLOCK, 0, stream>>>(*b, count);
    links_join<<<grid, BLOCK, 0, stream>>>(*b, p);
    links_measure<<<blocks(slots), BLOCK, 0, stream>>>(*b, (int32_t)slots);
    links_make<<<grid, BLOCK, 0, stream>>>(*b, p);
    bytes = b->tmp_bytes;
    CUDA_TRY(cub::DeviceSelect::If(b->tmp, bytes, b->proposal, b->competing, b->counters, slots,
                                   listed(), stream));
    int32_t competing = 0;
    CUDA_TRY(cudaMemcpyAsync(&competing, b->counters, sizeof competing, cudaMemcpyDeviceToHost,
                             stream));
    CUDA_TRY(cudaStreamSynchronize(stream));
    if (competing > 0) {
        links_owners<<<blocks(competing), BLOCK, 0, stream>>>(*b, p, competing);
        bytes = b->tmp_bytes;
        CUDA_TRY(cub::DeviceRadixSort::SortPairs(b->tmp, bytes, b->owner, b->sorted_owner,
                                                 b->competing, b->proposal, competing, 0,
                                                 bits_for(slots), stream));
        links_replay<<<blocks(competing), BLOCK, 0, stream>>>(*b, p, competing);
    }

    counters_clear<<<1, 1, 0, stream>>>(*b);
    runs_init<<<grid, BLOCK, 0, stream>>>(*b, p, low);
    runs_join<<<grid, BLOCK, 0, stream>>>(*b, p, low);
    runs_strong<<<grid, BLOCK, 0, stream>>>(*b, p, high);
    runs_keep<<<grid, BLOCK, 0, stream>>>(*b, p, low);
    chains_measure<<<grid, BLOCK, 0, stream>>>(*b, count);
    chains_order<<<grid, BLOCK, 0, stream>>>(*b, count);
    bytes = b->tmp_bytes;
    CUDA_TRY(cub::DeviceSelect::If(b->tmp, bytes, b->by_rank, b->curve_root, b->counters + 1,
                                   (int64_t)count, listed(), stream));
    curves_measure<<<blocks(curve_slots), BLOCK, 0, stream>>>(*b, p, (int32_t)curve_slots);
    bytes = b->tmp_bytes;
    CUDA_TRY(cub::DeviceScan::ExclusiveSum(b->tmp, bytes, b->lengths, b->limits, curve_slots,
                                           stream));
    curves_total<<<1, 1, 0, stream>>>(*b);
    CUDA_TRY(cudaGetLastError());
    int32_t totals[4]; /* (competing proposals,) curves, points, the longest chain */
    CUDA_TRY(cudaMemcpyAsync(totals, b->counters, sizeof totals, cudaMemcpyDeviceToHost, stream));
    CUDA_TRY(cudaStreamSynchronize(stream));
    const int64_t curves = totals[1], points = totals[2];
    curves_steps<<<grid, BLOCK, 0, stream>>>(*b, count);
    int from = 0; /* jumps enough for the longest chain's distances */
    for (int round = 0; round < bits_for((int64_t)totals[3] + 1); round++, from ^= 1)
        curves_jump<<<grid, BLOCK, 0, stream>>>(b->succ[from], b->dist[from], b->succ[from ^ 1],
                                                b->dist[from ^ 1], count);
    c->points = c->curves = 0;
    if (c->place == EDGEL_CURVES_ON_DEVICE) {
        EDGEL_TRY(device_curves_reserve(c, device, points, curves));
        const edgel_device_curves *d = &c->on_device;
        const curve_points out = {{d->x, d->y, d->gx, d->gy, d->modulus}};
        curves_write<<<grid, BLOCK, 0, stream>>>(*b, p, b->dist[from], out);
        CUDA_TRY(cudaGetLastError());
        CUDA_TRY(cudaMemcpyAsync(d->limits, b->limits, 8 * ((size_t)curves + 1),
                                 cudaMemcpyDeviceToDevice, stream));
        if (curves > 0)
            CUDA_TRY(cudaMemcpyAsync(d->closed, b->closed, (size_t)curves,
                                     cudaMemcpyDeviceToDevice, stream));
        CUDA_TRY(cudaStreamSynchronize(stream));
        c->on_device.device = device;
        c->points = points, c->curves = curves;
        return EDGEL_OK;
    }
    const curve_points out = {{b->out[0], b->out[1], b->out[2], b->out[3], b->out[4]}};
    curves_write<<<grid, BLOCK, 0, stream>>>(*b, p, b->dist[from], out);
    CUDA_TRY(cudaGetLastError());
    if (!edgel_curves_reserve_result(c, (size_t)points, (size_t)curves))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel edges: out of memory for %lld "
                          "points on %lld curves", (long long)points, (long long)curves);
    const device_part parts[] = {{c->x, b->out[0], 8 * (size_t)points},
                                 {c->y, b->out[1], 8 * (size_t)points},
                                 {c->gx, b->out[2], 8 * (size_t)points},
                                 {c->gy, b->out[3], 8 * (size_t)points},
                                 {c->modulus, b->out[4], 8 * (size_t)points},
                                 {c->limits, b->limits, 8 * ((size_t)curves + 1)},
                                 {c->closed, b->closed, (size_t)curves}};
    EDGEL_TRY(copy_down_staged(&sb->staging, &sb->staging_bytes, stream, parts,
                               (int)(sizeof parts / sizeof parts[0]), threads));
    c->points = points, c->curves = curves;
    return EDGEL_OK;
}
