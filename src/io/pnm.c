/* PBM, PGM and PPM: binary (P4, P5, P6) and plain ASCII (P1, P2, P3); maxval up to 65535
 * (16-bit binary samples are big-endian); bitmaps read as 0/255. Written: P5 / P6. */
#include "io/image_formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Skips whitespace and '#' comments between header fields. */
void edgel_netpbm_skip_space(edgel_netpbm_cursor *c)
{
    while (c->p < c->end) {
        if (*c->p == '#') {
            while (c->p < c->end && *c->p != '\n' && *c->p != '\r')
                c->p++;
        } else if (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r' ||
                   *c->p == '\v' || *c->p == '\f') {
            c->p++;
        } else {
            return;
        }
    }
}

/* A decimal header field; -1 when missing or above `max`. */
long long edgel_netpbm_read_field(edgel_netpbm_cursor *c, long long max)
{
    edgel_netpbm_skip_space(c);
    long long v = 0;
    int digits = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        v = v * 10 + (*c->p - '0');
        if (v > max)
            return -1;
        c->p++;
        digits++;
    }
    return digits ? v : -1;
}

/* The pixels of a plain (ASCII) PBM, PGM or PPM (P1, P2, P3) after its header: `samples`
 * decimal values (P1: the digits 0 and 1, which need no space between them) up to maxval,
 * into `out` (u8 or u16); a PBM's 1 (black) as 0 and 0 as 255, as OpenCV reads it. */
static edgel_status decode_plain(edgel_netpbm_cursor *c, char kind, long long maxval,
                                 size_t samples, edgel_image *out)
{
    for (size_t i = 0; i < samples; i++) {
        long long v;
        if (kind == '1') {
            edgel_netpbm_skip_space(c);
            v = c->p < c->end && (*c->p == '0' || *c->p == '1') ? *c->p++ - '0' : -1;
        } else {
            v = edgel_netpbm_read_field(c, maxval);
        }
        if (v < 0)
            return edgel_io_fail(EDGEL_ERROR_FORMAT, "plain PNM: sample %zu of %zu is missing "
                                 "or above maxval %lld", i, samples, maxval);
        if (out->type == EDGEL_U8)
            ((uint8_t *)out->data)[i] = kind == '1' ? (uint8_t)(v ? 0 : 255) : (uint8_t)v;
        else
            ((uint16_t *)out->data)[i] = (uint16_t)v;
    }
    return EDGEL_OK;
}

/* A raw PBM's pixels (P4): rows of bits, most significant first, each row whole bytes. */
static edgel_status decode_bits(edgel_netpbm_cursor *c, long long w, long long h,
                                edgel_image *out)
{
    const size_t row = ((size_t)w + 7) / 8;
    if ((size_t)(c->end - c->p) < row * (size_t)h)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PBM data truncated: %zu of %zu bytes",
                             (size_t)(c->end - c->p), row * (size_t)h);
    uint8_t *d = out->data;
    for (long long y = 0; y < h; y++, c->p += row)
        for (long long x = 0; x < w; x++)
            *d++ = (c->p[x >> 3] >> (7 - (x & 7))) & 1 ? 0 : 255;
    return EDGEL_OK;
}

edgel_status edgel_pnm_decode(const unsigned char *bytes, size_t size,
                              const edgel_io_limits *limits, edgel_image *out)
{
    if (size < 2 || bytes[0] != 'P' || bytes[1] < '1' || bytes[1] > '6')
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "not a PBM, PGM or PPM (P1 to P6) file");
    const char kind = (char)bytes[1];
    const int bitmap = kind == '1' || kind == '4', plain = kind <= '3';
    edgel_netpbm_cursor c = {bytes + 2, bytes + size};
    const int channels = kind == '3' || kind == '6' ? 3 : 1;
    long long w = edgel_netpbm_read_field(&c, 1LL << 40), h = edgel_netpbm_read_field(&c, 1LL << 40);
    long long maxval = bitmap ? 1 : edgel_netpbm_read_field(&c, 65535);
    if (w < 0 || h < 0 || maxval < 0)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PNM header is malformed or truncated");
    if (maxval == 0)
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PNM maxval must be 1..65535");
    /* Exactly one whitespace byte separates the header from the samples. */
    if (c.p >= c.end || !(*c.p == ' ' || *c.p == '\t' || *c.p == '\n' || *c.p == '\r'))
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PNM header is not followed by whitespace");
    c.p++;
    const edgel_pixel_type type = maxval < 256 ? EDGEL_U8 : EDGEL_U16;
    edgel_status st = edgel_io_alloc_decoded(out, w, h, channels, type, "PNM", limits);
    if (st != EDGEL_OK)
        return st;
    const size_t samples = (size_t)w * (size_t)h * (size_t)channels;
    if (plain || bitmap) {
        st = plain ? decode_plain(&c, kind, maxval, samples, out) : decode_bits(&c, w, h, out);
        if (st != EDGEL_OK)
            edgel_io_free(out);
        return st;
    }
    const size_t need = samples * edgel_pixel_size(type);
    if ((size_t)(c.end - c.p) < need) {
        edgel_io_free(out);
        return edgel_io_fail(EDGEL_ERROR_FORMAT, "PNM data truncated: %zu of %zu bytes",
                             (size_t)(c.end - c.p), need);
    }
    if (type == EDGEL_U8) {
        memcpy(out->data, c.p, need);
    } else {
        uint16_t *d = out->data;
        for (size_t i = 0; i < samples; i++)
            d[i] = (uint16_t)(c.p[2 * i] << 8 | c.p[2 * i + 1]);
    }
    return EDGEL_OK;
}

int edgel_pnm_can_hold(const edgel_image *img)
{
    return (img->type == EDGEL_U8 || img->type == EDGEL_U16) &&
           (img->channels == 1 || img->channels == 3);
}

int edgel_pnm_write(FILE *f, const edgel_image *img)
{
    fprintf(f, "P%c\n%d %d\n%d\n", img->channels == 3 ? '6' : '5', (int)img->width,
            (int)img->height, img->type == EDGEL_U8 ? 255 : 65535);
    const size_t n = (size_t)img->width * (size_t)img->channels;
    int ok = 1;
    unsigned char *tmp = img->type == EDGEL_U16 ? malloc(n * 2) : NULL;
    if (img->type == EDGEL_U16 && !tmp)
        ok = 0;
    for (int y = 0; ok && y < img->height; y++) {
        const unsigned char *row = (const unsigned char *)img->data + (size_t)y * img->pitch;
        if (img->type == EDGEL_U8) {
            ok = fwrite(row, 1, n, f) == n;
        } else {
            const uint16_t *r16 = (const uint16_t *)row;
            for (size_t i = 0; i < n; i++) {
                tmp[2 * i] = (unsigned char)(r16[i] >> 8);
                tmp[2 * i + 1] = (unsigned char)(r16[i] & 0xFF);
            }
            ok = fwrite(tmp, 1, 2 * n, f) == 2 * n;
        }
    }
    free(tmp);
    return ok;
}
