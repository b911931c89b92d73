/*
 * Canny of images past the whole-image limits, from page-locked host memory to page-locked
 * host memory through one GPU (edgel_canny on host views, which goes tiled), against the
 * PCIe floor measured in the same run: each pixel crosses once each way, so the floor is the
 * slower direction's copy of the image (the two directions overlap).
 *
 *   bench_tiled PHOTO WIDTHxHEIGHT [runs] [TWxTH] [check WxH]
 *
 * PHOTO (gray) is mirrored and repeated into the image, with a row of noise (as
 * tests/large_image_check.py). TWxTH: edgel_canny_tiled_image's tiles instead of
 * edgel_canny's choice (0: its choice). Then 2D copies of 256 MiB with rows of 2 KiB to
 * 64 KiB, the rows of the image apart, as the tiles' regions are copied. `check WxH`: first, a WxH image through the GPU and the CPU (all
 * cores), compared byte for byte. Prints a markdown table; wall-clock medians after one
 * warm-up run. BENCH_PAGEABLE=1: the image and its edges in pageable memory (malloc, as a
 * NumPy array's) instead of page-locked.
 */
#include <string.h>

#include "bench_util.h"
#include "io/image_io.h"

static void mosaic(const edgel_image *photo, uint8_t *dst, size_t w, size_t h)
{
    const size_t pw = (size_t)photo->width, ph = (size_t)photo->height;
#pragma omp parallel for schedule(static)
    for (long long y = 0; y < (long long)h; y++) {
        const size_t py = (size_t)y / ph % 2 ? ph - 1 - (size_t)y % ph : (size_t)y % ph;
        const uint8_t *row = (const uint8_t *)photo->data + py * photo->pitch;
        uint8_t *out = dst + (size_t)y * w;
        for (size_t x = 0; x < w; x++) {
            const size_t px = x / pw % 2 ? pw - 1 - x % pw : x % pw;
            out[x] = (uint8_t)(row[px] + (uint8_t)((x * 2654435761u) >> 29));
        }
    }
}

static int tile_w, tile_h; /* 0: edgel_canny's choice */

static edgel_status run(edgel_context *ctx, const edgel_canny_params *p, const edgel_image *s,
                        const edgel_image *d)
{
    return tile_w ? edgel_canny_tiled_image(ctx, p, s, d, tile_w, tile_h)
                  : edgel_canny(ctx, p, s, d, NULL);
}

/* GB/s of 2D copies of `cols` x `rows` bytes out of rows `pitch` apart, each way. */
static void copy_2d(uint8_t *host, size_t pitch, int cols, int rows, double *up, double *down)
{
    uint8_t *dev;
    CK(cudaMalloc(&dev, (size_t)cols * rows));
    double t[2];
    for (int dir = 0; dir < 2; dir++) {
        std::vector<double> v;
        for (int i = 0; i < 5; i++) {
            const double t0 = now_ms();
            if (dir == 0)
                CK(cudaMemcpy2D(dev, cols, host, pitch, cols, rows, cudaMemcpyHostToDevice));
            else
                CK(cudaMemcpy2D(host, pitch, dev, cols, cols, rows, cudaMemcpyDeviceToHost));
            v.push_back(now_ms() - t0);
        }
        t[dir] = median(v);
    }
    *up = (double)cols * rows / t[0] / 1e6;
    *down = (double)cols * rows / t[1] / 1e6;
    cudaFree(dev);
}

__global__ static void busy(uint32_t *out, long long cycles)
{
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = (uint32_t)t0;
}

/* Whether copies of `cols` x `rows` out of rows `pitch` apart overlap each other and a kernel:
 * each alone, then all three at once on three streams (ms). */
static void overlap(uint8_t *host_in, uint8_t *host_out, size_t pitch, int cols, int rows)
{
    uint8_t *din, *dout;
    uint32_t *scratch;
    CK(cudaMalloc(&din, (size_t)cols * rows));
    CK(cudaMalloc(&dout, (size_t)cols * rows));
    CK(cudaMalloc(&scratch, 4096 * 4));
    cudaStream_t st[3];
    for (auto &x : st)
        CK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
    auto up = [&] { CK(cudaMemcpy2DAsync(din, cols, host_in, pitch, cols, rows, cudaMemcpyHostToDevice, st[0])); };
    auto down = [&] { CK(cudaMemcpy2DAsync(host_out, pitch, dout, cols, cols, rows, cudaMemcpyDeviceToHost, st[1])); };
    auto work = [&] { busy<<<132 * 4, 256, 0, st[2]>>>(scratch, 2000000); };
    auto timed = [&](auto f) {
        CK(cudaDeviceSynchronize());
        const double t0 = now_ms();
        f();
        CK(cudaDeviceSynchronize());
        return now_ms() - t0;
    };
    timed([&] { work(); });
    const double u = timed(up), d = timed(down), k = timed(work);
    const double all = timed([&] { up(); down(); work(); });
    const double issue = timed([&] { const double t0 = now_ms(); up(); down(); work();
                                     printf("| issue of the three | %.2f ms |\n", now_ms() - t0); });
    (void)issue;
    printf("| %d x %d, rows %zu apart: up %.2f, down %.2f, kernel %.2f, all three at once %.2f ms |\n",
           cols, rows, pitch, u, d, k, all);
    for (auto &x : st)
        cudaStreamDestroy(x);
    cudaFree(din), cudaFree(dout), cudaFree(scratch);
}

static int check(edgel_context *gpu, edgel_context *cpu, const edgel_image *photo,
                 const edgel_canny_params *p, int w, int h)
{
    const size_t n = (size_t)w * h;
    uint8_t *src, *a, *b = (uint8_t *)malloc(n);
    CK(cudaHostAlloc((void **)&src, n, 0));
    CK(cudaHostAlloc((void **)&a, n, 0));
    mosaic(photo, src, (size_t)w, (size_t)h);
    const edgel_image s = edgel_image_host(src, w, h, EDGEL_U8, 1);
    const edgel_image da = edgel_image_host(a, w, h, EDGEL_U8, 1), db = edgel_image_host(b, w, h, EDGEL_U8, 1);
    double t0 = now_ms();
    EK(run(gpu, p, &s, &da));
    double t1 = now_ms();
    EK(run(cpu, p, &s, &db));
    double t2 = now_ms();
    size_t diff = 0, edges = 0;
    for (size_t i = 0; i < n; i++) {
        diff += a[i] != b[i];
        edges += a[i] != 0;
    }
    printf("check %dx%d: GPU %.0f ms, CPU (all cores) %.0f ms, %zu edge pixels, %zu differ\n\n", w,
           h, t1 - t0, t2 - t1, edges, diff);
    cudaFreeHost(src), cudaFreeHost(a), free(b);
    return diff == 0;
}

int main(int argc, char **argv)
{
    int w = 0, h = 0, cw = 0, ch = 0;
    if (argc < 3 || sscanf(argv[2], "%dx%d", &w, &h) != 2) {
        fprintf(stderr, "usage: bench_tiled PHOTO WIDTHxHEIGHT [runs] [TWxTH] [check WxH]\n");
        return 2;
    }
    const int runs = argc > 3 ? atoi(argv[3]) : 3;
    if (argc > 4 && strcmp(argv[4], "0") && sscanf(argv[4], "%dx%d", &tile_w, &tile_h) != 2)
        return 2;
    if (argc > 6 && !strcmp(argv[5], "check") && sscanf(argv[6], "%dx%d", &cw, &ch) != 2)
        return 2;
    edgel_context *cpu, *gpu;
    EK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &cpu));
    EK(edgel_context_create(EDGEL_BACKEND_CUDA, NULL, &gpu));
    std::vector<uint8_t> gray;
    const edgel_image photo = read_gray_photo(argv[1], cpu, gray);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.blur = EDGEL_BLUR_GAUSSIAN; /* as tests/large_image_check.py: GaussianBlur 5x5 1.4, Canny 50/150 */
    p.blur_ksize = 5;
    p.blur_sigma = 1.4;
    if (cw && !check(gpu, cpu, &photo, &p, cw, ch))
        return 1;

    const size_t n = (size_t)w * h;
    const char *env = getenv("BENCH_PAGEABLE");
    const bool pageable = env && !strcmp(env, "1");
    uint8_t *src, *dst;
    if (pageable) {
        src = (uint8_t *)malloc(n);
        dst = (uint8_t *)malloc(n);
        if (!src || !dst)
            return 1;
        memset(dst, 0, n); /* its pages there before the timing */
    } else {
        CK(cudaHostAlloc((void **)&src, n, 0));
        CK(cudaHostAlloc((void **)&dst, n, 0));
    }
    mosaic(&photo, src, (size_t)w, (size_t)h);
    /* the floor: the whole image up, and down, in 1 GiB pieces */
    const size_t piece = n < (1u << 30) ? n : (1u << 30);
    uint8_t *dev;
    CK(cudaMalloc(&dev, piece));
    double up = now_ms();
    for (size_t at = 0; at < n; at += piece)
        CK(cudaMemcpy(dev, src + at, n - at < piece ? n - at : piece, cudaMemcpyHostToDevice));
    up = now_ms() - up;
    double down = now_ms();
    for (size_t at = 0; at < n; at += piece)
        CK(cudaMemcpy(dst + at, dev, n - at < piece ? n - at : piece, cudaMemcpyDeviceToHost));
    down = now_ms() - down;
    cudaFree(dev);

    const edgel_image s = edgel_image_host(src, w, h, EDGEL_U8, 1);
    const edgel_image d = edgel_image_host(dst, w, h, EDGEL_U8, 1);
    EK(run(gpu, &p, &s, &d)); /* warm-up */
    std::vector<double> t;
    for (int i = 0; i < runs; i++) {
        const double t0 = now_ms();
        EK(run(gpu, &p, &s, &d));
        t.push_back(now_ms() - t0);
    }
    size_t edges = 0;
    for (size_t i = 0; i < n; i++)
        edges += dst[i] != 0;
    const double ms = median(t), floor = up > down ? up : down;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("| device | image | tiles | edgel (median of %d) | Gpx/s | PCIe up, down | floor | edge pixels |\n", runs);
    printf("|---|---|---|---:|---:|---:|---:|---:|\n");
    printf("| %s | %dx%d (%.2f Gpx) | %s | %.0f ms | %.1f | %.1f, %.1f GB/s | %.0f ms (%.1f Gpx/s) | %zu |\n",
           prop.name, w, h, n / 1e9, tile_w ? argv[4] : pageable ? "edgel_canny's, pageable" : "edgel_canny's", ms, n / ms / 1e6,
           n / up / 1e6, n / down / 1e6, floor, n / floor / 1e6, edges);
    printf("\n");
    overlap(src, dst, (size_t)w, 8208, 8200);
    overlap(src, dst, 8208, 8208, 8200);
    printf("\n| 2D copy out of rows %d apart | up GB/s | down GB/s |\n|---|---:|---:|\n", w);
    for (int cols = 2048; cols <= w && cols <= 65536; cols *= 2) {
        double cu, cd;
        const size_t rows = (256u << 20) / (cols + 16);
        copy_2d(src, (size_t)w, cols + 16, (int)(rows < (size_t)h ? rows : (size_t)h), &cu, &cd);
        printf("| %d bytes a row | %.1f | %.1f |\n", cols + 16, cu, cd);
    }
    edgel_context_destroy(gpu);
    edgel_context_destroy(cpu);
    if (pageable)
        free(src), free(dst);
    else
        cudaFreeHost(src), cudaFreeHost(dst);
    return 0;
}
