/* Internal: validation of image views and checked size arithmetic. */
#ifndef EDGEL_CORE_IMAGE_H
#define EDGEL_CORE_IMAGE_H

#include <stdbool.h>
#include "edgel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks a view: non-NULL data, sizes within the limits, a known type, channels in
 * `channel_mask` (bit c set = c channels allowed), pitch covering a row, memory kind. */
edgel_status edgel_check_image(const edgel_image *img, const char *name, edgel_pixel_type type,
                               unsigned channel_mask, edgel_memory memory);
edgel_status edgel_check_same_size(const edgel_image *a, const char *name_a,
                                   const edgel_image *b, const char *name_b);
/* True when the byte ranges of two host views intersect. */
bool edgel_images_overlap(const edgel_image *a, const edgel_image *b);
/* A batch's frames that share bytes where one of them is written: edges with edges, or edges
 * with another frame's source (sources may share bytes; a frame's own pair is checked by
 * its call). 1 with the two frames in *first < *second, 0 for none, -1 out of memory.
 * O(n log n) in the frames. */
int edgel_batch_overlap(const edgel_image *srcs, const edgel_image *edges, int32_t count,
                        int32_t *first, int32_t *second);
/* "u8", "u16", ... ("unknown" for others). */
const char *edgel_type_name(edgel_pixel_type t);
/* Bytes of one row of pixels (no padding); the view has been checked. */
size_t edgel_row_bytes(const edgel_image *img);

#define EDGEL_CHANNELS_1 (1u << 1)
#define EDGEL_CHANNELS_ANY ((1u << 1) | (1u << 3) | (1u << 4))

static inline unsigned char *edgel_row_u8(const edgel_image *img, int y)
{
    return (unsigned char *)img->data + (size_t)y * img->pitch;
}

#ifdef __cplusplus
}
#endif

#endif
