/*
 * Hysteresis on the GPU over bitmaps, exact: a candidate is an edge when it is 8-connected,
 * through candidates, to a strong pixel.
 *
 * The tile kernels before it leave two bitmaps: `cand` (kept by NMS and above the low
 * threshold) and `strong` (above the high one), one 32-bit word per 32 pixels of a row of a
 * 32x32 tile (a tile's 32 words adjacent). Two launches finish the work (link_tiles with one
 * or four warps a tile, finish_tiles with one); inside a tile a lane holds a row and floods
 * are word operations (runs filled by a carry trick, rows by shuffles):
 *
 *   link_tiles    floods the strong pixels through the tile's candidates and keeps the
 *                 result in `reach`. Candidates on a tile side that faces another tile are
 *                 union-find nodes (128 per tile: top, bottom, left and right, a node per
 *                 pixel); those with a candidate neighbour across the side (the only ones
 *                 another tile can join; with one warp a tile, only on the bottom and right
 *                 sides, see the hooks at its end) join their component's node: node 0,
 *                 which stands for "connected to a strong pixel", when reached, else the
 *                 first node of their component inside the tile (found by flooding from the
 *                 side's runs). The tile also joins its top and left sides to the pixels
 *                 across them.
 *   finish_tiles  adds to `reach` the side pixels whose node ended in node 0's set, floods
 *                 again and writes the edge bytes.
 *
 * The union-find is over a few nodes per tile, not over pixels.
 */
#include "cuda/cuda_hysteresis.cuh"

#include <atomic>

#include "cuda/cuda_launch.cuh"
#include "cuda/cuda_tuning.h"

/* ---- union-find over global nodes --------------------------------------------------------- */

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

/* atomicCAS(p, cmp, val) where `on`, else cmp without an access: a predicated instruction,
 * not a branch around one, so that the compiler can issue several before the first result
 * is used (around a branch it waited for each). */
__device__ __forceinline__ uint32_t cas_if(bool on, uint32_t *p, uint32_t cmp, uint32_t val)
{
    uint32_t old = cmp;
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %4, 0;\n\t@q atom.global.cas.b32 %0, [%1], %2, %3;\n\t}"
                 : "+r"(old)
                 : "l"(p), "r"(cmp), "r"(val), "r"((uint32_t)on)
                 : "memory");
    return old;
}

/* Joins the sets of a[k] and b[k] where want[k]; when the larger of the two is still a root,
 * by a single compare-and-swap that hooks it under the smaller (ids still fall along every
 * path), which is the common case here and saves the finds' round trips to L2. The N
 * compare-and-swaps are in flight together; those that find the larger no longer a root
 * take uf_union. */
template <int N>
__device__ __forceinline__ void uf_hook_each(uint32_t *parent, const uint32_t (&a)[N], const uint32_t (&b)[N],
                                             const bool (&want)[N])
{
    uint32_t lo[N], hi[N], old[N];
#pragma unroll
    for (int k = 0; k < N; k++) {
        lo[k] = min(a[k], b[k]), hi[k] = max(a[k], b[k]);
        old[k] = cas_if(want[k] && lo[k] != hi[k], parent + hi[k], hi[k], lo[k]);
    }
#pragma unroll
    for (int k = 0; k < N; k++)
        if (old[k] != hi[k])
            uf_union(parent, lo[k], hi[k]);
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

/* The candidates on the lines just outside a tile, bit i + 1 = pixel i for i = -1 .. 32 along
 * each side (the ends lie in the diagonal tiles); 0 where no tile is there. */
struct tile_across {
    uint64_t top, bottom, left, right;
};

/* Row `row` of tile `tile` (above or below ours; `s` our sides), as a tile_across line. */
__device__ __forceinline__ uint64_t across_row(const uint32_t *cand, int tile, int row, const tile_sides &s)
{
    return ((uint64_t)cand[bitmap_word(tile, row)] << 1) | (s.left ? cand[bitmap_word(tile - 1, row)] >> 31 : 0u) |
           ((uint64_t)(s.right ? cand[bitmap_word(tile + 1, row)] & 1u : 0u) << 33);
}

/* The column just left (side -1) or right (+1) of tile `tile`, as a tile_across line; its
 * ends are the corners of the lines across the top and the bottom (top_row, bottom_row). */
__device__ __forceinline__ uint64_t across_column(const uint32_t *cand, int tile, const tile_sides &s, int side,
                                                  uint64_t top_row, uint64_t bottom_row)
{
    const bool on = side < 0 ? s.left : s.right;
    const int bit = side < 0 ? 31 : 0, end = side < 0 ? 0 : 33;
    const uint32_t line =
        __ballot_sync(EDGEL_FULL_WARP, on && (cand[bitmap_word(tile + side, threadIdx.x & 31)] >> bit & 1));
    return ((uint64_t)line << 1) | (top_row >> end & 1u) | ((bottom_row >> end & 1u) << 33);
}

/* The four lines around tile `tile`. */
__device__ __forceinline__ tile_across load_across(const uint32_t *cand, int tile, int tiles_x, const tile_sides &s)
{
    tile_across a;
    a.top = s.top ? across_row(cand, tile - tiles_x, 31, s) : 0u;
    a.bottom = s.bottom ? across_row(cand, tile + tiles_x, 0, s) : 0u;
    a.left = across_column(cand, tile, s, -1, a.top, a.bottom);
    a.right = across_column(cand, tile, s, 1, a.top, a.bottom);
    return a;
}

/* The candidates of this lane's row (c) with a candidate 8-neighbour in another tile. Only
 * their side nodes can be joined across a side, so only they need a node's seed and hook:
 * other side pixels reach another tile only through them. */
__device__ __forceinline__ uint32_t touching(uint32_t c, const tile_across &a, int lane)
{
    const auto spread = [](uint64_t v) { return (uint32_t)(v | v >> 1 | v >> 2); };
    const uint32_t row = lane == 0 ? spread(a.top) : lane == 31 ? spread(a.bottom) : 0u;
    const uint32_t cols = ((a.left >> lane) & 7u ? 1u : 0u) | ((a.right >> lane) & 7u ? 0x80000000u : 0u);
    return c & (row | cols);
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
 * The joins of one tile side's pixels (`cur`, bit i = pixel i along the side) with those of
 * the line across it (`across`, bit i + 1 = pixel i, for i = -1 .. 32: its ends lie in the
 * diagonal tiles), for pixel i = lane: pairs (me, across_node(j)) to join, j = i, i - 1,
 * i + 1, where `want`. Each pair of touching runs is joined once, at its first touching
 * pixel; a pair is left out only where a neighbour inside the same two tiles covers it, so
 * no tile relies on another's choice. `me` is the node of pixel i, or any node of its set.
 */
template <typename AcrossNode>
__device__ __forceinline__ void side_joins(uint32_t cur, uint64_t across, uint32_t me, AcrossNode across_node,
                                           uint32_t (&a)[3], uint32_t (&b)[3], bool (&want)[3])
{
    const int i = threadIdx.x & 31;
    const bool on = cur >> i & 1;
    const bool a_mid = across >> (i + 1) & 1, a_before = across >> i & 1, a_after = across >> (i + 2) & 1;
    const bool c_before = i > 0 && (cur >> (i - 1) & 1), c_after = i < 31 && (cur >> (i + 1) & 1);
    const bool a_before_in = i > 0 && a_before, a_mid_before = i > 0 && a_mid, a_mid_after = i < 31 && a_mid;
    want[0] = on && a_mid && !(c_before && a_before_in);
    want[1] = on && a_before && !a_mid_before && !c_before;
    want[2] = on && a_after && !a_mid_after && !c_after;
#pragma unroll
    for (int k = 0; k < 3; k++) {
        a[k] = me;
        b[k] = across_node(k == 0 ? i : k == 1 ? i - 1 : i + 1);
    }
}

/* A barrier over the warps of one tile. */
template <int W> __device__ __forceinline__ void tile_sync()
{
    if (W == 1)
        __syncwarp();
    else
        __syncthreads();
}

/* The joins across the top and the left side of tile `tile` (pairs 0-2 and 3-5, see
 * side_joins): our row 0 against row y0 - 1 (tiles above-left, above, above-right), our
 * column 0 against column x0 - 1, rows y0 - 1 .. y0 + 32. `top_me` and `left_me` are this
 * lane's pixels' nodes (or nodes of their sets). */
__device__ __forceinline__ void top_left_joins(int tile, int tiles_x, const tile_sides &sd, const tile_across &across,
                                               uint32_t c, uint32_t top_me, uint32_t left_me, bool top, bool left,
                                               uint32_t (&a)[6], uint32_t (&b)[6], bool (&want)[6])
{
#pragma unroll
    for (int k = 0; k < 6; k++)
        want[k] = false;
    const int above = tile - tiles_x, before = tile - 1;
    if (top) { /* warp-uniform */
        uint32_t ta[3], tb[3];
        bool tw[3];
        side_joins(__shfl_sync(EDGEL_FULL_WARP, c, 0), across.top, top_me,
                   [&](int i) {
                       return i < 0    ? tile_node(above - 1, EDGEL_NODE_BOTTOM + 31)
                              : i > 31 ? tile_node(above + 1, EDGEL_NODE_BOTTOM)
                                       : tile_node(above, EDGEL_NODE_BOTTOM + i);
                   },
                   ta, tb, tw);
#pragma unroll
        for (int k = 0; k < 3; k++)
            a[k] = ta[k], b[k] = tb[k], want[k] = sd.top && tw[k];
    }
    if (left) {
        uint32_t la[3], lb[3];
        bool lw[3];
        side_joins(__ballot_sync(EDGEL_FULL_WARP, c & 1), across.left, left_me,
                   [&](int i) {
                       return i < 0    ? tile_node(before - tiles_x, EDGEL_NODE_RIGHT + 31)
                              : i > 31 ? tile_node(before + tiles_x, EDGEL_NODE_RIGHT)
                                       : tile_node(before, EDGEL_NODE_RIGHT + i);
                   },
                   la, lb, lw);
#pragma unroll
        for (int k = 0; k < 3; k++)
            a[k + 3] = la[k], b[k + 3] = lb[k], want[k + 3] = sd.left && lw[k];
    }
}

/* Kernel 1 of 2: floods from the strong pixels, in-tile components of the side nodes, and the
 * joins across the top and left sides. Warp 0 of a tile floods from the strong pixels; then
 * every warp floods its share of the unreached side runs that touch another tile (natural
 * frames leave a few to two dozen small components per tile; one warp doing them in turn
 * set the kernel's time with four warps a tile); last, side nodes join their components'
 * and the nodes across. With four warps, warps 1 and 2 join across the top and the left
 * while warp 0 floods; with one, the joins wait for the floods and start from the
 * components' nodes, and all of a lane's joins and hooks go out together, so that their
 * round trips to L2 overlap. */
/* Blocks of `warps` warps that fill an SM of the architecture being compiled. */
__host__ __device__ constexpr int full_sm_blocks(int warps)
{
    return EDGEL_SM_WARPS / warps < EDGEL_SM_BLOCKS ? EDGEL_SM_WARPS / warps : EDGEL_SM_BLOCKS;
}
template <int W>
__global__ void __launch_bounds__(32 * W * tiles_per_block<W>(),
                                  EDGEL_LINK_FULL ? full_sm_blocks(W * tiles_per_block<W>()) : 1)
    link_tiles(canny_bits b)
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
    const size_t word = bitmap_word(tile, lane);
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
    tile_across across{};
    if (W == 1) {
        across = load_across(cand, tile, tiles_x, sd);
    } else if (warp == 1 || warp == 2) { /* meanwhile (the order of unions does not matter) */
        across.top = sd.top ? across_row(cand, tile - tiles_x, 31, sd) : 0u; /* warp 2: for the corner */
        if (warp == 2) {
            const uint64_t bottom = sd.bottom ? across_row(cand, tile + tiles_x, 0, sd) : 0u;
            across.left = across_column(cand, tile, sd, -1, across.top, bottom);
        }
        uint32_t ja[6], jb[6];
        bool jw[6];
        top_left_joins(tile, tiles_x, sd, across, c, tile_node(tile, EDGEL_NODE_TOP + lane),
                       tile_node(tile, EDGEL_NODE_LEFT + lane), warp == 1, warp == 2, ja, jb, jw);
        uf_hook_each(parent, ja, jb, jw);
    }
    tile_sync<W>();
    const uint32_t r = s_reach[lane];

    /* Unreached side pixels that touch another tile; each run of them along a side starts at
     * one (a row's leftmost, a column's topmost pixel), so flooding from the starts floods
     * every such component. With four warps a tile every side pixel counts: finding the
     * touching ones in every warp costs more than the floods it saves. */
    const uint32_t touch = W == 1 ? touching(c, across, lane) : c & side_mask(sd, lane);
    const uint32_t open = touch & ~r;
    const uint32_t shifted = __shfl_up_sync(EDGEL_FULL_WARP, open, 1); /* every lane: a full-warp shuffle */
    const uint32_t open_above = lane == 0 ? 0u : shifted;
    const bool row_side = (lane == 0 && sd.top) || (lane == 31 && sd.bottom);
    uint32_t mine = row_side ? open & ~(open << 1) : open & ~open_above;
    /* This warp's share: along a row, columns warp, warp + W, ...; in a column, those rows. */
    const uint32_t every_wth = W == 4 ? 0x11111111u : EDGEL_FULL_WARP;
    mine &= row_side ? every_wth << warp : (lane % W == warp ? EDGEL_FULL_WARP : 0u);
    uint32_t rest = open; /* with one warp a tile: the open pixels no flood has held yet */
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
    for (uint32_t lanes = __ballot_sync(EDGEL_FULL_WARP, mine != 0); lanes;
         lanes = __ballot_sync(EDGEL_FULL_WARP, mine != 0)) {
        const int row = __ffs(lanes) - 1;
        const uint32_t starts = __shfl_sync(EDGEL_FULL_WARP, mine, row);
        const int col = __ffs(starts) - 1;
        const uint32_t seed = side_node(tile, sd, row, col);
        uint32_t f[1];
        if (W == 1 && lanes == (1u << row) && (starts & (starts - 1)) == 0) {
            /* The last start: every open pixel left hangs off its run (along the sides and
             * through the corners), so its component holds them all; no flood. */
            f[0] = rest;
        } else {
            f[0] = lane == row ? 1u << col : 0u;
            warp_flood(f, c);
        }
        if ((__shfl_sync(EDGEL_FULL_WARP, f[0], 0) >> lane) & 1)
            note(EDGEL_NODE_TOP + lane, seed);
        if ((__shfl_sync(EDGEL_FULL_WARP, f[0], 31) >> lane) & 1)
            note(EDGEL_NODE_BOTTOM + lane, seed);
        if (f[0] & 1)
            note(EDGEL_NODE_LEFT + lane, seed);
        if (f[0] >> 31)
            note(EDGEL_NODE_RIGHT + lane, seed);
        mine &= ~f[0];
        rest &= ~f[0];
    }
    tile_sync<W>();

    /* Side node n = 32 * g + lane of group g (see faces) of a touching pixel joins its
     * component's node: node 0 (reached) or its representative. With four warps, warp w
     * takes group w. With one, only the bottom and right groups: its joins start from the
     * components' nodes, so other tiles join only bottom and right nodes (those below, right
     * and diagonal, see top_left_joins), and a top or left node is used only where it is a
     * component's representative. */
    const uint32_t row_touch[2] = {__shfl_sync(EDGEL_FULL_WARP, touch, 0), __shfl_sync(EDGEL_FULL_WARP, touch, 31)};
    const auto component = [&](int n, uint32_t reach, int bit) { return (reach >> bit & 1) ? 0u : s_rep[n]; };
    constexpr int H = W == 1 ? 2 : 1; /* hooks a lane */
    uint32_t ha[H], hb[H];
    bool hw[H];
#pragma unroll
    for (int k = 0; k < H; k++) {
        const int grp = W == 1 ? 1 + 2 * k : warp, bit = grp < 2 ? lane : (grp == 2 ? 0 : 31), n = 32 * grp + lane;
        const uint32_t pt = grp < 2 ? row_touch[grp] : touch;
        const uint32_t pr = grp == 0 ? s_reach[0] : grp == 1 ? s_reach[31] : r;
        ha[k] = tile_node(tile, n);
        hb[k] = component(n, pr, bit);
        hw[k] = faces(sd, grp) && (pt >> bit & 1);
    }
    if (W == 1) {
        uint32_t ja[6], jb[6];
        bool jw[6];
        top_left_joins(tile, tiles_x, sd, across, c, component(EDGEL_NODE_TOP + lane, s_reach[0], lane),
                       component(EDGEL_NODE_LEFT + lane, r, 0), true, true, ja, jb, jw);
        uf_hook_each(parent, ja, jb, jw);
    }
    uf_hook_each(parent, ha, hb, hw);
}

/* Four edge bytes, 255 where bit k of the low four bits is set: the multiply puts bit k at
 * bit 8k + 7 (the copies never overlap), and the byte permute's sign mode spreads each of
 * those bits over its byte. */
__device__ __forceinline__ uint32_t edge_word(uint32_t bits)
{
    uint32_t w;
    asm("prmt.b32 %0, %1, 0, 0xBA98;" : "=r"(w) : "r"((bits & 15u) * 0x10204080u));
    return w;
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

/* Kernel 2 of 2: side pixels whose node joined node 0 seed a last flood; edges written. A
 * warp a tile, two tiles a block (as link_tiles with W = 1): a lane finds the roots of its
 * four side nodes in one loop, their loads overlapping, then the warp floods and writes the
 * bytes. (Four warps a tile, a warp per side, would take four waves of blocks where these
 * take one.) */
template <bool VARIED> /* frames of different sizes: frame_table's per-frame sizes */
__global__ void __launch_bounds__(32 * tiles_per_block<1>())
    finish_tiles(frame_table frames, canny_bits b, int width, int height)
{
    const int lane = threadIdx.x & 31, slot = threadIdx.x >> 5;
    const int z = blockIdx.z, tx = blockIdx.x * tiles_per_block<1>() + slot, ty = blockIdx.y;
    const int tiles_x = b.tiles_x, tiles_y = b.tiles_y;
    if (tx >= tiles_x)
        return; /* as in link_tiles */
    const int tile = ty * tiles_x + tx;
    const size_t word = bitmap_word(tile, lane);
    wait_for_previous_kernel();
    const uint32_t c = b.cand[z * b.stride + word], r = b.reach[z * b.stride + word];
    const tile_sides sd = sides_of(tx, ty, tiles_x, tiles_y);
    const uint32_t open = c & side_mask(sd, lane) & ~r;
    /* Group g's node 32 * g + lane (see faces). */
    const uint32_t open_top = __shfl_sync(EDGEL_FULL_WARP, open, 0);
    const uint32_t open_bottom = __shfl_sync(EDGEL_FULL_WARP, open, 31);
    uint32_t node[4];
    bool mine[4];
#pragma unroll
    for (int g = 0; g < 4; g++) {
        const uint32_t bits = g == 0 ? open_top >> lane : g == 1 ? open_bottom >> lane : g == 2 ? open : open >> 31;
        mine[g] = faces(sd, g) && (bits & 1);
        node[g] = tile_node(tile, 32 * g + lane);
    }
    uf_find_each(opaque(b.parent + z * b.stride), node, mine);
    __syncwarp(); /* the lanes leave the finds' loop apart: meet before the votes */
    uint32_t joined[4]; /* of each group: the side pixels whose node is in node 0's set */
#pragma unroll
    for (int g = 0; g < 4; g++)
        joined[g] = __ballot_sync(EDGEL_FULL_WARP, node[g] == 0);
    const uint32_t seeds = (lane == 0 ? joined[0] : 0u) | (lane == 31 ? joined[1] : 0u) |
                           ((joined[2] >> lane) & 1u) | (((joined[3] >> lane) & 1u) << 31);
    uint32_t e[1] = {r};
    if (__any_sync(EDGEL_FULL_WARP, (seeds & ~r) != 0)) {
        e[0] = r | seeds;
        warp_flood(e, c);
    }
    /* Lane l writes bytes 16 (l % 2) .. of rows l / 2 and 16 + l / 2: a store covers 16 rows'
     * 32 bytes each. */
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const int row = 16 * i + (lane >> 1), q = lane & 1, x = tx * 32 + 16 * q, y = ty * 32 + row;
        const uint32_t bits = __shfl_sync(EDGEL_FULL_WARP, e[0], row) >> (16 * q);
        const int fw = VARIED ? frames.width[z] : width;
        const int fh = VARIED ? frames.height[z] : height;
        const size_t pitch = VARIED ? frames.dst_pitches[z] : frames.dst_pitch;
        if (y < fh && x < fw)
            write_edge_bytes(frames.dst[z] + (size_t)y * pitch + x, bits, min(fw - x, 16));
    }
}


/* Blocks of `per_block` tiles along each row of tiles (blockIdx.y the row), for nframes frames. */
static dim3 tile_blocks(const canny_bits &b, int per_block, int nframes)
{
    return dim3((unsigned)((b.tiles_x + per_block - 1) / per_block), (unsigned)b.tiles_y, (unsigned)nframes);
}

/* Programmatic dependent launch needs compute capability 9.0, and kernels compiled for it: a
 * build for an older architecture, JIT-compiled for this device, lacks the wait in
 * wait_for_previous_kernel() and must be launched in order. Known per device once asked. */
bool early_launch_supported()
{
    static std::atomic<int> known[64]; /* per device: 0 not asked yet, 1 no, 2 yes */
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= 64)
        return false;
    if (!known[device]) {
        int major = 0;
        cudaFuncAttributes a;
        const bool yes =
            cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
            major >= 9 && cudaFuncGetAttributes(&a, (const void *)link_tiles<4>) == cudaSuccess &&
            cudaFuncGetAttributes(&a, (const void *)finish_tiles<false>) == cudaSuccess &&
            a.ptxVersion >= 90;
        known[device] = yes ? 2 : 1;
    }
    return known[device] == 2;
}

/* link_tiles with one warp a tile from EDGEL_LINK_SOLO_SM_TILES tiles an SM (cuda_tuning.h),
 * four below it; finish_tiles always takes one warp a tile. */
template <int W>
static cudaError_t launch_link_tiles(bool early, cudaStream_t stream, const canny_bits &b, int nframes)
{
    return launch_after(early, link_tiles<W>, tile_blocks(b, tiles_per_block<W>(), nframes),
                        dim3(32 * W * tiles_per_block<W>()), stream, b);
}

edgel_status launch_hysteresis(cudaStream_t stream, const frame_table &t, const canny_bits &b,
                               int width, int height, int nframes)
{
    const bool early = early_launch_supported();
    const bool solo = (double)b.tiles_x * b.tiles_y * nframes >=
                      EDGEL_LINK_SOLO_SM_TILES * edgel_current_device_info().sms;
    CUDA_TRY(solo ? launch_link_tiles<1>(early, stream, b, nframes) : launch_link_tiles<4>(early, stream, b, nframes));
    CUDA_TRY(launch_after(early, t.varied ? finish_tiles<true> : finish_tiles<false>,
                          tile_blocks(b, tiles_per_block<1>(), nframes),
                          dim3(32 * tiles_per_block<1>()), stream, t, b, width, height));
    return EDGEL_OK;
}
