/*
 * The convolution engine on the GPU. Direct: 32x64 output tiles, the input tile with its
 * margin and the taps in shared memory, eight outputs per thread; each output sums its taps
 * in the CPU's order with fmaf, so the GPU gives the CPU's floats. Separable: a row pass and
 * a column pass, in the same order as the CPU (in fixed point where the plan says so, see
 * cuda_fixed_filter.cu). FFT: overlap-save tiles of the border-extended image, power-of-two
 * grids in one batch, R2C, times one tile's kernel spectrum's conjugate, C2R; with cuFFT's
 * callbacks (lto/cuda_fft_callbacks.cu) the tiles are read from the image, multiplied and
 * stored inside cuFFT's own kernels, else by three passes of their own. Plans are kept for the
 * last few tilings.
 *
 * Host images are copied in and out on the first host slot's stream, which the call then
 * waits for; device images only queue work on the context's stream (new taps go up from a
 * pinned ring, see filter_buffers).
 */
#include "cuda/cuda_internal.h"

#include "cuda/cuda_filter_pixels.cuh"
#include "cuda/lto/cuda_fft_callbacks_lto.h" /* made by CMakeLists.txt in the build tree */

#include "cuda/cuda_cufft.h"
#include <stdlib.h>
#include <string.h>

#include "core/border.h"
#include "core/filter.h"
#include "core/filter_math.h"
#include "core/image.h"

/* The convolution engine's device memory (see cuda_filter.cu). Taps (taps, kx, ky) live in
 * a ring of FILTER_SLOTS device buffers filled from pinned ones, so that an upload waits only
 * for the call that used its slot FILTER_SLOTS calls earlier; a call with the taps of the
 * previous call uploads nothing. Also: row-pass results, the FFT method's tile grids and
 * spectra, one tile's kernel spectrum of the current taps, and the cuFFT plans of the last
 * few tilings. */
#define FILTER_SLOTS 4
#define FFT_PLANS 3
struct filter_buffers {
    float *taps[FILTER_SLOTS], *pinned[FILTER_SLOTS];
    cudaEvent_t done[FILTER_SLOTS]; /* after the last call that used the slot */
    int slot;                       /* holds the current taps */
    unsigned version;               /* of the current taps; 0: none yet */
    float *rows;                    /* separable row pass */
    size_t rows_bytes;
    float *real;                    /* FFT: a batch of tile grids, their spectra */
    void *spec, *kspec;             /* kspec: one tile's kernel spectrum */
    size_t fft_cells;               /* real values real and spec hold */
    size_t kspec_cells;
    unsigned kspec_version;         /* of the taps in kspec, for kspec_nx x kspec_ny tiles */
    int kspec_nx, kspec_ny;
    void *tiles_info;               /* fft_tiles on the device: the callbacks' caller info */
    struct fft_plans {              /* cuFFT plans of the last FFT_PLANS tilings */
        int nx, ny, batch;          /* nx 0: unused */
        int fused;                  /* fwd and inv carry the callbacks */
        int fwd, inv, kernel;       /* cufftHandle: the batch's R2C and C2R, one tile's R2C */
        unsigned used;              /* call counter when last used */
    } plans[FFT_PLANS];
    unsigned calls;
    int callbacks_failed; /* a plan with callbacks could not be made: plain plans from then on */
    int wanted_nx, wanted_ny, wanted_batch, wanted_calls; /* the tiling whose callbacks the
                                                             last calls wanted, and how many */
};

#define FT 32     /* output tile width of the direct kernel (blockDim.x) */
#define FTH 64    /* its height */
#define FROWS 8   /* its blockDim.y: each thread takes FTH / FROWS rows */
#define TAPS_MAX (EDGEL_MAX_KERNEL_SIZE * EDGEL_MAX_KERNEL_SIZE)

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

/* FFT: one tile's grid of the kernel, taps at the top left times `scale`, zeros elsewhere. */
__global__ void fft_load_taps(const float *taps, int kw, int kh, float scale, float *real, int nx)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < nx)
        real[(size_t)y * nx + x] = x < kw && y < kh ? taps[y * kw + x] * scale : 0.0f;
}

/* The tile passes where cuFFT runs without callbacks: the same per-value functions
 * (cuda_filter_pixels.cuh), each a pass over the batch. */
__global__ void fft_load(fft_tiles t, float *real, unsigned values)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < values)
        real[i] = fft_tile_load(t, i);
}

/* (spectra packed one after the other: tile blockIdx.x) */
__global__ void fft_multiply(fft_tiles t, float2 *spec)
{
    const unsigned i = blockIdx.y * blockDim.x + threadIdx.x;
    float2 *a = spec + (size_t)blockIdx.x * t.spec_cells + i;
    if (i < t.spec_cells)
        *a = fft_tile_multiply(t, i, *a);
}

__global__ void fft_store(fft_tiles t, const float *real, unsigned values)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < values)
        fft_tile_store(t, i, real[i]);
}

/* The callbacks' caller information, written in stream order before each batch. */
__global__ void fft_set_tiles(fft_tiles *info, fft_tiles t) { *info = t; }

void release_filter_buffers(filter_buffers *b)
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
    cudaFree(b->tiles_info);
    for (int i = 0; i < FFT_PLANS; i++)
        if (b->plans[i].nx) { /* (plans exist only where cuFFT was loaded) */
            edgel_cufft()->destroy(b->plans[i].fwd);
            edgel_cufft()->destroy(b->plans[i].inv);
            edgel_cufft()->destroy(b->plans[i].kernel);
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

/* The tile side for n outputs and a kernel of k taps, and the tiles: the power of two whose
 * tiles cover the outputs with the fewest grid values. Without callbacks, from 16 to 1024, the
 * smaller on ties; with them 512 or 128, the larger on ties: with callbacks, cuFFT's tiles of
 * 256 and 1024 are slower than these (bench/bench_fft_gpu.cu). */
static int fft_tile_side(int n, int k, int callbacks, int *tiles)
{
    static const int plain[] = {16, 32, 64, 128, 256, 512, 1024}, linked[] = {512, 128};
    const int *sides = callbacks ? linked : plain;
    const int count = callbacks ? 2 : 7;
    int best = 0;
    long long best_values = 0;
    *tiles = 1;
    for (int i = 0; i < count; i++) {
        const int side = sides[i];
        if (side < k)
            continue;
        const int keep = side - k + 1, t = (int)(((long long)n + keep - 1) / keep);
        if (!best || (long long)t * side < best_values) {
            best = side;
            best_values = (long long)t * side;
            *tiles = t;
        }
    }
    return best;
}

/* Grid values of one batch at most (2^25: 128 MB of tiles and 256 MB of their spectra). */
#define FFT_BATCH_VALUES (1u << 25)

/* How the FFT method cuts an image: tile sides, tiles, tiles a batch. */
struct fft_tiling {
    int nx, ny, tiles_x, tiles_y, batch;
    size_t tiles, values; /* values: of a batch's grids */
};

static fft_tiling fft_tiling_for(int w, int h, int kw, int kh, int callbacks)
{
    fft_tiling t;
    t.nx = fft_tile_side(w, kw, callbacks, &t.tiles_x);
    t.ny = fft_tile_side(h, kh, callbacks, &t.tiles_y);
    t.tiles = (size_t)t.tiles_x * t.tiles_y;
    const size_t grid = (size_t)t.nx * t.ny, most = FFT_BATCH_VALUES / grid;
    t.batch = (int)(t.tiles < most ? t.tiles : most);
    t.values = grid * t.batch;
    return t;
}

/* A channel's time in ns, less the call's launches: per grid value 0.021 ns without callbacks,
 * 0.017 ns with them; grids of under 6M values run partly from L2, for less in proportion.
 * Fitted to both paths forced (EDGEL_CUFFT_CALLBACKS=0/1 in bench_fft_gpu, 1024x1024 to
 * 4096x4096, masks 3x3 to 129x129): it picks the faster path in every cell of 2048 and 4096
 * a side. */
static double fft_time(const fft_tiling &t, int callbacks)
{
    const double values = (double)t.tiles_x * t.nx * t.tiles_y * t.ny;
    const double cached = values < 6e6 ? values / 6e6 : 1.0;
    return values * cached * (callbacks ? 0.017 : 0.021);
}

#define CUFFT_TRY(call)                                                                 \
    do {                                                                                \
        cufftResult r_ = (call);                                                        \
        if (r_ != CUFFT_SUCCESS)                                                        \
            return edgel_fail(EDGEL_ERROR_DEVICE, "%s: cuFFT error %d", #call, (int)r_); \
    } while (0)

/* EDGEL_CUFFT_CALLBACKS: 0 never, 1 always and linked at once (tests); -1 unset: by fft_time. */
static int callbacks_forced(void)
{
    const char *env = getenv("EDGEL_CUFFT_CALLBACKS");
    return env && *env ? strcmp(env, "0") != 0 : -1;
}

/* Whether the FFT method runs with callbacks for these sizes. */
static int callbacks_faster(const cufft_api *fft, int w, int h, int kw, int kh)
{
    if (!fft->create)
        return 0;
    if (callbacks_forced() >= 0)
        return callbacks_forced();
    return fft_time(fft_tiling_for(w, h, kw, kh, 1), 1) <
           fft_time(fft_tiling_for(w, h, kw, kh, 0), 0);
}

/* Whether to link a tiling's callbacks now: at the third call that wants them for this
 * tiling, counted again whenever another tiling wants them (linking takes 60 ms, the
 * process's first over 1 s, which only repeated calls earn back); EDGEL_CUFFT_CALLBACKS=1
 * links at once. */
static int link_now(filter_buffers *b, const fft_tiling &t)
{
    for (int i = 0; i < FFT_PLANS; i++)
        if (b->plans[i].fused && b->plans[i].nx == t.nx && b->plans[i].ny == t.ny &&
            b->plans[i].batch == t.batch)
            return 1; /* linked already */
    if (callbacks_forced() == 1)
        return 1;
    if (b->wanted_nx != t.nx || b->wanted_ny != t.ny || b->wanted_batch != t.batch) {
        b->wanted_nx = t.nx;
        b->wanted_ny = t.ny;
        b->wanted_batch = t.batch;
        b->wanted_calls = 0;
    }
    return ++b->wanted_calls >= 3;
}

/* R2C and C2R plans of `batch` ny x nx grids with the callbacks linked in; 0 where they can't
 * be made (no nvJitLink, a cuFFT without them), which is then not tried again. */
static int make_fused(const cufft_api *fft, filter_buffers *b, int nx, int ny, int batch,
                      cufftHandle *fwd, cufftHandle *inv)
{
    if (!fft->create || b->callbacks_failed)
        return 0;
    cufftHandle f = 0, i = 0;
    int made = 0;
    int n[2] = {ny, nx}, half[2] = {ny, nx / 2 + 1}; /* spectra nx * ny apart (fft_tiles) */
    size_t work = 0;
    void **info = &b->tiles_info;
    const size_t size = sizeof edgel_fft_callbacks_lto;
    const void *lto = edgel_fft_callbacks_lto;
    int ok = fft->create(&f) == CUFFT_SUCCESS && ++made && fft->create(&i) == CUFFT_SUCCESS &&
             ++made &&
             fft->set_jit_callback(f, "edgel_fft_load", lto, size, CUFFT_CB_LD_REAL, info) ==
                 CUFFT_SUCCESS &&
             fft->set_jit_callback(f, "edgel_fft_multiply", lto, size, CUFFT_CB_ST_COMPLEX,
                                   info) == CUFFT_SUCCESS &&
             fft->set_jit_callback(i, "edgel_fft_store", lto, size, CUFFT_CB_ST_REAL, info) ==
                 CUFFT_SUCCESS &&
             fft->make_plan_many(f, 2, n, n, 1, nx * ny, half, 1, nx * ny, CUFFT_R2C, batch,
                                 &work) == CUFFT_SUCCESS &&
             fft->make_plan_many(i, 2, n, half, 1, nx * ny, n, 1, nx * ny, CUFFT_C2R, batch,
                                 &work) == CUFFT_SUCCESS;
    if (!ok) {
        if (made > 0)
            fft->destroy(f);
        if (made > 1)
            fft->destroy(i);
        b->callbacks_failed = 1;
        cudaGetLastError(); /* (a failed link may leave an error behind) */
        return 0;
    }
    *fwd = f;
    *inv = i;
    return 1;
}

/* The plans of a tiling: kept from an earlier call, or made in place of the least recently
 * used (making a plan allocates and so synchronises, and linking callbacks takes longer;
 * keeping a few avoids both when calls alternate between sizes). */
static edgel_status fft_plans_for(const cufft_api *fft, filter_buffers *b, int nx, int ny,
                                  int batch, int fused, struct filter_buffers::fft_plans **out)
{
    b->calls++;
    int slot = 0;
    for (int i = 0; i < FFT_PLANS; i++) {
        struct filter_buffers::fft_plans *e = &b->plans[i];
        if (e->nx == nx && e->ny == ny && e->batch == batch &&
            (e->fused == fused || b->callbacks_failed)) {
            e->used = b->calls;
            *out = e;
            return EDGEL_OK;
        }
        if (e->used < b->plans[slot].used)
            slot = i;
    }
    struct filter_buffers::fft_plans *e = &b->plans[slot];
    if (e->nx) {
        fft->destroy(e->fwd);
        fft->destroy(e->inv);
        fft->destroy(e->kernel);
        e->nx = 0;
    }
    cufftHandle f, i, k;
    CUFFT_TRY(fft->plan2d(&k, ny, nx, CUFFT_R2C));
    e->fused = fused && make_fused(fft, b, nx, ny, batch, &f, &i);
    if (!e->fused) {
        int n[2] = {ny, nx}; /* spectra packed */
        int ok = fft->plan_many(&f, 2, n, NULL, 1, 0, NULL, 1, 0, CUFFT_R2C, batch) ==
                 CUFFT_SUCCESS;
        if (!ok || fft->plan_many(&i, 2, n, NULL, 1, 0, NULL, 1, 0, CUFFT_C2R, batch) !=
                       CUFFT_SUCCESS) {
            if (ok)
                fft->destroy(f);
            fft->destroy(k);
            return edgel_fail(EDGEL_ERROR_DEVICE, "cuFFT: no plans for %d tiles of %dx%d", batch,
                              nx, ny);
        }
    }
    e->nx = nx;
    e->ny = ny;
    e->batch = batch;
    e->fwd = f;
    e->inv = i;
    e->kernel = k;
    e->used = b->calls;
    *out = e;
    return EDGEL_OK;
}

/* The FFT buffers for batches of `values` grid values (and as many complex ones: the
 * callbacks' spectra are nx * ny apart) and one tile's kernel spectrum of `kspec` values. */
static edgel_status fft_buffers(filter_buffers *b, size_t values, size_t kspec)
{
    if (b->fft_cells < values) {
        cudaFree(b->real);
        cudaFree(b->spec);
        b->real = NULL;
        b->spec = NULL;
        b->fft_cells = 0;
        CUDA_TRY(cudaMalloc(&b->real, sizeof(float) * values));
        CUDA_TRY(cudaMalloc(&b->spec, sizeof(float2) * values));
        b->fft_cells = values;
    }
    if (b->kspec_cells < kspec) {
        cudaFree(b->kspec);
        b->kspec = NULL;
        b->kspec_cells = 0;
        b->kspec_version = 0;
        CUDA_TRY(cudaMalloc(&b->kspec, sizeof(float2) * kspec));
        b->kspec_cells = kspec;
    }
    if (!b->tiles_info)
        CUDA_TRY(cudaMalloc(&b->tiles_info, sizeof(fft_tiles)));
    return EDGEL_OK;
}

static edgel_status run_fft(filter_buffers *b, const filter_geometry &g, cudaStream_t stream)
{
    const cufft_api *fft = edgel_cufft();
    if (!fft)
        return edgel_fail(EDGEL_ERROR_BACKEND_UNAVAILABLE,
                          "the FFT method needs cuFFT (libcufft.so.12), which was not found: "
                          "install the CUDA toolkit's cuFFT or pip install nvidia-cufft");
    int callbacks = !b->callbacks_failed && callbacks_faster(fft, g.w, g.h, g.kw, g.kh);
    fft_tiling tiling = fft_tiling_for(g.w, g.h, g.kw, g.kh, callbacks);
    if (callbacks && !link_now(b, tiling))
        tiling = fft_tiling_for(g.w, g.h, g.kw, g.kh, callbacks = 0);
    const int nx = tiling.nx, ny = tiling.ny, batch = tiling.batch;
    const size_t tiles = tiling.tiles, values = tiling.values, grid = (size_t)nx * ny;
    const size_t half = nx / 2 + 1;
    EDGEL_TRY(fft_buffers(b, values, half * ny));
    struct filter_buffers::fft_plans *plans = NULL;
    EDGEL_TRY(fft_plans_for(fft, b, nx, ny, batch, callbacks, &plans));
    fft_tiles t;
    t.tiles_x = tiling.tiles_x;
    CUFFT_TRY(fft->set_stream(plans->fwd, stream));
    CUFFT_TRY(fft->set_stream(plans->inv, stream));
    if (b->kspec_version != b->version || b->kspec_nx != nx || b->kspec_ny != ny) {
        /* one tile's kernel spectrum, divided by nx * ny (a power of two: exactly) */
        CUFFT_TRY(fft->set_stream(plans->kernel, stream));
        fft_load_taps<<<dim3((nx + 127) / 128, ny), 128, 0, stream>>>(
            b->taps[b->slot], g.kw, g.kh, 1.0f / (float)grid, b->real, nx);
        CUFFT_TRY(fft->exec_r2c(plans->kernel, b->real, (cufftComplex *)b->kspec));
        b->kspec_version = b->version;
        b->kspec_nx = nx;
        b->kspec_ny = ny;
    }
    t.g = g;
    t.kspec = (const float2 *)b->kspec;
    t.spec_cells = (unsigned)(half * ny);
    t.nx_log2 = __builtin_ctz((unsigned)nx);
    t.ny_log2 = __builtin_ctz((unsigned)ny);
    t.bx = nx - g.kw + 1;
    t.by = ny - g.kh + 1;
    t.by_tiles_x = fast_divisor_of((unsigned)t.tiles_x);
    float *real = b->real;
    cufftComplex *freq = (cufftComplex *)b->spec;
    const unsigned blocks = (unsigned)((values + 255) / 256);
    for (t.c = 0; t.c < g.cn; t.c++)
        for (size_t first = 0; first < tiles; first += batch) {
            t.tile0 = (unsigned)first;
            if (plans->fused) {
                fft_set_tiles<<<1, 1, 0, stream>>>((fft_tiles *)b->tiles_info, t);
                CUFFT_TRY(fft->exec_r2c(plans->fwd, real, freq));
                CUFFT_TRY(fft->exec_c2r(plans->inv, freq, real));
                continue;
            }
            fft_load<<<blocks, 256, 0, stream>>>(t, real, (unsigned)values);
            CUFFT_TRY(fft->exec_r2c(plans->fwd, real, freq));
            fft_multiply<<<dim3(batch, (t.spec_cells + 255) / 256), 256, 0, stream>>>(
                t, (float2 *)freq);
            CUFFT_TRY(fft->exec_c2r(plans->inv, freq, real));
            fft_store<<<blocks, 256, 0, stream>>>(t, real, (unsigned)values);
        }
    return EDGEL_OK;
}

/* The FFT method's time in nanoseconds less the call's launches, for the cost model
 * (cuda_ops.cu). */
double edgel_cuda_fft_time(const edgel_filter_plan *p)
{
    const cufft_api *fft = edgel_cufft();
    const int callbacks = fft && callbacks_faster(fft, p->w, p->h, p->kw, p->kh);
    return p->cn * fft_time(fft_tiling_for(p->w, p->h, p->kw, p->kh, callbacks), callbacks);
}

extern "C" edgel_status edgel_cuda_filter(edgel_cuda_state *s, const edgel_filter_plan *p,
                                          const edgel_image *src, const edgel_image *dst)
{
    ON_DEVICE(s->device);
    const frame_call call = frame_call_of(s, src);
    cudaStream_t stream = call.stream;
    filter_geometry g;
    g.w = p->w, g.h = p->h, g.cn = p->cn, g.kw = p->kw, g.kh = p->kh, g.ax = p->ax, g.ay = p->ay;
    g.border = p->border;
    g.border_value = p->border_value;
    g.in_u8 = p->in_type == EDGEL_U8;
    g.out_u8 = p->out_type == EDGEL_U8;
    staged_frame f;
    EDGEL_TRY(stage_frame_in(call, src, dst, &f));
    g.src = f.src;
    g.src_pitch = f.src_pitch;
    g.dst = f.dst;
    g.dst_pitch = f.dst_pitch;
    EDGEL_TRY(feature_state(&s->filter, "the convolution engine's buffers"));
    filter_buffers *b = s->filter;
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
    return stage_frame_out(call, dst, f);
}
