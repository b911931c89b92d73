/*
 * The opencv preset on the GPU: its launch sequence (kernels in cuda_kernels.cuh, hysteresis
 * in cuda_hysteresis.cu) and the pipelining of host frames over the host slots (workspaces
 * and streams are cuda_context.cu's, one-frame staging cuda_staging.cu's).
 *
 * Where the host waits, and only there:
 *  - calls on host images wait for their own results (cudaStreamSynchronize on the slot's
 *    stream before reading the output); page-locked views are copied by DMA directly,
 *    others through pinned staging buffers;
 *  - a workspace that must grow beyond its reserved size is reallocated (cudaFree and
 *    cudaMalloc synchronise the device); edgel_context_reserve avoids that;
 *  - edgel_context_synchronize, on request.
 * Calls on device images only queue work on the context's stream.
 */
#include "cuda/cuda_backend.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>


#include "core/filter.h"
#include "core/image.h"
#include "core/params.h"
#include "core/status.h"
#include "core/host_pool.h"
#include "cuda/cuda_internal.h"
#include "cuda/cuda_kernels.cuh"
#include "cuda/cuda_launch.cuh"

/* Device copies of the intermediate results of one frame, for host calls with stages. */
struct stage_buffers {
    size_t pixels;
    int16_t *dx, *dy;
    int32_t *mag;
    uint8_t *sup;
};

/* The hysteresis arrays of a workspace for w x h frames. */
static canny_bits bits_of(const workspace *ws, int w, int h)
{
    canny_bits b;
    b.stride = edgel_cuda_bits_per_frame(ws->words);
    b.cand = ws->bits;
    b.strong = b.cand + ws->words;
    b.reach = b.strong + ws->words;
    b.parent = b.reach + ws->words;
    b.tiles_x = (w + EDGEL_TILE - 1) / EDGEL_TILE;
    b.tiles_y = (h + EDGEL_TILE - 1) / EDGEL_TILE;
    return b;
}

/* Device pointers of the single-frame stages (NULL members when not wanted). */
struct device_stages {
    canny_stage_out out;
    uint8_t *gray, *smoothed;
    size_t gray_pitch, smoothed_pitch;
};

/* The tile kernel for an aperture and channel count (templates: constants fold). */
template <tile_source SOURCE>
static void launch_tile(int aperture, int cn, dim3 grid, cudaStream_t stream, const frame_table &t,
                        const int16_t *dy, size_t dy_pitch, const canny_bits &b,
                        const canny_geometry &g, const canny_stage_out &so)
{
    const dim3 block(EDGEL_TILE, EDGEL_TILE_ROWS);
#define EDGEL_TILE_CASE(A, C)                                                                  \
    if (aperture == A && cn == C) {                                                            \
        canny_tile_kernel<A, C, SOURCE><<<grid, block, 0, stream>>>(t, dy, dy_pitch, b, g, so); \
        return;                                                                                \
    }
    EDGEL_TILE_CASE(3, 1)
    if constexpr (SOURCE == TILE_FROM_CLASSES)
        return;
    EDGEL_TILE_CASE(3, 3) EDGEL_TILE_CASE(3, 4)
    if constexpr (SOURCE == TILE_FROM_IMAGE) {
        EDGEL_TILE_CASE(5, 1) EDGEL_TILE_CASE(5, 3) EDGEL_TILE_CASE(5, 4)
        EDGEL_TILE_CASE(7, 1) EDGEL_TILE_CASE(7, 3) EDGEL_TILE_CASE(7, 4)
        EDGEL_TILE_CASE(-1, 1) EDGEL_TILE_CASE(-1, 3) EDGEL_TILE_CASE(-1, 4)
    }
#undef EDGEL_TILE_CASE
}

/* The streaming kernel's shapes, most work shared first: PX pixels (and tiles) a lane, SPLIT
 * warps a tile. A launch takes the first that gives at least EDGEL_STREAM_SM_WARPS warps an
 * SM of the device (else the last): wide warps share the per-row work, but need more
 * registers, so fewer fit on an SM; few warps, each walking many rows, leave the GPU idle;
 * bands of part of a tile read its four halo rows again. Eight pixels a lane would need too
 * many registers for a full SM. */
struct stream_shape {
    int px, split;
    void (*kernel[2][2])(frame_table, canny_bits, canny_geometry, bool); /* [L2][varied] */
};
#define EDGEL_STREAM_SHAPE(PX, SPLIT)                                                         \
    {PX, SPLIT, {{canny_stream_kernel<PX, SPLIT, false, false>,                               \
                  canny_stream_kernel<PX, SPLIT, false, true>},                               \
                 {canny_stream_kernel<PX, SPLIT, true, false>,                                \
                  canny_stream_kernel<PX, SPLIT, true, true>}}}
static const stream_shape stream_shapes[] = {EDGEL_STREAM_SHAPE(4, 1), EDGEL_STREAM_SHAPE(4, 2),
                                             EDGEL_STREAM_SHAPE(4, 4), EDGEL_STREAM_SHAPE(2, 4),
                                             EDGEL_STREAM_SHAPE(1, 4)};
#undef EDGEL_STREAM_SHAPE

/* Whether every frame's rows can be read `bytes` at a time with aligned loads. */
static bool rows_aligned(const frame_table &t, int nframes, int bytes)
{
    bool ok = t.src_pitch % (size_t)bytes == 0;
    for (int z = 0; z < nframes; z++)
        ok = ok && (uintptr_t)t.src[z] % (uintptr_t)bytes == 0 &&
             (!t.varied || t.src_pitches[z] % (uint32_t)bytes == 0);
    return ok;
}

/* With `early`, a programmatic dependent launch (after the pre-blur: the kernel readies its
 * tiles' nodes while the blur ends). */
static cudaError_t launch_stream(bool early, cudaStream_t stream, const frame_table &t,
                                 const canny_bits &b, const canny_geometry &g, int nframes)
{
    const int count = (int)(sizeof stream_shapes / sizeof stream_shapes[0]);
    const long long min_warps = (long long)EDGEL_STREAM_SM_WARPS * edgel_current_device_info().sms;
    long long warps = 0;
    int i = 0;
    for (; i < count; i++) {
        warps = (long long)((b.tiles_x + stream_shapes[i].px - 1) / stream_shapes[i].px) * b.tiles_y *
                stream_shapes[i].split * nframes;
        if (warps >= min_warps || i == count - 1)
            break;
    }
    const dim3 grid((unsigned)((warps / nframes + EDGEL_STREAM_WARPS - 1) / EDGEL_STREAM_WARPS), 1,
                    (unsigned)nframes);
    const bool aligned = rows_aligned(t, nframes, stream_shapes[i].px);
    return launch_after(early, stream_shapes[i].kernel[g.l2 ? 1 : 0][t.varied ? 1 : 0], grid,
                        dim3(32 * EDGEL_STREAM_WARPS), stream, t, b, g, aligned);
}

edgel_status launch_class_hysteresis(cudaStream_t stream, workspace *ws, const uint8_t *classes,
                                     size_t classes_pitch, uint8_t *edges, size_t edges_pitch,
                                     int w, int h)
{
    EDGEL_TRY(ensure_workspace(ws, w, h, 1, 1));
    frame_table t;
    memset(&t, 0, sizeof t);
    t.src[0] = classes;
    t.dst[0] = edges;
    t.src_pitch = classes_pitch;
    t.dst_pitch = edges_pitch;
    const canny_bits b = bits_of(ws, w, h);
    canny_geometry g = {w, h, 1, 0, 0, 0};
    canny_stage_out none;
    memset(&none, 0, sizeof none);
    const dim3 tiles(b.tiles_x, b.tiles_y, 1);
    launch_tile<TILE_FROM_CLASSES>(3, 1, tiles, stream, t, NULL, 0, b, g, none);
    EDGEL_TRY(launch_hysteresis(stream, t, b, w, h, 1));
    CUDA_TRY(cudaGetLastError());
    return EDGEL_OK;
}

/*
 * The whole pipeline for `nframes` frames on `stream`: frames.src are u8 frames of `cn`
 * channels (device), frames.dst their edge maps (device; NULL with one frame and stages:
 * the stages without hysteresis). With one frame, `st` may redirect
 * the gray/smoothed intermediates and receive the other stages.
 */
static edgel_status launch_pipeline(cudaStream_t stream, workspace *ws,
                                    const edgel_canny_params *p, frame_table frames,
                                    int nframes, int w, int h, int cn, const device_stages *st)
{
    const dim3 block2d(32, 8), grid2d((w + 31) / 32, (h + 7) / 8, nframes);
    frame_table cur = frames; /* cur.src: what the next stage reads */

    if (p->gray != EDGEL_GRAY_NONE && cn > 1) {
        frame_table t = frames;
        for (int z = 0; z < nframes; z++)
            t.dst[z] = st && st->gray ? st->gray : ws->gray + z * ws->pixels;
        t.dst_pitch = st && st->gray ? st->gray_pitch : (size_t)w;
        gray_kernel<<<grid2d, block2d, 0, stream>>>(t, w, h, cn, p->gray == EDGEL_GRAY_BGR ? 2 : 0);
        for (int z = 0; z < nframes; z++)
            cur.src[z] = t.dst[z];
        cur.src_pitch = t.dst_pitch;
        cn = 1;
    } else if (st && st->gray) { /* the gray stage of a gray frame is the frame */
        CUDA_TRY(cudaMemcpy2DAsync(st->gray, st->gray_pitch, cur.src[0], cur.src_pitch, (size_t)w,
                                   h, cudaMemcpyDeviceToDevice, stream));
    }
    if (p->blur != EDGEL_BLUR_NONE) {
        frame_table t = cur;
        for (int z = 0; z < nframes; z++)
            t.dst[z] = st && st->smoothed ? st->smoothed : ws->blur + z * ws->pixels * ws->channels;
        t.dst_pitch = st && st->smoothed ? st->smoothed_pitch : (size_t)w * cn;
        if (p->blur == EDGEL_BLUR_GAUSSIAN) { /* the convolution engine's fixed point */
            int32_t k;
            EDGEL_TRY(edgel_resolve_gaussian(p->blur_ksize, p->blur_sigma, &k));
            edgel_filter_plan gauss;
            edgel_filter_plan_gaussian(w, h, cn, k, p->blur_sigma, &gauss);
            EDGEL_TRY(launch_fixed_filter(stream, t, nframes, &gauss, ws->tmp,
                                          ws->pixels * ws->channels));
        } else {
            const dim3 rows_grid((w * cn + 127) / 128, h < 65535 ? h : 65535, nframes);
            blur_5x5_159<<<rows_grid, 128, 0, stream>>>(t, w, h, cn);
        }
        for (int z = 0; z < nframes; z++)
            cur.src[z] = t.dst[z];
        cur.src_pitch = t.dst_pitch;
    }

    /* The smoothed stage without blur is the image Canny reads. */
    if (st && st->smoothed && p->blur == EDGEL_BLUR_NONE)
        CUDA_TRY(cudaMemcpy2DAsync(st->smoothed, st->smoothed_pitch, cur.src[0], cur.src_pitch,
                                   (size_t)w * cn, h, cudaMemcpyDeviceToDevice, stream));

    const canny_bits b = bits_of(ws, w, h);
    const edgel_int_thresholds th = edgel_opencv_thresholds(p, 0);
    canny_geometry g = {w, h, cn, th.low, th.high, p->l2_gradient};
    canny_stage_out so;
    memset(&so, 0, sizeof so);
    if (st)
        so = st->out;
    if (p->aperture == 3 && cn == 1 && !so.dx && !so.mag && !so.suppressed && cur.src_pitch <= UINT32_MAX) {
        CUDA_TRY(launch_stream(p->blur != EDGEL_BLUR_NONE && early_launch_supported(), stream, cur,
                               b, g, nframes));
    } else {
        const dim3 tiles(b.tiles_x, b.tiles_y, nframes);
        launch_tile<TILE_FROM_IMAGE>(p->aperture, cn, tiles, stream, cur, NULL, 0, b, g, so);
    }
    if (frames.dst[0]) /* none: the stages only (the tiled driver's classes) */
        EDGEL_TRY(launch_hysteresis(stream, frames, b, w, h, nframes));
    CUDA_TRY(cudaGetLastError());
    return EDGEL_OK;
}

/* Stage views of a device call, as device pointers. */
static device_stages device_stage_pointers(const edgel_canny_stages *s)
{
    device_stages d;
    memset(&d, 0, sizeof d);
    if (!s)
        return d;
    if (s->dx) {
        d.out.dx = (int16_t *)s->dx->data;
        d.out.dx_pitch = s->dx->pitch;
    }
    if (s->dy) {
        d.out.dy = (int16_t *)s->dy->data;
        d.out.dy_pitch = s->dy->pitch;
    }
    if (s->magnitude) {
        d.out.mag = (int32_t *)s->magnitude->data;
        d.out.mag_pitch = s->magnitude->pitch;
    }
    if (s->suppressed) {
        d.out.suppressed = (uint8_t *)s->suppressed->data;
        d.out.sup_pitch = s->suppressed->pitch;
    }
    if (s->gray) {
        d.gray = (uint8_t *)s->gray->data;
        d.gray_pitch = s->gray->pitch;
    }
    if (s->smoothed) {
        d.smoothed = (uint8_t *)s->smoothed->data;
        d.smoothed_pitch = s->smoothed->pitch;
    }
    return d;
}

void release_stage_buffers(stage_buffers *b)
{
    cudaFree(b->dx);
    cudaFree(b->dy);
    cudaFree(b->mag);
    cudaFree(b->sup);
    memset(b, 0, sizeof *b);
}

/* Device buffers for the stages of a frame of `px` pixels. */
static edgel_status ensure_stage_buffers(edgel_cuda_state *s, size_t px)
{
    EDGEL_TRY(feature_state(&s->stages, "the stages' buffers"));
    stage_buffers *b = s->stages;
    if (b->pixels >= px)
        return EDGEL_OK;
    release_stage_buffers(b);
    CUDA_TRY(cudaMalloc(&b->dx, px * 2));
    CUDA_TRY(cudaMalloc(&b->dy, px * 2));
    CUDA_TRY(cudaMalloc(&b->mag, px * 4));
    CUDA_TRY(cudaMalloc(&b->sup, px));
    b->pixels = px;
    return EDGEL_OK;
}

/* The kernel writes dx and dy together; give it scratch for the one not asked for. */
static edgel_status complete_gradient_stages(edgel_cuda_state *s, device_stages *d, size_t px,
                                             int w)
{
    if (!d->out.dx == !d->out.dy)
        return EDGEL_OK;
    EDGEL_TRY(ensure_stage_buffers(s, px));
    if (!d->out.dx) {
        d->out.dx = s->stages->dx;
        d->out.dx_pitch = (size_t)w * 2;
    } else {
        d->out.dy = s->stages->dy;
        d->out.dy_pitch = (size_t)w * 2;
    }
    return EDGEL_OK;
}

/* Frames of different sizes in one launch sequence (edgel_cuda_varied_batch's case): the
 * launches take the largest frame's geometry, each frame its own size and pitches. */
static edgel_status canny_device_varied(edgel_cuda_state *s, const edgel_canny_params *p,
                                        const edgel_image *srcs, const edgel_image *edges,
                                        int count)
{
    int w = 0, h = 0;
    for (int i = 0; i < count; i++) {
        w = srcs[i].width > w ? srcs[i].width : w;
        h = srcs[i].height > h ? srcs[i].height : h;
    }
    const size_t per_launch = edgel_cuda_frames_per_launch((size_t)w * h, 1);
    EDGEL_TRY(ensure_workspace(&s->ws, w, h, count < (int)per_launch ? (size_t)count : per_launch, 1));
    for (int first = 0; first < count; first += (int)s->ws.frames) {
        const int n = count - first < (int)s->ws.frames ? count - first : (int)s->ws.frames;
        frame_table t;
        memset(&t, 0, sizeof t);
        t.varied = 1;
        for (int z = 0; z < n; z++) {
            const edgel_image &f = srcs[first + z], &e = edges[first + z];
            t.src[z] = (const uint8_t *)f.data;
            t.dst[z] = (uint8_t *)e.data;
            t.width[z] = f.width;
            t.height[z] = f.height;
            t.src_pitches[z] = (uint32_t)f.pitch;
            t.dst_pitches[z] = e.pitch;
        }
        EDGEL_TRY(launch_pipeline(s->stream, &s->ws, p, t, n, w, h, 1, NULL));
    }
    return EDGEL_OK;
}

extern "C" int edgel_cuda_varied_batch(const edgel_canny_params *p, const edgel_image *srcs,
                                       int count)
{
    /* the streaming kernel's case: gray device frames, Sobel 3x3, no blur */
    if (p->preset != EDGEL_PRESET_OPENCV || p->aperture != 3 || p->blur != EDGEL_BLUR_NONE)
        return 0;
    for (int i = 0; i < count; i++)
        if (srcs[i].memory != EDGEL_MEMORY_DEVICE || srcs[i].channels != 1 ||
            srcs[i].pitch > UINT32_MAX)
            return 0;
    return 1;
}

static edgel_status canny_device(edgel_cuda_state *s, const edgel_canny_params *p,
                                 const edgel_image *srcs, const edgel_image *edges, int count,
                                 const edgel_canny_stages *stages)
{
    for (int i = 1; i < count; i++)
        if (srcs[i].width != srcs[0].width || srcs[i].height != srcs[0].height ||
            srcs[i].pitch != srcs[0].pitch || edges[i].pitch != edges[0].pitch)
            return canny_device_varied(s, p, srcs, edges, count);
    const int w = srcs[0].width, h = srcs[0].height, cn = srcs[0].channels;
    const size_t px = (size_t)w * h;
    const size_t per_launch = edgel_cuda_frames_per_launch(px, cn);
    EDGEL_TRY(ensure_workspace(&s->ws, w, h, count < (int)per_launch ? (size_t)count : per_launch, cn));
    device_stages ds = device_stage_pointers(stages);
    if (stages)
        EDGEL_TRY(complete_gradient_stages(s, &ds, px, w));
    for (int first = 0; first < count; first += (int)s->ws.frames) {
        const int n = count - first < (int)s->ws.frames ? count - first : (int)s->ws.frames;
        frame_table t;
        memset(&t, 0, sizeof t);
        for (int z = 0; z < n; z++) {
            t.src[z] = (const uint8_t *)srcs[first + z].data;
            t.dst[z] = (uint8_t *)edges[first + z].data;
        }
        t.src_pitch = srcs[first].pitch;
        t.dst_pitch = edges[first].pitch;
        EDGEL_TRY(launch_pipeline(s->stream, &s->ws, p, t, n, w, h, cn, stages ? &ds : NULL));
    }
    return EDGEL_OK;
}

/* Copies a host view into a packed staging buffer, and back, on the context's threads. */
static void pack_rows(int threads, const edgel_image *img, uint8_t *dst)
{
    const size_t row = edgel_row_bytes(img);
    edgel_host_copy_rows(threads, (const uint8_t *)img->data, img->pitch, dst, row, row,
                        img->height);
}

static void unpack_rows(int threads, const uint8_t *src, const edgel_image *img)
{
    const size_t row = edgel_row_bytes(img);
    edgel_host_copy_rows(threads, src, row, (uint8_t *)img->data, img->pitch, row, img->height);
}

static edgel_status finish_slot(host_slot *slot, int threads)
{
    if (!slot->pending)
        return EDGEL_OK;
    const edgel_image *view = slot->pending;
    slot->pending = NULL;
    CUDA_TRY(cudaStreamSynchronize(slot->stream));
    if (!slot->pending_direct)
        unpack_rows(threads, slot->h_out, view);
    return EDGEL_OK;
}

/* Host stage views: run the stages into device buffers, then copy them down. */
static edgel_status host_stages(edgel_cuda_state *s, host_slot *slot,
                                const edgel_canny_stages *stages, device_stages *ds, size_t px,
                                int w)
{
    EDGEL_TRY(ensure_stage_buffers(s, px));
    stage_buffers *b = s->stages;
    memset(ds, 0, sizeof *ds);
    if (stages->dx || stages->dy) {
        ds->out.dx = b->dx;
        ds->out.dy = b->dy;
        ds->out.dx_pitch = ds->out.dy_pitch = (size_t)w * 2;
    }
    if (stages->magnitude) {
        ds->out.mag = b->mag;
        ds->out.mag_pitch = (size_t)w * 4;
    }
    if (stages->suppressed) {
        ds->out.suppressed = b->sup;
        ds->out.sup_pitch = (size_t)w;
    }
    if (stages->gray) {
        ds->gray = slot->ws.gray;
        ds->gray_pitch = (size_t)w;
    }
    if (stages->smoothed) {
        ds->smoothed = slot->ws.blur;
        ds->smoothed_pitch = (size_t)w * stages->smoothed->channels;
    }
    return EDGEL_OK;
}

static edgel_status copy_stage_down(cudaStream_t stream, const edgel_image *view, const void *dev,
                                    size_t dev_pitch)
{
    if (!view)
        return EDGEL_OK;
    CUDA_TRY(cudaMemcpy2DAsync(view->data, view->pitch, dev, dev_pitch, edgel_row_bytes(view),
                               view->height, cudaMemcpyDeviceToHost, stream));
    return EDGEL_OK;
}

static edgel_status canny_host(edgel_cuda_state *s, const edgel_canny_params *p,
                               const edgel_image *srcs, const edgel_image *edges, int count,
                               const edgel_canny_stages *stages)
{
    const int w = srcs[0].width, h = srcs[0].height, cn = srcs[0].channels;
    const size_t px = (size_t)w * h;
    for (int i = 0; i < EDGEL_HOST_SLOTS && i < count; i++) {
        EDGEL_TRY(ensure_workspace(&s->slots[i].ws, w, h, 1, cn));
        EDGEL_TRY(ensure_slot(&s->slots[i], px * cn, px));
    }
    /* A batch is all pinned or all not when its first frame is (the usual case); else staged. */
    int pinned_in = is_pinned(srcs[0].data), pinned_out = is_pinned(edges[0].data);
    for (int i = 1; i < count && (pinned_in || pinned_out); i++) {
        pinned_in = pinned_in && is_pinned(srcs[i].data);
        pinned_out = pinned_out && is_pinned(edges[i].data);
    }
    edgel_status st = EDGEL_OK;
    for (int i = 0; i < count && st == EDGEL_OK; i++) {
        host_slot *slot = &s->slots[i % EDGEL_HOST_SLOTS];
        st = finish_slot(slot, s->threads); /* the edges of this slot's last frame out of its buffer */
        if (st != EDGEL_OK)
            break;
        cudaError_t err;
        if (pinned_in) {
            err = cudaMemcpy2DAsync(slot->d_in, (size_t)w * cn, srcs[i].data, srcs[i].pitch,
                                    (size_t)w * cn, h, cudaMemcpyHostToDevice, slot->stream);
        } else {
            pack_rows(s->threads, &srcs[i], slot->h_in);
            err = cudaMemcpyAsync(slot->d_in, slot->h_in, px * cn, cudaMemcpyHostToDevice,
                                  slot->stream);
        }
        if (err != cudaSuccess) {
            st = edgel_fail(EDGEL_ERROR_DEVICE, "copy to device: %s", cudaGetErrorString(err));
            break;
        }
        frame_table t;
        memset(&t, 0, sizeof t);
        t.src[0] = slot->d_in;
        t.dst[0] = slot->d_out;
        t.src_pitch = (size_t)w * cn;
        t.dst_pitch = (size_t)w;
        device_stages ds;
        if (stages)
            st = host_stages(s, slot, stages, &ds, px, w);
        if (st == EDGEL_OK)
            st = launch_pipeline(slot->stream, &slot->ws, p, t, 1, w, h, cn, stages ? &ds : NULL);
        if (st == EDGEL_OK && stages) {
            st = copy_stage_down(slot->stream, stages->dx, ds.out.dx, ds.out.dx_pitch);
            if (st == EDGEL_OK)
                st = copy_stage_down(slot->stream, stages->dy, ds.out.dy, ds.out.dy_pitch);
            if (st == EDGEL_OK)
                st = copy_stage_down(slot->stream, stages->magnitude, ds.out.mag, ds.out.mag_pitch);
            if (st == EDGEL_OK)
                st = copy_stage_down(slot->stream, stages->suppressed, ds.out.suppressed,
                                     ds.out.sup_pitch);
            if (st == EDGEL_OK)
                st = copy_stage_down(slot->stream, stages->gray, ds.gray, ds.gray_pitch);
            if (st == EDGEL_OK)
                st = copy_stage_down(slot->stream, stages->smoothed, ds.smoothed, ds.smoothed_pitch);
        }
        if (st != EDGEL_OK)
            break;
        if (pinned_out)
            err = cudaMemcpy2DAsync(edges[i].data, edges[i].pitch, slot->d_out, (size_t)w, (size_t)w,
                                    h, cudaMemcpyDeviceToHost, slot->stream);
        else
            err = cudaMemcpyAsync(slot->h_out, slot->d_out, px, cudaMemcpyDeviceToHost, slot->stream);
        if (err != cudaSuccess) {
            st = edgel_fail(EDGEL_ERROR_DEVICE, "copy to host: %s", cudaGetErrorString(err));
            break;
        }
        slot->pending = &edges[i];
        slot->pending_direct = pinned_out;
    }
    for (int i = 0; i < EDGEL_HOST_SLOTS; i++) {
        edgel_status f = finish_slot(&s->slots[i], s->threads);
        if (st == EDGEL_OK)
            st = f;
    }
    return st;
}

extern "C" edgel_status edgel_cuda_canny(edgel_cuda_state *s, const edgel_canny_params *p,
                                         const edgel_image *srcs, const edgel_image *edges,
                                         int count, const edgel_canny_stages *stages)
{
    ON_DEVICE(s->device);
    EDGEL_TRY(check_view_device(s, &srcs[0], "input frames"));
    EDGEL_TRY(check_view_device(s, &edges[0], "edges"));
    if (srcs[0].memory == EDGEL_MEMORY_DEVICE)
        return canny_device(s, p, srcs, edges, count, stages);
    return canny_host(s, p, srcs, edges, count, stages);
}

extern "C" edgel_status edgel_cuda_canny_gradients(edgel_cuda_state *s,
                                                   const edgel_canny_params *p,
                                                   const edgel_image *dx, const edgel_image *dy,
                                                   const edgel_image *edges,
                                                   const edgel_canny_stages *stages)
{
    ON_DEVICE(s->device);
    EDGEL_TRY(check_view_device(s, dx, "dx"));
    EDGEL_TRY(check_view_device(s, edges, "edges"));
    const int w = dx->width, h = dx->height, cn = dx->channels;
    const size_t px = (size_t)w * h;
    const frame_call call = frame_call_of(s, dx);
    const int on_host = call.on_host;
    cudaStream_t stream = call.stream;
    workspace *ws = call.ws;
    EDGEL_TRY(ensure_workspace(ws, w, h, 1, 1));
    const int16_t *ddx = (const int16_t *)dx->data, *ddy = (const int16_t *)dy->data;
    uint8_t *dedges = (uint8_t *)edges->data;
    size_t dx_pitch = dx->pitch, dy_pitch = dy->pitch, e_pitch = edges->pitch;
    host_slot *slot = call.slot;
    if (on_host) {
        const size_t row = (size_t)w * cn * 2;
        EDGEL_TRY(ensure_slot(slot, 2 * row * h, px));
        pack_rows(s->threads, dx, slot->h_in);
        pack_rows(s->threads, dy, slot->h_in + row * h);
        CUDA_TRY(cudaMemcpyAsync(slot->d_in, slot->h_in, 2 * row * h, cudaMemcpyHostToDevice, stream));
        ddx = (const int16_t *)slot->d_in;
        ddy = (const int16_t *)(slot->d_in + row * h);
        dx_pitch = dy_pitch = row;
        dedges = slot->d_out;
        e_pitch = (size_t)w;
    }
    device_stages ds;
    memset(&ds, 0, sizeof ds);
    if (stages && on_host) {
        EDGEL_TRY(host_stages(s, slot, stages, &ds, px, w));
    } else if (stages) {
        ds = device_stage_pointers(stages);
    }
    frame_table t;
    memset(&t, 0, sizeof t);
    t.src[0] = (const uint8_t *)ddx;
    t.dst[0] = dedges;
    t.src_pitch = dx_pitch;
    t.dst_pitch = e_pitch;
    const canny_bits b = bits_of(ws, w, h);
    const edgel_int_thresholds th = edgel_opencv_thresholds(p, 1);
    canny_geometry g = {w, h, cn, th.low, th.high, p->l2_gradient};
    const dim3 tiles(b.tiles_x, b.tiles_y, 1);
    launch_tile<TILE_FROM_GRADIENTS>(3, cn, tiles, stream, t, ddy, dy_pitch, b, g, ds.out);
    EDGEL_TRY(launch_hysteresis(stream, t, b, w, h, 1));
    CUDA_TRY(cudaGetLastError());
    if (on_host) {
        if (stages) {
            EDGEL_TRY(copy_stage_down(stream, stages->magnitude, ds.out.mag, ds.out.mag_pitch));
            EDGEL_TRY(copy_stage_down(stream, stages->suppressed, ds.out.suppressed, ds.out.sup_pitch));
        }
        CUDA_TRY(cudaMemcpyAsync(slot->h_out, slot->d_out, px, cudaMemcpyDeviceToHost, stream));
        slot->pending = edges;
        slot->pending_direct = 0;
        EDGEL_TRY(finish_slot(slot, s->threads));
    }
    return EDGEL_OK;
}
