/*
 * The kernels of the CUDA backend. Per-pixel arithmetic comes from src/core/opencv_math.h, the
 * same functions the CPU backend runs, so both backends compute the same bytes (the streaming
 * kernel runs their float forms, which tests/test_opencv_math.c checks against them).
 *
 * Canny runs in three launches, each over up to EDGEL_CUDA_MAX_FRAMES frames (blockIdx.z):
 *   canny_stream_kernel    the common case (gray u8, Sobel 3x3, no stage outputs): gradient,
 *                          magnitude, NMS and double threshold, a warp over up to four 32x32
 *                          tiles side by side (a lane taking adjacent columns) walking down
 *                          their rows with the values in registers
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

#include "core/opencv_math.h"
#include "cuda/cuda_internal.h"
#include "cuda/cuda_tuning.h"

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
            const size_t word = bitmap_word(blockIdx.y * gridDim.x + blockIdx.x, ty);
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
 * outputs. A warp takes PX side-by-side 32x32 tiles, 32 * PX columns, lane l the PX adjacent
 * columns PX * l .. PX * l + PX - 1 (one aligned load a row), and of them a band of
 * 32 / SPLIT rows (SPLIT warps share the tiles' rows). It walks down the band's rows and the
 * four beyond it (replicated at the image's edges), keeping three rows of magnitudes in
 * registers. Only a lane's first and last columns need a neighbour's values, by shuffle from
 * lanes l - 1 and l + 1; the two columns beyond the warp's sides come from the halo loads of
 * lanes 0, 1, 30 and 31. The per-row work that is not per pixel (addresses, halo, shuffles,
 * votes) is shared by a lane's PX pixels. A row's PX ballots (bit l of ballot p: column
 * PX * l + p) are kept in shared memory; at the end lane r turns those of band row r into its
 * tiles' bitmap words (tile_word).
 */
/* A lane's PX pixels of a row as the bytes of a word (pixel p in byte p): one load at `at`
 * where `whole` (the PX pixels inside the row and the address aligned), else a load a pixel
 * from the row's clamped columns xo (the image's right edge, unaligned frames). */
template <int PX>
__device__ __forceinline__ uint32_t load_pixels(const uint8_t *at, const uint8_t *row, bool whole,
                                                const int (&xo)[PX])
{
    if (PX == 4 && whole)
        return __ldg((const unsigned int *)at);
    if (PX == 2 && whole)
        return __ldg((const unsigned short *)at);
    uint32_t v = 0;
#pragma unroll
    for (int p = 0; p < PX; p++)
        v |= (uint32_t)__ldg(row + xo[p]) << (8 * p);
    return v;
}

/* Byte p of w as a float: the float 2^23 + b has b in its mantissa's low byte, so one byte
 * permute and one subtraction convert it (a conversion instruction issues at a quarter of
 * the rate). */
__device__ __forceinline__ float byte_to_float(uint32_t w, int p)
{
    return __uint_as_float(__byte_perm(w, 0x4B000000u, 0x7540 + p)) - 8388608.0f;
}

/* x, which the compiler may no longer take apart (a mask then stays a register, instead of
 * a compare and a select at each use). */
__device__ __forceinline__ int32_t opaque_int(int32_t x)
{
    asm("" : "+r"(x));
    return x;
}

/* v where mask is all ones, +0 where it is 0. */
__device__ __forceinline__ float masked(float v, int32_t mask)
{
    return __int_as_float(__float_as_int(v) & mask);
}

/* Swaps the bits of x at the positions in `mask` with those `delta` above them. */
__device__ __forceinline__ uint32_t delta_swap(uint32_t x, uint32_t mask, int delta)
{
    const uint32_t t = ((x >> delta) ^ x) & mask;
    return x ^ t ^ (t << delta);
}

/* The bitmap word of tile t (bit c: column 32 t + c) from a row's PX ballots, bit l of b[p]
 * being column PX * l + p. The ballots' bits of the tile are gathered into one word (bit
 * PX-block p holds b[p]'s), which the delta swaps transpose (bit 8p + i -> 4i + p for four
 * pixels a lane, 16p + i -> 2i + p for two). */
template <int PX> __device__ __forceinline__ uint32_t tile_word(const uint32_t (&b)[PX], int t)
{
    if constexpr (PX == 1) {
        return b[0];
    } else if constexpr (PX == 2) {
        uint32_t x = __byte_perm(b[0], b[1], t == 0 ? 0x5410 : 0x7632);
        x = delta_swap(x, 0x0000AAAAu, 15);
        x = delta_swap(x, 0x0000CCCCu, 14);
        x = delta_swap(x, 0x0000F0F0u, 12);
        return delta_swap(x, 0x0000FF00u, 8);
    } else {
        const uint32_t sel = (uint32_t)t | (uint32_t)(t + 4) << 4;
        uint32_t x = __byte_perm(__byte_perm(b[0], b[1], sel), __byte_perm(b[2], b[3], sel), 0x5410);
        x = delta_swap(x, 0x0000F0F0u, 12);
        x = delta_swap(x, 0x00CC00CCu, 6);
        x = delta_swap(x, 0x0A0A0A0Au, 3);
        return delta_swap(x, 0x22222222u, 1);
    }
}

/* VARIED: frames of different sizes (frame_table's per-frame sizes); a template parameter,
 * so that launches of one size keep their code as it was (a runtime choice costs them). */
template <int PX, int SPLIT, bool L2, bool VARIED>
__global__ void __launch_bounds__(32 * EDGEL_STREAM_WARPS, EDGEL_STREAM_MIN_BLOCKS)
    canny_stream_kernel(frame_table frames, canny_bits bits, canny_geometry g, bool aligned)
{
    /* Bands of 32 / SPLIT rows plus 4: 36, 20 or 12 rows (see the chunks below). */
    static_assert(SPLIT == 1 || SPLIT == 2 || SPLIT == 4, "bands of 32, 16 or 8 rows");
    static_assert(PX == 1 || PX == 2 || PX == 4, "one, two or four pixels a lane");
    constexpr int BAND = EDGEL_TILE / SPLIT, SPAN = EDGEL_TILE * PX;
    /* A row's ballots, cand then strong, for each band row of each warp of the block. */
    __shared__ uint32_t s_votes[EDGEL_STREAM_WARPS][BAND][2 * PX];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, z = blockIdx.z;
    const int unit = blockIdx.x * EDGEL_STREAM_WARPS + warp;
    const int groups_x = (bits.tiles_x + PX - 1) / PX, part = unit % SPLIT, group = unit / SPLIT;
    const int ty = group / groups_x, tx0 = (group - ty * groups_x) * PX;
    if (ty >= bits.tiles_y)
        return; /* whole warps */
    const int w = VARIED ? frames.width[z] : g.width;
    const int h = VARIED ? frames.height[z] : g.height;
    const int x0 = tx0 * EDGEL_TILE, y0 = ty * EDGEL_TILE + part * BAND;
    const uint8_t *src = frames.src[z];
    /* (the launch checks that it fits) */
    const uint32_t pitch = VARIED ? frames.src_pitches[z] : (uint32_t)frames.src_pitch;
#pragma unroll
    for (int j = 0; j < PX; j++)
        if (tx0 + j < bits.tiles_x)
            for (int k = part * 32 + lane; k < EDGEL_TILE_NODES; k += 32 * SPLIT)
                init_tile_nodes(bits.parent + z * bits.stride, ty * bits.tiles_x + tx0 + j, k);
    wait_for_previous_kernel(); /* (launched early after the pre-blur, which writes src) */

    /* This lane's columns, and a halo column (lanes 0 and 1: the two left of the warp's
     * columns; lanes 30 and 31: the two right of them; the others load none, halo_lane). */
    const int xl = x0 + PX * lane;
    const bool whole = aligned && xl + PX <= w;
    int xo[PX], xmask[PX]; /* clamped columns; masks: all ones for columns inside the image, else 0 */
#pragma unroll
    for (int p = 0; p < PX; p++) {
        xo[p] = edgel_clamp_index(xl + p, w);
        xmask[p] = opaque_int(xl + p < w ? -1 : 0); /* kept as masks: one AND a pixel */
    }
    const bool near_in = lane == 0 ? x0 > 0 : x0 + SPAN < w;
    const int xh = edgel_clamp_index(lane == 0 ? x0 - 2 : lane == 1 ? x0 - 1 : lane == 30 ? x0 + SPAN
                                     : lane == 31 ? x0 + SPAN + 1 : xl, w);
    const int left_lane = (lane + 31) & 31, right_lane = (lane + 1) & 31;
    /* Only these lanes' halo bytes are used; the other lanes skip the load (fewer sectors a
     * row: batches +0.5%) */
    const bool halo_lane = lane < 2 || lane > 29;
    /* Row y's offset, clamped (32 bits times 32: one multiply-add an address). */
    const auto row_offset = [&](int y) { return (size_t)(uint32_t)max(0, min(y, h - 1)) * pitch; };

    /* Each input row is loaded AHEAD rows before it is used, into a ring of AHEAD + 3 rows that
     * also holds the two rows before the current one (packed: byte p is pixel p), and unpacked
     * into a window of three rows when it is used. With one pixel a lane, a row is a quarter
     * of the work of four, so it loads further ahead to keep as many cycles between a load
     * and its use. A whole tile's row loop stays rolled in chunks of one ring (unrolled whole,
     * the kernel outgrows the instruction cache): the ring, the window and the rolling values,
     * which cycle with periods 2 and 3, come back to the registers they started in at the end
     * of a chunk, so nothing is moved. A band of half or a quarter of a tile's rows is one
     * chunk, unrolled whole: each step's row is known at compile time, so the steps whose
     * results are never used are left out (the gradients of rows k < 2, the NMS of rows
     * k < 4, the loads of rows past the band's end; a quarter band's rows are a third halo). */
    constexpr bool ONE_CHUNK = SPLIT > 1;
    constexpr int AHEAD = PX == 1 ? 9 : 3, ROWS = BAND + 4, CHUNK = ONE_CHUNK ? ROWS : AHEAD + 3;
    static_assert(ONE_CHUNK || (ROWS % CHUNK == 0 && CHUNK % 6 == 0), "whole chunks");
    /* This lane's first column, the halo column and, for the L2 prefetch, the first column
     * clamped (the warp's columns are one span). */
    const uint8_t *main_col = src + xl, *halo_col = src + xh, *prefetch_col = src + xo[0];
    uint32_t ring[CHUNK]; /* row k in ring[k % CHUNK]; rows before the first are zeros */
    uint32_t halo[CHUNK]; /* the same of the halo column */
#pragma unroll
    for (int i = 0; i < CHUNK; i++) {
        const size_t off = row_offset(y0 - 2 + i);
        ring[i] = i < AHEAD ? load_pixels<PX>(main_col + off, src + off, whole, xo) : 0u;
        halo[i] = i < AHEAD && halo_lane ? __ldg(halo_col + off) : 0u;
    }
    /* From here on the arithmetic is in float, on the FP32 pipes, which issue twice as fast
     * as the integer pipe (whose compares and selects had bound the kernel); every value is
     * an integer below 2^24, so all of it is exact (edgel_nms_keep_f32).
     * The unpacked rows k - 2, k - 1, k in win[(k + 1) % 3], win[(k + 2) % 3], win[k % 3],
     * and the same of the halo column in hwin. */
    float win[3][PX], hwin[3] = {0.0f, 0.0f, 0.0f};
    /* Per pixel: magnitudes of the rows up, centre and down, and the left neighbour of the
     * first pixel and the right one of the last in each; gradients of the centre and down
     * rows. */
    float mu[PX], mc[PX], md[PX], dxc[PX], dyc[PX], dxd[PX], dyd[PX];
    float lu = 0, lc = 0, ld = 0, ru = 0, rc = 0, rd = 0;
    const float low = (float)g.low, high = (float)g.high; /* m > low exact (m < 2^23) */
#pragma unroll
    for (int p = 0; p < PX; p++) {
        mu[p] = mc[p] = md[p] = dxc[p] = dyc[p] = dxd[p] = dyd[p] = 0.0f;
        win[0][p] = win[1][p] = win[2][p] = 0.0f;
    }
#pragma unroll 1
    for (int k0 = 0; k0 < ROWS; k0 += CHUNK) {
#pragma unroll
        for (int i = 0; i < CHUNK; i++) {
            const int k = ONE_CHUNK ? i : k0 + i;
            if (!ONE_CHUNK || i + AHEAD < ROWS) {
                /* (in whole tiles, past the last rows these load clamped rows that go unused:
                 * no branch) */
                const size_t off = row_offset(y0 - 2 + k + AHEAD);
                ring[(i + AHEAD) % CHUNK] = load_pixels<PX>(main_col + off, src + off, whole, xo);
                halo[(i + AHEAD) % CHUNK] = halo_lane ? __ldg(halo_col + off) : 0u;
                if (EDGEL_STREAM_PREFETCH > AHEAD && (!ONE_CHUNK || i + EDGEL_STREAM_PREFETCH < ROWS)) {
                    /* into L2: no register waits for it */
                    const size_t ahead = row_offset(y0 - 2 + k + EDGEL_STREAM_PREFETCH);
                    asm volatile("prefetch.global.L2 [%0];" ::"l"(prefetch_col + ahead));
                }
            }
            float *a = win[(i + 1) % 3], *b = win[(i + 2) % 3], *c = win[i % 3];
#pragma unroll
            for (int p = 0; p < PX; p++)
                c[p] = byte_to_float(ring[i % CHUNK], p);
            hwin[i % 3] = byte_to_float(halo[i % CHUNK], 0);
            /* Elsewhere the gradients of rows k < 2 are computed and shifted out unused:
             * that costs less than branching around them. */
            if (!ONE_CHUNK || i >= 2) {
                /* Gradient and magnitude of row y = y0 - 3 + k, centred on input row k - 1.
                 * Column sums s = a + 2b + c, d = c - a; cs[p + 1], cd[p + 1] are pixel p's,
                 * the ends the neighbouring lanes' (lane 0's left: lane 1's halo column; lane
                 * 31's right: lane 30's). */
                const int y = y0 - 3 + k;
                const int32_t ymask = opaque_int((uint32_t)y < (uint32_t)h ? -1 : 0);
                const float h0 = hwin[(i + 1) % 3], h1 = hwin[(i + 2) % 3], h2 = hwin[i % 3];
                const float sf = fmaf(h1, 2.0f, h0) + h2, df = h2 - h0;
                const float sn = __shfl_xor_sync(EDGEL_FULL_WARP, sf, 1);
                const float dn = __shfl_xor_sync(EDGEL_FULL_WARP, df, 1);
                float cs[PX + 2], cd[PX + 2];
#pragma unroll
                for (int p = 0; p < PX; p++) {
                    cs[p + 1] = fmaf(b[p], 2.0f, a[p]) + c[p];
                    cd[p + 1] = c[p] - a[p];
                }
                const float sl = __shfl_sync(EDGEL_FULL_WARP, cs[PX], left_lane);
                const float dl = __shfl_sync(EDGEL_FULL_WARP, cd[PX], left_lane);
                const float sr = __shfl_sync(EDGEL_FULL_WARP, cs[1], right_lane);
                const float dr = __shfl_sync(EDGEL_FULL_WARP, cd[1], right_lane);
                cs[0] = lane == 0 ? sn : sl;
                cd[0] = lane == 0 ? dn : dl;
                cs[PX + 1] = lane == 31 ? sn : sr;
                cd[PX + 1] = lane == 31 ? dn : dr;
                float m[PX];
#pragma unroll
                for (int p = 0; p < PX; p++) {
                    const float gx = cs[p + 2] - cs[p], gy = fmaf(cd[p + 1], 2.0f, cd[p]) + cd[p + 2];
                    m[p] = masked(edgel_magnitude_f32(gx, gy, L2), xmask[p] & ymask);
                    dxc[p] = dxd[p], dyc[p] = dyd[p], dxd[p] = gx, dyd[p] = gy;
                }
                /* The halo column next to lane 0's first pixel or lane 31's last, from the
                 * far, near and own columns (its sign does not matter to a magnitude). */
                const float own_s = lane == 31 ? cs[PX] : cs[1], own_d = lane == 31 ? cd[PX] : cd[1];
                const float near_mag = edgel_magnitude_f32(own_s - sf, fmaf(dn, 2.0f, df) + own_d, L2);
                const float mh = masked(near_mag, near_in ? ymask : 0);
                const float ml = __shfl_sync(EDGEL_FULL_WARP, m[PX - 1], left_lane);
                const float mr = __shfl_sync(EDGEL_FULL_WARP, m[0], right_lane);
                lu = lc, ru = rc, lc = ld, rc = rd;
                ld = lane == 0 ? mh : ml;
                rd = lane == 31 ? mh : mr;
#pragma unroll
                for (int p = 0; p < PX; p++)
                    mu[p] = mc[p], mc[p] = md[p], md[p] = m[p];
            }
            if (!ONE_CHUNK || i >= 4) {
                /* NMS of band row k - 4 (its lower neighbour row was just computed; rows below
                 * the image have magnitude 0, so nothing there is kept). Rows k < 4 are not
                 * stored. With EDGEL_STREAM_SKIP_FLAT, rows where no magnitude passes the low
                 * threshold (flat regions) skip it. */
                bool any = !EDGEL_STREAM_SKIP_FLAT;
#pragma unroll
                for (int p = 0; p < PX; p++)
                    any |= EDGEL_STREAM_SKIP_FLAT && mc[p] > low;
                uint32_t votes[2 * PX];
#pragma unroll
                for (int p = 0; p < 2 * PX; p++)
                    votes[p] = 0;
                if (!EDGEL_STREAM_SKIP_FLAT || (k >= 4 && __any_sync(EDGEL_FULL_WARP, any))) {
#pragma unroll
                    for (int p = 0; p < PX; p++) {
                        const float l_u = p == 0 ? lu : mu[p - 1], r_u = p == PX - 1 ? ru : mu[p + 1];
                        const float l_c = p == 0 ? lc : mc[p - 1], r_c = p == PX - 1 ? rc : mc[p + 1];
                        const float l_d = p == 0 ? ld : md[p - 1], r_d = p == PX - 1 ? rd : md[p + 1];
                        /* (columns outside the image have magnitude 0, never above a
                         * neighbour's, so the NMS drops them) */
                        const bool keep = (mc[p] > low) &
                                          edgel_nms_keep_f32(mc[p], l_u, mu[p], r_u, l_c, r_c, l_d, md[p], r_d,
                                                             dxc[p], dyc[p]);
                        votes[p] = __ballot_sync(EDGEL_FULL_WARP, keep);
                        votes[PX + p] = __ballot_sync(EDGEL_FULL_WARP, keep & (mc[p] > high));
                    }
                }
                if (k >= 4 && lane == 0) {
#pragma unroll
                    for (int p = 0; p < 2 * PX; p++)
                        s_votes[warp][k - 4][p] = votes[p];
                }
            }
        }
    }
    __syncwarp();
    if (lane < BAND) {
        uint32_t cand[PX], strong[PX];
#pragma unroll
        for (int p = 0; p < PX; p++) {
            cand[p] = s_votes[warp][lane][p];
            strong[p] = s_votes[warp][lane][PX + p];
        }
        /* bitmap_word(ty * tiles_x + tx0, part * BAND + lane), written from y0 (which the
         * loop keeps): from ty and part, ptxas gave the four-tile kernel 159 registers, not 116 */
        const size_t word = z * bits.stride + (size_t)(y0 & ~31) * bits.tiles_x + 32 * tx0 + (y0 & 31) + lane;
#pragma unroll
        for (int t = 0; t < PX; t++)
            if (tx0 + t < bits.tiles_x) {
                bits.cand[word + 32 * t] = tile_word<PX>(cand, t);
                bits.strong[word + 32 * t] = tile_word<PX>(strong, t);
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
