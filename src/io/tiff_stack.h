/* Internal to the volume files (volume_io.c, volume_stream.c): multi-page TIFF stacks as
 * volumes, one page a slice (tiff_stack.c). */
#ifndef EDGEL_IO_TIFF_STACK_H
#define EDGEL_IO_TIFF_STACK_H

#include "edgel.h"

#include <stddef.h>

typedef struct edgel_tiff_stack edgel_tiff_stack;     /* an open stack, read by boxes */
typedef struct edgel_tiff_header edgel_tiff_header;   /* what a result keeps */

/* Opens `path`: every page w x h of one u8, u16 or f32 sample, gray (checked page by page
 * as they are read); sizes, type and spacing (x and y from the resolution tags, z from an
 * ImageJ description's spacing) into *v and spacing. A strip or tile that takes more than a
 * quarter of `max_bytes` decoded is refused; an eighth of it caches decoded ones (0: no
 * limit, a 64 MB cache). */
edgel_status edgel_tiff_stack_open(const char *path, size_t max_bytes, edgel_tiff_stack **s,
                                   edgel_volume *v, double spacing[3],
                                   edgel_tiff_header **header);
/* Fills `dst` (the stack's type) with the box whose first corner is (x, y, z). */
edgel_status edgel_tiff_stack_read(edgel_tiff_stack *s, int64_t x, int64_t y, int64_t z,
                                   const edgel_volume *dst);
void edgel_tiff_stack_close(edgel_tiff_stack *s);
/* `v` (u8 labels 0/1, written 0/255; or f32) as a multi-page BigTIFF with `like`'s
 * resolution and description; the voxels from v->data, or when fd >= 0 stored packed in
 * that file. */
edgel_status edgel_tiff_stack_write(const char *path, const edgel_volume *v, int fd,
                                    const edgel_tiff_header *like);
void edgel_tiff_header_free(edgel_tiff_header *h);

#endif
