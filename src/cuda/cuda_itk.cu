/*
 * The itk preset on the GPU, in two kernels over 32x8 tiles (the Gaussian; the second
 * derivative, suppression and classes) with the per-pixel functions of src/core/itk_math.h,
 * then the opencv preset's tile hysteresis on the classes. nvcc runs with --fmad=false, and CUDA's float division and
 * double sqrt are correctly rounded, so every float equals the CPU's.
 *
 * Host images are copied in and out on the first host slot's stream, which the call then
 * waits for; device images only queue work on the context's stream.
 */
#include "cuda/cuda_internal.h"

#include <string.h>

#include "core/image.h"
#include "core/itk_gaussian.h"
#include "core/itk_math.h"

/* Float images of the itk preset (see cuda_itk.cu). */
struct itk_buffers {
    size_t pixels;
    float *smoothed, *sup; /* sup: the suppressed stage of host calls */
    uint8_t *classes, *edges;
};

struct itk_taps {
    int radius;
    double c[2 * EDGEL_ITK_MAX_RADIUS + 1];
};

#define ITK_TILE_W 32
#define ITK_TILE_H 8

/* The Gaussian of one 32x8 tile: the input tile with a halo of r (clamped, as float: exact
 * for u8/u16), the y pass for the tile's rows and the halo's columns, then the x pass. Each
 * output sums the same terms in the same order as the CPU's two passes; shared memory only
 * changes where the operands come from. Dynamic shared memory: itk_smooth_shared(r). */
template <typename T>
__global__ void itk_smooth(const uint8_t *src, size_t pitch, float *out, int w, int h, itk_taps k)
{
    extern __shared__ float tile[];
    const int r = k.radius, n = 2 * r + 1, tw = ITK_TILE_W + 2 * r, th = ITK_TILE_H + 2 * r;
    float *in = tile, *ty = tile + th * tw; /* th x tw input, ITK_TILE_H x tw after the y pass */
    const int x0 = blockIdx.x * ITK_TILE_W, y0 = blockIdx.y * ITK_TILE_H;
    const int tid = threadIdx.y * ITK_TILE_W + threadIdx.x, nt = ITK_TILE_W * ITK_TILE_H;
    for (int i = tid; i < th * tw; i += nt) {
        const int row = i / tw, col = i - row * tw;
        const int sy = edgel_clamp_index(y0 - r + row, h), sx = edgel_clamp_index(x0 - r + col, w);
        in[i] = (float)((const T *)(src + (size_t)sy * pitch))[sx];
    }
    __syncthreads();
    for (int i = tid; i < ITK_TILE_H * tw; i += nt) {
        const int row = i / tw, col = i - row * tw;
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += k.c[j] * (double)in[(row + j) * tw + col];
        ty[i] = (float)s;
    }
    __syncthreads();
    const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    if (x >= w || y >= h)
        return;
    double s = 0.0;
    for (int j = 0; j < n; j++)
        s += k.c[j] * (double)ty[threadIdx.y * tw + threadIdx.x + j];
    out[(size_t)y * w + x] = (float)s;
}

static size_t itk_smooth_shared(int r)
{
    return sizeof(float) * (size_t)(ITK_TILE_W + 2 * r) * (2 * ITK_TILE_H + 2 * r);
}

/* From the smoothed image g: the second derivative L of the tile and a one-pixel ring
 * (stored at clamped coordinates, which is what the replicated border reads), then each
 * pixel's suppressed value and hysteresis class; the value also into `sup` when wanted. */
__global__ void itk_suppress(const float *g, uint8_t *classes, float *sup, size_t sup_pitch,
                             int w, int h, float lower, float upper)
{
    constexpr int LW = ITK_TILE_W + 2, LH = ITK_TILE_H + 2;
    __shared__ float l[LH][LW];
    const int x0 = blockIdx.x * ITK_TILE_W, y0 = blockIdx.y * ITK_TILE_H;
    const int tid = threadIdx.y * ITK_TILE_W + threadIdx.x;
    for (int i = tid; i < LH * LW; i += ITK_TILE_W * ITK_TILE_H) {
        const int row = i / LW, col = i - row * LW;
        float n[9];
        edgel_itk_neighbourhood(g, (size_t)w, w, h, edgel_clamp_index(x0 - 1 + col, w),
                                edgel_clamp_index(y0 - 1 + row, h), n);
        l[row][col] = edgel_itk_second_derivative(n);
    }
    __syncthreads();
    const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float gn[9], ln[9];
    edgel_itk_neighbourhood(g, (size_t)w, w, h, x, y, gn);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            ln[3 * i + j] = l[threadIdx.y + i][threadIdx.x + j];
    const float v = edgel_itk_suppressed(gn, ln);
    classes[(size_t)y * w + x] = edgel_itk_class(v, lower, upper);
    if (sup)
        *(float *)((uint8_t *)sup + (size_t)y * sup_pitch + (size_t)x * 4) = v;
}

/* u8 255/0 edges to ITK's float 1/0. */
__global__ void itk_edges_to_float(const uint8_t *in, float *out, size_t out_pitch, int w, int h)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    *(float *)((uint8_t *)out + (size_t)y * out_pitch + (size_t)x * 4) =
        in[(size_t)y * w + x] ? 1.0f : 0.0f;
}

void release_itk_buffers(itk_buffers *b)
{
    cudaFree(b->smoothed);
    cudaFree(b->sup);
    cudaFree(b->classes);
    cudaFree(b->edges);
    memset(b, 0, sizeof *b);
}

static edgel_status ensure_itk_buffers(itk_buffers *b, size_t px)
{
    if (b->pixels >= px)
        return EDGEL_OK;
    release_itk_buffers(b);
    CUDA_TRY(cudaMalloc(&b->smoothed, px * sizeof(float)));
    CUDA_TRY(cudaMalloc(&b->sup, px * sizeof(float)));
    CUDA_TRY(cudaMalloc(&b->classes, px));
    CUDA_TRY(cudaMalloc(&b->edges, px));
    b->pixels = px;
    return EDGEL_OK;
}

uint8_t *itk_last_classes(edgel_cuda_state *s)
{
    return s->itk ? s->itk->classes : NULL;
}

/* A stage from a packed device buffer into a view (host or device). */
static edgel_status copy_stage(cudaStream_t stream, const edgel_image *view, const float *dev,
                               int w, int h)
{
    if (!view)
        return EDGEL_OK;
    CUDA_TRY(cudaMemcpy2DAsync(view->data, view->pitch, dev, (size_t)w * 4, (size_t)w * 4, h,
                               cudaMemcpyDefault, stream));
    return EDGEL_OK;
}

extern "C" edgel_status edgel_cuda_canny_itk(edgel_cuda_state *s, const edgel_canny_params *p,
                                             const edgel_image *src, const edgel_image *edges,
                                             const edgel_canny_stages *stages)
{
    ON_DEVICE(s->device);
    EDGEL_TRY(check_view_device(s, src, "input"));
    EDGEL_TRY(check_view_device(s, edges, "edges"));
    const int w = src->width, h = src->height;
    const size_t px = (size_t)w * h;
    const frame_call call = frame_call_of(s, src);
    const int on_host = call.on_host;
    cudaStream_t stream = call.stream;
    workspace *ws = call.ws;
    EDGEL_TRY(feature_state(&s->itk, "the itk preset's buffers"));
    itk_buffers *b = s->itk;
    EDGEL_TRY(ensure_itk_buffers(b, px));
    staged_frame f;
    EDGEL_TRY(stage_frame_in(call, src, edges, &f));
    const uint8_t *d_src = f.src;
    const size_t src_pitch = f.src_pitch, edges_pitch = f.dst_pitch;
    uint8_t *d_edges = f.dst;

    itk_taps k;
    k.radius = edgel_itk_gaussian_kernel(p->variance, p->maximum_error, k.c);
    const dim3 block(ITK_TILE_W, ITK_TILE_H);
    const dim3 grid((w + ITK_TILE_W - 1) / ITK_TILE_W, (h + ITK_TILE_H - 1) / ITK_TILE_H);
    const size_t shared = itk_smooth_shared(k.radius);
    float *g = b->smoothed;
    if (src->type == EDGEL_U8)
        itk_smooth<uint8_t><<<grid, block, shared, stream>>>(d_src, src_pitch, g, w, h, k);
    else if (src->type == EDGEL_U16)
        itk_smooth<uint16_t><<<grid, block, shared, stream>>>(d_src, src_pitch, g, w, h, k);
    else
        itk_smooth<float><<<grid, block, shared, stream>>>(d_src, src_pitch, g, w, h, k);

    const edgel_image *sup_view = stages ? stages->suppressed : NULL;
    float *sup = NULL;
    size_t sup_pitch = 0;
    if (sup_view && !on_host) {
        sup = (float *)sup_view->data;
        sup_pitch = sup_view->pitch;
    } else if (sup_view) {
        sup = b->sup;
        sup_pitch = (size_t)w * 4;
    }
    itk_suppress<<<grid, block, 0, stream>>>(b->smoothed, b->classes, sup, sup_pitch, w, h,
                                             (float)p->low_threshold, (float)p->high_threshold);
    CUDA_TRY(cudaGetLastError());

    if (edges->type == EDGEL_U8) {
        EDGEL_TRY(launch_class_hysteresis(stream, ws, b->classes, (size_t)w, d_edges, edges_pitch, w, h));
    } else {
        EDGEL_TRY(launch_class_hysteresis(stream, ws, b->classes, (size_t)w, b->edges, (size_t)w, w, h));
        itk_edges_to_float<<<grid, block, 0, stream>>>(b->edges, (float *)d_edges, edges_pitch,
                                                       w, h);
        CUDA_TRY(cudaGetLastError());
    }
    if (stages) {
        EDGEL_TRY(copy_stage(stream, stages->smoothed, b->smoothed, w, h));
        if (on_host)
            EDGEL_TRY(copy_stage(stream, sup_view, b->sup, w, h));
    }
    return stage_frame_out(call, edges, f);
}
