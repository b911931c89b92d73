/*
 * The convolution engine's fixed-point separable method on the GPU: u8 -> u8 with taps
 * qx / 256 and qy / 256 (see edgel_fixed_point_round in core/opencv_math.h), the arithmetic
 * of the CPU's cpu_fixed_filter.c and of OpenCV's GaussianBlur. The Canny pre-smoothing runs
 * here too, on a batch of frames a launch (blockIdx.z).
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
    if (p->kw <= FIXED_TILE_TAPS && p->kh <= FIXED_TILE_TAPS) {
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
