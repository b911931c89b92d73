/* What the whole-pipeline fuzz targets share: CPU contexts made once for the process (one
 * thread unless asked; libFuzzer calls from one thread), and an input split into an image
 * file and its last `option_bytes` bytes of options, the image decoded small (the sizes
 * themselves are the decoders' targets). */
#ifndef EDGEL_FUZZ_INPUT_H
#define EDGEL_FUZZ_INPUT_H

#include "edgel.h"
#include "io/image_io.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A CPU context of `threads` threads (1 to 8), made once for the process. */
static edgel_context *fuzz_context_of(int threads)
{
    static edgel_context *ctx[9];
    if (!ctx[threads]) {
        edgel_context_options o;
        edgel_context_options_default(&o);
        o.threads = threads;
        edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx[threads]);
    }
    return ctx[threads];
}

static edgel_context *fuzz_context(void)
{
    return fuzz_context_of(1);
}

/* Whether two views hold the same curves, array for array (bit for bit). */
static inline int fuzz_same_curves(const edgel_curves_view *a, const edgel_curves_view *b)
{
    if (a->points != b->points || a->curves != b->curves)
        return 0;
    const size_t n = (size_t)a->points * sizeof(double);
    return !memcmp(a->x, b->x, n) && !memcmp(a->y, b->y, n) && !memcmp(a->gx, b->gx, n) &&
           !memcmp(a->gy, b->gy, n) && !memcmp(a->modulus, b->modulus, n) &&
           !memcmp(a->limits, b->limits, ((size_t)a->curves + 1) * sizeof(int64_t)) &&
           !memcmp(a->closed, b->closed, (size_t)a->curves);
}

/* The opencv preset's options from four input bytes: `shape` holds the aperture (bits 0-1),
 * L2 (bit 2), the gray rule (bits 3-4) and the blur (bits 5-7); `sigma` / 64 is the blur's
 * sigma; `low` and `high` give thresholds from -100 to 920. */
static inline void fuzz_opencv_params(edgel_canny_params *p, uint8_t shape, uint8_t sigma,
                                      uint8_t low, uint8_t high)
{
    static const int apertures[] = {3, 5, 7, EDGEL_APERTURE_SCHARR};
    edgel_canny_params_default(p);
    p->aperture = apertures[shape & 3];
    p->l2_gradient = (shape >> 2) & 1 || p->aperture == EDGEL_APERTURE_SCHARR;
    p->gray = (edgel_gray)((shape >> 3) % 3);
    p->blur = (edgel_blur)((shape >> 5) % 3);
    p->blur_sigma = sigma / 64.0;
    p->low_threshold = low * 4.0 - 100;
    p->high_threshold = high * 4.0 - 100;
}

/* A decoded image as one gray image (a colour image's channels as more columns). */
static inline edgel_image fuzz_as_gray(const edgel_image *img)
{
    edgel_image gray = *img;
    gray.channels = 1;
    gray.width = img->width * img->channels;
    return gray;
}

/* Sub-pixel parameters from three option bytes: sigma 0 to 4 by sixteenths, the thresholds
 * 0 to 64 by quarters. */
static inline void fuzz_subpixel_params(edgel_subpixel_params *p, const uint8_t *opt)
{
    edgel_subpixel_params_default(p);
    p->sigma = opt[0] % 64 / 16.0;
    p->high = opt[1] / 4.0, p->low = opt[2] / 4.0;
}

/* 1 with *img decoded (free with edgel_io_free) and *opt the option bytes, else 0. */
static inline int fuzz_decode(const uint8_t *data, size_t size, size_t option_bytes,
                              edgel_image *img, const uint8_t **opt)
{
    if (size < option_bytes + 2 || !fuzz_context())
        return 0;
    *opt = data + size - option_bytes;
    const edgel_io_limits limits = {(size_t)1 << 14, 0, 0, 0, NULL};
    return edgel_io_decode(data, size - option_bytes, &limits, img) == EDGEL_OK;
}

#endif
