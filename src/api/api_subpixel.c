/* Public entry points of the sub-pixel detector: parameters, the curves object (its busy
 * flag and views), argument checks; the work is the backend's (cpu/cpu_subpixel.c on host
 * images; cuda/cuda_subpixel.cu on a CUDA context). */
#include "api/context.h"
#include "core/busy.h"
#include "core/curves.h"
#include "core/grown.h"
#include "core/image.h"
#include "core/status.h"
#include "core/host_pool.h"
#include "core/subpixel_chain.h"
#include "core/subpixel_math.h"
#include "core/subpixel_stream.h"
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
    return leave(curves, EDGEL_OK);
}

edgel_status edgel_curves_copy(edgel_curves *curves, double *xy, double *gradient,
                               double *modulus, int64_t *limits, uint8_t *closed, int32_t threads)
{
    if (threads < 0)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "threads %d is negative", (int)threads);
    EDGEL_TRY(enter(curves));
    if (curves->on_device.device >= 0)
        return leave(curves, curves->on_device.copy(curves, xy, gradient, modulus, limits,
                                                     closed));
    const int cores = edgel_host_cores();
    edgel_curves_copy_out(curves, xy, gradient, modulus, limits, closed,
                          threads == 0 || threads > cores ? cores : threads);
    return leave(curves, EDGEL_OK);
}

edgel_status edgel_curves_set_place(edgel_curves *curves, edgel_curves_place place)
{
    if (place != EDGEL_CURVES_ON_HOST && place != EDGEL_CURVES_ON_DEVICE)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "curves: place %d is neither EDGEL_CURVES_ON_HOST nor "
                          "EDGEL_CURVES_ON_DEVICE", (int)place);
    EDGEL_TRY(enter(curves));
    curves->place = place;
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

/* The caller's parameters (any older struct size) over the defaults, checked. */
static edgel_status read_params(const edgel_subpixel_params *in, edgel_subpixel_params *p)
{
    subpixel_defaults(p);
    EDGEL_TRY(edgel_grown_read(in, p, sizeof *p, SUBPIXEL_PARAMS_FIRST_SIZE, "params",
                               "edgel_subpixel_params_default"));
    return check_params(p);
}

static edgel_status subpixel_held(edgel_context *ctx, const edgel_subpixel_params *params,
                                  const edgel_image *src, edgel_curves *curves)
{
    EDGEL_TRY(enter(curves));
    edgel_curves_clear(curves); /* a failed call leaves no curves */
    curves->has_points = 0;
    edgel_subpixel_params p;
    edgel_status st = read_params(params, &p);
    if (st == EDGEL_OK)
        st = check_source(ctx, src);
    if (st == EDGEL_OK)
        st = ctx->ops->subpixel(ctx->state, &p, src, curves);
    if (st != EDGEL_OK)
        edgel_curves_clear(curves);
    return leave(curves, st);
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
    EDGEL_TRY(read_params(params, &p));
    for (int32_t i = 0; i < count; i++) {
        const edgel_status st = check_source(ctx, &srcs[i]);
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
        if ((st = enter(curves[held])) != EDGEL_OK)
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
        leave(curves[i], EDGEL_OK);
    return st;
}

edgel_status edgel_subpixel_edges_batch(edgel_context *ctx, const edgel_subpixel_params *params,
                                        const edgel_image *srcs, edgel_curves *const *curves,
                                        int32_t count)
{
    EDGEL_WITH_CONTEXT(ctx, subpixel_batch_held(ctx, params, srcs, curves, count));
}

/* ---- in pieces ------------------------------------------------------------------------- */

#define POINTS_FIRST_SIZE (offsetof(edgel_subpixel_points, bck_score) + sizeof(const double *))

int32_t edgel_subpixel_halo(double sigma)
{
    if (!(sigma >= 0.0 && sigma <= EDGEL_SUBPIXEL_MAX_SIGMA))
        return -1;
    return edgel_subpixel_piece_halo(sigma);
}

void edgel_subpixel_points_init(edgel_subpixel_points *points, size_t struct_size)
{
    edgel_subpixel_points full = {0};
    full.struct_size = sizeof full;
    edgel_grown_init(points, struct_size, &full, sizeof full);
}

/* The CPU's threads of a context (every core on another backend's). */
static int cpu_threads(const edgel_context *ctx)
{
    return ctx->backend == EDGEL_BACKEND_CPU ? ctx->threads : edgel_host_cores();
}

/* A host piece's points: the context's backend's, or the CPU's on all cores where it has
 * none (core/backend.h says why). */
static edgel_status host_points(edgel_context *ctx, const edgel_subpixel_params *p,
                                const edgel_image *src, int64_t x0, int64_t y0,
                                edgel_curves *curves)
{
    return ctx->ops->subpixel_points
               ? ctx->ops->subpixel_points(ctx->state, p, src, x0, y0, curves)
               : edgel_cpu_ops()->subpixel_points(NULL, p, src, x0, y0, curves);
}

static edgel_status find_points_held(edgel_context *ctx, const edgel_subpixel_params *params,
                                     const edgel_image *src, int64_t x0, int64_t y0,
                                     edgel_curves *curves)
{
    EDGEL_TRY(enter(curves));
    edgel_curves_clear(curves);
    curves->has_points = 0;
    edgel_subpixel_params p;
    edgel_status st = read_params(params, &p);
    if (st == EDGEL_OK && src && src->memory == EDGEL_MEMORY_DEVICE)
        st = edgel_fail(EDGEL_ERROR_UNSUPPORTED, "sub-pixel points are found in host images");
    if (st == EDGEL_OK)
        st = check_source(ctx, src);
    if (st == EDGEL_OK && (x0 < 0 || y0 < 0 || x0 + src->width > INT32_MAX ||
                           y0 + src->height > INT32_MAX))
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "the piece at (%lld, %lld) of %dx%d "
                        "pixels must lie within 0 .. 2^31 - 1", (long long)x0, (long long)y0,
                        (int)src->width, (int)src->height);
    if (st == EDGEL_OK)
        st = host_points(ctx, &p, src, x0, y0, curves);
    curves->has_points = st == EDGEL_OK;
    return leave(curves, st);
}

edgel_status edgel_subpixel_find_points(edgel_context *ctx, const edgel_subpixel_params *params,
                                        const edgel_image *src, int64_t x0, int64_t y0,
                                        edgel_curves *curves)
{
    EDGEL_WITH_CONTEXT(ctx, find_points_held(ctx, params, src, x0, y0, curves));
}

edgel_status edgel_curves_get_points(edgel_curves *curves, edgel_subpixel_points *view)
{
    if (!view)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "view is NULL");
    edgel_subpixel_points full;
    edgel_subpixel_points_init(&full, sizeof full);
    EDGEL_TRY(edgel_grown_read(view, &full, sizeof full, POINTS_FIRST_SIZE, "view",
                               "edgel_subpixel_points_default"));
    EDGEL_TRY(enter(curves));
    if (!curves->has_points)
        return leave(curves, edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                                        "these curves hold no points: the last call on them "
                                        "was not edgel_subpixel_find_points"));
    const edgel_point_list *a = &curves->all;
    full.count = (int64_t)a->count;
    full.x = a->x, full.y = a->y, full.gx = a->gx, full.gy = a->gy, full.modulus = a->mod;
    full.px = a->px, full.py = a->py;
    full.fwd = curves->fwd, full.bck = curves->bck;
    full.fwd_score = curves->fwd_score, full.bck_score = curves->bck_score;
    const uint32_t size = view->struct_size;
    edgel_grown_init(view, size, &full, sizeof full);
    return leave(curves, EDGEL_OK);
}

/* The points copied into curves' working arrays, checked (order, indices), with the columns'
 * first points (over the columns min px .. max px: *w of them) and the memory order. */
static edgel_status take_points(const edgel_subpixel_points *in, edgel_curves *c, int *w)
{
    const int64_t n = in->count;
    if (n < 0 || n > INT32_MAX)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "points: count %lld must be in 0 .. "
                          "2^31 - 1", (long long)n);
    if (n && (!in->x || !in->y || !in->gx || !in->gy || !in->modulus || !in->px || !in->py ||
              !in->fwd || !in->bck || !in->fwd_score || !in->bck_score))
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "points: an array is NULL");
    for (int64_t i = 0; i < n; i++) {
        if (in->px[i] < 0 || in->py[i] < 0 || in->px[i] >= EDGEL_MAX_TILED_DIMENSION ||
            in->py[i] >= EDGEL_MAX_TILED_DIMENSION)
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "points: point %lld's pixel (%d, %d) "
                              "is outside 0 .. %d, the largest image's", (long long)i,
                              (int)in->px[i], (int)in->py[i], EDGEL_MAX_TILED_DIMENSION - 1);
        if (i && (in->px[i] < in->px[i - 1] ||
                  (in->px[i] == in->px[i - 1] && in->py[i] <= in->py[i - 1])))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "points: point %lld is not after "
                              "point %lld in the reference's order (by pixel: x, then y)",
                              (long long)i, (long long)i - 1);
        if (in->fwd[i] < -1 || in->fwd[i] >= n || in->bck[i] < -1 || in->bck[i] >= n)
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "points: point %lld's neighbours "
                              "(%d, %d) are not indices of points", (long long)i,
                              (int)in->fwd[i], (int)in->bck[i]);
    }
    /* (spans in 64 bits; within 2^20 columns and rows: a few MB of index at most) */
    const int32_t first = n ? in->px[0] : 0;
    *w = n ? (int)((int64_t)in->px[n - 1] - first + 1) : 1;
    if (!edgel_curves_reserve_points(c, (size_t)n) ||
        !edgel_curves_reserve_columns(c, (size_t)*w + 1))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "points: out of memory for %lld points",
                          (long long)n);
    edgel_point_list *a = &c->all;
    const size_t d = sizeof(double) * (size_t)n, i32 = sizeof(int32_t) * (size_t)n;
    if (n) {
        memcpy(a->x, in->x, d), memcpy(a->y, in->y, d), memcpy(a->gx, in->gx, d);
        memcpy(a->gy, in->gy, d), memcpy(a->mod, in->modulus, d);
        memcpy(a->px, in->px, i32), memcpy(a->py, in->py, i32);
        memcpy(c->fwd, in->fwd, i32), memcpy(c->bck, in->bck, i32);
        memcpy(c->fwd_score, in->fwd_score, d), memcpy(c->bck_score, in->bck_score, d);
    }
    a->count = (size_t)n;
    int32_t k = 0;
    for (int x = 0; x <= *w; x++) { /* each column's first point */
        while (k < n && a->px[k] - first < x)
            k++;
        c->column_start[x] = k;
    }
    /* memory order: a stable counting sort by row of the points, which are in x order */
    int32_t top = INT32_MAX, bottom = 0;
    for (int64_t i = 0; i < n; i++)
        top = a->py[i] < top ? a->py[i] : top, bottom = a->py[i] > bottom ? a->py[i] : bottom;
    const size_t rows = n ? (size_t)((int64_t)bottom - top) + 2 : 1;
    int64_t *at = calloc(rows, sizeof *at);
    if (!at)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "points: out of memory for their rows");
    for (int64_t i = 0; i < n; i++)
        at[a->py[i] - top + 1]++;
    for (size_t r = 1; r < rows; r++)
        at[r] += at[r - 1];
    for (int32_t i = 0; i < (int32_t)n; i++)
        c->row_order[at[a->py[i] - top]++] = i;
    free(at);
    return EDGEL_OK;
}

static edgel_status chain_points_held(edgel_context *ctx, const edgel_subpixel_params *params,
                                      const edgel_subpixel_points *points, edgel_curves *curves)
{
    EDGEL_TRY(enter(curves));
    edgel_curves_clear(curves);
    curves->has_points = 0;
    edgel_subpixel_params p;
    edgel_subpixel_points in;
    edgel_subpixel_points_init(&in, sizeof in);
    int w = 0;
    edgel_status st = read_params(params, &p);
    if (st == EDGEL_OK)
        st = edgel_grown_read(points, &in, sizeof in, POINTS_FIRST_SIZE, "points",
                              "edgel_subpixel_points_default");
    if (st == EDGEL_OK)
        st = take_points(&in, curves, &w);
    if (st == EDGEL_OK && !edgel_curves_set_none(curves))
        st = edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "curves: out of memory");
    if (st == EDGEL_OK && in.count &&
        !edgel_subpixel_chain(curves, w, p.high, p.low, cpu_threads(ctx)))
        st = edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "curves: out of memory for the curves");
    if (st != EDGEL_OK)
        edgel_curves_clear(curves);
    return leave(curves, st);
}

edgel_status edgel_subpixel_chain_points(edgel_context *ctx, const edgel_subpixel_params *params,
                                         const edgel_subpixel_points *points, edgel_curves *curves)
{
    EDGEL_WITH_CONTEXT(ctx, chain_points_held(ctx, params, points, curves));
}

/* ---- in bands of columns ----------------------------------------------------------------- */

struct edgel_subpixel_stream {
    edgel_busy_flag busy;
    edgel_stream_state *state;
    edgel_curves *found; /* a piece's points */
    edgel_subpixel_params p;
    int64_t width, height;
    int32_t halo;
    int broken;   /* an add failed: its state is not the pass's */
    int finished; /* its curves were given (and let go) */
};

edgel_status edgel_subpixel_stream_create(const edgel_subpixel_params *params, int64_t width,
                                          int64_t height, edgel_subpixel_stream **stream)
{
    if (!stream)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "stream is NULL");
    *stream = NULL;
    edgel_subpixel_params p;
    EDGEL_TRY(read_params(params, &p));
    if (width < 1 || height < 1 || width > EDGEL_MAX_TILED_DIMENSION ||
        height > EDGEL_MAX_TILED_DIMENSION)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: %lldx%lld must be "
                          "1 to %d pixels a side", (long long)width, (long long)height,
                          EDGEL_MAX_TILED_DIMENSION);
    edgel_subpixel_stream *s = calloc(1, sizeof *s);
    if (s) {
        s->state = edgel_stream_state_create(&p, (int32_t)width, (int32_t)height);
        s->found = calloc(1, sizeof *s->found);
    }
    if (!s || !s->state || !s->found) {
        edgel_subpixel_stream_destroy(s);
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "sub-pixel stream: out of memory");
    }
    s->p = p;
    atomic_init(&s->busy, 0);
    s->width = width, s->height = height, s->halo = edgel_subpixel_halo(p.sigma);
    *stream = s;
    return EDGEL_OK;
}

void edgel_subpixel_stream_destroy(edgel_subpixel_stream *stream)
{
    if (!stream)
        return;
    edgel_stream_state_free(stream->state);
    edgel_curves_free(stream->found);
    free(stream);
}

int64_t edgel_subpixel_stream_columns(const edgel_subpixel_stream *stream)
{
    return stream ? edgel_stream_state_added(stream->state) : 0;
}

int64_t edgel_subpixel_stream_points(const edgel_subpixel_stream *stream)
{
    return stream ? edgel_stream_state_points(stream->state) : 0;
}

static edgel_status stream_enter(edgel_subpixel_stream *s)
{
    EDGEL_TRY(edgel_busy_enter(s ? &s->busy : NULL, "stream's pieces"));
    if (s->broken)
        return edgel_busy_leave(&s->busy, edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                                                     "sub-pixel stream: an earlier add failed; "
                                                     "start another stream"));
    return EDGEL_OK;
}

static edgel_status stream_add_held(edgel_context *ctx, edgel_subpixel_stream *s,
                                    const edgel_image *piece, int64_t x0)
{
    EDGEL_TRY(stream_enter(s));
    const int64_t added = edgel_stream_state_added(s->state);
    edgel_status st = check_source(ctx, piece);
    if (st == EDGEL_OK && piece->memory == EDGEL_MEMORY_DEVICE)
        st = edgel_fail(EDGEL_ERROR_UNSUPPORTED, "sub-pixel stream: pieces are host images");
    if (st == EDGEL_OK && (piece->height != s->height || x0 < 0 ||
                           x0 + piece->width > s->width))
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: a piece of %dx%d "
                        "pixels at column %lld is not columns of every row of the %lldx%lld "
                        "image", (int)piece->width, (int)piece->height, (long long)x0,
                        (long long)s->width, (long long)s->height);
    if (st == EDGEL_OK && added == s->width)
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: every column is in "
                        "already");
    int32_t own_lo = 0, own_hi = 0;
    if (st == EDGEL_OK)
        edgel_stream_state_own(s->state, x0, piece->width, &own_lo, &own_hi);
    if (st == EDGEL_OK && !(own_lo <= added && added < own_hi))
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: the piece of columns "
                        "%lld .. %lld gives columns %d .. %d exactly (a halo of %d), which "
                        "must hold column %lld, the first not yet added", (long long)x0,
                        (long long)(x0 + piece->width - 1), (int)own_lo, (int)own_hi - 1,
                        (int)s->halo, (long long)added);
    if (st == EDGEL_OK) {
        st = host_points(ctx, &s->p, piece, x0, 0, s->found);
        if (st == EDGEL_OK)
            st = edgel_stream_state_add(s->state, s->found, x0, piece->width, cpu_threads(ctx));
        s->broken = st != EDGEL_OK;
    }
    return edgel_busy_leave(&s->busy, st);
}

edgel_status edgel_subpixel_stream_add(edgel_context *ctx, edgel_subpixel_stream *stream,
                                       const edgel_image *piece, int64_t x0)
{
    EDGEL_WITH_CONTEXT(ctx, stream_add_held(ctx, stream, piece, x0));
}

static edgel_status stream_finish_held(edgel_context *ctx, edgel_subpixel_stream *s,
                                       edgel_curves *curves)
{
    EDGEL_TRY(stream_enter(s));
    edgel_status st = enter(curves);
    if (st != EDGEL_OK)
        return edgel_busy_leave(&s->busy, st);
    edgel_curves_clear(curves);
    curves->has_points = 0;
    const int64_t added = edgel_stream_state_added(s->state);
    if (added < s->width)
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: columns %lld .. %lld "
                        "are not in yet", (long long)added, (long long)s->width - 1);
    else if (s->finished)
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "sub-pixel stream: its curves were given "
                        "by an earlier finish");
    else
        st = edgel_stream_state_finish(s->state, curves, cpu_threads(ctx));
    s->finished |= st == EDGEL_OK;
    if (st != EDGEL_OK)
        edgel_curves_clear(curves);
    leave(curves, st);
    return edgel_busy_leave(&s->busy, st);
}

edgel_status edgel_subpixel_stream_finish(edgel_context *ctx, edgel_subpixel_stream *stream,
                                          edgel_curves *curves)
{
    EDGEL_WITH_CONTEXT(ctx, stream_finish_held(ctx, stream, curves));
}
