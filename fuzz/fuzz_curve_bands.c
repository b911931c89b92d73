/* libFuzzer target, differential: sub-pixel curves in bands of columns against the whole
 * image. Any decoded image (colour as a wider gray image) goes through a sub-pixel stream
 * (edgel_subpixel_stream_*) in bands whose widths and extra left margins come from the option
 * bytes, on 1 to 3 threads: the curves must equal edgel_subpixel_edges' on the whole image,
 * array for array. */
#include "fuzz_file.h" /* first: it asks for _GNU_SOURCE */
#include "edgel.h"
#include "fuzz_input.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OPTION_BYTES = 6 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *opt;
    edgel_image img;
    if (!fuzz_decode(data, size, OPTION_BYTES, &img, &opt))
        return 0;
    const edgel_image gray = fuzz_as_gray(&img);
    edgel_subpixel_params p;
    fuzz_subpixel_params(&p, opt);
    static edgel_curves *whole, *bands;
    if (!whole && (edgel_curves_create(&whole) != EDGEL_OK ||
                   edgel_curves_create(&bands) != EDGEL_OK))
        abort();
    if (edgel_subpixel_edges(fuzz_context(), &p, &gray, whole) != EDGEL_OK) {
        edgel_io_free(&img);
        return 0;
    }
    edgel_context *ctx = fuzz_context_of(1 + opt[3] % 3);
    const int halo = edgel_subpixel_halo(p.sigma);
    edgel_subpixel_stream *s = NULL;
    if (edgel_subpixel_stream_create(&p, gray.width, gray.height, &s) != EDGEL_OK)
        abort();
    for (int k = 0; edgel_subpixel_stream_columns(s) < gray.width; k++) {
        const int64_t added = edgel_subpixel_stream_columns(s);
        const uint8_t o = opt[4 + k % 2] ^ (uint8_t)(k * 37);
        const int64_t columns = 1 + o % 64, extra = o >> 6;
        int64_t x0 = added - halo - extra, x1 = added + columns + halo;
        x0 = x0 < 0 ? 0 : x0, x1 = x1 > gray.width ? gray.width : x1;
        edgel_image piece = gray;
        piece.data = (uint8_t *)gray.data + (size_t)x0 * edgel_pixel_size(gray.type);
        piece.width = (int32_t)(x1 - x0);
        if (edgel_subpixel_stream_add(ctx, s, &piece, x0) != EDGEL_OK)
            abort();
    }
    edgel_curves_view a, b;
    edgel_curves_view_default(&a);
    edgel_curves_view_default(&b);
    if (edgel_subpixel_stream_finish(ctx, s, bands) != EDGEL_OK ||
        edgel_curves_get(whole, &a) != EDGEL_OK || edgel_curves_get(bands, &b) != EDGEL_OK ||
        !fuzz_same_curves(&a, &b))
        abort();
    edgel_subpixel_stream_destroy(s);
    edgel_io_free(&img);
    return 0;
}
