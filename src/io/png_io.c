/* PNG through libpng: any bit depth and colour type in (palette and < 8 bit expanded,
 * gray+alpha reduced to gray); u8 or u16 out with 1, 3 or 4 channels. */
#include "io/image_formats.h"
#include "io/png_setup.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct png_reader {
    const unsigned char *bytes;
    size_t size, pos;
    char message[200];
} png_reader;

static void read_callback(png_structp png, png_bytep dst, png_size_t n)
{
    png_reader *r = png_get_io_ptr(png);
    if (r->size - r->pos < n)
        png_error(png, "file is truncated");
    memcpy(dst, r->bytes + r->pos, n);
    r->pos += n;
}

static void error_callback(png_structp png, png_const_charp msg)
{
    png_reader *r = png_get_error_ptr(png);
    if (r)
        snprintf(r->message, sizeof r->message, "%s", msg);
    png_longjmp(png, 1);
}

static void warning_callback(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* warnings are not errors; the library stays silent */
}

/* Ancillary chunks that edgel does not use: skipped unread, as libpng advises for untrusted
 * input, so that text bombs and large profiles cost nothing. (Pixels are decoded as stored,
 * without gamma or colour management, as cv2.imread does.) */
static const png_byte skipped_chunks[] = "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0"
                                         "pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";

void edgel_png_read_setup(png_structp png, int max_side)
{
    png_set_user_limits(png, (png_uint_32)max_side, (png_uint_32)max_side);
    png_set_chunk_cache_max(png, 128);
    png_set_chunk_malloc_max(png, 8000000); /* libpng's default */
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, skipped_chunks,
                                (int)(sizeof skipped_chunks / 5));
}

edgel_status edgel_png_decode(const unsigned char *bytes, size_t size,
                              const edgel_io_limits *limits, edgel_image *out)
{
    png_reader reader = {bytes, size, 0, "malformed PNG"};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, error_callback,
                                             warning_callback);
    if (!png)
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "PNG: out of memory");
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;
    edgel_image *volatile result = out;
    if (!info || setjmp(png_jmpbuf(png))) {
        free(rows);
        edgel_io_free(result);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PNG: %s", reader.message);
    }
    png_set_read_fn(png, &reader, read_callback);
    edgel_png_read_setup(png, EDGEL_MAX_DIMENSION);
    png_read_info(png, info);
    const int depth = png_get_bit_depth(png, info);
    const int color = png_get_color_type(png, info);
    /* Every transformation is set before png_read_update_info. As cv2.imread: palettes
     * become RGB, RGBA where they have transparency; gray below 8 bits becomes 8-bit; RGB
     * with a tRNS colour gets an alpha channel; a gray tRNS is ignored. Unlike cv2.imread,
     * gray+alpha gives gray alone (edgel's images have 1, 3 or 4 channels). */
    const int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (color == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns && (color == PNG_COLOR_TYPE_PALETTE || color == PNG_COLOR_TYPE_RGB))
        png_set_tRNS_to_alpha(png);
    if (color == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_strip_alpha(png);
    if (depth == 16) {
        const uint16_t one = 1;
        if (*(const unsigned char *)&one == 1)
            png_set_swap(png);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    const int channels = png_get_channels(png, info);
    const long long w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    const edgel_pixel_type type = png_get_bit_depth(png, info) == 16 ? EDGEL_U16 : EDGEL_U8;
    if (channels != 1 && channels != 3 && channels != 4)
        png_error(png, "unsupported channel layout");
    edgel_status st = edgel_io_alloc_decoded(out, w, h, channels, type, "PNG", limits);
    if (st != EDGEL_OK) {
        png_destroy_read_struct(&png, &info, NULL);
        return st;
    }
    if (png_get_rowbytes(png, info) != out->pitch)
        png_error(png, "unexpected row size");
    rows = malloc(sizeof(png_bytep) * (size_t)h);
    if (!rows)
        png_error(png, "out of memory");
    for (long long y = 0; y < h; y++)
        rows[y] = (png_bytep)out->data + (size_t)y * out->pitch;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return EDGEL_OK;
}

int edgel_png_can_hold(const edgel_image *img)
{
    return (img->type == EDGEL_U8 || img->type == EDGEL_U16) &&
           (img->channels == 1 || img->channels == 3 || img->channels == 4);
}

int edgel_png_write(FILE *f, const edgel_image *img)
{
    png_reader err = {NULL, 0, 0, "write failed"};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &err, error_callback,
                                              warning_callback);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        return 0;
    }
    png_init_io(png, f);
    const int color = img->channels == 1 ? PNG_COLOR_TYPE_GRAY
                    : img->channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA;
    png_set_IHDR(png, info, (png_uint_32)img->width, (png_uint_32)img->height,
                 img->type == EDGEL_U16 ? 16 : 8, color, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 3);
    png_write_info(png, info);
    if (img->type == EDGEL_U16) {
        const uint16_t one = 1;
        if (*(const unsigned char *)&one == 1)
            png_set_swap(png);
    }
    for (int y = 0; y < img->height; y++)
        png_write_row(png, (png_const_bytep)img->data + (size_t)y * img->pitch);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 1;
}
