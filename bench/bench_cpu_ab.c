/*
 * Two builds of libedgel's CPU backend in one process, called in turn: Canny, Canny with the
 * sigma 1.4 pre-blur, and the Gaussian alone, on gray frames of 640x480, 1920x1080 and
 * 3840x2160; per row the median ms of each library over RUNS turns after three warm-ups.
 * Alternating in one process puts both under the same machine load, which on a shared host
 * moves more between runs than many changes do.
 *
 *   python3 bench/tiled_frames.py /tmp/frames        # coffee.png in gray, tiled to each size
 *   cc -O2 -Iinclude bench/bench_cpu_ab.c -ldl -o /tmp/bench_cpu_ab
 *   /tmp/bench_cpu_ab NEW/libedgel.so BASE/libedgel.so THREADS [RUNS] [FRAMES_DIR]
 */
#include "edgel.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
    void (*opts)(edgel_context_options *, size_t);
    edgel_status (*create)(edgel_backend, const edgel_context_options *, edgel_context **);
    void (*params)(edgel_canny_params *, size_t);
    edgel_status (*canny)(edgel_context *, const edgel_canny_params *, const edgel_image *,
                          const edgel_image *, const edgel_canny_stages *);
    edgel_status (*blur)(edgel_context *, const edgel_image *, const edgel_image *, int32_t, double);
    edgel_context *ctx;
} lib;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int load(const char *path, int threads, lib *l)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return 0;
    }
    l->opts = (void (*)(edgel_context_options *, size_t))dlsym(h, "edgel_context_options_init");
    l->create = (edgel_status(*)(edgel_backend, const edgel_context_options *, edgel_context **))
        dlsym(h, "edgel_context_create");
    l->params = (void (*)(edgel_canny_params *, size_t))dlsym(h, "edgel_canny_params_init");
    l->canny = (edgel_status(*)(edgel_context *, const edgel_canny_params *, const edgel_image *,
                                const edgel_image *, const edgel_canny_stages *))dlsym(h, "edgel_canny");
    l->blur = (edgel_status(*)(edgel_context *, const edgel_image *, const edgel_image *, int32_t,
                               double))dlsym(h, "edgel_gaussian_blur");
    edgel_context_options o;
    l->opts(&o, sizeof o);
    o.threads = threads;
    return l->create(EDGEL_BACKEND_CPU, &o, &l->ctx) == EDGEL_OK;
}

/* The frame of w x h from dir/coffee_WxH.raw (bench/tiled_frames.py). */
static int fill(const char *dir, unsigned char *img, int w, int h)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/coffee_%dx%d.raw", dir, w, h);
    FILE *f = fopen(path, "rb");
    const int ok = f && fread(img, 1, (size_t)w * h, f) == (size_t)w * h;
    if (f)
        fclose(f);
    return ok;
}

int main(int argc, char **argv)
{
    lib libs[2];
    if (argc < 4) {
        fprintf(stderr, "usage: %s NEW.so BASE.so THREADS [RUNS] [FRAMES_DIR]\n", argv[0]);
        return 1;
    }
    const int threads = atoi(argv[3]), runs = argc > 4 ? atoi(argv[4]) : 21;
    const char *dir = argc > 5 ? argv[5] : "/tmp/frames";
    if (!load(argv[1], threads, &libs[0]) || !load(argv[2], threads, &libs[1]))
        return 1;
    static const int sizes[][2] = {{640, 480}, {1920, 1080}, {3840, 2160}};
    printf("| size | threads | what | new ms | base ms | base/new |\n|---|---|---|---|---|---|\n");
    for (int c = 0; c < 3; c++) {
        const int w = sizes[c][0], h = sizes[c][1];
        unsigned char *img = malloc((size_t)w * h), *out = malloc((size_t)w * h);
        if (!fill(dir, img, w, h)) {
            fprintf(stderr, "no %dx%d frame in %s (bench/tiled_frames.py)\n", w, h, dir);
            return 3;
        }
        edgel_image s = {img, w, h, (size_t)w, EDGEL_U8, 1, EDGEL_MEMORY_HOST};
        edgel_image d = {out, w, h, (size_t)w, EDGEL_U8, 1, EDGEL_MEMORY_HOST};
        for (int what = 0; what < 3; what++) {
            double *t[2] = {malloc(sizeof(double) * runs), malloc(sizeof(double) * runs)};
            for (int r = -3; r < runs; r++)
                for (int l = 0; l < 2; l++) {
                    edgel_canny_params p;
                    libs[l].params(&p, sizeof p);
                    p.low_threshold = 50, p.high_threshold = 150;
                    if (what == 1)
                        p.blur = EDGEL_BLUR_GAUSSIAN, p.blur_sigma = 1.4;
                    const double t0 = now();
                    const edgel_status st = what == 2 ? libs[l].blur(libs[l].ctx, &s, &d, 0, 1.4)
                                                      : libs[l].canny(libs[l].ctx, &p, &s, &d, NULL);
                    if (st != EDGEL_OK)
                        return 2;
                    if (r >= 0)
                        t[l][r] = (now() - t0) * 1e3;
                }
            qsort(t[0], runs, sizeof(double), cmp);
            qsort(t[1], runs, sizeof(double), cmp);
            static const char *names[] = {"canny", "canny blur 1.4", "blur alone"};
            printf("| %dx%d | %d | %s | %.3f | %.3f | %.2f |\n", w, h, threads, names[what],
                   t[0][runs / 2], t[1][runs / 2], t[1][runs / 2] / t[0][runs / 2]);
            free(t[0]), free(t[1]);
        }
        free(img), free(out);
    }
    return 0;
}
