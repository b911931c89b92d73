/* The image formats as the dispatcher (image_io.c) and the row reader see them: each
 * format's decoder and encoder, TIFF's compression setting, the Netpbm header fields. */
#ifndef EDGEL_IO_IMAGE_FORMATS_H
#define EDGEL_IO_IMAGE_FORMATS_H

#include "io/io_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-format decoders and encoders (image_io.c dispatches). `limits` may be NULL. */
edgel_status edgel_png_decode(const unsigned char *bytes, size_t size,
                              const edgel_io_limits *limits, edgel_image *out);
edgel_status edgel_jpeg_decode(const unsigned char *bytes, size_t size,
                               const edgel_io_limits *limits, edgel_image *out);
edgel_status edgel_pnm_decode(const unsigned char *bytes, size_t size,
                              const edgel_io_limits *limits, edgel_image *out);
edgel_status edgel_pfm_decode(const unsigned char *bytes, size_t size,
                              const edgel_io_limits *limits, edgel_image *out);
/* Encoders write the whole file to `f` and return 0 on a failure; *_can_hold tells whether
 * the format holds the image's type and channels. edgel_io_write owns the file. */
int edgel_png_can_hold(const edgel_image *img);
int edgel_pnm_can_hold(const edgel_image *img);
int edgel_pfm_can_hold(const edgel_image *img);
int edgel_png_write(FILE *f, const edgel_image *img);
int edgel_pnm_write(FILE *f, const edgel_image *img);
int edgel_pfm_write(FILE *f, const edgel_image *img);
/* TIFF (row_stream.c, where libtiff is): a BigTIFF of u8, u16 or f32 with 1, 3 or 4
 * channels, in strips, compressed as edgel_io_set_tiff_compression says. */
int edgel_tiff_can_hold(const edgel_image *img);
int edgel_tiff_write(FILE *f, const edgel_image *img);

/* How TIFF files are written from now on (whole and row by row): deflate by default. */
typedef enum edgel_tiff_compression {
    EDGEL_TIFF_DEFLATE = 0,
    EDGEL_TIFF_PACKBITS,
    EDGEL_TIFF_UNCOMPRESSED
} edgel_tiff_compression;
void edgel_io_set_tiff_compression(edgel_tiff_compression c);

/* Header fields of the Netpbm family (PGM/PPM, PFM): whitespace and '#' comments between
 * decimal fields. */
typedef struct edgel_netpbm_cursor {
    const unsigned char *p, *end;
} edgel_netpbm_cursor;
void edgel_netpbm_skip_space(edgel_netpbm_cursor *c);
/* A decimal field; -1 when missing or above `max`. */
long long edgel_netpbm_read_field(edgel_netpbm_cursor *c, long long max);

#ifdef __cplusplus
}
#endif

#endif
