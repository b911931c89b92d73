/*
 * Image files for the edgel command and the tests (not part of libedgel): PNG (libpng),
 * JPEG (libjpeg-turbo), PGM/PPM (P5/P6, 8 and 16 bit) and PFM (32-bit float). Hostile or
 * truncated input gives EDGEL_ERROR_FORMAT with a message, never a crash; sizes beyond
 * EDGEL_MAX_DIMENSION / EDGEL_MAX_PIXELS are refused before anything is allocated.
 */
#ifndef EDGEL_IO_IMAGE_IO_H
#define EDGEL_IO_IMAGE_IO_H

#include <stddef.h>
#include "edgel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Files larger than this are refused. */
#define EDGEL_IO_MAX_FILE_BYTES ((size_t)1 << 32)

typedef enum edgel_file_format {
    EDGEL_FILE_UNKNOWN = 0,
    EDGEL_FILE_PNG,
    EDGEL_FILE_JPEG,
    EDGEL_FILE_PNM, /* P5 / P6 */
    EDGEL_FILE_PFM
} edgel_file_format;

/* Reads a file; the format comes from its first bytes. On success `out` owns tightly packed
 * host memory (free with edgel_io_free): u8 or u16 for PNG/PNM/JPEG, f32 for PFM; 1, 3 or 4
 * channels in file order (RGB for colour). */
edgel_status edgel_io_read(const char *path, edgel_image *out);
edgel_status edgel_io_decode(const void *bytes, size_t size, edgel_image *out);
edgel_file_format edgel_io_sniff(const void *bytes, size_t size);

/* Writes by the file name's extension: .png (u8/u16; 1, 3, 4 channels), .pgm/.ppm/.pnm
 * (u8/u16; 1 or 3), .pfm (f32; 1 or 3). */
edgel_status edgel_io_write(const char *path, const edgel_image *img);
edgel_file_format edgel_io_format_for_path(const char *path);

void edgel_io_free(edgel_image *img);

/* Message of the calling thread's last failed io call. */
const char *edgel_io_last_error(void);
edgel_status edgel_io_fail(edgel_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Per-format decoders and encoders (image_io.c dispatches). */
edgel_status edgel_png_decode(const unsigned char *bytes, size_t size, edgel_image *out);
edgel_status edgel_jpeg_decode(const unsigned char *bytes, size_t size, edgel_image *out);
edgel_status edgel_pnm_decode(const unsigned char *bytes, size_t size, edgel_image *out);
edgel_status edgel_pfm_decode(const unsigned char *bytes, size_t size, edgel_image *out);
edgel_status edgel_png_write(const char *path, const edgel_image *img);
edgel_status edgel_pnm_write(const char *path, const edgel_image *img);
edgel_status edgel_pfm_write(const char *path, const edgel_image *img);

/* Allocates a packed host image, refusing sizes beyond the library limits. */
edgel_status edgel_io_alloc(edgel_image *out, long long width, long long height, int channels,
                            edgel_pixel_type type, const char *what);

#ifdef __cplusplus
}
#endif

#endif
