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

#include "cuda/cuda_internal.h"

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

/* y over the grid's rows (a frame may be taller than the grid allows). */
#define FOR_ROWS(y, h) for (int y = blockIdx.y; y < (h); y += gridDim.y)

dim3 pixel_grid(int w, int h)
{
    return dim3((unsigned)((w + BLOCK - 1) / BLOCK), (unsigned)(h < 65535 ? h : 65535));
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

/* The blur along x (rows' pass), then along y: each output sums its taps in order from 0.0,
 * as the CPU's. */
__global__ void sp_blur_rows(const double *in, double *out, int w, int h, const double *k, int r)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w)
        return;
    FOR_ROWS(y, h)
    {
        const double *row = in + (size_t)y * w;
        double s = 0.0;
        if (x >= r && x + r < w)
            for (int i = 0; i <= 2 * r; i++)
                s += row[x + i - r] * k[i];
        else
            for (int i = 0; i <= 2 * r; i++)
                s += row[edgel_subpixel_mirror((long long)x + i - r, w)] * k[i];
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
    const double *row = im + (size_t)y * w;
    const double dx = row[x + 1] - row[x - 1], dy = row[x + w] - row[x - w];
    *gx = dx, *gy = dy;
    return sqrt(dx * dx + dy * dy);
}

/* The edge point's axis at every pixel (0 in the two-pixel ring). */
__global__ void sp_axes(const double *im, int w, int h, uint8_t *axis)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w)
        return;
    FOR_ROWS(y, h)
    {
        uint8_t a = 0;
        if (x >= 2 && x < w - 2 && y >= 2 && y < h - 2) {
            double gx, gy, ux, uy;
            const double m = modulus_at(im, w, x, y, &gx, &gy);
            a = (uint8_t)edgel_subpixel_axis(m, modulus_at(im, w, x - 1, y, &ux, &uy),
                                             modulus_at(im, w, x + 1, y, &ux, &uy),
                                             modulus_at(im, w, x, y - 1, &ux, &uy),
                                             modulus_at(im, w, x, y + 1, &ux, &uy), fabs(gx),
                                             fabs(gy));
        }
        axis[(size_t)y * w + x] = a;
    }
}

/* Thread (x, chunk): the points of column x in rows chunk * COUNT_ROWS on. */
/* chunk over the grid's rows */
#define FOR_CHUNKS(chunk, chunks) for (int chunk = blockIdx.y; chunk < (chunks); chunk += gridDim.y)

__global__ void sp_count(const uint8_t *axis, int w, int h, int chunks, int32_t *counts)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w)
        return;
    FOR_CHUNKS(chunk, chunks)
    {
    const int y0 = chunk * COUNT_ROWS, y1 = y0 + COUNT_ROWS < h ? y0 + COUNT_ROWS : h;
    int32_t n = 0;
    for (int y = y0; y < y1; y++)
        n += axis[(size_t)y * w + x] != 0;
    counts[(size_t)x * chunks + chunk] = n;
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

/* Thread (x, chunk) numbers its points from its first number on (the scanned counts) and
 * writes them, and every pixel's number (-1: none) into `id`. */
__global__ void sp_place(const double *im, const uint8_t *axis, int w, int h, int chunks,
                         const int32_t *starts, int32_t *id, point_arrays p)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w)
        return;
    FOR_CHUNKS(chunk, chunks)
    {
    const int y0 = chunk * COUNT_ROWS, y1 = y0 + COUNT_ROWS < h ? y0 + COUNT_ROWS : h;
    int32_t k = starts[(size_t)x * chunks + chunk];
    for (int y = y0; y < y1; y++) {
        const size_t at = (size_t)y * w + x;
        const int a = axis[at];
        if (!a) {
            id[at] = -1;
            continue;
        }
        double gx, gy, ux, uy;
        const double m = modulus_at(im, w, x, y, &gx, &gy);
        const double offset =
            a == 1 ? edgel_subpixel_offset(modulus_at(im, w, x - 1, y, &ux, &uy), m,
                                           modulus_at(im, w, x + 1, y, &ux, &uy))
                   : edgel_subpixel_offset(modulus_at(im, w, x, y - 1, &ux, &uy), m,
                                           modulus_at(im, w, x, y + 1, &ux, &uy));
        const int dx = a == 1, dy = a == 2;
        p.x[k] = x + offset * dx;
        p.y[k] = y + offset * dy;
        p.gx[k] = gx, p.gy[k] = gy, p.mod[k] = m;
        p.px[k] = x, p.py[k] = y;
        id[at] = k++;
    }
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

edgel_status blur(subpixel_buffers *b, cudaStream_t stream, double sigma, int w, int h)
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
    sp_blur_rows<<<pixel_grid(w, h), BLOCK, 0, stream>>>(b->image, b->pass, w, h, b->kernel, r);
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

void free_subpixel_buffers(subpixel_buffers *b)
{
    for (double *d : {b->image, b->pass, b->kernel, b->x, b->y, b->gx, b->gy, b->mod, b->fwd_s,
                      b->bck_s})
        cudaFree(d);
    for (int32_t *i : {b->id, b->counts, b->starts, b->total, b->column, b->px, b->py, b->fwd,
                       b->bck, b->row_order})
        cudaFree(i);
    cudaFree(b->src), cudaFree(b->axis), cudaFree(b->scan_tmp);
    cudaFreeHost(b->staging);
    free_subpixel_chain_buffers(&b->chain);
    memset(b, 0, sizeof *b);
}

extern "C" edgel_status edgel_cuda_subpixel(edgel_cuda_state *s, const edgel_subpixel_params *p,
                                            const edgel_image *src, edgel_curves *c)
{
    ON_DEVICE(s->device);
    const int w = src->width, h = src->height;
    c->points = c->curves = 0;
    c->all.count = 0;
    if (w < 5 || h < 5) /* no pixel inside the two-pixel ring */
        return edgel_curves_set_none(c) ? EDGEL_OK
                                        : edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY,
                                                     "sub-pixel edges: out of memory");
    const frame_call call = frame_call_of(s, src);
    if (!call.on_host)
        EDGEL_TRY(check_view_device(s, src, "input"));
    subpixel_buffers *b = &s->subpixel;
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
    sp_convert<<<pixel_grid(w, h), BLOCK, 0, call.stream>>>(in, pitch, src->type, w, h, b->image);
    if (p->sigma != 0.0)
        EDGEL_TRY(blur(b, call.stream, p->sigma, w, h));
    sp_axes<<<pixel_grid(w, h), BLOCK, 0, call.stream>>>(b->image, w, h, b->axis);
    const dim3 columns((unsigned)((w + BLOCK - 1) / BLOCK), (unsigned)(chunks < 65535 ? chunks : 65535));
    sp_count<<<columns, BLOCK, 0, call.stream>>>(b->axis, w, h, chunks, b->counts);
    size_t bytes = b->scan_bytes;
    CUDA_TRY(cub::DeviceScan::ExclusiveSum(b->scan_tmp, bytes, b->counts, b->starts,
                                           (int64_t)counts, call.stream));
    sp_total<<<1, 1, 0, call.stream>>>(b->counts, b->starts, counts, b->total);
    int32_t count = 0;
    CUDA_TRY(cudaMemcpyAsync(&count, b->total, sizeof count, cudaMemcpyDeviceToHost, call.stream));
    CUDA_TRY(cudaStreamSynchronize(call.stream));
    EDGEL_TRY(ensure_points(b, (size_t)count + 1));
    const point_arrays pts = {b->x, b->y, b->gx, b->gy, b->mod, b->px, b->py};
    sp_place<<<columns, BLOCK, 0, call.stream>>>(b->image, b->axis, w, h, chunks, b->starts, b->id,
                                                 pts);
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
        return subpixel_chain_on_device(b, call.stream, count, p->high, p->low, s->threads, c);
    EDGEL_TRY(copy_points_down(b, call.stream, c, count, w, s->threads));
    if (!edgel_subpixel_chain(c, w, p->high, p->low, s->threads))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel edges: out of memory for the "
                          "curves");
    return EDGEL_OK;
}
