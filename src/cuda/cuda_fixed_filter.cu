/*
 * The convolution engine's fixed-point separable method on the GPU: u8 -> u8 with taps
 * qx / 256 and qy / 256 (see edgel_fixed_point_round in core/opencv_math.h), the arithmetic
 * of the CPU's cpu_fixed_filter.c and of OpenCV's GaussianBlur. The Canny pre-smoothing runs
 * here too, on a batch of frames a launch (blockIdx.z). Three kernels: fixed_stream (one
 * channel, centred square kernels of up to 17 taps: the Canny blur), fixed_tile (other kernels
 * of up to 17 taps a side), fixed_rows and fixed_columns (longer ones).
 */
#include "cuda/cuda_internal.h"

#include "core/border.h"
#include "core/filter.h"
#include "core/opencv_math.h"

#define FIXED_TILE 32      /* output tile side of the tile kernel (blockDim.x) */
#define FIXED_ROWS 8       /* its blockDim.y */
#define FIXED_TILE_TAPS 17 /* the most taps a side the tile kernel takes */

/* The plan's numbers, by value in each launch (no upload; concurrent calls cannot mix). */
struct fixed_filter {
    int w, h, cn, kw, kh, ax, ay, border, half_up;
    uint32_t border_value; /* u8 */
    uint32_t border_row;   /* a constant border row after the row pass: border_value * sum qx */
    uint16_t qx[EDGEL_MAX_KERNEL_SIZE], qy[EDGEL_MAX_KERNEL_SIZE];
};

/* Both passes over a 32x32 output tile in shared memory, for up to FIXED_TILE_TAPS taps a
 * side: the input tile with its border is read once, its rows filtered into u16, then the
 * columns summed in u32 and rounded. */
template <int CN, bool HALF_UP>
__global__ void __launch_bounds__(FIXED_TILE *FIXED_ROWS)
    fixed_tile(frame_table frames, fixed_filter f)
{
    constexpr int T = FIXED_TILE, IN = T + FIXED_TILE_TAPS - 1;
    __shared__ uint8_t in[IN][IN * CN];
    __shared__ uint16_t rows[IN][T * CN];
    const int z = blockIdx.z, x0 = blockIdx.x * T, y0 = blockIdx.y * T;
    const int in_w = (T + f.kw - 1) * CN, in_h = T + f.kh - 1;
    const uint8_t *src = frames.src[z];
    if (x0 - f.ax >= 0 && x0 - f.ax + in_w / CN <= f.w && y0 - f.ay >= 0 &&
        y0 - f.ay + in_h <= f.h) { /* no border in reach (most blocks): plain loads */
        const uint8_t *base = src + (size_t)(y0 - f.ay) * frames.src_pitch + (size_t)(x0 - f.ax) * CN;
        for (int r = threadIdx.y; r < in_h; r += FIXED_ROWS)
            for (int e = threadIdx.x; e < in_w; e += T)
                in[r][e] = base[(size_t)r * frames.src_pitch + e];
    } else {
        for (int r = threadIdx.y; r < in_h; r += FIXED_ROWS) {
            const int sy = edgel_border_index(y0 - f.ay + r, f.h, f.border);
            const uint8_t *row = src + (size_t)(sy < 0 ? 0 : sy) * frames.src_pitch;
            for (int e = threadIdx.x; e < in_w; e += T) {
                const int px = e / CN;
                const int sx = edgel_border_index(x0 - f.ax + px, f.w, f.border);
                in[r][e] = sy < 0 || sx < 0 ? (uint8_t)f.border_value
                                            : row[(size_t)sx * CN + (e - px * CN)];
            }
        }
    }
    __syncthreads();
    for (int r = threadIdx.y; r < in_h; r += FIXED_ROWS)
        for (int e = threadIdx.x; e < T * CN; e += T) {
            uint32_t acc = 0;
            for (int t = 0; t < f.kw; t++)
                acc += f.qx[t] * (uint32_t)in[r][e + t * CN];
            rows[r][e] = (uint16_t)acc;
        }
    __syncthreads();
    uint8_t *dst = frames.dst[z];
    for (int r = threadIdx.y; r < T; r += FIXED_ROWS) {
        const int y = y0 + r;
        for (int e = threadIdx.x; e < T * CN; e += T) {
            uint32_t acc = 0;
            for (int t = 0; t < f.kh; t++)
                acc += f.qy[t] * (uint32_t)rows[r + t][e];
            if (y < f.h && x0 * CN + e < f.w * CN)
                dst[(size_t)y * frames.dst_pitch + (size_t)x0 * CN + e] =
                    edgel_fixed_point_round(acc, HALF_UP);
        }
    }
}

/* One-channel frames with a square kernel of 2R + 1 taps a side (the Canny pre-blur: 9 taps at
 * sigma 1.4), a warp streaming down a band of BAND output rows with every value in
 * registers: a lane takes four adjacent columns (a word of bytes), its neighbours' words come
 * by shuffles, the warp's two ends from halo lanes. A row's sums are byte dot products
 * (dp4a: four taps an instruction, the taps bytes); the column pass sums a ring of 2R + 1
 * rows' sums in float. Every partial sum is an integer below 2^24 (the launch checks it), so
 * float is exact and equals the integer passes of fixed_tile in any order; rounding half up
 * is then an exact multiply-add and a round-down add of 2^23. */
#define STREAM_WARPS 4 /* warps a block */
/* Output rows a warp: 16, or 8 where 16 would give the GPU fewer than STREAM_SM_WARPS warps
 * an SM (a warp's rows are a chain of dependent steps: small frames are bound by its length;
 * shorter bands sum the 2R rows between them twice). On an H200 with 9 taps: 1080p 22 -> 17
 * us with bands of 8; at 4K and 8K bands of 8 measured 18% and 23% slower than 16. */
#ifndef STREAM_SM_WARPS
#define STREAM_SM_WARPS 16
#endif
/* Blocks an SM the registers are allocated for: for kernels of up to 9 taps 5 (96 registers)
 * measured 12% faster at 8K than the compiler's choice (120) and the same at smaller frames;
 * with more taps 5 blocks spill, so the compiler chooses. */
template <int R> constexpr int stream_min_blocks() { return R <= 4 ? 5 : 1; }

/* Where a lane reads a word of four columns from c on: `whole` (inside the frame and aligned:
 * one load at c), else each column's place (edgel_border_index; -1: the border value). */
struct stream_columns {
    bool whole;
    int c, at[4];
};

__device__ __forceinline__ stream_columns columns_from(int c, bool aligned, const fixed_filter &f)
{
    stream_columns k;
    k.c = c;
    k.whole = aligned && c >= 0 && c + 3 < f.w;
#pragma unroll
    for (int b = 0; b < 4; b++)
        k.at[b] = k.whole ? 0 : edgel_border_index(c + b, f.w, f.border);
    return k;
}

__device__ __forceinline__ uint32_t load_word(const uint8_t *row, const stream_columns &k,
                                              uint32_t border_value)
{
    if (k.whole)
        return __ldg((const unsigned int *)(row + k.c));
    uint32_t v = 0;
#pragma unroll
    for (int b = 0; b < 4; b++)
        v |= (k.at[b] < 0 ? border_value : (uint32_t)__ldg(row + k.at[b])) << (8 * b);
    return v;
}

template <int R, int BAND>
__global__ void __launch_bounds__(32 * STREAM_WARPS, stream_min_blocks<R>())
    fixed_stream(frame_table frames, fixed_filter f, bool aligned)
{
    constexpr int K = 2 * R + 1, NW = (R + 3) / 4, GROUPS = (K + 3) / 4, ROWS = BAND + 2 * R;
    const int lane = threadIdx.x & 31, z = blockIdx.z;
    const int unit = blockIdx.x * STREAM_WARPS + (threadIdx.x >> 5);
    const int groups_x = (f.w + 127) / 128, band = unit / groups_x;
    const int x0 = (unit - band * groups_x) * 128, y0 = band * BAND;
    if (y0 >= f.h)
        return; /* whole warps */
    const int xl = x0 + 4 * lane;
    /* Halo lanes: lanes 0 .. NW-1 hold words -NW .. -1 of the warp's row, lanes NW .. 2NW-1
     * words 32 .. 31 + NW. The columns' places past the frame's edges and the rows' offsets
     * (-1: a constant border row) are found once, not in the row loop. */
    const bool halo_lane = lane < 2 * NW;
    const stream_columns own_cols = columns_from(xl, aligned, f);
    const stream_columns halo_cols =
        columns_from(lane < NW ? x0 + 4 * (lane - NW) : x0 + 128 + 4 * (lane - NW), aligned, f);
    __shared__ long long row_offset[STREAM_WARPS][32];
    long long *offsets = row_offset[threadIdx.x >> 5];
    if (lane < ROWS) {
        const int sy = edgel_border_index(y0 - R + lane, f.h, f.border);
        offsets[lane] = sy < 0 ? -1 : (long long)sy * (long long)frames.src_pitch;
    }
    __syncwarp();
    const uint8_t *src = frames.src[z];

    /* Input row i's words (rows past the band's last load its last again). */
    const auto load_row = [&](int i, uint32_t &own, uint32_t &halo) {
        const long long off = offsets[min(i, ROWS - 1)];
        const uint8_t *row = src + (off < 0 ? 0 : off);
        own = load_word(row, own_cols, f.border_value);
        halo = halo_lane ? load_word(row, halo_cols, f.border_value) : 0u;
        if (off < 0) /* a constant border row */
            own = halo = f.border_value * 0x01010101u;
    };
    uint32_t taps[GROUPS]; /* qx as bytes, four a word */
#pragma unroll
    for (int g = 0; g < GROUPS; g++) {
        taps[g] = 0;
#pragma unroll
        for (int b = 0; b < 4; b++)
            taps[g] |= 4 * g + b < K ? (uint32_t)f.qx[4 * g + b] << (8 * b) : 0u;
    }
    float qy[K];
#pragma unroll
    for (int t = 0; t < K; t++)
        qy[t] = (float)f.qy[t];
    uint8_t *dst = frames.dst[z];
    const bool out_whole = aligned && xl + 3 < f.w;
    /* The rows go in chunks of K, the ring's period (unrolled within a chunk, so that ring
     * slots are registers; rolled across chunks, so that the code stays in the instruction
     * cache), the next chunk's words loading while this one's are summed. */
    float ring[K][4]; /* the row sums of input rows i - 2R .. i, row i in ring[i % K] */
    uint32_t own[K], halo[K], next_own[K], next_halo[K];
#pragma unroll
    for (int j = 0; j < K; j++)
        load_row(j, own[j], halo[j]);
#pragma unroll 1
    for (int i0 = 0; i0 < ROWS; i0 += K) {
        if (i0 + K < ROWS) {
#pragma unroll
            for (int j = 0; j < K; j++)
                load_row(i0 + K + j, next_own[j], next_halo[j]);
        }
#pragma unroll
        for (int j = 0; j < K; j++) {
            const int i = i0 + j;
            if (i >= ROWS)
                break;
            /* words lane - NW .. lane + NW of the warp's row, and a zero word that the last
             * group's taps past K (zeros) read */
            uint32_t cat[2 * NW + 2];
            cat[NW] = own[j];
            cat[2 * NW + 1] = 0;
#pragma unroll
            for (int d = 1; d <= NW; d++) {
                const uint32_t l = __shfl_sync(0xFFFFFFFFu, own[j], (lane - d) & 31);
                const uint32_t r = __shfl_sync(0xFFFFFFFFu, own[j], (lane + d) & 31);
                const uint32_t hl = __shfl_sync(0xFFFFFFFFu, halo[j], (lane - d + NW) & 31);
                const uint32_t hr = __shfl_sync(0xFFFFFFFFu, halo[j], (lane + d - 32 + NW) & 31);
                cat[NW - d] = lane - d < 0 ? hl : l;
                cat[NW + d] = lane + d > 31 ? hr : r;
            }
            /* Pixel p's sum: taps t at bytes 4NW - R + p + t of cat. */
#pragma unroll
            for (int p = 0; p < 4; p++) {
                uint32_t acc = 0;
#pragma unroll
                for (int g = 0; g < GROUPS; g++) {
                    const int s = 4 * NW - R + p + 4 * g; /* (compile time) */
                    const uint32_t word = (s & 3) == 0 ? cat[s >> 2]
                                                       : __byte_perm(cat[s >> 2], cat[(s >> 2) + 1],
                                                                     0x3210 + 0x1111 * (s & 3));
                    acc = __dp4a(word, taps[g], acc);
                }
                ring[j][p] = __uint_as_float(acc | 0x4B000000u) - 8388608.0f; /* acc < 2^23 */
            }
            const int y = y0 + i - 2 * R;
            if (i >= 2 * R && y < f.h) {
                uint32_t q[4];
#pragma unroll
                for (int p = 0; p < 4; p++) {
                    float v = 0.0f;
#pragma unroll
                    for (int t = 0; t < K; t++) /* row i - 2R + t, in slot (j + 1 + t) % K */
                        v = fmaf(qy[t], ring[(j + 1 + t) % K][p], v);
                    /* floor((v + 2^15) / 2^16) in the low byte (v + 2^15 < 2^24: exact) */
                    q[p] = __float_as_uint(__fadd_rd(fmaf(v, 1.0f / 65536.0f, 0.5f), 8388608.0f));
                }
                const uint32_t word = __byte_perm(__byte_perm(q[0], q[1], 0x0040),
                                                  __byte_perm(q[2], q[3], 0x0040), 0x5410);
                uint8_t *out = dst + (size_t)y * frames.dst_pitch + xl;
                if (out_whole) {
                    *(uint32_t *)out = word;
                } else {
#pragma unroll
                    for (int p = 0; p < 4; p++)
                        if (xl + p < f.w)
                            out[p] = (uint8_t)(word >> (8 * p));
                }
            }
        }
#pragma unroll
        for (int j = 0; j < K; j++)
            own[j] = next_own[j], halo[j] = next_halo[j];
    }
}

/* The fixed_stream kernel of a radius. */
template <int R> static void launch_stream_radius(cudaStream_t stream, const frame_table &frames,
                                                  int nframes, const fixed_filter &f, bool aligned)
{
    const long long groups = (long long)((f.w + 127) / 128) * nframes; /* a warp's columns */
    const bool short_bands =
        groups * ((f.h + 15) / 16) < (long long)STREAM_SM_WARPS * edgel_current_device_info().sms;
    const int band = short_bands ? 8 : 16;
    const long long warps = groups / nframes * ((f.h + band - 1) / band);
    const dim3 grid((unsigned)((warps + STREAM_WARPS - 1) / STREAM_WARPS), 1, (unsigned)nframes);
    (short_bands ? fixed_stream<R, 8> : fixed_stream<R, 16>)<<<grid, 32 * STREAM_WARPS, 0, stream>>>(
        frames, f, aligned);
}

/* Whether fixed_stream takes the plan: one channel, 2R + 1 taps both ways (R 1 to 8) centred, taps
 * below 256 (bytes of dp4a), rounding half up, sums of products below 2^24 (exact in float). */
static bool stream_takes(const edgel_filter_plan *p)
{
    if (p->cn != 1 || p->kw != p->kh || p->kw < 3 || p->kw > 17 || p->kw % 2 == 0 ||
        p->ax != p->kw / 2 || p->ay != p->kh / 2 ||
        !p->round_half_up || !(p->border_value >= 0 && p->border_value <= 255))
        return false;
    uint32_t sx = 0, sy = 0;
    for (int i = 0; i < p->kw; i++) {
        if (p->qx[i] > 255)
            return false;
        sx += p->qx[i];
        sy += p->qy[i];
    }
    return 255ull * sx * sy < (1ull << 24) - (1ull << 15);
}

/* Larger kernels, pass by pass. Row pass into tmp (u16, w * cn values a row). */
__global__ void fixed_rows(frame_table frames, fixed_filter f, uint16_t *tmp, size_t tmp_stride)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x, z = blockIdx.z;
    if (i >= f.w * f.cn)
        return;
    const int x = i / f.cn, ch = i - x * f.cn;
    for (int y = blockIdx.y; y < f.h; y += gridDim.y) {
        const uint8_t *row = frames.src[z] + (size_t)y * frames.src_pitch;
        uint32_t acc = 0;
        for (int t = 0; t < f.kw; t++) {
            const int sx = edgel_border_index(x + t - f.ax, f.w, f.border);
            acc += f.qx[t] * (sx < 0 ? f.border_value : (uint32_t)__ldg(row + (size_t)sx * f.cn + ch));
        }
        tmp[z * tmp_stride + (size_t)y * f.w * f.cn + i] = (uint16_t)acc;
    }
}

__global__ void fixed_columns(frame_table frames, fixed_filter f, const uint16_t *tmp,
                              size_t tmp_stride)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x, z = blockIdx.z;
    if (i >= f.w * f.cn)
        return;
    const uint16_t *base = tmp + z * tmp_stride;
    for (int y = blockIdx.y; y < f.h; y += gridDim.y) {
        uint32_t acc = 0;
        for (int t = 0; t < f.kh; t++) {
            const int sy = edgel_border_index(y + t - f.ay, f.h, f.border);
            acc += f.qy[t] * (sy < 0 ? f.border_row : (uint32_t)base[(size_t)sy * f.w * f.cn + i]);
        }
        frames.dst[z][(size_t)y * frames.dst_pitch + i] = edgel_fixed_point_round(acc, f.half_up);
    }
}

edgel_status launch_fixed_filter(cudaStream_t stream, const frame_table &frames, int nframes,
                                 const edgel_filter_plan *p, uint16_t *tmp, size_t tmp_stride)
{
    fixed_filter f;
    f.w = p->w, f.h = p->h, f.cn = p->cn, f.kw = p->kw, f.kh = p->kh, f.ax = p->ax, f.ay = p->ay;
    f.border = p->border;
    f.half_up = p->round_half_up;
    f.border_value = (uint32_t)p->border_value;
    uint32_t sum = 0;
    for (int i = 0; i < p->kw; i++)
        sum += f.qx[i] = p->qx[i];
    for (int j = 0; j < p->kh; j++)
        f.qy[j] = p->qy[j];
    f.border_row = f.border_value * sum;
    if (stream_takes(p)) {
        bool aligned = frames.src_pitch % 4 == 0 && frames.dst_pitch % 4 == 0;
        for (int z = 0; z < nframes; z++)
            aligned = aligned && (uintptr_t)frames.src[z] % 4 == 0 && (uintptr_t)frames.dst[z] % 4 == 0;
        switch (p->kw / 2) {
        case 1: launch_stream_radius<1>(stream, frames, nframes, f, aligned); break;
        case 2: launch_stream_radius<2>(stream, frames, nframes, f, aligned); break;
        case 3: launch_stream_radius<3>(stream, frames, nframes, f, aligned); break;
        case 4: launch_stream_radius<4>(stream, frames, nframes, f, aligned); break;
        case 5: launch_stream_radius<5>(stream, frames, nframes, f, aligned); break;
        case 6: launch_stream_radius<6>(stream, frames, nframes, f, aligned); break;
        case 7: launch_stream_radius<7>(stream, frames, nframes, f, aligned); break;
        default: launch_stream_radius<8>(stream, frames, nframes, f, aligned); break;
        }
    } else if (p->kw <= FIXED_TILE_TAPS && p->kh <= FIXED_TILE_TAPS) {
        const dim3 tiles((p->w + FIXED_TILE - 1) / FIXED_TILE, (p->h + FIXED_TILE - 1) / FIXED_TILE,
                         nframes);
        const dim3 block(FIXED_TILE, FIXED_ROWS);
        /* the rounding a template argument: it is in every output's last steps */
        const bool up = p->round_half_up;
        if (p->cn == 1)
            (up ? fixed_tile<1, true> : fixed_tile<1, false>)<<<tiles, block, 0, stream>>>(frames, f);
        else if (p->cn == 3)
            (up ? fixed_tile<3, true> : fixed_tile<3, false>)<<<tiles, block, 0, stream>>>(frames, f);
        else
            (up ? fixed_tile<4, true> : fixed_tile<4, false>)<<<tiles, block, 0, stream>>>(frames, f);
    } else {
        const dim3 grid((p->w * p->cn + 127) / 128, p->h < 65535 ? p->h : 65535, nframes);
        fixed_rows<<<grid, 128, 0, stream>>>(frames, f, tmp, tmp_stride);
        fixed_columns<<<grid, 128, 0, stream>>>(frames, f, tmp, tmp_stride);
    }
    CUDA_TRY(cudaGetLastError());
    return EDGEL_OK;
}
