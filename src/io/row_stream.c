#define _XOPEN_SOURCE 700 /* fileno, dup */
/* Images read and written a row at a time, for images larger than memory: 8-bit PGM/PPM,
 * non-interlaced PNG and 8-bit TIFF/BigTIFF (strips or tiles, any compression libtiff has)
 * in, up to EDGEL_MAX_TILED_DIMENSION a side; 8-bit gray PGM, PNG and BigTIFF out, written
 * all or nothing. */
#include "io/row_stream.h"
#include "io/tiff_util.h"
#include "io/png_setup.h"

#ifdef EDGEL_HAVE_TIFF
#include <tiffio.h>
#include <unistd.h>
#endif
#include <errno.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct edgel_row_reader {
    FILE *file;
    edgel_file_format format;
    int64_t width, height, next_row;
    int channels;
    edgel_pixel_type type; /* of the rows: u8, or (TIFF) u16 or f32 gray */
    png_structp png;
    png_infop info;
    char message[200];
#ifdef EDGEL_HAVE_TIFF
    TIFF *tif;
    int tiff_kind, cmap_shift;  /* TIFF_AS_STORED, ...; a palette's entries >> cmap_shift */
    uint16_t *cmap[3];          /* the palette (libtiff's memory) */
    size_t stored_px;           /* bytes of a pixel as stored */
    uint32_t tile_w, tile_h; /* tiled TIFF: a row of tiles at a time into `band` */
    uint8_t *band, *tile;
    int64_t band_y; /* first row in band, -1: none */
#endif
    int pages;           /* images in the file (TIFF: directories), of which the first is read */
    size_t buffer_bytes; /* what the reader holds beside the caller's rows */
};

struct edgel_row_writer {
    edgel_io_temporary tmp;
    edgel_file_format format;
    int64_t width, height, rows;
    png_structp png;
    png_infop info;
    int failed;
    char message[200];
#ifdef EDGEL_HAVE_TIFF
    TIFF *tif;
#endif
};

#ifdef EDGEL_HAVE_TIFF
/* libtiff's messages go to the calling thread's io message, never to stderr. */
static void tiff_error(const char *module, const char *fmt, va_list ap)
{
    char msg[300];
    vsnprintf(msg, sizeof msg, fmt, ap);
    edgel_io_fail(EDGEL_ERROR_FORMAT, "TIFF: %s%s%s", module ? module : "", module ? ": " : "",
                  msg);
}

static void tiff_warning(const char *module, const char *fmt, va_list ap)
{
    (void)module, (void)fmt, (void)ap;
}

void edgel_io_tiff_quiet(void)
{
    TIFFSetErrorHandler(tiff_error);
    TIFFSetWarningHandler(tiff_warning);
}

static void tiff_quiet(void)
{
    edgel_io_tiff_quiet();
}

static _Atomic int tiff_compression = EDGEL_TIFF_DEFLATE;

/* A BigTIFF written on the temporary file `f` (through a descriptor of its own). */
static TIFF *tiff_create(FILE *f, const char *name)
{
    tiff_quiet();
    const int fd = dup(fileno(f));
    TIFF *tif = fd >= 0 ? TIFFFdOpen(fd, name, "w8") : NULL;
    if (!tif && fd >= 0)
        close(fd);
    return tif;
}

/* A BigTIFF on the temporary file `f` (libtiff closes its own descriptor; the FILE stays the
 * caller's) set up for w x h pixels of spp samples of `type`, in strips of 64 rows. */
static TIFF *tiff_start(FILE *f, const char *name, int64_t w, int64_t h, int spp,
                        edgel_pixel_type type)
{
    TIFF *tif = tiff_create(f, name);
    if (tif)
        edgel_io_tiff_page(tif, w, h, spp, type);
    return tif;
}

void edgel_io_tiff_page(TIFF *tif, int64_t w, int64_t h, int spp, edgel_pixel_type type)
{
    static const uint16_t codecs[] = {COMPRESSION_ADOBE_DEFLATE, COMPRESSION_PACKBITS,
                                      COMPRESSION_NONE};
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, (uint32_t)w);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, (uint32_t)h);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, spp);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, (int)(8 * edgel_pixel_size(type)));
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT,
                 type == EDGEL_F32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    if (spp == 4) {
        const uint16_t alpha = EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, &alpha);
    }
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, codecs[atomic_load(&tiff_compression)]);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, 64);
}

/* What tiff_row makes of the samples libtiff gives: as stored, a palette's colours, or gray
 * inverted (as cv2.imread, which reads such files through libtiff's RGBA conversion). */
enum { TIFF_AS_STORED, TIFF_PALETTE, TIFF_INVERTED };

/* The photometric interpretations read, and what the others need. */
static edgel_status tiff_colour(edgel_row_reader *r, const char *path, uint16_t spp,
                                uint16_t bps, int u8)
{
    uint16_t photometric = spp == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB;
    uint16_t compression = COMPRESSION_NONE;
    TIFFGetField(r->tif, TIFFTAG_PHOTOMETRIC, &photometric);
    TIFFGetFieldDefaulted(r->tif, TIFFTAG_COMPRESSION, &compression);
    r->tiff_kind = TIFF_AS_STORED;
    switch (photometric) {
    case PHOTOMETRIC_MINISBLACK:
        if (spp == 1)
            return EDGEL_OK;
        break;
    case PHOTOMETRIC_MINISWHITE:
        if (spp == 1 && u8) {
            r->tiff_kind = TIFF_INVERTED;
            return EDGEL_OK;
        }
        break;
    case PHOTOMETRIC_RGB:
        if (spp == 3 || spp == 4)
            return EDGEL_OK;
        break;
    case PHOTOMETRIC_YCBCR: /* libtiff's JPEG codec converts to RGB; other YCbCr is packed */
        if (spp == 3 && u8 && compression == COMPRESSION_JPEG &&
            TIFFSetField(r->tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB))
            return EDGEL_OK;
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: YCbCr TIFF without JPEG "
                             "compression; convert it to RGB (e.g. tiff2rgba)", path);
    case PHOTOMETRIC_PALETTE:
        if (spp == 1 && bps == 8 &&
            TIFFGetField(r->tif, TIFFTAG_COLORMAP, &r->cmap[0], &r->cmap[1], &r->cmap[2])) {
            /* libtiff's rule: a map with every entry below 256 holds 8-bit values */
            int wide = 0;
            for (int i = 0; i < 256; i++)
                wide |= r->cmap[0][i] > 255 || r->cmap[1][i] > 255 || r->cmap[2][i] > 255;
            r->cmap_shift = wide ? 8 : 0;
            r->tiff_kind = TIFF_PALETTE;
            return EDGEL_OK;
        }
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: a palette TIFF of %u-bit indices "
                             "(edgel reads 8-bit ones)", path, bps);
    default:
        break;
    }
    return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: TIFF of photometric interpretation %u "
                         "with %u samples a pixel: edgel reads gray, RGB, RGBA, palette and "
                         "JPEG-YCbCr (convert CMYK, Lab and others to RGB first)", path,
                         photometric, spp);
}

static edgel_status open_tiff(edgel_row_reader *r, const char *path, size_t max_bytes)
{
    tiff_quiet();
    fclose(r->file);
    r->file = NULL;
    r->tif = TIFFOpen(path, "rm"); /* no memory map: its pages would count as ours */
    if (!r->tif)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: not a readable TIFF", path);
    uint32_t w = 0, h = 0;
    uint16_t spp = 1, bps = 8, planar = PLANARCONFIG_CONTIG, format = SAMPLEFORMAT_UINT;
    TIFFGetField(r->tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(r->tif, TIFFTAG_IMAGELENGTH, &h);
    TIFFGetFieldDefaulted(r->tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(r->tif, TIFFTAG_BITSPERSAMPLE, &bps);
    TIFFGetFieldDefaulted(r->tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(r->tif, TIFFTAG_SAMPLEFORMAT, &format);
    if (w < 1 || h < 1 || w > EDGEL_MAX_TILED_DIMENSION || h > EDGEL_MAX_TILED_DIMENSION)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: TIFF of %ux%u (1..%d a side)", path, w, h,
                             EDGEL_MAX_TILED_DIMENSION);
    const int u8 = bps == 8 && format == SAMPLEFORMAT_UINT;
    const int u16 = bps == 16 && format == SAMPLEFORMAT_UINT && spp == 1;
    const int f32 = bps == 32 && format == SAMPLEFORMAT_IEEEFP && spp == 1;
    /* one integer sample of another depth: tiff_colour names what it is (a 4-bit palette,
     * say) before the depth is refused below */
    const int other_depth = bps != 8 && spp == 1 && format == SAMPLEFORMAT_UINT;
    if (!(u8 || u16 || f32 || other_depth) || (spp != 1 && spp != 3 && spp != 4) ||
        (spp > 1 && planar != PLANARCONFIG_CONTIG))
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: TIFF of %u-bit samples (format %u), "
                             "%u a pixel%s: edgel streams 8-bit unsigned gray, RGB or RGBA, "
                             "interleaved, and 16-bit unsigned or 32-bit float gray", path, bps,
                             format, spp, planar != PLANARCONFIG_CONTIG ? " in planes" : "");
    EDGEL_IO_TRY(tiff_colour(r, path, spp, bps, u8));
    if (!(u8 || u16 || f32))
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: TIFF of %u-bit samples", path, bps);
    r->width = w, r->height = h;
    r->channels = r->tiff_kind == TIFF_PALETTE ? 3 : spp;
    r->type = u16 ? EDGEL_U16 : f32 ? EDGEL_F32 : EDGEL_U8; /* (libtiff gives host order) */
    r->stored_px = (size_t)spp * edgel_pixel_size(r->type);
    r->band_y = -1;
    r->pages = TIFFNumberOfDirectories(r->tif);
    /* libtiff's own sizes must be what the copies below assume (subsampled or packed
     * layouts are not) */
    const uint64_t row_bytes = (uint64_t)w * r->stored_px;
    if (!TIFFIsTiled(r->tif)) {
        if ((uint64_t)TIFFScanlineSize64(r->tif) != row_bytes)
            return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: TIFF rows of %llu bytes where "
                                 "%u pixels need %llu", path,
                                 (unsigned long long)TIFFScanlineSize64(r->tif), w,
                                 (unsigned long long)row_bytes);
        return EDGEL_OK;
    }
    TIFFGetField(r->tif, TIFFTAG_TILEWIDTH, &r->tile_w);
    TIFFGetField(r->tif, TIFFTAG_TILELENGTH, &r->tile_h);
    const uint64_t tile_bytes = (uint64_t)r->tile_w * r->tile_h * r->stored_px;
    if (r->tile_w < 1 || r->tile_h < 1 || (uint64_t)TIFFTileSize64(r->tif) != tile_bytes)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: TIFF tiles of %ux%u and %llu bytes",
                             path, r->tile_w, r->tile_h,
                             (unsigned long long)TIFFTileSize64(r->tif));
    const uint64_t band = (uint64_t)r->tile_h * row_bytes;
    if (max_bytes && (band + tile_bytes > max_bytes || band / r->tile_h != row_bytes)) {
        char need[32], have[32];
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: a row of the file's %ux%u tiles "
                             "takes %s, more than the memory limit of %s (raise --memory, "
                             "or rewrite the file with smaller tiles: tiffcp -t -w 256 -l 256)",
                             path, r->tile_w, r->tile_h,
                             edgel_io_format_bytes((double)(band + tile_bytes), need,
                                                   sizeof need),
                             edgel_io_format_bytes((double)max_bytes, have, sizeof have));
    }
    r->band = malloc((size_t)band);
    r->tile = malloc((size_t)tile_bytes);
    if (!r->band || !r->tile)
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory for a row of "
                             "%ux%u tiles", path, r->tile_w, r->tile_h);
    r->buffer_bytes = (size_t)(band + tile_bytes);
    return EDGEL_OK;
}

/* libtiff's message for a failed read, after edgel's (tiff_error stored it). */
static edgel_status tiff_read_failed(long long x, long long y, int tile)
{
    char libtiff[300], what[64];
    snprintf(libtiff, sizeof libtiff, "%s", edgel_io_last_error());
    if (tile)
        snprintf(what, sizeof what, "the tile at (%lld, %lld)", x, y);
    else
        snprintf(what, sizeof what, "row %lld", y);
    return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s unreadable%s%s", what, libtiff[0] ? ": " : "",
                         libtiff);
}

/* The stored samples of row r->next_row of a TIFF into `dst`: a scanline of a stripped file,
 * or the band of a row of tiles. */
static edgel_status tiff_stored_row(edgel_row_reader *r, uint8_t *dst)
{
    const int64_t y = r->next_row;
    edgel_io_fail(EDGEL_OK, "%s", ""); /* so that a message seen is libtiff's for this read */
    /* A codec may fill less than it was asked for without an error (a JPEG stream smaller
     * than its strip): what it leaves is zero, never the buffer's last contents. */
    if (!r->band) {
        memset(dst, 0, (size_t)r->width * r->stored_px);
        return TIFFReadScanline(r->tif, dst, (uint32_t)y, 0) < 0
                   ? tiff_read_failed(0, y, 0)
                   : EDGEL_OK;
    }
    const size_t px = r->stored_px;
    if (r->band_y < 0 || y >= r->band_y + r->tile_h) {
        r->band_y = y - y % r->tile_h;
        for (uint32_t tx = 0; tx < r->width; tx += r->tile_w) {
            memset(r->tile, 0, (size_t)r->tile_w * r->tile_h * px);
            if (TIFFReadTile(r->tif, r->tile, tx, (uint32_t)r->band_y, 0, 0) < 0)
                return tiff_read_failed(tx, r->band_y, 1);
            const uint32_t cols = tx + r->tile_w <= r->width ? r->tile_w
                                                             : (uint32_t)(r->width - tx);
            for (uint32_t ty = 0; ty < r->tile_h && r->band_y + ty < r->height; ty++)
                memcpy(r->band + ((size_t)ty * r->width + tx) * px,
                       r->tile + (size_t)ty * r->tile_w * px, cols * px);
        }
    }
    memcpy(dst, r->band + (size_t)(y - r->band_y) * r->width * px, (size_t)r->width * px);
    return EDGEL_OK;
}

/* Row r->next_row of a TIFF as edgel reads it (`row` holds width * channels samples). */
static edgel_status tiff_row(edgel_row_reader *r, uint8_t *row)
{
    const size_t w = (size_t)r->width;
    if (r->tiff_kind != TIFF_PALETTE) {
        EDGEL_IO_TRY(tiff_stored_row(r, row));
        for (size_t i = 0; r->tiff_kind == TIFF_INVERTED && i < w; i++)
            row[i] = (uint8_t)(255 - row[i]);
        return EDGEL_OK;
    }
    /* indices into the last third of the row, expanded forward: pixel i's colour goes to
     * bytes 3i..3i+2, which only hold indices already read */
    uint8_t *index = row + 2 * w;
    EDGEL_IO_TRY(tiff_stored_row(r, index));
    const int shift = r->cmap_shift;
    for (size_t i = 0; i < w; i++) {
        const uint8_t k = index[i];
        row[3 * i] = (uint8_t)(r->cmap[0][k] >> shift);
        row[3 * i + 1] = (uint8_t)(r->cmap[1][k] >> shift);
        row[3 * i + 2] = (uint8_t)(r->cmap[2][k] >> shift);
    }
    return EDGEL_OK;
}
#endif

static void png_error_fn(png_structp png, png_const_charp msg)
{
    char *dst = png_get_error_ptr(png);
    snprintf(dst, 200, "%s", msg);
    png_longjmp(png, 1);
}

static void png_warning_fn(png_structp png, png_const_charp msg)
{
    (void)png, (void)msg;
}

/* PGM/PPM: "P5"/"P6", width, height, maxval (at most 255), one whitespace byte. */
static edgel_status open_pnm(edgel_row_reader *r, const char *path)
{
    unsigned char head[1024];
    const size_t n = fread(head, 1, sizeof head, r->file);
    if (n < 2 || (head[1] != '5' && head[1] != '6'))
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: a plain (ASCII) PGM/PPM or a PBM "
                             "does not stream: it is read whole, within --memory", path);
    edgel_netpbm_cursor c = {head + 2, head + n};
    r->channels = head[1] == '6' ? 3 : 1;
    r->width = edgel_netpbm_read_field(&c, EDGEL_MAX_TILED_DIMENSION);
    r->height = edgel_netpbm_read_field(&c, EDGEL_MAX_TILED_DIMENSION);
    const long long maxval = edgel_netpbm_read_field(&c, 65535);
    if (r->width < 1 || r->height < 1 || maxval < 1 || c.p >= c.end)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: PNM header is malformed, or the image "
                             "is larger than %d a side", path, EDGEL_MAX_TILED_DIMENSION);
    if (maxval > 255)
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: 16-bit PNM does not stream; the "
                             "opencv preset needs 8-bit input", path);
    if (fseek(r->file, (long)(c.p + 1 - head), SEEK_SET) != 0)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: cannot seek", path);
    return EDGEL_OK;
}

static edgel_status open_png(edgel_row_reader *r, const char *path)
{
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r->message, png_error_fn,
                                    png_warning_fn);
    r->info = r->png ? png_create_info_struct(r->png) : NULL;
    if (!r->png || !r->info)
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    if (setjmp(png_jmpbuf(r->png)))
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: PNG: %s", path, r->message);
    rewind(r->file);
    png_init_io(r->png, r->file);
    edgel_png_read_setup(r->png, EDGEL_MAX_TILED_DIMENSION);
    png_read_info(r->png, r->info);
    const int depth = png_get_bit_depth(r->png, r->info);
    const int color = png_get_color_type(r->png, r->info);
    if (png_get_interlace_type(r->png, r->info) != PNG_INTERLACE_NONE)
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: an interlaced PNG does not stream "
                             "row by row", path);
    if (depth == 16)
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: 16-bit PNG: the opencv preset needs "
                             "8-bit input", path);
    /* the same conversions as the whole-file reader (png_io.c) */
    const int has_trns = png_get_valid(r->png, r->info, PNG_INFO_tRNS) != 0;
    if (color == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(r->png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(r->png);
    if (has_trns && (color == PNG_COLOR_TYPE_PALETTE || color == PNG_COLOR_TYPE_RGB))
        png_set_tRNS_to_alpha(r->png);
    if (color == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_strip_alpha(r->png);
    png_read_update_info(r->png, r->info);
    r->channels = png_get_channels(r->png, r->info);
    r->width = png_get_image_width(r->png, r->info);
    r->height = png_get_image_height(r->png, r->info);
    if (r->channels != 1 && r->channels != 3 && r->channels != 4)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: unsupported PNG channel layout", path);
    r->buffer_bytes = 2 * png_get_rowbytes(r->png, r->info); /* libpng's row and the previous */
    return EDGEL_OK;
}

edgel_status edgel_row_reader_open(const char *path, size_t max_bytes, edgel_row_reader **out,
                                   int64_t *width, int64_t *height, int *channels)
{
    *out = NULL;
    edgel_row_reader *r = calloc(1, sizeof *r);
    if (!r)
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory");
    r->file = fopen(path, "rb");
    if (!r->file) {
        free(r);
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: cannot open", path);
    }
    unsigned char magic[8] = {0};
    const size_t n = fread(magic, 1, sizeof magic, r->file);
    r->format = edgel_io_sniff(magic, n);
    rewind(r->file);
    edgel_status st;
    if (r->format == EDGEL_FILE_PNG)
        st = open_png(r, path);
    else if (r->format == EDGEL_FILE_PNM)
        st = open_pnm(r, path);
#ifdef EDGEL_HAVE_TIFF
    else if (r->format == EDGEL_FILE_TIFF)
        st = open_tiff(r, path, max_bytes);
#endif
    else
        st = edgel_io_fail(EDGEL_ERROR_UNSUPPORTED,
                           "%s: only PNG, 8-bit PGM/PPM and TIFF stream row by row", path);
    if (st != EDGEL_OK) {
        edgel_row_reader_close(r);
        return st;
    }
    if (r->pages < 1)
        r->pages = 1;
    *out = r;
    *width = r->width;
    *height = r->height;
    *channels = r->channels;
    return EDGEL_OK;
}

void edgel_io_set_tiff_compression(edgel_tiff_compression c)
{
#ifdef EDGEL_HAVE_TIFF
    atomic_store(&tiff_compression, (int)c);
#else
    (void)c;
#endif
}

int edgel_tiff_can_hold(const edgel_image *img)
{
#ifdef EDGEL_HAVE_TIFF
    return (img->type == EDGEL_U8 || img->type == EDGEL_U16 || img->type == EDGEL_F32) &&
           (img->channels == 1 || img->channels == 3 || img->channels == 4);
#else
    (void)img;
    return 0;
#endif
}

int edgel_tiff_write(FILE *f, const edgel_image *img)
{
#ifdef EDGEL_HAVE_TIFF
    TIFF *tif = tiff_start(f, "edgel", img->width, img->height, img->channels, img->type);
    int ok = tif != NULL;
    for (int32_t y = 0; ok && y < img->height; y++)
        ok = TIFFWriteScanline(tif, (uint8_t *)img->data + (size_t)y * img->pitch,
                               (uint32_t)y, 0) >= 0;
    if (tif) {
        ok = ok && TIFFFlush(tif) == 1;
        TIFFClose(tif);
    }
    return ok;
#else
    (void)f, (void)img;
    return 0;
#endif
}

const char *edgel_row_stream_tiff_version(void)
{
#ifdef EDGEL_HAVE_TIFF
    return TIFFGetVersion();
#else
    return NULL;
#endif
}

edgel_pixel_type edgel_row_reader_type(const edgel_row_reader *r) { return r->type; }
int edgel_row_reader_pages(const edgel_row_reader *r) { return r->pages; }
size_t edgel_row_reader_buffer_bytes(const edgel_row_reader *r) { return r->buffer_bytes; }

edgel_status edgel_row_reader_next(edgel_row_reader *r, uint8_t *row)
{
    if (r->next_row >= r->height)
        return edgel_io_fail(EDGEL_ERROR_INTERNAL, "read past the last row");
    const size_t bytes = (size_t)r->width * (size_t)r->channels;
#ifdef EDGEL_HAVE_TIFF
    if (r->format == EDGEL_FILE_TIFF) {
        EDGEL_IO_TRY(tiff_row(r, row));
    } else
#endif
    if (r->format == EDGEL_FILE_PNG) {
        if (setjmp(png_jmpbuf(r->png)))
            return edgel_io_fail(EDGEL_ERROR_FORMAT, "PNG: %s (row %lld)", r->message,
                                 (long long)r->next_row);
        png_read_row(r->png, row, NULL);
    } else if (fread(row, 1, bytes, r->file) != bytes) {
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PNM data truncated at row %lld",
                             (long long)r->next_row);
    }
    r->next_row++;
    return EDGEL_OK;
}

void edgel_row_reader_close(edgel_row_reader *r)
{
    if (!r)
        return;
    if (r->png)
        png_destroy_read_struct(&r->png, r->info ? &r->info : NULL, NULL);
#ifdef EDGEL_HAVE_TIFF
    if (r->tif)
        TIFFClose(r->tif);
    free(r->band);
    free(r->tile);
#endif
    if (r->file)
        fclose(r->file);
    free(r);
}

edgel_status edgel_row_writer_open(const char *path, int64_t width, int64_t height,
                                   edgel_row_writer **out)
{
    *out = NULL;
    const edgel_file_format format = edgel_io_format_for_path(path);
    int ok_format = format == EDGEL_FILE_PNG || format == EDGEL_FILE_PNM;
#ifdef EDGEL_HAVE_TIFF
    ok_format |= format == EDGEL_FILE_TIFF;
#endif
    if (!ok_format)
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: edges of a streamed image are "
                             "written as .png, .pgm or .tif", path);
    edgel_row_writer *w = calloc(1, sizeof *w);
    if (!w)
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory");
    w->format = format, w->width = width, w->height = height;
    edgel_status st = edgel_io_temporary_open(&w->tmp, path);
    if (st != EDGEL_OK) {
        free(w);
        return st;
    }
    if (format == EDGEL_FILE_PNM) {
        w->failed = fprintf(w->tmp.file, "P5\n%lld %lld\n255\n", (long long)width,
                            (long long)height) < 0;
#ifdef EDGEL_HAVE_TIFF
    } else if (format == EDGEL_FILE_TIFF) {
        w->tif = tiff_start(w->tmp.file, w->tmp.name, width, height, 1, EDGEL_U8);
        if (!w->tif) {
            edgel_row_writer_abort(w);
            return edgel_io_fail(EDGEL_ERROR_IO, "%s: TIFF: cannot start", path);
        }
#endif
    } else {
        w->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, w->message, png_error_fn,
                                         png_warning_fn);
        w->info = w->png ? png_create_info_struct(w->png) : NULL;
        if (!w->png || !w->info || setjmp(png_jmpbuf(w->png))) {
            edgel_row_writer_abort(w);
            return edgel_io_fail(EDGEL_ERROR_IO, "%s: PNG: cannot start", path);
        }
        png_init_io(w->png, w->tmp.file);
        png_set_user_limits(w->png, EDGEL_MAX_TILED_DIMENSION, EDGEL_MAX_TILED_DIMENSION);
        png_set_IHDR(w->png, w->info, (png_uint_32)width, (png_uint_32)height, 8,
                     PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                     PNG_FILTER_TYPE_DEFAULT);
        png_set_compression_level(w->png, 3);
        png_write_info(w->png, w->info);
    }
    *out = w;
    return EDGEL_OK;
}

edgel_status edgel_row_writer_put(edgel_row_writer *w, const uint8_t *row)
{
    if (w->failed || w->rows >= w->height)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: write failed; nothing written", w->tmp.path);
    if (w->format == EDGEL_FILE_PNM) {
        w->failed = fwrite(row, 1, (size_t)w->width, w->tmp.file) != (size_t)w->width;
#ifdef EDGEL_HAVE_TIFF
    } else if (w->tif) {
        w->failed = TIFFWriteScanline(w->tif, (void *)row, (uint32_t)w->rows, 0) < 0;
#endif
    } else {
        if (setjmp(png_jmpbuf(w->png))) {
            w->failed = 1;
            return edgel_io_fail(EDGEL_ERROR_IO, "%s: PNG: %s; nothing written", w->tmp.path,
                                 w->message);
        }
        png_write_row(w->png, row);
    }
    if (w->failed)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: write failed (%s); nothing written",
                             w->tmp.path, strerror(errno));
    w->rows++;
    return EDGEL_OK;
}

edgel_status edgel_row_writer_commit(edgel_row_writer *w)
{
    volatile int ok = !w->failed && w->rows == w->height;
#ifdef EDGEL_HAVE_TIFF
    if (w->tif) {
        ok = ok && TIFFFlush(w->tif) == 1;
        TIFFClose(w->tif);
        w->tif = NULL;
    }
#endif
    if (ok && w->png) {
        if (setjmp(png_jmpbuf(w->png)))
            ok = 0;
        else
            png_write_end(w->png, NULL);
    }
    if (w->png)
        png_destroy_write_struct(&w->png, &w->info);
    const edgel_status st = edgel_io_temporary_close(&w->tmp, ok, 0);
    free(w);
    return st;
}

void edgel_row_writer_abort(edgel_row_writer *w)
{
    if (!w)
        return;
    if (w->png)
        png_destroy_write_struct(&w->png, w->info ? &w->info : NULL);
#ifdef EDGEL_HAVE_TIFF
    if (w->tif)
        TIFFClose(w->tif);
#endif
    edgel_io_temporary_close(&w->tmp, 0, 0);
    free(w);
}
