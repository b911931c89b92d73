/*
 * The skimage preset on the GPU: the CPU's passes (cpu_skimage.c) as kernels of a thread a
 * pixel over double images, with the per-pixel functions of src/core/skimage_math.h:
 *   sk_smooth_tile img_as_float of the input and both Gaussian passes with the bleed-over
 *                  division, a tile at a time from shared memory: the smoothed image (with a
 *                  mask or a long kernel: sk_vertical, axis 0 of the masked input and of the
 *                  mask, then sk_horizontal, axis 1 and the bleed-over)
 *   sk_gradient_suppress  ndi.sobel, the magnitude, then non-maximum suppression and the
 *                  classes, a tile at a time on chip (with stages or quantiles, the two
 *                  passes below, through whole images:)
 *   sk_gradient    ndi.sobel along both axes and the magnitude
 *   (quantiles)    the magnitude sorted by CUB, np.percentile's two values, on the device
 *   sk_suppress    non-maximum suppression and the hysteresis classes
 * then the opencv preset's hysteresis on the classes. nvcc runs with --fmad=false and CUDA's
 * double division and sqrt are correctly rounded, so every value equals the CPU's.
 *
 * Host images are copied in and out on the first host slot's stream, which the call then
 * waits for; device images only queue work on the context's stream.
 */
#include "cuda/cuda_internal.h"

#include <cub/device/device_radix_sort.cuh>
#include <string.h>

#include "core/border.h"
#include "core/image.h"
#include "core/params.h"
#include "core/skimage_math.h"

/* The skimage preset's double images, classes, mask copy and sort space, and its Gaussian's
 * weights with a host copy of the last ones uploaded (see cuda_skimage.cu). */
struct skimage_buffers {
    size_t pixels;
    double *a, *b, *c, *d, *e;
    uint8_t *classes, *mask;
    void *sort_tmp;
    size_t sort_bytes;
    double *weights, *host_weights;
    int radius, weight_slots;
    double *ones; /* the ones-mask's passes, two doubles a row (sk_vertical) */
    size_t ones_rows;
};

/* What every kernel reads: the frame's geometry and the Gaussian. */
struct sk_geometry {
    int w, h, r, f32, mode, bleed;
    double cval;
    const double *weights; /* r + 1, centre first (device) */
};

/* The masked input at (x, y) as skimage's float (the type T a constant of the kernel). */
template <edgel_pixel_type T>
static __device__ double sk_input(const uint8_t *src, size_t pitch, const uint8_t *mask,
                                  size_t mask_pitch, int x, int y)
{
    if (mask && !mask[(size_t)y * mask_pitch + x])
        return 0.0;
    return edgel_sk_pixel(src + (size_t)y * pitch, x, T);
}

/* The index a tap at p reads along an axis of n, -1 for cval: no border arithmetic where
 * the whole kernel stays inside (`inside`, the same for a warp's row). */
static __device__ int sk_tap(int p, int n, int mode, bool inside)
{
    return inside ? p : edgel_border_index(p, n, mode);
}

/* Row y of an axis-0 result, or `inside` for every pixel of the row (the ones-mask), with the
 * mode's border along axis 1: correlate1d at x. */
static __device__ double sk_row_pass(const double *row, double inside, int x, const sk_geometry &g)
{
    double p[2];
    const bool in = x >= g.r && x + g.r < g.w;
    int ix = sk_tap(x, g.w, g.mode, in);
    double s = (ix < 0 ? g.cval : row ? row[ix] : inside) * g.weights[0];
    for (int k = g.r; k >= 1; k--) {
        for (int side = 0; side < 2; side++) {
            ix = sk_tap(side ? x + k : x - k, g.w, g.mode, in);
            p[side] = ix < 0 ? g.cval : row ? row[ix] : inside;
        }
        s = edgel_sk_tap(s, p[0], p[1], g.weights[k]);
    }
    return edgel_sk_store(s, g.f32);
}

/* The mask's axis-0 pass without a mask: ones inside, cval outside. */
static __device__ double sk_ones_column(int y, const sk_geometry &g)
{
    double s = 1.0 * g.weights[0];
    for (int k = g.r; k >= 1; k--) {
        const double b = edgel_border_index(y - k, g.h, g.mode) < 0 ? g.cval : 1.0;
        const double a = edgel_border_index(y + k, g.h, g.mode) < 0 ? g.cval : 1.0;
        s = edgel_sk_tap(s, b, a, g.weights[k]);
    }
    return edgel_sk_store(s, g.f32);
}

/* The Gaussian along axis 0 of the masked input into v, and of the mask (0/1) into vm. */
template <edgel_pixel_type T>
__global__ void sk_vertical(const uint8_t *src, size_t pitch, const uint8_t *mask,
                            size_t mask_pitch, double *v, double *vm, sk_geometry g)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= g.w || y >= g.h)
        return;
    const bool inside = y >= g.r && y + g.r < g.h;
    double s = sk_input<T>(src, pitch, mask, mask_pitch, x, y) * g.weights[0];
    double sm = (mask && !mask[(size_t)y * mask_pitch + x] ? 0.0 : 1.0) * g.weights[0];
    for (int k = g.r; k >= 1; k--) {
        const int yb = sk_tap(y - k, g.h, g.mode, inside);
        const int ya = sk_tap(y + k, g.h, g.mode, inside);
        const double b = yb < 0 ? g.cval : sk_input<T>(src, pitch, mask, mask_pitch, x, yb);
        const double a = ya < 0 ? g.cval : sk_input<T>(src, pitch, mask, mask_pitch, x, ya);
        s = edgel_sk_tap(s, b, a, g.weights[k]);
        if (mask) {
            const double mb = yb < 0 ? g.cval : mask[(size_t)yb * mask_pitch + x] ? 1.0 : 0.0;
            const double ma = ya < 0 ? g.cval : mask[(size_t)ya * mask_pitch + x] ? 1.0 : 0.0;
            sm = edgel_sk_tap(sm, mb, ma, g.weights[k]);
        }
    }
    const size_t i = (size_t)y * g.w + x;
    v[i] = edgel_sk_store(s, g.f32);
    if (mask)
        vm[i] = edgel_sk_store(sm, g.f32);
}

/* The Gaussian along axis 1 and the bleed-over division: the smoothed image into s. */
__global__ void sk_horizontal(const double *v, const double *vm, const double *ones, double *s,
                              sk_geometry g)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= g.w || y >= g.h)
        return;
    const size_t row = (size_t)y * g.w;
    double out = sk_row_pass(v + row, 0.0, x, g);
    if (g.bleed) {
        const double m = !ones ? sk_row_pass(vm + row, 0.0, x, g)
                         : x >= g.r && x < g.w - g.r ? ones[g.h + y]
                                                     : sk_row_pass(NULL, ones[y], x, g);
        out = edgel_sk_bleed(out, m, g.f32 ? (double)FLT_EPSILON : DBL_EPSILON, g.f32);
    }
    s[row + x] = out;
}

/* Without a mask, the ones-mask's passes a row (for the bleed-over): ones[y] along axis 0,
 * ones[h + y] along axis 1 where no tap leaves the row. */
__global__ void sk_ones(double *ones, sk_geometry g)
{
    const int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= g.h)
        return;
    ones[y] = sk_ones_column(y, g);
    if (g.w > 2 * g.r)
        ones[g.h + y] = sk_row_pass(NULL, ones[y], g.r, g);
}

/* Both Gaussian passes and the bleed-over of a SK_TILE x SK_TILE tile without a mask, from
 * shared memory: the input tile with its halo converted once (row by = the mode's row, cval
 * outside), the axis-0 pass of its rows, then axis 1 (halo columns outside the image: cval,
 * as scipy pads the axis-0 result), each value stored as sk_vertical and sk_horizontal store
 * it. Block (32, 8); r <= SK_TILE_R. */
#define SK_TILE 32
#define SK_TILE_R 12
template <edgel_pixel_type T>
__global__ void __launch_bounds__(256) sk_smooth_tile(const uint8_t *src, size_t pitch,
                                                      const double *ones, double *out,
                                                      sk_geometry g)
{
    extern __shared__ double sk_shared[];
    const int r = g.r, side = SK_TILE + 2 * r;
    double *in = sk_shared, *vert = sk_shared + (size_t)side * side; /* side^2, 32 x side */
    const int x0 = blockIdx.x * SK_TILE, y0 = blockIdx.y * SK_TILE;
    /* (loops of rows and columns, no division; the border's arithmetic only near a side) */
    const bool inside = x0 >= r && y0 >= r && x0 + SK_TILE + r <= g.w && y0 + SK_TILE + r <= g.h;
    for (int ix = threadIdx.x; ix < side; ix += blockDim.x) {
        const int bx = inside ? x0 - r + ix : edgel_border_index(x0 - r + ix, g.w, g.mode);
        for (int iy = threadIdx.y; iy < side; iy += blockDim.y) {
            const int by = inside ? y0 - r + iy : edgel_border_index(y0 - r + iy, g.h, g.mode);
            in[iy * side + ix] =
                by < 0 || bx < 0 ? g.cval : edgel_sk_pixel(src + (size_t)by * pitch, bx, T);
        }
    }
    __syncthreads();
    for (int ix = threadIdx.x; ix < side; ix += blockDim.x) {
        const bool cval = !inside && edgel_border_index(x0 - r + ix, g.w, g.mode) < 0;
        for (int ty = threadIdx.y; ty < SK_TILE; ty += blockDim.y) {
            const double *c = in + (ty + r) * side + ix;
            double s = c[0] * g.weights[0];
            for (int k = r; k >= 1; k--)
                s = edgel_sk_tap(s, c[-k * side], c[k * side], g.weights[k]);
            vert[ty * side + ix] = cval ? g.cval : edgel_sk_store(s, g.f32);
        }
    }
    __syncthreads();
    for (int ty = threadIdx.y; ty < SK_TILE; ty += blockDim.y) {
        const int x = x0 + threadIdx.x, y = y0 + ty;
        if (x >= g.w || y >= g.h)
            continue;
        const double *c = vert + (size_t)ty * side + threadIdx.x + r;
        double s = c[0] * g.weights[0];
        for (int k = r; k >= 1; k--)
            s = edgel_sk_tap(s, c[-k], c[k], g.weights[k]);
        s = edgel_sk_store(s, g.f32);
        if (g.bleed) {
            const double m = x >= r && x < g.w - r ? ones[g.h + y]
                                                   : sk_row_pass(NULL, ones[y], x, g);
            s = edgel_sk_bleed(s, m, g.f32 ? (double)FLT_EPSILON : DBL_EPSILON, g.f32);
        }
        out[(size_t)y * g.w + x] = s;
    }
}

/* ndi.sobel along both axes (isobel into gi, jsobel into gj) and the magnitude into m. */
__global__ void sk_gradient(const double *s, double *gi, double *gj, double *m, sk_geometry g)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= g.w || y >= g.h)
        return;
    const int xl = edgel_border_index(x - 1, g.w, EDGEL_BORDER_REFLECT);
    const int xr = edgel_border_index(x + 1, g.w, EDGEL_BORDER_REFLECT);
    const int yu = edgel_border_index(y - 1, g.h, EDGEL_BORDER_REFLECT);
    const int yd = edgel_border_index(y + 1, g.h, EDGEL_BORDER_REFLECT);
    double i, j;
    edgel_sk_gradient(s + (size_t)yu * g.w, s + (size_t)y * g.w, s + (size_t)yd * g.w, xl, x,
                      xr, g.f32, &i, &j);
    const size_t o = (size_t)y * g.w + x;
    gi[o] = i;
    gj[o] = j;
    m[o] = edgel_sk_magnitude(i, j, g.f32);
}

/* np.percentile's two values of the sorted magnitude: NaN where it holds a NaN (sorted to
 * an end, by its sign bit). */
__global__ void sk_quantiles(const double *sorted, size_t n, double ql, double qh, int f32,
                             double *thresholds)
{
    const double q[2] = {ql, qh};
    const int nan = isnan(sorted[0]) || isnan(sorted[n - 1]);
    for (int i = 0; i < 2; i++) {
        size_t below, above;
        const double t = edgel_sk_quantile_index(q[i], n, &below, &above);
        thresholds[i] = nan ? NAN : edgel_sk_quantile_value(sorted[below], sorted[above], t, f32);
    }
}

/* Non-maximum suppression and the classes; the suppressed values into sup when wanted. */
__global__ void sk_suppress(const double *gi, const double *gj, const double *m,
                            const uint8_t *mask, size_t mask_pitch, const double *quantiles,
                            double low, double high, uint8_t *classes, double *sup,
                            sk_geometry g)
{
    if (quantiles) {
        low = quantiles[0];
        high = quantiles[1];
    }
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= g.w || y >= g.h)
        return;
    int inside = x >= 1 && y >= 1 && x < g.w - 1 && y < g.h - 1;
    for (int k = 0; mask && inside && k < 9; k++)
        inside = mask[(size_t)(y + k / 3 - 1) * mask_pitch + x + k % 3 - 1] != 0;
    const size_t o = (size_t)y * g.w + x;
    double kept = 0.0;
    if (inside) {
        double n[9];
        for (int k = 0; k < 9; k++)
            n[k] = m[(size_t)(y + k / 3 - 1) * g.w + x + k % 3 - 1];
        kept = edgel_sk_suppress(gi[o], gj[o], n, edgel_sk_low(low), g.f32);
    }
    classes[o] = edgel_sk_class(kept, edgel_sk_high(high, g.f32, quantiles != NULL));
    if (sup)
        sup[o] = kept;
}

/* sk_gradient and sk_suppress in one pass of a 32x8 tile, for calls that keep neither the
 * gradients nor the magnitude (no stages, no quantiles): the smoothed tile with a halo of 2
 * in shared memory (rows and columns by the 'reflect' border, which is what ndi.sobel reads
 * at the image's sides), the magnitude of the tile and a halo of 1, then each pixel's
 * suppression and class. Block (32, 8). */
#define SK_GX 32
#define SK_GY 8
__global__ void __launch_bounds__(SK_GX * SK_GY)
    sk_gradient_suppress(const double *smoothed, const uint8_t *mask, size_t mask_pitch,
                         float low, double high, uint8_t *classes, sk_geometry g)
{
    __shared__ double s[SK_GY + 4][SK_GX + 4], m[SK_GY + 2][SK_GX + 2];
    __shared__ double gis[SK_GY][SK_GX], gjs[SK_GY][SK_GX]; /* the tile's own gradients */
    const int x0 = blockIdx.x * SK_GX, y0 = blockIdx.y * SK_GY;
    const int tid = threadIdx.y * SK_GX + threadIdx.x;
    const bool inner = x0 >= 2 && y0 >= 2 && x0 + SK_GX + 2 <= g.w && y0 + SK_GY + 2 <= g.h;
    for (int i = tid; i < (SK_GY + 4) * (SK_GX + 4); i += SK_GX * SK_GY) {
        const int iy = i / (SK_GX + 4), ix = i % (SK_GX + 4);
        const int y = y0 - 2 + iy, x = x0 - 2 + ix;
        const int by = inner ? y : edgel_border_index(y, g.h, EDGEL_BORDER_REFLECT);
        const int bx = inner ? x : edgel_border_index(x, g.w, EDGEL_BORDER_REFLECT);
        s[iy][ix] = smoothed[(size_t)by * g.w + bx];
    }
    __syncthreads();
    for (int i = tid; i < (SK_GY + 2) * (SK_GX + 2); i += SK_GX * SK_GY) {
        const int iy = i / (SK_GX + 2), ix = i % (SK_GX + 2);
        double gi, gj;
        edgel_sk_gradient(s[iy], s[iy + 1], s[iy + 2], ix, ix + 1, ix + 2, g.f32, &gi, &gj);
        m[iy][ix] = edgel_sk_magnitude(gi, gj, g.f32);
        if (iy >= 1 && iy <= SK_GY && ix >= 1 && ix <= SK_GX) {
            gis[iy - 1][ix - 1] = gi;
            gjs[iy - 1][ix - 1] = gj;
        }
    }
    __syncthreads();
    const int tx = threadIdx.x, ty = threadIdx.y, x = x0 + tx, y = y0 + ty;
    if (x >= g.w || y >= g.h)
        return;
    int inside = x >= 1 && y >= 1 && x < g.w - 1 && y < g.h - 1;
    for (int k = 0; mask && inside && k < 9; k++)
        inside = mask[(size_t)(y + k / 3 - 1) * mask_pitch + x + k % 3 - 1] != 0;
    double kept = 0.0;
    if (inside) {
        double n[9];
        for (int k = 0; k < 9; k++)
            n[k] = m[ty + k / 3][tx + k % 3];
        kept = edgel_sk_suppress(gis[ty][tx], gjs[ty][tx], n, low, g.f32);
    }
    classes[(size_t)y * g.w + x] = edgel_sk_class(kept, high);
}

/* A double image into a view's row layout as f32 or f64 (device memory). */
__global__ void sk_store_view(const double *in, uint8_t *out, size_t pitch, int f32, int w, int h)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const double v = in[(size_t)y * w + x];
    if (f32)
        ((float *)(out + (size_t)y * pitch))[x] = (float)v;
    else
        ((double *)(out + (size_t)y * pitch))[x] = v;
}

/* u8 255/0 edges to bool 1/0 in place. */
__global__ void sk_edges_to_bool(uint8_t *e, size_t pitch, int w, int h)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        e[(size_t)y * pitch + x] = e[(size_t)y * pitch + x] ? 1 : 0;
}

static void free_images(skimage_buffers *b)
{
    for (double *p : {b->a, b->b, b->c, b->d, b->e})
        cudaFree(p);
    cudaFree(b->classes);
    cudaFree(b->mask);
    cudaFree(b->sort_tmp);
    b->a = b->b = b->c = b->d = b->e = NULL;
    b->classes = b->mask = NULL;
    b->sort_tmp = NULL;
    b->pixels = 0;
}

void release_skimage_buffers(skimage_buffers *b)
{
    free_images(b);
    cudaFree(b->ones);
    cudaFree(b->weights);
    free(b->host_weights);
    memset(b, 0, sizeof *b);
}

static edgel_status ensure_skimage_buffers(skimage_buffers *b, size_t px, int h, int r)
{
    if (b->ones_rows < (size_t)h) {
        cudaFree(b->ones);
        b->ones = NULL;
        b->ones_rows = 0;
        CUDA_TRY(cudaMalloc(&b->ones, 2 * sizeof(double) * (size_t)h));
        b->ones_rows = (size_t)h;
    }
    if (b->pixels < px) {
        free_images(b);
        for (double **p : {&b->a, &b->b, &b->c, &b->d, &b->e})
            CUDA_TRY(cudaMalloc(p, px * sizeof(double)));
        CUDA_TRY(cudaMalloc(&b->classes, px));
        CUDA_TRY(cudaMalloc(&b->mask, px));
        CUDA_TRY(cub::DeviceRadixSort::SortKeys(NULL, b->sort_bytes, (const double *)NULL,
                                                (double *)NULL, (int64_t)px));
        CUDA_TRY(cudaMalloc(&b->sort_tmp, b->sort_bytes));
        b->pixels = px;
    }
    if (b->weight_slots < r + 1) {
        cudaFree(b->weights);
        free(b->host_weights);
        b->weights = NULL;
        b->weight_slots = 0;
        b->host_weights = (double *)malloc(sizeof(double) * (size_t)(r + 1));
        if (!b->host_weights)
            return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a Gaussian kernel");
        CUDA_TRY(cudaMalloc(&b->weights, sizeof(double) * (size_t)(r + 1)));
        b->weight_slots = r + 1;
        b->radius = -1;
    }
    return EDGEL_OK;
}

/* The weights on the device, uploaded only when they differ from the last call's. */
static edgel_status upload_weights(skimage_buffers *b, cudaStream_t stream,
                                   const edgel_canny_params *p, int r)
{
    double *w = (double *)malloc(sizeof(double) * (size_t)(r + 1));
    if (!w)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a Gaussian kernel");
    edgel_status st = edgel_skimage_weights(p, w);
    if (st == EDGEL_OK && (b->radius != r || memcmp(w, b->host_weights, sizeof(double) * (r + 1)))) {
        memcpy(b->host_weights, w, sizeof(double) * (size_t)(r + 1));
        b->radius = r;
        /* from the buffer the context keeps, which stays as it is until the next call */
        const cudaError_t err = cudaMemcpyAsync(b->weights, b->host_weights,
                                                sizeof(double) * (size_t)(r + 1),
                                                cudaMemcpyHostToDevice, stream);
        if (err != cudaSuccess)
            st = edgel_fail(EDGEL_ERROR_DEVICE, "cudaMemcpyAsync: %s", cudaGetErrorString(err));
    }
    free(w);
    return st;
}

/* A stage from a device double image into its view (host views through `scratch`). */
static edgel_status copy_stage(cudaStream_t stream, const edgel_image *view, const double *dev,
                               uint8_t *scratch, int f32, dim3 grid, dim3 block)
{
    if (!view)
        return EDGEL_OK;
    const int w = view->width, h = view->height;
    const size_t row = (size_t)w * (f32 ? 4 : 8);
    const int host = view->memory == EDGEL_MEMORY_HOST;
    sk_store_view<<<grid, block, 0, stream>>>(dev, host ? scratch : (uint8_t *)view->data,
                                              host ? row : view->pitch, f32, w, h);
    CUDA_TRY(cudaGetLastError());
    if (host)
        CUDA_TRY(cudaMemcpy2DAsync(view->data, view->pitch, scratch, row, row, h,
                                   cudaMemcpyDeviceToHost, stream));
    return EDGEL_OK;
}

/* The smoothed image into b->c: without a mask (and r <= SK_TILE_R) both passes from
 * shared memory, else sk_vertical then sk_horizontal through b->a and b->b. */
template <edgel_pixel_type T>
static void smooth(cudaStream_t stream, const uint8_t *src, size_t pitch, const uint8_t *mask,
                   size_t mask_pitch, skimage_buffers *b, double *ones, const sk_geometry &g)
{
    const dim3 block(32, 8);
    if (ones)
        sk_ones<<<(g.h + 127) / 128, 128, 0, stream>>>(ones, g);
    if (!mask && g.r <= SK_TILE_R) {
        const dim3 tiles((g.w + SK_TILE - 1) / SK_TILE, (g.h + SK_TILE - 1) / SK_TILE);
        const size_t side = SK_TILE + 2 * (size_t)g.r;
        sk_smooth_tile<T><<<tiles, block, sizeof(double) * (side * side + SK_TILE * side),
                            stream>>>(src, pitch, ones, b->c, g);
        return;
    }
    const dim3 grid((g.w + 31) / 32, (g.h + 7) / 8);
    sk_vertical<T><<<grid, block, 0, stream>>>(src, pitch, mask, mask_pitch, b->a, b->b, g);
    sk_horizontal<<<grid, block, 0, stream>>>(b->a, b->b, ones, b->c, g);
}

extern "C" edgel_status edgel_cuda_canny_skimage(edgel_cuda_state *s, const edgel_canny_params *p,
                                                 const edgel_image *src, const edgel_image *mask,
                                                 const edgel_image *edges,
                                                 const edgel_canny_stages *stages)
{
    ON_DEVICE(s->device);
    EDGEL_TRY(check_view_device(s, src, "input"));
    EDGEL_TRY(check_view_device(s, edges, "edges"));
    EDGEL_TRY(check_view_device(s, mask, "mask"));
    const int w = src->width, h = src->height;
    const size_t px = (size_t)w * h;
    const frame_call call = frame_call_of(s, src);
    const int on_host = call.on_host;
    cudaStream_t stream = call.stream;
    EDGEL_TRY(feature_state(&s->skimage, "the skimage preset's buffers"));
    skimage_buffers *b = s->skimage;
    const int r = edgel_skimage_radius(p->sigma);
    double low, high;
    EDGEL_TRY(edgel_skimage_thresholds(p, src->type, &low, &high));
    EDGEL_TRY(ensure_skimage_buffers(b, px, h, r));
    EDGEL_TRY(upload_weights(b, stream, p, r));

    staged_frame f;
    EDGEL_TRY(stage_frame_in(call, src, edges, &f));
    const uint8_t *d_src = f.src, *d_mask = NULL;
    const size_t src_pitch = f.src_pitch, edges_pitch = f.dst_pitch;
    size_t mask_pitch = 0;
    uint8_t *d_edges = f.dst;
    if (mask && on_host) {
        CUDA_TRY(cudaMemcpy2DAsync(b->mask, (size_t)w, mask->data, mask->pitch, (size_t)w, h,
                                   cudaMemcpyHostToDevice, stream));
        d_mask = b->mask;
        mask_pitch = (size_t)w;
    } else if (mask) {
        d_mask = (const uint8_t *)mask->data;
        mask_pitch = mask->pitch;
    }

    sk_geometry g = {w, h, r, src->type == EDGEL_F32, (int)p->mode,
                     p->mode == EDGEL_BORDER_CONSTANT || mask != NULL, p->cval, b->weights};
    const dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
    /* a: the axis-0 pass, then isobel; b: the mask's, then jsobel; c: smoothed; d: magnitude;
     * e: the suppressed values and the stages' scratch */
    double *ones = g.bleed && !mask ? b->ones : NULL;
#define SK_SMOOTH(T)                                                                  \
    case T:                                                                           \
        smooth<T>(stream, d_src, src_pitch, d_mask, mask_pitch, b, ones, g);          \
        break
    switch (src->type) {
        SK_SMOOTH(EDGEL_BOOL);
        SK_SMOOTH(EDGEL_U8);
        SK_SMOOTH(EDGEL_U16);
        SK_SMOOTH(EDGEL_S16);
        SK_SMOOTH(EDGEL_S32);
        SK_SMOOTH(EDGEL_F32);
    default:
        smooth<EDGEL_F64>(stream, d_src, src_pitch, d_mask, mask_pitch, b, ones, g);
    }
#undef SK_SMOOTH
    uint8_t *scratch = (uint8_t *)b->e;
    if (!stages && !p->use_quantiles) /* the gradients and the magnitude stay on chip */
        sk_gradient_suppress<<<grid, block, 0, stream>>>(b->c, d_mask, mask_pitch,
                                                         edgel_sk_low(low),
                                                         edgel_sk_high(high, g.f32, 0),
                                                         b->classes, g);
    else
        sk_gradient<<<grid, block, 0, stream>>>(b->c, b->a, b->b, b->d, g);
    CUDA_TRY(cudaGetLastError());
    if (stages)
        EDGEL_TRY(copy_stage(stream, stages->smoothed, b->c, scratch, g.f32, grid, block));

    double *quantiles = NULL; /* on the device: the smoothed image's place, read no more */
    if (p->use_quantiles) {
        size_t bytes = b->sort_bytes;
        CUDA_TRY(cub::DeviceRadixSort::SortKeys(b->sort_tmp, bytes, (const double *)b->d,
                                                b->e, (int64_t)px, 0, 64, stream));
        quantiles = b->c;
        sk_quantiles<<<1, 1, 0, stream>>>(b->e, px, low, high, g.f32, quantiles);
    }
    double *sup = stages && stages->suppressed ? b->e : NULL;
    if (stages || p->use_quantiles)
        sk_suppress<<<grid, block, 0, stream>>>(b->a, b->b, b->d, d_mask, mask_pitch, quantiles,
                                                low, high, b->classes, sup, g);
    CUDA_TRY(cudaGetLastError());
    EDGEL_TRY(launch_class_hysteresis(stream, call.ws, b->classes, (size_t)w, d_edges, edges_pitch,
                                      w, h));
    if (edges->type == EDGEL_BOOL) {
        sk_edges_to_bool<<<grid, block, 0, stream>>>(d_edges, edges_pitch, w, h);
        CUDA_TRY(cudaGetLastError());
    }
    if (stages) { /* one stream: each copy out of a scratch ends before the next fills it */
        EDGEL_TRY(copy_stage(stream, stages->suppressed, b->e, (uint8_t *)b->c, g.f32, grid,
                             block));
        EDGEL_TRY(copy_stage(stream, stages->dy, b->a, scratch, g.f32, grid, block));
        EDGEL_TRY(copy_stage(stream, stages->dx, b->b, scratch, g.f32, grid, block));
        EDGEL_TRY(copy_stage(stream, stages->magnitude, b->d, scratch, g.f32, grid, block));
    }
    return stage_frame_out(call, edges, f);
}
