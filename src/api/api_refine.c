/* Public entry point of the curves' refinement (edgel_curves_refine): argument checks, then
 * each curve's points on the context's CPU threads (core/refine_math.h does a point). */
#include "api/context.h"
#include "core/grown.h"
#include "core/host_pool.h"
#include "core/refine_math.h"
#include "core/status.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define REFINE_PARAMS_FIRST_SIZE (offsetof(edgel_refine_params, tolerance) + sizeof(double))
/* Points a task refines: a few hundred microseconds of work. */
#define REFINE_CHUNK 4096

static void refine_defaults(edgel_refine_params *p)
{
    p->struct_size = sizeof *p;
    p->sigma = 0.0;
    p->blur = 0.0;
    p->window = 20;
    p->tolerance = 0.25;
}

void edgel_refine_params_init(edgel_refine_params *params, size_t struct_size)
{
    edgel_refine_params full;
    refine_defaults(&full);
    edgel_grown_init(params, struct_size, &full, sizeof full);
}

static edgel_status read_params(const edgel_refine_params *in, edgel_refine_params *p)
{
    refine_defaults(p);
    EDGEL_TRY(edgel_grown_read(in, p, sizeof *p, REFINE_PARAMS_FIRST_SIZE, "params",
                               "edgel_refine_params_default"));
    if (!(p->sigma >= 0.0 && p->sigma <= EDGEL_SUBPIXEL_MAX_SIGMA))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "refine: sigma %g must be in [0, %g]",
                          p->sigma, EDGEL_SUBPIXEL_MAX_SIGMA);
    if (!(p->blur >= 0.0 && p->blur <= EDGEL_SUBPIXEL_MAX_SIGMA))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "refine: blur %g must be in [0, %g]",
                          p->blur, EDGEL_SUBPIXEL_MAX_SIGMA);
    if (p->window < 2 || p->window > EDGEL_REFINE_MAX_WINDOW)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "refine: window %d must be in [2, %d]",
                          (int)p->window, EDGEL_REFINE_MAX_WINDOW);
    if (!(p->tolerance > 0.0 && p->tolerance <= 1e6))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "refine: tolerance %g must be in (0, 1e6] pixels", p->tolerance);
    return EDGEL_OK;
}

/* The curves' layout, every limit before any work. */
static edgel_status check_curves(int64_t points, int64_t curves, const double *xy,
                                 const int64_t *limits, const uint8_t *closed,
                                 const double *refined)
{
    if (!xy || !limits || !closed || !refined)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "refine: %s is NULL",
                          !xy ? "xy" : !limits ? "limits" : !closed ? "closed" : "refined_xy");
    if (points < 0 || curves < 0 || points > INT64_MAX / 16)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "refine: %lld points in %lld curves",
                          (long long)points, (long long)curves);
    if ((uintptr_t)refined < (uintptr_t)(xy + 2 * points) &&
        (uintptr_t)xy < (uintptr_t)(refined + 2 * points))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "refine: refined_xy overlaps xy (each point reads its neighbours)");
    if (limits[0] != 0 || limits[curves] != points)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "refine: limits run from %lld to %lld, not "
                          "from 0 to the %lld points", (long long)limits[0],
                          (long long)limits[curves], (long long)points);
    for (int64_t k = 0; k < curves; k++) {
        const int64_t a = limits[k], b = limits[k + 1];
        if (b < a)
            return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "refine: limits[%lld] = %lld is below "
                              "limits[%lld] = %lld", (long long)(k + 1), (long long)b,
                              (long long)k, (long long)a);
        if (closed[k] && (b - a < 2 || xy[2 * a] != xy[2 * (b - 1)] ||
                          xy[2 * a + 1] != xy[2 * (b - 1) + 1]))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "refine: curve %lld is closed but "
                              "its last point does not repeat its first", (long long)k);
    }
    return EDGEL_OK;
}

typedef struct refine_job {
    const edgel_refine_params *p;
    double s2;
    int64_t points, curves;
    const double *xy;
    const int64_t *limits;
    const uint8_t *closed;
    double *out;
} refine_job;

/* The curve holding point `i` (the last curve whose first point is at most i). */
static int64_t curve_of(const refine_job *j, int64_t i)
{
    int64_t lo = 0, hi = j->curves - 1;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (j->limits[mid] <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static void refine_chunk(void *arg, int index)
{
    const refine_job *j = arg;
    const int64_t first = (int64_t)index * REFINE_CHUNK;
    const int64_t last = first + REFINE_CHUNK < j->points ? first + REFINE_CHUNK : j->points;
    int64_t k = curve_of(j, first);
    for (int64_t i = first; i < last; i++) {
        while (j->limits[k + 1] <= i)
            k++;
        const int64_t a = j->limits[k], len = j->limits[k + 1] - a;
        const int closed = j->closed[k] != 0;
        const int64_t n = closed ? len - 1 : len; /* distinct points */
        if (i - a >= n) /* a loop's repeated point: refine_loop_ends writes it */
            continue;
        edgel_refine_point(j->xy + 2 * a, n, closed, i - a, j->p->window,
                           j->p->tolerance, j->s2, &j->out[2 * i],
                           &j->out[2 * i + 1]);
    }
}

static void refine_loop_ends(const refine_job *j)
{
    /* After the chunks: a loop's first point and its repeat may lie in different ones. */
    for (int64_t k = 0; k < j->curves; k++)
        if (j->closed[k]) {
            const int64_t a = j->limits[k], b = j->limits[k + 1] - 1;
            j->out[2 * b] = j->out[2 * a];
            j->out[2 * b + 1] = j->out[2 * a + 1];
        }
}

static edgel_status refine_held(edgel_context *ctx, const edgel_refine_params *params,
                                int64_t points, int64_t curves, const double *xy,
                                const int64_t *limits, const uint8_t *closed, double *refined)
{
    edgel_refine_params p;
    EDGEL_TRY(read_params(params, &p));
    EDGEL_TRY(check_curves(points, curves, xy, limits, closed, refined));
    if (points == 0)
        return EDGEL_OK;
    if ((points + REFINE_CHUNK - 1) / REFINE_CHUNK > INT32_MAX)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "refine: %lld points are too many",
                          (long long)points);
    const double s2 = p.blur * p.blur + p.sigma * p.sigma + EDGEL_REFINE_SAMPLING_VARIANCE;
    refine_job j = {&p, s2, points, curves, xy, limits, closed, refined};
    const int threads = ctx->backend == EDGEL_BACKEND_CPU ? ctx->threads : edgel_host_cores();
    edgel_host_parallel_for(threads, (int)((points + REFINE_CHUNK - 1) / REFINE_CHUNK),
                            refine_chunk, &j);
    refine_loop_ends(&j);
    return EDGEL_OK;
}

edgel_status edgel_curves_refine(edgel_context *ctx, const edgel_refine_params *params,
                                 int64_t points, int64_t curves, const double *xy,
                                 const int64_t *limits, const uint8_t *closed, double *refined_xy)
{
    EDGEL_WITH_CONTEXT(ctx, refine_held(ctx, params, points, curves, xy, limits, closed,
                                        refined_xy));
}
