/*
 * Pre-smoothing of u8 images on the CPU.
 *
 * Gaussian: OpenCV's bit-exact fixed-point path (GaussianBlurFixedPoint): taps in 8
 * fractional bits summing to 256; the row pass keeps 8 fractional bits exactly (u16), the
 * column pass accumulates 16 fractional bits (u32) and rounds half up. Border reflect-101.
 * Each stripe keeps a ring of ksize row-filtered lines so every source row is filtered once.
 */
#include "cpu/cpu.h"
#include "core/image.h"
#include "core/pixel_math.h"
#include "core/status.h"

#include <stdlib.h>
#include <string.h>

/* Row pass of one source row into `out` (w * cn values). `pad` has room for w + ksize - 1
 * pixels: the row with reflect-101 borders of r pixels on each side. */
EDGEL_VECTOR_CLONES static void gaussian_row(const uint8_t *src, int w, int cn,
                                             const uint16_t *k, int ksize, uint8_t *pad,
                                             uint16_t *out)
{
    const int r = ksize / 2;
    memcpy(pad + (size_t)r * cn, src, (size_t)w * cn);
    for (int i = 1; i <= r; i++) {
        const int left = edgel_reflect101(-i, w), right = edgel_reflect101(w - 1 + i, w);
        for (int c = 0; c < cn; c++) {
            pad[(r - i) * cn + c] = src[left * cn + c];
            pad[(r + w - 1 + i) * cn + c] = src[right * cn + c];
        }
    }
    const int n = w * cn;
    for (int i = 0; i < n; i++)
        out[i] = 0;
    for (int t = 0; t < ksize; t++) {
        const uint16_t kt = k[t];
        const uint8_t *p = pad + t * cn;
        for (int i = 0; i < n; i++)
            out[i] = (uint16_t)(out[i] + kt * p[i]);
    }
}

/* Column pass: out = (sum of taps * row-filtered lines + 2^15) >> 16. */
EDGEL_VECTOR_CLONES static void gaussian_column(const uint16_t *const *rows, const uint16_t *k,
                                                int ksize, size_t n, uint32_t *acc, uint8_t *out)
{
    for (size_t i = 0; i < n; i++)
        acc[i] = 1u << 15;
    for (int t = 0; t < ksize; t++) {
        const uint16_t *row = rows[t];
        const uint32_t kt = k[t];
        for (size_t i = 0; i < n; i++)
            acc[i] += kt * row[i];
    }
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(acc[i] >> 16); /* <= 255: taps sum to 256 * 256 */
}

edgel_status edgel_cpu_gaussian_blur(int threads, const edgel_image *src, const edgel_image *dst,
                                     int32_t ksize, double sigma)
{
    const int w = src->width, h = src->height, cn = src->channels;
    /* OpenCV drops the kernel along a side of length 1. */
    const int kx_size = w == 1 ? 1 : ksize, ky_size = h == 1 ? 1 : ksize;
    uint16_t kx[EDGEL_MAX_BLUR_KSIZE], ky[EDGEL_MAX_BLUR_KSIZE];
    edgel_gaussian_kernel_q8(kx_size, sigma, kx);
    edgel_gaussian_kernel_q8(ky_size, sigma, ky);
    const int rx = kx_size / 2, ry = ky_size / 2;

    const int nstripes = threads < h ? threads : h;
    const size_t n = (size_t)w * cn;
    int failed = 0;
    (void)threads;
#pragma omp parallel for num_threads(threads) schedule(static, 1) reduction(| : failed)
    for (int s = 0; s < nstripes; s++) {
        int y0, y1;
        edgel_stripe(s, nstripes, h, &y0, &y1);
        uint16_t *ring = malloc(sizeof(uint16_t) * n * ky_size);
        uint8_t *pad = malloc((size_t)(w + 2 * rx) * cn);
        uint32_t *acc = malloc(sizeof(uint32_t) * n);
        if (!ring || !pad || !acc) {
            failed = 1;
        } else {
            /* ring slot of logical row L is L mod ky_size (L may be negative). */
            for (int l = y0 - ry; l < y0 + ry; l++)
                gaussian_row(edgel_row_u8(src, edgel_reflect101(l, h)), w, cn, kx, kx_size, pad,
                             ring + n * (size_t)(((l % ky_size) + ky_size) % ky_size));
            for (int y = y0; y < y1; y++) {
                const int l = y + ry;
                gaussian_row(edgel_row_u8(src, edgel_reflect101(l, h)), w, cn, kx, kx_size, pad,
                             ring + n * (size_t)(((l % ky_size) + ky_size) % ky_size));
                const uint16_t *rows[EDGEL_MAX_BLUR_KSIZE];
                for (int t = 0; t < ky_size; t++) {
                    const int lt = y - ry + t;
                    rows[t] = ring + n * (size_t)(((lt % ky_size) + ky_size) % ky_size);
                }
                gaussian_column(rows, ky, ky_size, n, acc, edgel_row_u8(dst, y));
            }
        }
        free(ring);
        free(pad);
        free(acc);
    }
    if (failed)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory in Gaussian blur");
    return EDGEL_OK;
}

/* The 5x5 kernel of the Canny literature, sum 159, applied directly with reflect-101. */
edgel_status edgel_cpu_blur_5x5_159(int threads, const edgel_image *src, const edgel_image *dst)
{
    static const int k[5][5] = {{2, 4, 5, 4, 2},
                                {4, 9, 12, 9, 4},
                                {5, 12, 15, 12, 5},
                                {4, 9, 12, 9, 4},
                                {2, 4, 5, 4, 2}};
    const int w = src->width, h = src->height, cn = src->channels;
    (void)threads;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int y = 0; y < h; y++) {
        const uint8_t *rows[5];
        for (int i = 0; i < 5; i++)
            rows[i] = edgel_row_u8(src, edgel_reflect101(y + i - 2, h));
        int xs[5];
        uint8_t *d = edgel_row_u8(dst, y);
        for (int x = 0; x < w; x++) {
            for (int j = 0; j < 5; j++)
                xs[j] = edgel_reflect101(x + j - 2, w) * cn;
            for (int c = 0; c < cn; c++) {
                int sum = 0;
                for (int i = 0; i < 5; i++)
                    for (int j = 0; j < 5; j++)
                        sum += k[i][j] * rows[i][xs[j] + c];
                d[x * cn + c] = (uint8_t)((sum + 79) / 159);
            }
        }
    }
    return EDGEL_OK;
}
