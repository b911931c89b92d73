/* edgel contours: sub-pixel edge points chained into curves (the Canny/Devernay detector),
 * written as the reference program's text, SVG over the image, JSON, GeoJSON or .npz. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cli.h"
#include "io/curves_io.h"
#include "io/image_io.h"
#include "io/pieces_io.h"
#include "io/row_stream.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char CONTOURS_HELP[] =
    "usage: edgel contours IN -o OUT [options]\n"
    "       edgel contours IN [-t T.txt] [-g G.svg] [-p P.pdf] [-s S] [-h H] [-l L] [-w W]\n"
    "\n"
    "Sub-pixel edge points of IN (PNG, JPEG, PGM, PFM, TIFF; colour is converted to luma),\n"
    "chained into curves: the Canny/Devernay detector (von Gioi and Randall, IPOL 2017),\n"
    "equal point for point to its reference program (devernay 1.0). Positions have pixel\n"
    "centres at integers; each point keeps the gradient at its pixel.\n"
    "\n"
    "OUT by its extension:\n"
    "  .txt       the reference's format: 'x y' a point, '-1 -1' after each curve\n"
    "  .svg       the curves drawn over the image (open it in a browser)\n"
    "  .json      {width, height, sigma, high, low, curves: [{closed, x, y, gx, gy, modulus}]}\n"
    "  .geojson   a FeatureCollection: LineString a curve, Polygon a closed one (pixel units)\n"
    "  .npz       numpy.load: points (N, 2), limits (M + 1), closed (M), gradient (N, 2),\n"
    "             modulus (N); curve k is points[limits[k]:limits[k + 1]]\n"
    "  .pdf       the curves as black lines on a page the image's size (devernay's -p)\n"
    "  .dxf       with --segment: the pieces as CAD entities (LINE, ARC, CIRCLE, ELLIPSE)\n"
    "\n"
    "The reference's own flags work as it has them: -t T (= -o T.txt), -s, -h, -l, and\n"
    "-g G (its SVG: black polylines alone), -p P (its PDF), -w W (their line width, default\n"
    "1.3); several outputs may be asked for at once.\n"
    "\n"
    "options:\n"
    "  --sigma S          Gaussian blur's standard deviation, 0 = none (default 0)\n"
    "  --high H           a curve starts at a point of gradient modulus >= H (default 0)\n"
    "  --low L            and keeps the points of modulus >= L (default 0)\n"
    "  --refine           move the points closer to the true edge (not the reference's any\n"
    "                     more): onto a circle fitted to each point's neighbours along its\n"
    "                     curve, then out by the shift blurring gives a curved edge; halves\n"
    "                     the error on noisy and curved edges (docs/subpixel.md)\n"
    "  --blur B           with --refine: the image's own blur (its optics' Gaussian sigma in\n"
    "                     pixels; default 0, sharp)\n"
    "  --refine-window N  with --refine: neighbours on each side of a point fitted with it,\n"
    "                     2 to 4096 (default 20): more averages more noise, rounds corners more\n"
    "  --segment MODE     split the curves into pieces and write those instead (.json,\n"
    "                     .svg or .dxf): MODE lines, lines_circles or lines_ellipses; each\n"
    "                     piece fitted (docs/subpixel.md, \"Pieces\")\n"
    "  --backend auto|cpu|cuda   cuda: points and chains on the GPU (bands: on the CPU's\n"
    "                     cores); the same curves either way (default auto)\n"
    "  --threads N        CPU threads, 0 = all cores (default); the same curves at any N\n"
    "  --memory SIZE      the most memory for the image and the detector's work (66 bytes\n"
    "                     a pixel), e.g. 512M or 8G (default: half the memory, at most 4G);\n"
    "                     larger PNG, PGM/PPM and TIFF inputs go through bands, others are\n"
    "                     refused before the work\n"
    "  --band-columns N   take IN in bands of N columns (the same curves; PNG, PGM/PPM and\n"
    "                     TIFF): read a row at a time into a scratch file beside OUT (the\n"
    "                     image's size in gray), then chained band after band on the CPU,\n"
    "                     holding a band and the chains still open. Images past --memory\n"
    "                     go through bands by themselves, as wide as half of --memory\n"
    "                     allows (140 bytes a pixel); the curves take the other half (96\n"
    "                     bytes a point), and a run whose curves pass it stops there with a\n"
    "                     message, writing nothing. An SVG of bands has no image under it\n"
    "  -q, --quiet        print nothing on success\n"
    "\n"
    "The output is written whole or not at all (a temporary file renamed over OUT).\n"
    "\n"
    "examples:\n"
    "  edgel contours part.png -o part.svg --sigma 1 --high 15 --low 5\n"
    "  edgel contours image.pgm -o out.txt -s 1 -h 15 -l 5   (devernay's own flags too)\n"
    "  edgel contours gauge.png -o gauge.json -s 1 -h 15 -l 5 --refine --blur 1\n"
    "  edgel contours part.png -o part.dxf -s 1 -h 15 -l 5 --refine --segment lines_circles\n";

enum { WORK_BYTES_PER_PIXEL = 66 };

typedef struct contours_options {
    const char *input, *output;
    const char *svg_lines, *pdf; /* devernay's -g and -p */
    double line_width;           /* devernay's -w */
    edgel_subpixel_params params;
    edgel_refine_params refine;
    edgel_backend backend;
    int threads, quiet, band_columns, refined, segmented;
    edgel_segment_params segment;
    size_t memory;
} contours_options;

__attribute__((format(printf, 1, 2))) static int usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "edgel contours: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(run 'edgel contours --help' for the options)\n");
    va_end(ap);
    return -EXIT_USAGE;
}

/* 1 for --help, 0 when parsed, -EXIT_USAGE after a message. */
static int parse(int argc, char **argv, contours_options *o)
{
    memset(o, 0, sizeof *o);
    edgel_subpixel_params_default(&o->params);
    edgel_refine_params_default(&o->refine);
    edgel_segment_params_default(&o->segment);
    o->backend = EDGEL_BACKEND_AUTO;
    o->memory = cli_default_memory();
    o->line_width = 1.3;
    static const char *const with_value[] = {"-o", "--output", "--sigma", "-s", "--high", "-h",
                                             "--low", "-l", "--backend", "--threads",
                                             "--memory", "-t", "--band-columns", "--blur",
                                             "--refine-window", "-g", "-p", "-w",
                                             "--segment"};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help"))
            return 1;
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = 1;
            continue;
        }
        if (!strcmp(a, "--refine")) {
            o->refined = 1;
            continue;
        }
        char err[160];
        const int arg = cli_argument(a, v, &o->input, with_value,
                                     sizeof with_value / sizeof with_value[0], err, sizeof err);
        if (arg < 0)
            return usage("%s", err);
        if (arg == 0)
            continue;
        i++;
        const int common = cli_common_option(a, v, &o->backend, &o->threads, &o->memory, err,
                                             sizeof err);
        if (common < 0)
            return usage("%s", err);
        double *target = NULL;
        if (common) {
            continue;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "-t")) {
            o->output = v;
        } else if (!strcmp(a, "-g")) {
            o->svg_lines = v;
        } else if (!strcmp(a, "-p")) {
            o->pdf = v;
        } else if (!strcmp(a, "-w")) {
            if (!cli_parse_double(v, &o->line_width) || !(o->line_width > 0) ||
                o->line_width > 1e6)
                return usage("-w wants a line width above 0, not '%s'", v);
        } else if (!strcmp(a, "--sigma") || !strcmp(a, "-s")) {
            target = &o->params.sigma;
        } else if (!strcmp(a, "--high") || !strcmp(a, "-h")) {
            target = &o->params.high;
        } else if (!strcmp(a, "--low") || !strcmp(a, "-l")) {
            target = &o->params.low;
        } else if (!strcmp(a, "--blur")) {
            target = &o->refine.blur;
            o->refined = 1;
        } else if (!strcmp(a, "--refine-window")) {
            if (!cli_parse_int(v, 2, EDGEL_REFINE_MAX_WINDOW, &o->refine.window))
                return usage("--refine-window wants 2 to %d points, not '%s'",
                             EDGEL_REFINE_MAX_WINDOW, v);
            o->refined = 1;
        } else if (!strcmp(a, "--segment")) {
            static const char *const modes[] = {"lines", "lines_circles", "lines_ellipses"};
            int m = 0;
            while (m < 3 && strcmp(v, modes[m]))
                m++;
            if (m == 3)
                return usage("--segment wants lines, lines_circles or lines_ellipses, not '%s'",
                             v);
            o->segment.mode = (edgel_segment_mode)m;
            o->segmented = 1;
        } else if (!strcmp(a, "--band-columns") &&
                   !cli_parse_int(v, 1, 1 << 20, &o->band_columns)) {
            return usage("--band-columns wants 1 to %d columns, not '%s'", 1 << 20, v);
        }
        if (target && !cli_parse_double(v, target))
            return usage("%s wants a finite number, not '%s'", a, v);
    }
    if (!o->input)
        return usage("no input file");
    if (!o->output && !o->svg_lines && !o->pdf)
        return usage("no output file (-o OUT; or devernay's -t T, -g G, -p P)");
    if (!(o->params.sigma >= 0.0 && o->params.sigma <= EDGEL_SUBPIXEL_MAX_SIGMA))
        return usage("--sigma %g must be in [0, %g]", o->params.sigma, EDGEL_SUBPIXEL_MAX_SIGMA);
    if (!(o->refine.blur >= 0.0 && o->refine.blur <= EDGEL_SUBPIXEL_MAX_SIGMA))
        return usage("--blur %g must be in [0, %g]", o->refine.blur, EDGEL_SUBPIXEL_MAX_SIGMA);
    o->refine.sigma = o->params.sigma;
    if (o->segmented && (!o->output || !edgel_pieces_format_known(o->output)))
        return usage("--segment writes its pieces as .json, .svg or .dxf (-o OUT)");
    if (!o->segmented && o->output &&
        edgel_curves_format_for_path(o->output) == EDGEL_CURVES_UNKNOWN)
        return usage("%s: write .txt, .svg, .json, .geojson, .npz or .pdf (.dxf with "
                     "--segment)", o->output);
    const char *outs[] = {o->output, o->svg_lines, o->pdf};
    for (int k = 0; k < 3; k++)
        if (outs[k] && cli_same_file(o->input, outs[k]))
            return usage("%s is the input file; write the result to another file", outs[k]);
    if (!o->output) /* (the first file asked for names the run in messages) */
        o->output = o->svg_lines ? o->svg_lines : o->pdf;
    return 0;
}

/* An 8-bit view of a gray image for the SVG's background: u8 as it is, others stretched
 * from their least to their greatest finite value. 0 when out of memory. */
static int background_of(const edgel_image *in, edgel_image *bg)
{
    if (in->type == EDGEL_U8) {
        *bg = *in;
        return 1;
    }
    if (edgel_io_alloc(bg, in->width, in->height, 1, EDGEL_U8, "background") != EDGEL_OK)
        return 0;
    const size_t n = (size_t)in->width * in->height;
    double lo = INFINITY, hi = -INFINITY;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            const double v = in->type == EDGEL_U16 ? ((const uint16_t *)in->data)[i]
                                                   : ((const float *)in->data)[i];
            if (!isfinite(v))
                continue;
            if (pass == 0) {
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            } else {
                ((uint8_t *)bg->data)[i] =
                    (uint8_t)lrint(hi > lo ? (v - lo) * 255.0 / (hi - lo) : 0.0);
            }
        }
    return 1;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A failure's message, after `what` (the input's name unless the message begins with it). */
static int fail(const char *what, edgel_status st, const char *message)
{
    const size_t n = strlen(what);
    if (!strncmp(message, what, n) && message[n] == ':')
        fprintf(stderr, "edgel contours: %s (%s)\n", message, edgel_status_name(st));
    else
        fprintf(stderr, "edgel contours: %s: %s (%s)\n", what, message, edgel_status_name(st));
    return st == EDGEL_ERROR_UNSUPPORTED || st == EDGEL_ERROR_FORMAT ? EXIT_USAGE
                                                                     : EXIT_FAILURE_RUN;
}

/* Bands where asked, or where the image (a format read a row at a time) passes --memory. */
static int use_bands(const contours_options *o)
{
    edgel_row_reader *probe;
    int64_t w, h;
    int cn;
    if (o->band_columns)
        return 1;
    if (edgel_row_reader_open(o->input, 0, &probe, &w, &h, &cn) != EDGEL_OK)
        return 0; /* (not a streamed format: read whole, or refused, below) */
    edgel_row_reader_close(probe);
    return (double)w * (double)h > (double)(o->memory / WORK_BYTES_PER_PIXEL) ||
           w > EDGEL_MAX_DIMENSION || h > EDGEL_MAX_DIMENSION;
}

/* The view's points refined (--refine) into x and y arrays of the caller's to free. */
static int refine_view(const contours_options *o, edgel_context *ctx, edgel_curves *curves,
                       edgel_curves_view *v, double **x, double **y)
{
    const size_t n = (size_t)v->points;
    double *xy = malloc(16 * n + 16), *refined = malloc(16 * n + 16);
    *x = malloc(8 * n + 8);
    *y = malloc(8 * n + 8);
    edgel_status st = EDGEL_ERROR_OUT_OF_MEMORY;
    const char *message = "refining: out of memory";
    if (xy && refined && *x && *y) {
        st = edgel_curves_copy(curves, xy, NULL, NULL, NULL, NULL, o->threads);
        if (st == EDGEL_OK)
            st = edgel_curves_refine(ctx, &o->refine, v->points, v->curves, xy, v->limits,
                                     v->closed, refined);
        message = edgel_last_error();
    }
    if (st == EDGEL_OK) {
        for (size_t i = 0; i < n; i++) {
            (*x)[i] = refined[2 * i];
            (*y)[i] = refined[2 * i + 1];
        }
        v->x = *x;
        v->y = *y;
    }
    free(xy);
    free(refined);
    return st == EDGEL_OK ? EXIT_OK : fail("refining", st, message);
}

/* The curves (refined where asked) and their file, written as the whole image's (no image
 * under an SVG's). */
static int write_result(const contours_options *o, edgel_context *ctx, edgel_curves *curves,
                        int64_t width, int64_t height, const edgel_image *background,
                        double start)
{
    edgel_curves_view v;
    edgel_curves_view_default(&v);
    edgel_curves_get(curves, &v);
    double *x = NULL, *y = NULL;
    int rc = o->refined ? refine_view(o, ctx, curves, &v, &x, &y) : EXIT_OK;
    const edgel_curves_meta meta = {(int)width, (int)height, o->params.sigma, o->params.high,
                                    o->params.low, background, o->line_width};
    edgel_status st = EDGEL_OK;
    int io = 1;
    if (rc == EXIT_OK && o->segmented)
        st = contours_write_pieces(o->output, &v, &o->segment, &meta, &io);
    else if (rc == EXIT_OK && o->output != o->svg_lines && o->output != o->pdf)
        st = edgel_curves_write(o->output, &v, &meta);
    if (rc == EXIT_OK && st == EDGEL_OK && o->svg_lines)
        st = edgel_curves_write_as(o->svg_lines, EDGEL_CURVES_SVG_LINES, &v, &meta);
    if (rc == EXIT_OK && st == EDGEL_OK && o->pdf)
        st = edgel_curves_write_as(o->pdf, EDGEL_CURVES_PDF, &v, &meta);
    free(x);
    free(y);
    if (rc != EXIT_OK)
        return rc;
    if (st != EDGEL_OK)
        return fail(io ? "writing" : "segmenting", st, io ? edgel_io_last_error()
                                                          : edgel_last_error());
    if (!o->quiet) {
        int64_t closed = 0;
        for (int64_t k = 0; k < v.curves; k++)
            closed += v.closed[k];
        printf("%s: %lldx%lld, %lld curves (%lld closed), %lld points in %.3f s -> %s\n",
               o->input, (long long)width, (long long)height, (long long)v.curves,
               (long long)closed, (long long)v.points, seconds() - start, o->output);
    }
    return EXIT_OK;
}

static int contours_bands_run(const contours_options *o, double start)
{
    edgel_context_options copts;
    edgel_context_options_default(&copts);
    copts.threads = o->threads;
    edgel_context *ctx = NULL;
    edgel_curves *curves = NULL;
    edgel_status st = edgel_context_create(o->backend, &copts, &ctx);
    if (st != EDGEL_OK)
        return fail("backend", st, edgel_last_error());
    int64_t w = 0, h = 0;
    int rc;
    if ((st = edgel_curves_create(&curves)) != EDGEL_OK)
        rc = fail("contours", st, edgel_last_error());
    else if ((st = contours_in_bands(o->input, o->output, &o->params, ctx, o->memory,
                                     o->band_columns, o->quiet, curves, &w, &h)) != EDGEL_OK)
        rc = fail(o->input, st, edgel_io_last_error());
    else
        rc = write_result(o, ctx, curves, w, h, NULL, start);
    edgel_curves_destroy(curves);
    edgel_context_destroy(ctx);
    return rc;
}

int cmd_contours(int argc, char **argv)
{
    contours_options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed == 1) {
        fputs(CONTOURS_HELP, stdout);
        return EXIT_OK;
    }
    if (parsed < 0)
        return -parsed;
    const double start = seconds();
    if (use_bands(&o))
        return contours_bands_run(&o, start);
    const edgel_io_limits limits = {o.memory, (1u << EDGEL_U8) | (1u << EDGEL_U16) |
                                    (1u << EDGEL_F32), (1u << 1) | (1u << 3) | (1u << 4),
                                    1u << 1, "16-bit and float images must be gray"};
    edgel_image in = {0}, bg = {0};
    edgel_context *ctx = NULL;
    edgel_curves *curves = NULL;
    int rc = EXIT_FAILURE_RUN;
    edgel_status st = edgel_io_read(o.input, &limits, &in);
    if (st != EDGEL_OK)
        return fail("reading", st, edgel_io_last_error());
    const size_t pixels = (size_t)in.width * in.height;
    if (pixels > o.memory / WORK_BYTES_PER_PIXEL) {
        fprintf(stderr, "edgel contours: %dx%d needs about %zu MB (%d bytes a pixel), more "
                        "than --memory allows (%zu MB)\n", (int)in.width, (int)in.height,
                pixels * WORK_BYTES_PER_PIXEL >> 20, WORK_BYTES_PER_PIXEL, o.memory >> 20);
        edgel_io_free(&in);
        return EXIT_FAILURE_RUN;
    }
    edgel_context_options copts;
    edgel_context_options_default(&copts);
    copts.threads = o.threads;
    if ((st = edgel_context_create(o.backend, &copts, &ctx)) != EDGEL_OK) {
        rc = fail("backend", st, edgel_last_error());
        goto done;
    }
    if (in.channels > 1) { /* 8-bit colour: luma, as cv2.cvtColor(RGB2GRAY) */
        edgel_image gray;
        if ((st = edgel_io_alloc(&gray, in.width, in.height, 1, EDGEL_U8, "gray")) != EDGEL_OK) {
            rc = fail("memory", st, edgel_io_last_error());
            goto done;
        }
        if ((st = edgel_to_gray(ctx, EDGEL_GRAY_RGB, &in, &gray)) != EDGEL_OK) {
            edgel_io_free(&gray);
            rc = fail("gray", st, edgel_last_error());
            goto done;
        }
        edgel_io_free(&in);
        in = gray;
    }
    const int loud = !o.quiet && pixels >= (16u << 20);
    if (loud)
        fprintf(stderr, "edgel contours: %dx%d read in %.1f s; detecting\n", (int)in.width,
                (int)in.height, seconds() - start);
    if ((st = edgel_curves_create(&curves)) != EDGEL_OK ||
        (st = edgel_subpixel_edges(ctx, &o.params, &in, curves)) != EDGEL_OK) {
        rc = fail("contours", st, edgel_last_error());
        goto done;
    }
    edgel_curves_view v;
    edgel_curves_view_default(&v);
    edgel_curves_get(curves, &v);
    if (loud)
        fprintf(stderr, "edgel contours: %lld curves at %.1f s; writing\n", (long long)v.curves,
                seconds() - start);
    const int svg = edgel_curves_format_for_path(o.output) == EDGEL_CURVES_SVG; /* (pieces too) */
    if (svg && !background_of(&in, &bg)) {
        rc = fail("memory", EDGEL_ERROR_OUT_OF_MEMORY, edgel_io_last_error());
        goto done;
    }
    rc = write_result(&o, ctx, curves, in.width, in.height, svg ? &bg : NULL, start);
done:
    if (bg.data != in.data)
        edgel_io_free(&bg);
    edgel_io_free(&in);
    edgel_curves_destroy(curves);
    edgel_context_destroy(ctx);
    return rc;
}
