/*
 * GPU suite: the CUDA backend must give the CPU backend's bytes (and so cv2.Canny's, or ITK's
 * floats for the itk preset) for every option, size, memory kind, batch and stream arrangement. Run by scripts/gpu-check.sh on a
 * machine with an NVIDIA GPU; exits 77 (skipped) where there is none.
 *
 *   test_gpu [--small] [BSDS500_DIR]
 *
 * --small: a few small cases only (for compute-sanitizer).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <cuda_runtime.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "edgel.h"
#include "../test_random.h"
#include "io/image_io.h"
#include <zlib.h>

static edgel_context *cpu, *gpu, *gpu2;

#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

static size_t count_diff(const uint8_t *a, const uint8_t *b, size_t n, size_t *first)
{
    size_t d = 0;
    *first = (size_t)-1;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            if (d == 0)
                *first = i;
            d++;
        }
    return d;
}

static edgel_image device_copy(const edgel_image *host)
{
    edgel_image d = *host;
    d.pitch = edgel_pixel_size(host->type) * (size_t)host->width * host->channels + 64; /* pitched */
    CUDA_CHECK(cudaMalloc(&d.data, d.pitch * host->height));
    CUDA_CHECK(cudaMemcpy2D(d.data, d.pitch, host->data, host->pitch,
                            (size_t)host->width * host->channels * edgel_pixel_size(host->type),
                            host->height, cudaMemcpyHostToDevice));
    d.memory = EDGEL_MEMORY_DEVICE;
    return d;
}

static void device_download(const edgel_image *dev, void *host)
{
    const size_t row = (size_t)dev->width * dev->channels * edgel_pixel_size(dev->type);
    CUDA_CHECK(cudaMemcpy2D(host, row, dev->data, dev->pitch, row, dev->height,
                            cudaMemcpyDeviceToHost));
}

static void describe(char *buf, size_t n, const edgel_canny_params *p, const edgel_image *src)
{
    snprintf(buf, n, "%dx%dx%d aperture %d l2 %d %g/%g gray %d blur %d(%g,%d)", (int)src->width,
             (int)src->height, (int)src->channels, (int)p->aperture, (int)p->l2_gradient,
             p->low_threshold, p->high_threshold, (int)p->gray, (int)p->blur, p->blur_sigma,
             (int)p->blur_ksize);
}

/* CPU, GPU on host memory and GPU on device memory must agree byte for byte. */
/* Compares CPU and GPU edges for host and device images; returns the CPU's edge pixel count. */
static size_t compare_case(const edgel_canny_params *p, const edgel_image *src, const char *name)
{
    const size_t n = (size_t)src->width * src->height;
    uint8_t *ref = malloc(n), *got = malloc(n);
    edgel_image er = edgel_image_host(ref, src->width, src->height, EDGEL_U8, 1);
    edgel_image eg = edgel_image_host(got, src->width, src->height, EDGEL_U8, 1);
    char what[256];
    describe(what, sizeof what, p, src);
    CHECK(edgel_canny(cpu, p, src, &er, NULL) == EDGEL_OK);
    memset(got, 0x5A, n); /* poison: every byte must be written */
    edgel_status st = edgel_canny(gpu, p, src, &eg, NULL);
    size_t first = 0, d = st == EDGEL_OK ? count_diff(ref, got, n, &first) : n;
    if (d)
        fprintf(stderr, "%s %s host: %s, %zu pixels differ (first at %zu)\n", name, what,
                edgel_status_name(st), d, first);
    CHECK(d == 0);
    edgel_image ds = device_copy(src);
    edgel_image de = {NULL, src->width, src->height, 0, EDGEL_U8, 1, EDGEL_MEMORY_DEVICE};
    de.pitch = (size_t)src->width + 32;
    CUDA_CHECK(cudaMalloc(&de.data, de.pitch * src->height));
    CUDA_CHECK(cudaMemset(de.data, 0x5A, de.pitch * src->height));
    /* The context's stream does not wait for the legacy default stream: finish the poison. */
    CUDA_CHECK(cudaDeviceSynchronize());
    st = edgel_canny(gpu, p, &ds, &de, NULL);
    if (st == EDGEL_OK)
        st = edgel_context_synchronize(gpu);
    memset(got, 0x5A, n);
    if (st == EDGEL_OK)
        device_download(&de, got);
    d = st == EDGEL_OK ? count_diff(ref, got, n, &first) : n;
    if (d)
        fprintf(stderr, "%s %s device: %s (%s), %zu pixels differ (first at %zu)\n", name, what,
                edgel_status_name(st), edgel_last_error(), d, first);
    CHECK(d == 0);
    cudaFree(ds.data);
    cudaFree(de.data);
    size_t edges = 0;
    for (size_t i = 0; i < n; i++)
        edges += ref[i] == 255;
    free(ref);
    free(got);
    return edges;
}

/* Every stage the CPU gives, the GPU gives too. */
static void compare_stages(const edgel_canny_params *p, const edgel_image *src)
{
    const int w = src->width, h = src->height;
    const size_t n = (size_t)w * h;
    const int scn = p->gray != EDGEL_GRAY_NONE ? 1 : src->channels;
    void *buf[2][7];
    edgel_image v[2][7];
    static const edgel_pixel_type types[7] = {EDGEL_U8, EDGEL_U8, EDGEL_U8, EDGEL_S16,
                                              EDGEL_S16, EDGEL_S32, EDGEL_U8};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 7; i++) {
            const int cn = i == 2 ? scn : 1;
            buf[k][i] = malloc(n * cn * edgel_pixel_size(types[i]));
            memset(buf[k][i], 0x33, n * cn * edgel_pixel_size(types[i]));
            v[k][i] = edgel_image_host(buf[k][i], w, h, types[i], cn);
        }
    for (int k = 0; k < 2; k++) {
        edgel_canny_stages st = {p->gray != EDGEL_GRAY_NONE ? &v[k][1] : NULL, &v[k][2], &v[k][3],
                                 &v[k][4], &v[k][5], &v[k][6]};
        CHECK(edgel_canny(k ? gpu : cpu, p, src, &v[k][0], &st) == EDGEL_OK);
    }
    static const char *names[7] = {"edges", "gray", "smoothed", "dx", "dy", "magnitude",
                                   "suppressed"};
    for (int i = 0; i < 7; i++) {
        if (i == 1 && p->gray == EDGEL_GRAY_NONE)
            continue;
        const int cn = i == 2 ? scn : 1;
        const size_t bytes = n * cn * edgel_pixel_size(types[i]);
        size_t first, d = count_diff(buf[0][i], buf[1][i], bytes, &first);
        if (d)
            fprintf(stderr, "stage %s: %zu bytes differ (first at %zu)\n", names[i], d, first);
        CHECK(d == 0);
    }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 7; i++)
            free(buf[k][i]);
}

static const int apertures[] = {3, 5, 7, EDGEL_APERTURE_SCHARR};
static const double thresholds[][2] = {{50, 150}, {0, 0},   {-10, 40}, {120, 100}, {77.5, 77.5},
                                       {10.25, 300.75}, {400, 1000}, {1e6, 2e6}, {30, 31}};

static void params_for(int k, edgel_canny_params *p)
{
    edgel_canny_params_default(p);
    p->aperture = apertures[k % 4];
    p->l2_gradient = p->aperture == EDGEL_APERTURE_SCHARR ? 1 : (k / 4) % 2;
    const int t = k % (int)(sizeof thresholds / sizeof thresholds[0]);
    p->low_threshold = thresholds[t][0];
    p->high_threshold = thresholds[t][1];
}

/* A w x h crop or mirrored tiling of a photograph, with `cn` channels. */
static edgel_image make_frame(const edgel_image *photo, int w, int h, int cn, void **mem)
{
    *mem = malloc((size_t)w * h * cn);
    uint8_t *d = *mem;
    const int ox = (int)(next_random() % (unsigned)photo->width);
    const int oy = (int)(next_random() % (unsigned)photo->height);
    for (int y = 0; y < h; y++) {
        int sy = (y + oy) % (2 * photo->height);
        sy = sy < photo->height ? sy : 2 * photo->height - 1 - sy;
        const uint8_t *row = (const uint8_t *)photo->data + (size_t)sy * photo->pitch;
        for (int x = 0; x < w; x++) {
            int sx = (x + ox) % (2 * photo->width);
            sx = sx < photo->width ? sx : 2 * photo->width - 1 - sx;
            for (int c = 0; c < cn; c++)
                d[((size_t)y * w + x) * cn + c] =
                    c < photo->channels ? row[(size_t)sx * photo->channels + c]
                                        : (uint8_t)(next_random() & 255);
        }
    }
    return edgel_image_host(d, w, h, EDGEL_U8, cn);
}

static int load_photos(const char *dir, edgel_image *photos, int max)
{
    static const char *subs[] = {"train", "val", "test"};
    int n = 0;
    for (int s = 0; s < 3; s++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, subs[s]);
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d)) && n < max) {
            if (!strstr(e->d_name, ".jpg"))
                continue;
            char file[2048];
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            if (edgel_io_read(file, NULL, &photos[n]) == EDGEL_OK)
                n++;
        }
        if (d)
            closedir(d);
    }
    return n;
}

static void test_photos(edgel_image *photos, int n)
{
    for (int i = 0; i < n; i++) {
        edgel_canny_params p;
        params_for(i, &p);
        p.gray = EDGEL_GRAY_RGB;
        compare_case(&p, &photos[i], "bsds");
        params_for(i * 7 + 3, &p); /* OpenCV's colour Canny */
        compare_case(&p, &photos[i], "bsds colour");
        edgel_canny_params_default(&p);
        p.gray = EDGEL_GRAY_RGB;
        p.blur = i % 3 ? EDGEL_BLUR_GAUSSIAN : EDGEL_BLUR_5X5_159;
        p.blur_sigma = 0.8 + (i % 5) * 0.6;
        compare_case(&p, &photos[i], "bsds blurred");
    }
    printf("photos: %d images compared\n", n);
}

/* Sizes 1x1 to 4096x4096. Every shape of the streaming kernel (cuda_canny.cu) runs: a pixel
 * a lane in bands of a quarter of a tile's rows up to 481x321, two pixels a lane at
 * 1000x999, four in quarter bands at 1920x1080 and 2047x1153, in half bands at 2970x1999
 * and in whole tiles from 4001x3001 up; odd tile counts leave a last group of fewer tiles.
 * Frames whose rows are not 4-byte aligned (odd widths here: the device copies are pitched
 * by the width plus 64) take its byte loads. link_tiles takes one warp a tile from 4001x3001
 * up (and in the batches below). */
static void test_sizes(const edgel_image *photo, int small)
{
    /* width, height, and the options run with --small (0: not run) */
    static const int sizes[][3] = {{1, 1, 4},       {1, 7, 4},       {7, 1, 4},       {2, 2, 4},
                                   {3, 3, 4},       {31, 33, 4},     {32, 32, 4},     {33, 31, 4},
                                   {64, 64, 4},     {65, 63, 4},     {127, 129, 0},   {481, 321, 0},
                                   {1000, 999, 2},  {1920, 1080, 2}, {2047, 1153, 0}, {2970, 1999, 0},
                                   {4001, 3001, 0}, {4095, 4093, 1}, {4096, 4096, 0}};
    int count = 0;
    for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
        const int w = sizes[s][0], h = sizes[s][1];
        const int options = small ? sizes[s][2] : (w * h > 4000000 ? 6 : 16);
        if (!options)
            continue;
        count++;
        for (int k = 0; k < options; k++) {
            void *mem;
            const int cn = k % 3 == 0 ? 1 : (k % 3 == 1 ? 3 : 4);
            edgel_image img = make_frame(photo, w, h, cn, &mem);
            edgel_canny_params p;
            params_for(k + s, &p);
            if (k % 5 == 1)
                p.gray = EDGEL_GRAY_BGR;
            if (k % 4 == 2) {
                p.blur = EDGEL_BLUR_GAUSSIAN;
                p.blur_sigma = 0.5 + k * 0.3;
            } else if (k % 7 == 3) {
                p.blur = EDGEL_BLUR_5X5_159;
            }
            compare_case(&p, &img, "size");
            free(mem);
        }
    }
    printf("sizes: %d sizes compared\n", count);
}

/* Canny with the Gaussian pre-blur, kernels of 3 to 11 taps (sigma 0.3 to 1.5), on frames
 * from 1x1 (borders reflected again and again) to frames a column or a row past the stream
 * kernel's blocks of 32, 64 and 128 columns (a pixel, two and four a lane) and 32 rows, the
 * blur on two pixels a lane (up to 2^20 pixels) and four (1920x1080 and over); odd widths
 * (device rows not 4-byte aligned), gray and colour. Equal to the CPU, with edges. */
static void test_blurred_sizes(const edgel_image *photo, int small)
{
    static const int sizes[][2] = {{1, 1},     {2, 3},      {3, 2},      {5, 9},       {8, 8},
                                   {9, 4},     {31, 33},    {33, 31},    {36, 40},     {100, 37},
                                   {127, 129}, {1000, 999}, {1001, 1003}, {1920, 1080}, {1923, 1081}};
    static const double sigmas[] = {0.3, 0.5, 0.8, 1.4, 1.5};
    const int nsizes = small ? 8 : (int)(sizeof sizes / sizeof sizes[0]);
    int count = 0;
    for (int s = 0; s < nsizes; s++) {
        const int w = sizes[s][0], h = sizes[s][1];
        for (int k = 0; k < (int)(sizeof sigmas / sizeof sigmas[0]); k++) {
            const int cn = (s + k) % 3 == 2 ? 3 : 1;
            void *mem;
            edgel_image img = make_frame(photo, w, h, cn, &mem);
            edgel_canny_params p;
            edgel_canny_params_default(&p);
            p.aperture = 3;
            p.l2_gradient = (s + k) % 2;
            p.low_threshold = 10 + 10 * ((s + k) % 4);
            p.high_threshold = 3 * p.low_threshold;
            p.gray = cn == 3 ? EDGEL_GRAY_RGB : EDGEL_GRAY_NONE;
            p.blur = EDGEL_BLUR_GAUSSIAN;
            p.blur_sigma = sigmas[k];
            size_t edges = compare_case(&p, &img, "blurred size");
            /* Frames of 100x37 and up must have edges to compare: where the crop of the
             * photograph is too smooth for these thresholds, lower ones (every run compared). */
            const int needs_edges = w >= 100 && h >= 37;
            while (needs_edges && edges == 0 && p.low_threshold > 1) {
                p.low_threshold /= 2;
                p.high_threshold = 3 * p.low_threshold;
                edges = compare_case(&p, &img, "blurred size");
            }
            if (needs_edges)
                CHECK(edges > 0);
            free(mem);
            count++;
        }
    }
    printf("blurred sizes: %d cases compared\n", count);
}

/* Hysteresis along long weak contours that cross many 32x32 tiles (and rows of tiles left
 * empty, at 333x21) and reach a strong pixel only at one end: the outlines of bands 3 pixels
 * wide (a serpentine, diagonals through tile corners, a square spiral, a random walk) at a
 * weak contrast, with a strong spot at the start. The serpentine's and the spiral's outlines
 * are single closed contours, so the spot must carry along all of it: the edges must equal
 * those of the same frame with every candidate strong. (NMS breaks the other two outlines at
 * their junctions and holes; there GPU and CPU are compared only.) */
static void brush(uint8_t *img, int w, int h, int x, int y, uint8_t v)
{
    for (int dy = 0; dy < 3; dy++)
        for (int dx = 0; dx < 3; dx++)
            if (x + dx >= 0 && x + dx < w && y + dy >= 0 && y + dy < h)
                img[(size_t)(y + dy) * w + x + dx] = v;
}

static void stroke(uint8_t *img, int w, int h, int x0, int y0, int x1, int y1)
{
    const int n = abs(x1 - x0) > abs(y1 - y0) ? abs(x1 - x0) : abs(y1 - y0);
    for (int k = 0; k <= n; k++)
        brush(img, w, h, x0 + (n ? (x1 - x0) * k / n : 0), y0 + (n ? (y1 - y0) * k / n : 0), 60);
}

static void draw_pattern(uint8_t *img, int w, int h, int pattern, int *sx, int *sy)
{
    memset(img, 0, (size_t)w * h);
    *sx = 2, *sy = 2;
    if (pattern == 0) { /* serpentine */
        for (int y = 2, k = 0; y + 3 < h - 2; y += 8, k++) {
            stroke(img, w, h, 2, y, w - 5, y);
            const int xe = k % 2 ? 2 : w - 5;
            stroke(img, w, h, xe, y, xe, y + 8 < h - 5 ? y + 8 : h - 5);
        }
    } else if (pattern == 1) { /* diagonals 16 apart hanging from a band along the top */
        stroke(img, w, h, 2, 2, w - 5, 2);
        for (int c = 2; c <= w - 5; c += 16) { /* ending inside: one closed outline */
            const int len = c - 2 < h - 7 ? c - 2 : h - 7;
            stroke(img, w, h, c, 2, c - len, 2 + len);
        }
    } else if (pattern == 2) { /* square spiral, turns 8 apart */
        int l = 2, t = 2, r = w - 5, b = h - 5;
        while (l + 8 <= r && t + 8 <= b) {
            stroke(img, w, h, l, t, r, t);
            stroke(img, w, h, r, t, r, b);
            stroke(img, w, h, r, b, l, b);
            stroke(img, w, h, l, b, l, t + 8);
            l += 8, t += 8, r -= 8, b -= 8;
            stroke(img, w, h, l - 8, t, l, t);
        }
    } else { /* random walk */
        int x = w / 2, y = h / 2;
        *sx = x, *sy = y;
        for (int k = 0; k < 10 * (w + h); k++) {
            brush(img, w, h, x, y, 60);
            const unsigned rnd = next_random();
            x += (int)(rnd % 3) - 1;
            y += (int)(rnd / 3 % 3) - 1;
            x = x < 2 ? 2 : (x > w - 5 ? w - 5 : x);
            y = y < 2 ? 2 : (y > h - 5 ? h - 5 : y);
        }
        /* The spot on the outline: just above the walk's first pixel in raster order. */
        size_t first = 0;
        while (!img[first])
            first++;
        *sx = (int)(first % (size_t)w), *sy = (int)(first / (size_t)w) - 2;
    }
    for (int k = 0; k < 3; k++)
        brush(img, w, h, *sx + k, *sy, 255);
}

static void test_hysteresis_paths(int small)
{
    static const int sizes[][2] = {{200, 150}, {1000, 700}, {4096, 40}, {40, 4096}, {640, 480},
                                   {333, 21},  {1921, 1081}};
    const int count = small ? 1 : (int)(sizeof sizes / sizeof sizes[0]);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.low_threshold = 100; /* the outlines' Sobel L1 magnitude is 4 * 60; the spot's 4 * 255 */
    for (int s = 0; s < count; s++) {
        const int w = sizes[s][0], h = sizes[s][1];
        uint8_t *img = malloc((size_t)w * h);
        for (int pattern = 0; pattern < 4; pattern++) {
            int sx, sy;
            draw_pattern(img, w, h, pattern, &sx, &sy);
            const edgel_image src = edgel_image_host(img, w, h, EDGEL_U8, 1);
            p.high_threshold = 100;
            const size_t all = compare_case(&p, &src, "hysteresis path, all strong");
            p.high_threshold = 400;
            const size_t got = compare_case(&p, &src, "hysteresis path");
            const int closed = pattern == 0 || pattern == 2;
            CHECK(!closed || (all > (size_t)(w + h) && got == all));
            if (closed && !(all > (size_t)(w + h) && got == all))
                fprintf(stderr, "hysteresis path %d at %dx%d: %zu of %zu outline pixels\n",
                        pattern, w, h, got, all);
        }
        free(img);
    }
    printf("hysteresis paths: %d sizes compared\n", count);
}

static void test_stages(const edgel_image *photo)
{
    for (int k = 0; k < 8; k++) {
        void *mem;
        edgel_image img = make_frame(photo, 300 + k * 37, 200 + k * 11, k % 2 ? 3 : 1, &mem);
        edgel_canny_params p;
        params_for(k, &p);
        p.gray = k % 4 == 1 ? EDGEL_GRAY_RGB : EDGEL_GRAY_NONE;
        p.blur = k % 3 == 0 ? EDGEL_BLUR_GAUSSIAN : EDGEL_BLUR_NONE;
        p.blur_sigma = 1.3;
        compare_stages(&p, &img);
        free(mem);
    }
    printf("stages compared\n");
}

static void test_gradients(const edgel_image *photo)
{
    for (int k = 0; k < 12; k++) {
        const int w = 17 + k * 53, h = 9 + k * 41, cn = k % 2 ? 3 : 1;
        const size_t n = (size_t)w * h * cn;
        int16_t *dx = malloc(n * 2), *dy = malloc(n * 2);
        const int limit = k < 4 ? 300 : (k < 8 ? 5000 : 32768);
        for (size_t i = 0; i < n; i++) {
            dx[i] = (int16_t)((int)(next_random() % (2 * limit)) - limit);
            dy[i] = (int16_t)((int)(next_random() % (2 * limit)) - limit);
        }
        (void)photo;
        edgel_image vx = edgel_image_host(dx, w, h, EDGEL_S16, cn);
        edgel_image vy = edgel_image_host(dy, w, h, EDGEL_S16, cn);
        uint8_t *a = malloc((size_t)w * h), *b = malloc((size_t)w * h);
        edgel_image ea = edgel_image_host(a, w, h, EDGEL_U8, 1);
        edgel_image eb = edgel_image_host(b, w, h, EDGEL_U8, 1);
        edgel_canny_params p;
        params_for(k, &p);
        CHECK(edgel_canny_gradients(cpu, &p, &vx, &vy, &ea, NULL) == EDGEL_OK);
        CHECK(edgel_canny_gradients(gpu, &p, &vx, &vy, &eb, NULL) == EDGEL_OK);
        CHECK(memcmp(a, b, (size_t)w * h) == 0);
        edgel_image dvx = device_copy(&vx), dvy = device_copy(&vy);
        edgel_image de = {NULL, w, h, (size_t)w, EDGEL_U8, 1, EDGEL_MEMORY_DEVICE};
        CUDA_CHECK(cudaMalloc(&de.data, (size_t)w * h));
        CHECK(edgel_canny_gradients(gpu, &p, &dvx, &dvy, &de, NULL) == EDGEL_OK);
        CHECK(edgel_context_synchronize(gpu) == EDGEL_OK);
        memset(b, 0x5A, (size_t)w * h);
        device_download(&de, b);
        CHECK(memcmp(a, b, (size_t)w * h) == 0);
        cudaFree(dvx.data);
        cudaFree(dvy.data);
        cudaFree(de.data);
        free(dx);
        free(dy);
        free(a);
        free(b);
    }
    printf("gradients compared\n");
}

/* A batch (host and device) and two contexts on two streams give the single calls' bytes.
 * The full batch takes the hysteresis with one warp a tile, two tiles a block; its 19 tile
 * columns leave each row's last block a tile short. */
static void test_batches_and_streams(const edgel_image *photo, int small)
{
    const int count = small ? 3 : 70, w = small ? 97 : 600, h = small ? 61 : 480;
    edgel_image *src = calloc(count, sizeof *src), *ref = calloc(count, sizeof *ref);
    edgel_image *out = calloc(count, sizeof *out), *dsrc = calloc(count, sizeof *dsrc);
    edgel_image *dout = calloc(count, sizeof *dout);
    void **mem = calloc(count, sizeof *mem);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.gray = EDGEL_GRAY_RGB;
    p.blur = EDGEL_BLUR_GAUSSIAN;
    p.blur_sigma = 1.2;
    for (int i = 0; i < count; i++) {
        src[i] = make_frame(photo, w, h, 3, &mem[i]);
        ref[i] = edgel_image_host(malloc((size_t)w * h), w, h, EDGEL_U8, 1);
        out[i] = edgel_image_host(malloc((size_t)w * h), w, h, EDGEL_U8, 1);
        memset(out[i].data, 0x5A, (size_t)w * h);
        CHECK(edgel_canny(cpu, &p, &src[i], &ref[i], NULL) == EDGEL_OK);
        dsrc[i] = device_copy(&src[i]);
        dout[i] = (edgel_image){NULL, w, h, (size_t)w, EDGEL_U8, 1, EDGEL_MEMORY_DEVICE};
        CUDA_CHECK(cudaMalloc(&dout[i].data, (size_t)w * h));
    }
    int same = 1;
    CHECK(edgel_canny_batch(gpu, &p, src, out, count) == EDGEL_OK);
    for (int i = 0; i < count; i++)
        same &= memcmp(ref[i].data, out[i].data, (size_t)w * h) == 0;
    CHECK(same);
    /* Page-locked frames go by DMA without staging: same bytes. */
    edgel_image *psrc = calloc(count, sizeof *psrc), *pout = calloc(count, sizeof *pout);
    for (int i = 0; i < count; i++) {
        void *a, *b;
        CUDA_CHECK(cudaMallocHost(&a, (size_t)w * h * 3));
        CUDA_CHECK(cudaMallocHost(&b, (size_t)w * h));
        memcpy(a, src[i].data, (size_t)w * h * 3);
        memset(b, 0x5A, (size_t)w * h);
        psrc[i] = edgel_image_host(a, w, h, EDGEL_U8, 3);
        pout[i] = edgel_image_host(b, w, h, EDGEL_U8, 1);
    }
    CHECK(edgel_canny_batch(gpu, &p, psrc, pout, count) == EDGEL_OK);
    same = 1;
    for (int i = 0; i < count; i++) {
        same &= memcmp(ref[i].data, pout[i].data, (size_t)w * h) == 0;
        cudaFreeHost(psrc[i].data);
        cudaFreeHost(pout[i].data);
    }
    CHECK(same);
    free(psrc);
    free(pout);
    CHECK(edgel_canny_batch(gpu, &p, dsrc, dout, count) == EDGEL_OK);
    CHECK(edgel_context_synchronize(gpu) == EDGEL_OK);
    same = 1;
    for (int i = 0; i < count; i++) {
        memset(out[i].data, 0x5A, (size_t)w * h);
        device_download(&dout[i], out[i].data);
        same &= memcmp(ref[i].data, out[i].data, (size_t)w * h) == 0;
    }
    CHECK(same);
    /* Two contexts, each on a stream of the caller's, frames interleaved. */
    cudaStream_t s1, s2;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CHECK(edgel_context_set_stream(gpu, s1) == EDGEL_OK);
    CHECK(edgel_context_set_stream(gpu2, s2) == EDGEL_OK);
    for (int i = 0; i < count; i++)
        CUDA_CHECK(cudaMemset(dout[i].data, 0x5A, (size_t)w * h));
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < count; i++)
        CHECK(edgel_canny(i % 2 ? gpu2 : gpu, &p, &dsrc[i], &dout[i], NULL) == EDGEL_OK);
    CHECK(edgel_context_synchronize(gpu) == EDGEL_OK);
    CHECK(edgel_context_synchronize(gpu2) == EDGEL_OK);
    same = 1;
    for (int i = 0; i < count; i++) {
        device_download(&dout[i], out[i].data);
        same &= memcmp(ref[i].data, out[i].data, (size_t)w * h) == 0;
    }
    CHECK(same);
    /* A device batch on the caller's stream: waiting for that stream covers all of it. */
    for (int i = 0; i < count; i++)
        CUDA_CHECK(cudaMemsetAsync(dout[i].data, 0x5A, (size_t)w * h, s1));
    CHECK(edgel_canny_batch(gpu, &p, dsrc, dout, count) == EDGEL_OK);
    CUDA_CHECK(cudaStreamSynchronize(s1));
    same = 1;
    for (int i = 0; i < count; i++) {
        device_download(&dout[i], out[i].data);
        same &= memcmp(ref[i].data, out[i].data, (size_t)w * h) == 0;
    }
    CHECK(same);
    edgel_context_set_stream(gpu, NULL);
    edgel_context_set_stream(gpu2, NULL);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    for (int i = 0; i < count; i++) {
        free(mem[i]);
        free(ref[i].data);
        free(out[i].data);
        cudaFree(dsrc[i].data);
        cudaFree(dout[i].data);
    }
    free(src), free(ref), free(out), free(dsrc), free(dout), free(mem);
    printf("batches and streams: %d frames compared\n", count);
}

/* Device batches of frames of different sizes (one launch sequence, each frame its own size
 * and pitch): 70 frames, so two launches, from 1x1 up, equal to single CPU calls; with a
 * blur, the same frames go a size at a time. */
static void test_mixed_batches(const edgel_image *photo, int small)
{
    enum { N = 70 };
    static const int sides[][2] = {{1, 1}, {33, 1}, {1, 40}, {31, 33}, {64, 64}, {100, 37},
                                   {257, 129}, {640, 480}, {1001, 777}, {1920, 1080}};
    const int nsides = small ? 7 : 10;
    edgel_image src[N], dev[N], out[N];
    void *mem[N];
    for (int i = 0; i < N; i++) {
        const int w = sides[(i * 7) % nsides][0], h = sides[(i * 3) % nsides][1];
        src[i] = make_frame(photo, w, h, 1, &mem[i]);
        dev[i] = device_copy(&src[i]);
        out[i] = dev[i];
        CUDA_CHECK(cudaMalloc(&out[i].data, out[i].pitch * (size_t)h));
        CUDA_CHECK(cudaMemset(out[i].data, 0x5A, out[i].pitch * (size_t)h));
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int blur = 0; blur < 2; blur++) {
        edgel_canny_params p;
        edgel_canny_params_default(&p);
        p.low_threshold = 30, p.high_threshold = 90;
        p.blur = blur ? EDGEL_BLUR_5X5_159 : EDGEL_BLUR_NONE;
        CHECK(edgel_canny_batch(gpu, &p, dev, out, N) == EDGEL_OK);
        CHECK(edgel_context_synchronize(gpu) == EDGEL_OK);
        size_t differ = 0;
        for (int i = 0; i < N; i++) {
            const int w = src[i].width, h = src[i].height;
            uint8_t *ref = malloc((size_t)w * h), *got = malloc((size_t)w * h);
            edgel_image r = edgel_image_host(ref, w, h, EDGEL_U8, 1);
            CHECK(edgel_canny(cpu, &p, &src[i], &r, NULL) == EDGEL_OK);
            device_download(&out[i], got);
            size_t first, d = count_diff(ref, got, (size_t)w * h, &first);
            if (d)
                fprintf(stderr, "mixed batch frame %d (%dx%d, blur %d): %zu differ\n", i, w, h,
                        blur, d);
            differ += d;
            free(ref), free(got);
        }
        CHECK(differ == 0);
    }
    for (int i = 0; i < N; i++)
        cudaFree(dev[i].data), cudaFree(out[i].data), free(mem[i]);
    printf("mixed-size batches: %d frames compared\n", 2 * N);
}

/* ---- the itk preset ---------------------------------------------------------------------- */

static size_t count_float_diff(const float *a, const float *b, size_t n)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += memcmp(&a[i], &b[i], sizeof(float)) != 0;
    return d;
}

/* CPU and GPU (host views, device views) must give the same edges (f32 and u8) and the same
 * floats in the smoothed and suppressed stages. */
static void compare_itk_case(const edgel_canny_params *p, const edgel_image *src, const char *name)
{
    const int w = src->width, h = src->height;
    const size_t n = (size_t)w * h;
    float *ref = malloc(n * 4), *ref_sup = malloc(n * 4), *ref_smooth = malloc(n * 4);
    float *got = malloc(n * 4), *got_sup = malloc(n * 4), *got_smooth = malloc(n * 4);
    uint8_t *got8 = malloc(n);
    edgel_image e = edgel_image_host(ref, w, h, EDGEL_F32, 1);
    edgel_image es = edgel_image_host(ref_sup, w, h, EDGEL_F32, 1);
    edgel_image eg = edgel_image_host(ref_smooth, w, h, EDGEL_F32, 1);
    edgel_canny_stages st = {0};
    st.suppressed = &es;
    st.smoothed = &eg;
    CHECK(edgel_canny(cpu, p, src, &e, &st) == EDGEL_OK);

    edgel_image g = edgel_image_host(got, w, h, EDGEL_F32, 1);
    edgel_image gs = edgel_image_host(got_sup, w, h, EDGEL_F32, 1);
    edgel_image gg = edgel_image_host(got_smooth, w, h, EDGEL_F32, 1);
    edgel_image g8 = edgel_image_host(got8, w, h, EDGEL_U8, 1);
    for (int device = 0; device < 2; device++) {
        memset(got, 0x5A, n * 4), memset(got_sup, 0x5A, n * 4), memset(got_smooth, 0x5A, n * 4);
        edgel_image ds = device ? device_copy(src) : *src;
        edgel_image dg = device ? device_copy(&g) : g, dgs = device ? device_copy(&gs) : gs;
        edgel_image dgg = device ? device_copy(&gg) : gg;
        /* cudaMemcpy from pageable memory may return before its DMA lands, and the context's
         * stream does not wait for the legacy default stream: finish the copies. */
        CUDA_CHECK(cudaDeviceSynchronize());
        edgel_canny_stages gst = {0};
        gst.suppressed = &dgs;
        gst.smoothed = &dgg;
        edgel_status status = edgel_canny(gpu, p, &ds, &dg, &gst);
        if (status == EDGEL_OK && device) {
            status = edgel_context_synchronize(gpu);
            device_download(&dg, got), device_download(&dgs, got_sup), device_download(&dgg, got_smooth);
        }
        const size_t de = status == EDGEL_OK ? count_float_diff(ref, got, n) : n;
        const size_t dsup = status == EDGEL_OK ? count_float_diff(ref_sup, got_sup, n) : n;
        const size_t dsm = status == EDGEL_OK ? count_float_diff(ref_smooth, got_smooth, n) : n;
        if (de || dsup || dsm)
            fprintf(stderr, "itk %s %dx%d variance %g %g/%g %s: %s (%s), differ: %zu edges, %zu "
                    "suppressed, %zu smoothed\n", name, w, h, p->variance, p->high_threshold,
                    p->low_threshold, device ? "device" : "host", edgel_status_name(status),
                    edgel_last_error(), de, dsup, dsm);
        CHECK(de == 0 && dsup == 0 && dsm == 0);
        if (device) {
            cudaFree(ds.data), cudaFree(dg.data), cudaFree(dgs.data), cudaFree(dgg.data);
        }
    }
    memset(got8, 0x5A, n);
    CHECK(edgel_canny(gpu, p, src, &g8, NULL) == EDGEL_OK);
    size_t d8 = 0;
    for (size_t i = 0; i < n; i++)
        d8 += got8[i] != (ref[i] == 1.0f ? 255 : 0);
    CHECK(d8 == 0);
    free(ref), free(ref_sup), free(ref_smooth), free(got), free(got_sup), free(got_smooth), free(got8);
}

/* Gray u8 and float (with fractions) versions of photographs and crops of many sizes, every
 * variance class (none, small, the 32-pixel radius cap), thresholds equal, swapped, zero. */
static void test_itk(const edgel_image *photos, int n, int small)
{
    static const double variances[] = {0.0, 0.5, 1.0, 2.0, 4.7, 10.0, 50.0, 200.0};
    static const double th[][2] = {{30, 15}, {10, 5}, {0, 0}, {2, 8}, {5, 5}, {60, 20}};
    static const int sizes[][2] = {{1, 1},   {1, 9},     {9, 1},      {2, 3},      {31, 33},
                                   {64, 64}, {127, 129}, {481, 321},  {1000, 999}, {1920, 1080},
                                   {4096, 2160}};
    const int nsizes = small ? 5 : (int)(sizeof sizes / sizeof sizes[0]);
    int cases = 0;
    for (int i = 0; i < (small ? 1 : n) + nsizes; i++) {
        const int photo = i < n && !small ? i : 0;
        int w = photos[photo].width, h = photos[photo].height;
        if (i >= (small ? 1 : n)) {
            w = sizes[i - (small ? 1 : n)][0];
            h = sizes[i - (small ? 1 : n)][1];
        }
        void *mem;
        edgel_image frame = make_frame(&photos[photo], w, h, photos[photo].channels, &mem);
        uint8_t *gray = malloc((size_t)w * h);
        float *fl = malloc((size_t)w * h * 4);
        edgel_image g8 = edgel_image_host(gray, w, h, EDGEL_U8, 1);
        if (frame.channels > 1)
            CHECK(edgel_to_gray(cpu, EDGEL_GRAY_RGB, &frame, &g8) == EDGEL_OK);
        else
            memcpy(gray, frame.data, (size_t)w * h);
        for (size_t k = 0; k < (size_t)w * h; k++)
            fl[k] = gray[k] + (float)(next_random() % 1000) / 1000.0f;
        edgel_image g32 = edgel_image_host(fl, w, h, EDGEL_F32, 1);
        edgel_canny_params p;
        edgel_canny_params_default(&p);
        p.preset = EDGEL_PRESET_ITK;
        p.variance = variances[i % 8];
        p.high_threshold = th[i % 6][0];
        p.low_threshold = th[i % 6][1];
        compare_itk_case(&p, i % 2 ? &g8 : &g32, i < n ? "bsds" : "size");
        cases++;
        free(mem), free(gray), free(fl);
    }
    printf("itk preset: %d cases compared\n", cases);
}

/* ---- the skimage preset ------------------------------------------------------------------ */

static const char *const skimage_type_names[] = {"u8", "u16", "s16", "s32", "f32", "f64", "bool"};

/* CPU and GPU (host views, device views) must give the same edges and the same bits in all
 * five stages, with and without a mask. */
static void compare_skimage_case(const edgel_canny_params *p, const edgel_image *src,
                                 const edgel_image *mask, const char *name)
{
    const int w = src->width, h = src->height;
    const size_t n = (size_t)w * h;
    const edgel_pixel_type ft = src->type == EDGEL_F32 ? EDGEL_F32 : EDGEL_F64;
    const size_t fb = n * edgel_pixel_size(ft);
    uint8_t *ref = malloc(n), *got = malloc(n), *rs = malloc(5 * fb), *gs = malloc(5 * fb);
    edgel_image re = edgel_image_host(ref, w, h, EDGEL_BOOL, 1);
    edgel_image rv[5], gv[5];
    for (int k = 0; k < 5; k++) {
        rv[k] = edgel_image_host(rs + k * fb, w, h, ft, 1);
        gv[k] = edgel_image_host(gs + k * fb, w, h, ft, 1);
    }
    edgel_canny_stages rst = {NULL, &rv[0], &rv[1], &rv[2], &rv[3], &rv[4]};
    CHECK(edgel_canny_masked(cpu, p, src, mask, &re, &rst) == EDGEL_OK);
    for (int device = 0; device < 2; device++) {
        memset(got, 0x5A, n), memset(gs, 0x5A, 5 * fb);
        edgel_image ge = edgel_image_host(got, w, h, EDGEL_BOOL, 1);
        edgel_image ds = device ? device_copy(src) : *src, de = device ? device_copy(&ge) : ge;
        edgel_image dm = mask && device ? device_copy(mask) : mask ? *mask : ge, dv[5];
        for (int k = 0; k < 5; k++)
            dv[k] = device ? device_copy(&gv[k]) : gv[k];
        CUDA_CHECK(cudaDeviceSynchronize()); /* as in compare_itk_case */
        edgel_canny_stages gst = {NULL, &dv[0], &dv[1], &dv[2], &dv[3], &dv[4]};
        edgel_status status = edgel_canny_masked(gpu, p, &ds, mask ? &dm : NULL, &de, &gst);
        if (status == EDGEL_OK && device) {
            status = edgel_context_synchronize(gpu);
            device_download(&de, got);
            for (int k = 0; k < 5; k++)
                device_download(&dv[k], gs + k * fb);
        }
        size_t first, de_count = status == EDGEL_OK ? count_diff(ref, got, n, &first) : n;
        size_t ds_count = 0;
        for (int k = 0; k < 5 && status == EDGEL_OK; k++)
            ds_count += memcmp(rs + k * fb, gs + k * fb, fb) != 0;
        if (de_count || ds_count || status != EDGEL_OK)
            fprintf(stderr, "skimage %s %dx%d %s sigma %g mode %d q %d mask %d %s: %s (%s), "
                    "differ: %zu edges, %zu stages\n", name, w, h, skimage_type_names[src->type],
                    p->sigma, (int)p->mode, (int)p->use_quantiles, mask != NULL,
                    device ? "device" : "host", edgel_status_name(status), edgel_last_error(),
                    de_count, ds_count);
        CHECK(status == EDGEL_OK && de_count == 0 && ds_count == 0);
        if (device) {
            cudaFree(ds.data), cudaFree(de.data);
            if (mask)
                cudaFree(dm.data);
            for (int k = 0; k < 5; k++)
                cudaFree(dv[k].data);
        }
    }
    /* Without stages (and quantiles) the gradients never leave the chip: the same edges. */
    memset(got, 0x5A, n);
    edgel_image ge = edgel_image_host(got, w, h, EDGEL_BOOL, 1);
    const edgel_status status = edgel_canny_masked(gpu, p, src, mask, &ge, NULL);
    size_t first, de_count = status == EDGEL_OK ? count_diff(ref, got, n, &first) : n;
    if (de_count || status != EDGEL_OK)
        fprintf(stderr, "skimage %s %dx%d %s sigma %g mode %d q %d mask %d no stages: %s (%s), "
                "differ: %zu edges\n", name, w, h, skimage_type_names[src->type], p->sigma,
                (int)p->mode, (int)p->use_quantiles, mask != NULL, edgel_status_name(status),
                edgel_last_error(), de_count);
    CHECK(status == EDGEL_OK && de_count == 0);
    free(ref), free(got), free(rs), free(gs);
}

/* A gray u8 frame in the skimage preset's types: u8, u16 and s16/s32 scaled up, f32 and f64
 * in [0, 1] with fractions, bool of the upper half. */
static edgel_image skimage_input(const uint8_t *gray, int w, int h, edgel_pixel_type t, void **mem)
{
    const size_t n = (size_t)w * h;
    *mem = malloc(n * edgel_pixel_size(t));
    for (size_t i = 0; i < n; i++) {
        const double f = (gray[i] + (double)(next_random() % 1000) / 1000.0) / 256.0;
        switch (t) {
        case EDGEL_U8: ((uint8_t *)*mem)[i] = gray[i]; break;
        case EDGEL_BOOL: ((uint8_t *)*mem)[i] = gray[i] > 127; break;
        case EDGEL_U16: ((uint16_t *)*mem)[i] = (uint16_t)(gray[i] * 257); break;
        case EDGEL_S16: ((int16_t *)*mem)[i] = (int16_t)(gray[i] * 256 - 32768); break;
        case EDGEL_S32: ((int32_t *)*mem)[i] = (int32_t)(gray[i] * 8000000 - 1000000000); break;
        case EDGEL_F32: ((float *)*mem)[i] = (float)f; break;
        default: ((double *)*mem)[i] = f; break;
        }
    }
    return edgel_image_host(*mem, w, h, t, 1);
}

/* Photographs and crops of many sizes in every input type, every mode, sigmas from none to
 * wider than the image, absolute, default and quantile thresholds, with and without masks. */
static void test_skimage(const edgel_image *photos, int n, int small)
{
    static const edgel_pixel_type types[] = {EDGEL_U8, EDGEL_F32, EDGEL_F64, EDGEL_U16,
                                             EDGEL_S16, EDGEL_S32, EDGEL_BOOL};
    static const double sigmas[] = {1.0, 0.0, 0.5, 1.4, 2.0, 3.3, 7.0, 40.0};
    static const int sizes[][2] = {{1, 1},   {1, 9},     {9, 1},     {2, 3},      {31, 33},
                                   {64, 64}, {127, 129}, {481, 321}, {1000, 999}, {1920, 1080}};
    const int nsizes = small ? 5 : (int)(sizeof sizes / sizeof sizes[0]);
    const int nphotos = small ? 1 : (n < 40 ? n : 40);
    int cases = 0;
    for (int i = 0; i < nphotos + nsizes; i++) {
        const int photo = i < nphotos ? i % (n > 0 ? n : 1) : 0;
        int w = photos[photo].width, h = photos[photo].height;
        if (i >= nphotos)
            w = sizes[i - nphotos][0], h = sizes[i - nphotos][1];
        void *mem, *in_mem;
        edgel_image frame = make_frame(&photos[photo], w, h, photos[photo].channels, &mem);
        uint8_t *gray = malloc((size_t)w * h), *m = malloc((size_t)w * h);
        edgel_image g8 = edgel_image_host(gray, w, h, EDGEL_U8, 1);
        if (frame.channels > 1)
            CHECK(edgel_to_gray(cpu, EDGEL_GRAY_RGB, &frame, &g8) == EDGEL_OK);
        else
            memcpy(gray, frame.data, (size_t)w * h);
        for (size_t k = 0; k < (size_t)w * h; k++)
            m[k] = next_random() % 10 != 0;
        const edgel_image mask = edgel_image_host(m, w, h, EDGEL_BOOL, 1);
        const edgel_image src = skimage_input(gray, w, h, types[i % 7], &in_mem);
        edgel_canny_params p;
        edgel_canny_params_default(&p);
        p.preset = EDGEL_PRESET_SKIMAGE;
        p.sigma = sigmas[i % 8];
        p.mode = (edgel_border)(i % 5);
        p.cval = i % 3 ? 0.0 : 0.25;
        p.low_threshold = p.high_threshold = NAN;
        if (i % 4 == 1) {
            p.use_quantiles = 1;
            p.low_threshold = 0.6, p.high_threshold = 0.85;
        } else if (i % 4 == 2) {
            const double max = types[i % 7] == EDGEL_U8 ? 255 : 1;
            p.low_threshold = 0.03 * max, p.high_threshold = 0.09 * max;
        }
        compare_skimage_case(&p, &src, i % 3 == 2 ? &mask : NULL, i < nphotos ? "bsds" : "size");
        cases++;
        free(mem), free(in_mem), free(gray), free(m);
    }
    /* The shared-memory tiles' edges: every mode, kernels up to the tiles' longest (r 12,
     * sigma 3.0) and past it (r 13), frames smaller than a tile and than the kernel, tiles
     * cut by the frame's right and bottom sides. */
    static const double tile_sigmas[] = {0.5, 1.4, 3.0, 3.2};
    static const int tile_sizes[][2] = {{1, 1}, {5, 70}, {33, 31}, {100, 37}};
    for (int i = 0; i < 5 * 4 * 4; i++) {
        const int w = tile_sizes[i % 4][0], h = tile_sizes[i % 4][1];
        uint8_t *gray = malloc((size_t)w * h);
        for (size_t k = 0; k < (size_t)w * h; k++)
            gray[k] = (uint8_t)(next_random() % 256);
        void *in_mem;
        const edgel_image src = skimage_input(gray, w, h, i % 2 ? EDGEL_F32 : EDGEL_U8, &in_mem);
        edgel_canny_params p;
        edgel_canny_params_default(&p);
        p.preset = EDGEL_PRESET_SKIMAGE;
        p.sigma = tile_sigmas[(i / 4) % 4];
        p.mode = (edgel_border)(i / 16);
        p.cval = 0.25;
        p.low_threshold = p.high_threshold = NAN;
        compare_skimage_case(&p, &src, NULL, "tile");
        cases++;
        free(in_mem), free(gray);
    }
    printf("skimage preset: %d cases compared\n", cases);
}

/* ---- the convolution engine --------------------------------------------------------------- */

/* GPU (host and device views) against the CPU: direct and separable give the same floats
 * (the same fmaf order); the FFT within 1e-5 of the CPU's direct result, norm-wise. */
static void compare_filter_case(const edgel_filter_params *p, const edgel_image *src,
                                const edgel_image *kernel, edgel_pixel_type out_type)
{
    const int w = src->width, h = src->height, cn = src->channels;
    const size_t n = (size_t)w * h * cn, bytes = n * edgel_pixel_size(out_type);
    void *ref = malloc(bytes), *got = malloc(bytes);
    edgel_image er = edgel_image_host(ref, w, h, out_type, cn);
    edgel_image eg = edgel_image_host(got, w, h, out_type, cn);
    edgel_filter_params pd = *p;
    if (pd.method == EDGEL_CONV_FFT)
        pd.method = EDGEL_CONV_DIRECT;
    CHECK(edgel_filter2d(cpu, &pd, src, &er, kernel) == EDGEL_OK);
    /* An FFT's rounding error scales with the sums of |image| * |kernel|, not with the result,
     * which can cancel (a 1x1 frame with wrap gives pixel * sum of taps): FFT results are held
     * to 1e-5 of the norm of those sums. */
    float *scale = NULL;
    if (p->method == EDGEL_CONV_FFT && out_type == EDGEL_F32) {
        const size_t kn = (size_t)kernel->width * kernel->height;
        float *ak = malloc(kn * sizeof(float)), *as = malloc(n * sizeof(float));
        scale = malloc(n * sizeof(float));
        for (size_t i = 0; i < kn; i++)
            ak[i] = fabsf(((const float *)kernel->data)[i]);
        for (size_t i = 0; i < n; i++)
            as[i] = src->type == EDGEL_F32 ? fabsf(((const float *)src->data)[i])
                                           : (float)((const uint8_t *)src->data)[i];
        const edgel_image ai = edgel_image_host(as, w, h, EDGEL_F32, cn);
        const edgel_image ao = edgel_image_host(scale, w, h, EDGEL_F32, cn);
        const edgel_image aki = edgel_image_host(ak, kernel->width, kernel->height, EDGEL_F32, 1);
        edgel_filter_params pa = pd;
        pa.border_value = fabs(pa.border_value);
        CHECK(edgel_filter2d(cpu, &pa, &ai, &ao, &aki) == EDGEL_OK);
        free(ak), free(as);
    }
    for (int device = 0; device < 2; device++) {
        memset(got, 0x5A, bytes);
        edgel_image ds = device ? device_copy(src) : *src, dd = device ? device_copy(&eg) : eg;
        CUDA_CHECK(cudaDeviceSynchronize()); /* as in compare_itk_case */
        edgel_status st = edgel_filter2d(gpu, p, &ds, &dd, kernel);
        if (st == EDGEL_OK && device) {
            st = edgel_context_synchronize(gpu);
            device_download(&dd, got);
        }
        int ok = st == EDGEL_OK;
        if (ok && p->method != EDGEL_CONV_FFT) {
            ok = memcmp(ref, got, bytes) == 0;
        } else if (ok && out_type == EDGEL_F32) {
            double err = 0, norm = 0;
            for (size_t i = 0; i < n; i++) {
                const double d = (double)((float *)got)[i] - ((float *)ref)[i];
                err += d * d;
                norm += (double)((float *)scale)[i] * ((float *)scale)[i];
            }
            ok = sqrt(err) <= 1e-5 * sqrt(norm) + 1e-20;
        } else if (ok) {
            for (size_t i = 0; i < n && ok; i++)
                ok = abs((int)((uint8_t *)got)[i] - ((uint8_t *)ref)[i]) <= 1;
        }
        if (!ok)
            fprintf(stderr, "filter %dx%dx%d kernel %dx%d method %d border %d out %d %s: %s (%s)\n",
                    w, h, cn, (int)kernel->width, (int)kernel->height, (int)p->method,
                    (int)p->border, (int)out_type, device ? "device" : "host",
                    edgel_status_name(st), edgel_last_error());
        CHECK(ok);
        if (device)
            cudaFree(ds.data), cudaFree(dd.data);
    }
    free(ref), free(got), free(scale);
}

static void test_filter(const edgel_image *photo, int small)
{
    static const int sizes[][2] = {{1, 1}, {7, 5}, {33, 31}, {481, 321}, {1920, 1080}};
    static const int ks[][2] = {{1, 1}, {3, 3}, {4, 6}, {15, 15}, {29, 9}, {65, 65}, {129, 129}};
    int cases = 0;
    for (int s = 0; s < (small ? 3 : 5); s++)
        for (int q = 0; q < (small ? 4 : 7); q++) {
            const int w = sizes[s][0], h = sizes[s][1], kw = ks[q][0], kh = ks[q][1];
            void *mem;
            const int cn = (s + q) % 3 == 0 ? 3 : 1;
            edgel_image u8 = make_frame(photo, w, h, cn, &mem);
            float *f32 = malloc(sizeof(float) * (size_t)w * h * cn);
            for (size_t i = 0; i < (size_t)w * h * cn; i++)
                f32[i] = ((uint8_t *)u8.data)[i] + (float)(next_random() % 100) / 100.0f;
            edgel_image fi = edgel_image_host(f32, w, h, EDGEL_F32, cn);
            float *k = malloc(sizeof(float) * kw * kh);
            float kx[129], ky[129];
            for (int i = 0; i < kw; i++)
                kx[i] = (float)(next_random() % 2001) / 1000.0f - 1.0f;
            for (int j = 0; j < kh; j++)
                ky[j] = (float)(next_random() % 2001) / 1000.0f - 1.0f;
            for (int j = 0; j < kh; j++)
                for (int i = 0; i < kw; i++)
                    k[j * kw + i] = q % 2 ? ky[j] * kx[i] / (kw * kh)
                                          : (float)(next_random() % 2001) / 1000.0f - 1.0f;
            edgel_image ker = edgel_image_host(k, kw, kh, EDGEL_F32, 1);
            for (int m = EDGEL_CONV_DIRECT; m <= EDGEL_CONV_FFT; m++) {
                if (m == EDGEL_CONV_SEPARABLE && q % 2 == 0 && kw * kh > 1)
                    continue;
                if (m == EDGEL_CONV_DIRECT && w * h > 500000 && kw * kh > 1000)
                    continue; /* the CPU reference would take minutes */
                edgel_filter_params p;
                edgel_filter_params_default(&p);
                p.method = (edgel_conv_method)m;
                p.border = (edgel_border)((s + q + m) % 5);
                p.border_value = 3;
                compare_filter_case(&p, &fi, &ker, EDGEL_F32);
                compare_filter_case(&p, &u8, &ker, EDGEL_U8);
                cases += 2;
            }
            free(mem), free(f32), free(k);
        }
    printf("filter: %d cases compared\n", cases);
}

/* The FFT method with cuFFT's callbacks and with passes of its own (EDGEL_CUFFT_CALLBACKS=1
 * and 0, read when a plan is made), each against the CPU: tilings of one tile and of many,
 * every border, 1 and 3 channels, kernels up to 129 taps, and an image whose tiles take two
 * batches (over 2^26 grid values). */
static void test_fft_paths(const edgel_image *photo, int small)
{
    /* (1000 x 60 with 9 x 5 taps: two tiles a row, a power of two; 1100 x 700: three) */
    static const int sizes[][4] = {{1, 1, 1, 1},       {17, 300, 3, 29},     {300, 200, 29, 29},
                                   {1100, 700, 65, 9}, {700, 500, 129, 129}, {1000, 60, 9, 5}};
    static const char *paths[] = {"1", "0"};
    int cases = 0;
    for (int a = 0; a < 2; a++) {
        setenv("EDGEL_CUFFT_CALLBACKS", paths[a], 1);
        for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
            const int w = sizes[s][0], h = sizes[s][1], kw = sizes[s][2], kh = sizes[s][3];
            const int cn = s % 2 ? 3 : 1;
            void *mem;
            edgel_image u8 = make_frame(photo, w, h, cn, &mem);
            float *f32 = malloc(sizeof(float) * (size_t)w * h * cn);
            for (size_t i = 0; i < (size_t)w * h * cn; i++)
                f32[i] = ((uint8_t *)u8.data)[i] - 100.0f + (float)(next_random() % 100) / 50.0f;
            edgel_image fi = edgel_image_host(f32, w, h, EDGEL_F32, cn);
            float *k = malloc(sizeof(float) * kw * kh);
            for (int i = 0; i < kw * kh; i++)
                k[i] = (float)(next_random() % 2001) / 1000.0f - 1.0f;
            edgel_image ker = edgel_image_host(k, kw, kh, EDGEL_F32, 1);
            for (int border = 0; border < 5; border++) {
                edgel_filter_params p;
                edgel_filter_params_default(&p);
                p.method = EDGEL_CONV_FFT;
                p.border = (edgel_border)border;
                p.border_value = -7;
                p.anchor_x = (int)(next_random() % (unsigned)kw);
                p.anchor_y = (int)(next_random() % (unsigned)kh);
                compare_filter_case(&p, &fi, &ker, EDGEL_F32);
                compare_filter_case(&p, &u8, &ker, EDGEL_U8);
                cases += 2;
            }
            free(mem), free(f32), free(k);
        }
        if (!small) { /* 8200 x 8200 with 5 x 5 taps: 33 x 33 tiles of 256 x 256, two batches */
            void *mem;
            edgel_image u8 = make_frame(photo, 8200, 8200, 1, &mem);
            float k[25];
            for (int i = 0; i < 25; i++)
                k[i] = (float)(next_random() % 2001) / 10000.0f;
            edgel_image ker = edgel_image_host(k, 5, 5, EDGEL_F32, 1);
            edgel_filter_params p;
            edgel_filter_params_default(&p);
            p.method = EDGEL_CONV_FFT;
            compare_filter_case(&p, &u8, &ker, EDGEL_U8);
            cases++;
            free(mem);
        }
    }
    unsetenv("EDGEL_CUFFT_CALLBACKS");
    printf("fft paths: %d cases compared\n", cases);
}

/* 1-D factors of 256 in `n` non-negative steps (some zero), summing to 256. */
static void q8_factors(int n, float *k)
{
    int left = 256;
    for (int i = 0; i < n; i++) {
        const int q = i == n - 1 ? left : (int)(next_random() % (unsigned)(left / 2 + 1));
        k[i] = (float)q / 256.0f;
        left -= q;
    }
}

/* u8 kernels of factors in 1/256 steps run the fixed-point separable method (the one the
 * Canny blur runs): the GPU's bytes equal the CPU's, tile kernel (up to 17 taps a side) and
 * pass-by-pass kernels, every border, anchors, 1, 3 and 4 channels. */
static void test_fixed_filter(const edgel_image *photo, int small)
{
    static const int sizes[][2] = {{1, 1}, {5, 9}, {40, 33}, {481, 321}};
    static const int ks[][2] = {{3, 3}, {2, 7}, {17, 17}, {18, 5}, {41, 129}};
    int cases = 0;
    for (int s = 0; s < (small ? 3 : 4); s++)
        for (int q = 0; q < 5; q++)
            for (int cn = 1; cn <= 4; cn += cn == 1 ? 2 : 1) {
                const int w = sizes[s][0], h = sizes[s][1], kw = ks[q][0], kh = ks[q][1];
                void *mem;
                edgel_image u8 = make_frame(photo, w, h, cn, &mem);
                float kx[129], ky[129], *k = malloc(sizeof(float) * kw * kh);
                q8_factors(kw, kx);
                q8_factors(kh, ky);
                for (int j = 0; j < kh; j++)
                    for (int i = 0; i < kw; i++)
                        k[j * kw + i] = ky[j] * kx[i];
                edgel_image ker = edgel_image_host(k, kw, kh, EDGEL_F32, 1);
                edgel_filter_params p;
                edgel_filter_params_default(&p);
                p.border = (edgel_border)((s + q + cn) % 5);
                p.border_value = 200;
                p.anchor_x = (s + q) % kw;
                p.anchor_y = q % 2 ? -1 : kh - 1;
                uint8_t *o = malloc((size_t)w * h * cn);
                const edgel_image out = edgel_image_host(o, w, h, EDGEL_U8, cn);
                edgel_conv_method m = EDGEL_CONV_AUTO;
                CHECK(edgel_filter2d_method(gpu, &p, &u8, &out, &ker, &m) == EDGEL_OK &&
                      m == EDGEL_CONV_SEPARABLE);
                compare_filter_case(&p, &u8, &ker, EDGEL_U8);
                cases++;
                free(mem), free(k), free(o);
            }
    printf("fixed-point filter: %d cases compared\n", cases);
}

/* The one-channel streaming kernel of the fixed-point method (square kernels of 3 to 17 taps,
 * centred): sizes around its warps of 120 and 112 columns and its bands of 2 to 16 rows, every
 * border, device views with aligned rows and with an odd pitch at an odd address. */
static void test_fixed_stream(const edgel_image *photo, int small)
{
    /* (on a GPU of 132 SMs the last three take bands of 4, 8 and 16 rows, the others 2; up to
     * 2^20 pixels, symmetric column taps of up to nine take two pixels a lane, in warps of 56
     * or 60 columns, else four, of 112 or 120) */
    static const int sizes[][2] = {{2, 2},     {5, 9},       {119, 17},    {57, 40},
                                   {121, 33},  {61, 9},      {113, 3},     {241, 16},
                                   {169, 21},  {300, 70},    {1000, 37},   {1921, 1081},
                                   {3001, 1500}, {4001, 2300}};
    int cases = 0;
    for (int s = 0; s < (small ? 7 : 14); s++)
        for (int k = 3; k <= 17; k += 2) {
            const int w = sizes[s][0], h = sizes[s][1];
            void *mem;
            const edgel_image src = make_frame(photo, w, h, 1, &mem);
            float kx[17], ky[17], taps[17 * 17];
            q8_factors(k, kx);
            q8_factors(k, ky);
            if ((s + k / 2) % 2) { /* symmetric column taps (the kernel's other sums) */
                int side = 0;
                for (int j = 0; j < k / 2; j++) {
                    const int q = (int)(next_random() % (unsigned)(128 / (k / 2) + 1));
                    ky[j] = ky[k - 1 - j] = (float)q / 256.0f;
                    side += 2 * q;
                }
                ky[k / 2] = (float)(256 - side) / 256.0f;
            }
            for (int j = 0; j < k; j++)
                for (int i = 0; i < k; i++)
                    taps[j * k + i] = ky[j] * kx[i];
            const edgel_image ker = edgel_image_host(taps, k, k, EDGEL_F32, 1);
            edgel_filter_params p;
            edgel_filter_params_default(&p);
            p.border = (edgel_border)((s + k / 2) % 5);
            p.border_value = 200;
            uint8_t *want = malloc((size_t)w * h), *got = malloc((size_t)w * h);
            const edgel_image hw = edgel_image_host(want, w, h, EDGEL_U8, 1);
            CHECK(edgel_filter2d(cpu, &p, &src, &hw, &ker) == EDGEL_OK);
            for (int odd = 0; odd < 2; odd++) {
                const size_t pitch = odd ? (size_t)(w + 4) | 1u : ((size_t)w + 3) & ~(size_t)3;
                uint8_t *a, *b;
                CUDA_CHECK(cudaMalloc((void **)&a, pitch * h + 1));
                CUDA_CHECK(cudaMalloc((void **)&b, pitch * h + 1));
                edgel_image ds = {a + odd, w, h, pitch, EDGEL_U8, 1, EDGEL_MEMORY_DEVICE};
                edgel_image dd = ds;
                dd.data = b + odd;
                CUDA_CHECK(cudaMemcpy2D(ds.data, pitch, src.data, src.pitch, (size_t)w, h,
                                        cudaMemcpyHostToDevice));
                CUDA_CHECK(cudaMemset(b, 0x5A, pitch * h + 1));
                /* The context's stream does not wait for the legacy default stream: without
                 * this the poison could land after the kernel's output */
                CUDA_CHECK(cudaDeviceSynchronize());
                CHECK(edgel_filter2d(gpu, &p, &ds, &dd, &ker) == EDGEL_OK);
                CHECK(edgel_context_synchronize(gpu) == EDGEL_OK);
                device_download(&dd, got);
                size_t first;
                const size_t d = count_diff(want, got, (size_t)w * h, &first);
                if (d)
                    fprintf(stderr, "fixed stream %dx%d kernel %d border %d odd %d: %zu differ "
                            "(first at %zu)\n", w, h, k, (int)p.border, odd, d, first);
                CHECK(d == 0);
                cudaFree(a), cudaFree(b);
                cases++;
            }
            free(want), free(got), free(mem);
        }
    printf("fixed-point stream kernel: %d cases compared\n", cases);
}

/* The building blocks on device views equal the CPU's on host views: luma of RGB and RGBA
 * in both orders, and GaussianBlur of 1, 3 and 4 channels for sizes and sigmas from a 3-tap
 * kernel to one past the tile kernel's 17 taps; host views on a CUDA context run too. */
static void test_building_blocks(const edgel_image *photo, int small)
{
    static const int sizes[][2] = {{1, 1}, {7, 5}, {64, 48}, {333, 211}, {1920, 1080}};
    static const double sigmas[] = {0.8, 1.4, 3.0, 5.0};
    const int nsizes = small ? 4 : 5;
    for (int si = 0; si < nsizes; si++)
        for (int cn = 1; cn <= 4; cn++) {
            if (cn == 2)
                continue;
            const int w = sizes[si][0], h = sizes[si][1];
            void *mem;
            edgel_image src = make_frame(photo, w, h, cn, &mem);
            const size_t px = (size_t)w * h;
            uint8_t *want = malloc(px * cn), *got = malloc(px * cn);
            edgel_image dsrc = device_copy(&src);
            if (cn > 1)
                for (int order = EDGEL_GRAY_RGB; order <= EDGEL_GRAY_BGR; order++) {
                    edgel_image hg = edgel_image_host(want, w, h, EDGEL_U8, 1);
                    CHECK(edgel_to_gray(cpu, (edgel_gray)order, &src, &hg) == EDGEL_OK);
                    edgel_image dg = device_copy(&hg);
                    CHECK(edgel_to_gray(gpu, (edgel_gray)order, &dsrc, &dg) == EDGEL_OK);
                    CHECK(edgel_context_synchronize(gpu) == EDGEL_OK);
                    device_download(&dg, got);
                    size_t first;
                    CHECK(count_diff(want, got, px, &first) == 0);
                    edgel_image hg2 = edgel_image_host(got, w, h, EDGEL_U8, 1);
                    CHECK(edgel_to_gray(gpu, (edgel_gray)order, &src, &hg2) == EDGEL_OK);
                    CHECK(count_diff(want, got, px, &first) == 0); /* host views: the CPU's */
                    cudaFree(dg.data);
                }
            for (int k = 0; k < 4; k++) {
                edgel_image hb = edgel_image_host(want, w, h, EDGEL_U8, cn);
                CHECK(edgel_gaussian_blur(cpu, &src, &hb, 0, sigmas[k]) == EDGEL_OK);
                edgel_image db = device_copy(&hb);
                CHECK(edgel_gaussian_blur(gpu, &dsrc, &db, 0, sigmas[k]) == EDGEL_OK);
                CHECK(edgel_context_synchronize(gpu) == EDGEL_OK);
                device_download(&db, got);
                size_t first;
                const size_t d = count_diff(want, got, px * cn, &first);
                if (d)
                    fprintf(stderr, "blur %dx%dx%d sigma %g: %zu bytes differ\n", w, h, cn,
                            sigmas[k], d);
                CHECK(d == 0);
                cudaFree(db.data);
            }
            cudaFree(dsrc.data);
            free(want);
            free(got);
            free(mem);
        }
}

/* Tiled Canny on a CUDA context (each tile with its halo through the GPU) equals the CPU's
 * whole-image call, both presets. */
typedef struct tile_mem {
    const uint8_t *src;
    uint8_t *dst;
    int w, px;
} tile_mem;

static edgel_status tile_read(void *user, int64_t x, int64_t y, const edgel_image *d)
{
    const tile_mem *m = user;
    for (int r = 0; r < d->height; r++)
        memcpy((uint8_t *)d->data + (size_t)r * d->pitch,
               m->src + ((size_t)(y + r) * m->w + (size_t)x) * m->px, (size_t)d->width * m->px);
    return EDGEL_OK;
}

static edgel_status tile_write(void *user, int64_t x, int64_t y, const edgel_image *e)
{
    tile_mem *m = user;
    for (int r = 0; r < e->height; r++)
        memcpy(m->dst + (size_t)(y + r) * m->w + (size_t)x,
               (const uint8_t *)e->data + (size_t)r * e->pitch, (size_t)e->width);
    return EDGEL_OK;
}

static void test_tiled(const edgel_image *photo, int small)
{
    static const int sizes[][4] = {{300, 200, 64, 48}, {517, 333, 100, 7}, {1920, 1080, 512, 512}};
    for (int si = 0; si < (small ? 1 : 3); si++) /* small: few launches, for the sanitizers */
        for (int preset = 0; preset < 2; preset++) {
            const int w = sizes[si][0], h = sizes[si][1], cn = preset ? 1 : 3;
            void *mem;
            edgel_image src = make_frame(photo, w, h, cn, &mem);
            uint8_t *want = malloc((size_t)w * h), *got = malloc((size_t)w * h);
            edgel_canny_params p;
            edgel_canny_params_default(&p);
            if (preset) {
                p.preset = EDGEL_PRESET_ITK;
                p.variance = 2.0;
                p.high_threshold = 8;
                p.low_threshold = 3;
            } else {
                p.gray = EDGEL_GRAY_RGB;
                p.blur = EDGEL_BLUR_GAUSSIAN;
                p.blur_sigma = 1.4;
            }
            edgel_image d = edgel_image_host(want, w, h, EDGEL_U8, 1);
            CHECK(edgel_canny(cpu, &p, &src, &d, NULL) == EDGEL_OK);
            tile_mem m = {(const uint8_t *)src.data, got, w, cn};
            edgel_tile_io io = {w, h, cn, EDGEL_U8, tile_read, tile_write, &m};
            CHECK(edgel_canny_tiled(gpu, &p, &io, sizes[si][2], sizes[si][3]) == EDGEL_OK);
            size_t first;
            const size_t diff = count_diff(want, got, (size_t)w * h, &first);
            if (diff)
                fprintf(stderr, "tiled %dx%d preset %d on the GPU: %zu pixels differ\n", w, h,
                        preset, diff);
            CHECK(diff == 0);
            /* on views, in page-locked memory (copied by DMA) */
            uint8_t *pinned_src, *pinned_edges;
            const size_t bytes = (size_t)w * h * cn;
            CHECK(cudaHostAlloc((void **)&pinned_src, bytes, 0) == cudaSuccess &&
                  cudaHostAlloc((void **)&pinned_edges, (size_t)w * h, 0) == cudaSuccess);
            for (int y = 0; y < h; y++)
                memcpy(pinned_src + (size_t)y * w * cn, (uint8_t *)src.data + y * src.pitch,
                       (size_t)w * cn);
            edgel_image ps = edgel_image_host(pinned_src, w, h, EDGEL_U8, cn);
            edgel_image pe = edgel_image_host(pinned_edges, w, h, EDGEL_U8, 1);
            CHECK(edgel_canny_tiled_image(gpu, &p, &ps, &pe, sizes[si][2], sizes[si][3]) ==
                  EDGEL_OK);
            const size_t vdiff = count_diff(want, pinned_edges, (size_t)w * h, &first);
            if (vdiff)
                fprintf(stderr, "tiled views %dx%d preset %d on the GPU: %zu pixels differ\n", w,
                        h, preset, vdiff);
            CHECK(vdiff == 0);
            cudaFreeHost(pinned_src), cudaFreeHost(pinned_edges);
            free(want), free(got), free(mem);
        }
}

/* Sub-pixel curves on the GPU equal the CPU's (and so the reference program's), array for
 * array, from host and from device views: photographs, sizes from 1x1 (no points) up, every
 * input type (float images with NaN and infinities), blurs wider than the image. */
static int same_curves(edgel_curves *a, edgel_curves *b)
{
    edgel_curves_view u, v;
    edgel_curves_view_default(&u);
    edgel_curves_view_default(&v);
    if (edgel_curves_get(a, &u) != EDGEL_OK || edgel_curves_get(b, &v) != EDGEL_OK ||
        u.points != v.points || u.curves != v.curves)
        return 0;
    const size_t n = (size_t)u.points * sizeof(double);
    return !memcmp(u.x, v.x, n) && !memcmp(u.y, v.y, n) && !memcmp(u.gx, v.gx, n) &&
           !memcmp(u.gy, v.gy, n) && !memcmp(u.modulus, v.modulus, n) &&
           !memcmp(u.limits, v.limits, sizeof(int64_t) * (size_t)(u.curves + 1)) &&
           !memcmp(u.closed, v.closed, (size_t)u.curves);
}

/* A result left on the device (edgel_curves_set_place) equals `want` (a host result): its
 * view's device arrays read back, and edgel_curves_copy into device and into host arrays. */
static int same_on_device(edgel_curves *want, edgel_curves *on)
{
    edgel_curves_view u, v;
    edgel_curves_view_default(&u);
    edgel_curves_view_default(&v);
    if (edgel_curves_get(want, &u) != EDGEL_OK || edgel_curves_get(on, &v) != EDGEL_OK ||
        u.points != v.points || u.curves != v.curves || u.device != -1 || v.device < 0)
        return 0;
    const size_t n = (size_t)u.points, m = (size_t)u.curves;
    double *h = malloc(8 * (9 * n + 1)), *d = NULL; /* x, y, gx, gy, modulus; xy, gradient */
    int64_t *limits = malloc(8 * (m + 1));
    uint8_t *closed = malloc(m + 1), *dc = NULL;
    CHECK(h && limits && closed);
    CUDA_CHECK(cudaMalloc((void **)&d, 8 * (9 * n + m + 1) + m + 1));
    const double *from[5] = {v.x, v.y, v.gx, v.gy, v.modulus};
    const double *host[5] = {u.x, u.y, u.gx, u.gy, u.modulus};
    int same = 1;
    for (int a = 0; a < 5; a++) {
        CUDA_CHECK(cudaMemcpy(h, from[a], 8 * n, cudaMemcpyDeviceToHost));
        same &= !memcmp(h, host[a], 8 * n);
    }
    CUDA_CHECK(cudaMemcpy(limits, v.limits, 8 * (m + 1), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(closed, v.closed, m, cudaMemcpyDeviceToHost));
    same &= !memcmp(limits, u.limits, 8 * (m + 1)) && !memcmp(closed, u.closed, m);
    for (int into_device = 0; into_device < 2; into_device++) {
        memset(h, 0, 8 * 5 * n), memset(limits, 0xff, 8 * (m + 1)), memset(closed, 9, m);
        double *xy = into_device ? d : h, *grad = xy + 2 * n, *mod = xy + 4 * n;
        int64_t *lim = into_device ? (int64_t *)(d + 5 * n) : limits;
        dc = into_device ? (uint8_t *)(d + 5 * n + m + 1) : closed;
        CHECK(edgel_curves_copy(on, xy, grad, mod, lim, dc, 0) == EDGEL_OK);
        if (into_device) {
            CUDA_CHECK(cudaMemcpy(h, d, 8 * 5 * n, cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(limits, lim, 8 * (m + 1), cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(closed, dc, m, cudaMemcpyDeviceToHost));
        }
        same &= !memcmp(h + 4 * n, u.modulus, 8 * n) && !memcmp(limits, u.limits, 8 * (m + 1)) &&
                !memcmp(closed, u.closed, m);
        for (size_t i = 0; same && i < n; i++)
            same = h[2 * i] == u.x[i] && h[2 * i + 1] == u.y[i] && h[2 * n + 2 * i] == u.gx[i] &&
                   h[2 * n + 2 * i + 1] == u.gy[i];
    }
    CUDA_CHECK(cudaFree(d));
    free(h), free(limits), free(closed);
    return same;
}

static void compare_subpixel(const edgel_image *src, double sigma, double high, double low,
                             const char *what)
{
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    p.sigma = sigma, p.high = high, p.low = low;
    edgel_curves *want, *got;
    CHECK(edgel_curves_create(&want) == EDGEL_OK && edgel_curves_create(&got) == EDGEL_OK);
    CHECK(edgel_subpixel_edges(cpu, &p, src, want) == EDGEL_OK);
    CHECK(edgel_subpixel_edges(gpu, &p, src, got) == EDGEL_OK);
    int same = same_curves(want, got);
    edgel_image d = device_copy(src);
    CHECK(edgel_subpixel_edges(gpu, &p, &d, got) == EDGEL_OK);
    same &= same_curves(want, got);
    /* left on the device, from device and host views; a CPU context's stay on the host */
    edgel_curves *on;
    edgel_curves_view ov;
    edgel_curves_view_default(&ov);
    CHECK(edgel_curves_create(&on) == EDGEL_OK &&
          edgel_curves_set_place(on, EDGEL_CURVES_ON_DEVICE) == EDGEL_OK);
    CHECK(edgel_subpixel_edges(gpu, &p, &d, on) == EDGEL_OK);
    same &= same_on_device(want, on);
    CHECK(edgel_subpixel_edges(gpu, &p, src, on) == EDGEL_OK);
    same &= same_on_device(want, on);
    CHECK(edgel_subpixel_edges(cpu, &p, src, on) == EDGEL_OK);
    same &= same_curves(want, on) && edgel_curves_get(on, &ov) == EDGEL_OK && ov.device == -1;
    edgel_curves_destroy(on);
    if (!same) { /* what differs, and the input where EDGEL_TEST_DUMP_DIR names a folder */
        edgel_curves_view u, v;
        edgel_curves_view_default(&u);
        edgel_curves_view_default(&v);
        CHECK(edgel_subpixel_edges(gpu, &p, src, got) == EDGEL_OK);
        edgel_curves_get(want, &u);
        edgel_curves_get(got, &v);
        int64_t first = 0, grad = -1, curve = -1;
        while (first < u.points && first < v.points && u.x[first] == v.x[first] &&
               u.y[first] == v.y[first])
            first++;
        for (int64_t i = 0; grad < 0 && i < u.points && i < v.points; i++)
            if (memcmp(&u.gx[i], &v.gx[i], 8) || memcmp(&u.gy[i], &v.gy[i], 8) ||
                memcmp(&u.modulus[i], &v.modulus[i], 8))
                grad = i;
        for (int64_t k = 0; curve < 0 && k < u.curves && k < v.curves; k++)
            if (u.limits[k + 1] != v.limits[k + 1] || u.closed[k] != v.closed[k])
                curve = k;
        fprintf(stderr, "subpixel %s %dx%d type %d sigma %g: GPU differs: CPU %lld points, %lld "
                "curves; GPU %lld, %lld; first different position %lld, gradient %lld, curve "
                "%lld\n", what, src->width, src->height, (int)src->type, sigma,
                (long long)u.points, (long long)u.curves, (long long)v.points,
                (long long)v.curves, (long long)first, (long long)grad, (long long)curve);
        if (grad >= 0)
            fprintf(stderr, "  gradient %.17g %.17g %.17g against %.17g %.17g %.17g\n",
                    u.gx[grad], u.gy[grad], u.modulus[grad], v.gx[grad], v.gy[grad],
                    v.modulus[grad]);
        if (curve >= 0)
            fprintf(stderr, "  curve %lld: end %lld closed %d against %lld, %d\n",
                    (long long)curve, (long long)u.limits[curve + 1], u.closed[curve],
                    (long long)v.limits[curve + 1], v.closed[curve]);
        const char *dir = getenv("EDGEL_TEST_DUMP_DIR");
        char path[1024];
        snprintf(path, sizeof path, "%s/subpixel-%dx%d-type%d.raw", dir ? dir : ".",
                 src->width, src->height, (int)src->type);
        FILE *f = dir ? fopen(path, "wb") : NULL;
        for (int y = 0; f && y < src->height; y++)
            fwrite((const uint8_t *)src->data + (size_t)y * src->pitch, 1,
                   (size_t)src->width * edgel_pixel_size(src->type), f);
        if (f)
            fclose(f);
    }
    CHECK(same);
    CHECK(edgel_subpixel_edges(cpu, &p, &d, got) != EDGEL_OK); /* device views: GPU contexts */
    CUDA_CHECK(cudaFree(d.data));
    edgel_curves_destroy(want);
    edgel_curves_destroy(got);
}

static void test_subpixel(const edgel_image *photos, int n, int small)
{
    int compared = 0;
    for (int i = 0; i < (small ? 1 : n); i++) { /* the photographs, gray */
        const edgel_image *ph = &photos[i];
        uint8_t *g = malloc((size_t)ph->width * ph->height);
        edgel_image gray = edgel_image_host(g, ph->width, ph->height, EDGEL_U8, 1);
        if (ph->channels < 3) {
            free(g);
            continue;
        }
        CHECK(edgel_to_gray(cpu, EDGEL_GRAY_RGB, ph, &gray) == EDGEL_OK);
        compare_subpixel(&gray, i % 4 == 3 ? 2.0 : 1.0, i % 5 ? 15.0 : 0.0, 5.0, "photo");
        free(g);
        compared++;
    }
    static const int sizes[][2] = {{1, 1}, {4, 9}, {5, 5}, {6, 7}, {64, 48}, {333, 211},
                                   {1920, 1080}};
    const int nsizes = small ? 5 : 7;
    for (int si = 0; si < nsizes; si++) {
        const int w = sizes[si][0], h = sizes[si][1];
        void *mem;
        edgel_image g8 = make_frame(&photos[0], w, h, 1, &mem);
        uint16_t *g16 = malloc(sizeof(uint16_t) * (size_t)w * h);
        float *g32 = malloc(sizeof(float) * (size_t)w * h);
        double *g64 = malloc(sizeof(double) * (size_t)w * h);
        for (size_t k = 0; k < (size_t)w * h; k++) {
            const uint8_t v = ((const uint8_t *)mem)[k];
            g16[k] = (uint16_t)(v * 257 + (next_random() & 255));
            g32[k] = k % 97 == 13 ? NAN : k % 89 == 7 ? INFINITY : v * 0.37f;
            g64[k] = v + (double)(next_random() % 1000) / 1000.0;
        }
        const edgel_image types[] = {g8, edgel_image_host(g16, w, h, EDGEL_U16, 1),
                                     edgel_image_host(g32, w, h, EDGEL_F32, 1),
                                     edgel_image_host(g64, w, h, EDGEL_F64, 1)};
        for (int t = 0; t < 4; t++) {
            compare_subpixel(&types[t], 1.0, 10.0, 3.0, "size");
            compare_subpixel(&types[t], 0.0, 0.0, 0.0, "size, no blur");
            /* the host's chaining (low above high); negative thresholds (NaN moduli) */
            compare_subpixel(&types[t], 1.0, 3.0, 10.0, "size, low above high");
            compare_subpixel(&types[t], 0.0, -1.0, -5.0, "size, negative thresholds");
            compared += 4;
        }
        compare_subpixel(&g8, 40.0, 0.0, 0.0, "blur wider than the image");
        /* cells of exact values: junctions where links compete, ties everywhere */
        uint8_t *cells = malloc((size_t)w * h);
        for (size_t k = 0; k < (size_t)w * h; k++) {
            const int x = (int)(k % (size_t)w), y = (int)(k / (size_t)w);
            cells[k] = (uint8_t)(((x / 3) ^ (y / 4)) & 1 ? 200 : (x + y) % 5 ? 20 : 60);
        }
        const edgel_image ci = edgel_image_host(cells, w, h, EDGEL_U8, 1);
        compare_subpixel(&ci, 0.0, 0.0, 0.0, "cells, no blur");
        compare_subpixel(&ci, 1.0, 40.0, 10.0, "cells");
        compared += 2;
        free(mem), free(g16), free(g32), free(g64), free(cells);
    }
    /* A frame whose curves once differed between CPU and GPU on one machine (a photograph,
     * tiled, plus noise in thousandths): u8 whole parts, then u16 thousandths. */
    gzFile z = gzopen(EDGEL_TEST_DATA "/subpixel-333x211.planes.gz", "rb");
    if (z) {
        enum { FW = 333, FH = 211 };
        uint8_t *whole = malloc(FW * FH);
        uint16_t *th = malloc(sizeof(uint16_t) * FW * FH);
        double *frame = malloc(sizeof(double) * FW * FH);
        const int ok = gzread(z, whole, FW * FH) == FW * FH &&
                       gzread(z, th, 2 * FW * FH) == 2 * FW * FH;
        gzclose(z);
        CHECK(ok);
        for (int i = 0; ok && i < FW * FH; i++)
            frame[i] = whole[i] + (double)th[i] / 1000.0;
        const edgel_image fi = edgel_image_host(frame, FW, FH, EDGEL_F64, 1);
        if (ok)
            compare_subpixel(&fi, 1.0, 10.0, 3.0, "kept frame");
        free(whole), free(th), free(frame);
        compared++;
    }
    printf("subpixel: %d images compared\n", compared);
}

/* Batches on the GPU: photographs (host and device views, curves on the host and left on the
 * device, one frame chained on the host for low above high, a frame too small for points),
 * more frames than lanes: each frame's curves the CPU's single call's. */
static void test_subpixel_batch(const edgel_image *photos, int n, int small)
{
    enum { MAX = 24 };
    const int count = small ? 6 : MAX;
    edgel_image srcs[MAX], views[MAX];
    edgel_curves *curves[MAX];
    uint8_t *grays[MAX] = {0};
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    p.sigma = 1.0, p.high = 15.0, p.low = 5.0;
    for (int i = 0; i < count; i++) {
        const edgel_image *ph = &photos[i % (n > 0 ? n : 1)]; /* (n 0: photos[0] made up) */
        const int w = i == 5 ? 4 : ph->width, h = i == 5 ? 4 : ph->height;
        grays[i] = malloc((size_t)ph->width * ph->height);
        srcs[i] = edgel_image_host(grays[i], ph->width, ph->height, EDGEL_U8, 1);
        if (ph->channels >= 3)
            CHECK(edgel_to_gray(cpu, EDGEL_GRAY_RGB, ph, &srcs[i]) == EDGEL_OK);
        else
            for (int y = 0; y < ph->height; y++)
                for (int x = 0; x < ph->width; x++)
                    grays[i][(size_t)y * ph->width + x] =
                        ((const uint8_t *)ph->data)[(size_t)y * ph->pitch + x * ph->channels];
        srcs[i].width = w, srcs[i].height = h;
        views[i] = i % 3 == 1 ? device_copy(&srcs[i]) : srcs[i];
        CHECK(edgel_curves_create(&curves[i]) == EDGEL_OK);
        if (i % 2)
            CHECK(edgel_curves_set_place(curves[i], EDGEL_CURVES_ON_DEVICE) == EDGEL_OK);
    }
    int same = 1;
    for (int round = 0; round < 2; round++) { /* the lanes made, then reused */
        edgel_subpixel_params q = p;
        if (round)
            q.low = 30.0; /* above high: the chains on the host */
        CHECK(edgel_subpixel_edges_batch(gpu, &q, views, curves, count) == EDGEL_OK);
        edgel_curves *want;
        CHECK(edgel_curves_create(&want) == EDGEL_OK);
        for (int i = 0; i < count; i++) {
            CHECK(edgel_subpixel_edges(cpu, &q, &srcs[i], want) == EDGEL_OK);
            const int ok = i % 2 ? same_on_device(want, curves[i]) : same_curves(want, curves[i]);
            if (!ok)
                fprintf(stderr, "subpixel batch: frame %d (round %d) differs from the CPU's\n",
                        i, round);
            same &= ok;
        }
        edgel_curves_destroy(want);
    }
    CHECK(same);
    for (int i = 0; i < count; i++) {
        if (views[i].memory == EDGEL_MEMORY_DEVICE)
            CUDA_CHECK(cudaFree(views[i].data));
        edgel_curves_destroy(curves[i]);
        free(grays[i]);
    }
    printf("subpixel batch: %d frames compared\n", 2 * count);
}

/* ITK's Canny on volumes: the GPU's edges and stages equal the CPU's (and so ITK's) from
 * host and device views, u8, u16 and f32, sizes from 1x1x1 and slabs one voxel thick, with
 * anisotropic variances and spacings, the 32-voxel radius cap and thresholds upper < lower. */
static int compare_volume(const edgel_volume *src, const edgel_volume_canny_params *p,
                          edgel_pixel_type edge_type)
{
    const int w = src->width, h = src->height, d = src->depth;
    const size_t n = (size_t)w * h * d, item = edgel_pixel_size(edge_type);
    uint8_t *want = malloc(n * item), *got = malloc(n * item);
    float *sw = malloc(n * 4), *sg = malloc(n * 4), *gw = malloc(n * 4), *gg = malloc(n * 4);
    edgel_volume ew = edgel_volume_host(want, w, h, d, edge_type);
    edgel_volume eg = edgel_volume_host(got, w, h, d, edge_type);
    edgel_volume vsw = edgel_volume_host(sw, w, h, d, EDGEL_F32);
    edgel_volume vsg = edgel_volume_host(sg, w, h, d, EDGEL_F32);
    edgel_volume vgw = edgel_volume_host(gw, w, h, d, EDGEL_F32);
    edgel_volume vgg = edgel_volume_host(gg, w, h, d, EDGEL_F32);
    const edgel_volume_canny_stages stw = {&vgw, &vsw}, stg = {&vgg, &vsg};
    CHECK(edgel_canny_volume(cpu, p, src, &ew, &stw) == EDGEL_OK);
    int same = 1;
    /* host views on the GPU */
    memset(got, 0x33, n * item);
    CHECK(edgel_canny_volume(gpu, p, src, &eg, &stg) == EDGEL_OK);
    same &= !memcmp(want, got, n * item) && !memcmp(sw, sg, n * 4) && !memcmp(gw, gg, n * 4);
    /* device views, pitched */
    const size_t in_item = edgel_pixel_size(src->type);
    edgel_volume ds = *src, de = eg, dsup = vsg;
    ds.pitch = w * in_item + 64, ds.slice_pitch = ds.pitch * h + 128;
    de.pitch = w * item + 32, de.slice_pitch = de.pitch * h;
    dsup.pitch = w * 4 + 16, dsup.slice_pitch = dsup.pitch * h + 16;
    CUDA_CHECK(cudaMalloc(&ds.data, ds.slice_pitch * d));
    CUDA_CHECK(cudaMalloc(&de.data, de.slice_pitch * d));
    CUDA_CHECK(cudaMalloc(&dsup.data, dsup.slice_pitch * d));
    for (int z = 0; z < d; z++)
        CUDA_CHECK(cudaMemcpy2D((uint8_t *)ds.data + z * ds.slice_pitch, ds.pitch,
                                (const uint8_t *)src->data + z * src->slice_pitch, src->pitch,
                                w * in_item, h, cudaMemcpyHostToDevice));
    ds.memory = de.memory = dsup.memory = EDGEL_MEMORY_DEVICE;
    const edgel_volume_canny_stages std = {NULL, &dsup};
    CHECK(edgel_canny_volume(gpu, p, &ds, &de, &std) == EDGEL_OK);
    for (int z = 0; z < d; z++) {
        CUDA_CHECK(cudaMemcpy2D(got + z * (size_t)w * h * item, w * item,
                                (uint8_t *)de.data + z * de.slice_pitch, de.pitch, w * item, h,
                                cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy2D(sg + z * (size_t)w * h, w * 4,
                                (uint8_t *)dsup.data + z * dsup.slice_pitch, dsup.pitch, w * 4,
                                h, cudaMemcpyDeviceToHost));
    }
    same &= !memcmp(want, got, n * item) && !memcmp(sw, sg, n * 4);
    CHECK(edgel_canny_volume(cpu, p, &ds, &de, NULL) != EDGEL_OK); /* device: GPU contexts */
    CUDA_CHECK(cudaFree(ds.data));
    CUDA_CHECK(cudaFree(de.data));
    CUDA_CHECK(cudaFree(dsup.data));
    if (!same)
        fprintf(stderr, "volume %dx%dx%d type %d variance %g/%g/%g: GPU differs\n", w, h, d,
                (int)src->type, p->variance[0], p->variance[1], p->variance[2]);
    CHECK(same);
    free(want), free(got), free(sw), free(sg), free(gw), free(gg);
    return same;
}

/* Bricks on the GPU (edgel_canny_volume_bricks on a CUDA context) equal the CPU's whole
 * volume: boxes read from a packed host volume, edges assembled. */
typedef struct packed_volume {
    const uint8_t *voxels;
    uint8_t *edges;
    int w, h, item;
} packed_volume;

static edgel_status read_packed(void *user, int64_t x, int64_t y, int64_t z, const edgel_volume *v)
{
    const packed_volume *s = user;
    for (int k = 0; k < v->depth; k++)
        for (int j = 0; j < v->height; j++)
            memcpy((uint8_t *)v->data + k * v->slice_pitch + j * v->pitch,
                   s->voxels + (((z + k) * s->h + y + j) * s->w + x) * s->item,
                   (size_t)v->width * s->item);
    return EDGEL_OK;
}

static edgel_status write_packed(void *user, int64_t x, int64_t y, int64_t z,
                                 const edgel_volume *e)
{
    packed_volume *s = user;
    for (int k = 0; k < e->depth; k++)
        for (int j = 0; j < e->height; j++)
            memcpy(s->edges + ((z + k) * s->h + y + j) * s->w + x,
                   (const uint8_t *)e->data + k * e->slice_pitch + j * e->pitch,
                   (size_t)e->width);
    return EDGEL_OK;
}

static void compare_volume_bricks(const edgel_volume *src, const edgel_volume_canny_params *p)
{
    const int w = src->width, h = src->height, d = src->depth;
    const size_t n = (size_t)w * h * d;
    uint8_t *want = malloc(n), *got = calloc(n, 1);
    const edgel_volume whole = edgel_volume_host(want, w, h, d, EDGEL_U8);
    CHECK(edgel_canny_volume(cpu, p, src, &whole, NULL) == EDGEL_OK);
    packed_volume s = {(const uint8_t *)src->data, got, w, h, (int)edgel_pixel_size(src->type)};
    const edgel_brick_io io = {w, h, d, src->type, read_packed, write_packed, &s};
    CHECK(edgel_canny_volume_bricks(gpu, p, &io, (w + 2) / 3, (h + 1) / 2, (d + 3) / 4) ==
          EDGEL_OK);
    CHECK(!memcmp(want, got, n));
    free(want), free(got);
}

static void test_volumes(int small)
{
    static const int sizes[][3] = {{1, 1, 1}, {7, 1, 1}, {1, 9, 1}, {1, 1, 6}, {13, 11, 1},
                                   {1, 12, 10}, {9, 1, 14}, {31, 29, 17}, {64, 48, 40},
                                   {130, 97, 61}};
    const int nsizes = small ? 5 : 10;
    int compared = 0;
    for (int si = 0; si < nsizes; si++) {
        const int w = sizes[si][0], h = sizes[si][1], d = sizes[si][2];
        const size_t n = (size_t)w * h * d;
        float *f = malloc(n * 4);
        uint16_t *u16 = malloc(n * 2);
        uint8_t *u8 = malloc(n);
        for (size_t i = 0; i < n; i++) {
            const int x = (int)(i % w), y = (int)(i / w % h), z = (int)(i / ((size_t)w * h));
            const double r = sqrt((x - w / 2.0) * (x - w / 2.0) + (y - h / 2.0) * (y - h / 2.0) +
                                  (z - d / 2.0) * (z - d / 2.0));
            u8[i] = (uint8_t)((r < w / 3.0 ? 160 : 60) + next_random() % 40);
            u16[i] = (uint16_t)(u8[i] * 200 + next_random() % 500);
            f[i] = u8[i] * 0.7f + (float)(next_random() % 100) / 10.0f;
        }
        const edgel_volume srcs[3] = {edgel_volume_host(u8, w, h, d, EDGEL_U8),
                                      edgel_volume_host(u16, w, h, d, EDGEL_U16),
                                      edgel_volume_host(f, w, h, d, EDGEL_F32)};
        for (int t = 0; t < 3; t++) {
            edgel_volume_canny_params p;
            edgel_volume_canny_params_default(&p);
            const double scale = t == 1 ? 200.0 : 1.0;
            p.variance[0] = 2.0, p.variance[1] = 1.0 + t, p.variance[2] = t == 2 ? 150.0 : 3.0;
            p.spacing[2] = t == 0 ? 2.5 : 1.0, p.spacing[0] = t == 1 ? 0.7 : 1.0;
            p.maximum_error[1] = t == 1 ? 0.001 : 0.01;
            p.upper_threshold = (t == 2 ? 4.0 : 12.0) * scale;
            p.lower_threshold = (t == 2 ? 9.0 : 5.0) * scale; /* upper < lower for f32 */
            compare_volume(&srcs[t], &p, t == 1 ? EDGEL_F32 : EDGEL_U8);
            if (n > 1000)
                compare_volume_bricks(&srcs[t], &p);
            compared++;
        }
        free(f), free(u16), free(u8);
    }
    printf("volumes: %d volumes compared\n", compared);
}

int main(int argc, char **argv)
{
    int small = 0;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small"))
            small = 1;
        else
            dir = argv[i];
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("test_gpu: no CUDA device, skipped\n");
        return 77;
    }
    edgel_context_options o;
    edgel_context_options_default(&o);
    if (edgel_context_create(EDGEL_BACKEND_CPU, &o, &cpu) != EDGEL_OK ||
        edgel_context_create(EDGEL_BACKEND_CUDA, &o, &gpu) != EDGEL_OK ||
        edgel_context_create(EDGEL_BACKEND_CUDA, &o, &gpu2) != EDGEL_OK) {
        fprintf(stderr, "test_gpu: contexts: %s\n", edgel_last_error());
        return 1;
    }
    edgel_backend b;
    edgel_context *autoctx;
    CHECK(edgel_context_create(EDGEL_BACKEND_AUTO, NULL, &autoctx) == EDGEL_OK);
    CHECK(edgel_context_backend(autoctx, &b) == EDGEL_OK && b == EDGEL_BACKEND_CUDA);
    edgel_context_destroy(autoctx);

    enum { MAX_PHOTOS = 500 };
    edgel_image *photos = calloc(MAX_PHOTOS, sizeof *photos);
    int n = dir ? load_photos(dir, photos, small ? 2 : MAX_PHOTOS) : 0;
    uint8_t fallback[64 * 48 * 3];
    if (n == 0) { /* no photographs given: a smooth synthetic frame */
        for (int i = 0; i < 64 * 48 * 3; i++)
            fallback[i] = (uint8_t)((i / 3 % 64) * 3 + (i / 192) * 2 + (next_random() & 7));
        photos[0] = edgel_image_host(fallback, 64, 48, EDGEL_U8, 3);
    }
    if (n > 0)
        test_photos(photos, n);
    test_sizes(&photos[0], small);
    test_blurred_sizes(&photos[0], small);
    test_hysteresis_paths(small);
    test_stages(&photos[0]);
    test_gradients(&photos[0]);
    test_batches_and_streams(&photos[0], small);
    test_mixed_batches(&photos[0], small);
    test_itk(photos, n, small);
    test_skimage(photos, n, small);
    test_filter(&photos[0], small);
    test_fft_paths(&photos[0], small);
    test_fixed_filter(&photos[0], small);
    test_fixed_stream(&photos[0], small);
    test_building_blocks(&photos[0], small);
    test_tiled(&photos[0], small);
    test_subpixel(photos, n, small);
    test_subpixel_batch(photos, n, small);
    test_volumes(small);
    for (int i = 0; i < n; i++)
        edgel_io_free(&photos[i]);
    free(photos);
    edgel_context_destroy(cpu);
    edgel_context_destroy(gpu);
    edgel_context_destroy(gpu2);
    return check_summary("test_gpu");
}
