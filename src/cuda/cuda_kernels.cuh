/*
 * The kernels of the CUDA backend. Per-pixel arithmetic comes from src/core/pixel_math.h, the
 * same functions the CPU backend runs, so both backends compute the same bytes.
 *
 * Canny runs in three launches, each over up to EDGEL_CUDA_MAX_FRAMES frames (blockIdx.z):
 *   canny_stream_kernel    the common case (gray u8, Sobel 3x3, no stage outputs): gradient,
 *                          magnitude, NMS and double threshold, a warp per row of up to four
 *                          32x32 tiles walking down their rows with the values in registers
 *   canny_tile_kernel      every other case (apertures 5, 7, Scharr; 3 or 4 channels; user
 *                          gradients; classes of another preset; stage outputs): the same from
 *                          a shared-memory copy of the tile and its halo
 *   link_tiles, finish_tiles (cuda_hysteresis.cuh): hysteresis over the bitmaps the tile
 *                          kernels write
 * Hysteresis is thereby exact (candidates 8-connected to a strong pixel) in a fixed number of
 * launches, with no host round trip.
 */
#ifndef EDGEL_CUDA_KERNELS_CUH
#define EDGEL_CUDA_KERNELS_CUH

#include <stdint.h>

#include "core/pixel_math.h"
#include "cuda/cuda_internal.h"

#define EDGEL_TILE 32         /* tile side of the tile kernels and of the hysteresis */
#define EDGEL_TILE_ROWS 8     /* blockDim.y of canny_tile_kernel; blockDim.x = EDGEL_TILE */

/* Optional stage outputs of a single frame (device pointers, NULL when not wanted). */
struct canny_stage_out {
    int16_t *dx, *dy;
    int32_t *mag;
    uint8_t *suppressed;
    size_t dx_pitch, dy_pitch, mag_pitch, sup_pitch;
};

struct canny_geometry {
    int width, height, channels;
    int32_t low, high;
    int l2;
};

#include "cuda/cuda_hysteresis.cuh"

/* Every node of a tile starts as its own set; node 0 (tile 0 sets it) too. */
__device__ __forceinline__ void init_tile_nodes(uint32_t *parent, int tile, int tid)
{
    if (tid < EDGEL_TILE_NODES)
        parent[tile_node(tile, tid)] = tile_node(tile, tid);
    if (tile == 0 && tid == 0)
        parent[0] = 0;
}

/* The Sobel kernels of cv::Canny as compile-time constants (APERTURE -1 is Scharr), so the
 * compiler folds the multiplications by 0, 1 and 2 away. */
template <int APERTURE> struct sobel {
    static constexpr int radius = APERTURE == 5 ? 2 : (APERTURE == 7 ? 3 : 1);
    static constexpr bool scale16 = APERTURE == 7;
    __device__ static constexpr int smooth(int i)
    {
        return APERTURE == 5   ? (i == 2 ? 6 : (i == 1 || i == 3 ? 4 : 1))
             : APERTURE == 7   ? (i == 3 ? 20 : (i == 2 || i == 4 ? 15 : (i == 1 || i == 5 ? 6 : 1)))
             : APERTURE == -1  ? (i == 1 ? 10 : 3)
                               : (i == 1 ? 2 : 1);
    }
    __device__ static constexpr int deriv(int i)
    {
        return APERTURE == 5  ? (i - 2 == 0 ? 0 : (i < 2 ? (i == 0 ? -1 : -2) : (i == 4 ? 1 : 2)))
             : APERTURE == 7  ? (i == 3 ? 0 : (i < 3 ? (i == 0 ? -1 : (i == 1 ? -4 : -5))
                                                    : (i == 6 ? 1 : (i == 5 ? 4 : 5))))
                              : i - 1;
    }
};

/* What the tile kernel reads: a u8 image (Sobel, NMS and thresholds here), caller-supplied
 * s16 gradients dx, dy (src = dx, aux = dy), or hysteresis classes (EDGEL_MAP_* bytes, one per
 * pixel) that another preset computed. */
enum tile_source { TILE_FROM_IMAGE, TILE_FROM_GRADIENTS, TILE_FROM_CLASSES };

/*
 * Gradient, NMS and thresholds of a 32x32 tile into the hysteresis bitmaps, and the stage
 * outputs asked for. APERTURE 3, 5, 7 or -1 (Scharr); CN channels. The gradient is computed
 * on a ring one pixel wider than the tile, since NMS looks at the neighbours' magnitudes;
 * outside the image the magnitude is 0.
 */
template <int APERTURE, int CN, tile_source SOURCE>
__global__ void __launch_bounds__(EDGEL_TILE * EDGEL_TILE_ROWS)
    canny_tile_kernel(frame_table frames, const int16_t *aux_dy, size_t aux_pitch,
                      canny_bits bits, canny_geometry g, canny_stage_out stage)
{
    using K = sobel<APERTURE>;
    constexpr bool FROM_GRADIENTS = SOURCE == TILE_FROM_GRADIENTS;
    constexpr bool FROM_CLASSES = SOURCE == TILE_FROM_CLASSES;
    constexpr int KR = K::radius;
    constexpr int T = EDGEL_TILE, NT = T * EDGEL_TILE_ROWS, PER = T * T / NT;
    constexpr int RING = FROM_CLASSES ? 1 : T + 2;
    constexpr int IN = SOURCE == TILE_FROM_IMAGE ? T + 2 + 2 * KR : 1; /* input tile side */
    __shared__ uint8_t in[IN][SOURCE == TILE_FROM_IMAGE ? IN * CN : 1];
    __shared__ int32_t mag[RING][RING];
    __shared__ int16_t sdx[RING][RING], sdy[RING][RING];

    const int z = blockIdx.z, w = g.width, h = g.height;
    const int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
    const int lane = threadIdx.x, tid = threadIdx.y * T + lane;
    const uint8_t *src = frames.src[z];
    init_tile_nodes(bits.parent + z * bits.stride, blockIdx.y * gridDim.x + blockIdx.x, tid);

    if (SOURCE == TILE_FROM_IMAGE) {
        /* Input tile with replicated borders: rows y0-1-KR .., columns x0-1-KR .. All of a
         * thread's loads are issued before the first store, so their latencies overlap. */
        constexpr int TOTAL = IN * IN * CN, LOADS = (TOTAL + NT - 1) / NT;
        uint8_t v[LOADS];
#pragma unroll
        for (int k = 0; k < LOADS; k++) {
            const int i = tid + k * NT, r = i / (IN * CN), rest = i - r * (IN * CN);
            if (i < TOTAL) {
                const int sy = edgel_clamp_index(y0 - 1 - KR + r, h);
                const int sx = edgel_clamp_index(x0 - 1 - KR + rest / CN, w);
                v[k] = __ldg(src + (size_t)sy * frames.src_pitch + (size_t)sx * CN + rest % CN);
            }
        }
#pragma unroll
        for (int k = 0; k < LOADS; k++) {
            const int i = tid + k * NT, r = i / (IN * CN), rest = i - r * (IN * CN);
            if (i < TOTAL)
                in[r][rest] = v[k];
        }
        __syncthreads();
    }
    for (int i = tid; i < (FROM_CLASSES ? 0 : RING * RING); i += NT) {
        const int ry = i / RING, rx = i - ry * RING;
        const int gy = y0 - 1 + ry, gx = x0 - 1 + rx;
        int32_t best = 0, bdx = 0, bdy = 0;
        if (gx >= 0 && gx < w && gy >= 0 && gy < h) {
#pragma unroll
            for (int ch = 0; ch < CN; ch++) {
                int32_t vx = 0, vy = 0;
                if (FROM_GRADIENTS) {
                    const int16_t *dxr = (const int16_t *)(src + (size_t)gy * frames.src_pitch);
                    const int16_t *dyr = (const int16_t *)((const uint8_t *)aux_dy + (size_t)gy * aux_pitch);
                    vx = dxr[gx * CN + ch];
                    vy = dyr[gx * CN + ch];
                } else {
                    /* Separable: column sums first, then along the row. */
#pragma unroll
                    for (int b = 0; b <= 2 * KR; b++) {
                        int32_t col_s = 0, col_d = 0;
#pragma unroll
                        for (int a = 0; a <= 2 * KR; a++) {
                            const int32_t p = in[ry + a][(rx + b) * CN + ch];
                            col_s += K::smooth(a) * p;
                            col_d += K::deriv(a) * p;
                        }
                        vx += K::deriv(b) * col_s;
                        vy += K::smooth(b) * col_d;
                    }
                    if (K::scale16) {
                        vx = edgel_div16_round_even(vx);
                        vy = edgel_div16_round_even(vy);
                    }
                }
                const int32_t m = edgel_magnitude(vx, vy, g.l2);
                if (ch == 0 || m > best) {
                    best = m;
                    bdx = vx;
                    bdy = vy;
                }
            }
        }
        mag[ry][rx] = best;
        sdx[ry][rx] = (int16_t)bdx;
        sdy[ry][rx] = (int16_t)bdy;
    }
    __syncthreads();

    /* NMS and double threshold. Thread (lane, threadIdx.y) takes row threadIdx.y + 8k, so a
     * warp holds a whole tile row and a ballot gives the row's words. */
    uint32_t *cand = bits.cand + z * bits.stride, *strong = bits.strong + z * bits.stride;
#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int ty = threadIdx.y + k * EDGEL_TILE_ROWS, gx = x0 + lane, gy = y0 + ty;
        uint8_t v = EDGEL_MAP_NONE;
        if constexpr (FROM_CLASSES) {
            if (gx < w && gy < h)
                v = src[(size_t)gy * frames.src_pitch + gx];
        } else if (gx < w && gy < h) {
            v = edgel_nms_value(&mag[ty][1], &mag[ty + 1][1], &mag[ty + 2][1], lane,
                                sdx[ty + 1][lane + 1], sdy[ty + 1][lane + 1], g.low, g.high);
        }
        const uint32_t cm = __ballot_sync(EDGEL_FULL_WARP, v != EDGEL_MAP_NONE);
        const uint32_t sm = __ballot_sync(EDGEL_FULL_WARP, v == EDGEL_MAP_STRONG);
        if (lane == 0) {
            const size_t word = (size_t)gy * gridDim.x + blockIdx.x;
            cand[word] = cm;
            strong[word] = sm;
        }
        if constexpr (!FROM_CLASSES) {
            if (gx < w && gy < h && stage.dx) {
                *(int16_t *)((uint8_t *)stage.dx + gy * stage.dx_pitch + gx * 2) = sdx[ty + 1][lane + 1];
                *(int16_t *)((uint8_t *)stage.dy + gy * stage.dy_pitch + gx * 2) = sdy[ty + 1][lane + 1];
            }
            if (gx < w && gy < h && stage.mag)
                *(int32_t *)((uint8_t *)stage.mag + gy * stage.mag_pitch + gx * 4) = mag[ty + 1][lane + 1];
            if (gx < w && gy < h && stage.suppressed)
                stage.suppressed[gy * stage.sup_pitch + gx] = edgel_map_to_suppressed(v);
        }
    }
}

/*
 * The common case of canny_tile_kernel, streamed: Sobel 3x3 of one gray u8 channel, no stage
 * outputs. A warp takes NT side-by-side 32x32 tiles, and of them a band of 32 / SPLIT rows
 * (SPLIT warps share the tiles' rows), with a lane per column of each tile. It walks down the
 * band's rows and the four beyond it (replicated at the image's edges), keeping three rows of
 * magnitudes in registers. A neighbour's value comes by shuffle: left of lane l in tile j is
 * lane l - 1, or for lane 0 lane 31 of tile j - 1; the two columns beyond the group's sides
 * come from the halo loads of lanes 0, 1, 30 and 31. The per-row work that is not per pixel
 * (addresses, halo, votes) is shared by the NT tiles. A row's ballot is its tile's bitmap
 * word; lane r keeps the words of the band's row r and stores them last.
 */
#ifndef EDGEL_STREAM_WARPS /* warps per block (a -D to measure others) */
#define EDGEL_STREAM_WARPS 4
#endif

#ifndef EDGEL_STREAM_PREFETCH /* rows ahead a row is prefetched into L2, where the kernel loads fewer ahead */
#define EDGEL_STREAM_PREFETCH 9
#endif
template <int NT, int SPLIT, bool L2>
__global__ void __launch_bounds__(32 * EDGEL_STREAM_WARPS)
    canny_stream_kernel(frame_table frames, canny_bits bits, canny_geometry g)
{
    /* Bands of 32 / SPLIT rows plus 4: 36, 20 or 12 rows (see the chunks below). */
    static_assert(SPLIT == 1 || SPLIT == 2 || SPLIT == 4, "bands of 32, 16 or 8 rows");
    constexpr int BAND = EDGEL_TILE / SPLIT, SPAN = EDGEL_TILE * NT;
    const int lane = threadIdx.x & 31, z = blockIdx.z;
    const int unit = blockIdx.x * EDGEL_STREAM_WARPS + (threadIdx.x >> 5);
    const int groups_x = (bits.tiles_x + NT - 1) / NT, part = unit % SPLIT, group = unit / SPLIT;
    const int ty = group / groups_x, tx0 = (group - ty * groups_x) * NT;
    if (ty >= bits.tiles_y)
        return; /* whole warps */
    const int w = g.width, h = g.height, x0 = tx0 * EDGEL_TILE, y0 = ty * EDGEL_TILE + part * BAND;
    const uint8_t *src = frames.src[z];
    const size_t pitch = frames.src_pitch;
#pragma unroll
    for (int j = 0; j < NT; j++)
        if (tx0 + j < bits.tiles_x)
            for (int k = part * 32 + lane; k < EDGEL_TILE_NODES; k += 32 * SPLIT)
                init_tile_nodes(bits.parent + z * bits.stride, ty * bits.tiles_x + tx0 + j, k);

    /* This lane's column in each tile, and a halo column (lanes 0 and 1: the two left of the
     * group; lanes 30 and 31: the two right of it; the others repeat their own). */
    int xo[NT];
    bool in_x[NT];
#pragma unroll
    for (int j = 0; j < NT; j++) {
        in_x[j] = x0 + EDGEL_TILE * j + lane < w;
        xo[j] = edgel_clamp_index(x0 + EDGEL_TILE * j + lane, w);
    }
    const bool near_in = lane == 0 ? x0 > 0 : x0 + SPAN < w;
    const int xh = edgel_clamp_index(lane == 0 ? x0 - 2 : lane == 1 ? x0 - 1 : lane == 30 ? x0 + SPAN
                                     : lane == 31 ? x0 + SPAN + 1 : x0 + lane, w);
    const int left_lane = (lane + 31) & 31, right_lane = (lane + 1) & 31;

    /* Each input row is loaded AHEAD rows before it is used, into a ring of AHEAD + 3 rows that
     * also holds the two rows before the current one. A lane of one tile does a quarter of the
     * work a row of four tiles does, so it loads further ahead to keep as many cycles between
     * a load and its use. A whole tile's row loop stays rolled in chunks of one ring (unrolled
     * whole, the kernel outgrows the instruction cache): the ring and the rolling values,
     * which cycle with periods 2 and 3, come back to the registers they started in at the end
     * of a chunk, so nothing is moved. A band of half or a quarter of a tile's rows is one
     * chunk, unrolled whole: each step's row is known at compile time, so the steps whose
     * results are never used are left out (the gradients of rows k < 2, the NMS of rows
     * k < 4, the loads of rows past the band's end; a quarter band's rows are a third halo). */
    constexpr bool ONE_CHUNK = SPLIT > 1;
    constexpr int AHEAD = NT == 1 ? 9 : 3, ROWS = BAND + 4, CHUNK = ONE_CHUNK ? ROWS : AHEAD + 3;
    static_assert(ONE_CHUNK || (ROWS % CHUNK == 0 && CHUNK % 6 == 0), "whole chunks");
    const uint8_t *col[NT + 1]; /* this lane's columns, the halo last */
#pragma unroll
    for (int j = 0; j < NT; j++)
        col[j] = src + xo[j];
    col[NT] = src + xh;
    /* For the L2 prefetch: lane l touches tile l % NT, so one instruction covers the warp's
     * columns. */
    const uint8_t *prefetch_col = src + edgel_clamp_index(x0 + EDGEL_TILE * (lane % NT) + lane, w);
    int32_t in[CHUNK][NT + 1]; /* row k in in[k % CHUNK]; rows before the first are zeros */
#pragma unroll
    for (int i = 0; i < CHUNK; i++) {
        const size_t off = (size_t)edgel_clamp_index(y0 - 2 + i, h) * pitch;
#pragma unroll
        for (int j = 0; j <= NT; j++)
            in[i][j] = i < AHEAD ? __ldg(col[j] + off) : 0;
    }
    /* Per tile: magnitudes of the rows up, centre and down (mid, left and right neighbours);
     * gradients of the centre and down rows. */
    int32_t mu[NT], mc[NT], md[NT], lu[NT], lc[NT], ld[NT], ru[NT], rc[NT], rd[NT];
    int32_t dxc[NT], dyc[NT], dxd[NT], dyd[NT];
    uint32_t cand_word[NT], strong_word[NT];
#pragma unroll
    for (int j = 0; j < NT; j++) {
        mu[j] = mc[j] = md[j] = lu[j] = lc[j] = ld[j] = ru[j] = rc[j] = rd[j] = 0;
        dxc[j] = dyc[j] = dxd[j] = dyd[j] = 0;
        cand_word[j] = strong_word[j] = 0;
    }
#pragma unroll 1
    for (int k0 = 0; k0 < ROWS; k0 += CHUNK) {
#pragma unroll
        for (int i = 0; i < CHUNK; i++) {
            const int k = ONE_CHUNK ? i : k0 + i;
            const int32_t *o0 = in[(i + CHUNK - 2) % CHUNK], *o1 = in[(i + CHUNK - 1) % CHUNK], *o2 = in[i];
            if (!ONE_CHUNK || i + AHEAD < ROWS) {
                /* (in whole tiles, past the last rows these load clamped rows that go unused:
                 * no branch) */
                const size_t off = (size_t)edgel_clamp_index(y0 - 2 + k + AHEAD, h) * pitch;
#pragma unroll
                for (int j = 0; j <= NT; j++)
                    in[(i + AHEAD) % CHUNK][j] = __ldg(col[j] + off);
                if (EDGEL_STREAM_PREFETCH > AHEAD && (!ONE_CHUNK || i + EDGEL_STREAM_PREFETCH < ROWS)) {
                    /* into L2: no register waits for it */
                    const int py = edgel_clamp_index(y0 - 2 + k + EDGEL_STREAM_PREFETCH, h);
                    asm volatile("prefetch.global.L2 [%0];" ::"l"(prefetch_col + (size_t)py * pitch));
                }
            }
            /* Elsewhere the gradients of rows k < 2 are computed and shifted out unused:
             * that costs less than branching around them. */
            if (!ONE_CHUNK || i >= 2) {
                /* Gradient and magnitude of row y = y0 - 3 + k, centred on input row k - 1. */
                const int y = y0 - 3 + k;
                const bool in_y = y >= 0 && y < h;
                int32_t m[NT], ml[NT], mr[NT];
                /* Column sums: s = a + 2b + c, d = c - a over the rows a, b, c, of this lane's
                 * column and its left and right neighbours'. */
                int32_t cs[NT], cd[NT], sl[NT], sr[NT], dl[NT], dr[NT];
#pragma unroll
                for (int j = 0; j < NT; j++) {
                    cs[j] = o0[j] + 2 * o1[j] + o2[j];
                    cd[j] = o2[j] - o0[j];
                    sl[j] = __shfl_sync(EDGEL_FULL_WARP, cs[j], left_lane);
                    sr[j] = __shfl_sync(EDGEL_FULL_WARP, cs[j], right_lane);
                    dl[j] = __shfl_sync(EDGEL_FULL_WARP, cd[j], left_lane);
                    dr[j] = __shfl_sync(EDGEL_FULL_WARP, cd[j], right_lane);
                }
                /* Lanes 0 and 31: the far column's sums are their own halo's, the near
                 * column's those of lane 1's or lane 30's halo. */
                const int32_t sf = o0[NT] + 2 * o1[NT] + o2[NT], df = o2[NT] - o0[NT];
                const int32_t sn = __shfl_xor_sync(EDGEL_FULL_WARP, sf, 1);
                const int32_t dn = __shfl_xor_sync(EDGEL_FULL_WARP, df, 1);
#pragma unroll
                for (int j = 0; j < NT; j++) {
                    const int32_t s_left = lane == 0 ? (j == 0 ? sn : sl[j - 1]) : sl[j];
                    const int32_t s_right = lane == 31 ? (j == NT - 1 ? sn : sr[j + 1]) : sr[j];
                    const int32_t d_left = lane == 0 ? (j == 0 ? dn : dl[j - 1]) : dl[j];
                    const int32_t d_right = lane == 31 ? (j == NT - 1 ? dn : dr[j + 1]) : dr[j];
                    const int32_t gx = s_right - s_left, gy = d_left + 2 * cd[j] + d_right;
                    const int32_t mag = edgel_magnitude(gx, gy, L2);
                    m[j] = in_x[j] & in_y ? mag : 0;
                    dxc[j] = dxd[j], dyc[j] = dyd[j], dxd[j] = gx, dyd[j] = gy;
                }
                /* The near column's magnitude from the far, near and own columns (its sign
                 * does not matter to a magnitude). */
                const int32_t own_s = lane == 31 ? cs[NT - 1] : cs[0], own_d = lane == 31 ? cd[NT - 1] : cd[0];
                const int32_t near_mag = edgel_magnitude(own_s - sf, df + 2 * dn + own_d, L2);
                const int32_t mh = near_in & in_y ? near_mag : 0;
#pragma unroll
                for (int j = 0; j < NT; j++) {
                    ml[j] = __shfl_sync(EDGEL_FULL_WARP, m[j], left_lane);
                    mr[j] = __shfl_sync(EDGEL_FULL_WARP, m[j], right_lane);
                }
#pragma unroll
                for (int j = 0; j < NT; j++) {
                    const int32_t l = lane == 0 ? (j == 0 ? mh : ml[j - 1]) : ml[j];
                    const int32_t r = lane == 31 ? (j == NT - 1 ? mh : mr[j + 1]) : mr[j];
                    mu[j] = mc[j], lu[j] = lc[j], ru[j] = rc[j];
                    mc[j] = md[j], lc[j] = ld[j], rc[j] = rd[j];
                    md[j] = m[j], ld[j] = l, rd[j] = r;
                }
            }
            if (!ONE_CHUNK || i >= 4) {
                /* NMS of band row k - 4 (its lower neighbour row was just computed). Rows where
                 * no magnitude passes the low threshold (flat regions) skip it, as do k < 4. */
                bool any = false;
#pragma unroll
                for (int j = 0; j < NT; j++)
                    any |= mc[j] > g.low;
                if (k >= 4 && __any_sync(EDGEL_FULL_WARP, any) && y0 + k - 4 < h) {
#pragma unroll
                    for (int j = 0; j < NT; j++) {
                        const bool keep = in_x[j] & (mc[j] > g.low) &
                                          edgel_nms_keep(mc[j], lu[j], mu[j], ru[j], lc[j], rc[j], ld[j],
                                                         md[j], rd[j], dxc[j], dyc[j]);
                        const uint32_t cm = __ballot_sync(EDGEL_FULL_WARP, keep);
                        const uint32_t sm = __ballot_sync(EDGEL_FULL_WARP, keep & (mc[j] > g.high));
                        if (lane == k - 4)
                            cand_word[j] = cm, strong_word[j] = sm;
                    }
                } else if (lane == k - 4) {
#pragma unroll
                    for (int j = 0; j < NT; j++)
                        cand_word[j] = strong_word[j] = 0;
                }
            }
        }
    }
    if (lane < BAND) {
        const size_t word = z * bits.stride + (size_t)(y0 + lane) * bits.tiles_x + tx0;
#pragma unroll
        for (int j = 0; j < NT; j++)
            if (tx0 + j < bits.tiles_x) {
                bits.cand[word + j] = cand_word[j];
                bits.strong[word + j] = strong_word[j];
            }
    }
}

/* ---- pre-processing ------------------------------------------------------------------------ */

__global__ void gray_kernel(frame_table frames, int width, int height, int cn, int red_index)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z;
    if (x >= width || y >= height)
        return;
    const uint8_t *s = frames.src[z] + (size_t)y * frames.src_pitch + (size_t)x * cn;
    frames.dst[z][(size_t)y * frames.dst_pitch + x] =
        edgel_luma_u8(s[red_index], s[1], s[2 - red_index]);
}

__global__ void blur_5x5_159(frame_table frames, int width, int height, int cn)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x, z = blockIdx.z;
    if (i >= width * cn)
        return;
    const int k[5][5] = {{2, 4, 5, 4, 2}, {4, 9, 12, 9, 4}, {5, 12, 15, 12, 5}, {4, 9, 12, 9, 4},
                         {2, 4, 5, 4, 2}};
    const int x = i / cn, ch = i - x * cn;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        int sum = 0;
        for (int a = 0; a < 5; a++) {
            const uint8_t *row = frames.src[z] + (size_t)edgel_reflect101(y + a - 2, height) * frames.src_pitch;
            for (int b = 0; b < 5; b++)
                sum += k[a][b] * __ldg(row + (size_t)edgel_reflect101(x + b - 2, width) * cn + ch);
        }
        frames.dst[z][(size_t)y * frames.dst_pitch + i] = (uint8_t)((sum + 79) / 159);
    }
}

#endif
