/*
 * Pre-smoothing of u8 images on the CPU.
 *
 * Gaussian: OpenCV's bit-exact fixed-point GaussianBlur, which is the convolution engine's
 * fixed-point separable method (cpu_fixed_filter.c) with edgel_filter_plan_gaussian's plan.
 */
#include "cpu/cpu.h"
#include "core/host_pool.h"
#include "core/filter.h"
#include "core/image.h"
#include "core/opencv_math.h"

edgel_status edgel_cpu_gaussian_blur(int threads, const edgel_image *src, const edgel_image *dst,
                                     int32_t ksize, double sigma)
{
    edgel_filter_plan plan;
    edgel_filter_plan_gaussian(src->width, src->height, src->channels, ksize, sigma, &plan);
    return edgel_cpu_filter_fixed(threads, &plan, src, dst);
}

typedef struct blur_job {
    const edgel_image *src, *dst;
} blur_job;

/* Row y of the 5x5 kernel of the Canny literature, sum 159, with reflect-101. */
static void blur_5x5_row(void *arg, int y)
{
    static const int k[5][5] = {{2, 4, 5, 4, 2},
                                {4, 9, 12, 9, 4},
                                {5, 12, 15, 12, 5},
                                {4, 9, 12, 9, 4},
                                {2, 4, 5, 4, 2}};
    const blur_job *job = arg;
    const edgel_image *src = job->src, *dst = job->dst;
    const int w = src->width, h = src->height, cn = src->channels;
    {
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
}

edgel_status edgel_cpu_blur_5x5_159(int threads, const edgel_image *src, const edgel_image *dst)
{
    blur_job job = {src, dst};
    edgel_host_parallel_for(threads, src->height, blur_5x5_row, &job);
    return EDGEL_OK;
}
