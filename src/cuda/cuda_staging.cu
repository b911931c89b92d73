/*
 * How one-frame calls (the itk and skimage presets, the convolution engine) meet host and
 * device views: device views are used in place and checked against the context's device;
 * host views are copied up into the first host slot's buffers and the output copied back,
 * the call waiting for its stream. (The opencv preset's batches pipeline their own frames
 * over the slots, cuda_canny.cu.)
 */
#include "cuda/cuda_internal.h"

#include "core/host_pool.h"
#include "core/image.h"

edgel_status copy_down_staged(uint8_t **staging, size_t *staging_bytes, cudaStream_t stream,
                              const device_part *parts, int n, int threads)
{
    enum { MAX_PARTS = 16 };
    if (n > MAX_PARTS)
        return edgel_fail(EDGEL_ERROR_INTERNAL, "copy_down_staged: %d parts (at most 16)", n);
    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += (parts[k].bytes + 63) & ~(size_t)63;
    if (total > *staging_bytes) {
        cudaFreeHost(*staging);
        *staging = NULL, *staging_bytes = 0;
        CUDA_TRY(cudaHostAlloc(staging, total, cudaHostAllocDefault));
        *staging_bytes = total;
    }
    edgel_host_part spread[MAX_PARTS];
    size_t at = 0;
    for (int k = 0; k < n; k++) {
        if (parts[k].bytes)
            CUDA_TRY(cudaMemcpyAsync(*staging + at, parts[k].device, parts[k].bytes,
                                     cudaMemcpyDeviceToHost, stream));
        spread[k] = {parts[k].host, *staging + at, parts[k].bytes};
        at += (parts[k].bytes + 63) & ~(size_t)63;
    }
    CUDA_TRY(cudaStreamSynchronize(stream));
    edgel_host_copy_parts(threads, spread, n);
    return EDGEL_OK;
}

int is_pinned(const void *p)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeHost;
}

edgel_status check_view_device(const edgel_cuda_state *s, const edgel_image *v, const char *name)
{
    if (!v || s->devices < 2 || v->memory != EDGEL_MEMORY_DEVICE)
        return EDGEL_OK;
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, v->data) != cudaSuccess) {
        cudaGetLastError();
        return EDGEL_OK; /* not the runtime's: the kernels will say */
    }
    if (a.type == cudaMemoryTypeDevice && a.device != s->device)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "the %s are on CUDA device %d but the context is on device %d (create "
                          "a context on the views' device)",
                          name, a.device, s->device);
    return EDGEL_OK;
}

edgel_status stage_frame_in(const frame_call &call, const edgel_image *src,
                            const edgel_image *dst, staged_frame *f)
{
    f->src = (const uint8_t *)src->data;
    f->src_pitch = src->pitch;
    f->dst = (uint8_t *)dst->data;
    f->dst_pitch = dst->pitch;
    if (!call.on_host)
        return EDGEL_OK;
    const size_t in_row = edgel_row_bytes(src), out_row = edgel_row_bytes(dst);
    const int h = src->height;
    EDGEL_TRY(ensure_slot(call.slot, in_row * h, out_row * h));
    CUDA_TRY(cudaMemcpy2DAsync(call.slot->d_in, in_row, src->data, src->pitch, in_row, h,
                               cudaMemcpyHostToDevice, call.stream));
    f->src = call.slot->d_in;
    f->src_pitch = in_row;
    f->dst = call.slot->d_out;
    f->dst_pitch = out_row;
    return EDGEL_OK;
}

edgel_status stage_frame_out(const frame_call &call, const edgel_image *dst,
                             const staged_frame &f)
{
    if (!call.on_host)
        return EDGEL_OK;
    CUDA_TRY(cudaMemcpy2DAsync(dst->data, dst->pitch, f.dst, f.dst_pitch, edgel_row_bytes(dst),
                               dst->height, cudaMemcpyDeviceToHost, call.stream));
    CUDA_TRY(cudaStreamSynchronize(call.stream));
    return EDGEL_OK;
}
