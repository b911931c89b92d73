/* Public entry points of the convolution engine: argument checks, the plan, the backend. */
#include "api/context.h"
#include "core/filter.h"
#include "core/image.h"
#include "core/status.h"

static edgel_status check_views(const edgel_context *ctx, const edgel_image *src,
                                const edgel_image *dst)
{
    if (!src || !dst)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "input or output is NULL");
    const edgel_memory mem = on_gpu(ctx) && src->memory == EDGEL_MEMORY_DEVICE
                                 ? EDGEL_MEMORY_DEVICE : EDGEL_MEMORY_HOST;
    const edgel_pixel_type in = src->type == EDGEL_U8 ? EDGEL_U8 : EDGEL_F32;
    EDGEL_TRY(edgel_check_image(src, "input", in, EDGEL_CHANNELS_ANY, mem));
    const edgel_pixel_type out = in == EDGEL_U8 && dst->type == EDGEL_U8 ? EDGEL_U8 : EDGEL_F32;
    EDGEL_TRY(edgel_check_image(dst, "output", out, 1u << src->channels, mem));
    EDGEL_TRY(edgel_check_same_size(src, "input", dst, "output"));
    if (edgel_images_overlap(src, dst))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "output overlaps the input");
    return EDGEL_OK;
}

/* Checks, plans and (unless method_only) runs one call; the caller holds the context. */
static edgel_status filter_held(edgel_context *ctx, const edgel_filter_params *params,
                           const edgel_image *src, const edgel_image *dst,
                           const edgel_image *kernel, const float *kx, int kw, const float *ky,
                           int kh, edgel_conv_method *method_only)
{
    EDGEL_TRY(check_views(ctx, src, dst));
    if (kernel)
        EDGEL_TRY(edgel_check_image(kernel, "kernel", EDGEL_F32, EDGEL_CHANNELS_1,
                                    EDGEL_MEMORY_HOST));
    edgel_filter_plan plan;
    EDGEL_TRY(edgel_filter_plan_make(params, src, dst, kernel, kx, kw, ky, kh, ctx->ops,
                                     ctx->state, &plan));
    edgel_status st = EDGEL_OK;
    if (method_only)
        *method_only = plan.method;
    else
        st = ctx->ops->filter(ctx->state, &plan, src, dst);
    edgel_filter_plan_free(&plan);
    return st;
}

static edgel_status filter(edgel_context *ctx, const edgel_filter_params *params,
                           const edgel_image *src, const edgel_image *dst,
                           const edgel_image *kernel, const float *kx, int kw, const float *ky,
                           int kh, edgel_conv_method *method_only)
{
    edgel_filter_params p;
    EDGEL_TRY(edgel_filter_params_read(params, &p));
    EDGEL_WITH_CONTEXT(ctx, filter_held(ctx, &p, src, dst, kernel, kx, kw, ky, kh,
                                        method_only));
}

edgel_status edgel_filter2d(edgel_context *ctx, const edgel_filter_params *params,
                            const edgel_image *src, const edgel_image *dst,
                            const edgel_image *kernel)
{
    if (!kernel)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "kernel is NULL");
    return filter(ctx, params, src, dst, kernel, NULL, 0, NULL, 0, NULL);
}

edgel_status edgel_sep_filter2d(edgel_context *ctx, const edgel_filter_params *params,
                                const edgel_image *src, const edgel_image *dst, const float *kx,
                                int32_t kw, const float *ky, int32_t kh)
{
    return filter(ctx, params, src, dst, NULL, kx, kw, ky, kh, NULL);
}

edgel_status edgel_filter2d_method(edgel_context *ctx, const edgel_filter_params *params,
                                   const edgel_image *src, const edgel_image *dst,
                                   const edgel_image *kernel, edgel_conv_method *out)
{
    if (!kernel || !out)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "kernel or out is NULL");
    return filter(ctx, params, src, dst, kernel, NULL, 0, NULL, 0, out);
}
