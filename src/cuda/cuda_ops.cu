/* The CUDA backend behind the seam (core/backend.h): its table of functions over the
 * launches in cuda_canny.cu, cuda_itk.cu and cuda_filter.cu, and its cost model for the
 * convolution engine's `auto`. */
#include "cuda/cuda_cufft.h"
#include "cuda/cuda_internal.h"
#include "cuda/cuda_backend.h"
#include "core/backend.h"
#include "core/filter.h"

#include <math.h>

namespace {

edgel_cuda_state *cuda(void *state) { return static_cast<edgel_cuda_state *>(state); }

void cuda_destroy(void *state) { edgel_cuda_destroy(cuda(state)); }

edgel_status cuda_reserve(void *state, int w, int h, int channels, int batch)
{
    return edgel_cuda_reserve(cuda(state), w, h, channels, batch);
}

edgel_status cuda_set_stream(void *state, void *stream)
{
    return edgel_cuda_set_stream(cuda(state), stream);
}

edgel_status cuda_synchronize(void *state) { return edgel_cuda_synchronize(cuda(state)); }

edgel_status cuda_canny_marks_wait(void *state)
{
    return edgel_cuda_canny_marks_wait(cuda(state));
}

edgel_status cuda_canny_marks(void *state, const edgel_canny_params *params,
                              const edgel_image *regions, const edgel_tile_rect *tiles,
                              const edgel_image *marks, uint8_t *const *sides, int count)
{
    return edgel_cuda_canny_marks(cuda(state), params, regions, tiles, marks, sides, count);
}

edgel_status cuda_canny(void *state, const edgel_canny_params *params, const edgel_image *srcs,
                        const edgel_image *edges, int count, const edgel_canny_stages *stages)
{
    if (params->preset != EDGEL_PRESET_ITK)
        return edgel_cuda_canny(cuda(state), params, srcs, edges, count, stages);
    for (int i = 0; i < count; i++) {
        const edgel_status st = edgel_cuda_canny_itk(cuda(state), params, &srcs[i], &edges[i],
                                                     stages);
        if (st != EDGEL_OK)
            return st;
    }
    return EDGEL_OK;
}

edgel_status cuda_canny_skimage(void *state, const edgel_canny_params *params,
                                const edgel_image *src, const edgel_image *mask,
                                const edgel_image *edges, const edgel_canny_stages *stages)
{
    return edgel_cuda_canny_skimage(cuda(state), params, src, mask, edges, stages);
}

edgel_status cuda_to_gray(void *state, edgel_gray order, const edgel_image *src,
                          const edgel_image *gray)
{
    return edgel_cuda_to_gray(cuda(state), order, src, gray);
}

edgel_status cuda_gaussian_blur(void *state, const edgel_image *src, const edgel_image *dst,
                                int ksize, double sigma)
{
    return edgel_cuda_gaussian_blur(cuda(state), src, dst, ksize, sigma);
}

edgel_status cuda_canny_gradients(void *state, const edgel_canny_params *params,
                                  const edgel_image *dx, const edgel_image *dy,
                                  const edgel_image *edges, const edgel_canny_stages *stages)
{
    return edgel_cuda_canny_gradients(cuda(state), params, dx, dy, edges, stages);
}

edgel_status cuda_subpixel(void *state, const edgel_subpixel_params *params,
                          const edgel_image *src, edgel_curves *curves)
{
    return edgel_cuda_subpixel(cuda(state), params, src, curves);
}

edgel_status cuda_subpixel_batch(void *state, const edgel_subpixel_params *params,
                                 const edgel_image *srcs, edgel_curves *const *curves, int count)
{
    return edgel_cuda_subpixel_batch(cuda(state), params, srcs, curves, count);
}

edgel_status cuda_canny_volume(void *state, const edgel_volume_canny_params *params,
                               const edgel_volume *src, const edgel_volume *edges,
                               const edgel_volume_canny_stages *stages)
{
    return edgel_cuda_canny_volume(cuda(state), params, src, edges, stages);
}

int cuda_has_fft(void *) { return edgel_cufft() != NULL; /* cuFFT, where it loads */ }

/* Predicted time of a method in nanoseconds, fitted to bench/bench_filter.py on the reference
 * device (cuda_device.cu) and scaled to the device: arithmetic by its SMs and clock, memory
 * traffic by its bandwidth (the FFT's own model in cuda_filter.cu); only ratios matter. */
double cuda_filter_cost(void *state, edgel_filter_plan *p, edgel_conv_method m, double)
{
    const device_info &d = edgel_device_info(cuda(state)->device);
    const double math = 132 * 1.98 / (d.sms * d.clock_ghz); /* 1 on the reference device */
    const double memory = 4.917e12 / d.bandwidth;
    const double values = (double)p->w * p->h * p->cn;
    if (m == EDGEL_CONV_DIRECT) { /* throughput, or one block's chain of taps when few */
        const double blocks = ceil(p->w / 32.0) * ceil(p->h / 64.0) * p->cn;
        const double busy = values * 0.000156 * p->nonzero * math;
        const double chain = ceil(blocks / (2.0 * d.sms)) * p->nonzero * 60.0 * 1.98 / d.clock_ghz;
        return (busy > chain ? busy : chain) + values * 0.0045 * memory + 8000;
    }
    if (m == EDGEL_CONV_SEPARABLE)
        return values * (0.0004 * (p->kw + p->kh) * math + 0.012 * memory) + 12000;
    return edgel_cuda_fft_time(p) + 35000; /* (measured, not scaled: see fft_time) */
}

edgel_status cuda_filter(void *state, edgel_filter_plan *plan, const edgel_image *src,
                         const edgel_image *dst)
{
    return edgel_cuda_filter(cuda(state), plan, src, dst);
}

const edgel_backend_ops cuda_ops = {
    EDGEL_BACKEND_CUDA, cuda_destroy,         cuda_reserve,     cuda_set_stream,
    cuda_synchronize,   cuda_canny,           edgel_cuda_varied_batch, cuda_canny_skimage,
    cuda_canny_gradients,
    cuda_canny_marks,
    cuda_to_gray,       cuda_gaussian_blur,   cuda_subpixel,    cuda_subpixel_batch,
    cuda_has_fft,
    cuda_filter_cost,   cuda_filter,          cuda_canny_volume, cuda_canny_marks_wait,
    NULL /* subpixel_points: the CPU's (core/backend.h) */};

} // namespace

extern "C" const edgel_backend_ops *edgel_cuda_ops(void) { return &cuda_ops; }

extern "C" edgel_status edgel_cuda_backend_create(int device, int threads, void **state)
{
    edgel_cuda_state *s = nullptr;
    const edgel_status st = edgel_cuda_create(device, threads, &s);
    *state = s;
    return st;
}
