/* Public entry points of sub-pixel curves in pieces (include/edgel.h, "in pieces"): a piece's
 * points found on the host, all pieces' points chained at once. */
#include "api/api_subpixel.h"
#include "api/context.h"
#include "core/curves.h"
#include "core/grown.h"
#include "core/status.h"
#include "core/subpixel_chain.h"
#include "core/subpixel_math.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

static edgel_status find_points_held(edgel_context *ctx, const edgel_subpixel_params *params,
                                     const edgel_image *src, int64_t x0, int64_t y0,
                                     edgel_curves *curves)
{
    EDGEL_TRY(edgel_curves_enter(curves));
    edgel_curves_clear(curves);
    curves->has_points = 0;
    edgel_subpixel_params p;
    edgel_status st = edgel_subpixel_read_params(params, &p);
    if (st == EDGEL_OK && src && src->memory == EDGEL_MEMORY_DEVICE)
        st = edgel_fail(EDGEL_ERROR_UNSUPPORTED, "sub-pixel points are found in host images");
    if (st == EDGEL_OK)
        st = edgel_subpixel_check_source(ctx, src);
    if (st == EDGEL_OK && (x0 < 0 || y0 < 0 || x0 + src->width > INT32_MAX ||
                           y0 + src->height > INT32_MAX))
        st = edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "the piece at (%lld, %lld) of %dx%d "
                        "pixels must lie within 0 .. 2^31 - 1", (long long)x0, (long long)y0,
                        (int)src->width, (int)src->height);
    if (st == EDGEL_OK)
        st = edgel_subpixel_host_points(ctx, &p, src, x0, y0, curves);
    curves->has_points = st == EDGEL_OK;
    return edgel_curves_leave(curves, st);
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
    EDGEL_TRY(edgel_curves_enter(curves));
    if (!curves->has_points)
        return edgel_curves_leave(
            curves, edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "these curves hold no points: the "
                               "last call on them was not edgel_subpixel_find_points"));
    const edgel_point_list *a = &curves->all;
    full.count = (int64_t)a->count;
    full.x = a->x, full.y = a->y, full.gx = a->gx, full.gy = a->gy, full.modulus = a->mod;
    full.px = a->px, full.py = a->py;
    full.fwd = curves->fwd, full.bck = curves->bck;
    full.fwd_score = curves->fwd_score, full.bck_score = curves->bck_score;
    const uint32_t size = view->struct_size;
    edgel_grown_init(view, size, &full, sizeof full);
    return edgel_curves_leave(curves, EDGEL_OK);
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
    /* (once every pixel is in range:) a neighbour lies within two pixels of its point, as the
     * detector finds it; the parallel linking relies on it (bands of columns read and write
     * only the points within reach of their own) */
    for (int64_t i = 0; i < n; i++)
        for (int e = 0; e < 2; e++) {
            const int32_t k = e ? in->bck[i] : in->fwd[i];
            if (k >= 0 && (abs(in->px[k] - in->px[i]) > 2 || abs(in->py[k] - in->py[i]) > 2))
                return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "points: point %lld's %s "
                                  "neighbour %d is farther than two pixels from it",
                                  (long long)i, e ? "backward" : "forward", (int)k);
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
    EDGEL_TRY(edgel_curves_enter(curves));
    edgel_curves_clear(curves);
    curves->has_points = 0;
    edgel_subpixel_params p;
    edgel_subpixel_points in;
    edgel_subpixel_points_init(&in, sizeof in);
    int w = 0;
    edgel_status st = edgel_subpixel_read_params(params, &p);
    if (st == EDGEL_OK)
        st = edgel_grown_read(points, &in, sizeof in, POINTS_FIRST_SIZE, "points",
                              "edgel_subpixel_points_default");
    if (st == EDGEL_OK)
        st = take_points(&in, curves, &w);
    if (st == EDGEL_OK && !edgel_curves_set_none(curves))
        st = edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "curves: out of memory");
    if (st == EDGEL_OK && in.count &&
        !edgel_subpixel_chain(curves, w, p.high, p.low, edgel_subpixel_cpu_threads(ctx)))
        st = edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "curves: out of memory for the curves");
    if (st != EDGEL_OK)
        edgel_curves_clear(curves);
    return edgel_curves_leave(curves, st);
}

edgel_status edgel_subpixel_chain_points(edgel_context *ctx, const edgel_subpixel_params *params,
                                         const edgel_subpixel_points *points, edgel_curves *curves)
{
    EDGEL_WITH_CONTEXT(ctx, chain_points_held(ctx, params, points, curves));
}

