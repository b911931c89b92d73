/* Public entry points of the segmentation (edgel_segment_* in edgel_experimental.h): the
 * result object, its busy flag, and the checks of the curves and parameters; the split is
 * core/segment.c's. */
#include "core/busy.h"
#include "core/grown.h"
#include "core/segment.h"
#include "core/status.h"

#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#define SEGMENT_PARAMS_FIRST_SIZE (offsetof(edgel_segment_params, max_distance) + sizeof(double))

struct edgel_segments {
    atomic_int busy;
    edgel_segment_work work;
};

static void segment_defaults(edgel_segment_params *p)
{
    p->struct_size = sizeof *p;
    p->mode = EDGEL_SEGMENT_LINES_CIRCLES;
    p->smooth = 2;
    p->split_distance = 1.0;
    p->max_distance = 0.5;
}

void edgel_segment_params_init(edgel_segment_params *params, size_t struct_size)
{
    edgel_segment_params full = {0};
    segment_defaults(&full);
    edgel_grown_init(params, struct_size, &full, sizeof full);
}

edgel_status edgel_segments_create(edgel_segments **segments)
{
    if (!segments)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "segments is NULL");
    *segments = calloc(1, sizeof **segments);
    if (!*segments)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "segments: out of memory");
    atomic_init(&(*segments)->busy, 0);
    return EDGEL_OK;
}

void edgel_segments_destroy(edgel_segments *segments)
{
    if (!segments)
        return;
    edgel_segment_work_free(&segments->work);
    free(segments);
}

static edgel_status read_params(const edgel_segment_params *in, edgel_segment_params *p)
{
    segment_defaults(p);
    if (in)
        EDGEL_TRY(edgel_grown_read(in, p, sizeof *p, SEGMENT_PARAMS_FIRST_SIZE, "params",
                                   "edgel_segment_params_default"));
    if (p->mode != EDGEL_SEGMENT_LINES && p->mode != EDGEL_SEGMENT_LINES_CIRCLES &&
        p->mode != EDGEL_SEGMENT_LINES_ELLIPSES)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "segment: unknown mode %d", (int)p->mode);
    if (p->smooth < 0 || p->smooth > 50)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "segment: smooth %d must be in 0..50",
                          (int)p->smooth);
    if (!(p->split_distance > 0.0) || !isfinite(p->split_distance) ||
        !(p->max_distance > 0.0) || !isfinite(p->max_distance))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "segment: split_distance %g and max_distance %g must be finite and "
                          "above 0", p->split_distance, p->max_distance);
    return EDGEL_OK;
}

/* The curves' arrays: host, limits rising from 0 to points, coordinates in range. */
static edgel_status check_curves(const edgel_curves_view *c)
{
    if (!c)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "curves is NULL");
    if (c->device >= 0)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "segment: the curves are on device %d "
                          "(segmentation runs on host arrays)", (int)c->device);
    if (c->points < 0 || c->curves < 0)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "segment: %lld points in %lld curves",
                          (long long)c->points, (long long)c->curves);
    if (c->curves && (!c->limits || !c->closed || (c->points && (!c->x || !c->y))))
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "segment: x, y, limits or closed is NULL");
    if (c->curves && (c->limits[0] != 0 || c->limits[c->curves] != c->points))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "segment: limits run from %lld to %lld, not 0 to %lld points",
                          (long long)c->limits[0], (long long)c->limits[c->curves],
                          (long long)c->points);
    for (int64_t k = 0; k < c->curves; k++)
        if (c->limits[k + 1] < c->limits[k])
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "segment: limits[%lld] falls",
                              (long long)(k + 1));
    for (int64_t i = 0; i < c->points; i++)
        if (!(fabs(c->x[i]) <= EDGEL_FIT_MAX_COORDINATE) ||
            !(fabs(c->y[i]) <= EDGEL_FIT_MAX_COORDINATE))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "segment: point %lld (%g, %g) is not finite or past +-%g",
                              (long long)i, c->x[i], c->y[i], EDGEL_FIT_MAX_COORDINATE);
    return EDGEL_OK;
}

static edgel_status segment_held(const edgel_curves_view *c, const edgel_segment_params *p,
                                 edgel_segments *out)
{
    out->work.count = 0;
    for (int64_t k = 0; k < c->curves; k++) {
        const int64_t a = c->limits[k];
        int64_t n = c->limits[k + 1] - a;
        const int closed = c->closed[k] != 0;
        if (closed && n > 1 && c->x[a] == c->x[a + n - 1] && c->y[a] == c->y[a + n - 1])
            n--; /* its first point repeated at its end */
        if (!edgel_segment_curve(&out->work, c->x + a, c->y + a, n, closed, k, a, p))
            return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "segment: out of memory");
    }
    return EDGEL_OK;
}

edgel_status edgel_segment_curves(const edgel_curves_view *curves,
                                  const edgel_segment_params *params, edgel_segments *out)
{
    edgel_segment_params p;
    EDGEL_TRY(read_params(params, &p));
    EDGEL_TRY(check_curves(curves));
    EDGEL_TRY(edgel_busy_enter(out ? &out->busy : NULL, "segments"));
    return edgel_busy_leave(&out->busy, segment_held(curves, &p, out));
}

edgel_status edgel_segments_get(edgel_segments *segments, const edgel_piece **pieces,
                                int64_t *count)
{
    if (!pieces || !count)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "pieces or count is NULL");
    EDGEL_TRY(edgel_busy_enter(segments ? &segments->busy : NULL, "segments"));
    *pieces = segments->work.pieces;
    *count = segments->work.count;
    return edgel_busy_leave(&segments->busy, EDGEL_OK);
}
