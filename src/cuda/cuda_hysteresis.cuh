/*
 * Hysteresis on the GPU over bitmaps, exact: a candidate is an edge when it is 8-connected,
 * through candidates, to a strong pixel.
 *
 * The tile kernels before it leave two bitmaps: `cand` (kept by NMS and above the low
 * threshold) and `strong` (above the high one), one 32-bit word per 32 pixels of a row of a
 * 32x32 tile. Two launches, a block per tile, finish the work; inside a tile a lane holds a
 * row and floods are word operations (runs filled by a carry trick, rows by shuffles):
 *
 *   link_tiles    floods the strong pixels through the tile's candidates and keeps the
 *                 result in `reach`. Candidates on a tile side that faces another tile are
 *                 union-find nodes (128 per tile: top, bottom, left and right, a node per
 *                 pixel): reached ones join node 0, which stands for "connected to a strong
 *                 pixel"; the others join the first node of their component inside the tile
 *                 (found by flooding from the side's runs). The tile also joins its top and
 *                 left sides to the pixels across them.
 *   finish_tiles  adds to `reach` the side pixels whose node ended in node 0's set, floods
 *                 again and writes the edge bytes.
 *
 * The union-find is over a few nodes per tile, not over pixels.
 */
#ifndef EDGEL_CUDA_HYSTERESIS_CUH
#define EDGEL_CUDA_HYSTERESIS_CUH

#include <stdint.h>

#define EDGEL_FULL_WARP 0xFFFFFFFFu
#define EDGEL_TILE_NODES 128 /* per tile: top 0-31, bottom 32-63, left 64-95, right 96-127 */
#define EDGEL_NODE_TOP 0
#define EDGEL_NODE_BOTTOM 32
#define EDGEL_NODE_LEFT 64
#define EDGEL_NODE_RIGHT 96

/* Bitmaps and union-find nodes of the hysteresis. Frame z's arrays start at z * stride.
 * A row's word of tile column tx is at (y * tiles_x + tx); rows run to tiles_y * 32. */
struct canny_bits {
    uint32_t *cand, *strong, *reach;
    uint32_t *parent; /* node 0, then EDGEL_TILE_NODES per tile */
    size_t stride;    /* uint32 elements from one frame's arrays to the next's */
    int tiles_x, tiles_y;
};

__device__ __forceinline__ uint32_t tile_node(int tile, int k)
{
    return 1u + (uint32_t)tile * EDGEL_TILE_NODES + (uint32_t)k;
}

/* The hysteresis kernels may be launched before the kernel before them has finished
 * (programmatic dependent launch, sm_90 and later): they wait here, before their first read
 * of its results, so that their launch overlaps its tail. */
__device__ __forceinline__ void wait_for_previous_kernel()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
}

/* ---- union-find over global nodes --------------------------------------------------------- */

/* p, which the compiler may no longer take apart: a frame's node array is then one base
 * register, and a node's address one multiply-add (left alone, the compiler folded the
 * frame's offset into every node index: ten instructions a load in the finds' loops). */
template <typename T> __device__ __forceinline__ T *opaque(T *p)
{
    asm("" : "+l"(p));
    return p;
}

/* A parent as another block may have just written it: a relaxed load at device scope (a
 * volatile load is system-scoped: LDG.STRONG.SYS). */
__device__ __forceinline__ uint32_t load_parent(const uint32_t *parent, uint32_t x)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    uint32_t v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(parent + x) : "memory");
    return v;
#else
    return ((const volatile uint32_t *)parent)[x];
#endif
}

/* The roots of N nodes at once (where `want`; others give 0xFFFFFFFF): the finds' loads
 * overlap instead of walking one path after the other. */
template <int N>
__device__ __forceinline__ void uf_find_each(const uint32_t *parent, uint32_t (&x)[N],
                                             const bool (&want)[N])
{
    uint32_t up[N];
#pragma unroll
    for (int k = 0; k < N; k++)
        up[k] = want[k] ? load_parent(parent, x[k]) : x[k];
    for (bool more = true; more;) {
        more = false;
#pragma unroll
        for (int k = 0; k < N; k++)
            if (up[k] != x[k]) {
                x[k] = up[k];
                up[k] = load_parent(parent, x[k]);
                more = true;
            }
    }
#pragma unroll
    for (int k = 0; k < N; k++)
        x[k] = want[k] ? x[k] : 0xFFFFFFFFu;
}

/* Joins the sets of a and b: the larger root is pointed at the smaller with atomicMin, so
 * node 0 stays the root of its set. When another thread linked the larger root meanwhile,
 * the roots are sought again. Both finds run in one loop, so their loads overlap. */
__device__ __forceinline__ void uf_union(uint32_t *parent, uint32_t a, uint32_t b)
{
    for (;;) {
        for (;;) {
            const uint32_t pa = load_parent(parent, a), pb = load_parent(parent, b);
            if (pa == a && pb == b)
                break;
            a = pa;
            b = pb;
        }
        const uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
        if (lo == hi)
            return;
        const uint32_t old = atomicMin(&parent[hi], lo);
        if (old == hi)
            return;
        a = lo;
        b = old;
    }
}

/* Joins the sets of a and b; when the larger of the two is still a root, by a single
 * compare-and-swap that hooks it under the smaller (ids still fall along every path), which
 * is the common case here and saves the finds' round trips to L2. */
__device__ __forceinline__ void uf_hook(uint32_t *parent, uint32_t a, uint32_t b)
{
    const uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    if (lo != hi && atomicCAS(&parent[hi], hi, lo) != hi)
        uf_union(parent, a, b);
}

/* ---- floods inside a tile: a lane per row, a bit per column --------------------------------- */

/* The whole runs of `c` that hold a bit of `s` (s a subset of c). Adding s to c carries from
 * each run's lowest seed to the run's top, flipping the bits in between; the same on the
 * bit-reversed words fills towards bit 0. */
__device__ __forceinline__ uint32_t fill_runs(uint32_t s, uint32_t c)
{
    const uint32_t up = (((c + s) ^ c) & c) | s;
    const uint32_t rc = __brev(c), rs = __brev(s);
    const uint32_t down = __brev((((rc + rs) ^ rc) & rc) | rs);
    return up | down;
}

/* Floods N seed sets at once through the tile's candidates (c, this lane's row): each f[k]
 * becomes the candidates 8-connected inside the tile to its seeds. Rows take one step per
 * round, runs fill at once; the N floods share each round's latency. Warp-uniform: every
 * lane must call it. */
template <int N> __device__ __forceinline__ void warp_flood(uint32_t (&f)[N], uint32_t c)
{
#pragma unroll
    for (int k = 0; k < N; k++)
        f[k] = fill_runs(f[k] & c, c);
    for (;;) {
        uint32_t grown[N];
        bool any = false;
#pragma unroll
        for (int k = 0; k < N; k++) {
            /* Lanes 0 and 31 get their own row back instead of a row beyond the tile. That
             * grows nothing: f[k] holds whole runs of c, so no pixel of c beside it is outside
             * it. */
            const uint32_t v = __shfl_up_sync(EDGEL_FULL_WARP, f[k], 1) |
                               __shfl_down_sync(EDGEL_FULL_WARP, f[k], 1);
            grown[k] = (v | (v << 1) | (v >> 1)) & c & ~f[k];
            any = any || grown[k] != 0;
        }
        if (!__any_sync(EDGEL_FULL_WARP, any))
            return;
#pragma unroll
        for (int k = 0; k < N; k++)
            f[k] = fill_runs(f[k] | grown[k], c);
    }
}

/* Which sides of tile (tx, ty) face another tile. */
struct tile_sides {
    bool top, bottom, left, right;
};

__device__ __forceinline__ tile_sides sides_of(int tx, int ty, int tiles_x, int tiles_y)
{
    return tile_sides{ty > 0, ty + 1 < tiles_y, tx > 0, tx + 1 < tiles_x};
}

/* Whether side group g (0 the top row, 1 the bottom row, 2 the left column, 3 the right, as
 * the nodes) faces another tile. */
__device__ __forceinline__ bool faces(const tile_sides &s, int g)
{
    return g == 0 ? s.top : g == 1 ? s.bottom : g == 2 ? s.left : s.right;
}

/* The side pixels of this lane's row, as a mask. */
__device__ __forceinline__ uint32_t side_mask(const tile_sides &s, int lane)
{
    return (lane == 0 && s.top ? EDGEL_FULL_WARP : 0u) | (lane == 31 && s.bottom ? EDGEL_FULL_WARP : 0u) |
           (s.left ? 1u : 0u) | (s.right ? 0x80000000u : 0u);
}

/* The node of side pixel (row, col) of a tile: top or bottom row first, then the columns. */
__device__ __forceinline__ uint32_t side_node(int tile, const tile_sides &s, int row, int col)
{
    if (row == 0 && s.top)
        return tile_node(tile, EDGEL_NODE_TOP + col);
    if (row == 31 && s.bottom)
        return tile_node(tile, EDGEL_NODE_BOTTOM + col);
    if (col == 0 && s.left)
        return tile_node(tile, EDGEL_NODE_LEFT + row);
    return tile_node(tile, EDGEL_NODE_RIGHT + row);
}

/*
 * Joins the pixels of one tile side (`cur`, bit i = pixel i along the side) with those of
 * the line across it (`across`, bit i + 1 = pixel i, for i = -1 .. 32: its ends lie in the
 * diagonal tiles). This lane handles pixel i = lane. Each pair of touching runs is joined
 * once, at its first touching pixel; a pair is left out only where a neighbour inside the
 * same two tiles covers it, so no tile relies on another's choice.
 * Nodes: cur_node(i) for our pixels, across_node(i) for the line's.
 */
template <typename CurNode, typename AcrossNode>
__device__ __forceinline__ void join_side(uint32_t *parent, uint32_t cur, uint64_t across,
                                          CurNode cur_node, AcrossNode across_node)
{
    const int i = threadIdx.x & 31;
    if (!(cur >> i & 1))
        return;
    const bool a_mid = across >> (i + 1) & 1, a_before = across >> i & 1, a_after = across >> (i + 2) & 1;
    const bool c_before = i > 0 && (cur >> (i - 1) & 1), c_after = i < 31 && (cur >> (i + 1) & 1);
    const bool a_before_in = i > 0 && a_before, a_mid_before = i > 0 && a_mid, a_mid_after = i < 31 && a_mid;
    const bool straight = a_mid && !(c_before && a_before_in);
    const bool diag_before = a_before && !a_mid_before && !c_before;
    const bool diag_after = a_after && !a_mid_after && !c_after;
    const uint32_t me = cur_node(i);
    if (straight)
        uf_hook(parent, me, across_node(i));
    if (diag_before)
        uf_hook(parent, me, across_node(i - 1));
    if (diag_after)
        uf_hook(parent, me, across_node(i + 1));
}

/* The hysteresis kernels take W = 4 warps a tile or 1: four give a tile the shortest time;
 * one lets four times as many tiles share an SM, for launches of many tiles. With one warp a
 * tile a block holds two tiles (an SM holds at most 32 blocks), each on its own. */
template <int W> __host__ __device__ constexpr int tiles_per_block() { return W == 1 ? 2 : 1; }

/* A barrier over the warps of one tile. */
template <int W> __device__ __forceinline__ void tile_sync()
{
    if (W == 1)
        __syncwarp();
    else
        __syncthreads();
}

/* Kernel 1 of 2: floods from the strong pixels, in-tile components of the side nodes, and the
 * joins across the top and left sides. Warp 0 of a tile floods from the strong pixels while
 * the others join across the top and left sides (with one warp, after it); then every warp
 * floods its share of the unreached side runs, EDGEL_LINK_PLANES at a time (natural frames
 * leave a few to two dozen small components per tile; one warp doing them in turn set the
 * kernel's time with four warps a tile). */
#ifndef EDGEL_LINK_PLANES /* one measured faster than 2 to 4 (-link-planes.txt; a -D to measure others) */
#define EDGEL_LINK_PLANES 1
#endif
template <int W>
__global__ void __launch_bounds__(32 * W * tiles_per_block<W>()) link_tiles(canny_bits b)
{
    static_assert(W == 1 || W == 4, "one or four warps a tile");
    constexpr int TPB = tiles_per_block<W>();
    __shared__ uint32_t s_reach_of[TPB][EDGEL_TILE];
    __shared__ uint32_t s_rep_of[TPB][EDGEL_TILE_NODES]; /* smallest seed node whose flood holds the pixel */
    const int lane = threadIdx.x & 31, warp = (threadIdx.x >> 5) % W, slot = TPB == 1 ? 0 : threadIdx.x >> 5;
    const int z = blockIdx.z, tx = blockIdx.x * TPB + slot, ty = blockIdx.y, tiles_x = b.tiles_x, tiles_y = b.tiles_y;
    if (TPB > 1 && tx >= tiles_x)
        return; /* the second tile of a row's last block (one warp a tile: no block barrier) */
    const int tile = ty * tiles_x + tx;
    uint32_t *s_reach = s_reach_of[slot], *s_rep = s_rep_of[slot];
    const uint32_t *cand = b.cand + z * b.stride;
    uint32_t *parent = opaque(b.parent + z * b.stride);
    const size_t word = (size_t)(ty * 32 + lane) * tiles_x + tx;
    wait_for_previous_kernel();
    const uint32_t c = cand[word]; /* every warp holds the tile, a row per lane */
    const tile_sides sd = sides_of(tx, ty, tiles_x, tiles_y);
    for (int t = warp * 32 + lane; t < EDGEL_TILE_NODES; t += 32 * W)
        s_rep[t] = 0xFFFFFFFFu;
    if (warp == 0) {
        uint32_t f[1] = {b.strong[z * b.stride + word]};
        warp_flood(f, c);
        s_reach[lane] = f[0];
        b.reach[z * b.stride + word] = f[0];
    }
    /* Meanwhile the joins across the top and the left side, which need no flood (the order of
     * unions does not matter). Across the top: our row 0 against row y0 - 1 (tiles
     * above-left, above, above-right). */
    if (warp == (W == 4 ? 1 : 0) && sd.top) {
        const uint32_t c_top = __shfl_sync(EDGEL_FULL_WARP, c, 0);
        const size_t up = (size_t)(ty * 32 - 1) * tiles_x + tx;
        const uint64_t across = ((uint64_t)cand[up] << 1) | (sd.left ? cand[up - 1] >> 31 : 0u) |
                                ((uint64_t)(sd.right ? cand[up + 1] & 1u : 0u) << 33);
        const int above = tile - tiles_x;
        join_side(parent, c_top, across,
                  [&](int i) { return tile_node(tile, EDGEL_NODE_TOP + i); },
                  [&](int i) {
                      return i < 0    ? tile_node(above - 1, EDGEL_NODE_BOTTOM + 31)
                             : i > 31 ? tile_node(above + 1, EDGEL_NODE_BOTTOM)
                                      : tile_node(above, EDGEL_NODE_BOTTOM + i);
                  });
    }
    /* Across the left side: our column 0 against column x0 - 1, rows y0 - 1 .. y0 + 32. */
    if (warp == (W == 4 ? 2 : 0) && sd.left) {
        const uint32_t cur = __ballot_sync(EDGEL_FULL_WARP, c & 1);
        const uint32_t line = __ballot_sync(EDGEL_FULL_WARP, cand[word - 1] >> 31);
        const uint32_t before = sd.top ? cand[(size_t)(ty * 32 - 1) * tiles_x + tx - 1] >> 31 : 0u;
        const uint32_t after = sd.bottom ? cand[(size_t)(ty * 32 + 32) * tiles_x + tx - 1] >> 31 : 0u;
        const uint64_t across = ((uint64_t)line << 1) | before | ((uint64_t)after << 33);
        const int left = tile - 1;
        join_side(parent, cur, across,
                  [&](int i) { return tile_node(tile, EDGEL_NODE_LEFT + i); },
                  [&](int i) {
                      return i < 0    ? tile_node(left - tiles_x, EDGEL_NODE_RIGHT + 31)
                             : i > 31 ? tile_node(left + tiles_x, EDGEL_NODE_RIGHT)
                                      : tile_node(left, EDGEL_NODE_RIGHT + i);
                  });
    }
    tile_sync<W>();
    const uint32_t r = s_reach[lane];

    /* Unreached side pixels; each run along a side starts at one of them (a row's leftmost,
     * a column's topmost pixel), so flooding from the starts floods every such component. */
    const uint32_t open = c & side_mask(sd, lane) & ~r;
    const uint32_t shifted = __shfl_up_sync(EDGEL_FULL_WARP, c, 1); /* every lane: a full-warp shuffle */
    const uint32_t c_above = lane == 0 ? 0u : shifted;
    const bool row_side = (lane == 0 && sd.top) || (lane == 31 && sd.bottom);
    uint32_t mine = row_side ? open & ~(c << 1) : open & ~c_above;
    /* This warp's share: along a row, columns warp, warp + W, ...; in a column, those rows. */
    const uint32_t every_wth = W == 4 ? 0x11111111u : EDGEL_FULL_WARP;
    mine &= row_side ? every_wth << warp : (lane % W == warp ? EDGEL_FULL_WARP : 0u);
    constexpr int P = EDGEL_LINK_PLANES;
    /* A side pixel's seed. With one warp a tile each component is flooded once (a flood
     * takes its other starts out of `mine`), so a plain store; with four, two warps may
     * flood one component from different seeds, and the smaller seed wins. Plain stores are
     * also single predicated instructions, where the atomics were branched around. */
    const auto note = [&](int n, uint32_t s) {
        if (W == 1)
            s_rep[n] = s;
        else
            atomicMin(&s_rep[n], s);
    };
    for (unsigned lanes = __ballot_sync(EDGEL_FULL_WARP, mine != 0); lanes;
         lanes = __ballot_sync(EDGEL_FULL_WARP, mine != 0)) {
        uint32_t f[P], seed[P];
#pragma unroll
        for (int k = 0; k < P; k++) {
            f[k] = 0;
            seed[k] = 0xFFFFFFFFu;
            if (k > 0)
                lanes = __ballot_sync(EDGEL_FULL_WARP, mine != 0);
            if (!lanes)
                continue;
            const int row = __ffs(lanes) - 1;
            const int col = __ffs(__shfl_sync(EDGEL_FULL_WARP, mine, row)) - 1;
            seed[k] = side_node(tile, sd, row, col);
            if (lane == row) {
                f[k] = 1u << col;
                mine &= ~f[k];
            }
        }
        warp_flood(f, c);
#pragma unroll
        for (int k = 0; k < P; k++) {
            if ((__shfl_sync(EDGEL_FULL_WARP, f[k], 0) >> lane) & 1)
                note(EDGEL_NODE_TOP + lane, seed[k]);
            if ((__shfl_sync(EDGEL_FULL_WARP, f[k], 31) >> lane) & 1)
                note(EDGEL_NODE_BOTTOM + lane, seed[k]);
            if (f[k] & 1)
                note(EDGEL_NODE_LEFT + lane, seed[k]);
            if (f[k] >> 31)
                note(EDGEL_NODE_RIGHT + lane, seed[k]);
            mine &= ~f[k];
        }
    }
    tile_sync<W>();

    /* Side node n = 32 * g + lane of group g (see faces) joins node 0 (reached) or its
     * component's representative; warp w takes groups w, w + W, ... */
    for (int grp = warp; grp < 4; grp += W) {
        const uint32_t row_c = __shfl_sync(EDGEL_FULL_WARP, c, grp == 0 ? 0 : 31);
        const uint32_t row_r = grp == 0 ? s_reach[0] : s_reach[31];
        const int bit = grp < 2 ? lane : (grp == 2 ? 0 : 31), n = 32 * grp + lane;
        const uint32_t pc = grp < 2 ? row_c : c, pr = grp < 2 ? row_r : r;
        const uint32_t me = tile_node(tile, n);
        if (faces(sd, grp) && ((pc >> bit) & 1)) {
            const uint32_t to = ((pr >> bit) & 1) ? 0u : s_rep[n];
            if (to != me)
                uf_hook(parent, me, to);
        }
    }
}

/* Four edge bytes, 255 where bit k of the low four bits is set (the multiply puts bit k at
 * bit 8k, the copies never overlapping). */
__device__ __forceinline__ uint32_t edge_word(uint32_t bits)
{
    return ((bits & 15u) * 0x00204081u & 0x01010101u) * 255u;
}

/* The first n (up to 16) edge bytes of `bits`: one 16-byte store where it can, else 8-byte
 * stores and single bytes. */
__device__ __forceinline__ void write_edge_bytes(uint8_t *out, uint32_t bits, int n)
{
    if (n == 16 && ((uintptr_t)out & 15) == 0) {
        *(uint4 *)out = make_uint4(edge_word(bits), edge_word(bits >> 4), edge_word(bits >> 8),
                                   edge_word(bits >> 12));
        return;
    }
    int k = 0;
    if (((uintptr_t)out & 7) == 0)
        for (; k + 8 <= n; k += 8)
            *(uint2 *)(out + k) = make_uint2(edge_word(bits >> k), edge_word(bits >> (k + 4)));
    for (; k < n; k++)
        out[k] = (bits >> k & 1) ? 255 : 0;
}

/* Kernel 2 of 2: side pixels whose node joined node 0 seed a last flood; edges written. W
 * warps a tile (as link_tiles): a thread per side node, or four, for the finds (in
 * parallel, not one after another), warp 0 for the flood, and 64 threads (two a row) for the
 * 32 rows of bytes. */
template <int W>
__global__ void __launch_bounds__(32 * W * tiles_per_block<W>())
    finish_tiles(frame_table frames, canny_bits b, int width, int height)
{
    static_assert(W == 1 || W == 4, "one or four warps a tile");
    constexpr int G = 4 / W, TPB = tiles_per_block<W>(); /* G: side groups (see faces) a warp */
    __shared__ uint32_t s_seeds_of[TPB][4]; /* joined side pixels of each group */
    __shared__ uint32_t s_edges_of[TPB][EDGEL_TILE];
    const int lane = threadIdx.x & 31, warp = (threadIdx.x >> 5) % W, slot = TPB == 1 ? 0 : threadIdx.x >> 5;
    const int z = blockIdx.z, tx = blockIdx.x * TPB + slot, ty = blockIdx.y, tiles_x = b.tiles_x, tiles_y = b.tiles_y;
    if (TPB > 1 && tx >= tiles_x)
        return; /* as in link_tiles */
    const int tile = ty * tiles_x + tx;
    uint32_t *s_seeds = s_seeds_of[slot], *s_edges = s_edges_of[slot];
    const size_t word = (size_t)(ty * 32 + lane) * tiles_x + tx;
    wait_for_previous_kernel();
    const uint32_t c = b.cand[z * b.stride + word], r = b.reach[z * b.stride + word];
    const tile_sides sd = sides_of(tx, ty, tiles_x, tiles_y);
    const uint32_t open = c & side_mask(sd, lane) & ~r;
    /* Warp w takes groups w, w + W: node 32 * group + lane. */
    const uint32_t open_top = __shfl_sync(EDGEL_FULL_WARP, open, 0);
    const uint32_t open_bottom = __shfl_sync(EDGEL_FULL_WARP, open, 31);
    uint32_t node[G];
    bool mine[G];
#pragma unroll
    for (int k = 0; k < G; k++) {
        const int grp = warp + k * W;
        const uint32_t bits = grp == 0   ? open_top >> lane
                            : grp == 1 ? open_bottom >> lane
                            : grp == 2 ? open
                                       : open >> 31;
        mine[k] = faces(sd, grp) && (bits & 1);
        node[k] = tile_node(tile, 32 * grp + lane);
    }
    uf_find_each(opaque(b.parent + z * b.stride), node, mine);
#pragma unroll
    for (int k = 0; k < G; k++) {
        const uint32_t ballot = __ballot_sync(EDGEL_FULL_WARP, node[k] == 0);
        if (lane == 0)
            s_seeds[warp + k * W] = ballot;
    }
    tile_sync<W>();
    if (warp == 0) {
        const uint32_t seeds = (lane == 0 ? s_seeds[0] : 0u) | (lane == 31 ? s_seeds[1] : 0u) |
                               ((s_seeds[2] >> lane) & 1u) | (((s_seeds[3] >> lane) & 1u) << 31);
        uint32_t e[1] = {r};
        if (__any_sync(EDGEL_FULL_WARP, (seeds & ~r) != 0)) {
            e[0] = r | seeds;
            warp_flood(e, c);
        }
        s_edges[lane] = e[0];
    }
    tile_sync<W>();
    /* Thread t writes bytes 16 * (t % 2) .. of row t / 2 (and so on, W * 32 apart). */
    for (int t = warp * 32 + lane; t < 2 * EDGEL_TILE; t += 32 * W) {
        const int row = t >> 1, q = t & 1, x = tx * 32 + 16 * q, y = ty * 32 + row;
        if (y < height && x < width) {
            const int n = width - x < 16 ? width - x : 16;
            write_edge_bytes(frames.dst[z] + (size_t)y * frames.dst_pitch + x, s_edges[row] >> (16 * q), n);
        }
    }
}

#endif
