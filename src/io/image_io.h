/*
 * Image files for the edgel command and the tests (not part of libedgel): PNG (libpng),
 * JPEG (libjpeg-turbo), PGM/PPM (P5/P6, 8 and 16 bit) and PFM (32-bit float). Hostile or
 * truncated input gives EDGEL_ERROR_FORMAT with a message, never a crash; sizes beyond
 * EDGEL_MAX_DIMENSION / EDGEL_MAX_PIXELS are refused before anything is allocated.
 */
#ifndef EDGEL_IO_IMAGE_IO_H
#define EDGEL_IO_IMAGE_IO_H

#include <stddef.h>
#include <stdio.h>
#include "edgel.h"
#include "io/image_formats.h"
#include "io/io_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a file; the format comes from its first bytes. On success `out` owns tightly packed
 * host memory (free with edgel_io_free): u8 or u16 for PNG/PNM/JPEG, f32 for PFM, u8, u16 or
 * f32 for TIFF (as the row reader reads it); 1, 3 or 4 channels in file order (RGB for
 * colour). `limits` may be NULL. Regular files larger than
 * the limits allow, and streams that do not start like an image, are refused before they are
 * read whole. */
edgel_status edgel_io_read(const char *path, const edgel_io_limits *limits, edgel_image *out);
edgel_status edgel_io_decode(const void *bytes, size_t size, const edgel_io_limits *limits,
                             edgel_image *out);

/* Writes by the file name's extension: .png (u8/u16; 1, 3, 4 channels), .pgm/.ppm/.pnm
 * (u8/u16; 1 or 3), .pfm (f32; 1 or 3), .tif/.tiff (u8/u16/f32; 1, 3, 4). All or nothing: the file is written to a temporary
 * beside the target, flushed to disk and renamed over it; on any failure the temporary is
 * removed and an existing target is left as it was. */
edgel_status edgel_io_write(const char *path, const edgel_image *img);

#ifdef __cplusplus
}
#endif

#endif
