/*
 * Public entry points of Canny and its building blocks: argument checks, then the context's
 * backend (core/backend.h), which receives checked arguments only.
 */
#include "api/context.h"
#include "cpu/cpu_backend.h"
#include "core/image.h"
#include "core/params.h"
#include "core/status.h"

#include <stdlib.h>
#include <string.h>


/* The memory kind of a call: host on the CPU; on the GPU, whatever the first view says (all
 * views of a call must agree). */
static edgel_memory call_memory(const edgel_context *ctx, const edgel_image *first)
{
    if (on_gpu(ctx) && first && first->memory == EDGEL_MEMORY_DEVICE)
        return EDGEL_MEMORY_DEVICE;
    return EDGEL_MEMORY_HOST;
}

/* A stage view: right type, one channel (or `channels`), same size as ref, no overlap with
 * the views the call reads or writes. */
static edgel_status check_stage(const edgel_image *stage, const char *name, edgel_pixel_type type,
                                int channels, const edgel_image *ref, const edgel_image *edges)
{
    if (!stage)
        return EDGEL_OK;
    EDGEL_TRY(edgel_check_image(stage, name, type, 1u << channels, ref->memory));
    EDGEL_TRY(edgel_check_same_size(ref, "input", stage, name));
    if (edgel_images_overlap(stage, ref) || edgel_images_overlap(stage, edges))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "%s overlaps the input or the edges",
                          name);
    return EDGEL_OK;
}

/* No two stage views may overlap (each stage is written by the call). */
static edgel_status check_stages_apart(const edgel_canny_stages *stages)
{
    const edgel_image *v[] = {stages->gray, stages->smoothed, stages->dx, stages->dy,
                              stages->magnitude, stages->suppressed};
    static const char *const names[] = {"gray", "smoothed", "dx", "dy", "magnitude",
                                        "suppressed"};
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++)
            if (v[i] && v[j] && edgel_images_overlap(v[i], v[j]))
                return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                                  "the %s and %s stages overlap (each needs its own memory)",
                                  names[i], names[j]);
    return EDGEL_OK;
}

/* Edges of type `type`; they may share only an identical 1-channel view of the input. */
static edgel_status check_edges(const edgel_image *edges, edgel_pixel_type type,
                                const edgel_image *src)
{
    EDGEL_TRY(edgel_check_image(edges, "edges", type, EDGEL_CHANNELS_1, src->memory));
    EDGEL_TRY(edgel_check_same_size(src, "input", edges, "edges"));
    int same_view = edges->data == src->data && edges->pitch == src->pitch;
    if (edgel_images_overlap(edges, src) && !(same_view && src->channels == 1 &&
                                              src->type == edges->type))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "edges overlap the input (only an identical 1-channel view may)");
    return EDGEL_OK;
}

/* The type of `img` when it is one of the two or three allowed, else the first (so that the
 * check that follows names the expected type). */
static edgel_pixel_type pick_type(const edgel_image *img, edgel_pixel_type a, edgel_pixel_type b,
                                  edgel_pixel_type c)
{
    if (img && (img->type == a || img->type == b || img->type == c))
        return img->type;
    return a;
}

/* The itk preset: 1-channel u8/u16/f32 in, u8 or f32 edges, f32 stages. */
static edgel_status check_itk_call(edgel_context *ctx, const edgel_image *src,
                                   const edgel_image *edges, const edgel_canny_stages *stages)
{
    const edgel_pixel_type in = pick_type(src, EDGEL_F32, EDGEL_U8, EDGEL_U16);
    EDGEL_TRY(edgel_check_image(src, "input", in, EDGEL_CHANNELS_1, call_memory(ctx, src)));
    if (!edges)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "edges is NULL");
    EDGEL_TRY(check_edges(edges, pick_type(edges, EDGEL_U8, EDGEL_F32, EDGEL_F32), src));
    if (stages) {
        if (stages->gray || stages->dx || stages->dy || stages->magnitude)
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "the itk preset has only the smoothed and suppressed stages");
        EDGEL_TRY(check_stage(stages->smoothed, "smoothed stage", EDGEL_F32, 1, src, edges));
        EDGEL_TRY(check_stage(stages->suppressed, "suppressed stage", EDGEL_F32, 1, src, edges));
        EDGEL_TRY(check_stages_apart(stages));
    }
    return EDGEL_OK;
}

/* The skimage preset: 1-channel input of its seven types, u8 or bool edges and mask, stages
 * of skimage's float type (f32 for f32 input, else f64). */
static edgel_status check_skimage_call(edgel_context *ctx, const edgel_canny_params *params,
                                       const edgel_image *src, const edgel_image *mask,
                                       const edgel_image *edges, const edgel_canny_stages *stages)
{
    if (!src)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "input: image view is NULL");
    const edgel_pixel_type t = src->type;
    const int known = t == EDGEL_BOOL || t == EDGEL_U8 || t == EDGEL_U16 || t == EDGEL_S16 ||
                      t == EDGEL_S32 || t == EDGEL_F32 || t == EDGEL_F64;
    if (src->channels != 1 && src->data)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED,
                          "input: %d channels: the skimage preset reads 1 (2-D images, as "
                          "skimage.feature.canny)", (int)src->channels);
    EDGEL_TRY(edgel_check_image(src, "input", known ? t : EDGEL_F64, EDGEL_CHANNELS_1,
                                call_memory(ctx, src)));
    if (!edges)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "edges is NULL");
    EDGEL_TRY(check_edges(edges, pick_type(edges, EDGEL_U8, EDGEL_BOOL, EDGEL_BOOL), src));
    if (mask) {
        EDGEL_TRY(edgel_check_image(mask, "mask", pick_type(mask, EDGEL_U8, EDGEL_BOOL,
                                                            EDGEL_BOOL),
                                    EDGEL_CHANNELS_1, src->memory));
        EDGEL_TRY(edgel_check_same_size(src, "input", mask, "mask"));
        if (edgel_images_overlap(mask, edges))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "the mask overlaps the edges");
    }
    double low, high;
    EDGEL_TRY(edgel_skimage_thresholds(params, t, &low, &high));
    if (stages) {
        const edgel_pixel_type ft = t == EDGEL_F32 ? EDGEL_F32 : EDGEL_F64;
        if (stages->gray)
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "the skimage preset has no gray stage");
        EDGEL_TRY(check_stage(stages->smoothed, "smoothed stage", ft, 1, src, edges));
        EDGEL_TRY(check_stage(stages->dx, "dx stage", ft, 1, src, edges));
        EDGEL_TRY(check_stage(stages->dy, "dy stage", ft, 1, src, edges));
        EDGEL_TRY(check_stage(stages->magnitude, "magnitude stage", ft, 1, src, edges));
        EDGEL_TRY(check_stage(stages->suppressed, "suppressed stage", ft, 1, src, edges));
        EDGEL_TRY(check_stages_apart(stages));
        const edgel_image *v[] = {stages->smoothed, stages->dx, stages->dy, stages->magnitude,
                                  stages->suppressed};
        for (int i = 0; mask && i < 5; i++)
            if (v[i] && edgel_images_overlap(v[i], mask))
                return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "a stage overlaps the mask");
    }
    return EDGEL_OK;
}

/* Presets that read a pixel type, for the message of a preset that does not. */
static const char *presets_reading(edgel_pixel_type t)
{
    switch (t) {
    case EDGEL_U8: return "the opencv, itk and skimage presets read u8";
    case EDGEL_U16:
    case EDGEL_F32: return "the itk and skimage presets read it (1 channel)";
    default: return "the skimage preset reads it (1 channel)";
    }
}

static edgel_status check_canny_call(edgel_context *ctx, const edgel_canny_params *params,
                                     const edgel_image *src, const edgel_image *edges,
                                     const edgel_canny_stages *stages)
{
    EDGEL_TRY(edgel_check_canny_params(params, 0));
    if (params->preset == EDGEL_PRESET_SKIMAGE)
        return check_skimage_call(ctx, params, src, NULL, edges, stages);
    if (src && src->data && src->type != EDGEL_U8 && edgel_pixel_size(src->type) &&
        (params->preset == EDGEL_PRESET_OPENCV ||
         (src->type != EDGEL_U16 && src->type != EDGEL_F32)))
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "input: pixel type %s: the %s preset reads "
                          "%s; %s", edgel_type_name(src->type),
                          params->preset == EDGEL_PRESET_ITK ? "itk" : "opencv",
                          params->preset == EDGEL_PRESET_ITK ? "u8, u16 and f32 gray"
                                                             : "u8 (cv2.Canny has no other form)",
                          presets_reading(src->type));
    if (params->preset == EDGEL_PRESET_ITK) {
        if (src && src->data && (src->channels == 3 || src->channels == 4))
            return edgel_fail(EDGEL_ERROR_UNSUPPORTED,
                              "input: %d channels: the itk preset reads 1 (u8, u16 or f32); "
                              "the opencv preset reads u8 with 1, 3 or 4", (int)src->channels);
        return check_itk_call(ctx, src, edges, stages);
    }
    EDGEL_TRY(edgel_check_image(src, "input", EDGEL_U8, EDGEL_CHANNELS_ANY, call_memory(ctx, src)));
    EDGEL_TRY(check_edges(edges, EDGEL_U8, src));
    if (stages) {
        const int cn = params->gray != EDGEL_GRAY_NONE ? 1 : src->channels;
        EDGEL_TRY(check_stage(stages->gray, "gray stage", EDGEL_U8, 1, src, edges));
        EDGEL_TRY(check_stage(stages->smoothed, "smoothed stage", EDGEL_U8, cn, src, edges));
        EDGEL_TRY(check_stage(stages->dx, "dx stage", EDGEL_S16, 1, src, edges));
        EDGEL_TRY(check_stage(stages->dy, "dy stage", EDGEL_S16, 1, src, edges));
        EDGEL_TRY(check_stage(stages->magnitude, "magnitude stage", EDGEL_S32, 1, src, edges));
        EDGEL_TRY(check_stage(stages->suppressed, "suppressed stage", EDGEL_U8, 1, src, edges));
        if (stages->gray && params->gray == EDGEL_GRAY_NONE)
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "the gray stage needs a gray mode (params.gray)");
        EDGEL_TRY(check_stages_apart(stages));
    }
    return EDGEL_OK;
}

/* Host images past the whole-image limits go through the tiled driver. */
static int past_whole_image(const edgel_image *img)
{
    return img->width > EDGEL_MAX_DIMENSION || img->height > EDGEL_MAX_DIMENSION ||
           (int64_t)img->width * img->height > EDGEL_MAX_PIXELS;
}

static edgel_status canny_held(edgel_context *ctx, const edgel_canny_params *params,
                         const edgel_image *src, const edgel_image *mask,
                         const edgel_image *edges, const edgel_canny_stages *stages)
{
    if (params->preset == EDGEL_PRESET_SKIMAGE) {
        EDGEL_TRY(edgel_check_canny_params(params, 0));
        EDGEL_TRY(check_skimage_call(ctx, params, src, mask, edges, stages));
        return ctx->ops->canny_skimage(ctx->state, params, src, mask, edges, stages);
    }
    if (mask)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED,
                          "a mask is the skimage preset's (skimage.feature.canny's mask)");
    if (src && !stages && src->memory == EDGEL_MEMORY_HOST && past_whole_image(src))
        return edgel_canny_tiled_image_held(ctx, params, src, edges);
    EDGEL_TRY(check_canny_call(ctx, params, src, edges, stages));
    return ctx->ops->canny(ctx->state, params, src, edges, 1, stages);
}

edgel_status edgel_check_canny_batch(edgel_context *ctx, const edgel_canny_params *params,
                                     const edgel_image *srcs, const edgel_image *edges,
                                     int32_t count)
{
    if (!srcs || !edges)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "srcs or edges is NULL");
    if (count < 1)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "count %d must be at least 1", (int)count);
    for (int32_t i = 0; i < count; i++) {
        edgel_status st = check_canny_call(ctx, params, &srcs[i], &edges[i], NULL);
        if (st != EDGEL_OK)
            return count > 1 ? edgel_fail_within(st, "frame %d", (int)i) : st;
        if (srcs[i].channels != srcs[0].channels || srcs[i].memory != srcs[0].memory ||
            srcs[i].type != srcs[0].type || edges[i].type != edges[0].type)
            return edgel_fail(EDGEL_ERROR_INVALID_SIZE,
                              "frame %d differs from frame 0 in pixel type, channels or memory "
                              "(a batch holds one kind of frame; sizes may differ)",
                              (int)i);
    }
    int32_t a, b;
    const int overlap = count > 1 ? edgel_batch_overlap(srcs, edges, count, &a, &b) : 0;
    if (overlap < 0)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory checking %d frames",
                          (int)count);
    if (overlap)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "frames %d and %d overlap", (int)a,
                          (int)b);
    return EDGEL_OK;
}

/* A frame's group: frames of one size and pitches run as one backend call. */
typedef struct frame_key {
    int32_t width, height;
    size_t src_pitch, edges_pitch;
    int32_t index;
} frame_key;

static int same_group(const frame_key *a, const frame_key *b)
{
    return a->width == b->width && a->height == b->height && a->src_pitch == b->src_pitch &&
           a->edges_pitch == b->edges_pitch;
}

static int by_group(const void *pa, const void *pb)
{
    const frame_key *a = pa, *b = pb;
    if (a->width != b->width)
        return a->width < b->width ? -1 : 1;
    if (a->height != b->height)
        return a->height < b->height ? -1 : 1;
    if (a->src_pitch != b->src_pitch)
        return a->src_pitch < b->src_pitch ? -1 : 1;
    if (a->edges_pitch != b->edges_pitch)
        return a->edges_pitch < b->edges_pitch ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

edgel_status edgel_canny_frames(edgel_context *ctx, const edgel_canny_params *params,
                                const edgel_image *srcs, const edgel_image *edges, int32_t count)
{
    int32_t same = 1;
    while (same < count && srcs[same].width == srcs[0].width &&
           srcs[same].height == srcs[0].height && srcs[same].pitch == srcs[0].pitch &&
           edges[same].pitch == edges[0].pitch)
        same++;
    if (params->preset == EDGEL_PRESET_SKIMAGE) { /* a frame at a time */
        for (int32_t i = 0; i < count; i++)
            EDGEL_TRY(ctx->ops->canny_skimage(ctx->state, params, &srcs[i], NULL, &edges[i],
                                              NULL));
        return EDGEL_OK;
    }
    if (same == count || (ctx->ops->varied_batch && ctx->ops->varied_batch(params, srcs, count)))
        return ctx->ops->canny(ctx->state, params, srcs, edges, count, NULL); /* one call */
    frame_key *keys = malloc(sizeof *keys * (size_t)count);
    edgel_image *views = malloc(sizeof *views * 2 * (size_t)count);
    if (!keys || !views) {
        free(keys);
        free(views);
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a batch of %d frames",
                          (int)count);
    }
    for (int32_t i = 0; i < count; i++)
        keys[i] = (frame_key){srcs[i].width, srcs[i].height, srcs[i].pitch, edges[i].pitch, i};
    qsort(keys, (size_t)count, sizeof *keys, by_group);
    edgel_status st = EDGEL_OK;
    for (int32_t first = 0, n; first < count && st == EDGEL_OK; first += n) {
        for (n = 0; first + n < count && same_group(&keys[first], &keys[first + n]); n++) {
            views[n] = srcs[keys[first + n].index];
            views[count + n] = edges[keys[first + n].index];
        }
        st = ctx->ops->canny(ctx->state, params, views, views + count, n, NULL);
    }
    free(keys);
    free(views);
    return st;
}

static edgel_status canny_batch_held(edgel_context *ctx, const edgel_canny_params *params,
                                     const edgel_image *srcs, const edgel_image *edges,
                                     int32_t count)
{
    EDGEL_TRY(edgel_check_canny_batch(ctx, params, srcs, edges, count));
    return edgel_canny_frames(ctx, params, srcs, edges, count);
}

static edgel_status canny_gradients_held(edgel_context *ctx, const edgel_canny_params *params,
                                   const edgel_image *dx, const edgel_image *dy,
                                   const edgel_image *edges, const edgel_canny_stages *stages)
{
    EDGEL_TRY(edgel_check_canny_params(params, 1));
    const edgel_memory mem = call_memory(ctx, dx);
    EDGEL_TRY(edgel_check_image(dx, "dx", EDGEL_S16, EDGEL_CHANNELS_ANY, mem));
    EDGEL_TRY(edgel_check_image(dy, "dy", EDGEL_S16, EDGEL_CHANNELS_ANY, mem));
    EDGEL_TRY(edgel_check_same_size(dx, "dx", dy, "dy"));
    if (dx->channels != dy->channels)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "dx has %d channels but dy has %d",
                          (int)dx->channels, (int)dy->channels);
    EDGEL_TRY(check_edges(edges, EDGEL_U8, dx));
    if (edgel_images_overlap(edges, dy))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "edges overlap dy");
    edgel_canny_stages st = {0};
    if (stages) {
        EDGEL_TRY(check_stage(stages->magnitude, "magnitude stage", EDGEL_S32, 1, dx, edges));
        EDGEL_TRY(check_stage(stages->suppressed, "suppressed stage", EDGEL_U8, 1, dx, edges));
        st.magnitude = stages->magnitude;
        st.suppressed = stages->suppressed;
        EDGEL_TRY(check_stages_apart(&st));
    }
    return ctx->ops->canny_gradients(ctx->state, params, dx, dy, edges, stages ? &st : NULL);
}

/* Host views of the building blocks run on the CPU: with the context's state on a CPU
 * context, on all cores (NULL) on another backend's. */
static void *host_state(const edgel_context *ctx)
{
    return ctx->backend == EDGEL_BACKEND_CPU ? ctx->state : NULL;
}

static edgel_status to_gray_held(edgel_context *ctx, edgel_gray order, const edgel_image *src,
                           const edgel_image *gray)
{
    if (order != EDGEL_GRAY_RGB && order != EDGEL_GRAY_BGR)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "order must be EDGEL_GRAY_RGB or _BGR");
    const edgel_memory mem = call_memory(ctx, src);
    EDGEL_TRY(edgel_check_image(src, "input", EDGEL_U8, (1u << 3) | (1u << 4), mem));
    EDGEL_TRY(edgel_check_image(gray, "gray", EDGEL_U8, EDGEL_CHANNELS_1, mem));
    EDGEL_TRY(edgel_check_same_size(src, "input", gray, "gray"));
    if (edgel_images_overlap(src, gray))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "gray overlaps the input");
    if (mem == EDGEL_MEMORY_DEVICE)
        return ctx->ops->to_gray(ctx->state, order, src, gray);
    return edgel_cpu_ops()->to_gray(host_state(ctx), order, src, gray);
}

static edgel_status gaussian_blur_held(edgel_context *ctx, const edgel_image *src,
                                 const edgel_image *dst, int32_t ksize, double sigma)
{
    const edgel_memory mem = call_memory(ctx, src);
    EDGEL_TRY(edgel_check_image(src, "input", EDGEL_U8, EDGEL_CHANNELS_ANY, mem));
    EDGEL_TRY(edgel_check_image(dst, "output", EDGEL_U8, 1u << src->channels, mem));
    EDGEL_TRY(edgel_check_same_size(src, "input", dst, "output"));
    if (edgel_images_overlap(src, dst))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "output overlaps the input");
    int32_t k;
    EDGEL_TRY(edgel_resolve_gaussian(ksize, sigma, &k));
    if (mem == EDGEL_MEMORY_DEVICE)
        return ctx->ops->gaussian_blur(ctx->state, src, dst, k, sigma);
    return edgel_cpu_ops()->gaussian_blur(host_state(ctx), src, dst, k, sigma);
}

/* The public calls: each holds its context for the call (one thread at a time). */




edgel_status edgel_canny(edgel_context *ctx, const edgel_canny_params *params,
                         const edgel_image *src, const edgel_image *edges,
                         const edgel_canny_stages *stages)
{
    return edgel_canny_masked(ctx, params, src, NULL, edges, stages);
}

edgel_status edgel_canny_masked(edgel_context *ctx, const edgel_canny_params *params,
                                const edgel_image *src, const edgel_image *mask,
                                const edgel_image *edges, const edgel_canny_stages *stages)
{
    edgel_canny_params p;
    EDGEL_TRY(edgel_canny_params_read(params, &p));
    EDGEL_WITH_CONTEXT(ctx, canny_held(ctx, &p, src, mask, edges, stages));
}

edgel_status edgel_canny_batch(edgel_context *ctx, const edgel_canny_params *params,
                               const edgel_image *srcs, const edgel_image *edges, int32_t count)
{
    edgel_canny_params p;
    EDGEL_TRY(edgel_canny_params_read(params, &p));
    EDGEL_WITH_CONTEXT(ctx, canny_batch_held(ctx, &p, srcs, edges, count));
}

edgel_status edgel_canny_gradients(edgel_context *ctx, const edgel_canny_params *params,
                                   const edgel_image *dx, const edgel_image *dy,
                                   const edgel_image *edges, const edgel_canny_stages *stages)
{
    edgel_canny_params p;
    EDGEL_TRY(edgel_canny_params_read(params, &p));
    EDGEL_WITH_CONTEXT(ctx, canny_gradients_held(ctx, &p, dx, dy, edges, stages));
}

edgel_status edgel_to_gray(edgel_context *ctx, edgel_gray order, const edgel_image *src,
                           const edgel_image *gray)
{
    EDGEL_WITH_CONTEXT(ctx, to_gray_held(ctx, order, src, gray));
}

edgel_status edgel_gaussian_blur(edgel_context *ctx, const edgel_image *src,
                                 const edgel_image *dst, int32_t ksize, double sigma)
{
    EDGEL_WITH_CONTEXT(ctx, gaussian_blur_held(ctx, src, dst, ksize, sigma));
}
