/* Internal to the volume files (volume_io.c): NRRD (.nrrd, .nhdr) reading and writing
 * (nrrd.c). */
#ifndef EDGEL_IO_NRRD_H
#define EDGEL_IO_NRRD_H

#include "edgel.h"
#include "io/voxel_layout.h"

#include <stddef.h>

typedef struct edgel_nrrd_header edgel_nrrd_header;

/* Where the voxels of `path` lie, its spacing (x, y, z) and the fields a result keeps. */
edgel_status edgel_nrrd_layout(const char *path, edgel_voxel_layout *l, double spacing[3],
                               edgel_nrrd_header **header);
/* `v` (u8 or f32) as a .nrrd with `like`'s kept fields (NULL: none), raw or gzip as `like`'s
 * input was; the voxels from v->data, or when fd >= 0 stored packed in that file. */
edgel_status edgel_nrrd_write(const char *path, const edgel_volume *v, int fd,
                              const edgel_nrrd_header *like);
void edgel_nrrd_free(edgel_nrrd_header *h);

#endif
