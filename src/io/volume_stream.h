/*
 * Volume files larger than memory, for the edgel command's bricks (not part of libedgel): a
 * source that reads boxes of a file's voxels (uncompressed files in place; compressed ones
 * through a decompressed scratch copy beside the output), and a sink that takes bricks of
 * edges into a scratch file and writes the result whole at the end, in the input's format
 * with its header, all or nothing.
 */
#ifndef EDGEL_IO_VOLUME_STREAM_H
#define EDGEL_IO_VOLUME_STREAM_H

#include "edgel.h"
#include "io/io_common.h"
#include "io/volume_io.h"
#include "io/voxel_layout.h"

typedef struct edgel_volume_source {
    edgel_volume_file file; /* header, spacing, format; volume: sizes and type, no data */
    edgel_voxel_layout layout;
    int fd;
    struct edgel_tiff_stack *tiff; /* a TIFF stack's, read through libtiff (no layout) */
    edgel_io_temporary scratch; /* the decompressed voxels, where the file is compressed */
    uint8_t *row;
    size_t row_cap;
} edgel_volume_source;

/* Opens `path` for reading boxes; a compressed file is first decompressed into a scratch
 * file beside `beside` (the caller's output). `max_bytes`: the memory the work may take (a
 * TIFF stack's decoded strips or tiles are held to it; 0: no limit). */
edgel_status edgel_io_open_volume_source(const char *path, const char *beside,
                                         size_t max_bytes, edgel_volume_source *s);
/* Fills `dst` (a host view of the source's type) with the box whose first corner is
 * (x, y, z). */
edgel_status edgel_io_volume_source_read(edgel_volume_source *s, int64_t x, int64_t y, int64_t z,
                                         const edgel_volume *dst);
void edgel_io_close_volume_source(edgel_volume_source *s);

typedef struct edgel_volume_sink {
    edgel_io_temporary scratch; /* width x height x depth u8 labels, in raster order */
    int64_t width, height, depth;
    uint8_t *row;
    size_t row_cap;
} edgel_volume_sink;

edgel_status edgel_io_open_volume_sink(const char *path, int64_t width, int64_t height,
                                       int64_t depth, edgel_volume_sink *s);
/* Stores the edges `v` (u8, 255 or 0) of the box whose first corner is (x, y, z) as labels
 * 1 or 0. */
edgel_status edgel_io_volume_sink_put(edgel_volume_sink *s, int64_t x, int64_t y, int64_t z,
                                      const edgel_volume *v);
/* Writes the stored volume to `path` as edgel_io_write_volume does, like `like`, and removes
 * the scratch file. */
edgel_status edgel_io_finish_volume_sink(edgel_volume_sink *s, const char *path,
                                         const edgel_volume_file *like);
void edgel_io_discard_volume_sink(edgel_volume_sink *s);

#endif
