/* Colour to gray, as cv::cvtColor(RGB2GRAY/BGR2GRAY/RGBA2GRAY/BGRA2GRAY) for u8. */
#include "cpu/cpu.h"
#include "core/host_pool.h"
#include "core/image.h"
#include "core/opencv_math.h"

EDGEL_VECTOR_CLONES static void gray_row(const uint8_t *s, uint8_t *d, int w, int cn, int ri)
{
    const int bi = 2 - ri;
    if (cn == 3)
        for (int x = 0; x < w; x++)
            d[x] = edgel_luma_u8(s[x * 3 + ri], s[x * 3 + 1], s[x * 3 + bi]);
    else
        for (int x = 0; x < w; x++)
            d[x] = edgel_luma_u8(s[x * 4 + ri], s[x * 4 + 1], s[x * 4 + bi]);
}

typedef struct gray_job {
    const edgel_image *src, *gray;
    int ri;
} gray_job;

static void gray_image_row(void *arg, int y)
{
    const gray_job *j = arg;
    gray_row(edgel_row_u8(j->src, y), edgel_row_u8(j->gray, y), j->src->width,
             j->src->channels, j->ri);
}

edgel_status edgel_cpu_to_gray(int threads, edgel_gray order, const edgel_image *src,
                               const edgel_image *gray)
{
    gray_job job = {src, gray, order == EDGEL_GRAY_BGR ? 2 : 0};
    edgel_host_parallel_for(threads, src->height, gray_image_row, &job);
    return EDGEL_OK;
}
