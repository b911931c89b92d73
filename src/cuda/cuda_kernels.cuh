/*
 * The kernels of the CUDA backend. Per-pixel arithmetic comes from src/core/pixel_math.h, the
 * same functions the CPU backend runs, so both backends compute the same bytes.
 *
 * Canny runs in three launches, each over up to EDGEL_CUDA_MAX_FRAMES frames (blockIdx.z):
 *   canny_stream_kernel    the common case (gray u8, Sobel 3x3, no stage outputs): gradient,
 *                          magnitude, NMS and double threshold, a warp per 32x32 tile walking
 *                          down its rows with the values in registers
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
 * outputs. SPLIT warps take a 32x32 tile (1, or 4 for small frames), each a band of
 * 32 / SPLIT rows, with a lane per column: a warp walks down its band's rows and the four
 * beyond it (replicated at the image's edges), keeping three rows of magnitudes in registers;
 * the neighbours' values come by shuffles, the two columns beyond each side of the tile from
 * the halo loads of lanes 0, 1, 30 and 31. Lane j keeps the bitmap words of the band's row j
 * and stores them last.
 */
#ifndef EDGEL_STREAM_WARPS /* warps per block (a -D to measure others) */
#define EDGEL_STREAM_WARPS 4
#endif
template <int SPLIT>
__global__ void __launch_bounds__(32 * EDGEL_STREAM_WARPS)
    canny_stream_kernel(frame_table frames, canny_bits bits, canny_geometry g)
{
    /* Bands of 32 / SPLIT rows plus 4 come in whole chunks of 6 (below): 36 or 12 rows. */
    static_assert(SPLIT == 1 || SPLIT == 4, "bands of 32 or 8 rows");
    constexpr int BAND = EDGEL_TILE / SPLIT;
    const int lane = threadIdx.x & 31, z = blockIdx.z;
    const int band = blockIdx.x * EDGEL_STREAM_WARPS + (threadIdx.x >> 5);
    const int tile = band / SPLIT, part = band % SPLIT;
    if (tile >= bits.tiles_x * bits.tiles_y)
        return; /* whole warps */
    const int tx = tile % bits.tiles_x, ty = tile / bits.tiles_x;
    const int w = g.width, h = g.height, x0 = tx * EDGEL_TILE, y0 = ty * EDGEL_TILE + part * BAND;
    const uint8_t *src = frames.src[z];
    const size_t pitch = frames.src_pitch;
    for (int k = part * 32 + lane; k < EDGEL_TILE_NODES; k += 32 * SPLIT)
        init_tile_nodes(bits.parent + z * bits.stride, tile, k);

    /* Per input row, this lane's column and a halo column (lanes 0 and 1: the two left of the
     * tile; lanes 30 and 31: the two right of it; the others repeat their own). */
    const bool in_x = x0 + lane < w;
    const bool near_in = lane == 0 ? x0 > 0 : x0 + EDGEL_TILE < w;
    const int xo = edgel_clamp_index(x0 + lane, w);
    const int xh = edgel_clamp_index(lane == 0 ? x0 - 2 : lane == 1 ? x0 - 1 : lane == 30 ? x0 + 32
                                     : lane == 31 ? x0 + 33 : x0 + lane, w);
    /* The input rows go in chunks of 6, each chunk's loads issued one chunk ahead. The row
     * loop stays rolled (unrolled whole, the kernel outgrew the instruction cache), and 6
     * rows bring the rolling values, which cycle with periods 2 and 3, back to the registers
     * they started in: no moves. */
    constexpr int CHUNK = 6, ROWS = BAND + 4;
    static_assert(ROWS % CHUNK == 0, "whole chunks");
    int32_t own[CHUNK], halo[CHUNK], next_own[CHUNK], next_halo[CHUNK];
#pragma unroll
    for (int j = 0; j < CHUNK; j++) {
        const uint8_t *row = src + (size_t)edgel_clamp_index(y0 - 2 + j, h) * pitch;
        next_own[j] = __ldg(row + xo);
        next_halo[j] = __ldg(row + xh);
    }
    int32_t o0 = 0, o1 = 0, h0 = 0, h1 = 0; /* the two rows before the current one */
    int32_t mu = 0, mc = 0, md = 0, lu = 0, lc = 0, ld = 0, ru = 0, rc = 0, rd = 0; /* magnitudes */
    int32_t dxc = 0, dyc = 0, dxd = 0, dyd = 0; /* gradients of the centre and lower rows */
    uint32_t cand_word = 0, strong_word = 0;
#pragma unroll 1
    for (int k0 = 0; k0 < ROWS; k0 += CHUNK) {
#pragma unroll
        for (int j = 0; j < CHUNK; j++) {
            own[j] = next_own[j], halo[j] = next_halo[j];
            /* (past the last chunk these load clamped rows that go unused: no branch) */
            const uint8_t *row = src + (size_t)edgel_clamp_index(y0 - 2 + k0 + CHUNK + j, h) * pitch;
            next_own[j] = __ldg(row + xo);
            next_halo[j] = __ldg(row + xh);
        }
#pragma unroll
        for (int j = 0; j < CHUNK; j++) {
            const int k = k0 + j;
            const int32_t o2 = own[j], h2 = halo[j];
            /* Rows k < 2 and the NMS of rows k < 4 compute values that are shifted out or
             * never stored: computing them costs less than branching around them. */
            {
                /* Gradient and magnitude of row y = y0 - 3 + k, centred on input row k - 1. */
                const int y = y0 - 3 + k;
                const bool in_y = y >= 0 && y < h;
                const int32_t s = o0 + 2 * o1 + o2, d = o2 - o0;
                /* Lanes 0 and 31: the far column's sums are their own halo's, the near
                 * column's those of lane 1's or lane 30's halo. */
                const int32_t sf = h0 + 2 * h1 + h2, df = h2 - h0;
                const int32_t sn = __shfl_xor_sync(EDGEL_FULL_WARP, sf, 1);
                const int32_t dn = __shfl_xor_sync(EDGEL_FULL_WARP, df, 1);
                int32_t sl = __shfl_up_sync(EDGEL_FULL_WARP, s, 1), sr = __shfl_down_sync(EDGEL_FULL_WARP, s, 1);
                int32_t dl = __shfl_up_sync(EDGEL_FULL_WARP, d, 1), dr = __shfl_down_sync(EDGEL_FULL_WARP, d, 1);
                if (lane == 0)
                    sl = sn, dl = dn;
                if (lane == 31)
                    sr = sn, dr = dn;
                const int32_t gx = sr - sl, gy = dl + 2 * d + dr;
                const int32_t m = in_x && in_y ? edgel_magnitude(gx, gy, g.l2) : 0;
                /* The near column's magnitude from the far, near and own columns (its sign
                 * does not matter to a magnitude). */
                const int32_t mh = near_in && in_y ? edgel_magnitude(s - sf, df + 2 * dn + d, g.l2) : 0;
                int32_t ml = __shfl_up_sync(EDGEL_FULL_WARP, m, 1), mr = __shfl_down_sync(EDGEL_FULL_WARP, m, 1);
                if (lane == 0)
                    ml = mh;
                if (lane == 31)
                    mr = mh;
                mu = mc, lu = lc, ru = rc, mc = md, lc = ld, rc = rd, md = m, ld = ml, rd = mr;
                dxc = dxd, dyc = dyd, dxd = gx, dyd = gy;
            }
            {
                /* NMS of tile row k - 4 (its lower neighbour row was just computed). Rows where
                 * no magnitude passes the low threshold (flat regions) skip it. */
                uint8_t v = EDGEL_MAP_NONE;
                if (__any_sync(EDGEL_FULL_WARP, mc > g.low) && in_x && y0 + k - 4 < h)
                    v = edgel_nms_decide(mc, lu, mu, ru, lc, rc, ld, md, rd, dxc, dyc, g.low, g.high);
                const uint32_t cm = __ballot_sync(EDGEL_FULL_WARP, v != EDGEL_MAP_NONE);
                const uint32_t sm = __ballot_sync(EDGEL_FULL_WARP, v == EDGEL_MAP_STRONG);
                if (lane == k - 4)
                    cand_word = cm, strong_word = sm;
            }
            o0 = o1, o1 = o2, h0 = h1, h1 = h2;
        }
    }
    if (lane < BAND) {
        const size_t word = z * bits.stride + (size_t)(y0 + lane) * bits.tiles_x + tx;
        bits.cand[word] = cand_word;
        bits.strong[word] = strong_word;
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
