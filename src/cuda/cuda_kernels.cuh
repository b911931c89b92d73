/*
 * The kernels of the CUDA backend. Per-pixel arithmetic comes from src/core/pixel_math.h, the
 * same functions the CPU backend runs, so both backends compute the same bytes.
 *
 * Canny runs in four launches, each over up to EDGEL_CUDA_MAX_FRAMES frames (blockIdx.z):
 *   canny_tile_kernel      gradient, magnitude, NMS and double threshold of a 32x32 tile from a
 *                          shared-memory copy of its input (with halo), then connected
 *                          components of the tile's candidate pixels: horizontal runs from a
 *                          warp ballot, runs joined across rows by union-find in shared memory.
 *                          Writes per pixel the map bits and the global index of its tile-local
 *                          root, and per local root whether its component holds a strong pixel
 *   merge_tile_borders     joins components across tile borders (global union-find, atomicMin)
 *   resolve_roots          points every local root straight at its final root and passes the
 *                          strong flag on to it (walks only local roots, not every pixel)
 *   write_edges            255 for candidates whose final root is flagged (two loads)
 * Hysteresis is thereby exact (candidates 8-connected to a strong pixel) in a fixed number of
 * launches, with no host round trip.
 */
#ifndef EDGEL_CUDA_KERNELS_CUH
#define EDGEL_CUDA_KERNELS_CUH

#include <stdint.h>

#include "core/pixel_math.h"

#define EDGEL_CUDA_MAX_FRAMES 64
#define EDGEL_TILE 32         /* tile side of canny_tile_kernel */
#define EDGEL_TILE_ROWS 8     /* its blockDim.y; blockDim.x = EDGEL_TILE */
/* Bits of the device map (the CPU's 0/1/2 values are not used on the GPU). */
#define EDGEL_GMAP_CANDIDATE 1u /* kept by NMS, above the low threshold */
#define EDGEL_GMAP_STRONG 2u    /* above the high threshold */
#define EDGEL_GMAP_ROOT 4u      /* root of its tile-local component */

/* Where each frame of a launch lives (passed by value: no table upload, no race). */
struct frame_table {
    const uint8_t *src[EDGEL_CUDA_MAX_FRAMES];
    uint8_t *dst[EDGEL_CUDA_MAX_FRAMES];
    size_t src_pitch;
    size_t dst_pitch;
};

/* Per-frame workspace: frame z's map and labels start at z * stride. */
struct canny_workspace {
    uint8_t *map;      /* EDGEL_GMAP_* bits per pixel, w * h per frame */
    uint32_t *labels;  /* union-find parent, as a pixel index of the frame */
    uint8_t *strong;   /* at local and final roots: the component holds a strong pixel */
    size_t stride;     /* pixels from one frame's buffers to the next's */
};

struct sobel_taps {
    int size, radius, scale16;
    int smooth[7], deriv[7];
};

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

/* ---- union-find over global labels ------------------------------------------------------ */

__device__ __forceinline__ uint32_t uf_find(const uint32_t *labels, uint32_t x)
{
    const volatile uint32_t *l = labels;
    uint32_t p = l[x];
    while (p != x) {
        x = p;
        p = l[x];
    }
    return x;
}

/* Joins the sets of a and b: the larger root is pointed at the smaller (atomicMin), retrying
 * when another thread moved the root meanwhile. */
__device__ __forceinline__ void uf_union(uint32_t *labels, uint32_t a, uint32_t b)
{
    for (;;) {
        a = uf_find(labels, a);
        b = uf_find(labels, b);
        if (a == b)
            return;
        if (a > b) {
            uint32_t t = a;
            a = b;
            b = t;
        }
        const uint32_t old = atomicMin(&labels[b], a);
        if (old == b)
            return;
        b = old;
    }
}

/* ---- shared-memory union-find of one tile ------------------------------------------------ */

__device__ __forceinline__ uint32_t tile_find(const uint32_t *lab, uint32_t x)
{
    const volatile uint32_t *l = lab;
    uint32_t p = l[x];
    while (p != x) {
        x = p;
        p = l[x];
    }
    return x;
}

__device__ __forceinline__ void tile_union(uint32_t *lab, uint32_t a, uint32_t b)
{
    for (;;) {
        a = tile_find(lab, a);
        b = tile_find(lab, b);
        if (a == b)
            return;
        if (a > b) {
            uint32_t t = a;
            a = b;
            b = t;
        }
        const uint32_t old = atomicMin(&lab[b], a);
        if (old == b)
            return;
        b = old;
    }
}

/*
 * Gradient + NMS + tile components. KR is the Sobel radius (1: 3x3 and Scharr, 2: 5x5,
 * 3: 7x7); FROM_GRADIENTS reads caller-supplied s16 dx, dy (src = dx, aux = dy) instead.
 * The tile's gradient is computed on a ring one pixel wider than the tile, since NMS looks
 * at the neighbours' magnitudes; outside the image the magnitude is 0.
 */
template <int KR, bool FROM_GRADIENTS>
__global__ void __launch_bounds__(EDGEL_TILE * EDGEL_TILE_ROWS)
    canny_tile_kernel(frame_table frames, const int16_t *aux_dy, size_t aux_pitch,
                      canny_workspace ws, canny_geometry g, sobel_taps taps,
                      canny_stage_out stage)
{
    constexpr int T = EDGEL_TILE, RING = T + 2;
    constexpr int IN = FROM_GRADIENTS ? 1 : T + 2 + 2 * KR; /* input tile side */
    __shared__ uint8_t in[IN][FROM_GRADIENTS ? 1 : IN * 4];
    __shared__ int32_t mag[RING][RING];
    __shared__ int16_t sdx[RING][RING], sdy[RING][RING];
    __shared__ uint32_t lab[T * T];
    __shared__ uint8_t smap[T * T], sstrong[T * T];

    const int z = blockIdx.z, w = g.width, h = g.height, cn = g.channels;
    const int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
    const int tid = threadIdx.y * T + threadIdx.x, nthreads = T * EDGEL_TILE_ROWS;
    const uint8_t *src = frames.src[z];

    if (!FROM_GRADIENTS) {
        /* Input tile with replicated borders: rows y0-1-KR .., columns x0-1-KR .. */
        for (int i = tid; i < IN * IN * cn; i += nthreads) {
            const int r = i / (IN * cn), rest = i - r * IN * cn, c = rest / cn, ch = rest - c * cn;
            const int sy = edgel_clamp_index(y0 - 1 - KR + r, h);
            const int sx = edgel_clamp_index(x0 - 1 - KR + c, w);
            in[r][c * cn + ch] = __ldg(src + (size_t)sy * frames.src_pitch + (size_t)sx * cn + ch);
        }
        __syncthreads();
    }
    for (int i = tid; i < RING * RING; i += nthreads) {
        const int ry = i / RING, rx = i - ry * RING;
        const int gy = y0 - 1 + ry, gx = x0 - 1 + rx;
        int32_t best = 0, bdx = 0, bdy = 0;
        if (gx >= 0 && gx < w && gy >= 0 && gy < h) {
            for (int ch = 0; ch < cn; ch++) {
                int32_t vx, vy;
                if (FROM_GRADIENTS) {
                    const int16_t *dxr = (const int16_t *)(src + (size_t)gy * frames.src_pitch);
                    const int16_t *dyr = (const int16_t *)((const uint8_t *)aux_dy + (size_t)gy * aux_pitch);
                    vx = dxr[gx * cn + ch];
                    vy = dyr[gx * cn + ch];
                } else {
                    vx = 0;
                    vy = 0;
#pragma unroll
                    for (int a = 0; a <= 2 * KR; a++)
#pragma unroll
                        for (int b = 0; b <= 2 * KR; b++) {
                            const int32_t p = in[ry + a][(rx + b) * cn + ch];
                            vx += taps.smooth[a] * taps.deriv[b] * p;
                            vy += taps.deriv[a] * taps.smooth[b] * p;
                        }
                    if (taps.scale16) {
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

    /* NMS and double threshold; one warp per tile row, so a ballot gives the row's runs of
     * candidates, and each candidate starts labelled with the first pixel of its run. */
    for (int i = tid; i < T * T; i += nthreads) {
        const int ty = i / T, tx = i - ty * T, gx = x0 + tx, gy = y0 + ty;
        uint8_t v = EDGEL_MAP_NONE;
        if (gx < w && gy < h)
            v = edgel_nms_value(&mag[ty][1], &mag[ty + 1][1], &mag[ty + 2][1], tx,
                                sdx[ty + 1][tx + 1], sdy[ty + 1][tx + 1], g.low, g.high);
        smap[i] = v;
        const unsigned run_mask = __ballot_sync(0xFFFFFFFFu, v != EDGEL_MAP_NONE);
        const unsigned starts = run_mask & ~(run_mask << 1);
        const int start = 31 - __clz(starts & (0xFFFFFFFFu >> (31 - tx)));
        lab[i] = v != EDGEL_MAP_NONE ? (uint32_t)(i - tx + start) : (uint32_t)i;
        sstrong[i] = 0;
        if (gx < w && gy < h) {
            if (stage.dx) {
                *(int16_t *)((uint8_t *)stage.dx + gy * stage.dx_pitch + gx * 2) = sdx[ty + 1][tx + 1];
                *(int16_t *)((uint8_t *)stage.dy + gy * stage.dy_pitch + gx * 2) = sdy[ty + 1][tx + 1];
            }
            if (stage.mag)
                *(int32_t *)((uint8_t *)stage.mag + gy * stage.mag_pitch + gx * 4) = mag[ty + 1][tx + 1];
            if (stage.suppressed)
                stage.suppressed[gy * stage.sup_pitch + gx] = edgel_map_to_suppressed(v);
        }
    }
    __syncthreads();
    /* Runs joined to the runs they touch in the row above (8-connected): through the pixel
     * straight above, or else through each diagonal one. */
    for (int i = tid; i < T * T; i += nthreads) {
        const int ty = i / T, tx = i - ty * T;
        if (smap[i] == EDGEL_MAP_NONE || ty == 0)
            continue;
        if (smap[i - T] != EDGEL_MAP_NONE) {
            tile_union(lab, i, i - T);
        } else {
            if (tx > 0 && smap[i - T - 1] != EDGEL_MAP_NONE)
                tile_union(lab, i, i - T - 1);
            if (tx < T - 1 && smap[i - T + 1] != EDGEL_MAP_NONE)
                tile_union(lab, i, i - T + 1);
        }
    }
    __syncthreads();
    uint32_t roots[T * T / (T * EDGEL_TILE_ROWS)];
#pragma unroll
    for (int k = 0; k < T * T / (T * EDGEL_TILE_ROWS); k++) {
        const int i = tid + k * nthreads;
        roots[k] = i;
        if (smap[i] != EDGEL_MAP_NONE) {
            roots[k] = tile_find(lab, i);
            if (smap[i] == EDGEL_MAP_STRONG)
                sstrong[roots[k]] = 1;
        }
    }
    __syncthreads();
    uint8_t *map = ws.map + z * ws.stride;
    uint32_t *labels = ws.labels + z * ws.stride;
#pragma unroll
    for (int k = 0; k < T * T / (T * EDGEL_TILE_ROWS); k++) {
        const int i = tid + k * nthreads, ty = i / T, tx = i - ty * T, gx = x0 + tx, gy = y0 + ty;
        if (gx >= w || gy >= h)
            continue;
        const size_t p = (size_t)gy * w + gx;
        const uint8_t v = smap[i];
        uint8_t bits = 0;
        if (v != EDGEL_MAP_NONE) {
            const uint32_t ry = roots[k] / T, rx = roots[k] - ry * T;
            labels[p] = (uint32_t)(y0 + ry) * (uint32_t)w + (uint32_t)(x0 + rx);
            bits = EDGEL_GMAP_CANDIDATE | (v == EDGEL_MAP_STRONG ? EDGEL_GMAP_STRONG : 0);
            if (roots[k] == (uint32_t)i) {
                bits |= EDGEL_GMAP_ROOT;
                ws.strong[z * ws.stride + p] = sstrong[i];
            }
        }
        map[p] = bits;
    }
}

/* Joins components across tile borders. One block per tile: threads 0..T-1 take the tile's
 * left column (neighbours at x-1), threads T..2T-1 its top row (neighbours at y-1); together
 * they cover every 8-neighbour pair that crosses a tile border. */
__global__ void merge_tile_borders(canny_workspace ws, canny_geometry g)
{
    const int T = EDGEL_TILE, z = blockIdx.z, w = g.width, h = g.height;
    const int t = threadIdx.x;
    int x = blockIdx.x * T, y = blockIdx.y * T;
    int nx[3], ny[3];
    if (t < T) {
        y += t;
        if (x == 0 || y >= h)
            return;
        for (int k = 0; k < 3; k++)
            nx[k] = x - 1, ny[k] = y - 1 + k;
    } else {
        x += t - T;
        if (y == 0 || x >= w)
            return;
        for (int k = 0; k < 3; k++)
            nx[k] = x - 1 + k, ny[k] = y - 1;
    }
    const uint8_t *map = ws.map + z * ws.stride;
    uint32_t *labels = ws.labels + z * ws.stride;
    const uint32_t p = (uint32_t)y * w + x;
    if (!(map[p] & EDGEL_GMAP_CANDIDATE))
        return;
    for (int k = 0; k < 3; k++) {
        if (nx[k] < 0 || nx[k] >= w || ny[k] < 0 || ny[k] >= h)
            continue;
        const uint32_t q = (uint32_t)ny[k] * w + nx[k];
        if (map[q] & EDGEL_GMAP_CANDIDATE)
            uf_union(labels, p, q);
    }
}

/* Every local root learns its final root (labels[root] = final root, so any pixel reaches it
 * in two loads) and hands its strong flag on. Another thread may flag the same final root
 * or read a label mid-update: both values it can see are ancestors, so either is right. */
__global__ void resolve_roots(canny_workspace ws, canny_geometry g)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z;
    if (x >= g.width || y >= g.height)
        return;
    const uint32_t p = (uint32_t)y * g.width + x;
    if (!(ws.map[z * ws.stride + p] & EDGEL_GMAP_ROOT))
        return;
    uint32_t *labels = ws.labels + z * ws.stride;
    uint8_t *strong = ws.strong + z * ws.stride;
    const uint32_t root = uf_find(labels, p);
    labels[p] = root;
    if (strong[p])
        strong[root] = 1;
}

__global__ void write_edges(frame_table frames, canny_workspace ws, canny_geometry g)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z;
    if (x >= g.width || y >= g.height)
        return;
    const uint32_t p = (uint32_t)y * g.width + x;
    uint8_t out = 0;
    if (ws.map[z * ws.stride + p] & EDGEL_GMAP_CANDIDATE) {
        const uint32_t *labels = ws.labels + z * ws.stride;
        out = ws.strong[z * ws.stride + labels[labels[p]]] ? 255 : 0;
    }
    frames.dst[z][(size_t)y * frames.dst_pitch + x] = out;
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

#define EDGEL_CUDA_MAX_TAPS 129
/* Taps by value in the launch, so concurrent streams with other sigmas cannot interfere. */
struct gauss_taps {
    int size;
    uint16_t k[EDGEL_CUDA_MAX_TAPS];
};

/* Row pass of the fixed-point Gaussian: 8 fractional bits kept exactly in u16. */
__global__ void gaussian_rows(frame_table frames, uint16_t *tmp, size_t tmp_stride, int width,
                              int height, int cn, gauss_taps taps)
{
    const int ksize = taps.size;
    const int i = blockIdx.x * blockDim.x + threadIdx.x, z = blockIdx.z;
    if (i >= width * cn)
        return;
    const int x = i / cn, ch = i - x * cn, r = ksize / 2;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const uint8_t *row = frames.src[z] + (size_t)y * frames.src_pitch;
        uint32_t acc = 0;
        for (int t = 0; t < ksize; t++)
            acc += taps.k[t] * (uint32_t)__ldg(row + (size_t)edgel_reflect101(x + t - r, width) * cn + ch);
        tmp[z * tmp_stride + (size_t)y * width * cn + i] = (uint16_t)acc;
    }
}

/* Column pass: 16 fractional bits, round half up. */
__global__ void gaussian_columns(frame_table frames, const uint16_t *tmp, size_t tmp_stride,
                                 int width, int height, int cn, gauss_taps taps)
{
    const int ksize = taps.size;
    const int i = blockIdx.x * blockDim.x + threadIdx.x, z = blockIdx.z;
    if (i >= width * cn)
        return;
    const int r = ksize / 2;
    const uint16_t *base = tmp + z * tmp_stride;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        uint32_t acc = 1u << 15;
        for (int t = 0; t < ksize; t++)
            acc += taps.k[t] * (uint32_t)base[(size_t)edgel_reflect101(y + t - r, height) * width * cn + i];
        frames.dst[z][(size_t)y * frames.dst_pitch + i] = (uint8_t)(acc >> 16);
    }
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
