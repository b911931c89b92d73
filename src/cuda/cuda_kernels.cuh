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
 *   write_edges            for the components that reached a tile side: 255 where the final
 *                          root is flagged (two loads). The tile kernel wrote all other pixels
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

/* One linking step of a union: given roots *a and *b, points the larger at the smaller with
 * atomicMin. True when done; false when the larger was no longer a root (another thread
 * linked it meanwhile): then *a is the smaller root, *b the larger's new parent, and the
 * caller looks for their roots again. */
__device__ __forceinline__ bool link_roots(uint32_t *labels, uint32_t *a, uint32_t *b)
{
    const uint32_t lo = *a < *b ? *a : *b, hi = *a < *b ? *b : *a;
    if (lo == hi)
        return true;
    const uint32_t old = atomicMin(&labels[hi], lo);
    if (old == hi)
        return true;
    *a = lo;
    *b = old;
    return false;
}

/* Joins the sets of a and b in global memory. Both roots are sought in one loop, so the two
 * chains of loads overlap. */
__device__ __forceinline__ void uf_union(uint32_t *labels, uint32_t a, uint32_t b)
{
    const volatile uint32_t *l = labels;
    for (;;) {
        for (;;) {
            const uint32_t pa = l[a], pb = l[b];
            if (pa == a && pb == b)
                break;
            a = pa;
            b = pb;
        }
        if (link_roots(labels, &a, &b))
            return;
    }
}

/* ---- shared-memory union-find of one tile ------------------------------------------------ */

/* Find with path halving: each step points a node at its grandparent. Parents always have
 * smaller indices than their children, so atomicMin with the grandparent only ever moves a
 * node closer to its root and never undoes a link a racing union has just made. Vertical
 * edges make chains as long as the tile is tall; halving keeps later finds short. */
__device__ __forceinline__ uint32_t tile_find(uint32_t *lab, uint32_t x)
{
    const volatile uint32_t *l = lab;
    uint32_t p = l[x];
    while (p != x) {
        const uint32_t gp = l[p];
        if (gp != p)
            atomicMin(&lab[x], gp);
        x = p;
        p = gp;
    }
    return x;
}

__device__ __forceinline__ void tile_union(uint32_t *lab, uint32_t a, uint32_t b)
{
    for (;;) {
        a = tile_find(lab, a);
        b = tile_find(lab, b);
        if (link_roots(lab, &a, &b))
            return;
    }
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
 * pixel) that another preset computed: then only the components are found here. */
enum tile_source { TILE_FROM_IMAGE, TILE_FROM_GRADIENTS, TILE_FROM_CLASSES };

/*
 * Gradient + NMS + tile components. APERTURE 3, 5, 7 or -1 (Scharr); CN channels. The
 * gradient is computed on a ring one pixel wider than the tile, since NMS looks at the
 * neighbours' magnitudes; outside the image the magnitude is 0.
 */
template <int APERTURE, int CN, tile_source SOURCE>
__global__ void __maxnreg__(32) /* 8 blocks of 256 threads per SM */
    canny_tile_kernel(frame_table frames, const int16_t *aux_dy, size_t aux_pitch,
                      canny_workspace ws, canny_geometry g, canny_stage_out stage)
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
    __shared__ uint32_t lab[T * T];
    __shared__ uint8_t smap[T * T], sstrong[T * T], sopen[T * T];
    __shared__ unsigned row_mask[T]; /* candidates of each tile row, bit = column */

    const int z = blockIdx.z, w = g.width, h = g.height;
    const int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
    const int lane = threadIdx.x, tid = threadIdx.y * T + lane;
    const uint8_t *src = frames.src[z];

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
     * warp holds a whole tile row and a ballot gives the row's runs of candidates; each
     * candidate starts labelled with the first pixel of its run. */
    int run_start[PER];
#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int i = tid + k * NT, ty = i / T, gx = x0 + lane, gy = y0 + ty;
        uint8_t v = EDGEL_MAP_NONE;
        if constexpr (FROM_CLASSES) {
            if (gx < w && gy < h)
                v = src[(size_t)gy * frames.src_pitch + gx];
        } else if (gx < w && gy < h) {
            v = edgel_nms_value(&mag[ty][1], &mag[ty + 1][1], &mag[ty + 2][1], lane,
                                sdx[ty + 1][lane + 1], sdy[ty + 1][lane + 1], g.low, g.high);
        }
        smap[i] = v;
        const unsigned run_mask = __ballot_sync(0xFFFFFFFFu, v != EDGEL_MAP_NONE);
        if (lane == 0)
            row_mask[ty] = run_mask;
        const unsigned starts = run_mask & ~(run_mask << 1);
        run_start[k] = v != EDGEL_MAP_NONE ? 31 - __clz(starts & (0xFFFFFFFFu >> (31 - lane))) : lane;
        lab[i] = (uint32_t)(i - lane + run_start[k]);
        sstrong[i] = 0;
        sopen[i] = 0;
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
    __syncthreads();
    /* Each run is joined once to each run it touches in the row above (8-connected). A pixel
     * joins upwards only where its left neighbour in the run cannot already have done so:
     * straight up unless the left pixel's up-left link reaches the same run above; up-left
     * only at the run's start; up-right only at its end. Decided for a whole row at once
     * from the rows' candidate masks. */
#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int ty = threadIdx.y + k * EDGEL_TILE_ROWS, i = ty * T + lane;
        if (ty == 0)
            continue;
        const unsigned cur = row_mask[ty], up = row_mask[ty - 1];
        const unsigned left = cur << 1, right = cur >> 1, up_left = up << 1, up_right = up >> 1;
        const unsigned bit = 1u << lane;
        /* At most two links per pixel, from two call sites (each inlined union is long). */
        const bool straight = cur & up & ~(left & up_left) & bit;
        const bool diag_left = cur & ~up & up_left & ~left & bit;
        const bool diag_right = cur & ~up & up_right & ~right & bit;
        if (straight || diag_left)
            tile_union(lab, i, straight ? i - T : i - T - 1);
        if (diag_right)
            tile_union(lab, i, i - T + 1);
    }
    __syncthreads();
    /* Roots: found once per run (at its start) and passed along the run by a shuffle. */
    uint32_t roots[PER];
#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int i = tid + k * NT;
        const bool cand = smap[i] != EDGEL_MAP_NONE;
        const uint32_t r = cand && run_start[k] == lane ? tile_find(lab, i) : (uint32_t)i;
        roots[k] = __shfl_sync(0xFFFFFFFFu, r, run_start[k]);
        if (smap[i] == EDGEL_MAP_STRONG)
            sstrong[roots[k]] = 1;
        const int ty = i / T;
        if (cand && ((lane == 0 && x0 > 0) || (lane == T - 1 && x0 + T < w) ||
                     (ty == 0 && y0 > 0) || (ty == T - 1 && y0 + T < h)))
            sopen[roots[k]] = 1; /* may join pixels of another tile */
    }
    __syncthreads();
    /* Components inside the tile are final: their edges are written here. Components that
     * reach a tile side stay open: label, map bits and strong flag for the later kernels,
     * which write their edges. */
    uint8_t *map = ws.map + z * ws.stride;
    uint32_t *labels = ws.labels + z * ws.stride;
    uint8_t *dst = frames.dst[z];
#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int i = tid + k * NT, ty = i / T, gx = x0 + lane, gy = y0 + ty;
        if (gx >= w || gy >= h)
            continue;
        const size_t p = (size_t)gy * w + gx;
        const uint8_t v = smap[i];
        uint8_t bits = 0;
        if (v != EDGEL_MAP_NONE && sopen[roots[k]]) {
            const uint32_t ry = roots[k] / T, rx = roots[k] - ry * T;
            labels[p] = (uint32_t)(y0 + ry) * (uint32_t)w + (uint32_t)(x0 + rx);
            bits = EDGEL_GMAP_CANDIDATE | (v == EDGEL_MAP_STRONG ? EDGEL_GMAP_STRONG : 0);
            if (roots[k] == (uint32_t)i) {
                bits |= EDGEL_GMAP_ROOT;
                ws.strong[z * ws.stride + p] = sstrong[i];
            }
        } else {
            dst[(size_t)gy * frames.dst_pitch + gx] =
                v != EDGEL_MAP_NONE && sstrong[roots[k]] ? 255 : 0;
        }
        map[p] = bits;
    }
}

/* Joins components across tile borders: each pixel of a tile's left column with its
 * neighbours in the column to the left, each of its top row with those in the row above.
 * Together these are every 8-neighbour pair that crosses a border. A pixel whose in-tile
 * predecessor (above it in the column, left of it in the row) is a candidate leaves the two
 * neighbours they share to that predecessor, which belongs to the same tile component. */
__global__ void merge_tile_borders(canny_workspace ws, canny_geometry g, int tiles_x, int tiles)
{
    const int T = EDGEL_TILE, w = g.width, h = g.height, z = blockIdx.z;
    const int t = blockIdx.x * blockDim.x + threadIdx.x; /* (tile, border pixel, neighbour) */
    if (t >= tiles * 2 * T * 3)
        return;
    const int n = t % 3, tk = t / 3, tile = tk / (2 * T), k = tk - tile * 2 * T;
    const int x0 = (tile % tiles_x) * T, y0 = (tile / tiles_x) * T;
    const bool column = k < T; /* left column, else top row */
    const int x = column ? x0 : x0 + (k - T), y = column ? y0 + k : y0;
    if (x >= w || y >= h || (column ? x0 == 0 : y0 == 0))
        return;
    const uint8_t *map = ws.map + z * ws.stride;
    const uint32_t p = (uint32_t)y * w + x;
    if (!(map[p] & EDGEL_GMAP_CANDIDATE))
        return;
    const bool pred = column ? (y > y0 && (map[p - w] & EDGEL_GMAP_CANDIDATE))
                             : (x > x0 && (map[p - 1] & EDGEL_GMAP_CANDIDATE));
    if (pred && n < 2)
        return;
    const int nx = column ? x - 1 : x - 1 + n, ny = column ? y - 1 + n : y - 1;
    if (nx < 0 || nx >= w || ny < 0 || ny >= h)
        return;
    const uint32_t q = (uint32_t)ny * w + nx;
    if (map[q] & EDGEL_GMAP_CANDIDATE)
        uf_union(ws.labels + z * ws.stride, p, q);
}

/* Every local root learns its final root (labels[root] = final root, so any pixel reaches it
 * in two loads) and hands its strong flag on. Another thread may flag the same final root
 * or read a label mid-update: both values it can see are ancestors, so either is right.
 * Four pixels per thread (one 32-bit map load): the frame is a flat array of w * h. */
__global__ void resolve_roots(canny_workspace ws, size_t pixels)
{
    const size_t q = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (q >= pixels)
        return;
    const uint8_t *map = ws.map + blockIdx.y * ws.stride;
    uint32_t bits = *(const uint32_t *)(map + q); /* stride and buffers are 16-byte multiples */
    if (!(bits & 0x04040404u))
        return;
    uint32_t *labels = ws.labels + blockIdx.y * ws.stride;
    uint8_t *strong = ws.strong + blockIdx.y * ws.stride;
    for (int j = 0; j < 4 && q + j < pixels; j++, bits >>= 8) {
        if (!(bits & EDGEL_GMAP_ROOT))
            continue;
        const uint32_t p = (uint32_t)(q + j), root = uf_find(labels, p);
        labels[p] = root;
        if (strong[p])
            strong[root] = 1;
    }
}

__global__ void write_edges(frame_table frames, canny_workspace ws, canny_geometry g, size_t pixels)
{
    const size_t q = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (q >= pixels)
        return;
    const int z = blockIdx.y;
    uint32_t bits = *(const uint32_t *)(ws.map + z * ws.stride + q);
    if (q + 4 > pixels) /* past the frame's end the map is stale */
        bits &= (1u << (8 * (pixels - q))) - 1;
    const uint32_t *labels = ws.labels + z * ws.stride;
    const uint8_t *strong = ws.strong + z * ws.stride;
    uint32_t lr[4] = {0, 0, 0, 0};
    if (!(bits & 0x01010101u))
        return;
    {
        const uint4 l4 = *(const uint4 *)(labels + q);
        lr[0] = l4.x, lr[1] = l4.y, lr[2] = l4.z, lr[3] = l4.w;
    }
    uint32_t fr[4];
#pragma unroll
    for (int j = 0; j < 4; j++)
        fr[j] = ((bits >> (8 * j)) & EDGEL_GMAP_CANDIDATE) ? labels[lr[j]] : 0;
    int y = (int)(q / g.width), x = (int)(q - (size_t)y * g.width);
#pragma unroll
    for (int j = 0; j < 4; j++) {
        if (q + j >= pixels)
            break;
        if ((bits >> (8 * j)) & EDGEL_GMAP_CANDIDATE) /* the tile kernel wrote all others */
            frames.dst[z][(size_t)y * frames.dst_pitch + x] = strong[fr[j]] ? 255 : 0;
        if (++x == g.width)
            x = 0, y++;
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
