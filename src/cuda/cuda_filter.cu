/*
 * The convolution engine on the GPU. Direct: 32x64 output tiles, the input tile with its
 * margin and the taps in shared memory, eight outputs per thread; each output sums its taps
 * in the CPU's order with fmaf, so the GPU gives the CPU's floats. Separable: a row pass and
 * a column pass, in the same order as the CPU (in fixed point where the plan says so, see
 * cuda_fixed_filter.cu). FFT: the border-extended image zero-padded to
 * a cuFFT-friendly size, R2C, times the kernel spectrum's conjugate, C2R; plans are kept for
 * the last few sizes.
 *
 * Host images are copied in and out on the first host slot's stream, which the call then
 * waits for; device images only queue work on the context's stream (new taps go up from a
 * pinned ring, see filter_buffers).
 */
#include "cuda/cuda_internal.h"

#include "cuda/cuda_cufft.h"
#include <string.h>

#include "core/border.h"
#include "core/filter.h"
#include "core/filter_math.h"
#include "core/image.h"

#define FT 32     /* output tile width of the direct kernel (blockDim.x) */
#define FTH 64    /* its height */
#define FROWS 8   /* its blockDim.y: each thread takes FTH / FROWS rows */
#define TAPS_MAX (EDGEL_MAX_KERNEL_SIZE * EDGEL_MAX_KERNEL_SIZE)

struct filter_geometry {
    int w, h, cn, kw, kh, ax, ay, border;
    float border_value;
    const uint8_t *src;
    size_t src_pitch;
    uint8_t *dst;
    size_t dst_pitch;
    int in_u8, out_u8;
};

/* Channel c of source pixel (x, y), the border applied. */
__device__ __forceinline__ float source(const filter_geometry &g, int x, int y, int c)
{
    const int sx = edgel_border_index(x, g.w, g.border), sy = edgel_border_index(y, g.h, g.border);
    if (sx < 0 || sy < 0)
        return g.border_value;
    const uint8_t *row = g.src + (size_t)sy * g.src_pitch;
    return g.in_u8 ? (float)row[sx * g.cn + c] : ((const float *)row)[sx * g.cn + c];
}

__device__ __forceinline__ void store(const filter_geometry &g, int x, int y, int c, float v)
{
    uint8_t *row = g.dst + (size_t)y * g.dst_pitch;
    if (g.out_u8)
        row[x * g.cn + c] = edgel_filter_store_u8(v);
    else
        ((float *)row)[x * g.cn + c] = edgel_filter_store_f32(v);
}

__global__ void filter_direct(filter_geometry g, const float *taps)
{
    extern __shared__ float smem[];
    const int tw = FT + g.kw - 1, th = FTH + g.kh - 1, ntaps = g.kw * g.kh;
    float *in = smem, *k = smem + tw * th;
    const int x0 = blockIdx.x * FT, y0 = blockIdx.y * FTH, c = blockIdx.z;
    const int tid = threadIdx.y * FT + threadIdx.x, nt = FT * FROWS;
    for (int i = tid; i < tw * th; i += nt) {
        const int r = i / tw, q = i - r * tw;
        in[i] = source(g, x0 + q - g.ax, y0 + r - g.ay, c);
    }
    for (int i = tid; i < ntaps; i += nt)
        k[i] = taps[i];
    __syncthreads();
    float acc[FTH / FROWS] = {};
    for (int j = 0; j < g.kh; j++)
        for (int i = 0; i < g.kw; i++) {
            const float f = k[j * g.kw + i];
            if (f == 0.0f) /* the same for every thread: no divergence */
                continue;
            const float *col = in + (threadIdx.y + j) * tw + threadIdx.x + i;
#pragma unroll
            for (int q = 0; q < FTH / FROWS; q++)
                acc[q] = fmaf(f, col[q * FROWS * tw], acc[q]);
        }
    const int x = x0 + threadIdx.x;
#pragma unroll
    for (int q = 0; q < FTH / FROWS; q++) {
        const int y = y0 + threadIdx.y + q * FROWS;
        if (x < g.w && y < g.h)
            store(g, x, y, c, acc[q]);
    }
}

/* Row pass: rows[y][x * cn + c] for y in [0, h], row h being a constant border row. */
__global__ void filter_rows(filter_geometry g, const float *kx, float *rows)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, c = blockIdx.z;
    if (x >= g.w)
        return;
    float s = 0.0f;
    for (int i = 0; i < g.kw; i++) {
        const float v = y < g.h ? source(g, x + i - g.ax, y, c) : g.border_value;
        s = fmaf(kx[i], v, s);
    }
    rows[((size_t)y * g.w + x) * g.cn + c] = s;
}

__global__ void filter_columns(filter_geometry g, const float *ky, const float *rows)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, c = blockIdx.z;
    if (x >= g.w)
        return;
    float s = 0.0f;
    for (int j = 0; j < g.kh; j++) {
        const int sy = edgel_border_index(y + j - g.ay, g.h, g.border);
        s = fmaf(ky[j], rows[((size_t)(sy < 0 ? g.h : sy) * g.w + x) * g.cn + c], s);
    }
    store(g, x, y, c, s);
}

/* FFT: channel c of the extended image into the zero-padded grid (rows x cols). */
__global__ void fft_load(filter_geometry g, float *real, int rows, int cols, int c)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= cols)
        return;
    const bool inside = x < g.w + g.kw - 1 && y < g.h + g.kh - 1;
    real[(size_t)y * cols + x] = inside ? source(g, x - g.ax, y - g.ay, c) : 0.0f;
}

__global__ void fft_load_taps(const float *taps, int kw, int kh, float *real, int rows, int cols)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < cols)
        real[(size_t)y * cols + x] = x < kw && y < kh ? taps[y * kw + x] : 0.0f;
}

/* spec *= conj(kspec) / n: the correlation theorem, with cuFFT's missing normalisation. */
__global__ void fft_multiply(cufftComplex *spec, const cufftComplex *kspec, size_t count, float n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const cufftComplex a = spec[i], b = kspec[i];
    spec[i].x = (a.x * b.x + a.y * b.y) / n;
    spec[i].y = (a.y * b.x - a.x * b.y) / n;
}

__global__ void fft_store(filter_geometry g, const float *real, int cols, int c)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < g.w)
        store(g, x, y, c, real[(size_t)y * cols + x]);
}

void free_filter_buffers(filter_buffers *b)
{
    for (int i = 0; i < FILTER_SLOTS; i++) {
        cudaFree(b->taps[i]);
        cudaFreeHost(b->pinned[i]);
        if (b->done[i])
            cudaEventDestroy(b->done[i]);
    }
    cudaFree(b->rows);
    cudaFree(b->real);
    cudaFree(b->spec);
    cudaFree(b->kspec);
    for (int i = 0; i < FFT_PLANS; i++)
        if (b->plans[i].rows) { /* (plans exist only where cuFFT was loaded) */
            edgel_cufft()->destroy(b->plans[i].fwd);
            edgel_cufft()->destroy(b->plans[i].inv);
        }
    memset(b, 0, sizeof *b);
}

/* The plan's taps, kx, ky (and sizes) as laid out in a slot. */
static void pack_taps(const edgel_filter_plan *p, float *out)
{
    memcpy(out, p->taps, sizeof(float) * (size_t)p->kw * p->kh);
    if (p->kx) {
        memcpy(out + TAPS_MAX, p->kx, sizeof(float) * (size_t)p->kw);
        memcpy(out + 2 * TAPS_MAX, p->ky, sizeof(float) * (size_t)p->kh);
    }
    out[3 * TAPS_MAX] = (float)p->kw;
    out[3 * TAPS_MAX + 1] = (float)p->kh;
    out[3 * TAPS_MAX + 2] = p->kx ? 1.0f : 0.0f;
}

#define SLOT_FLOATS (3 * TAPS_MAX + 3)

/* Makes b->taps[b->slot] hold the plan's taps, uploading only when they changed. */
static edgel_status upload_taps(filter_buffers *b, const edgel_filter_plan *p, cudaStream_t stream)
{
    if (!b->taps[0]) {
        for (int i = 0; i < FILTER_SLOTS; i++) {
            CUDA_TRY(cudaMalloc(&b->taps[i], SLOT_FLOATS * sizeof(float)));
            CUDA_TRY(cudaMallocHost(&b->pinned[i], SLOT_FLOATS * sizeof(float)));
            CUDA_TRY(cudaEventCreateWithFlags(&b->done[i], cudaEventDisableTiming));
        }
    }
    if (b->version) { /* the previous call's taps, still in their slot's pinned copy? */
        const float *cur = b->pinned[b->slot];
        const size_t n = (size_t)p->kw * p->kh;
        if (cur[3 * TAPS_MAX] == (float)p->kw && cur[3 * TAPS_MAX + 1] == (float)p->kh &&
            cur[3 * TAPS_MAX + 2] == (p->kx ? 1.0f : 0.0f) &&
            !memcmp(cur, p->taps, n * sizeof(float)) &&
            (!p->kx || (!memcmp(cur + TAPS_MAX, p->kx, sizeof(float) * (size_t)p->kw) &&
                        !memcmp(cur + 2 * TAPS_MAX, p->ky, sizeof(float) * (size_t)p->kh))))
            return EDGEL_OK;
    }
    const int next = (b->slot + 1) % FILTER_SLOTS;
    CUDA_TRY(cudaEventSynchronize(b->done[next])); /* its last user has finished */
    pack_taps(p, b->pinned[next]);
    CUDA_TRY(cudaMemcpyAsync(b->taps[next], b->pinned[next], SLOT_FLOATS * sizeof(float),
                             cudaMemcpyHostToDevice, stream));
    b->slot = next;
    b->version++;
    return EDGEL_OK;
}

static edgel_status run_direct(const filter_geometry &g, const float *taps, cudaStream_t stream)
{
    const size_t shared = sizeof(float) * ((size_t)(FT + g.kw - 1) * (FTH + g.kh - 1) +
                                           (size_t)g.kw * g.kh);
    if (shared > 48 * 1024) /* large kernels: opt in, for the current device, each time */
        CUDA_TRY(cudaFuncSetAttribute(filter_direct, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)shared));
    const dim3 grid((g.w + FT - 1) / FT, (g.h + FTH - 1) / FTH, g.cn);
    filter_direct<<<grid, dim3(FT, FROWS), shared, stream>>>(g, taps);
    return EDGEL_OK;
}

/* b->rows with room for `bytes`. */
static edgel_status ensure_rows(filter_buffers *b, size_t bytes)
{
    if (b->rows_bytes < bytes) {
        cudaFree(b->rows);
        b->rows = NULL;
        b->rows_bytes = 0;
        CUDA_TRY(cudaMalloc(&b->rows, bytes));
        b->rows_bytes = bytes;
    }
    return EDGEL_OK;
}

static edgel_status run_separable(filter_buffers *b, const filter_geometry &g, cudaStream_t stream)
{
    EDGEL_TRY(ensure_rows(b, sizeof(float) * (size_t)g.w * (g.h + 1) * g.cn));
    const int bx = (g.w + 127) / 128;
    const float *taps = b->taps[b->slot];
    filter_rows<<<dim3(bx, g.h + 1, g.cn), 128, 0, stream>>>(g, taps + TAPS_MAX, b->rows);
    filter_columns<<<dim3(bx, g.h, g.cn), 128, 0, stream>>>(g, taps + 2 * TAPS_MAX, b->rows);
    return EDGEL_OK;
}

/* The separable method in fixed point (cuda_fixed_filter.cu), as a batch of one frame. */
static edgel_status run_fixed(filter_buffers *b, const filter_geometry &g,
                              const edgel_filter_plan *p, cudaStream_t stream)
{
    EDGEL_TRY(ensure_rows(b, sizeof(uint16_t) * (size_t)g.w * g.h * g.cn));
    frame_table frames;
    frames.src[0] = g.src;
    frames.dst[0] = g.dst;
    frames.src_pitch = g.src_pitch;
    frames.dst_pitch = g.dst_pitch;
    return launch_fixed_filter(stream, frames, 1, p, (uint16_t *)b->rows, 0);
}

#define CUFFT_TRY(call)                                                                 \
    do {                                                                                \
        cufftResult r_ = (call);                                                        \
        if (r_ != CUFFT_SUCCESS)                                                        \
            return edgel_fail(EDGEL_ERROR_DEVICE, "%s: cuFFT error %d", #call, (int)r_); \
    } while (0)

/* The plans for rows x cols: kept from an earlier call, or made in place of the least
 * recently used (making a plan allocates and so synchronises; keeping a few avoids that when
 * calls alternate between sizes). */
static edgel_status fft_plans_for(const cufft_api *fft, filter_buffers *b, int rows, int cols,
                                  cufftHandle *fwd, cufftHandle *inv)
{
    b->calls++;
    int slot = 0;
    for (int i = 0; i < FFT_PLANS; i++) {
        if (b->plans[i].rows == rows && b->plans[i].cols == cols) {
            b->plans[i].used = b->calls;
            *fwd = b->plans[i].fwd;
            *inv = b->plans[i].inv;
            return EDGEL_OK;
        }
        if (b->plans[i].used < b->plans[slot].used)
            slot = i;
    }
    struct filter_buffers::fft_plans *e = &b->plans[slot];
    if (e->rows) {
        fft->destroy(e->fwd);
        fft->destroy(e->inv);
        e->rows = 0;
    }
    cufftHandle f, i;
    CUFFT_TRY(fft->plan2d(&f, rows, cols, CUFFT_R2C));
    if (fft->plan2d(&i, rows, cols, CUFFT_C2R) != CUFFT_SUCCESS) {
        fft->destroy(f);
        return edgel_fail(EDGEL_ERROR_DEVICE, "cuFFT: no %dx%d C2R plan", cols, rows);
    }
    e->rows = rows;
    e->cols = cols;
    e->fwd = *fwd = f;
    e->inv = *inv = i;
    e->used = b->calls;
    return EDGEL_OK;
}

static edgel_status run_fft(filter_buffers *b, const filter_geometry &g, cudaStream_t stream)
{
    const cufft_api *fft = edgel_cufft();
    if (!fft)
        return edgel_fail(EDGEL_ERROR_BACKEND_UNAVAILABLE,
                          "the FFT method needs cuFFT (libcufft.so.12), which was not found: "
                          "install the CUDA toolkit's cuFFT or pip install nvidia-cufft");
    const int rows = edgel_fft_size(g.h + g.kh - 1);
    const int cols = 2 * ((edgel_fft_size(g.w + g.kw - 1) + 1) / 2);
    const int half = cols / 2 + 1;
    const size_t cells = (size_t)rows * 2 * half; /* spectra hold rows x half complex values */
    if (b->fft_cells < cells) {
        cudaFree(b->real);
        cudaFree(b->spec);
        cudaFree(b->kspec);
        b->real = NULL;
        b->spec = b->kspec = NULL;
        b->fft_cells = 0;
        b->kspec_version = 0;
        CUDA_TRY(cudaMalloc(&b->real, sizeof(float) * cells));
        CUDA_TRY(cudaMalloc(&b->spec, sizeof(float) * cells));
        CUDA_TRY(cudaMalloc(&b->kspec, sizeof(float) * cells));
        b->fft_cells = cells;
    }
    cufftHandle fwd = 0, inv = 0;
    EDGEL_TRY(fft_plans_for(fft, b, rows, cols, &fwd, &inv));
    CUFFT_TRY(fft->set_stream(fwd, stream));
    CUFFT_TRY(fft->set_stream(inv, stream));
    const dim3 grid((cols + 127) / 128, rows);
    const size_t count = (size_t)rows * half;
    if (b->kspec_version != b->version || b->kspec_rows != rows || b->kspec_cols != cols) {
        /* the kernel's spectrum, once per kernel and size */
        fft_load_taps<<<grid, 128, 0, stream>>>(b->taps[b->slot], g.kw, g.kh, b->real, rows, cols);
        CUFFT_TRY(fft->exec_r2c(fwd, b->real, (cufftComplex *)b->kspec));
        b->kspec_version = b->version;
        b->kspec_rows = rows;
        b->kspec_cols = cols;
    }
    for (int c = 0; c < g.cn; c++) {
        fft_load<<<grid, 128, 0, stream>>>(g, b->real, rows, cols, c);
        CUFFT_TRY(fft->exec_r2c(fwd, b->real, (cufftComplex *)b->spec));
        fft_multiply<<<(unsigned)((count + 255) / 256), 256, 0, stream>>>(
            (cufftComplex *)b->spec, (const cufftComplex *)b->kspec, count, (float)rows * cols);
        CUFFT_TRY(fft->exec_c2r(inv, (cufftComplex *)b->spec, b->real));
        fft_store<<<dim3((g.w + 127) / 128, g.h), 128, 0, stream>>>(g, b->real, cols, c);
    }
    return EDGEL_OK;
}
extern "C" edgel_status edgel_cuda_filter(edgel_cuda_state *s, const edgel_filter_plan *p,
                                          const edgel_image *src, const edgel_image *dst)
{
    ON_DEVICE(s->device);
    const int on_host = src->memory == EDGEL_MEMORY_HOST;
    cudaStream_t stream = on_host ? s->slots[0].stream : s->stream;
    host_slot *slot = &s->slots[0];
    filter_geometry g;
    g.w = p->w, g.h = p->h, g.cn = p->cn, g.kw = p->kw, g.kh = p->kh, g.ax = p->ax, g.ay = p->ay;
    g.border = p->border;
    g.border_value = p->border_value;
    g.in_u8 = p->in_type == EDGEL_U8;
    g.out_u8 = p->out_type == EDGEL_U8;
    g.src = (const uint8_t *)src->data;
    g.src_pitch = src->pitch;
    g.dst = (uint8_t *)dst->data;
    g.dst_pitch = dst->pitch;
    const size_t in_row = edgel_row_bytes(src), out_row = edgel_row_bytes(dst);
    if (on_host) {
        EDGEL_TRY(ensure_slot(slot, in_row * p->h, out_row * p->h));
        CUDA_TRY(cudaMemcpy2DAsync(slot->d_in, in_row, src->data, src->pitch, in_row, p->h,
                                   cudaMemcpyHostToDevice, stream));
        g.src = slot->d_in;
        g.src_pitch = in_row;
        g.dst = slot->d_out;
        g.dst_pitch = out_row;
    }
    filter_buffers *b = &s->filter;
    EDGEL_TRY(upload_taps(b, p, stream));
    if (p->method == EDGEL_CONV_DIRECT)
        EDGEL_TRY(run_direct(g, b->taps[b->slot], stream));
    else if (p->method == EDGEL_CONV_SEPARABLE && p->fixed_point)
        EDGEL_TRY(run_fixed(b, g, p, stream));
    else if (p->method == EDGEL_CONV_SEPARABLE)
        EDGEL_TRY(run_separable(b, g, stream));
    else
        EDGEL_TRY(run_fft(b, g, stream));
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaEventRecord(b->done[b->slot], stream));
    if (on_host) {
        CUDA_TRY(cudaMemcpy2DAsync(dst->data, dst->pitch, slot->d_out, out_row, out_row, p->h,
                                   cudaMemcpyDeviceToHost, stream));
        CUDA_TRY(cudaStreamSynchronize(stream));
    }
    return EDGEL_OK;
}
