/* Internal to the files: what the TIFF readers and writers share (row_stream.c defines them):
 * libtiff's messages kept from stderr, and BigTIFF pages written the same way. */
#ifndef EDGEL_IO_TIFF_UTIL_H
#define EDGEL_IO_TIFF_UTIL_H

#ifdef EDGEL_HAVE_TIFF
#include <stdio.h>
#include <tiffio.h>

#include "edgel.h"

/* libtiff's errors to the calling thread's io message, its warnings nowhere. */
void edgel_io_tiff_quiet(void);
/* The next page's tags: w x h pixels of spp samples of `type`, in strips of 64 rows,
 * compressed as edgel_io_set_tiff_compression says. */
void edgel_io_tiff_page(TIFF *tif, int64_t w, int64_t h, int spp, edgel_pixel_type type);
#endif

#endif
