/*
 * Internal to the CUDA backend: its state, buffers and the helpers its preset files share.
 */
#ifndef EDGEL_CUDA_INTERNAL_H
#define EDGEL_CUDA_INTERNAL_H

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>

#include "cuda/cuda_backend.h"
#include "cuda/cuda_tuning.h"
#include "core/status.h"

#define CUDA_TRY(call)                                                                       \
    do {                                                                                     \
        cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess)                                                             \
            return edgel_fail(EDGEL_ERROR_DEVICE, "%s: %s", #call, cudaGetErrorString(err_)); \
    } while (0)

/* Makes a context's device current for one call and gives the calling thread its own device
 * back afterwards: a call never leaves its caller (CuPy, PyTorch, another context) on another
 * device than it found. */
struct device_scope {
    int previous, changed;
    cudaError_t err;
    explicit device_scope(int device)
    {
        if (cudaGetDevice(&previous) != cudaSuccess)
            previous = device;
        changed = previous != device;
        err = changed ? cudaSetDevice(device) : cudaSuccess;
    }
    ~device_scope()
    {
        if (changed && err == cudaSuccess)
            cudaSetDevice(previous);
    }
    device_scope(const device_scope &) = delete;
    device_scope &operator=(const device_scope &) = delete;
};
#define ON_DEVICE(device)                   \
    device_scope device_scope_(device);     \
    CUDA_TRY(device_scope_.err)

#define EDGEL_CUDA_MAX_FRAMES 64
#define EDGEL_TILE 32 /* tile side of the tile kernels and of the hysteresis */

/* Where each frame of a launch lives (passed by value: no table upload, no race). With
 * `varied`, frames of different sizes: each its own size and pitches below, the launch's
 * geometry that of the largest (canny_stream_kernel and finish_tiles read them). */
struct frame_table {
    const uint8_t *src[EDGEL_CUDA_MAX_FRAMES];
    uint8_t *dst[EDGEL_CUDA_MAX_FRAMES];
    size_t src_pitch;
    size_t dst_pitch;
    int varied;
    int32_t width[EDGEL_CUDA_MAX_FRAMES], height[EDGEL_CUDA_MAX_FRAMES];
    uint32_t src_pitches[EDGEL_CUDA_MAX_FRAMES];
    size_t dst_pitches[EDGEL_CUDA_MAX_FRAMES];
};

/* Device buffers for `frames` frames of up to `pixels` pixels and `channels` channels, and
 * `words` words of each hysteresis bitmap per frame (see cuda_hysteresis.cuh). */
struct workspace {
    size_t pixels, frames, words;
    int channels;
    uint8_t *gray, *blur;
    uint16_t *tmp;
    uint32_t *bits; /* per frame: cand, strong, reach (words each), parent (4 * words + 1) */
};

/* What a call on host images needs besides the workspace: a stream, device copies of the
 * frame and its edges, and pinned staging buffers. A batch's frames take the slots in turn
 * (EDGEL_HOST_SLOTS of them, cuda_tuning.h). */
struct host_slot {
    cudaStream_t stream;
    workspace ws;
    uint8_t *d_in, *d_out, *h_in, *h_out;
    size_t in_bytes, out_bytes;
    const edgel_image *pending; /* edges view waiting for h_out */
    int pending_direct;         /* ...or already copied into it (pinned memory) */
};









/* Each feature's device memory is its own, declared and defined beside its code, made on the
 * feature's first call (feature_state) and released with the context (release_<feature>):
 * stage_buffers (cuda_canny.cu: a frame's stages for host calls), itk_buffers (cuda_itk.cu),
 * skimage_buffers (cuda_skimage.cu), filter_buffers (cuda_filter.cu), marks_buffers
 * (cuda_marks.cu: the tiled driver's), subpixel_buffers (cuda_subpixel.cuh), volume_buffers
 * (cuda_itk_volume.cu). */
struct stage_buffers;
struct itk_buffers;
struct skimage_buffers;
struct filter_buffers;
struct marks_buffers;
struct subpixel_buffers;
struct volume_buffers;
void release_stage_buffers(stage_buffers *b);
void release_itk_buffers(itk_buffers *b);
void release_skimage_buffers(skimage_buffers *b);
void release_filter_buffers(filter_buffers *b);
void release_marks_buffers(marks_buffers *b);
void release_subpixel_buffers(subpixel_buffers *b);
void release_volume_buffers(volume_buffers *b);
/* The itk preset's classes of its last frame (device, packed), which the tiled driver's
 * marks read (cuda_itk.cu). */
uint8_t *itk_last_classes(edgel_cuda_state *s);

/* *p, a feature's state (`what`), made zeroed on its first use. */
template <typename T> edgel_status feature_state(T **p, const char *what)
{
    if (!*p)
        *p = (T *)calloc(1, sizeof(T));
    return *p ? EDGEL_OK : edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for %s", what);
}

/* What the tuning reads of a device, asked once (cuda_device.cu): launch shapes and the
 * filter's cost model scale with it from the reference device they were fitted on. */
struct device_info {
    int sms;          /* streaming multiprocessors */
    double clock_ghz; /* SM clock, peak */
    double bandwidth; /* memory bandwidth, peak, bytes/s */
};
/* The info of `device` (cached; the reference device's where a query fails). */
const device_info &edgel_device_info(int device);
/* The info of the calling thread's current device. */
const device_info &edgel_current_device_info();

struct edgel_cuda_state {
    int device;
    int devices; /* CUDA devices present: past one, device views are checked for their device */
    int threads; /* CPU threads for staging copies */
    cudaStream_t own_stream, stream;
    workspace ws; /* for device images, on `stream` */
    host_slot slots[EDGEL_HOST_SLOTS];
    /* each feature's memory, NULL until its first call */
    stage_buffers *stages;
    itk_buffers *itk;
    skimage_buffers *skimage;
    filter_buffers *filter;
    marks_buffers *marks;
    subpixel_buffers *subpixel;
    volume_buffers *volume;
    /* the other lanes of sub-pixel batches (the context itself is the first), made on first
     * use, each a state of its own streams and memory on this device */
    edgel_cuda_state *subpixel_lanes[EDGEL_SUBPIXEL_LANES - 1];
};

/* uint32 elements of one frame's hysteresis bitmaps and nodes, for `words` words a bitmap. */
size_t edgel_cuda_bits_per_frame(size_t words);
/* Frames a launch takes of `pixels` pixels and `channels` channels (the GPU filled, about
 * 1 GiB of workspace at most). */
size_t edgel_cuda_frames_per_launch(size_t pixels, int channels);
/* Grow-only device buffers for w x h frames (reallocation synchronises the device; reserve to
 * avoid it). */
edgel_status ensure_workspace(workspace *ws, int w, int h, size_t frames, int channels);
edgel_status ensure_slot(host_slot *s, size_t in_bytes, size_t out_bytes);
/* Where a call on one frame runs: host views on the first host slot's stream and workspace,
 * staged through its buffers (the call then waits for its stream); device views on the
 * context's stream and workspace (the call only queues work). */
struct frame_call {
    int on_host;
    cudaStream_t stream;
    workspace *ws;
    host_slot *slot;
};
static inline frame_call frame_call_of(edgel_cuda_state *s, const edgel_image *src)
{
    const int on_host = src->memory == EDGEL_MEMORY_HOST;
    return {on_host, on_host ? s->slots[0].stream : s->stream, on_host ? &s->slots[0].ws : &s->ws,
            &s->slots[0]};
}

/* *p holds at least `want` elements of T: reallocated (contents lost) only to grow. */
template <typename T> edgel_status grow_device_buffer(T **p, size_t *cap, size_t want)
{
    if (want <= *cap)
        return EDGEL_OK;
    cudaFree(*p);
    *p = NULL;
    *cap = 0;
    CUDA_TRY(cudaMalloc(p, want * sizeof(T)));
    *cap = want;
    return EDGEL_OK;
}

/* Host staging and view checks (cuda_staging.cu). */
/* True for page-locked host memory (copied by DMA without staging). */
int is_pinned(const void *p);
/* EDGEL_OK when the device view `v` (named `name`; NULL: none) lives on the context's device;
 * checked only on hosts of several devices, where a view of another GPU would fault there. */
edgel_status check_view_device(const edgel_cuda_state *s, const edgel_image *v, const char *name);
/* Device arrays copied into host arrays (`bytes` each) through the page-locked `*staging`
 * (grown to fit: a pageable copy runs at a fraction of the bus's rate), then spread from it
 * on `threads` host threads (16 parts at most); the call waits for `stream`. */
struct device_part {
    void *host;
    const void *device;
    size_t bytes;
};
edgel_status copy_down_staged(uint8_t **staging, size_t *staging_bytes, cudaStream_t stream,
                              const device_part *parts, int n, int threads);
/* A one-frame call's input and output as its kernels read and write them. */
struct staged_frame {
    const uint8_t *src;
    size_t src_pitch;
    uint8_t *dst;
    size_t dst_pitch;
};
/* Device views: the views themselves. Host views: the slot's device buffers (packed rows),
 * the input copied up on the call's stream. */
edgel_status stage_frame_in(const frame_call &call, const edgel_image *src,
                            const edgel_image *dst, staged_frame *f);
/* Host views: the output copied back into `dst`, and the call waits for its stream. */
edgel_status stage_frame_out(const frame_call &call, const edgel_image *dst,
                             const staged_frame &f);

/* Hysteresis of one frame of classes (EDGEL_MAP_* bytes) into u8 edges (255/0). */
edgel_status launch_class_hysteresis(cudaStream_t stream, workspace *ws, const uint8_t *classes,
                                     size_t classes_pitch, uint8_t *edges, size_t edges_pitch,
                                     int w, int h);

/* The convolution engine's fixed-point separable method (cuda_fixed_filter.cu) on `nframes`
 * frames of the plan's size: OpenCV's GaussianBlur, run by the Canny pre-smoothing too.
 * Kernels of more than 17 taps a side go through `tmp` (u16, tmp_stride values a frame). */
struct edgel_filter_plan;
edgel_status launch_fixed_filter(cudaStream_t stream, const frame_table &frames, int nframes,
                                 const edgel_filter_plan *plan, uint16_t *tmp, size_t tmp_stride);

/* A sub-pixel result in device memory (cuda_curves_device.cu): room in c's own allocation on
 * `device` for `points` points and `curves` curves (its arrays carved, not yet the result);
 * c's host result copied there and made the result. */
edgel_status device_curves_reserve(edgel_curves *c, int device, int64_t points, int64_t curves);
edgel_status device_curves_upload(edgel_curves *c, int device, cudaStream_t stream);

#endif
