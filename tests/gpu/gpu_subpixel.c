/* GPU suite: sub-pixel curves, single and batched, on the GPU equal to the CPU's point for
 * point. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"
#include "../test_random.h"
#include <zlib.h>

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

void test_subpixel(const edgel_image *photos, int n, int small)
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
void test_subpixel_batch(const edgel_image *photos, int n, int small)
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
