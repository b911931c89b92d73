/* edgel detect on an image of any size: the file streams in row by row into a band of rows
 * that serves the library's tiled Canny (edgel_canny_tiled), and the edges stream out row by
 * row as each row of tiles completes, all or nothing. Memory: the band of rows of one row of
 * tiles and its halo, in and out, whatever the image's height; it grows with the width, and
 * the tile height is lowered until the whole fits --memory (or the run is refused). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cli.h"
#include "io/row_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Tiles smaller than this recompute their halo too often to be worth running. */
#define MIN_TILE_SIDE 16

typedef struct stream {
    const char *input;
    size_t memory;
    edgel_row_reader *reader;
    int64_t w, h;
    int cn, tw, th;
    edgel_pixel_type type;
    size_t px;      /* bytes of a pixel */
    uint8_t **rows; /* a ring of `cap` rows holding rows [lo, hi) of the image */
    int cap;
    int64_t lo, hi;
    edgel_row_writer *writer;
    uint8_t *out; /* one row of tiles of edges, th x w */
    int64_t reads, total_reads;
    double start, last_report;
    int quiet, reported, terminal; /* terminal: stderr is one */
    int swapped;                   /* colour rows as B, G, R (--channel-order bgr) */
} stream;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Once the work has run a second: done, pixels/s, time left, on stderr: one line rewritten
 * on a terminal, a line every 10 s into a file or pipe (no carriage returns in logs). */
static void report(stream *s, int done)
{
    const double t = now_s(), elapsed = t - s->start;
    const double every = !s->reported ? 1.0 : s->terminal ? 0.25 : 10.0;
    if (s->quiet || (!done && t - s->last_report < every) ||
        (done && !s->reported))
        return;
    const double frac = (double)s->reads / (double)s->total_reads;
    const double px = 2.0 * (double)s->w * (double)s->h * frac; /* each pixel is read twice */
    fprintf(stderr, "%sedgel detect: %5.1f%% of %.2f Gpx, %.2f Gpx/s, %.0f s left%s",
            s->terminal ? "\r" : "", 100.0 * frac, (double)s->w * s->h / 1e9,
            px / elapsed / 1e9, frac > 0 ? elapsed * (1 - frac) / frac : 0.0,
            s->terminal && !done ? "  " : "\n");
    s->last_report = t;
    s->reported = 1;
}

static edgel_status reopen(stream *s)
{
    edgel_row_reader_close(s->reader);
    s->reader = NULL;
    int64_t w, h;
    int cn;
    edgel_status st = edgel_row_reader_open(s->input, s->memory, &s->reader, &w, &h, &cn);
    if (st == EDGEL_OK && (w != s->w || h != s->h || cn != s->cn ||
                           edgel_row_reader_type(s->reader) != s->type))
        st = edgel_io_fail(EDGEL_ERROR_IO, "%s changed while it was read", s->input);
    s->lo = s->hi = 0;
    return st;
}

static edgel_status read_region(void *user, int64_t x, int64_t y, const edgel_image *dst)
{
    stream *s = user;
    if (dst->height > s->cap)
        return edgel_io_fail(EDGEL_ERROR_INTERNAL, "a region of %d rows, more than the band",
                             (int)dst->height);
    if (y < s->lo) /* the second pass: from the top again */
        EDGEL_IO_TRY(reopen(s));
    if (s->lo < y)
        s->lo = y < s->hi ? y : s->hi;
    while (s->hi < y + dst->height) {
        if (s->hi - s->lo == s->cap)
            s->lo++;
        EDGEL_IO_TRY(edgel_row_reader_next(s->reader, s->rows[s->hi % s->cap]));
        if (s->swapped)
            cli_swap_red_blue(s->rows[s->hi % s->cap], (size_t)s->w, s->cn);
        s->hi++;
        if (s->hi <= y)
            s->lo = s->hi;
    }
    for (int r = 0; r < dst->height; r++)
        memcpy((uint8_t *)dst->data + (size_t)r * dst->pitch,
               s->rows[(y + r) % s->cap] + (size_t)x * s->px, (size_t)dst->width * s->px);
    s->reads++;
    report(s, 0);
    return EDGEL_OK;
}

static edgel_status write_tile(void *user, int64_t x, int64_t y, const edgel_image *e)
{
    stream *s = user;
    for (int r = 0; r < e->height; r++)
        memcpy(s->out + (size_t)r * s->w + x, (const uint8_t *)e->data + (size_t)r * e->pitch,
               (size_t)e->width);
    if (x + e->width == s->w) /* the row of tiles is complete */
        for (int r = 0; r < e->height; r++)
            EDGEL_IO_TRY(edgel_row_writer_put(s->writer, s->out + (size_t)r * s->w));
    (void)y;
    return EDGEL_OK;
}

/* Bytes a run with tiles `th` high holds: the band of rows and its halo, a row of tiles of
 * edges, the reader's buffers, the library's border labels and the writer's rows (32 bytes
 * a column), and the library's work on one tile (its region, marks and scratch: a generous
 * 40 bytes a pixel). */
static double stream_bytes(const stream *s, int halo, int64_t th)
{
    const double w = (double)s->w, region = ((double)s->tw + 2 * halo) * ((double)th + 2 * halo);
    return ((double)th + 2 * halo) * w * (double)s->px + (double)th * w + 32 * w +
           (double)edgel_row_reader_buffer_bytes(s->reader) + region * ((double)s->px + 40);
}

/* The largest tiles up to s->tw x s->th that fit --memory (the longer side halved first),
 * into s->tw and s->th; 0 with a message when none does. */
static int fit_tiles(stream *s, int halo)
{
    while (stream_bytes(s, halo, s->th) > (double)s->memory &&
           (s->tw > MIN_TILE_SIDE || s->th > MIN_TILE_SIDE)) {
        int *side = s->tw >= s->th ? &s->tw : &s->th;
        *side = *side / 2 > MIN_TILE_SIDE ? *side / 2 : MIN_TILE_SIDE;
    }
    if (stream_bytes(s, halo, s->th) <= (double)s->memory)
        return 1;
    char need[32], have[32];
    fprintf(stderr, "edgel detect: %s is %lld pixels wide: streaming it takes at least %s, more "
            "than --memory %s\n", s->input, (long long)s->w,
            edgel_io_format_bytes(stream_bytes(s, halo, s->th), need, sizeof need),
            edgel_io_format_bytes((double)s->memory, have, sizeof have));
    return 0;
}

int detect_tiled(const detect_options *opt, edgel_context *ctx, int tw, int th)
{
    stream s = {0};
    s.input = opt->input, s.memory = opt->memory, s.tw = tw, s.th = th, s.quiet = opt->quiet;
    s.terminal = isatty(fileno(stderr));
    edgel_status st = edgel_row_reader_open(opt->input, opt->memory, &s.reader, &s.w, &s.h,
                                            &s.cn);
    int rc = EXIT_FAILURE_RUN;
    if (st != EDGEL_OK) {
        fprintf(stderr, "edgel detect: reading: %s (%s)\n", edgel_io_last_error(),
                edgel_status_name(st));
        return st == EDGEL_ERROR_UNSUPPORTED ? EXIT_USAGE : EXIT_FAILURE_RUN;
    }
    if (edgel_row_reader_pages(s.reader) > 1 && !opt->quiet)
        fprintf(stderr, "edgel detect: %s holds %d images; reading the first\n", opt->input,
                edgel_row_reader_pages(s.reader));
    s.type = edgel_row_reader_type(s.reader);
    s.px = (size_t)s.cn * edgel_pixel_size(s.type);
    s.swapped = opt->channels_bgr && s.cn >= 3 && s.type == EDGEL_U8 &&
                opt->params.gray == EDGEL_GRAY_NONE &&
                opt->params.preset == EDGEL_PRESET_OPENCV;
    int32_t halo;
    st = edgel_canny_tile_halo(&opt->params, &halo);
    if (st != EDGEL_OK) {
        fprintf(stderr, "edgel detect: %s (%s)\n", edgel_last_error(), edgel_status_name(st));
        edgel_row_reader_close(s.reader);
        return st == EDGEL_ERROR_UNSUPPORTED ? EXIT_USAGE : EXIT_FAILURE_RUN;
    }
    if (!fit_tiles(&s, halo)) {
        edgel_row_reader_close(s.reader);
        return EXIT_FAILURE_RUN;
    }
    tw = s.tw, th = s.th;
    s.cap = th + 2 * halo;
    s.rows = calloc((size_t)s.cap, sizeof *s.rows);
    s.out = malloc((size_t)th * (size_t)s.w);
    int ok = s.rows && s.out;
    for (int i = 0; ok && i < s.cap; i++)
        ok = (s.rows[i] = malloc((size_t)s.w * s.px)) != NULL;
    if (!ok) {
        fprintf(stderr, "edgel detect: out of memory for a band of %d rows of %lld pixels\n",
                s.cap, (long long)s.w);
        goto done;
    }
    st = edgel_row_writer_open(opt->output, s.w, s.h, &s.writer);
    if (st != EDGEL_OK) {
        fprintf(stderr, "edgel detect: writing: %s (%s)\n", edgel_io_last_error(),
                edgel_status_name(st));
        goto done;
    }
    s.total_reads = 2 * ((s.w + tw - 1) / tw) * ((s.h + th - 1) / th);
    s.start = s.last_report = now_s();
    edgel_tile_io io = {s.w, s.h, s.cn, s.type, read_region, write_tile, &s};
    st = edgel_canny_tiled(ctx, &opt->params, &io, tw, th);
    report(&s, 1);
    if (st == EDGEL_ERROR_UNSUPPORTED) { /* the preset does not read these pixels */
        fprintf(stderr, "edgel detect: %s: %s\n", opt->input, edgel_last_error());
        rc = EXIT_USAGE;
    }
    if (st != EDGEL_OK) {
        const char *io_msg = edgel_io_last_error();
        if (rc != EXIT_USAGE)
            fprintf(stderr, "edgel detect: %s (%s)%s%s\n", edgel_last_error(),
                    edgel_status_name(st), io_msg[0] ? ": " : "", io_msg);
        edgel_row_writer_abort(s.writer);
        s.writer = NULL;
        goto done;
    }
    st = edgel_row_writer_commit(s.writer);
    s.writer = NULL;
    if (st != EDGEL_OK) {
        fprintf(stderr, "edgel detect: writing: %s (%s)\n", edgel_io_last_error(),
                edgel_status_name(st));
        goto done;
    }
    if (!opt->quiet)
        printf("%s: %lldx%lld in %dx%d tiles -> %s\n", opt->input, (long long)s.w,
               (long long)s.h, tw, th, opt->output);
    rc = EXIT_OK;
done:
    edgel_row_writer_abort(s.writer);
    edgel_row_reader_close(s.reader);
    for (int i = 0; s.rows && i < s.cap; i++)
        free(s.rows[i]);
    free(s.rows);
    free(s.out);
    return rc;
}
