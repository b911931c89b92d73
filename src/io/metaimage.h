/* Internal to the volume files (volume_io.c): MetaImage (.mha, .mhd) reading and writing
 * (metaimage.c). */
#ifndef EDGEL_IO_METAIMAGE_H
#define EDGEL_IO_METAIMAGE_H

#include "edgel.h"
#include "io/voxel_layout.h"

#include <stddef.h>

typedef struct edgel_metaimage_header edgel_metaimage_header;

/* `v` (u8 or f32) as an uncompressed .mha with `like`'s kept lines (NULL: none); the voxels
 * from v->data, or when fd >= 0 stored packed in that file. */
edgel_status edgel_metaimage_write(const char *path, const edgel_volume *v, int fd,
                                   const edgel_metaimage_header *like);
/* Where the voxels of `path` lie (for reading boxes of them), its spacing and kept lines. */
edgel_status edgel_metaimage_layout(const char *path, edgel_voxel_layout *out,
                                    double spacing[3], edgel_metaimage_header **header);
void edgel_metaimage_free(edgel_metaimage_header *h);

#endif
