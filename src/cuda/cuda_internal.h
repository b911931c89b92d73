/*
 * Internal to the CUDA backend: its state, buffers and the helpers its preset files share.
 */
#ifndef EDGEL_CUDA_INTERNAL_H
#define EDGEL_CUDA_INTERNAL_H

#include <cuda_runtime.h>
#include <stdint.h>

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

/* Device copies of the intermediate results of one frame, for host calls with stages. */
struct stage_buffers {
    size_t pixels;
    int16_t *dx, *dy;
    int32_t *mag;
    uint8_t *sup;
};

/* Float images of the itk preset (see cuda_itk.cu). */
struct itk_buffers {
    size_t pixels;
    float *smoothed, *sup; /* sup: the suppressed stage of host calls */
    uint8_t *classes, *edges;
};

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

/* The convolution engine's device memory (see cuda_filter.cu). Taps (taps, kx, ky) live in
 * a ring of FILTER_SLOTS device buffers filled from pinned ones, so that an upload waits only
 * for the call that used its slot FILTER_SLOTS calls earlier; a call with the taps of the
 * previous call uploads nothing. Also: row-pass results, the FFT method's tile grids and
 * spectra, one tile's kernel spectrum of the current taps, and the cuFFT plans of the last
 * few tilings. */
#define FILTER_SLOTS 4
#define FFT_PLANS 3
struct filter_buffers {
    float *taps[FILTER_SLOTS], *pinned[FILTER_SLOTS];
    cudaEvent_t done[FILTER_SLOTS]; /* after the last call that used the slot */
    int slot;                       /* holds the current taps */
    unsigned version;               /* of the current taps; 0: none yet */
    float *rows;                    /* separable row pass */
    size_t rows_bytes;
    float *real;                    /* FFT: a batch of tile grids, their spectra */
    void *spec, *kspec;             /* kspec: one tile's kernel spectrum */
    size_t fft_cells;               /* real values real and spec hold */
    size_t kspec_cells;
    unsigned kspec_version;         /* of the taps in kspec, for kspec_nx x kspec_ny tiles */
    int kspec_nx, kspec_ny;
    void *tiles_info;               /* fft_tiles on the device: the callbacks' caller info */
    struct fft_plans {              /* cuFFT plans of the last FFT_PLANS tilings */
        int nx, ny, batch;          /* nx 0: unused */
        int fused;                  /* fwd and inv carry the callbacks */
        int fwd, inv, kernel;       /* cufftHandle: the batch's R2C and C2R, one tile's R2C */
        unsigned used;              /* call counter when last used */
    } plans[FFT_PLANS];
    unsigned calls;
    int callbacks_failed; /* a plan with callbacks could not be made: plain plans from then on */
    int wanted_nx, wanted_ny, wanted_batch, wanted_calls; /* the tiling whose callbacks the
                                                             last calls wanted, and how many */
};

/* The chaining's device memory (cuda_subpixel_chain.cu), one allocation carved into arrays
 * sized by the points: the links and those the hysteresis keeps, the union-find over link
 * slots and then points with each set's size, facts of each chain, the competing proposals,
 * the curves in order and their points; cub's temporary space. */
struct subpixel_chain_buffers {
    int32_t *next, *prev, *kept_next, *kept_prev, *parent, *size, *rank, *first, *head;
    int32_t *proposal, *competing, *owner, *sorted_owner, *by_rank, *curve_root, *curve_of,
        *start, *succ[2], *dist[2], *counters;
    uint8_t *strong, *closed;
    int64_t *lengths, *limits;
    double *out[5]; /* x, y, gx, gy, modulus of the curves' points */
    void *block, *tmp;
    size_t points, tmp_bytes;
};

/* The sub-pixel detector's device memory (cuda_subpixel.cu): the source's rows (host calls),
 * the image as doubles and the blur's pass, each pixel's edge-point axis and point number,
 * the points' counts and first numbers by (column, chunk of rows), the points and their best
 * neighbours, the scans' space, the chaining's memory. Each grows to what a call needs and
 * is kept. */
struct subpixel_buffers {
    subpixel_chain_buffers chain;
    uint8_t *src, *axis;
    double *image, *pass, *kernel;
    int32_t *id, *counts, *starts, *total; /* total: the points, then the row-ordered ones */
    int32_t *column;                       /* each column's first point, then the count */
    double *x, *y, *gx, *gy, *mod, *fwd_s, *bck_s;
    int32_t *px, *py, *fwd, *bck, *row_order;
    void *scan_tmp;
    uint8_t *staging; /* page-locked: the points on their way to the host */
    size_t src_bytes, pixels, counts_cap, kernel_cap, total_cap, column_cap, points, scan_bytes,
        staging_bytes;
};

/* ITK's Canny on volumes (cuda_itk_volume.cu): the source (host calls), two float volumes,
 * the classes, the edges or a stage on their way to the host, the taps, the growth flag. */
struct volume_buffers {
    uint8_t *src, *map, *out, *kernels;
    float *a, *b;
    uint64_t *labels; /* the hysteresis's union-find (32-bit entries below 2^32 voxels) */
    size_t src_cap, map_cap, out_cap, kernels_cap, a_cap, b_cap, labels_cap;
};

/* The tiled driver's marks (cuda_marks.cu): two region, marks and side buffers, the region's
 * classes and edges, three tile-sized work maps; events between its three streams. A call
 * returns with its copies under way (`pending`); the next call, or the wait, finishes it. */
struct marks_buffers {
    uint8_t *region[2], *marks[2], *sides[2], *classes, *edges, *work;
    size_t region_bytes[2], marks_bytes[2], sides_bytes[2], classes_bytes, edges_bytes, work_bytes;
    uint8_t *host_sides; /* page-locked, two calls' halves: side columns come down unwaited */
    size_t host_sides_bytes;
    cudaEvent_t up[2], worked[2], down[2], call_done[2];
    int events_made;
    unsigned tiles, calls;      /* tiles and calls so far: their buffers alternate */
    int pending;                /* the last call's copies may still run */
    int pending_call;           /* its call_done event */
    int pending_count;          /* its tiles, their side arrays and heights */
    uint8_t **pending_sides;
    int *pending_heights;
    int pending_cap;
    const uint8_t *pending_from; /* its half of host_sides, a tile every pending_step bytes */
    size_t pending_step;
};

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
    stage_buffers stages;
    itk_buffers itk;
    skimage_buffers skimage;
    filter_buffers filter;
    marks_buffers marks;
    subpixel_buffers subpixel;
    volume_buffers volume;
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

/* The itk preset's and the convolution engine's buffers. */
void free_itk_buffers(itk_buffers *b);
void free_skimage_buffers(skimage_buffers *b);
void free_filter_buffers(filter_buffers *b);
void free_marks_buffers(marks_buffers *m);
void free_subpixel_buffers(subpixel_buffers *b);
void free_subpixel_chain_buffers(subpixel_chain_buffers *b);
/* Steps 3b to 5 of the sub-pixel detector on the device (cuda_subpixel_chain.cu): from the
 * `count` points and best neighbours in b (numbered in the reference's order, `row_order`
 * their memory order), the links, the hysteresis (high >= low) and the curves, copied into
 * c's result through b's page-locked staging, on `threads` host threads, or written into c's
 * device result (c->place) on `device`. */
edgel_status subpixel_chain_on_device(subpixel_buffers *b, cudaStream_t stream, int32_t count,
                                      double high, double low, int threads, int device,
                                      edgel_curves *c);
/* A sub-pixel result in device memory (cuda_curves_device.cu): room in c's own allocation on
 * `device` for `points` points and `curves` curves (its arrays carved, not yet the result);
 * c's host result copied there and made the result. */
edgel_status device_curves_reserve(edgel_curves *c, int device, int64_t points, int64_t curves);
edgel_status device_curves_upload(edgel_curves *c, int device, cudaStream_t stream);
void free_volume_buffers(volume_buffers *b);

#endif
