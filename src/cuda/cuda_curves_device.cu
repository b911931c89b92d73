/*
 * A sub-pixel result left in device memory (edgel_curves_set_place): one allocation the
 * edgel_curves owns, carved into the result's arrays, grown and kept from call to call. The
 * curves hold the functions that free it and copy out of it (core/curves.h), so that the
 * core never calls CUDA.
 */
#include "cuda/cuda_internal.h"

#include "core/curves.h"

#include <stdlib.h>

namespace {

size_t aligned(size_t bytes)
{
    return (bytes + 255) & ~(size_t)255;
}

void release(void *block, int device)
{
    device_scope scope(device);
    if (scope.err == cudaSuccess)
        cudaFree(block);
}

/* Every other double of `out` (a stride of 2) from `in`. */
__global__ void interleave(const double *in, double *out, int64_t n)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[2 * i] = in[i];
}

/* a and b interleaved into `pairs` (2 n doubles): in device memory by kernels queued on the
 * default stream, in host memory through a copy. */
edgel_status copy_pairs(const double *a, const double *b, double *pairs, int64_t n)
{
    cudaPointerAttributes at;
    CUDA_TRY(cudaPointerGetAttributes(&at, pairs));
    if (at.type == cudaMemoryTypeDevice || at.type == cudaMemoryTypeManaged) {
        const unsigned grid = (unsigned)((n + 255) / 256);
        interleave<<<grid, 256>>>(a, pairs, n);
        interleave<<<grid, 256>>>(b, pairs + 1, n);
        CUDA_TRY(cudaGetLastError());
        return EDGEL_OK;
    }
    double *host = (double *)malloc(16 * (size_t)n);
    if (!host)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "curves: out of memory for %lld points",
                          (long long)n);
    cudaError_t err = cudaMemcpy(host, a, 8 * (size_t)n, cudaMemcpyDeviceToHost);
    if (err == cudaSuccess)
        err = cudaMemcpy(host + n, b, 8 * (size_t)n, cudaMemcpyDeviceToHost);
    if (err == cudaSuccess)
        for (int64_t i = 0; i < n; i++)
            pairs[2 * i] = host[i], pairs[2 * i + 1] = host[n + i];
    free(host);
    CUDA_TRY(err);
    return EDGEL_OK;
}

edgel_status copy(const edgel_curves *c, double *xy, double *gradient, double *modulus,
                  int64_t *limits, uint8_t *closed)
{
    const edgel_device_curves *d = &c->on_device;
    ON_DEVICE(d->device);
    const int64_t n = c->points, m = c->curves;
    if (xy && n)
        EDGEL_TRY(copy_pairs(d->x, d->y, xy, n));
    if (gradient && n)
        EDGEL_TRY(copy_pairs(d->gx, d->gy, gradient, n));
    if (modulus && n)
        CUDA_TRY(cudaMemcpyAsync(modulus, d->modulus, 8 * (size_t)n, cudaMemcpyDefault, 0));
    if (limits)
        CUDA_TRY(cudaMemcpyAsync(limits, d->limits, 8 * ((size_t)m + 1), cudaMemcpyDefault, 0));
    if (closed && m)
        CUDA_TRY(cudaMemcpyAsync(closed, d->closed, (size_t)m, cudaMemcpyDefault, 0));
    CUDA_TRY(cudaStreamSynchronize(0));
    return EDGEL_OK;
}

} // namespace

edgel_status device_curves_reserve(edgel_curves *c, int device, int64_t points, int64_t curves)
{
    edgel_device_curves *d = &c->on_device;
    const size_t per_point = aligned(8 * (size_t)points);
    const size_t limits = aligned(8 * ((size_t)curves + 1));
    const size_t bytes = 5 * per_point + limits + aligned((size_t)curves + 1);
    size_t want = bytes;
    if (d->block && (bytes > d->bytes || d->block_device != device)) {
        if (d->block_device == device && 2 * d->bytes > want)
            want = 2 * d->bytes; /* at least doubled, so that growing is amortised */
        release(d->block, d->block_device);
        d->block = NULL, d->bytes = 0;
    }
    if (!d->block) {
        CUDA_TRY(cudaMalloc(&d->block, want));
        d->bytes = want, d->block_device = device;
        d->release = release, d->copy = copy;
    }
    uint8_t *at = (uint8_t *)d->block;
    for (double **a : {&d->x, &d->y, &d->gx, &d->gy, &d->modulus})
        *a = (double *)at, at += per_point;
    d->limits = (int64_t *)at;
    d->closed = at + limits;
    return EDGEL_OK;
}

edgel_status device_curves_upload(edgel_curves *c, int device, cudaStream_t stream)
{
    EDGEL_TRY(device_curves_reserve(c, device, c->points, c->curves));
    const edgel_device_curves *d = &c->on_device;
    const size_t n = 8 * (size_t)c->points;
    const struct {
        void *to;
        const void *from;
        size_t bytes;
    } parts[] = {{d->x, c->x, n},
                 {d->y, c->y, n},
                 {d->gx, c->gx, n},
                 {d->gy, c->gy, n},
                 {d->modulus, c->modulus, n},
                 {d->limits, c->limits, 8 * ((size_t)c->curves + 1)},
                 {d->closed, c->closed, (size_t)c->curves}};
    for (const auto &p : parts)
        if (p.bytes)
            CUDA_TRY(cudaMemcpyAsync(p.to, p.from, p.bytes, cudaMemcpyHostToDevice, stream));
    CUDA_TRY(cudaStreamSynchronize(stream));
    c->on_device.device = device;
    return EDGEL_OK;
}
