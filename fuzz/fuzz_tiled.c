/* libFuzzer target, differential: tiled Canny (edgel_canny_tiled from callbacks, and
 * edgel_canny_tiled_image on views) of any decoded image, with either preset and tiles
 * chosen by the input, must give the whole-image call's bytes; a
 * difference aborts, so the fuzzer reports it. A source whose pixels change between the
 * callbacks' two passes must end with a result or EDGEL_ERROR_IO, never memory harm. The
 * last 8 bytes of the input choose the options; the rest is the file. */
#include "edgel.h"
#include "fuzz_input.h"
#include "io/image_io.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OPTION_BYTES = 8 };

/* The tiled driver's view of a decoded image: regions in, tiles out. */
typedef struct tile_mem {
    const edgel_image *src;
    uint8_t *dst;
    /* reads past `steady` get every byte xored with `change`'s bytes (0: none) */
    int64_t reads, steady;
    const uint8_t *change;
    size_t change_size;
} tile_mem;

static edgel_status tile_read(void *user, int64_t x, int64_t y, const edgel_image *d)
{
    tile_mem *m = user;
    const size_t px = (size_t)m->src->channels * edgel_pixel_size(m->src->type);
    const size_t row = (size_t)d->width * px;
    const int changed = m->change_size && m->reads++ >= m->steady;
    for (int r = 0; r < d->height; r++) {
        uint8_t *dst = (uint8_t *)d->data + (size_t)r * d->pitch;
        memcpy(dst, (const uint8_t *)m->src->data + (size_t)(y + r) * m->src->pitch +
                        (size_t)x * px, row);
        for (size_t i = 0; changed && i < row; i++)
            dst[i] ^= m->change[(i + (size_t)r * 131) % m->change_size];
    }
    return EDGEL_OK;
}

static edgel_status tile_write(void *user, int64_t x, int64_t y, const edgel_image *e)
{
    tile_mem *m = user;
    for (int r = 0; r < e->height; r++)
        memcpy(m->dst + (size_t)(y + r) * m->src->width + (size_t)x,
               (const uint8_t *)e->data + (size_t)r * e->pitch, (size_t)e->width);
    return EDGEL_OK;
}

/* The tiled calls (callbacks, views) must give the whole call's bytes. */
static void tiled_equals_whole(edgel_context *ctx, const edgel_canny_params *p,
                               const edgel_image *in, const uint8_t *opt, const uint8_t *data,
                               size_t size)
{
    const size_t n = (size_t)in->width * in->height;
    uint8_t *whole = malloc(n), *tiled = malloc(n);
    edgel_image w = edgel_image_host(whole, in->width, in->height, EDGEL_U8, 1);
    if (whole && tiled && edgel_canny(ctx, p, in, &w, NULL) == EDGEL_OK) {
        tile_mem m = {in, tiled, 0, 0, NULL, 0};
        edgel_tile_io io = {in->width, in->height, in->channels, in->type, tile_read,
                            tile_write, &m};
        const int tw = 4 + opt[4] % 61, th = 4 + opt[5] % 61;
        if (edgel_canny_tiled(ctx, p, &io, tw, th) != EDGEL_OK || memcmp(whole, tiled, n) != 0)
            abort();
        /* the second pass (or the first, from a tile on) sees other pixels: the input's
         * own bytes xored in, a float image's bits included */
        m.steady = m.reads / 2 - (opt[7] % 4 == 0 ? opt[6] % (m.reads / 2 + 1) : 0);
        m.reads = 0;
        m.change = data, m.change_size = size;
        const edgel_status st = edgel_canny_tiled(ctx, p, &io, tw, th);
        if (st != EDGEL_OK && st != EDGEL_ERROR_IO)
            abort();
        /* on views, in other tiles, in one pass */
        edgel_image t = edgel_image_host(tiled, in->width, in->height, EDGEL_U8, 1);
        memset(tiled, 7, n);
        if (edgel_canny_tiled_image(ctx, p, in, &t, 1 + opt[5] % 40, 1 + opt[4] % 40) !=
                EDGEL_OK ||
            memcmp(whole, tiled, n) != 0)
            abort();
    }
    free(whole);
    free(tiled);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *opt;
    edgel_image img;
    if (!fuzz_decode(data, size, OPTION_BYTES, &img, &opt))
        return 0;
    edgel_context *ctx = fuzz_context();
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    if (opt[0] & 1) { /* itk: 1-channel images of any type */
        p.preset = EDGEL_PRESET_ITK;
        p.variance = opt[1] / 32.0;
        p.maximum_error = (opt[2] + 1) / 260.0;
        p.low_threshold = opt[3] / 8.0;
        p.high_threshold = opt[6] / 8.0;
    } else {
        fuzz_opencv_params(&p, opt[1], opt[2], opt[3], opt[6]);
    }
    tiled_equals_whole(ctx, &p, &img, opt, data, size);
    edgel_io_free(&img);
    return 0;
}
