/* libFuzzer target, differential: a batch of frames cut from any decoded image (rows of
 * several heights, one view each, of the same or of mixed sizes) gives each frame's single
 * call's bytes; edges that overlap another frame are refused; the automatic thresholds of
 * each rule are valid thresholds, on every frame. The last OPTION_BYTES bytes of the input
 * choose the options; the rest is the file. */
#include "edgel.h"
#include "fuzz_input.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OPTION_BYTES = 8, MAX_FRAMES = 8 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *opt;
    edgel_image img;
    if (!fuzz_decode(data, size, OPTION_BYTES, &img, &opt))
        return 0;
    edgel_context *ctx = fuzz_context();
    edgel_canny_params p;
    fuzz_opencv_params(&p, opt[0], opt[1], opt[2], opt[3]);
    if (img.type != EDGEL_U8) {
        edgel_io_free(&img);
        return 0;
    }
    /* frames: bands of rows of the image, their heights from the options */
    edgel_image srcs[MAX_FRAMES], edges[MAX_FRAMES];
    const size_t n_px = (size_t)img.width * img.height;
    uint8_t *batch = malloc(n_px), *single = malloc(n_px);
    int n = 0;
    for (int y = 0; n < MAX_FRAMES && y < img.height; n++) {
        int h = 1 + opt[4 + n % 4] % 9;
        if (h > img.height - y)
            h = img.height - y;
        srcs[n] = img;
        srcs[n].data = (uint8_t *)img.data + (size_t)y * img.pitch;
        srcs[n].height = h;
        edges[n] = edgel_image_host(batch + (size_t)y * img.width, img.width, h, EDGEL_U8, 1);
        y += h;
    }
    if (batch && single && edgel_canny_batch(ctx, &p, srcs, edges, n) == EDGEL_OK) {
        for (int i = 0; i < n; i++) {
            edgel_image one = edges[i];
            one.data = single;
            if (edgel_canny(ctx, &p, &srcs[i], &one, NULL) != EDGEL_OK ||
                memcmp(single, edges[i].data, (size_t)one.width * one.height) != 0)
                abort();
        }
        if (n > 1) { /* the last frame's edges over the first's: refused */
            edges[n - 1].data = edges[0].data;
            if (edgel_canny_batch(ctx, &p, srcs, edges, n) != EDGEL_ERROR_INVALID_ARGUMENT)
                abort();
        }
    }
    for (int rule = EDGEL_AUTO_OTSU; rule <= EDGEL_AUTO_QUANTILES; rule++) {
        edgel_canny_params q = p;
        if (rule == EDGEL_AUTO_QUANTILES)
            q.low_threshold = opt[5] / 255.0, q.high_threshold = opt[6] / 255.0;
        double low, high;
        if (edgel_canny_auto_thresholds(ctx, &q, &img, (edgel_auto_rule)rule, &low, &high) !=
            EDGEL_OK)
            continue;
        q.low_threshold = low, q.high_threshold = high;
        edgel_image out = edgel_image_host(single, img.width, img.height, EDGEL_U8, 1);
        if (!(low == low && high == high) || edgel_canny(ctx, &q, &img, &out, NULL) != EDGEL_OK)
            abort(); /* the thresholds a rule gives are thresholds Canny takes */
    }
    free(batch);
    free(single);
    edgel_io_free(&img);
    return 0;
}
