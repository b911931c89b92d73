/* What the whole-pipeline fuzz targets share: one single-thread CPU context for the process
 * (libFuzzer calls from one thread), and an input split into an image file and its last
 * `option_bytes` bytes of options, the image decoded small (the sizes themselves are the
 * decoders' targets). */
#ifndef EDGEL_FUZZ_INPUT_H
#define EDGEL_FUZZ_INPUT_H

#include "edgel.h"
#include "io/image_io.h"

#include <stddef.h>
#include <stdint.h>

static edgel_context *fuzz_context(void)
{
    static edgel_context *ctx;
    if (!ctx) {
        edgel_context_options o;
        edgel_context_options_default(&o);
        o.threads = 1;
        edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx);
    }
    return ctx;
}

/* 1 with *img decoded (free with edgel_io_free) and *opt the option bytes, else 0. */
static int fuzz_decode(const uint8_t *data, size_t size, size_t option_bytes, edgel_image *img,
                       const uint8_t **opt)
{
    if (size < option_bytes + 2 || !fuzz_context())
        return 0;
    *opt = data + size - option_bytes;
    const edgel_io_limits limits = {(size_t)1 << 14, 0, 0, 0, NULL};
    return edgel_io_decode(data, size - option_bytes, &limits, img) == EDGEL_OK;
}

#endif
