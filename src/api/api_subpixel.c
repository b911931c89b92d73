/* Public entry points of the sub-pixel detector: parameters, the curves object (its busy
 * flag and views), argument checks; the work is the backend's (cpu/cpu_subpixel.c on host
 * images; cuda/cuda_subpixel.cu on a CUDA context). */
#include "api/context.h"
#include "core/busy.h"
#include "core/curves.h"
#include "core/grown.h"
#include "core/image.h"
#include "core/status.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#define SUBPIXEL_PARAMS_FIRST_SIZE (offsetof(edgel_subpixel_params, low) + sizeof(double))
#define CURVES_VIEW_FIRST_SIZE (offsetof(edgel_curves_view, closed) + sizeof(const uint8_t *))

static void subpixel_defaults(edgel_subpixel_params *p)
{
    p->struct_size = sizeof *p;
    p->sigma = 0.0;
    p->high = 0.0;
    p->low = 0.0;
}

void edgel_subpixel_params_init(edgel_subpixel_params *params, size_t struct_size)
{
    edgel_subpixel_params full;
    subpixel_defaults(&full);
    edgel_grown_init(params, struct_size, &full, sizeof full);
}

void edgel_curves_view_init(edgel_curves_view *view, size_t struct_size)
{
    edgel_curves_view full = {0};
    full.struct_size = sizeof full;
    edgel_grown_init(view, struct_size, &full, sizeof full);
}

edgel_status edgel_curves_create(edgel_curves **curves)
{
    if (!curves)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "curves is NULL");
    edgel_curves *c = calloc(1, sizeof *c);
    if (!c || !edgel_curves_reserve_result(c, 1, 0)) { /* arrays never NULL */
        edgel_curves_destroy(c);
        *curves = NULL;
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "curves: out of memory");
    }
    atomic_init(&c->busy, 0);
    c->limits[0] = 0;
    *curves = c;
    return EDGEL_OK;
}

void edgel_curves_destroy(edgel_curves *c)
{
    edgel_curves_free(c);
}

static edgel_status enter(edgel_curves *c)
{
    return edgel_busy_enter(c ? &c->busy : NULL, "curves");
}

static edgel_status leave(edgel_curves *c, edgel_status st)
{
    return edgel_busy_leave(&c->busy, st);
}

edgel_status edgel_curves_get(edgel_curves *curves, edgel_curves_view *view)
{
    if (!view)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "view is NULL");
    edgel_curves_view full;
    edgel_curves_view_init(&full, sizeof full);
    EDGEL_TRY(edgel_grown_read(view, &full, sizeof full, CURVES_VIEW_FIRST_SIZE, "view",
                               "edgel_curves_view_default"));
    EDGEL_TRY(enter(curves));
    full.points = curves->points;
    full.curves = curves->curves;
    full.x = curves->x, full.y = curves->y;
    full.gx = curves->gx, full.gy = curves->gy, full.modulus = curves->modulus;
    full.limits = curves->limits;
    full.closed = curves->closed;
    const uint32_t size = view->struct_size;
    edgel_grown_init(view, size, &full, sizeof full);
    return leave(curves, EDGEL_OK);
}

static edgel_status check_params(const edgel_subpixel_params *p)
{
    if (!(p->sigma >= 0.0 && p->sigma <= EDGEL_SUBPIXEL_MAX_SIGMA))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "sub-pixel edges: sigma %g must be in [0, %g]", p->sigma,
                          EDGEL_SUBPIXEL_MAX_SIGMA);
    if (isnan(p->high) || isnan(p->low))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "sub-pixel edges: a threshold is NaN (high %g, low %g)", p->high,
                          p->low);
    return EDGEL_OK;
}

/* Host images anywhere; device images on a GPU context. */
static edgel_status check_source(const edgel_context *ctx, const edgel_image *src)
{
    if (!src)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "input is NULL");
    if (src->type != EDGEL_U8 && src->type != EDGEL_U16 && src->type != EDGEL_F32 &&
        src->type != EDGEL_F64)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED,
                          "sub-pixel edges read u8, u16, f32 or f64 images, not %s",
                          edgel_type_name(src->type));
    return edgel_check_image(src, "input", src->type, EDGEL_CHANNELS_1,
                             on_gpu(ctx) && src->memory == EDGEL_MEMORY_DEVICE
                                 ? EDGEL_MEMORY_DEVICE
                                 : EDGEL_MEMORY_HOST);
}

static edgel_status subpixel_held(edgel_context *ctx, const edgel_subpixel_params *params,
                                  const edgel_image *src, edgel_curves *curves)
{
    EDGEL_TRY(enter(curves));
    curves->points = curves->curves = 0; /* a failed call leaves no curves */
    edgel_subpixel_params p;
    subpixel_defaults(&p);
    edgel_status st = edgel_grown_read(params, &p, sizeof p, SUBPIXEL_PARAMS_FIRST_SIZE,
                                       "params", "edgel_subpixel_params_default");
    if (st == EDGEL_OK)
        st = check_params(&p);
    if (st == EDGEL_OK)
        st = check_source(ctx, src);
    if (st == EDGEL_OK)
        st = ctx->ops->subpixel(ctx->state, &p, src, curves);
    return leave(curves, st);
}

edgel_status edgel_subpixel_edges(edgel_context *ctx, const edgel_subpixel_params *params,
                                  const edgel_image *src, edgel_curves *curves)
{
    EDGEL_WITH_CONTEXT(ctx, subpixel_held(ctx, params, src, curves));
}
