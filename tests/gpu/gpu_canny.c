/* GPU suite: the opencv preset on photographs, sizes, blurs, hysteresis paths, stages,
 * gradients, batches and streams: the CUDA backend gives the CPU backend's bytes. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"
#include "../test_random.h"

void test_photos(edgel_image *photos, int n)
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
void test_sizes(const edgel_image *photo, int small)
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
void test_blurred_sizes(const edgel_image *photo, int small)
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

void test_hysteresis_paths(int small)
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

void test_stages(const edgel_image *photo)
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

void test_gradients(const edgel_image *photo)
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
void test_batches_and_streams(const edgel_image *photo, int small)
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
void test_mixed_batches(const edgel_image *photo, int small)
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
