/*
 * Public entry points: contexts, argument checks, and the Canny pipeline (gray conversion,
 * pre-smoothing, Canny core) dispatched to a backend. Backends receive checked arguments.
 */
#include "core/image.h"
#include "core/params.h"
#include "core/status.h"
#include "cpu/cpu.h"

#include <stdlib.h>
#include <string.h>

/* A context is used by one thread at a time; it keeps the CPU workspace between calls. */
struct edgel_context {
    edgel_backend backend;
    int32_t threads;
    int32_t device;
    edgel_cpu_workspace cpu;
};

void edgel_context_options_default(edgel_context_options *options)
{
    if (!options)
        return;
    options->threads = 0;
    options->device = 0;
}

edgel_status edgel_context_create(edgel_backend backend, const edgel_context_options *options,
                                  edgel_context **out)
{
    if (!out)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "out is NULL");
    *out = NULL;
    edgel_context_options opts;
    edgel_context_options_default(&opts);
    if (options)
        opts = *options;
    if (opts.threads < 0 || opts.threads > 1024)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "threads %d must be in 0..1024 (0 = all cores)",
                          (int)opts.threads);
    if (opts.device < 0)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "device %d must be >= 0", (int)opts.device);
    switch (backend) {
    case EDGEL_BACKEND_AUTO: /* no GPU backend in this build yet: the CPU serves */
    case EDGEL_BACKEND_CPU:
        break;
    case EDGEL_BACKEND_CUDA:
        return edgel_fail(EDGEL_ERROR_BACKEND_UNAVAILABLE,
                          "the CUDA backend is not available in this build");
    default:
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "unknown backend %d", (int)backend);
    }
    edgel_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a context");
    ctx->backend = EDGEL_BACKEND_CPU;
    ctx->threads = opts.threads ? opts.threads : edgel_cpu_count();
    ctx->device = opts.device;
    *out = ctx;
    return EDGEL_OK;
}

void edgel_context_destroy(edgel_context *ctx)
{
    if (!ctx)
        return;
    edgel_cpu_workspace_free(&ctx->cpu);
    free(ctx);
}

edgel_status edgel_context_backend(const edgel_context *ctx, edgel_backend *out)
{
    if (!ctx || !out)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "context or out is NULL");
    *out = ctx->backend;
    return EDGEL_OK;
}

edgel_status edgel_context_threads(const edgel_context *ctx, int32_t *out)
{
    if (!ctx || !out)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "context or out is NULL");
    *out = ctx->threads;
    return EDGEL_OK;
}

static edgel_status check_ctx(const edgel_context *ctx)
{
    if (!ctx)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "context is NULL");
    return EDGEL_OK;
}

/* A stage view: right type, one channel (or `channels`), same size as ref, no overlap with
 * the views the call reads or writes. */
static edgel_status check_stage(const edgel_image *stage, const char *name, edgel_pixel_type type,
                                int channels, const edgel_image *ref, const edgel_image *edges)
{
    if (!stage)
        return EDGEL_OK;
    EDGEL_TRY(edgel_check_image(stage, name, type, 1u << channels, EDGEL_MEMORY_HOST));
    EDGEL_TRY(edgel_check_same_size(ref, "input", stage, name));
    if (edgel_images_overlap(stage, ref) || edgel_images_overlap(stage, edges))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "%s overlaps the input or the edges",
                          name);
    return EDGEL_OK;
}

static edgel_status check_edges(const edgel_image *edges, const edgel_image *src)
{
    EDGEL_TRY(edgel_check_image(edges, "edges", EDGEL_U8, EDGEL_CHANNELS_1, EDGEL_MEMORY_HOST));
    EDGEL_TRY(edgel_check_same_size(src, "input", edges, "edges"));
    int same_view = edges->data == src->data && edges->pitch == src->pitch;
    if (edgel_images_overlap(edges, src) && !(same_view && src->channels == 1 &&
                                              src->type == EDGEL_U8))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "edges overlap the input (only an identical 1-channel u8 view may)");
    return EDGEL_OK;
}

/* A u8 host image in a buffer of the context's workspace. */
static edgel_status temp_image(edgel_image *img, int w, int h, int cn, edgel_cpu_buffer *buf)
{
    uint8_t *mem = edgel_cpu_buffer_reserve(buf, (size_t)w * (size_t)h * (size_t)cn);
    if (!mem)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a %dx%dx%d image", w, h,
                          cn);
    *img = edgel_image_host(mem, w, h, EDGEL_U8, cn);
    return EDGEL_OK;
}

static void copy_image(const edgel_image *src, const edgel_image *dst)
{
    for (int y = 0; y < src->height; y++)
        memcpy(edgel_row_u8(dst, y), edgel_row_u8(src, y), edgel_row_bytes(src));
}

static edgel_status run_canny(edgel_context *ctx, const edgel_canny_params *params,
                              const edgel_image *src, const edgel_image *edges,
                              const edgel_canny_stages *stages)
{
    const int w = src->width, h = src->height, threads = ctx->threads;
    edgel_image gray, blurred;
    const edgel_image *cur = src;
    edgel_status st = EDGEL_OK;

    if (params->gray != EDGEL_GRAY_NONE && src->channels > 1) {
        const edgel_image *target = stages ? stages->gray : NULL;
        if (!target) {
            st = temp_image(&gray, w, h, 1, &ctx->cpu.gray);
            target = &gray;
        }
        if (st == EDGEL_OK)
            st = edgel_cpu_to_gray(threads, params->gray, src, target);
        cur = target;
    } else if (stages && stages->gray && params->gray != EDGEL_GRAY_NONE) {
        copy_image(src, stages->gray);
    }
    if (st == EDGEL_OK && params->blur != EDGEL_BLUR_NONE) {
        const edgel_image *target = stages ? stages->smoothed : NULL;
        if (!target) {
            st = temp_image(&blurred, w, h, cur->channels, &ctx->cpu.blurred);
            target = &blurred;
        }
        if (st == EDGEL_OK && params->blur == EDGEL_BLUR_GAUSSIAN) {
            int32_t k;
            st = edgel_resolve_gaussian(params->blur_ksize, params->blur_sigma, &k);
            if (st == EDGEL_OK)
                st = edgel_cpu_gaussian_blur(threads, cur, target, k, params->blur_sigma);
        } else if (st == EDGEL_OK) {
            st = edgel_cpu_blur_5x5_159(threads, cur, target);
        }
        cur = target;
    } else if (st == EDGEL_OK && stages && stages->smoothed) {
        copy_image(cur, stages->smoothed);
    }
    if (st == EDGEL_OK) {
        edgel_cpu_canny_input in = {cur, NULL, NULL, params->aperture, params->l2_gradient,
                                    edgel_opencv_thresholds(params, 0)};
        st = edgel_cpu_canny_core(threads, &ctx->cpu, &in, edges, stages);
    }
    return st;
}

edgel_status edgel_canny(edgel_context *ctx, const edgel_canny_params *params,
                         const edgel_image *src, const edgel_image *edges,
                         const edgel_canny_stages *stages)
{
    EDGEL_TRY(check_ctx(ctx));
    EDGEL_TRY(edgel_check_canny_params(params, 0));
    EDGEL_TRY(edgel_check_image(src, "input", EDGEL_U8, EDGEL_CHANNELS_ANY, EDGEL_MEMORY_HOST));
    EDGEL_TRY(check_edges(edges, src));
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
    }
    return run_canny(ctx, params, src, edges, stages);
}

edgel_status edgel_canny_gradients(edgel_context *ctx, const edgel_canny_params *params,
                                   const edgel_image *dx, const edgel_image *dy,
                                   const edgel_image *edges, const edgel_canny_stages *stages)
{
    EDGEL_TRY(check_ctx(ctx));
    EDGEL_TRY(edgel_check_canny_params(params, 1));
    EDGEL_TRY(edgel_check_image(dx, "dx", EDGEL_S16, EDGEL_CHANNELS_ANY, EDGEL_MEMORY_HOST));
    EDGEL_TRY(edgel_check_image(dy, "dy", EDGEL_S16, EDGEL_CHANNELS_ANY, EDGEL_MEMORY_HOST));
    EDGEL_TRY(edgel_check_same_size(dx, "dx", dy, "dy"));
    if (dx->channels != dy->channels)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "dx has %d channels but dy has %d",
                          (int)dx->channels, (int)dy->channels);
    EDGEL_TRY(check_edges(edges, dx));
    if (edgel_images_overlap(edges, dy))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "edges overlap dy");
    edgel_canny_stages st = {0};
    if (stages) {
        EDGEL_TRY(check_stage(stages->magnitude, "magnitude stage", EDGEL_S32, 1, dx, edges));
        EDGEL_TRY(check_stage(stages->suppressed, "suppressed stage", EDGEL_U8, 1, dx, edges));
        st.magnitude = stages->magnitude;
        st.suppressed = stages->suppressed;
    }
    edgel_cpu_canny_input in = {NULL, dx, dy, 3, params->l2_gradient,
                                edgel_opencv_thresholds(params, 1)};
    return edgel_cpu_canny_core(ctx->threads, &ctx->cpu, &in, edges, stages ? &st : NULL);
}

edgel_status edgel_to_gray(edgel_context *ctx, edgel_gray order, const edgel_image *src,
                           const edgel_image *gray)
{
    EDGEL_TRY(check_ctx(ctx));
    if (order != EDGEL_GRAY_RGB && order != EDGEL_GRAY_BGR)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "order must be EDGEL_GRAY_RGB or _BGR");
    EDGEL_TRY(edgel_check_image(src, "input", EDGEL_U8, (1u << 3) | (1u << 4), EDGEL_MEMORY_HOST));
    EDGEL_TRY(edgel_check_image(gray, "gray", EDGEL_U8, EDGEL_CHANNELS_1, EDGEL_MEMORY_HOST));
    EDGEL_TRY(edgel_check_same_size(src, "input", gray, "gray"));
    if (edgel_images_overlap(src, gray))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "gray overlaps the input");
    return edgel_cpu_to_gray(ctx->threads, order, src, gray);
}

edgel_status edgel_gaussian_blur(edgel_context *ctx, const edgel_image *src,
                                 const edgel_image *dst, int32_t ksize, double sigma)
{
    EDGEL_TRY(check_ctx(ctx));
    EDGEL_TRY(edgel_check_image(src, "input", EDGEL_U8, EDGEL_CHANNELS_ANY, EDGEL_MEMORY_HOST));
    EDGEL_TRY(edgel_check_image(dst, "output", EDGEL_U8, 1u << src->channels, EDGEL_MEMORY_HOST));
    EDGEL_TRY(edgel_check_same_size(src, "input", dst, "output"));
    if (edgel_images_overlap(src, dst))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "output overlaps the input");
    int32_t k;
    EDGEL_TRY(edgel_resolve_gaussian(ksize, sigma, &k));
    return edgel_cpu_gaussian_blur(ctx->threads, src, dst, k, sigma);
}
