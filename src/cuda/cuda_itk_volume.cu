/*
 * ITK's Canny on a volume on the GPU (edgel_canny_volume on a CUDA context): the CPU's passes
 * (cpu/cpu_itk_volume.c) a thread a voxel, each value by the same expression
 * (core/itk_math.h; sums in double, no fused multiply-adds), so the floats are the CPU's and
 * ITK's: the Gaussian last axis first (z, y, x), the second derivative, the suppressed value
 * and its class; then the 26-connected hysteresis as connected components of the candidates
 * (a union-find over voxel indices, joined with atomic compare-and-swap towards the smaller
 * index: the same sets whatever the order), each set an edge where it holds a strong voxel,
 * and the edges. Host volumes are copied in and out; the call waits for its stream.
 */
#include "cuda/cuda_internal.h"
#include "cuda/cuda_union_find.cuh"
#include "core/itk_gaussian.h"
#include "core/itk_math.h"
#include "core/volume.h"

#include <string.h>

/* ITK's Canny on volumes (cuda_itk_volume.cu): the source (host calls), two float volumes,
 * the classes, the edges or a stage on their way to the host, the taps, the growth flag. */
struct volume_buffers {
    uint8_t *src, *map, *out, *kernels;
    float *a, *b;
    uint64_t *labels; /* the hysteresis's union-find (32-bit entries below 2^32 voxels) */
    size_t src_cap, map_cap, out_cap, kernels_cap, a_cap, b_cap, labels_cap;
};

namespace {

constexpr int BLOCK = 256;

struct geometry {
    int w, h, d;
    __host__ __device__ size_t voxels() const { return (size_t)w * h * d; }
    __device__ size_t at(int x, int y, int z) const { return ((size_t)z * h + y) * w + x; }
    __device__ void coords(size_t i, int *x, int *y, int *z) const
    {
        *x = (int)(i % (size_t)w);
        *y = (int)(i / (size_t)w % (size_t)h);
        *z = (int)(i / ((size_t)w * h));
    }
};

struct kernels {
    double k[3][2 * EDGEL_ITK_MAX_RADIUS + 1];
    int r[3];
};

#define FOR_VOXELS(i, g)                                                                      \
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (g).voxels();          \
         i += (size_t)gridDim.x * blockDim.x)

unsigned grid_of(size_t voxels)
{
    const size_t blocks = (voxels + BLOCK - 1) / BLOCK;
    return (unsigned)(blocks < 65535u * 8 ? blocks : 65535u * 8);
}

__device__ double voxel_of(const uint8_t *src, size_t pitch, size_t slice, edgel_pixel_type type,
                           int x, int y, int z)
{
    const uint8_t *row = src + (size_t)z * slice + (size_t)y * pitch;
    return type == EDGEL_U8    ? (double)row[x]
           : type == EDGEL_U16 ? (double)((const uint16_t *)row)[x]
                               : (double)((const float *)row)[x];
}

__global__ void gauss_z(const uint8_t *src, size_t pitch, size_t slice, edgel_pixel_type type,
                        geometry g, const kernels *k, float *out)
{
    FOR_VOXELS(i, g)
    {
        int x, y, z;
        g.coords(i, &x, &y, &z);
        const int r = k->r[2];
        double acc = 0.0;
        for (int t = 0; t <= 2 * r; t++)
            acc += k->k[2][t] * voxel_of(src, pitch, slice, type, x, y,
                                         edgel_clamp_index(z + t - r, g.d));
        out[i] = (float)acc;
    }
}

/* Along y (axis 1) or x (axis 0), float to float. */
__global__ void gauss_plane(const float *in, geometry g, const kernels *k, int axis, float *out)
{
    FOR_VOXELS(i, g)
    {
        int x, y, z;
        g.coords(i, &x, &y, &z);
        const int r = k->r[axis];
        double acc = 0.0;
        for (int t = 0; t <= 2 * r; t++)
            acc += k->k[axis][t] *
                   (double)(axis ? in[g.at(x, edgel_clamp_index(y + t - r, g.h), z)]
                                 : in[g.at(edgel_clamp_index(x + t - r, g.w), y, z)]);
        out[i] = (float)acc;
    }
}

/* The 3x3x3 neighbourhood of voxel (x, y, z) (x fastest, n[13] the centre), borders
 * replicated: the centre, faces and edges (what the N-D functions read; corners unset). */
__device__ void gather(const float *v, geometry g, int x, int y, int z, float n[27])
{
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (dx && dy && dz)
                    continue;
                n[13 + dx + 3 * dy + 9 * dz] =
                    v[g.at(edgel_clamp_index(x + dx, g.w), edgel_clamp_index(y + dy, g.h),
                           edgel_clamp_index(z + dz, g.d))];
            }
}

__device__ const int STRIDE[3] = {1, 3, 9};

__global__ void second_derivative(const float *smoothed, geometry g, float *out)
{
    FOR_VOXELS(i, g)
    {
        int x, y, z;
        g.coords(i, &x, &y, &z);
        float n[27];
        gather(smoothed, g, x, y, z, n);
        out[i] = edgel_itk_second_derivative_nd(n, 13, STRIDE, 3);
    }
}

__global__ void suppress(const float *smoothed, const float *deriv, geometry g, float lower,
                         float upper, uint8_t *map, float *suppressed)
{
    FOR_VOXELS(i, g)
    {
        int x, y, z;
        g.coords(i, &x, &y, &z);
        float gn[27], ln[27];
        gather(smoothed, g, x, y, z, gn);
        gather(deriv, g, x, y, z, ln);
        const float v = edgel_itk_suppressed_nd(gn, ln, 13, STRIDE, 3);
        map[i] = edgel_itk_class(v, lower, upper);
        if (suppressed)
            suppressed[i] = v;
    }
}

/* Every voxel its own set. */
template <typename L> __global__ void labels_init(L *label, geometry g)
{
    FOR_VOXELS(i, g)
    label[i] = (L)i;
}

/* Each candidate joined to its candidate neighbours met before it (13 of the 26). */
template <typename L> __global__ void labels_join(const uint8_t *map, geometry g, L *label)
{
    FOR_VOXELS(i, g)
    {
        if (map[i] == EDGEL_MAP_NONE)
            continue;
        int x, y, z;
        g.coords(i, &x, &y, &z);
        for (int k = 0; k < 13; k++) { /* dz = -1: nine; dz = 0, dy = -1: three; dx = -1 */
            const int dz = k < 9 ? -1 : 0, dy = k < 9 ? k / 3 - 1 : k < 12 ? -1 : 0,
                      dx = k < 9 ? k % 3 - 1 : k < 12 ? k - 10 : -1;
            const int nx = x + dx, ny = y + dy, nz = z + dz;
            if (nx < 0 || ny < 0 || nz < 0 || nx >= g.w || ny >= g.h)
                continue;
            const size_t j = g.at(nx, ny, nz);
            if (map[j] != EDGEL_MAP_NONE)
                join(label, (L)i, (L)j);
        }
    }
}

/* A strong voxel's set: its root becomes STRONG (the root is a candidate of that set, so
 * it is an edge in the end either way). */
template <typename L> __global__ void labels_strong(uint8_t *map, geometry g, const L *label)
{
    FOR_VOXELS(i, g)
    if (map[i] == EDGEL_MAP_STRONG)
        map[find_root(label, (L)i)] = EDGEL_MAP_STRONG;
}

/* A candidate is STRONG where its set's root is. */
template <typename L> __global__ void labels_settle(uint8_t *map, geometry g, const L *label)
{
    FOR_VOXELS(i, g)
    if (map[i] == EDGEL_MAP_WEAK && map[find_root(label, (L)i)] == EDGEL_MAP_STRONG)
        map[i] = EDGEL_MAP_STRONG;
}

/* The 26-connected hysteresis on the classes in map: every WEAK voxel of a set that holds a
 * STRONG one becomes STRONG. */
template <typename L>
void hysteresis(uint8_t *map, geometry g, L *label, unsigned grid, cudaStream_t stream)
{
    labels_init<L><<<grid, BLOCK, 0, stream>>>(label, g);
    labels_join<L><<<grid, BLOCK, 0, stream>>>(map, g, label);
    labels_strong<L><<<grid, BLOCK, 0, stream>>>(map, g, label);
    labels_settle<L><<<grid, BLOCK, 0, stream>>>(map, g, label);
}

/* The edges (u8 255/0 or f32 1/0) into a pitched volume. */
__global__ void write_edges(const uint8_t *map, geometry g, uint8_t *out, size_t pitch,
                            size_t slice, int as_float)
{
    FOR_VOXELS(i, g)
    {
        int x, y, z;
        g.coords(i, &x, &y, &z);
        uint8_t *row = out + (size_t)z * slice + (size_t)y * pitch;
        const int edge = map[i] == EDGEL_MAP_STRONG;
        if (as_float)
            ((float *)row)[x] = edge ? 1.0f : 0.0f;
        else
            row[x] = edge ? 255 : 0;
    }
}

/* Copies between a pitched volume and a packed device one, slice by slice where the slices
 * are not evenly spaced rows. */
edgel_status copy_volume(void *dst, size_t dst_pitch, size_t dst_slice, const void *src,
                         size_t src_pitch, size_t src_slice, size_t row_bytes, int h, int d,
                         cudaMemcpyKind kind, cudaStream_t stream)
{
    if (dst_slice == dst_pitch * h && src_slice == src_pitch * h) {
        CUDA_TRY(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, row_bytes, (size_t)h * d, kind,
                                   stream));
        return EDGEL_OK;
    }
    for (int z = 0; z < d; z++)
        CUDA_TRY(cudaMemcpy2DAsync((uint8_t *)dst + (size_t)z * dst_slice, dst_pitch,
                                   (const uint8_t *)src + (size_t)z * src_slice, src_pitch,
                                   row_bytes, h, kind, stream));
    return EDGEL_OK;
}

/* A device volume's own device, where the host has several. */
edgel_status check_device(const edgel_cuda_state *s, const edgel_volume *v, const char *name)
{
    if (!v)
        return EDGEL_OK;
    edgel_image as_image = {};
    as_image.data = v->data;
    as_image.memory = v->memory;
    return check_view_device(s, &as_image, name);
}

} // namespace

void release_volume_buffers(volume_buffers *b)
{
    cudaFree(b->src), cudaFree(b->a), cudaFree(b->b), cudaFree(b->map), cudaFree(b->out);
    cudaFree(b->kernels), cudaFree(b->labels);
    memset(b, 0, sizeof *b);
}

extern "C" edgel_status edgel_cuda_canny_volume(edgel_cuda_state *s,
                                                const edgel_volume_canny_params *p,
                                                const edgel_volume *src, const edgel_volume *edges,
                                                const edgel_volume_canny_stages *stages)
{
    ON_DEVICE(s->device);
    const int on_host = src->memory == EDGEL_MEMORY_HOST;
    const edgel_volume *smoothed = stages ? stages->smoothed : NULL;
    const edgel_volume *sup_view = stages ? stages->suppressed : NULL;
    for (const edgel_volume *v : {src, edges, smoothed, sup_view})
        EDGEL_TRY(check_device(s, v, "volumes"));
    const cudaStream_t stream = on_host ? s->slots[0].stream : s->stream;
    EDGEL_TRY(feature_state(&s->volume, "the volumes' buffers"));
    volume_buffers *b = s->volume;
    const geometry g = {src->width, src->height, src->depth};
    const size_t n = g.voxels(), item = edgel_pixel_size(src->type);
    kernels k;
    for (int i = 0; i < 3; i++) /* ITK's variance in voxels: divided by the spacing squared */
        k.r[i] = edgel_itk_gaussian_kernel(p->variance[i] / (p->spacing[i] * p->spacing[i]),
                                           p->maximum_error[i], k.k[i]);
    EDGEL_TRY(grow_device_buffer(&b->a, &b->a_cap, n));
    EDGEL_TRY(grow_device_buffer(&b->b, &b->b_cap, n));
    EDGEL_TRY(grow_device_buffer(&b->map, &b->map_cap, n));
    EDGEL_TRY(grow_device_buffer(&b->kernels, &b->kernels_cap, sizeof k));
    const int wide = n >= UINT32_MAX; /* 64-bit labels only where 32 bits cannot number them */
    EDGEL_TRY(grow_device_buffer(&b->labels, &b->labels_cap, wide ? n : (n + 1) / 2));
    /* (the taps go up from a pageable struct: the copy completes before the call returns) */
    CUDA_TRY(cudaMemcpyAsync(b->kernels, &k, sizeof k, cudaMemcpyHostToDevice, stream));
    const uint8_t *in = (const uint8_t *)src->data;
    size_t pitch = src->pitch, slice = src->slice_pitch;
    if (on_host) {
        EDGEL_TRY(grow_device_buffer(&b->src, &b->src_cap, n * item));
        EDGEL_TRY(copy_volume(b->src, g.w * item, g.w * item * g.h, src->data, src->pitch,
                              src->slice_pitch, g.w * item, g.h, g.d, cudaMemcpyHostToDevice,
                              stream));
        in = b->src, pitch = g.w * item, slice = pitch * g.h;
    }
    const kernels *dk = (const kernels *)b->kernels;
    const unsigned grid = grid_of(n);
    gauss_z<<<grid, BLOCK, 0, stream>>>(in, pitch, slice, src->type, g, dk, b->a);
    gauss_plane<<<grid, BLOCK, 0, stream>>>(b->a, g, dk, 1, b->b);
    gauss_plane<<<grid, BLOCK, 0, stream>>>(b->b, g, dk, 0, b->a);
    second_derivative<<<grid, BLOCK, 0, stream>>>(b->a, g, b->b);
    float *sup = NULL; /* the suppressed stage: the view itself on the device, else staged */
    if (sup_view) {
        if (!on_host && sup_view->pitch == g.w * sizeof(float) &&
            sup_view->slice_pitch == sup_view->pitch * g.h)
            sup = (float *)sup_view->data;
        else {
            EDGEL_TRY(grow_device_buffer(&b->out, &b->out_cap, n * sizeof(float)));
            sup = (float *)b->out;
        }
    }
    suppress<<<grid, BLOCK, 0, stream>>>(b->a, b->b, g, (float)p->lower_threshold,
                                         (float)p->upper_threshold, b->map, sup);
    CUDA_TRY(cudaGetLastError());
    const cudaMemcpyKind down = on_host ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice;
    if (sup_view && sup != sup_view->data)
        EDGEL_TRY(copy_volume(sup_view->data, sup_view->pitch, sup_view->slice_pitch, sup,
                              g.w * sizeof(float), g.w * sizeof(float) * g.h,
                              g.w * sizeof(float), g.h, g.d, down, stream));
    if (smoothed)
        EDGEL_TRY(copy_volume(smoothed->data, smoothed->pitch, smoothed->slice_pitch, b->a,
                              g.w * sizeof(float), g.w * sizeof(float) * g.h,
                              g.w * sizeof(float), g.h, g.d, down, stream));
    if (wide)
        hysteresis(b->map, g, (unsigned long long *)b->labels, grid, stream);
    else
        hysteresis(b->map, g, (unsigned int *)b->labels, grid, stream);
    const size_t edge_item = edgel_pixel_size(edges->type);
    if (on_host) {
        EDGEL_TRY(grow_device_buffer(&b->out, &b->out_cap, n * sizeof(float)));
        write_edges<<<grid, BLOCK, 0, stream>>>(b->map, g, b->out, g.w * edge_item,
                                                g.w * edge_item * g.h, edges->type == EDGEL_F32);
        EDGEL_TRY(copy_volume(edges->data, edges->pitch, edges->slice_pitch, b->out,
                              g.w * edge_item, g.w * edge_item * g.h, g.w * edge_item, g.h, g.d,
                              cudaMemcpyDeviceToHost, stream));
    } else {
        write_edges<<<grid, BLOCK, 0, stream>>>(b->map, g, (uint8_t *)edges->data, edges->pitch,
                                                edges->slice_pitch, edges->type == EDGEL_F32);
    }
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaStreamSynchronize(stream));
    return EDGEL_OK;
}
