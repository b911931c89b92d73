/* Images a row at a time, for images larger than memory (row_stream.c). */
#ifndef EDGEL_IO_ROW_STREAM_H
#define EDGEL_IO_ROW_STREAM_H

#include "io/image_formats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 8-bit PGM/PPM and non-interlaced PNG (converted as the whole-file reader converts), and
 * TIFF/BigTIFF (8-bit gray, RGB, RGBA, palette (as RGB) and JPEG-YCbCr (as RGB); 16-bit
 * unsigned or 32-bit float gray) where libtiff is built in, up to EDGEL_MAX_TILED_DIMENSION a
 * side; rows in order, `width * channels` samples of edgel_row_reader_type each. The reader's
 * own buffers (a TIFF's row of tiles) are refused past `max_bytes` (0: no limit), before
 * they are allocated. */
typedef struct edgel_row_reader edgel_row_reader;
edgel_status edgel_row_reader_open(const char *path, size_t max_bytes, edgel_row_reader **out,
                                   int64_t *width, int64_t *height, int *channels);
edgel_status edgel_row_reader_next(edgel_row_reader *r, uint8_t *row);
edgel_pixel_type edgel_row_reader_type(const edgel_row_reader *r);
/* Images in the file (a multi-page TIFF's pages); the reader reads the first. */
int edgel_row_reader_pages(const edgel_row_reader *r);
/* Bytes the reader holds for its own buffers. */
size_t edgel_row_reader_buffer_bytes(const edgel_row_reader *r);
void edgel_row_reader_close(edgel_row_reader *r);

/* The TIFF library built in ("LIBTIFF, Version 4.5.0"), or NULL for a build without TIFF. */
const char *edgel_row_stream_tiff_version(void);

/* 8-bit gray .png or .pgm, all or nothing: a temporary beside the target until commit, which
 * needs every row; abort (or a failed commit) removes it. */
typedef struct edgel_row_writer edgel_row_writer;
edgel_status edgel_row_writer_open(const char *path, int64_t width, int64_t height,
                                   edgel_row_writer **out);
edgel_status edgel_row_writer_put(edgel_row_writer *w, const uint8_t *row);
edgel_status edgel_row_writer_commit(edgel_row_writer *w);
void edgel_row_writer_abort(edgel_row_writer *w);

#ifdef __cplusplus
}
#endif

#endif
