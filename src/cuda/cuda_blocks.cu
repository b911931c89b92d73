/*
 * The building blocks on device views: luma (cv2.cvtColor to gray, core/opencv_math.h) and
 * OpenCV's fixed-point GaussianBlur (the convolution engine's fixed-point method). Queued on
 * the context's stream; the call returns without waiting, as Canny on device views.
 */
#include "cuda/cuda_internal.h"

#include "core/filter.h"
#include "core/opencv_math.h"

namespace {

__global__ void luma_kernel(const uint8_t *src, size_t src_pitch, uint8_t *dst, size_t dst_pitch,
                            int w, int h, int cn, int ri)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w || y >= h)
        return;
    const uint8_t *p = src + (size_t)y * src_pitch + (size_t)x * cn;
    dst[(size_t)y * dst_pitch + x] = edgel_luma_u8(p[ri], p[1], p[2 - ri]);
}

} // namespace

extern "C" edgel_status edgel_cuda_to_gray(edgel_cuda_state *s, edgel_gray order,
                                          const edgel_image *src, const edgel_image *gray)
{
    ON_DEVICE(s->device);
    const dim3 block(256), grid((src->width + 255) / 256, src->height);
    luma_kernel<<<grid, block, 0, s->stream>>>((const uint8_t *)src->data, src->pitch,
                                               (uint8_t *)gray->data, gray->pitch, src->width,
                                               src->height, src->channels,
                                               order == EDGEL_GRAY_BGR ? 2 : 0);
    CUDA_TRY(cudaGetLastError());
    return EDGEL_OK;
}

extern "C" edgel_status edgel_cuda_gaussian_blur(edgel_cuda_state *s, const edgel_image *src,
                                                const edgel_image *dst, int ksize, double sigma)
{
    ON_DEVICE(s->device);
    edgel_filter_plan plan;
    edgel_filter_plan_gaussian(src->width, src->height, src->channels, ksize, sigma, &plan);
    EDGEL_TRY(ensure_workspace(&s->ws, src->width, src->height, 1, src->channels));
    frame_table t;
    t.src[0] = (const uint8_t *)src->data;
    t.dst[0] = (uint8_t *)dst->data;
    t.src_pitch = src->pitch;
    t.dst_pitch = dst->pitch;
    return launch_fixed_filter(s->stream, t, 1, &plan, s->ws.tmp,
                               s->ws.pixels * (size_t)s->ws.channels);
}
