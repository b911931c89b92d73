/* Public entry point of the caliper (edgel_measure_pos in edgel_experimental.h): the image's,
 * the rectangle's and the parameters' checks; the profile is core/measure.c's. */
#include "core/grown.h"
#include "core/image.h"
#include "core/measure.h"
#include "core/status.h"

#include <math.h>
#include <stddef.h>

#define MEASURE_PARAMS_FIRST_SIZE (offsetof(edgel_measure_params, transition) + sizeof(int32_t))

static void measure_defaults(edgel_measure_params *p)
{
    p->struct_size = sizeof *p;
    p->sigma = 1.0;
    p->threshold = 20.0;
    p->transition = 0;
}

void edgel_measure_params_init(edgel_measure_params *params, size_t struct_size)
{
    edgel_measure_params full = {0};
    measure_defaults(&full);
    edgel_grown_init(params, struct_size, &full, sizeof full);
}

static edgel_status check_measure(const edgel_image *src, const edgel_measure_rect *r,
                                  const edgel_measure_params *in, edgel_measure_params *p)
{
    if (!src || !r)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "measure: src or rect is NULL");
    if (src->type != EDGEL_U8 && src->type != EDGEL_U16 && src->type != EDGEL_F32)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "measure: the image is u8, u16 or f32");
    EDGEL_TRY(edgel_check_image(src, "input", src->type, EDGEL_CHANNELS_1, EDGEL_MEMORY_HOST));
    measure_defaults(p);
    if (in)
        EDGEL_TRY(edgel_grown_read(in, p, sizeof *p, MEASURE_PARAMS_FIRST_SIZE, "params",
                                   "edgel_measure_params_default"));
    if (!(p->sigma >= 0.4 && p->sigma <= 100.0))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "measure: sigma %g must be in [0.4, 100]",
                          p->sigma);
    if (!(p->threshold >= 0.0) || !isfinite(p->threshold))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "measure: threshold %g must be finite and >= 0", p->threshold);
    if (p->transition < -1 || p->transition > 1)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "measure: transition %d must be -1, 0 "
                          "or 1", (int)p->transition);
    const double extent = 4.0 * (double)EDGEL_MAX_DIMENSION;
    if (!(fabs(r->cx) <= extent) || !(fabs(r->cy) <= extent) || !isfinite(r->angle) ||
        !(r->half_length >= 1.0 && r->half_length <= 1048576.0) ||
        !(r->half_width >= 0.0 && r->half_width <= 1024.0))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "measure: the rectangle (centre %g, %g, angle %g, half length %g, "
                          "half width %g) is out of range (a centre within 4 x %d, a finite "
                          "angle, half length 1 .. 2^20, half width 0 .. 1024)",
                          r->cx, r->cy, r->angle, r->half_length, r->half_width,
                          EDGEL_MAX_DIMENSION);
    return EDGEL_OK;
}

edgel_status edgel_measure_pos(const edgel_image *src, const edgel_measure_rect *rect,
                               const edgel_measure_params *params, edgel_measure_edge *edges,
                               int64_t capacity, int64_t *count)
{
    edgel_measure_params p;
    EDGEL_TRY(check_measure(src, rect, params, &p));
    if (!count || (capacity > 0 && !edges))
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "measure: edges or count is NULL");
    if (capacity < 0)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "measure: capacity %lld is negative",
                          (long long)capacity);
    if (!edgel_measure_run(src, rect, &p, edges, capacity, count))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "measure: out of memory");
    return EDGEL_OK;
}
