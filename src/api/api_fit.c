/* Public entry points of the fits (edgel_fit_* in edgel_experimental.h): the parameters'
 * and the points' checks; the fits themselves are core/fit.c's. */
#include "core/fit.h"
#include "core/grown.h"
#include "core/status.h"

#include <math.h>
#include <stddef.h>

#define MAX_FIT_POINTS ((int64_t)1 << 40)

/* The size of the struct's first version: the least a caller's struct_size may be. */
#define FIT_PARAMS_FIRST_SIZE (offsetof(edgel_fit_params, algebraic) + sizeof(edgel_fit_algebraic))

void edgel_fit_params_init(edgel_fit_params *params, size_t struct_size)
{
    edgel_fit_params full;
    edgel_fit_defaults(&full);
    edgel_grown_init(params, struct_size, &full, sizeof full);
}

/* The caller's params (NULL: the defaults) as this version's, checked; and the points. */
static edgel_status check_fit(const double *x, const double *y, int64_t n,
                              const edgel_fit_params *params, const void *out, int least,
                              edgel_fit_params *p)
{
    if (!x || !y || !out)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "fit: x, y or out is NULL");
    edgel_fit_defaults(p);
    if (params)
        EDGEL_TRY(edgel_grown_read(params, p, sizeof *p, FIT_PARAMS_FIRST_SIZE, "fit params",
                                   "edgel_fit_params_default"));
    if (p->geometric != 0 && p->geometric != 1)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "fit: geometric %d must be 0 or 1",
                          (int)p->geometric);
    if (p->weight != EDGEL_FIT_PLAIN && p->weight != EDGEL_FIT_HUBER &&
        p->weight != EDGEL_FIT_TUKEY)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "fit: unknown weight %d", (int)p->weight);
    if (p->iterations < 1 || p->iterations > 100)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "fit: iterations %d must be in 1..100",
                          (int)p->iterations);
    if (!(p->clipping_factor > 0.0) || !isfinite(p->clipping_factor))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "fit: clipping_factor %g must be finite and above 0",
                          p->clipping_factor);
    if (p->clip_ends < 0)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "fit: clip_ends %d is negative",
                          (int)p->clip_ends);
    if (p->algebraic != EDGEL_FIT_TAUBIN && p->algebraic != EDGEL_FIT_KASA)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "fit: unknown algebraic fit %d",
                          (int)p->algebraic);
    if (n < 0 || n > MAX_FIT_POINTS)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "fit: %lld points (at most 2^40)",
                          (long long)n);
    if (n - 2 * (int64_t)p->clip_ends < least)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE,
                          "fit: %lld points less %d clipped at each end leave fewer than %d",
                          (long long)n, (int)p->clip_ends, least);
    for (int64_t i = 0; i < n; i++)
        if (!(fabs(x[i]) <= EDGEL_FIT_MAX_COORDINATE) || !(fabs(y[i]) <= EDGEL_FIT_MAX_COORDINATE))
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "fit: point %lld (%g, %g) is not finite or past +-%g",
                              (long long)i, x[i], y[i], EDGEL_FIT_MAX_COORDINATE);
    return EDGEL_OK;
}

static edgel_status outcome(edgel_fit_outcome o, const char *shape, const char *why)
{
    if (o == EDGEL_FIT_NO_MEMORY)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "fit: out of memory");
    if (o == EDGEL_FIT_DEGENERATE)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "fit: no %s fits the points (%s)", shape,
                          why);
    return EDGEL_OK;
}

edgel_status edgel_fit_line(const double *x, const double *y, int64_t n,
                            const edgel_fit_params *params, edgel_line_fit *out, uint8_t *kept)
{
    edgel_fit_params p;
    EDGEL_TRY(check_fit(x, y, n, params, out, 2, &p));
    return outcome(edgel_fit_line_run(x, y, n, &p, out, kept), "line",
                   "they coincide, or the weights kept fewer than 2");
}

edgel_status edgel_fit_circle(const double *x, const double *y, int64_t n,
                              const edgel_fit_params *params, edgel_circle_fit *out,
                              uint8_t *kept)
{
    edgel_fit_params p;
    EDGEL_TRY(check_fit(x, y, n, params, out, 3, &p));
    return outcome(edgel_fit_circle_run(x, y, n, &p, out, kept), "circle",
                   "they are collinear, or the weights kept fewer than 3");
}

edgel_status edgel_fit_ellipse(const double *x, const double *y, int64_t n,
                               const edgel_fit_params *params, edgel_ellipse_fit *out,
                               uint8_t *kept)
{
    edgel_fit_params p;
    EDGEL_TRY(check_fit(x, y, n, params, out, 5, &p));
    return outcome(edgel_fit_ellipse_run(x, y, n, &p, out, kept), "ellipse",
                   "they lie on a line, or the weights kept fewer than 5");
}
