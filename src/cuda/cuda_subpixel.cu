/*
 * The Canny/Devernay sub-pixel detector on the GPU (edgel_subpixel_edges on a CUDA context):
 * the blur, the gradient, the edge points, their numbering in the reference's order (column
 * by column, down each column) and each point's best neighbours run on the device, each value
 * with the CPU's expression (core/subpixel_math.h; doubles, no fused multiply-adds, IEEE
 * division and square root), so every point is the CPU's bit for bit. The links, hysteresis
 * and curves then run on the device too (cuda_subpixel_chain.cu), or, for a low threshold
 * above the high one, on the host's cores over the points (core/subpixel_chain.c).
 */
#include <cub/cub.cuh>

#include "cuda/cuda_subpixel.cuh"

#include "core/host_pool.h"
#include "core/curves.h"
#include "core/image.h"
#include "core/subpixel_chain.h"
#include "core/subpixel_math.h"

#include <stdlib.h>
#include <string.h>

namespace {

constexpr int COUNT_ROWS = 16; /* rows of one column a counting thread walks */
constexpr int BLOCK = 256;
constexpr int TILE = 32; /* the axes' and placing's tiles: TILE x TILE pixels, a warp a column */
constexpr int TILE_WARPS = 8;
constexpr int HALO = 2;    /* a point's offset reads moduli one pixel away, each two pixels */
constexpr int SPAN = TILE + 2 * HALO, PITCH = SPAN + 1; /* (a padded row: fewer bank conflicts) */
static_assert(TILE == 32 && TILE % COUNT_ROWS == 0, "a warp's lanes cover whole counting chunks");

/* y over the grid's rows (a frame may be taller than the grid allows). */
#define FOR_ROWS(y, h) for (int y = blockIdx.y; y < (h); y += gridDim.y)

dim3 pixel_grid(int w, int h)
{
    return dim3((unsigned)((w + BLOCK - 1) / BLOCK), (unsigned)(h < 65535 ? h : 65535));
}

/* A block a tile (TILE x TILE pixels; tiles beyond the grid's rows taken by its blocks). */
dim3 tile_grid(int w, int h)
{
    const int rows = (h + TILE - 1) / TILE;
    return dim3((unsigned)((w + TILE - 1) / TILE), (unsigned)(rows < 65535 ? rows : 65535));
}

__global__ void sp_convert(const uint8_t *src, size_t pitch, edgel_pixel_type type, int w, int h,
                           double *out)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w)
        return;
    FOR_ROWS(y, h)
    {
        const uint8_t *row = src + (size_t)y * pitch;
        double v;
        switch (type) {
        case EDGEL_U8: v = row[x]; break;
        case EDGEL_U16: v = ((const uint16_t *)row)[x]; break;
        case EDGEL_F32: v = ((const float *)row)[x]; break;
        default: v = ((const double *)row)[x]; break;
        }
        out[(size_t)y * w + x] = v;
    }
}

/* The blur along x (rows' pass), read from the source's pixels of type T (exact as doubles),
 * then along y: each output sums its taps in order from 0.0, as the CPU's. */
template <typename T>
__global__ void sp_blur_rows(const uint8_t *src, size_t pitch, double *out, int w, int h,
                             const double *k, int r)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w)
        return;
    FOR_ROWS(y, h)
    {
        const T *row = (const T *)(src + (size_t)y * pitch);
        double s = 0.0;
        if (x >= r && x + r < w)
            for (int i = 0; i <= 2 * r; i++)
                s += (double)row[x + i - r] * k[i];
        else
            for (int i = 0; i <= 2 * r; i++)
                s += (double)row[edgel_subpixel_mirror((long long)x + i - r, w)] * k[i];
        out[(size_t)y * w + x] = s;
    }
}

__global__ void sp_blur_columns(const double *in, double *out, int w, int h, const double *k,
                                int r)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w)
        return;
    FOR_ROWS(y, h)
    {
        double s = 0.0;
        if (y >= r && y + r < h)
            for (int i = 0; i <= 2 * r; i++)
                s += in[(size_t)(y + i - r) * w + x] * k[i];
        else
            for (int i = 0; i <= 2 * r; i++)
                s += in[(size_t)edgel_subpixel_mirror((long long)y + i - r, h) * w + x] * k[i];
        out[(size_t)y * w + x] = s;
    }
}

/* The centred differences at an inside pixel, and their modulus. */
__device__ double modulus_at(const double *im, int w, int x, int y, double *gx, double *gy)
{
    const double *row = im + (ptrdiff_t)y * w;
    const double dx = row[x + 1] - row[x - 1], dy = row[x + w] - row[x - w];
    *gx = dx, *gy = dy;
    return sqrt(dx * dx + dy * dy);
}

/* The tile at (x0, y0) and its halo into shared memory (0 outside the image), by the block's
 * threads (`at`: the thread's number) */
__device__ void load_tile(double *tile, const double *im, int w, int h, int x0, int y0, int at)
{
    for (int i = at; i < SPAN * SPAN; i += TILE * TILE_WARPS) {
        const int ty = i / SPAN, tx = i % SPAN, x = x0 - HALO + tx, y = y0 - HALO + ty;
        tile[ty * PITCH + tx] = x >= 0 && x < w && y >= 0 && y < h ? im[(size_t)y * w + x] : 0.0;
    }
}

/* The lanes whose rows share lane's counting chunk (the tile's rows start a chunk). */
__device__ unsigned chunk_lanes(int lane)
{
    return ((1u << COUNT_ROWS) - 1) << (lane / COUNT_ROWS * COUNT_ROWS);
}

/* The edge point's axis at every pixel (0 in the two-pixel ring), and the points of each
 * column's chunks of COUNT_ROWS rows. A tile's moduli (and its one-pixel ring's) are computed
 * once into shared memory; warp j takes columns j, j + 8, ..., one lane a row. */
__global__ void __launch_bounds__(TILE * TILE_WARPS)
    sp_axes(const double *im, int w, int h, int chunks, uint8_t *axis, int32_t *counts)
{
    constexpr int M = TILE + 2; /* the moduli: the tile and a ring of one pixel */
    __shared__ double tile[SPAN * PITCH];
    __shared__ double mods[M][M + 1];
    __shared__ uint8_t axes[TILE][TILE + 1];
    const int lane = threadIdx.x, warp = threadIdx.y, at = warp * TILE + lane;
    const int x0 = blockIdx.x * TILE;
    for (int y0 = blockIdx.y * TILE; y0 < h; y0 += gridDim.y * TILE) {
        load_tile(tile, im, w, h, x0, y0, at);
        __syncthreads();
        for (int i = at; i < M * M; i += TILE * TILE_WARPS) {
            double gx, gy;
            mods[i / M][i % M] = modulus_at(tile, PITCH, i % M + 1, i / M + 1, &gx, &gy);
        }
        __syncthreads();
        const int y = y0 + lane;
        for (int c = warp; c < TILE; c += TILE_WARPS) {
            const int x = x0 + c;
            int a = 0;
            if (x >= 2 && x < w - 2 && y >= 2 && y < h - 2) {
                const double *t = tile + (size_t)(lane + HALO) * PITCH + c + HALO;
                const double gx = t[1] - t[-1], gy = t[PITCH] - t[-PITCH];
                const int my = lane + 1, mx = c + 1;
                a = edgel_subpixel_axis(mods[my][mx], mods[my][mx - 1], mods[my][mx + 1],
                                        mods[my - 1][mx], mods[my + 1][mx], fabs(gx), fabs(gy));
            }
            axes[lane][c] = (uint8_t)a;
            const unsigned points = __ballot_sync(~0u, a != 0);
            if (x < w && y < h && lane % COUNT_ROWS == 0)
                counts[(size_t)x * chunks + y / COUNT_ROWS] = __popc(points & chunk_lanes(lane));
        }
        __syncthreads();
        for (int r = warp; r < TILE; r += TILE_WARPS)
            if (x0 + lane < w && y0 + r < h)
                axis[(size_t)(y0 + r) * w + x0 + lane] = axes[r][lane];
        __syncthreads();
    }
}

__global__ void sp_total(const int32_t *counts, const int32_t *starts, size_t n, int32_t *total)
{
    total[0] = starts[n - 1] + counts[n - 1];
}

/* Each column's first point (its first chunk's), and the count after the last column. */
__global__ void sp_columns(const int32_t *starts, const int32_t *total, int w, int chunks,
                           int32_t *column)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < w)
        column[x] = starts[(size_t)x * chunks];
    else if (x == w)
        column[w] = total[0];
}

struct point_arrays {
    double *x, *y, *gx, *gy, *mod;
    int32_t *px, *py;
};



/* A tile's points, each numbered from its chunk's first number on (the scanned counts), in
 * the arrays; every pixel's number (-1: none) into `id`. The tile and its halo are read into
 * shared memory once (coalesced); warp j takes columns j, j + 8, ..., one lane a row, so that
 * the points of a chunk are numbered by a ballot and written side by side. */
__global__ void __launch_bounds__(TILE * TILE_WARPS)
    sp_place(const double *im, const uint8_t *axis, int w, int h, int chunks,
             const int32_t *starts, int32_t *id, point_arrays p)
{
    __shared__ double tile[SPAN * PITCH];
    __shared__ uint8_t axes[TILE][TILE + 1];
    __shared__ int32_t ids[TILE][TILE + 1];
    const int lane = threadIdx.x, warp = threadIdx.y, at = warp * TILE + lane;
    const int x0 = blockIdx.x * TILE;
    for (int y0 = blockIdx.y * TILE; y0 < h; y0 += gridDim.y * TILE) {
        load_tile(tile, im, w, h, x0, y0, at);
        for (int r = warp; r < TILE; r += TILE_WARPS) {
            const int x = x0 + lane, y = y0 + r;
            axes[r][lane] = x < w && y < h ? axis[(size_t)y * w + x] : 0;
        }
        __syncthreads();
        const int y = y0 + lane;
        for (int c = warp; c < TILE; c += TILE_WARPS) {
            const int x = x0 + c, a = axes[lane][c];
            const unsigned points = __ballot_sync(~0u, a != 0);
            int32_t k = -1;
            if (a) {
                k = starts[(size_t)x * chunks + y / COUNT_ROWS] +
                    __popc(points & chunk_lanes(lane) & ((1u << lane) - 1));
                const double *t = tile + (size_t)(lane + HALO) * PITCH + c + HALO;
                double gx, gy, ux, uy;
                const double m = modulus_at(t, PITCH, 0, 0, &gx, &gy);
                const double offset =
                    a == 1 ? edgel_subpixel_offset(modulus_at(t, PITCH, -1, 0, &ux, &uy), m,
                                                   modulus_at(t, PITCH, 1, 0, &ux, &uy))
                           : edgel_subpixel_offset(modulus_at(t, PITCH, 0, -1, &ux, &uy), m,
                                                   modulus_at(t, PITCH, 0, 1, &ux, &uy));
                const int dx = a == 1, dy = a == 2;
                p.x[k] = x + offset * dx;
                p.y[k] = y + offset * dy;
                p.gx[k] = gx, p.gy[k] = gy, p.mod[k] = m;
                p.px[k] = x, p.py[k] = y;
            }
            ids[lane][c] = k;
        }
        __syncthreads();
        for (int r = warp; r < TILE; r += TILE_WARPS)
            if (x0 + lane < w && y0 + r < h)
                id[(size_t)(y0 + r) * w + x0 + lane] = ids[r][lane];
        __syncthreads();
    }
}

struct is_point {
    __device__ bool operator()(int32_t v) const { return v >= 0; }
};

struct neighbour_arrays {
    int32_t *fwd, *bck;
    double *fwd_s, *bck_s;
};

/* Each point's best forward and backward neighbour within two pixels, met in the CPU's
 * order (by column, then down the column; ties to the first met). */
__global__ void sp_neighbours(point_arrays p, const int32_t *id, int w, int h, int32_t count,
                              neighbour_arrays out)
{
    const int32_t from = blockIdx.x * blockDim.x + threadIdx.x;
    if (from >= count)
        return;
    const int x = p.px[from], y = p.py[from];
    const int y0 = y - 2 > 0 ? y - 2 : 0, y1 = y + 3 < h ? y + 3 : h;
    const int c0 = x - 2 > 0 ? x - 2 : 0, c1 = x + 2 < w - 1 ? x + 2 : w - 1;
    const double fx = p.x[from], fy = p.y[from], fgx = p.gx[from], fgy = p.gy[from];
    double fwd_s = 0.0, bck_s = 0.0;
    int32_t fwd = -1, bck = -1;
    for (int cx = c0; cx <= c1; cx++)
        for (int cy = y0; cy < y1; cy++) {
            const int32_t to = id[(size_t)cy * w + cx];
            if (to < 0)
                continue;
            const double s = to == from ? 0.0
                                        : edgel_subpixel_score(fx, fy, fgx, fgy, p.x[to], p.y[to],
                                                               p.gx[to], p.gy[to]);
            if (s > fwd_s)
                fwd_s = s, fwd = to;
            if (s < bck_s)
                bck_s = s, bck = to;
        }
    out.fwd[from] = fwd, out.bck[from] = bck;
    out.fwd_s[from] = fwd_s, out.bck_s[from] = bck_s;
}

edgel_status ensure_pixels(subpixel_buffers *b, size_t pixels, size_t src_bytes, size_t counts)
{
    if (pixels > b->pixels) {
        cudaFree(b->image), cudaFree(b->pass), cudaFree(b->axis), cudaFree(b->id);
        b->image = b->pass = NULL, b->axis = NULL, b->id = NULL;
        b->pixels = 0;
        CUDA_TRY(cudaMalloc(&b->image, pixels * sizeof(double)));
        CUDA_TRY(cudaMalloc(&b->pass, pixels * sizeof(double)));
        CUDA_TRY(cudaMalloc(&b->axis, pixels));
        CUDA_TRY(cudaMalloc(&b->id, pixels * sizeof(int32_t)));
        b->pixels = pixels;
    }
    EDGEL_TRY(grow_device_buffer(&b->src, &b->src_bytes, src_bytes));
    if (counts > b->counts_cap) {
        cudaFree(b->counts), cudaFree(b->starts);
        b->counts = b->starts = NULL;
        b->counts_cap = 0;
        CUDA_TRY(cudaMalloc(&b->counts, counts * sizeof(int32_t)));
        CUDA_TRY(cudaMalloc(&b->starts, counts * sizeof(int32_t)));
        b->counts_cap = counts;
    }
    /* the scans' temporary space for this many counts and pixels */
    size_t scan = 0, select = 0;
    CUDA_TRY(cub::DeviceScan::ExclusiveSum(NULL, scan, (const int32_t *)NULL, (int32_t *)NULL,
                                           (int64_t)counts));
    CUDA_TRY(cub::DeviceSelect::If(NULL, select, (const int32_t *)NULL, (int32_t *)NULL,
                                   (int32_t *)NULL, (int64_t)pixels, is_point()));
    return grow_device_buffer((uint8_t **)&b->scan_tmp, &b->scan_bytes, scan > select ? scan : select);
}

edgel_status ensure_points(subpixel_buffers *b, size_t count)
{
    if (count <= b->points)
        return EDGEL_OK;
    for (double **d : {&b->x, &b->y, &b->gx, &b->gy, &b->mod, &b->fwd_s, &b->bck_s})
        cudaFree(*d), *d = NULL;
    for (int32_t **i : {&b->px, &b->py, &b->fwd, &b->bck, &b->row_order})
        cudaFree(*i), *i = NULL;
    b->points = 0;
    for (double **d : {&b->x, &b->y, &b->gx, &b->gy, &b->mod, &b->fwd_s, &b->bck_s})
        CUDA_TRY(cudaMalloc(d, count * sizeof(double)));
    for (int32_t **i : {&b->px, &b->py, &b->fwd, &b->bck, &b->row_order})
        CUDA_TRY(cudaMalloc(i, count * sizeof(int32_t)));
    b->points = count;
    return EDGEL_OK;
}

/* The source (`type`, rows `pitch` bytes apart) blurred into b->image. */
edgel_status blur(subpixel_buffers *b, cudaStream_t stream, const uint8_t *src, size_t pitch,
                  edgel_pixel_type type, double sigma, int w, int h)
{
    const int r = edgel_subpixel_radius(sigma), taps = 2 * r + 1;
    double *k = (double *)malloc(sizeof(double) * (size_t)taps);
    if (!k)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel edges: out of memory for the blur");
    edgel_subpixel_weights(sigma, r, k);
    edgel_status st = grow_device_buffer(&b->kernel, &b->kernel_cap, (size_t)taps);
    cudaError_t err = cudaSuccess;
    if (st == EDGEL_OK) /* (waits for the copy: k is pageable and freed below) */
        err = cudaMemcpy(b->kernel, k, sizeof(double) * (size_t)taps, cudaMemcpyHostToDevice);
    free(k);
    EDGEL_TRY(st);
    CUDA_TRY(err);
    void (*rows)(const uint8_t *, size_t, double *, int, int, const double *, int) =
        type == EDGEL_U8    ? sp_blur_rows<uint8_t>
        : type == EDGEL_U16 ? sp_blur_rows<uint16_t>
        : type == EDGEL_F32 ? sp_blur_rows<float>
                            : sp_blur_rows<double>;
    rows<<<pixel_grid(w, h), BLOCK, 0, stream>>>(src, pitch, b->pass, w, h, b->kernel, r);
    sp_blur_columns<<<pixel_grid(w, h), BLOCK, 0, stream>>>(b->pass, b->image, w, h, b->kernel, r);
    return EDGEL_OK;
}

/* The device's points, their neighbours and the columns' first points into c (the host's
 * copies), `count` points over `w` columns, for the host's chaining. */
edgel_status copy_points_down(subpixel_buffers *b, cudaStream_t stream, edgel_curves *c,
                              int32_t count, int w, int threads)
{
    if (!edgel_curves_reserve_points(c, (size_t)count) ||
        !edgel_curves_reserve_columns(c, (size_t)w + 1))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel edges: out of memory for %d "
                          "edge points", (int)count);
    const device_part parts[] = {{c->column_start, b->column, 4 * ((size_t)w + 1)},
                                 {c->all.x, b->x, 8 * (size_t)count},
                                 {c->all.y, b->y, 8 * (size_t)count},
                                 {c->all.gx, b->gx, 8 * (size_t)count},
                                 {c->all.gy, b->gy, 8 * (size_t)count},
                                 {c->all.mod, b->mod, 8 * (size_t)count},
                                 {c->fwd, b->fwd, 4 * (size_t)count},
                                 {c->bck, b->bck, 4 * (size_t)count},
                                 {c->fwd_score, b->fwd_s, 8 * (size_t)count},
                                 {c->bck_score, b->bck_s, 8 * (size_t)count},
                                 {c->row_order, b->row_order, 4 * (size_t)count}};
    EDGEL_TRY(copy_down_staged(&b->staging, &b->staging_bytes, stream, parts,
                               (int)(sizeof parts / sizeof parts[0]), threads));
    c->all.count = (size_t)count;
    return EDGEL_OK;
}

} // namespace

void release_subpixel_buffers(subpixel_buffers *b)
{
    for (double *d : {b->image, b->pass, b->kernel, b->x, b->y, b->gx, b->gy, b->mod, b->fwd_s,
                      b->bck_s})
        cudaFree(d);
    for (int32_t *i : {b->id, b->counts, b->starts, b->total, b->column, b->px, b->py, b->fwd,
                       b->bck, b->row_order})
        cudaFree(i);
    cudaFree(b->src), cudaFree(b->axis), cudaFree(b->scan_tmp);
    cudaFreeHost(b->staging);
    release_subpixel_chain_buffers(&b->chain);
    memset(b, 0, sizeof *b);
}

namespace {

/* The curves, on the device where c->place asks and the chaining runs there, else on the
 * host. */
edgel_status subpixel_curves(edgel_cuda_state *s, const edgel_subpixel_params *p,
                             const edgel_image *src, const frame_call &call, edgel_curves *c)
{
    const int w = src->width, h = src->height;
    c->points = c->curves = 0;
    c->all.count = 0;
    if (w < 5 || h < 5) /* no pixel inside the two-pixel ring */
        return edgel_curves_set_none(c) ? EDGEL_OK
                                        : edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY,
                                                     "sub-pixel edges: out of memory");
    if (!call.on_host)
        EDGEL_TRY(check_view_device(s, src, "input"));
    EDGEL_TRY(feature_state(&s->subpixel, "the sub-pixel detector's buffers"));
    subpixel_buffers *b = s->subpixel;
    const size_t row_bytes = edgel_row_bytes(src), pixels = (size_t)w * h;
    const int chunks = (h + COUNT_ROWS - 1) / COUNT_ROWS;
    const size_t counts = (size_t)w * chunks;
    EDGEL_TRY(ensure_pixels(b, pixels, call.on_host ? row_bytes * h : 0, counts));
    EDGEL_TRY(grow_device_buffer(&b->total, &b->total_cap, 2));
    const uint8_t *in = (const uint8_t *)src->data;
    size_t pitch = src->pitch;
    if (call.on_host) {
        CUDA_TRY(cudaMemcpy2DAsync(b->src, row_bytes, src->data, src->pitch, row_bytes, h,
                                   cudaMemcpyHostToDevice, call.stream));
        in = b->src, pitch = row_bytes;
    }
    if (p->sigma != 0.0)
        EDGEL_TRY(blur(b, call.stream, in, pitch, src->type, p->sigma, w, h));
    else
        sp_convert<<<pixel_grid(w, h), BLOCK, 0, call.stream>>>(in, pitch, src->type, w, h,
                                                                b->image);
    const dim3 tiles = tile_grid(w, h);
    sp_axes<<<tiles, dim3(TILE, TILE_WARPS), 0, call.stream>>>(b->image, w, h, chunks, b->axis,
                                                               b->counts);
    size_t bytes = b->scan_bytes;
    CUDA_TRY(cub::DeviceScan::ExclusiveSum(b->scan_tmp, bytes, b->counts, b->starts,
                                           (int64_t)counts, call.stream));
    sp_total<<<1, 1, 0, call.stream>>>(b->counts, b->starts, counts, b->total);
    int32_t count = 0;
    CUDA_TRY(cudaMemcpyAsync(&count, b->total, sizeof count, cudaMemcpyDeviceToHost, call.stream));
    CUDA_TRY(cudaStreamSynchronize(call.stream));
    EDGEL_TRY(ensure_points(b, (size_t)count + 1));
    const point_arrays pts = {b->x, b->y, b->gx, b->gy, b->mod, b->px, b->py};
    sp_place<<<tiles, dim3(TILE, TILE_WARPS), 0, call.stream>>>(b->image, b->axis, w, h, chunks,
                                                                b->starts, b->id, pts);
    bytes = b->scan_bytes;
    CUDA_TRY(cub::DeviceSelect::If(b->scan_tmp, bytes, b->id, b->row_order, b->total + 1,
                                   (int64_t)pixels, is_point(), call.stream));
    EDGEL_TRY(grow_device_buffer(&b->column, &b->column_cap, (size_t)w + 1));
    sp_columns<<<(w + BLOCK) / BLOCK, BLOCK, 0, call.stream>>>(b->starts, b->total, w, chunks,
                                                              b->column);
    const neighbour_arrays best = {b->fwd, b->bck, b->fwd_s, b->bck_s};
    if (count > 0)
        sp_neighbours<<<(count + BLOCK - 1) / BLOCK, BLOCK, 0, call.stream>>>(pts, b->id, w, h,
                                                                              count, best);
    CUDA_TRY(cudaGetLastError());
    /* the chaining on the device holds the hysteresis's argument only for high >= low, and
     * numbers two link slots a point in int32 */
    if (p->high >= p->low && count < INT32_MAX / 2)
        return subpixel_chain_on_device(b, call.stream, count, p->high, p->low, s->threads,
                                        s->device, c);
    EDGEL_TRY(copy_points_down(b, call.stream, c, count, w, s->threads));
    if (!edgel_subpixel_chain(c, w, p->high, p->low, s->threads))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel edges: out of memory for the "
                          "curves");
    return EDGEL_OK;
}

} // namespace

extern "C" edgel_status edgel_cuda_subpixel(edgel_cuda_state *s, const edgel_subpixel_params *p,
                                            const edgel_image *src, edgel_curves *c)
{
    ON_DEVICE(s->device);
    const frame_call call = frame_call_of(s, src);
    EDGEL_TRY(subpixel_curves(s, p, src, call, c));
    if (c->place == EDGEL_CURVES_ON_DEVICE && c->on_device.device < 0)
        return device_curves_upload(c, s->device, call.stream); /* made on the host */
    return EDGEL_OK;
}
