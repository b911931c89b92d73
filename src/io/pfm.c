/* PFM: "Pf" (gray) or "PF" (RGB), width height, scale (negative = little-endian), then
 * 32-bit float rows from the bottom of the image to the top. */
#include "io/image_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

edgel_status edgel_pfm_decode(const unsigned char *bytes, size_t size, edgel_image *out)
{
    if (size < 2 || bytes[0] != 'P' || (bytes[1] != 'f' && bytes[1] != 'F'))
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "not a PFM file");
    /* The header is three whitespace-separated tokens after the magic; parse a bounded copy. */
    char head[256];
    size_t hn = size < sizeof head - 1 ? size : sizeof head - 1;
    memcpy(head, bytes, hn);
    head[hn] = 0;
    const int channels = bytes[1] == 'F' ? 3 : 1;
    long long w, h;
    double scale;
    int consumed = 0;
    if (sscanf(head + 2, "%lld %lld %lf%n", &w, &h, &scale, &consumed) != 3 || consumed <= 0)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PFM header is malformed or truncated");
    size_t pos = 2 + (size_t)consumed;
    if (pos >= size || !(bytes[pos] == '\n' || bytes[pos] == ' ' || bytes[pos] == '\r' ||
                         bytes[pos] == '\t'))
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PFM header is not followed by whitespace");
    pos++;
    if (!isfinite(scale) || scale == 0)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PFM scale must be a nonzero number");
    edgel_status st = edgel_io_alloc(out, w, h, channels, EDGEL_F32, "PFM");
    if (st != EDGEL_OK)
        return st;
    const size_t row = (size_t)w * (size_t)channels * 4;
    if ((size - pos) / row < (size_t)h) {
        edgel_io_free(out);
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PFM data truncated");
    }
    const int swap = (scale < 0) != host_is_little_endian();
    for (long long y = 0; y < h; y++) {
        unsigned char *dst = (unsigned char *)out->data + (size_t)(h - 1 - y) * row;
        memcpy(dst, bytes + pos + (size_t)y * row, row);
        if (swap)
            for (size_t i = 0; i < row; i += 4) {
                unsigned char t0 = dst[i], t1 = dst[i + 1];
                dst[i] = dst[i + 3];
                dst[i + 1] = dst[i + 2];
                dst[i + 2] = t1;
                dst[i + 3] = t0;
            }
    }
    return EDGEL_OK;
}

edgel_status edgel_pfm_write(const char *path, const edgel_image *img)
{
    if (img->type != EDGEL_F32 || (img->channels != 1 && img->channels != 3))
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: PFM holds f32 with 1 or 3 channels",
                             path);
    FILE *f = fopen(path, "wb");
    if (!f)
        return edgel_io_fail(EDGEL_ERROR_IO, "%s: cannot open for writing", path);
    fprintf(f, "P%c\n%d %d\n%s\n", img->channels == 3 ? 'F' : 'f', (int)img->width,
            (int)img->height, host_is_little_endian() ? "-1.0" : "1.0");
    const size_t n = (size_t)img->width * (size_t)img->channels * 4;
    int ok = 1;
    for (int y = img->height - 1; ok && y >= 0; y--)
        ok = fwrite((const unsigned char *)img->data + (size_t)y * img->pitch, 1, n, f) == n;
    if (fclose(f) != 0)
        ok = 0;
    return ok ? EDGEL_OK : edgel_io_fail(EDGEL_ERROR_IO, "%s: write failed", path);
}
