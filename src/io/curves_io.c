/* The curves' file formats (io/curves_io.h). Numbers in JSON and GeoJSON are written with
 * 17 significant digits, so that they read back as the same doubles. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "io/curves_io.h"
#include "io/image_formats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

edgel_curves_format edgel_curves_format_for_path(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/'))
        return EDGEL_CURVES_UNKNOWN;
    static const struct {
        const char *ext;
        edgel_curves_format f;
    } known[] = {{".txt", EDGEL_CURVES_TXT},   {".svg", EDGEL_CURVES_SVG},
                 {".json", EDGEL_CURVES_JSON}, {".geojson", EDGEL_CURVES_GEOJSON},
                 {".npz", EDGEL_CURVES_NPZ},   {".pdf", EDGEL_CURVES_PDF}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcasecmp(dot, known[i].ext))
            return known[i].f;
    return EDGEL_CURVES_UNKNOWN;
}

static int write_txt(FILE *f, const edgel_curves_view *v)
{
    for (int64_t k = 0; k < v->curves; k++) {
        for (int64_t i = v->limits[k]; i < v->limits[k + 1]; i++)
            fprintf(f, "%g %g\n", v->x[i], v->y[i]);
        fputs("-1 -1\n", f);
    }
    return !ferror(f);
}

static void write_base64(FILE *f, const unsigned char *p, size_t n)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        const unsigned a = p[i], b = i + 1 < n ? p[i + 1] : 0, c = i + 2 < n ? p[i + 2] : 0;
        const unsigned w = a << 16 | b << 8 | c;
        fputc(digits[w >> 18 & 63], f);
        fputc(digits[w >> 12 & 63], f);
        fputc(i + 1 < n ? digits[w >> 6 & 63] : '=', f);
        fputc(i + 2 < n ? digits[w & 63] : '=', f);
    }
}

int edgel_svg_background(FILE *f, const edgel_image *img)
{
    char *png = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&png, &size);
    if (!mem)
        return 0;
    const int ok = edgel_png_write(mem, img);
    fclose(mem);
    if (ok) {
        /* dimmed over black, so that the curves' colours stand out on any image */
        fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"black\"/>\n"
                   "<image width=\"%d\" height=\"%d\" opacity=\"0.6\" "
                   "image-rendering=\"pixelated\" href=\"data:image/png;base64,",
                (int)img->width, (int)img->height, (int)img->width, (int)img->height);
        write_base64(f, (const unsigned char *)png, size);
        fputs("\"/>\n", f);
    }
    free(png);
    return ok;
}

/* Pixel centres at integers here; at half-integers in SVG, where pixel (0, 0) covers the
 * unit square from the origin. */
static int write_svg(FILE *f, const edgel_curves_view *v, const edgel_curves_meta *m)
{
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\">\n"
               "<title>%lld sub-pixel curves (Canny/Devernay, sigma %g, high %g, low %g)"
               "</title>\n",
            m->width, m->height, m->width, m->height, (long long)v->curves, m->sigma,
            m->high, m->low);
    if (m->background && !edgel_svg_background(f, m->background))
        return 0;
    /* lines about a pixel wide at 700 pixels, wider on larger images (at most 2.5), each
     * curve in the next of eight colours that tell neighbours apart */
    static const char *const colours[8] = {"#ff4b4b", "#3cdc5a", "#ffe119", "#4f8cff",
                                           "#ff9a3c", "#c86bff", "#42e4f4", "#ff5ad2"};
    const int side = m->width > m->height ? m->width : m->height;
    const double width = side / 700.0 < 0.6 ? 0.6 : side / 700.0 > 2.5 ? 2.5 : side / 700.0;
    fprintf(f, "<g fill=\"none\" stroke-width=\"%.2f\" stroke-linejoin=\"round\" "
               "stroke-linecap=\"round\">\n", width);
    for (int64_t k = 0; k < v->curves; k++) {
        const int64_t a = v->limits[k], b = v->limits[k + 1] - (v->closed[k] ? 1 : 0);
        fprintf(f, "<%s stroke=\"%s\" points=\"", v->closed[k] ? "polygon" : "polyline",
                colours[k % 8]);
        for (int64_t i = a; i < b; i++)
            fprintf(f, "%s%.4f,%.4f", i > a ? " " : "", v->x[i] + 0.5, v->y[i] + 0.5);
        fputs("\"/>\n", f);
    }
    fputs("</g>\n</svg>\n", f);
    return !ferror(f);
}

/* The reference program's SVG (devernay -g): black polylines of the line width, "x,y" a
 * point with pixel centres at integers, no image. */
static int write_svg_lines(FILE *f, const edgel_curves_view *v, const edgel_curves_meta *m)
{
    fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
               "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\"\n"
               " \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
               "<svg width=\"%dpx\" height=\"%dpx\" version=\"1.1\"\n"
               " xmlns=\"http://www.w3.org/2000/svg\" "
               "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n",
            m->width, m->height);
    for (int64_t k = 0; k < v->curves; k++) {
        fprintf(f, "<polyline stroke-width=\"%g\" fill=\"none\" stroke=\"black\" points=\"",
                m->line_width);
        for (int64_t i = v->limits[k]; i < v->limits[k + 1]; i++)
            fprintf(f, "%g,%g ", v->x[i], v->y[i]);
        fputs("\"/>\n", f);
    }
    fputs("</svg>\n", f);
    return !ferror(f);
}

/* The reference program's PDF (devernay -p): one page the image's size, each curve a path of
 * black lines of the line width, in PDF's y-up frame (pixel centres at half units). */
static int write_pdf(FILE *f, const edgel_curves_view *v, const edgel_curves_meta *m)
{
    long at[6];
    fputs("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", f);
    at[1] = ftell(f);
    fputs("1 0 obj\n<</Type /Catalog /Pages 2 0 R>>\nendobj\n", f);
    at[2] = ftell(f);
    fprintf(f, "2 0 obj\n<</Type /Pages /Kids [3 0 R] /Count 1 /Resources <<>> "
               "/MediaBox [0 0 %d %d]>>\nendobj\n", m->width, m->height);
    at[3] = ftell(f);
    fputs("3 0 obj\n<</Type /Page /Parent 2 0 R /Contents 4 0 R>>\nendobj\n", f);
    at[4] = ftell(f);
    fputs("4 0 obj\n<</Length 5 0 R>>\nstream\n", f);
    const long start = ftell(f);
    fprintf(f, "%.4f w\n", m->line_width);
    for (int64_t k = 0; k < v->curves; k++) {
        for (int64_t i = v->limits[k]; i < v->limits[k + 1]; i++)
            fprintf(f, "%.4f %.4f %c\n", v->x[i] + 0.5, (double)m->height - v->y[i] - 0.5,
                    i == v->limits[k] ? 'm' : 'l');
        fputs(v->closed[k] ? "h\nS\n" : "S\n", f); /* (a closed curve's path closed) */
    }
    const long length = ftell(f) - start;
    fputs("\r\nendstream\nendobj\n", f);
    at[5] = ftell(f);
    fprintf(f, "5 0 obj\n%ld\nendobj\n", length);
    const long xref = ftell(f);
    fputs("xref\n0 6\n0000000000 65535 f\r\n", f);
    for (int i = 1; i <= 5; i++)
        fprintf(f, "%010ld 00000 n\r\n", at[i]);
    fprintf(f, "trailer <</Size 6 /Root 1 0 R>>\nstartxref\n%ld\n%%%%EOF\n", xref);
    return !ferror(f) && start >= 0 && length >= 0;
}

/* A number as JSON has it: null for NaN and infinities (of float images that hold them). */
static void json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("null", f);
}

static void json_array(FILE *f, const double *a, int64_t from, int64_t to)
{
    fputc('[', f);
    for (int64_t i = from; i < to; i++) {
        if (i > from)
            fputc(',', f);
        json_number(f, a[i]);
    }
    fputc(']', f);
}

static int write_json(FILE *f, const edgel_curves_view *v, const edgel_curves_meta *m)
{
    fprintf(f, "{\"width\": %d, \"height\": %d, \"sigma\": %.17g, \"high\": %.17g, "
               "\"low\": %.17g,\n \"points\": %lld, \"curves\": [",
            m->width, m->height, m->sigma, m->high, m->low, (long long)v->points);
    for (int64_t k = 0; k < v->curves; k++) {
        const int64_t a = v->limits[k], b = v->limits[k + 1];
        fprintf(f, "%s\n  {\"closed\": %s, \"x\": ", k ? "," : "", v->closed[k] ? "true" : "false");
        json_array(f, v->x, a, b);
        fputs(", \"y\": ", f);
        json_array(f, v->y, a, b);
        fputs(", \"gx\": ", f);
        json_array(f, v->gx, a, b);
        fputs(", \"gy\": ", f);
        json_array(f, v->gy, a, b);
        fputs(", \"modulus\": ", f);
        json_array(f, v->modulus, a, b);
        fputc('}', f);
    }
    fputs("\n]}\n", f);
    return !ferror(f);
}

static int write_geojson(FILE *f, const edgel_curves_view *v)
{
    fputs("{\"type\": \"FeatureCollection\", \"features\": [", f);
    for (int64_t k = 0; k < v->curves; k++) {
        const int64_t a = v->limits[k], b = v->limits[k + 1];
        const int ring = v->closed[k] && b - a >= 4; /* a polygon's ring: 4 positions or more */
        fprintf(f, "%s\n {\"type\": \"Feature\", \"properties\": {\"curve\": %lld, "
                   "\"closed\": %s, \"points\": %lld}, \"geometry\": {\"type\": \"%s\", "
                   "\"coordinates\": %s",
                k ? "," : "", (long long)k, v->closed[k] ? "true" : "false",
                (long long)(b - a), ring ? "Polygon" : "LineString", ring ? "[[" : "[");
        for (int64_t i = a; i < b; i++) {
            fputs(i > a ? ", [" : "[", f);
            json_number(f, v->x[i]);
            fputs(", ", f);
            json_number(f, v->y[i]);
            fputc(']', f);
        }
        fputs(ring ? "]]}}" : "]}}", f);
    }
    fputs("\n]}\n", f);
    return !ferror(f);
}

/* ---- .npz: a zip of .npy files, stored (numpy.load reads it) ---------------------------- */

typedef struct npz_entry {
    char name[32];
    uint32_t crc, size, offset;
} npz_entry;

static void put16(FILE *f, unsigned v)
{
    fputc(v & 255, f), fputc(v >> 8 & 255, f);
}

static void put32(FILE *f, uint32_t v)
{
    put16(f, v & 0xFFFF), put16(f, v >> 16);
}

/* One array as an .npy member: `descr` its dtype, `shape` its shape text, the data from the
 * `parts` (one or two interleaved columns of doubles, or plain bytes). */
static int npz_member(FILE *f, npz_entry *e, const char *name, const char *descr,
                      const char *shape, const void *data, size_t bytes,
                      const double *col2_a, const double *col2_b, int64_t rows)
{
    char header[128];
    int len = snprintf(header, sizeof header,
                       "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape);
    const int total = (10 + len + 1 + 63) / 64 * 64; /* magic, version, length, header, \n */
    memset(header + len, ' ', (size_t)(total - 10 - len - 1));
    header[total - 10 - 1] = '\n';
    const size_t payload = col2_a ? (size_t)rows * 16 : bytes;
    if ((uint64_t)total + payload > 0xFFFFFFFFu)
        return 0; /* past what a zip without ZIP64 holds */
    unsigned char npy_head[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                                  (unsigned char)((total - 10) & 255),
                                  (unsigned char)((total - 10) >> 8)};
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, npy_head, 10);
    crc = crc32(crc, (const Bytef *)header, (uInt)(total - 10));
    for (int64_t i = 0; col2_a && i < rows; i++) {
        const double pair[2] = {col2_a[i], col2_b[i]};
        crc = crc32(crc, (const Bytef *)pair, sizeof pair);
    }
    if (!col2_a && bytes)
        crc = crc32(crc, data, (uInt)bytes);
    snprintf(e->name, sizeof e->name, "%s.npy", name);
    e->crc = (uint32_t)crc;
    e->size = (uint32_t)(total + payload);
    e->offset = (uint32_t)ftell(f);
    const size_t name_len = strlen(e->name);
    put32(f, 0x04034b50), put16(f, 20), put16(f, 0), put16(f, 0), put16(f, 0), put16(f, 0x21);
    put32(f, e->crc), put32(f, e->size), put32(f, e->size), put16(f, (unsigned)name_len);
    put16(f, 0);
    fwrite(e->name, 1, name_len, f);
    fwrite(npy_head, 1, 10, f);
    fwrite(header, 1, (size_t)(total - 10), f);
    for (int64_t i = 0; col2_a && i < rows; i++) {
        const double pair[2] = {col2_a[i], col2_b[i]};
        fwrite(pair, sizeof pair, 1, f);
    }
    if (!col2_a && bytes)
        fwrite(data, 1, bytes, f);
    return !ferror(f) && ftell(f) > 0 && (uint64_t)ftell(f) < 0xFFFFFFFFu;
}

static int write_npz(FILE *f, const edgel_curves_view *v)
{
    npz_entry e[5];
    char n2[48], n1[48], m1[48], m0[48];
    snprintf(n2, sizeof n2, "(%lld, 2)", (long long)v->points);
    snprintf(n1, sizeof n1, "(%lld,)", (long long)v->points);
    snprintf(m1, sizeof m1, "(%lld,)", (long long)v->curves + 1);
    snprintf(m0, sizeof m0, "(%lld,)", (long long)v->curves);
    int ok = npz_member(f, &e[0], "points", "<f8", n2, NULL, 0, v->x, v->y, v->points) &&
             npz_member(f, &e[1], "gradient", "<f8", n2, NULL, 0, v->gx, v->gy, v->points) &&
             npz_member(f, &e[2], "modulus", "<f8", n1, v->modulus,
                        (size_t)v->points * 8, NULL, NULL, 0) &&
             npz_member(f, &e[3], "limits", "<i8", m1, v->limits,
                        ((size_t)v->curves + 1) * 8, NULL, NULL, 0) &&
             npz_member(f, &e[4], "closed", "|b1", m0, v->closed, (size_t)v->curves, NULL,
                        NULL, 0);
    if (!ok)
        return 0;
    const long start = ftell(f);
    for (int i = 0; i < 5; i++) {
        const size_t name_len = strlen(e[i].name);
        put32(f, 0x02014b50), put16(f, 20), put16(f, 20), put16(f, 0), put16(f, 0);
        put16(f, 0), put16(f, 0x21), put32(f, e[i].crc), put32(f, e[i].size);
        put32(f, e[i].size), put16(f, (unsigned)name_len), put16(f, 0), put16(f, 0);
        put16(f, 0), put16(f, 0), put32(f, 0), put32(f, e[i].offset);
        fwrite(e[i].name, 1, name_len, f);
    }
    const long end = ftell(f);
    put32(f, 0x06054b50), put16(f, 0), put16(f, 0), put16(f, 5), put16(f, 5);
    put32(f, (uint32_t)(end - start)), put32(f, (uint32_t)start), put16(f, 0);
    return !ferror(f);
}

edgel_status edgel_curves_write(const char *path, const edgel_curves_view *curves,
                                const edgel_curves_meta *meta)
{
    return edgel_curves_write_as(path, edgel_curves_format_for_path(path), curves, meta);
}

edgel_status edgel_curves_write_as(const char *path, edgel_curves_format fmt,
                                   const edgel_curves_view *curves,
                                   const edgel_curves_meta *meta)
{
    if (!path || !curves || !meta)
        return edgel_io_fail(EDGEL_ERROR_NULL_ARGUMENT, "write: NULL argument");
    if (fmt == EDGEL_CURVES_UNKNOWN)
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: unknown output extension (use .txt, "
                             ".svg, .json, .geojson, .npz or .pdf)", path);
    if (fmt == EDGEL_CURVES_NPZ && (uint64_t)curves->points * 16 > 0xFFFFFF00u)
        return edgel_io_fail(EDGEL_ERROR_UNSUPPORTED, "%s: %lld points are more than an .npz "
                             "without ZIP64 holds (4 GiB an array); write .txt or .json",
                             path, (long long)curves->points);
    edgel_io_temporary t;
    EDGEL_IO_TRY(edgel_io_temporary_open(&t, path));
    errno = 0;
    int ok = 0;
    switch (fmt) {
    case EDGEL_CURVES_TXT: ok = write_txt(t.file, curves); break;
    case EDGEL_CURVES_SVG: ok = write_svg(t.file, curves, meta); break;
    case EDGEL_CURVES_JSON: ok = write_json(t.file, curves, meta); break;
    case EDGEL_CURVES_GEOJSON: ok = write_geojson(t.file, curves); break;
    case EDGEL_CURVES_PDF: ok = write_pdf(t.file, curves, meta); break;
    case EDGEL_CURVES_SVG_LINES: ok = write_svg_lines(t.file, curves, meta); break;
    default: ok = write_npz(t.file, curves); break;
    }
    return edgel_io_temporary_close(&t, ok, errno);
}
