/*
 * The convolution engine's fixed-point separable method on the GPU: u8 -> u8 with taps
 * qx / 256 and qy / 256 (see edgel_fixed_point_round in core/opencv_math.h), the arithmetic
 * of the CPU's cpu_fixed_filter.c and of OpenCV's GaussianBlur. The Canny pre-smoothing runs
 * here too, on a batch of frames a launch (blockIdx.z). Three kernels: fixed_stream (one
 * channel, centred square kernels of up to 17 taps: the Canny blur), fixed_tile (other kernels
 * of up to 17 taps a side), fixed_rows and fixed_columns (longer ones).
 */
#include "cuda/cuda_internal.h"

#include <atomic>

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
    uint32_t pair_taps[9]; /* fixed_stream's dp2a taps (R + 1 words, R up to 8) */
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
 * sigma 1.4), a warp over a band of BAND output rows with every value in registers. A lane
 * takes PX adjacent columns (four: a word of bytes; two for small frames, see
 * STREAM_NARROW_PIXELS); the H lanes at each end of the warp only lend their columns to their
 * neighbours, so a warp writes PX (32 - 2H) columns.
 *
 * No sum is rounded before the last, so the two passes may go in either order: the columns
 * first, where every sum fits 16 bits (255 times the column taps' sum, which the launch
 * checks), two pixels a 32-bit word: a multiply-add sums two pixels' columns a tap. Then the
 * rows, from those pairs, by two-way dot products (dp2a: two 16-bit sums times two byte taps,
 * 32-bit sum): five for nine taps, for even pixels with taps (q0 q1)(q2 q3).. and for odd ones
 * with (0 q0)(q1 q2).., both kept in one word (dp2a_lo reads its low bytes, dp2a_hi its
 * high). The sum starts at 2^15, so that its third byte is the result rounded half up.
 * Every input row is loaded first, all in flight at once. A band's halo of 2R rows costs a
 * load and two byte permutes a row, not sums, so short bands are cheap and give small frames
 * enough warps. */
#ifndef STREAM_WARPS /* warps a block (a -D to measure others) */
#define STREAM_WARPS 4
#endif

/* Where a lane reads its PX columns from c on: `whole` (inside the frame and aligned: one
 * load at c), else each column's place (edgel_border_index; -1: the border value). */
template <int PX> struct stream_columns {
    bool whole;
    int c, at[PX];
};

template <int PX>
__device__ __forceinline__ stream_columns<PX> columns_from(int c, bool aligned, const fixed_filter &f)
{
    stream_columns<PX> k;
    k.c = c;
    k.whole = aligned && c >= 0 && c + PX - 1 < f.w;
#pragma unroll
    for (int b = 0; b < PX; b++)
        k.at[b] = k.whole ? 0 : edgel_border_index(c + b, f.w, f.border);
    return k;
}

/* PX bytes at `at`, aligned. */
template <int PX> __device__ __forceinline__ uint32_t load_aligned(const uint8_t *at)
{
    return PX == 4 ? __ldg((const unsigned int *)at) : __ldg((const unsigned short *)at);
}

template <int PX>
__device__ __forceinline__ uint32_t load_word(const uint8_t *row, const stream_columns<PX> &k,
                                              uint32_t border_value)
{
    if (k.whole)
        return load_aligned<PX>(row + k.c);
    uint32_t v = 0;
#pragma unroll
    for (int b = 0; b < PX; b++)
        v |= (k.at[b] < 0 ? border_value : (uint32_t)__ldg(row + k.at[b])) << (8 * b);
    return v;
}

/* floor(a / b) at compile time (b > 0), for negative a too. */
__host__ __device__ constexpr int floor_div(int a, int b) { return a >= 0 ? a / b : -((b - 1 - a) / b); }

/* The halo lanes at each end of a warp of PX pixels a lane, for radius R, and the columns
 * it writes. */
__host__ __device__ constexpr int stream_halo(int px, int r) { return (r + px - 1) / px; }
__host__ __device__ constexpr int stream_span(int px, int r) { return px * (32 - 2 * stream_halo(px, r)); }

/* One warp's band: output rows y0 .. y0 + BAND - 1 of the columns x0 .. x0 + SPAN - 1. FAST:
 * every column the warp reads is inside the frame and aligned, and every row it reads inside
 * too (most warps): plain loads and stores, no border logic. SYM: symmetric column taps
 * (every Gaussian), summed as q_t (row t + row 2R - t): half the multiplies. */
template <int PX, int R, int BAND, bool SYM, bool FAST>
__device__ __forceinline__ void fixed_stream_band(const frame_table &frames, const fixed_filter &f,
                                                  bool aligned, int z, int x0, int y0)
{
    constexpr int K = 2 * R + 1, H = stream_halo(PX, R), ROWS = BAND + 2 * R, PAIRS = PX / 2;
    /* The pairs a lane's pixels read: j covers columns 2j and 2j + 1 of the lane's. */
    constexpr int JMIN = floor_div(-R, 2), JMAX = floor_div(PX - 1 + R, 2);
    static_assert(ROWS <= 32 && H <= 4 && (PX == 2 || PX == 4), "a row a lane");
    const int lane = threadIdx.x & 31, xl = x0 + PX * (lane - H);
    const uint8_t *src = frames.src[z];
    /* Input row i (frame row y0 - R + i) of the lane's columns; off the fast path each
     * row's place comes from lane i (-1: a constant border row) and each column's from
     * columns_from. Every load is in flight at once. */
    uint32_t lo[ROWS], hi[ROWS]; /* pixels 0, 1 and 2, 3 as 16-bit halves */
    if constexpr (FAST) {
        const uint8_t *at = src + (size_t)(y0 - R) * frames.src_pitch + xl;
#pragma unroll
        for (int i = 0; i < ROWS; i++)
            lo[i] = load_aligned<PX>(at + (size_t)i * frames.src_pitch);
    } else {
        const stream_columns<PX> cols = columns_from<PX>(xl, aligned, f);
        const int row_here = edgel_border_index(y0 - R + min(lane, ROWS - 1), f.h, f.border);
#pragma unroll
        for (int i = 0; i < ROWS; i++) {
            const int sy = __shfl_sync(0xFFFFFFFFu, row_here, i);
            lo[i] = sy < 0 ? f.border_value * 0x01010101u
                           : load_word(src + (size_t)sy * frames.src_pitch, cols, f.border_value);
        }
    }
#pragma unroll
    for (int i = 0; i < ROWS; i++) {
        hi[i] = __byte_perm(lo[i], 0, 0x4342);
        lo[i] = __byte_perm(lo[i], 0, 0x4140);
    }
    const bool out_lane = lane >= H && lane < 32 - H && (FAST || xl < f.w);
    const bool out_whole = FAST || (aligned && xl + PX - 1 < f.w);
    uint8_t *out = frames.dst[z] + (size_t)y0 * frames.dst_pitch + xl;
#pragma unroll
    for (int r = 0; r < BAND; r++, out += frames.dst_pitch) {
        if (!FAST && y0 + r >= f.h)
            break; /* (the same for the whole warp) */
        uint32_t col_lo = 0, col_hi = 0; /* the column sums of input rows r .. r + 2R */
        if constexpr (SYM) {
            col_lo = f.qy[R] * lo[r + R], col_hi = f.qy[R] * hi[r + R];
#pragma unroll
            for (int t = 0; t < R; t++) { /* (no half passes 510: no carry) */
                col_lo += f.qy[t] * (lo[r + t] + lo[r + 2 * R - t]);
                col_hi += f.qy[t] * (hi[r + t] + hi[r + 2 * R - t]);
            }
        } else {
#pragma unroll
            for (int t = 0; t < K; t++) {
                col_lo += f.qy[t] * lo[r + t];
                col_hi += f.qy[t] * hi[r + t];
            }
        }
        uint32_t pair[JMAX - JMIN + 1];
#pragma unroll
        for (int j = JMIN; j <= JMAX; j++) {
            const int d = floor_div(j, PAIRS); /* the lane it comes from, relative to this one */
            const uint32_t v = j - PAIRS * d ? col_hi : col_lo;
            pair[j - JMIN] = d ? __shfl_sync(0xFFFFFFFFu, v, (lane + d) & 31) : v;
        }
        uint32_t acc[PX];
#pragma unroll
        for (int p = 0; p < PX; p++) {
            const int first = floor_div(p - R, 2), odd = p - R - 2 * first;
            acc[p] = 0x8000u;
#pragma unroll
            for (int k = 0; k <= R; k++)
                acc[p] = odd ? __dp2a_hi(pair[first + k - JMIN], f.pair_taps[k], acc[p])
                             : __dp2a_lo(pair[first + k - JMIN], f.pair_taps[k], acc[p]);
        }
        uint32_t word = __byte_perm(acc[0], acc[1], 0x0062); /* each sum's third byte: its result */
        if constexpr (PX == 4)
            word = __byte_perm(word, __byte_perm(acc[2], acc[3], 0x0062), 0x5410);
        if (out_lane) {
            if (out_whole && PX == 4) {
                *(uint32_t *)out = word;
            } else if (out_whole) {
                *(uint16_t *)out = (uint16_t)word;
            } else {
#pragma unroll
                for (int p = 0; p < PX; p++)
                    if (xl + p < f.w)
                        out[p] = (uint8_t)(word >> (8 * p));
            }
        }
    }
}

/* Band blockIdx.x * STREAM_WARPS + warp of column group blockIdx.y, frame blockIdx.z. The fast
 * path is chosen for the whole block, from blockIdx alone: the compiler then knows each warp
 * whole there, and its shuffles need no code for divergent lanes. */
template <int PX, int R, int BAND, bool SYM>
__global__ void __launch_bounds__(32 * STREAM_WARPS)
    fixed_stream(frame_table frames, fixed_filter f, bool aligned)
{
    constexpr int H = stream_halo(PX, R);
    const int x0 = blockIdx.y * stream_span(PX, R), block_y0 = blockIdx.x * STREAM_WARPS * BAND;
    const int y0 = block_y0 + (threadIdx.x >> 5) * BAND;
    if (aligned && x0 >= PX * H && x0 + PX * (32 - H) <= f.w && block_y0 >= R &&
        block_y0 + STREAM_WARPS * BAND + R <= f.h) {
        fixed_stream_band<PX, R, BAND, SYM, true>(frames, f, aligned, blockIdx.z, x0, y0);
    } else if (y0 < f.h) { /* (whole warps) */
        fixed_stream_band<PX, R, BAND, SYM, false>(frames, f, aligned, blockIdx.z, x0, y0);
    }
}

/* A fixed_stream kernel, its band, and the blocks of it an SM holds on the current device
 * (asked once a device; 1 where the query fails). */
typedef void (*stream_kernel_fn)(frame_table, fixed_filter, bool);
struct stream_band {
    int band, blocks;
    stream_kernel_fn kernel;
};
template <int PX, int R, int BAND, bool SYM> static stream_band band_of()
{
    static std::atomic<int> known[64];
    stream_band b = {BAND, 1, fixed_stream<PX, R, BAND, SYM>};
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= 64)
        return b;
    int n = known[device].load(std::memory_order_relaxed);
    if (!n) {
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, b.kernel, 32 * STREAM_WARPS, 0) != cudaSuccess || n < 1)
            n = 1;
        known[device].store(n, std::memory_order_relaxed);
    }
    b.blocks = n;
    return b;
}

#ifndef STREAM_BAND /* 2, 4, 8 or 16: that band always (a -D to measure them) */
#define STREAM_BAND 0
#endif

/* Of `bands` (kernels of warps of `span` columns, radius R), the one that should end first: a
 * warp's instructions (about 100 to start, 3 an input row, 12 + 8 (R + 1) an output row of
 * four pixels a lane, from the SASS) times the waves of warps the GPU runs one after the
 * other. Long bands load fewer halo rows; short ones give small frames more warps, and a
 * launch just past a whole wave a shorter tail. */
template <int R>
static void launch_best_band(const stream_band *bands, int count, int span, cudaStream_t stream,
                             const frame_table &frames, int nframes, const fixed_filter &f, bool aligned)
{
    const long long groups = (f.w + span - 1) / span, sms = edgel_current_device_info().sms;
    int best = 0;
    double best_cost = 0;
    for (int i = 0; i < count; i++) {
        const long long warps = groups * ((f.h + bands[i].band - 1) / bands[i].band) * nframes;
        const long long room = (long long)bands[i].blocks * STREAM_WARPS * sms;
        const double cost = (double)((warps + room - 1) / room) *
                            (100.0 + 3.0 * (bands[i].band + 2 * R) + (12.0 + 8.0 * (R + 1)) * bands[i].band);
        if (i == 0 || cost < best_cost || bands[i].band == STREAM_BAND)
            best = i, best_cost = bands[i].band == STREAM_BAND ? -1.0 : cost;
    }
    const long long rows = (f.h + bands[best].band - 1) / bands[best].band;
    const dim3 grid((unsigned)((rows + STREAM_WARPS - 1) / STREAM_WARPS), (unsigned)groups, (unsigned)nframes);
    bands[best].kernel<<<grid, 32 * STREAM_WARPS, 0, stream>>>(frames, f, aligned);
}

/* Launches of at most STREAM_NARROW_PIXELS pixels (all frames; cuda_tuning.h) with a
 * symmetric kernel of up to nine taps (the Canny pre-blur) run two pixels a lane: twice the
 * warps, each half the work a row. */

template <int R, bool SYM> static void launch_stream_radius(cudaStream_t stream, const frame_table &frames,
                                                            int nframes, const fixed_filter &f, bool aligned)
{
    if constexpr (SYM && R <= 4) {
        if ((long long)f.w * f.h * nframes <= STREAM_NARROW_PIXELS) {
            const stream_band narrow[] = {band_of<2, R, 4, SYM>(), band_of<2, R, 2, SYM>()};
            launch_best_band<R>(narrow, 2, stream_span(2, R), stream, frames, nframes, f, aligned);
            return;
        }
    }
    const stream_band wide[] = {band_of<4, R, 16, SYM>(), band_of<4, R, 8, SYM>(), band_of<4, R, 4, SYM>(),
                                band_of<4, R, 2, SYM>()};
    launch_best_band<R>(wide, 4, stream_span(4, R), stream, frames, nframes, f, aligned);
}

/* The symmetric kernel where the column taps are. */
template <int R> static void launch_stream_taps(cudaStream_t stream, const frame_table &frames,
                                                int nframes, const fixed_filter &f, bool aligned)
{
    bool sym = true;
    for (int t = 0; t < R; t++)
        sym = sym && f.qy[t] == f.qy[2 * R - t];
    (sym ? launch_stream_radius<R, true> : launch_stream_radius<R, false>)(stream, frames, nframes, f, aligned);
}

/* Whether fixed_stream takes the plan: one channel, 2R + 1 taps both ways (R 1 to 8) centred,
 * row taps below 256 (bytes of dp2a), rounding half up, column sums below 2^16 (two to a
 * word) and results below 256 (the third byte of the sum). */
static bool stream_takes(const edgel_filter_plan *p)
{
    if (p->cn != 1 || p->kw != p->kh || p->kw < 3 || p->kw > 17 || p->kw % 2 == 0 ||
        p->w > 65535 * stream_span(4, 8) || /* column groups in gridDim.y */
        p->ax != p->kw / 2 || p->ay != p->kh / 2 ||
        !p->round_half_up || !(p->border_value >= 0 && p->border_value <= 255))
        return false;
    uint64_t sx = 0, sy = 0;
    for (int i = 0; i < p->kw; i++) {
        if (p->qx[i] > 255)
            return false;
        sx += p->qx[i];
        sy += p->qy[i];
    }
    return 255 * sy < (1u << 16) && 255 * sx * sy + 0x8000 < (256u << 16);
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
        /* Tap word k: bytes 0, 1 taps 2k, 2k + 1 (even pixels); bytes 2, 3 taps 2k - 1, 2k (odd). */
        const auto qx = [&](int t) { return t >= 0 && t < p->kw ? (uint32_t)p->qx[t] : 0u; };
        for (int k = 0; k <= p->kw / 2; k++)
            f.pair_taps[k] = qx(2 * k) | qx(2 * k + 1) << 8 | qx(2 * k - 1) << 16 | qx(2 * k) << 24;
        bool aligned = frames.src_pitch % 4 == 0 && frames.dst_pitch % 4 == 0;
        for (int z = 0; z < nframes; z++)
            aligned = aligned && (uintptr_t)frames.src[z] % 4 == 0 && (uintptr_t)frames.dst[z] % 4 == 0;
        switch (p->kw / 2) {
        case 1: launch_stream_taps<1>(stream, frames, nframes, f, aligned); break;
        case 2: launch_stream_taps<2>(stream, frames, nframes, f, aligned); break;
        case 3: launch_stream_taps<3>(stream, frames, nframes, f, aligned); break;
        case 4: launch_stream_taps<4>(stream, frames, nframes, f, aligned); break;
        case 5: launch_stream_taps<5>(stream, frames, nframes, f, aligned); break;
        case 6: launch_stream_taps<6>(stream, frames, nframes, f, aligned); break;
        case 7: launch_stream_taps<7>(stream, frames, nframes, f, aligned); break;
        default: launch_stream_taps<8>(stream, frames, nframes, f, aligned); break;
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
