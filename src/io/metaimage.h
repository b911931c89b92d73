/* Internal to the volume files (volume_io.c): MetaImage (.mha, .mhd) reading and writing
 * (metaimage.c). */
#ifndef EDGEL_IO_METAIMAGE_H
#define EDGEL_IO_METAIMAGE_H

#include "edgel.h"
#include "io/voxel_layout.h"

#include <stddef.h>

typedef struct edgel_metaimage_header edgel_metaimage_header;

/* `v` (u8 or f32) uncompressed with `like`'s kept lines (NULL: none): a .mha, or a .mhd
 * header with its voxels in NAME.raw beside it; the voxels from v->data, or when fd >= 0
 * stored packed in that file. */
edgel_status edgel_metaimage_write(const char *path, const edgel_volume *v, int fd,
                                   const edgel_metaimage_header *like);
/* Where the voxels of `path` lie (for reading boxes of them), its spacing and kept lines. */
edgel_status edgel_metaimage_layout(const char *path, edgel_voxel_layout *out,
                                    double spacing[3], edgel_metaimage_header **header);
void edgel_metaimage_free(edgel_metaimage_header *h);
/* The data file a .mhd `path` is written with (NAME.raw) into out; 0 for other paths. */
int edgel_metaimage_data_path(const char *path, char *out, size_t cap);

#endif
