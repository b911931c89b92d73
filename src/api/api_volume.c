/* Public entry points on volumes: ITK's Canny (edgel_canny_volume), its parameters and
 * argument checks; the work is the context's backend's canny_volume. */
#include "api/context.h"
#include "core/grown.h"
#include "core/params.h"
#include "core/status.h"
#include "core/volume.h"

#include <math.h>
#include <stddef.h>

#define VOLUME_PARAMS_FIRST_SIZE \
    (offsetof(edgel_volume_canny_params, lower_threshold) + sizeof(double))

static void volume_defaults(edgel_volume_canny_params *p)
{
    p->struct_size = sizeof *p;
    for (int i = 0; i < 3; i++)
        p->variance[i] = 0.0, p->maximum_error[i] = 0.01, p->spacing[i] = 1.0;
    p->upper_threshold = 0.0;
    p->lower_threshold = 0.0;
}

void edgel_volume_canny_params_init(edgel_volume_canny_params *params, size_t struct_size)
{
    edgel_volume_canny_params full;
    volume_defaults(&full);
    edgel_grown_init(params, struct_size, &full, sizeof full);
}

static edgel_status check_params(const edgel_volume_canny_params *p)
{
    static const char axis[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; i++) {
        if (!(p->spacing[i] > 0.0 && isfinite(p->spacing[i])))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "spacing along %c is %g: it must be positive and finite", axis[i],
                              p->spacing[i]);
        const double voxels = p->variance[i] / (p->spacing[i] * p->spacing[i]);
        if (!(p->variance[i] >= 0.0 && voxels <= EDGEL_ITK_MAX_VARIANCE))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "variance along %c is %g (%g voxels^2 at spacing %g): it must be "
                              "in [0, %g] voxels^2 (ITK's Bessel kernel overflows beyond)",
                              axis[i], p->variance[i], voxels, p->spacing[i],
                              EDGEL_ITK_MAX_VARIANCE);
        if (!(p->maximum_error[i] > 0.0 && p->maximum_error[i] < 1.0))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "maximum error along %c is %g: it must be in (0, 1) as in ITK",
                              axis[i], p->maximum_error[i]);
    }
    if (isnan(p->upper_threshold) || isnan(p->lower_threshold))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "a threshold is NaN (upper %g, lower %g)",
                          p->upper_threshold, p->lower_threshold);
    return EDGEL_OK;
}

/* Host volumes anywhere, device volumes on a GPU context; a call's views all of one kind. */
static edgel_status check_views(const edgel_context *ctx, const edgel_volume *src,
                                const edgel_volume *edges, const edgel_volume_canny_stages *stages)
{
    const unsigned inputs = (1u << EDGEL_U8) | (1u << EDGEL_U16) | (1u << EDGEL_F32);
    const edgel_memory mem =
        on_gpu(ctx) && src && src->memory == EDGEL_MEMORY_DEVICE ? EDGEL_MEMORY_DEVICE
                                                                  : EDGEL_MEMORY_HOST;
    if (src && src->memory == EDGEL_MEMORY_DEVICE && mem != EDGEL_MEMORY_DEVICE)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "device volumes need a CUDA context");
    EDGEL_TRY(edgel_check_volume(src, "input", inputs, mem));
    EDGEL_TRY(edgel_check_volume(edges, "edges", (1u << EDGEL_U8) | (1u << EDGEL_F32), mem));
    EDGEL_TRY(edgel_check_same_volume_size(src, "input", edges, "edges"));
    if (edgel_volumes_overlap(src, edges))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "edges overlap the input");
    if (!stages)
        return EDGEL_OK;
    const edgel_volume *views[2] = {stages->smoothed, stages->suppressed};
    const char *names[2] = {"smoothed", "suppressed"};
    for (int i = 0; i < 2; i++) {
        if (!views[i])
            continue;
        EDGEL_TRY(edgel_check_volume(views[i], names[i], 1u << EDGEL_F32, mem));
        EDGEL_TRY(edgel_check_same_volume_size(src, "input", views[i], names[i]));
        if (edgel_volumes_overlap(views[i], src) || edgel_volumes_overlap(views[i], edges) ||
            (i == 1 && views[0] && edgel_volumes_overlap(views[0], views[1])))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "the %s stage overlaps the input, the edges or another stage",
                              names[i]);
    }
    return EDGEL_OK;
}

edgel_status edgel_volume_canny_params_read(const edgel_volume_canny_params *params,
                                            edgel_volume_canny_params *p)
{
    volume_defaults(p);
    EDGEL_TRY(edgel_grown_read(params, p, sizeof *p, VOLUME_PARAMS_FIRST_SIZE, "params",
                               "edgel_volume_canny_params_default"));
    return check_params(p);
}

static edgel_status canny_volume_held(edgel_context *ctx, const edgel_volume_canny_params *params,
                                      const edgel_volume *src, const edgel_volume *edges,
                                      const edgel_volume_canny_stages *stages)
{
    edgel_volume_canny_params p;
    EDGEL_TRY(edgel_volume_canny_params_read(params, &p));
    EDGEL_TRY(check_views(ctx, src, edges, stages));
    return ctx->ops->canny_volume(ctx->state, &p, src, edges, stages);
}

edgel_status edgel_canny_volume(edgel_context *ctx, const edgel_volume_canny_params *params,
                                const edgel_volume *src, const edgel_volume *edges,
                                const edgel_volume_canny_stages *stages)
{
    EDGEL_WITH_CONTEXT(ctx, canny_volume_held(ctx, params, src, edges, stages));
}
