/* Internal: checks of volume views (edgel_volume, edgel.h). */
#ifndef EDGEL_CORE_VOLUME_H
#define EDGEL_CORE_VOLUME_H

#include "edgel.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* EDGEL_OK when `v` (named `name` in messages) is a usable view: data, sizes from 1 up to the
 * limits, a type in `type_mask` (1 << type), pitches that hold a row and a slice and do not
 * wrap, and `memory`. */
edgel_status edgel_check_volume(const edgel_volume *v, const char *name, unsigned type_mask,
                                edgel_memory memory);
edgel_status edgel_check_same_volume_size(const edgel_volume *a, const char *name_a,
                                          const edgel_volume *b, const char *name_b);
bool edgel_volumes_overlap(const edgel_volume *a, const edgel_volume *b);

/* Row y of slice z. */
static inline uint8_t *edgel_volume_row(const edgel_volume *v, int z, int y)
{
    return (uint8_t *)v->data + (size_t)z * v->slice_pitch + (size_t)y * v->pitch;
}

#ifdef __cplusplus
}
#endif

#endif
