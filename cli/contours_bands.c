#define _POSIX_C_SOURCE 200809L /* fileno */
/* edgel contours on images larger than memory. The reference chains the points column by
 * column, so the image is taken in bands of columns: read a row at a time (colour made gray)
 * into a scratch file beside the output, where each band (with its halo of columns) lies
 * whole, one row after the other; then each band is read back and added to a sub-pixel
 * stream (edgel_subpixel_stream_*), which links it, turns the chains no later band can
 * change into curves and holds only a few columns and the chains still open. The curves are
 * the whole image's, point for point. */
#include "cli.h"
#include "io/image_io.h"
#include "io/row_stream.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

enum {
    /* a band's pixel: the piece, the detector's work on it (66) and its points held */
    BAND_BYTES_PER_PIXEL = 140,
    ROWS_BYTES = 32 << 20 /* rows read at once */
};

/* A library call's failure as the io layer's, so that the caller has one message to print. */
static edgel_status library_failed(edgel_status st)
{
    return st == EDGEL_OK ? st : edgel_io_fail(st, "%s", edgel_last_error());
}

/* Band k: columns x0 .. x1 - 1 (its own and its halo), at `at` in the scratch file. */
typedef struct band {
    int64_t x0, x1, at;
} band;

/* The rows of `r` into the scratch file `fd`, band by band. */
static edgel_status rows_into_bands(edgel_row_reader *r, edgel_context *ctx, int fd,
                                    const band *b, int bands, int64_t w, int64_t h, int cn,
                                    size_t item, int quiet)
{
    const size_t row_bytes = (size_t)w * (size_t)cn * item;
    const int64_t rows = ROWS_BYTES / row_bytes > 0 ? (int64_t)(ROWS_BYTES / row_bytes) : 1;
    const int64_t batch = rows < h ? rows : h;
    int64_t widest = 0;
    for (int k = 0; k < bands; k++)
        widest = b[k].x1 - b[k].x0 > widest ? b[k].x1 - b[k].x0 : widest;
    uint8_t *in = malloc(row_bytes * (size_t)batch);
    uint8_t *gray = cn > 1 ? malloc((size_t)w * (size_t)batch) : NULL;
    uint8_t *block = malloc((size_t)widest * item * (size_t)batch);
    edgel_status st = in && block && (cn == 1 || gray)
                          ? EDGEL_OK
                          : edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for %lld "
                                          "rows of %lld pixels", (long long)batch, (long long)w);
    for (int64_t y0 = 0; st == EDGEL_OK && y0 < h; y0 += batch) {
        const int64_t n = y0 + batch < h ? batch : h - y0;
        for (int64_t y = 0; st == EDGEL_OK && y < n; y++)
            st = edgel_row_reader_next(r, in + (size_t)y * row_bytes);
        const uint8_t *pixels = in;
        if (st == EDGEL_OK && cn > 1) {
            edgel_image src = edgel_image_host(in, (int32_t)w, (int32_t)n, EDGEL_U8, cn);
            const edgel_image g = edgel_image_host(gray, (int32_t)w, (int32_t)n, EDGEL_U8, 1);
            st = library_failed(edgel_to_gray(ctx, EDGEL_GRAY_RGB, &src, &g));
            pixels = gray;
        }
        for (int k = 0; st == EDGEL_OK && k < bands; k++) {
            const size_t bw = (size_t)(b[k].x1 - b[k].x0) * item;
            for (int64_t y = 0; y < n; y++)
                memcpy(block + (size_t)y * bw, pixels + (size_t)y * (size_t)w * item +
                                                   (size_t)b[k].x0 * item, bw);
            if (!edgel_io_write_at(fd, block, bw * (size_t)n, b[k].at + y0 * (int64_t)bw))
                st = edgel_io_fail(EDGEL_ERROR_IO, "writing the scratch file of bands failed "
                                   "(is the disk beside the output full?)");
        }
        if (st == EDGEL_OK && !quiet && (y0 / batch) % 16 == 15)
            fprintf(stderr, "edgel contours: read rows %lld of %lld\n", (long long)(y0 + n),
                    (long long)h);
    }
    free(in), free(gray), free(block);
    return st;
}

edgel_status contours_in_bands(const char *input, const char *output,
                               const edgel_subpixel_params *params, edgel_context *ctx,
                               size_t memory, int columns, int quiet, edgel_curves *curves,
                               int64_t *width, int64_t *height)
{
    edgel_row_reader *r;
    int64_t w, h;
    int cn;
    EDGEL_IO_TRY(edgel_row_reader_open(input, memory, &r, &w, &h, &cn));
    *width = w, *height = h;
    const edgel_pixel_type type = cn > 1 ? EDGEL_U8 : edgel_row_reader_type(r);
    const size_t item = edgel_pixel_size(type);
    const int halo = edgel_subpixel_halo(params->sigma);
    if (columns < 1) { /* bands within half of --memory (the rest: chains open, curves) */
        const int64_t fit = (int64_t)(memory / 2 / ((size_t)h * BAND_BYTES_PER_PIXEL));
        if (fit <= 2 * halo) {
            edgel_row_reader_close(r);
            return edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "%lldx%lld: a band of one column "
                                 "and its halo of %d needs about %lld KB, more than half of "
                                 "--memory (%zu KB)", (long long)w, (long long)h, halo,
                                 (long long)((2 * halo + 1) * h * BAND_BYTES_PER_PIXEL >> 10),
                                 memory >> 10);
        }
        columns = (int)(fit - 2 * halo < w ? fit - 2 * halo : w);
    }
    band *b = malloc(sizeof *b * (size_t)((w + columns - 1) / columns));
    edgel_io_temporary scratch = {0};
    edgel_status st = b ? EDGEL_OK : edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory");
    int64_t at = 0, widest = 0;
    int bands = 0;
    for (int64_t a = 0; st == EDGEL_OK && a < w; a += columns) {
        /* (a piece that reaches the last column adds every column left) */
        band *k = &b[bands++];
        k->x0 = a - halo > 0 ? a - halo : 0;
        k->x1 = a + columns + halo < w ? a + columns + halo : w;
        k->at = at;
        at += (k->x1 - k->x0) * h * (int64_t)item;
        widest = k->x1 - k->x0 > widest ? k->x1 - k->x0 : widest;
        if (k->x1 == w)
            break;
    }
    /* halos repeat columns: bands narrower than their halos would write the image many
     * times over (1 column at sigma 100: 800 times); past 4 times and 32 MB, refused */
    const double image_bytes = (double)w * (double)h * (double)item;
    if (st == EDGEL_OK && (double)at > 4 * image_bytes && (double)at > 32e6 && bands > 1)
        st = edgel_io_fail(EDGEL_ERROR_INVALID_ARGUMENT, "bands of %d columns with halos of %d "
                           "would write %.0f MB of scratch, %.0f times the image: give "
                           "--band-columns %d or more (or more --memory)", columns, halo, (double)at / 1e6,
                           (double)at / image_bytes, 2 * halo);
    if (st == EDGEL_OK)
        st = edgel_io_scratch_open(&scratch, output, ".bands");
    struct statvfs fs; /* room for the bands, before writing any */
    if (st == EDGEL_OK && fstatvfs(fileno(scratch.file), &fs) == 0 &&
        (double)fs.f_bavail * (double)fs.f_frsize < (double)at)
        st = edgel_io_fail(EDGEL_ERROR_IO, "the bands take %.0f MB of scratch beside %s, more "
                           "than the %.0f MB free there", (double)at / 1e6, output,
                           (double)fs.f_bavail * (double)fs.f_frsize / 1e6);
    if (st == EDGEL_OK)
        st = rows_into_bands(r, ctx, fileno(scratch.file), b, bands, w, h, cn, item, quiet);
    edgel_row_reader_close(r);
    const int fd = st == EDGEL_OK ? dup(fileno(scratch.file)) : -1;
    if (st == EDGEL_OK && fd < 0)
        st = edgel_io_fail(EDGEL_ERROR_IO, "the scratch file of bands cannot be read back");
    /* the bands, left to right, into the stream */
    edgel_subpixel_stream *s = NULL;
    uint8_t *piece = st == EDGEL_OK ? malloc((size_t)widest * item * (size_t)h) : NULL;
    if (st == EDGEL_OK && !piece)
        st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a band of %lld "
                           "columns of %lld rows", (long long)widest, (long long)h);
    if (st == EDGEL_OK)
        st = library_failed(edgel_subpixel_stream_create(params, w, h, &s));
    for (int k = 0; st == EDGEL_OK && k < bands; k++) {
        const int64_t bw = b[k].x1 - b[k].x0;
        if (!edgel_io_read_at(fd, piece, (size_t)bw * item * (size_t)h, b[k].at))
            st = edgel_io_fail(EDGEL_ERROR_IO, "reading the scratch file of bands failed");
        const edgel_image view = edgel_image_host(piece, (int32_t)bw, (int32_t)h, type, 1);
        if (st == EDGEL_OK)
            st = library_failed(edgel_subpixel_stream_add(ctx, s, &view, b[k].x0));
        /* the curves within the other half of --memory (the bands take the first) */
        const int64_t points = edgel_subpixel_stream_points(s);
        if (st == EDGEL_OK &&
            (double)points * EDGEL_SUBPIXEL_STREAM_POINT_BYTES > (double)(memory / 2))
            st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "the curves pass --memory: %lld "
                               "points by column %lld of %lld take about %.0f MB, more than "
                               "half of the %.0f MB allowed (raise --memory, or --high and "
                               "--low, or --sigma, for fewer points)", (long long)points,
                               (long long)edgel_subpixel_stream_columns(s), (long long)w,
                               (double)points * EDGEL_SUBPIXEL_STREAM_POINT_BYTES / 1e6,
                               memory / 1e6);
        if (st == EDGEL_OK && !quiet && bands >= 8 && k % (bands / 8) == bands / 8 - 1)
            fprintf(stderr, "edgel contours: columns %lld of %lld\n",
                    (long long)edgel_subpixel_stream_columns(s), (long long)w);
    }
    free(piece), free(b);
    if (fd >= 0)
        close(fd);
    edgel_io_temporary_discard(&scratch);
    if (st == EDGEL_OK)
        st = library_failed(edgel_subpixel_stream_finish(ctx, s, curves));
    edgel_subpixel_stream_destroy(s);
    return st;
}
