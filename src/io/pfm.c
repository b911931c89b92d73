/* PFM: "Pf" (gray) or "PF" (RGB), width height, scale (negative = little-endian), then
 * 32-bit float rows from the bottom of the image to the top. */
#include "io/image_formats.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

edgel_status edgel_pfm_decode(const unsigned char *bytes, size_t size,
                              const edgel_io_limits *limits, edgel_image *out)
{
    if (size < 2 || bytes[0] != 'P' || (bytes[1] != 'f' && bytes[1] != 'F'))
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "not a PFM file");
    /* Three whitespace-separated fields after the magic (any amount of whitespace), then
     * exactly one whitespace byte before the samples. */
    edgel_netpbm_cursor c = {bytes + 2, bytes + size};
    const int channels = bytes[1] == 'F' ? 3 : 1;
    const long long w = edgel_netpbm_read_field(&c, 1LL << 40);
    const long long h = edgel_netpbm_read_field(&c, 1LL << 40);
    edgel_netpbm_skip_space(&c);
    char token[64];
    size_t tn = 0;
    while (c.p < c.end && tn < sizeof token - 1 && !isspace(*c.p))
        token[tn++] = (char)*c.p++;
    token[tn] = 0;
    char *token_end = NULL;
    const double scale = tn ? strtod(token, &token_end) : 0.0;
    if (w < 0 || h < 0 || !tn || *token_end)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PFM header is malformed or truncated");
    if (c.p >= c.end || !isspace(*c.p))
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PFM header is not followed by whitespace");
    const size_t pos = (size_t)(c.p + 1 - bytes);
    if (!isfinite(scale) || scale == 0)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PFM scale must be a nonzero number");
    edgel_status st = edgel_io_alloc_decoded(out, w, h, channels, EDGEL_F32, "PFM", limits);
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

int edgel_pfm_can_hold(const edgel_image *img)
{
    return img->type == EDGEL_F32 && (img->channels == 1 || img->channels == 3);
}

int edgel_pfm_write(FILE *f, const edgel_image *img)
{
    fprintf(f, "P%c\n%d %d\n%s\n", img->channels == 3 ? 'F' : 'f', (int)img->width,
            (int)img->height, host_is_little_endian() ? "-1.0" : "1.0");
    const size_t n = (size_t)img->width * (size_t)img->channels * 4;
    int ok = 1;
    for (int y = img->height - 1; ok && y >= 0; y--)
        ok = fwrite((const unsigned char *)img->data + (size_t)y * img->pitch, 1, n, f) == n;
    return ok;
}
