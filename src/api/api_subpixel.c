/* Public entry points of the sub-pixel detector on whole frames: parameters, the curves
 * object (its busy flag and views), argument checks, single frames and batches; the work is
 * the backend's (cpu/cpu_subpixel.c on host images; cuda/cuda_subpixel.cu on a CUDA
 * context). Pieces are api_subpixel_pieces.c's, bands of columns api_subpixel_stream.c's. */
#include "api/api_subpixel.h"
#include "api/context.h"
#include "core/busy.h"
#include "core/curves.h"
#include "core/grown.h"
#include "core/image.h"
#include "core/status.h"
#include "core/host_pool.h"
#include "core/subpixel_chain.h"
#include "core/subpixel_math.h"
#include "cpu/cpu_backend.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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
    full.device = -1;
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
    c->on_device.device = c->on_device.block_device = -1;
    *curves = c;
    return EDGEL_OK;
}

void edgel_curves_destroy(edgel_curves *c)
{
    edgel_curves_free(c);
}

edgel_status edgel_curves_enter(edgel_curves *c)
{
    return edgel_busy_enter(c ? &c->busy : NULL, "curves");
}

edgel_status edgel_curves_leave(edgel_curves *c, edgel_status st)
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
    EDGEL_TRY(edgel_curves_enter(curves));
    full.points = curves->points;
    full.curves = curves->curves;
    const edgel_device_curves *d = &curves->on_device;
    if (d->device >= 0) {
        full.x = d->x, full.y = d->y;
        full.gx = d->gx, full.gy = d->gy, full.modulus = d->modulus;
        full.limits = d->limits;
        full.closed = d->closed;
    } else {
        full.x = curves->x, full.y = curves->y;
        full.gx = curves->gx, full.gy = curves->gy, full.modulus = curves->modulus;
        full.limits = curves->limits;
        full.closed = curves->closed;
    }
    full.device = d->device;
    const uint32_t size = view->struct_size;
    edgel_grown_init(view, size, &full, sizeof full);
    return edgel_curves_leave(curves, EDGEL_OK);
}

edgel_status edgel_curves_copy(edgel_curves *curves, double *xy, double *gradient,
                               double *modulus, int64_t *limits, uint8_t *closed, int32_t threads)
{
    if (threads < 0)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "threads %d is negative", (int)threads);
    EDGEL_TRY(edgel_curves_enter(curves));
    if (curves->on_device.device >= 0)
        return edgel_curves_leave(curves, curves->on_device.copy(curves, xy, gradient, modulus,
                                                                 limits, closed));
    const int cores = edgel_host_cores();
    edgel_curves_copy_out(curves, xy, gradient, modulus, limits, closed,
                          threads == 0 || threads > cores ? cores : threads);
    return edgel_curves_leave(curves, EDGEL_OK);
}

edgel_status edgel_curves_set_place(edgel_curves *curves, edgel_curves_place place)
{
    if (place != EDGEL_CURVES_ON_HOST && place != EDGEL_CURVES_ON_DEVICE)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "curves: place %d is neither EDGEL_CURVES_ON_HOST nor "
                          "EDGEL_CURVES_ON_DEVICE", (int)place);
    EDGEL_TRY(edgel_curves_enter(curves));
    curves->place = place;
    return edgel_curves_leave(curves, EDGEL_OK);
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
edgel_status edgel_subpixel_check_source(const edgel_context *ctx, const edgel_image *src)
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

/* The caller's parameters (any older struct size) over the defaults, checked. */
edgel_status edgel_subpixel_read_params(const edgel_subpixel_params *in, edgel_subpixel_params *p)
{
    subpixel_defaults(p);
    EDGEL_TRY(edgel_grown_read(in, p, sizeof *p, SUBPIXEL_PARAMS_FIRST_SIZE, "params",
                               "edgel_subpixel_params_default"));
    return check_params(p);
}

static edgel_status subpixel_held(edgel_context *ctx, const edgel_subpixel_params *params,
                                  const edgel_image *src, edgel_curves *curves)
{
    EDGEL_TRY(edgel_curves_enter(curves));
    edgel_curves_clear(curves); /* a failed call leaves no curves */
    curves->has_points = 0;
    edgel_subpixel_params p;
    edgel_status st = edgel_subpixel_read_params(params, &p);
    if (st == EDGEL_OK)
        st = edgel_subpixel_check_source(ctx, src);
    if (st == EDGEL_OK)
        st = ctx->ops->subpixel(ctx->state, &p, src, curves);
    if (st != EDGEL_OK)
        edgel_curves_clear(curves);
    return edgel_curves_leave(curves, st);
}

edgel_status edgel_subpixel_edges(edgel_context *ctx, const edgel_subpixel_params *params,
                                  const edgel_image *src, edgel_curves *curves)
{
    EDGEL_WITH_CONTEXT(ctx, subpixel_held(ctx, params, src, curves));
}

/* ---- batches ---------------------------------------------------------------------------- */

static int pointer_order(const void *a, const void *b)
{
    const uintptr_t x = (uintptr_t)*(edgel_curves *const *)a;
    const uintptr_t y = (uintptr_t)*(edgel_curves *const *)b;
    return x < y ? -1 : x > y;
}

/* Every curves object given and no object twice. */
static edgel_status check_batch_curves(edgel_curves *const *curves, int32_t count)
{
    for (int32_t i = 0; i < count; i++)
        if (!curves[i])
            return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "curves[%d] is NULL", (int)i);
    edgel_curves **sorted = malloc(sizeof *sorted * (size_t)count);
    if (!sorted)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory checking %d curves",
                          (int)count);
    memcpy(sorted, curves, sizeof *sorted * (size_t)count);
    qsort(sorted, (size_t)count, sizeof *sorted, pointer_order);
    int twice = 0;
    for (int32_t i = 1; i < count && !twice; i++)
        twice = sorted[i] == sorted[i - 1];
    free(sorted);
    if (twice)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "a curves object is listed twice in "
                          "the batch (each frame needs its own)");
    return EDGEL_OK;
}

static edgel_status batch_checked(edgel_context *ctx, const edgel_subpixel_params *params,
                                  const edgel_image *srcs, edgel_curves *const *curves,
                                  int32_t count)
{
    edgel_subpixel_params p;
    EDGEL_TRY(edgel_subpixel_read_params(params, &p));
    for (int32_t i = 0; i < count; i++) {
        const edgel_status st = edgel_subpixel_check_source(ctx, &srcs[i]);
        if (st != EDGEL_OK)
            return edgel_fail_within(st, "frame %d", (int)i);
    }
    return ctx->ops->subpixel_batch(ctx->state, &p, srcs, curves, count);
}

static edgel_status subpixel_batch_held(edgel_context *ctx, const edgel_subpixel_params *params,
                                        const edgel_image *srcs, edgel_curves *const *curves,
                                        int32_t count)
{
    if (count < 0)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "count %d is negative", (int)count);
    if (count == 0)
        return EDGEL_OK;
    if (!srcs || !curves)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "%s is NULL", srcs ? "curves" : "srcs");
    EDGEL_TRY(check_batch_curves(curves, count));
    int32_t held = 0;
    edgel_status st = EDGEL_OK;
    for (; held < count && st == EDGEL_OK; held++)
        if ((st = edgel_curves_enter(curves[held])) != EDGEL_OK)
            st = edgel_fail_within(st, "curves[%d]", (int)held);
    if (st == EDGEL_OK) {
        for (int32_t i = 0; i < count; i++) { /* a failed call leaves no curves */
            edgel_curves_clear(curves[i]);
            curves[i]->has_points = 0;
        }
        st = batch_checked(ctx, params, srcs, curves, count);
        if (st != EDGEL_OK)
            for (int32_t i = 0; i < count; i++)
                edgel_curves_clear(curves[i]);
    } else {
        held--; /* the one that refused */
    }
    for (int32_t i = 0; i < held; i++)
        edgel_curves_leave(curves[i], EDGEL_OK);
    return st;
}

edgel_status edgel_subpixel_edges_batch(edgel_context *ctx, const edgel_subpixel_params *params,
                                        const edgel_image *srcs, edgel_curves *const *curves,
                                        int32_t count)
{
    EDGEL_WITH_CONTEXT(ctx, subpixel_batch_held(ctx, params, srcs, curves, count));
}

/* The CPU's threads of a context (every core on another backend's). */
int edgel_subpixel_cpu_threads(const edgel_context *ctx)
{
    return ctx->backend == EDGEL_BACKEND_CPU ? ctx->threads : edgel_host_cores();
}

/* A host piece's points: the context's backend's, or the CPU's on all cores where it has
 * none (core/backend.h says why). */
edgel_status edgel_subpixel_host_points(edgel_context *ctx, const edgel_subpixel_params *p,
                                const edgel_image *src, int64_t x0, int64_t y0,
                                edgel_curves *curves)
{
    return ctx->ops->subpixel_points
               ? ctx->ops->subpixel_points(ctx->state, p, src, x0, y0, curves)
               : edgel_cpu_ops()->subpixel_points(NULL, p, src, x0, y0, curves);
}

