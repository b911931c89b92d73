/*
 * edgel bench: CPU (or, with --backend cuda, GPU: bench_gpu_stages.c) timings per stage and
 * in total for frame sizes from 640x480 to 7680x4320,
 * on a photograph tiled to each size (natural content: not noise, not blank).
 * Each figure is the median of --runs timed runs after one warm-up run.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, readlink */
#include "cli.h"
#include "io/image_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The default photograph: coffee.png of the samples that travel with the program (the
 * source tree's samples/ beside build/, share/edgel/ of an installation or of the Python
 * package), else samples/coffee.png under the current directory. */
static const char *sample_image(char *buf, size_t cap)
{
    static const char *const beside[] = {"/../samples/coffee.png", "/../share/edgel/coffee.png"};
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = 0;
        for (size_t i = 0; i < sizeof beside / sizeof beside[0]; i++) {
            snprintf(buf, cap, "%s%s", exe, beside[i]);
            if (access(buf, R_OK) == 0)
                return buf;
        }
    }
    return "samples/coffee.png";
}

const char BENCH_HELP[] =
    "usage: edgel bench [--image FILE] [--sizes WxH,...] [--threads N] [--runs N]\n"
    "                   [--blur SIGMA] [--low T] [--high T] [--backend cpu|cuda]\n"
    "\n"
    "Times the CPU backend per stage and in total, as a Markdown table: colour to gray,\n"
    "Gaussian blur, Canny (Sobel, non-maximum suppression, hysteresis) and the whole\n"
    "pipeline, each the median of N runs after a warm-up, at 1 thread and at N threads.\n"
    "With --backend cuda, per stage on the GPU: the copy of the RGB frame in, gray\n"
    "conversion, blur and Canny (device-resident; the stages run fused, so gray and blur\n"
    "are differences between calls with and without them), the copy of the edges out,\n"
    "the device-resident total and the host-to-host total (CUDA events; bench/bench_gpu\n"
    "times NPP beside edgel).\n"
    "  --image FILE   photograph tiled to each size (default: the sample coffee.png\n"
    "                 installed with edgel)\n"
    "  --sizes LIST   default 640x480,1280x720,1920x1080,3840x2160,7680x4320\n"
    "  --threads N    the multithreaded column (default all cores)\n"
    "  --runs N       timed runs per figure (default 15)\n"
    "  --blur SIGMA   Gaussian sigma (default 1.4); --low/--high thresholds (50/150)\n";

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef enum { RUN_GRAY, RUN_BLUR, RUN_CANNY, RUN_TOTAL } bench_stage;

typedef struct bench_case {
    edgel_context *ctx;
    const edgel_image *rgb, *gray, *blurred, *edges;
    edgel_canny_params params;
} bench_case;

static edgel_status run_once(const bench_case *c, bench_stage stage)
{
    edgel_canny_params p = c->params;
    switch (stage) {
    case RUN_GRAY: return edgel_to_gray(c->ctx, EDGEL_GRAY_RGB, c->rgb, c->gray);
    case RUN_BLUR:
        return edgel_gaussian_blur(c->ctx, c->gray, c->blurred, p.blur_ksize, p.blur_sigma);
    case RUN_CANNY:
        p.blur = EDGEL_BLUR_NONE;
        return edgel_canny(c->ctx, &p, c->blurred, c->edges, NULL);
    case RUN_TOTAL: return edgel_canny(c->ctx, &p, c->rgb, c->edges, NULL);
    }
    return EDGEL_ERROR_INTERNAL;
}

static double median_ms(const bench_case *c, bench_stage stage, int runs, edgel_status *st)
{
    double *t = malloc(sizeof(double) * (size_t)runs);
    if (!t) {
        *st = EDGEL_ERROR_OUT_OF_MEMORY;
        return 0;
    }
    *st = run_once(c, stage); /* warm-up */
    for (int i = 0; i < runs && *st == EDGEL_OK; i++) {
        double t0 = now_ms();
        *st = run_once(c, stage);
        t[i] = now_ms() - t0;
    }
    qsort(t, (size_t)runs, sizeof(double), cmp_double);
    double m = t[runs / 2];
    free(t);
    return m;
}

/* The photograph repeated (mirrored on odd tiles, so tiles meet without seams) to w x h RGB. */
static void tile(const edgel_image *src, edgel_image *dst)
{
    for (int y = 0; y < dst->height; y++) {
        int ty = y / src->height, sy = y % src->height;
        if (ty & 1)
            sy = src->height - 1 - sy;
        const uint8_t *srow = (const uint8_t *)src->data + (size_t)sy * src->pitch;
        uint8_t *drow = (uint8_t *)dst->data + (size_t)y * dst->pitch;
        for (int x = 0; x < dst->width; x++) {
            int tx = x / src->width, sx = x % src->width;
            if (tx & 1)
                sx = src->width - 1 - sx;
            for (int ch = 0; ch < 3; ch++)
                drow[x * 3 + ch] = srow[sx * src->channels + (src->channels == 1 ? 0 : ch)];
        }
    }
}

/* "WxH" at the start of s (up to a comma or the end): 1 when both sides are 1..65536 and
 * the area at most EDGEL_MAX_PIXELS; *used: the characters read. */
static int parse_frame_size(const char *s, int *w, int *h, int *used)
{
    const char *x = strchr(s, 'x'), *end = strchr(s, ',');
    if (!end)
        end = s + strlen(s);
    char a[16], b[16];
    if (!x || x > end || x - s >= (long)sizeof a || end - x - 1 >= (long)sizeof b)
        return 0;
    memcpy(a, s, (size_t)(x - s));
    a[x - s] = 0;
    memcpy(b, x + 1, (size_t)(end - x - 1));
    b[end - x - 1] = 0;
    if (!cli_parse_int(a, 1, EDGEL_MAX_DIMENSION, w) ||
        !cli_parse_int(b, 1, EDGEL_MAX_DIMENSION, h) ||
        (long long)*w * *h > EDGEL_MAX_PIXELS)
        return 0;
    *used = (int)(end - s);
    return 1;
}

int cmd_bench(int argc, char **argv)
{
    char sample[4200];
    const char *image = sample_image(sample, sizeof sample);
    const char *sizes = "640x480,1280x720,1920x1080,3840x2160,7680x4320";
    int threads = 0, runs = 15;
    edgel_backend backend = EDGEL_BACKEND_CPU;
    edgel_canny_params params;
    edgel_canny_params_default(&params);
    params.gray = EDGEL_GRAY_RGB;
    params.blur = EDGEL_BLUR_GAUSSIAN;
    params.blur_sigma = 1.4;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(BENCH_HELP, stdout);
            return EXIT_OK;
        }
        if (strcmp(a, "--image") && strcmp(a, "--sizes") && strcmp(a, "--threads") &&
            strcmp(a, "--runs") && strcmp(a, "--blur") && strcmp(a, "--low") &&
            strcmp(a, "--high") && strcmp(a, "--backend")) {
            fprintf(stderr, "edgel bench: unknown option '%s' (run 'edgel bench --help')\n", a);
            return EXIT_USAGE;
        }
        if (!v) {
            fprintf(stderr, "edgel bench: %s needs a value (run 'edgel bench --help')\n", a);
            return EXIT_USAGE;
        }
        i++;
        int ok = 1;
        if (!strcmp(a, "--image"))
            image = v;
        else if (!strcmp(a, "--sizes"))
            sizes = v;
        else if (!strcmp(a, "--threads"))
            ok = cli_parse_int(v, 0, 1024, &threads);
        else if (!strcmp(a, "--runs"))
            ok = cli_parse_int(v, 1, 100000, &runs);
        else if (!strcmp(a, "--blur"))
            ok = cli_parse_double(v, &params.blur_sigma) && params.blur_sigma > 0;
        else if (!strcmp(a, "--low"))
            ok = cli_parse_double(v, &params.low_threshold);
        else if (!strcmp(a, "--high"))
            ok = cli_parse_double(v, &params.high_threshold);
        else if (strcmp(v, "cpu") && strcmp(v, "cuda")) {
            fprintf(stderr, "edgel bench: --backend is cpu or cuda, not '%s'\n", v);
            return EXIT_USAGE;
        } else
            backend = !strcmp(v, "cpu") ? EDGEL_BACKEND_CPU : EDGEL_BACKEND_CUDA;
        if (!ok) {
            fprintf(stderr, "edgel bench: %s: '%s' is not a number in range (--runs 1..100000, "
                            "--threads 0..1024, --blur > 0; run 'edgel bench --help')\n", a, v);
            return EXIT_USAGE;
        }
    }
    if (edgel_canny_params_check(&params) != EDGEL_OK) {
        fprintf(stderr, "edgel bench: %s\n", edgel_last_error());
        return EXIT_USAGE;
    }
    for (const char *p = sizes; *p;) { /* the whole list, before any work */
        int w, h, used;
        if (!parse_frame_size(p, &w, &h, &used)) {
            fprintf(stderr, "edgel bench: bad size at '%s' (WxH, each side 1..%d, at most %lld "
                            "pixels)\n", p, EDGEL_MAX_DIMENSION, (long long)EDGEL_MAX_PIXELS);
            return EXIT_USAGE;
        }
        p += used + (p[used] == ',');
    }
    edgel_image photo;
    if (edgel_io_read(image, NULL, &photo) != EDGEL_OK || photo.type != EDGEL_U8) {
        fprintf(stderr, "edgel bench: %s\n(give an 8-bit photograph with --image FILE)\n",
                photo.data ? "the image must be 8-bit" : edgel_io_last_error());
        edgel_io_free(&photo);
        return EXIT_FAILURE_RUN;
    }
    edgel_context *single = NULL, *multi = NULL;
    edgel_context_options o;
    edgel_context_options_default(&o);
    o.threads = 1;
    edgel_status st = backend == EDGEL_BACKEND_CPU
                          ? edgel_context_create(EDGEL_BACKEND_CPU, &o, &single)
                          : EDGEL_OK;
    o.threads = threads;
    if (st == EDGEL_OK)
        st = edgel_context_create(backend, &o, &multi);
    if (st != EDGEL_OK) {
        fprintf(stderr, "edgel bench: %s (%s)\n", edgel_last_error(), edgel_status_name(st));
        edgel_context_destroy(single);
        edgel_io_free(&photo);
        return EXIT_FAILURE_RUN;
    }
    int32_t nthreads = 1;
    if (st == EDGEL_OK)
        edgel_context_threads(multi, &nthreads);
    printf("edgel %s %s benchmark: %s tiled; Gaussian sigma %g, thresholds %g/%g, L1, "
           "aperture 3;\nmedian of %d runs after a warm-up, in ms (MP/s for the total)\n\n",
           edgel_version_string(), backend == EDGEL_BACKEND_CPU ? "CPU" : "GPU",
           image, params.blur_sigma, params.low_threshold,
           params.high_threshold, runs);
    if (backend == EDGEL_BACKEND_CUDA) {
        printf("| size | copy in | gray | blur | canny | copy out | device total | host-to-host "
               "total | MP/s (device) |\n|---|---|---|---|---|---|---|---|---|\n");
    } else {
        printf("| size | threads | gray | blur | canny | total | MP/s |\n");
        printf("|---|---|---|---|---|---|---|\n");
    }
    const char *p = sizes;
    int rc = st == EDGEL_OK ? EXIT_OK : EXIT_FAILURE_RUN;
    while (rc == EXIT_OK && *p) {
        int w, h, used;
        parse_frame_size(p, &w, &h, &used); /* checked above */
        p += used + (p[used] == ',');
        edgel_image rgb = {0}, gray = {0}, blurred = {0}, edges = {0};
        st = edgel_io_alloc(&rgb, w, h, 3, EDGEL_U8, "bench");
        if (st == EDGEL_OK)
            st = edgel_io_alloc(&gray, w, h, 1, EDGEL_U8, "bench");
        if (st == EDGEL_OK)
            st = edgel_io_alloc(&blurred, w, h, 1, EDGEL_U8, "bench");
        if (st == EDGEL_OK)
            st = edgel_io_alloc(&edges, w, h, 1, EDGEL_U8, "bench");
        if (st != EDGEL_OK) {
            fprintf(stderr, "edgel bench: %dx%d: %s\n", w, h, edgel_io_last_error());
            rc = EXIT_FAILURE_RUN;
        } else {
            tile(&photo, &rgb);
            edgel_context *ctxs[2] = {single, multi};
            for (int k = 0; k < 2 && st == EDGEL_OK; k++) {
                if (!ctxs[k])
                    continue;
                bench_case c = {ctxs[k], &rgb, &gray, &blurred, &edges, params};
                double ms[4] = {0, 0, 0, 0};
                /* On the GPU gray and blur alone would run on the CPU (host images): the
                 * pipeline's parts show only in canny and total. */
                const int gpu = backend == EDGEL_BACKEND_CUDA;
                if (gpu) { /* the blurred frame canny reads, made once */
                    edgel_canny_params bp = params;
                    st = edgel_to_gray(c.ctx, EDGEL_GRAY_RGB, c.rgb, c.gray);
                    if (st == EDGEL_OK)
                        st = edgel_gaussian_blur(c.ctx, c.gray, c.blurred, bp.blur_ksize,
                                                 bp.blur_sigma);
                }
                for (int s = gpu ? RUN_CANNY : RUN_GRAY; s <= RUN_TOTAL && st == EDGEL_OK; s++)
                    ms[s] = median_ms(&c, (bench_stage)s, runs, &st);
                if (st == EDGEL_OK && gpu) {
                    if (bench_gpu_stages(c.ctx, &params, &rgb, &edges, runs, ms[3]) != EXIT_OK)
                        rc = EXIT_FAILURE_RUN;
                } else if (st == EDGEL_OK)
                    printf("| %dx%d | %d | %.3f | %.3f | %.3f | %.3f | %.1f |\n", w, h,
                           k ? (int)nthreads : 1, ms[0], ms[1], ms[2], ms[3],
                           (double)w * h / 1e3 / ms[3]);
                fflush(stdout);
            }
        }
        if (st != EDGEL_OK && rc == EXIT_OK) {
            fprintf(stderr, "edgel bench: %dx%d: %s (%s)\n", w, h, edgel_last_error(),
                    edgel_status_name(st));
            rc = EXIT_FAILURE_RUN;
        }
        edgel_io_free(&rgb);
        edgel_io_free(&gray);
        edgel_io_free(&blurred);
        edgel_io_free(&edges);
    }
    edgel_context_destroy(single);
    edgel_context_destroy(multi);
    edgel_io_free(&photo);
    return rc;
}
