/* libFuzzer target for the whole path a file takes: decode (any format edgel reads), then
 * Canny with the three presets and filter2d or sep_filter2d with any method and border, on the
 * CPU. The last 12 bytes of the input choose the options; the rest is the file. Any input must give a
 * status, never a crash or an out-of-bounds access (the library is instrumented too). */
#include "edgel.h"
#include "fuzz_input.h"
#include "io/image_io.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OPTION_BYTES = 12 };


static void canny_opencv(edgel_context *ctx, const uint8_t *opt, const edgel_image *in,
                         const edgel_image *edges)
{
    edgel_canny_params p;
    fuzz_opencv_params(&p, opt[2], opt[3], opt[0], opt[1]);
    p.blur_ksize = opt[3] & 1 ? (opt[4] % 16) * 2 + 1 : 0;
    edgel_canny(ctx, &p, in, edges, NULL);
}

static void canny_itk(edgel_context *ctx, const uint8_t *opt, const edgel_image *in,
                      const edgel_image *edges)
{
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.preset = EDGEL_PRESET_ITK;
    p.variance = opt[5] / 16.0;
    p.maximum_error = (opt[6] + 1) / 260.0;
    p.low_threshold = opt[0] / 8.0;
    p.high_threshold = opt[1] / 8.0;
    edgel_canny(ctx, &p, in, edges, NULL);
}

/* The skimage preset, with a mask drawn from the image's own bytes half the time. */
static void canny_skimage(edgel_context *ctx, const uint8_t *opt, const edgel_image *in,
                          const edgel_image *edges)
{
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    p.preset = EDGEL_PRESET_SKIMAGE;
    p.sigma = opt[5] / 32.0; /* 0 to 8: radii past small images */
    p.mode = (edgel_border)(opt[8] % 5);
    p.cval = opt[9] / 64.0 - 1;
    p.use_quantiles = opt[6] & 1;
    p.low_threshold = opt[6] & 2 ? NAN : opt[0] / 255.0;
    p.high_threshold = opt[6] & 4 ? NAN : opt[1] / 255.0;
    uint8_t *m = NULL;
    edgel_image mask = edgel_image_host(NULL, in->width, in->height, EDGEL_BOOL, 1);
    if (opt[6] & 8 && (m = malloc((size_t)in->width * in->height)) != NULL) {
        for (int y = 0; y < in->height; y++) {
            const uint8_t *row = (const uint8_t *)in->data + (size_t)y * in->pitch;
            for (int x = 0; x < in->width; x++)
                m[(size_t)y * in->width + x] = row[x] & 1;
        }
        mask.data = m;
    }
    edgel_canny_masked(ctx, &p, in, m ? &mask : NULL, edges, NULL);
    free(m);
}

static void filter(edgel_context *ctx, const uint8_t *opt, const edgel_image *in,
                   const edgel_image *out)
{
    float taps[7 * 7];
    const int kw = opt[7] % 7 + 1, kh = (opt[7] / 7) % 7 + 1;
    for (int i = 0; i < kw * kh; i++)
        taps[i] = (float)((int)opt[(8 + i) % OPTION_BYTES] - 128) / 32.0f;
    edgel_image kernel = edgel_image_host(taps, kw, kh, EDGEL_F32, 1);
    edgel_filter_params p;
    edgel_filter_params_default(&p);
    p.border = (edgel_border)(opt[8] % 5);
    p.border_value = opt[9];
    p.convolve = opt[9] & 1;
    p.method = (edgel_conv_method)(opt[11] % 4); /* one method a run, chosen by the input */
    if (opt[11] & 4)
        edgel_sep_filter2d(ctx, &p, in, out, taps, kw, taps + kw, kh);
    else
        edgel_filter2d(ctx, &p, in, out, &kernel);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *opt;
    edgel_image img;
    if (!fuzz_decode(data, size, OPTION_BYTES, &img, &opt))
        return 0;
    edgel_context *ctx = fuzz_context();
    const size_t px = (size_t)img.width * (size_t)img.height;
    uint8_t *edges = malloc(px * 4);
    void *filtered = malloc(px * (size_t)img.channels * 4);
    if (edges && filtered) {
        edgel_image e8 = edgel_image_host(edges, img.width, img.height, EDGEL_U8, 1);
        edgel_image ef = edgel_image_host(edges, img.width, img.height, EDGEL_F32, 1);
        if (img.type == EDGEL_U8)
            canny_opencv(ctx, opt, &img, &e8);
        if (img.channels == 1) {
            canny_itk(ctx, opt, &img, opt[10] & 1 ? &ef : &e8);
            canny_skimage(ctx, opt, &img, &e8);
        }
        if (img.type == EDGEL_U8 || img.type == EDGEL_F32) {
            const edgel_pixel_type out = img.type == EDGEL_U8 && (opt[10] & 2) ? EDGEL_U8
                                                                                : EDGEL_F32;
            edgel_image o = edgel_image_host(filtered, img.width, img.height, out, img.channels);
            filter(ctx, opt, &img, &o);
        }
    }
    free(edges);
    free(filtered);
    edgel_io_free(&img);
    return 0;
}
