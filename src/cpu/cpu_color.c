/* Colour to gray, as cv::cvtColor(RGB2GRAY/BGR2GRAY/RGBA2GRAY/BGRA2GRAY) for u8. */
#include "cpu/cpu.h"
#include "core/image.h"
#include "core/pixel_math.h"

edgel_status edgel_cpu_to_gray(int threads, edgel_gray order, const edgel_image *src,
                               const edgel_image *gray)
{
    const int w = src->width, h = src->height, cn = src->channels;
    const int ri = order == EDGEL_GRAY_BGR ? 2 : 0, bi = 2 - ri;
    (void)threads;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int y = 0; y < h; y++) {
        const uint8_t *s = edgel_row_u8(src, y);
        uint8_t *d = edgel_row_u8(gray, y);
        for (int x = 0; x < w; x++)
            d[x] = edgel_luma_u8(s[x * cn + ri], s[x * cn + 1], s[x * cn + bi]);
    }
    return EDGEL_OK;
}
