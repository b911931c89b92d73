/* Reading and writing image files: format detection, dispatch, limits, error messages. */
#define _XOPEN_SOURCE 700 /* fdopen, fsync, fchmod, O_CLOEXEC */
#include "io/image_io.h"
#include "io/row_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static edgel_status not_an_image(void)
{
    return edgel_io_fail(EDGEL_ERROR_FORMAT,
                         "not a PNG, JPEG, PGM/PPM (P5/P6), PFM or TIFF file");
}

/* A TIFF decoded whole, a row at a time through the row reader (libtiff reads from a file),
 * within `limits`: its buffers too, and the image checked from the header before a row. */
static edgel_status read_by_rows(const char *path, const edgel_io_limits *limits,
                                 edgel_image *out)
{
    edgel_row_reader *r;
    int64_t w, h;
    int cn;
    EDGEL_IO_TRY(edgel_row_reader_open(path, limits ? limits->max_image_bytes : 0, &r, &w, &h,
                                       &cn));
    edgel_status st = edgel_io_alloc_decoded(out, w, h, cn, edgel_row_reader_type(r), "TIFF",
                                             limits);
    for (int64_t y = 0; st == EDGEL_OK && y < h; y++)
        st = edgel_row_reader_next(r, (uint8_t *)out->data + (size_t)y * out->pitch);
    edgel_row_reader_close(r);
    if (st != EDGEL_OK)
        edgel_io_free(out);
    return st;
}

edgel_status edgel_io_decode(const void *bytes, size_t size, const edgel_io_limits *limits,
                             edgel_image *out)
{
    if (!bytes || !out)
        return edgel_io_fail(EDGEL_ERROR_NULL_ARGUMENT, "decode: NULL argument");
    memset(out, 0, sizeof *out);
    switch (edgel_io_sniff(bytes, size)) {
    case EDGEL_FILE_PNG: return edgel_png_decode(bytes, size, limits, out);
    case EDGEL_FILE_JPEG: return edgel_jpeg_decode(bytes, size, limits, out);
    case EDGEL_FILE_PNM: return edgel_pnm_decode(bytes, size, limits, out);
    case EDGEL_FILE_PFM: return edgel_pfm_decode(bytes, size, limits, out);
    case EDGEL_FILE_TIFF:
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED,
                             "TIFF is read from files (edgel_io_read), not from memory");
    case EDGEL_FILE_UNKNOWN: break;
    }
    return not_an_image();
}

/* The most file bytes worth reading for these limits: an image's file is not much larger
 * than its pixels (PNM and PFM are the pixels; deflate and JPEG add well under 1%), so
 * twice the decoded cap and a megabyte of headers. */
static size_t max_file_bytes(const edgel_io_limits *limits)
{
    if (!limits || !limits->max_image_bytes ||
        limits->max_image_bytes > (EDGEL_IO_MAX_FILE_BYTES - (1u << 20)) / 2)
        return EDGEL_IO_MAX_FILE_BYTES;
    return 2 * limits->max_image_bytes + (1u << 20);
}

edgel_status edgel_io_read(const char *path, const edgel_io_limits *limits, edgel_image *out)
{
    if (!path || !out)
        return edgel_io_fail(EDGEL_ERROR_NULL_ARGUMENT, "read: NULL argument");
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: %s", path, strerror(errno));
    unsigned char magic[4];
    const size_t got_magic = fread(magic, 1, sizeof magic, f);
    if (edgel_io_sniff(magic, got_magic) == EDGEL_FILE_TIFF) {
        fclose(f);
        return read_by_rows(path, limits, out);
    }
    rewind(f);
    const size_t cap_bytes = max_file_bytes(limits);
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: is a directory", path);
    }
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && (size_t)sb.st_size > cap_bytes) {
        fclose(f);
        char a[32], b[32];
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: file of %s is larger than the %s allowed",
                             path, edgel_io_format_bytes((double)sb.st_size, a, sizeof a),
                             edgel_io_format_bytes((double)cap_bytes, b, sizeof b));
    }
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    edgel_status st = EDGEL_OK;
    for (;;) {
        if (len == cap) {
            if (cap >= cap_bytes) {
                st = edgel_io_fail(EDGEL_ERROR_FORMAT, "%s: file too large", path);
                break;
            }
            cap = cap ? (cap > cap_bytes / 2 ? cap_bytes : cap * 2) : 1 << 16;
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
        if (len >= 8 && len - got < 8 && edgel_io_sniff(buf, len) == EDGEL_FILE_UNKNOWN) {
            st = not_an_image(); /* a stream of something else is not read to its end */
            break;
        }
    }
    fclose(f);
    if (st == EDGEL_OK)
        st = edgel_io_decode(buf, len, limits, out);
    if (st != EDGEL_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", edgel_io_last_error());
        if (strncmp(msg, path, strlen(path)))
            edgel_io_fail(st, "%s: %s", path, msg);
    }
    free(buf);
    return st;
}

edgel_status edgel_io_write(const char *path, const edgel_image *img)
{
    if (!path || !img || !img->data)
        return edgel_io_fail(EDGEL_ERROR_NULL_ARGUMENT, "write: NULL argument");
    int (*can_hold)(const edgel_image *) = NULL;
    int (*encode)(FILE *, const edgel_image *) = NULL;
    const char *holds = "";
    switch (edgel_io_format_for_path(path)) {
    case EDGEL_FILE_PNG:
        can_hold = edgel_png_can_hold, encode = edgel_png_write;
        holds = "PNG holds u8 or u16 with 1, 3 or 4 channels";
        break;
    case EDGEL_FILE_PNM:
        can_hold = edgel_pnm_can_hold, encode = edgel_pnm_write;
        holds = "PGM/PPM holds u8 or u16 with 1 or 3 channels";
        break;
    case EDGEL_FILE_PFM:
        can_hold = edgel_pfm_can_hold, encode = edgel_pfm_write;
        holds = "PFM holds f32 with 1 or 3 channels";
        break;
    case EDGEL_FILE_JPEG:
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED,
                             "%s: writing JPEG is not supported (lossy); use .png, .pgm or .pfm",
                             path);
    case EDGEL_FILE_TIFF:
        can_hold = edgel_tiff_can_hold, encode = edgel_tiff_write;
        holds = edgel_row_stream_tiff_version()
                    ? "TIFF holds u8, u16 or f32 with 1, 3 or 4 channels"
                    : "this build reads and writes no TIFF (built without libtiff)";
        break;
    case EDGEL_FILE_UNKNOWN:
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: unknown output extension (use .png, "
                             ".pgm, .ppm, .pfm or .tif)", path);
    }
    if (!can_hold(img))
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: %s", path, holds);

    edgel_io_temporary t;
    EDGEL_IO_TRY(edgel_io_temporary_open(&t, path));
    const int ok = encode(t.file, img);
    return edgel_io_temporary_close(&t, ok, errno);
}

