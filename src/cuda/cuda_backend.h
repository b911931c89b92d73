/* Internal: the CUDA backend as the rest of the library sees it (plain C): its table of
 * functions (core/backend.h, cuda_ops.cu) and the launches behind it. Arguments have been
 * checked by the entry points (src/api); views are all host or all device memory. */
#ifndef EDGEL_CUDA_BACKEND_H
#define EDGEL_CUDA_BACKEND_H

#include "core/backend.h"
#include "edgel.h"

#ifdef __cplusplus
extern "C" {
#endif

const edgel_backend_ops *edgel_cuda_ops(void);
/* A context's state on `device` (EDGEL_ERROR_BACKEND_UNAVAILABLE without a usable one);
 * `threads`: CPU threads for copying host images through pinned staging. */
edgel_status edgel_cuda_backend_create(int device, int threads, void **state);

typedef struct edgel_cuda_state edgel_cuda_state;

/* EDGEL_ERROR_BACKEND_UNAVAILABLE when no usable device is present. `threads`: CPU threads
 * for copying host images through pinned staging. */
edgel_status edgel_cuda_create(int device, int threads, edgel_cuda_state **out);
void edgel_cuda_destroy(edgel_cuda_state *state);
/* Number of CUDA devices (0 when the runtime finds none or fails). */
int edgel_cuda_devices_present(void);

edgel_status edgel_cuda_set_stream(edgel_cuda_state *state, void *stream);
edgel_status edgel_cuda_synchronize(edgel_cuda_state *state);
edgel_status edgel_cuda_reserve(edgel_cuda_state *state, int width, int height, int channels,
                                int batch);

/* Canny of `count` frames (count 1 may carry stages; batches may not). */
edgel_status edgel_cuda_canny(edgel_cuda_state *state, const edgel_canny_params *params,
                              const edgel_image *srcs, const edgel_image *edges, int count,
                              const edgel_canny_stages *stages);
/* The itk preset on one frame (host or device views). */
edgel_status edgel_cuda_canny_itk(edgel_cuda_state *state, const edgel_canny_params *params,
                                  const edgel_image *src, const edgel_image *edges,
                                  const edgel_canny_stages *stages);
/* Whether edgel_cuda_canny takes these frames of different sizes in one launch sequence
 * (gray device frames, Sobel 3x3, no blur); others go in groups of one size. */
int edgel_cuda_varied_batch(const edgel_canny_params *params, const edgel_image *srcs, int count);
/* The skimage preset on one frame (host or device views), with an optional mask. */
edgel_status edgel_cuda_canny_skimage(edgel_cuda_state *state, const edgel_canny_params *params,
                                      const edgel_image *src, const edgel_image *mask,
                                      const edgel_image *edges, const edgel_canny_stages *stages);
/* The tiled driver's marks (core/backend.h, canny_marks). */
struct edgel_tile_rect;
edgel_status edgel_cuda_canny_marks(edgel_cuda_state *state, const edgel_canny_params *params,
                                    const edgel_image *regions, const struct edgel_tile_rect *tiles,
                                    const edgel_image *marks, uint8_t *const *sides, int count);
/* Once every call's marks and sides are written (core/backend.h, canny_marks_wait). */
edgel_status edgel_cuda_canny_marks_wait(edgel_cuda_state *state);
/* The convolution engine on one image (host or device views). */
struct edgel_filter_plan;
edgel_status edgel_cuda_filter(edgel_cuda_state *state, const struct edgel_filter_plan *plan,
                               const edgel_image *src, const edgel_image *dst);
/* The FFT method's predicted time less its launches (ns), for the cost model. */
double edgel_cuda_fft_time(const struct edgel_filter_plan *plan);
/* Sub-pixel curves of a checked 1-channel image (host or device views), made on the GPU (the
 * chains on the host where low > high), into host or device memory as the curves' place asks;
 * waits for the result. */
edgel_status edgel_cuda_subpixel(edgel_cuda_state *state, const edgel_subpixel_params *params,
                                 const edgel_image *src, edgel_curves *curves);
/* `count` of those calls, curves[i] of srcs[i], on up to EDGEL_SUBPIXEL_LANES streams at once
 * (each with its own memory), after the work queued on the context's stream and before what
 * is queued there next. */
edgel_status edgel_cuda_subpixel_batch(edgel_cuda_state *state,
                                       const edgel_subpixel_params *params,
                                       const edgel_image *srcs, edgel_curves *const *curves,
                                       int count);
/* ITK's Canny on a checked volume (host or device views); waits for its stream. */
edgel_status edgel_cuda_canny_volume(edgel_cuda_state *state,
                                     const edgel_volume_canny_params *params,
                                     const edgel_volume *src, const edgel_volume *edges,
                                     const edgel_volume_canny_stages *stages);
/* The building blocks on device views (cuda_blocks.cu), queued on the context's stream. */
edgel_status edgel_cuda_to_gray(edgel_cuda_state *state, edgel_gray order, const edgel_image *src,
                                const edgel_image *gray);
edgel_status edgel_cuda_gaussian_blur(edgel_cuda_state *state, const edgel_image *src,
                                      const edgel_image *dst, int ksize, double sigma);
edgel_status edgel_cuda_canny_gradients(edgel_cuda_state *state, const edgel_canny_params *params,
                                        const edgel_image *dx, const edgel_image *dy,
                                        const edgel_image *edges,
                                        const edgel_canny_stages *stages);

#ifdef __cplusplus
}
#endif

#endif
