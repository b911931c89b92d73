/* One libpng set-up for every PNG reader (the whole-file decoder and the row reader), so
 * that a limit or a skipped chunk holds for both. */
#ifndef EDGEL_IO_PNG_SETUP_H
#define EDGEL_IO_PNG_SETUP_H

#include <png.h>

/* Sides up to `max_side`, chunk sizes and counts bounded, and the ancillary chunks edgel
 * does not use (text, profiles, ...) skipped unread: call before png_read_info. */
void edgel_png_read_setup(png_structp png, int max_side);

#endif
