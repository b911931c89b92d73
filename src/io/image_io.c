/* Reading and writing image files: format detection, dispatch, limits, error messages. */
#include "io/image_io.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static _Thread_local char io_error[512];

const char *edgel_io_last_error(void) { return io_error; }

edgel_status edgel_io_fail(edgel_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(io_error, sizeof io_error, fmt, ap);
    va_end(ap);
    return status;
}

void edgel_io_free(edgel_image *img)
{
    if (!img)
        return;
    free(img->data);
    img->data = NULL;
}

edgel_status edgel_io_alloc(edgel_image *out, long long width, long long height, int channels,
                            edgel_pixel_type type, const char *what)
{
    if (width < 1 || height < 1)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: empty image (%lldx%lld)", what, width, height);
    if (width > EDGEL_MAX_DIMENSION || height > EDGEL_MAX_DIMENSION ||
        width * height > EDGEL_MAX_PIXELS)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: %lldx%lld is larger than edgel accepts", what,
                             width, height);
    size_t bytes = (size_t)width * (size_t)height * (size_t)channels * edgel_pixel_size(type);
    void *data = malloc(bytes);
    if (!data)
        return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory for %zu bytes", what,
                             bytes);
    *out = edgel_image_host(data, (int32_t)width, (int32_t)height, type, channels);
    return EDGEL_OK;
}

edgel_file_format edgel_io_sniff(const void *bytes, size_t size)
{
    const unsigned char *b = bytes;
    if (size >= 8 && memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0)
        return EDGEL_FILE_PNG;
    if (size >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF)
        return EDGEL_FILE_JPEG;
    if (size >= 2 && b[0] == 'P' && (b[1] == '5' || b[1] == '6'))
        return EDGEL_FILE_PNM;
    if (size >= 2 && b[0] == 'P' && (b[1] == 'f' || b[1] == 'F'))
        return EDGEL_FILE_PFM;
    return EDGEL_FILE_UNKNOWN;
}

edgel_status edgel_io_decode(const void *bytes, size_t size, edgel_image *out)
{
    if (!bytes || !out)
        return edgel_io_fail(EDGEL_ERROR_NULL_ARGUMENT, "decode: NULL argument");
    memset(out, 0, sizeof *out);
    switch (edgel_io_sniff(bytes, size)) {
    case EDGEL_FILE_PNG: return edgel_png_decode(bytes, size, out);
    case EDGEL_FILE_JPEG: return edgel_jpeg_decode(bytes, size, out);
    case EDGEL_FILE_PNM: return edgel_pnm_decode(bytes, size, out);
    case EDGEL_FILE_PFM: return edgel_pfm_decode(bytes, size, out);
    case EDGEL_FILE_UNKNOWN: break;
    }
    return edgel_io_fail(EDGEL_ERROR_FORMAT,
                         "not a PNG, JPEG, PGM/PPM (P5/P6) or PFM file");
}

edgel_status edgel_io_read(const char *path, edgel_image *out)
{
    if (!path || !out)
        return edgel_io_fail(EDGEL_ERROR_NULL_ARGUMENT, "read: NULL argument");
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: %s", path, strerror(errno));
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    edgel_status st = EDGEL_OK;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            if (cap > EDGEL_IO_MAX_FILE_BYTES) {
                st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: file too large", path);
                break;
            }
            unsigned char *nb = realloc(buf, cap);
            if (!nb) {
                st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
                break;
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f))
                st = edgel_io_fail(EDGEL_ERROR_IO, "%s: read error", path);
            break;
        }
    }
    fclose(f);
    if (st == EDGEL_OK) {
        st = edgel_io_decode(buf, len, out);
        if (st != EDGEL_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", io_error);
            edgel_io_fail(st, "%s: %s", path, msg);
        }
    }
    free(buf);
    return st;
}

edgel_file_format edgel_io_format_for_path(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot)
        return EDGEL_FILE_UNKNOWN;
    if (!strcasecmp(dot, ".png"))
        return EDGEL_FILE_PNG;
    if (!strcasecmp(dot, ".pgm") || !strcasecmp(dot, ".ppm") || !strcasecmp(dot, ".pnm"))
        return EDGEL_FILE_PNM;
    if (!strcasecmp(dot, ".pfm"))
        return EDGEL_FILE_PFM;
    if (!strcasecmp(dot, ".jpg") || !strcasecmp(dot, ".jpeg"))
        return EDGEL_FILE_JPEG;
    return EDGEL_FILE_UNKNOWN;
}

edgel_status edgel_io_write(const char *path, const edgel_image *img)
{
    if (!path || !img || !img->data)
        return edgel_io_fail(EDGEL_ERROR_NULL_ARGUMENT, "write: NULL argument");
    switch (edgel_io_format_for_path(path)) {
    case EDGEL_FILE_PNG: return edgel_png_write(path, img);
    case EDGEL_FILE_PNM: return edgel_pnm_write(path, img);
    case EDGEL_FILE_PFM: return edgel_pfm_write(path, img);
    case EDGEL_FILE_JPEG:
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED,
                             "%s: writing JPEG is not supported (lossy); use .png, .pgm or .pfm",
                             path);
    case EDGEL_FILE_UNKNOWN: break;
    }
    return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED,
                         "%s: unknown output extension (use .png, .pgm, .ppm or .pfm)", path);
}
