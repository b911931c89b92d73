/* Internal: the caliper (api/api_measure.c checks the arguments; include/edgel_experimental.h
 * documents the method). Host code. */
#ifndef EDGEL_CORE_MEASURE_H
#define EDGEL_CORE_MEASURE_H

#include "edgel.h" /* (the library sees its experimental section) */

#include <stdint.h>

/* The edges along a checked rectangle of a checked host image (1 channel, u8, u16 or f32),
 * at most `capacity` into `edges`, their number into *count. Returns 0 when out of memory. */
int edgel_measure_run(const edgel_image *src, const edgel_measure_rect *rect,
                      const edgel_measure_params *p, edgel_measure_edge *edges,
                      int64_t capacity, int64_t *count);

#endif
