/* libFuzzer target for one image decoder, chosen at build time (FUZZ_DECODER, e.g.
 * edgel_png_decode): any bytes must be rejected or decoded without a crash. */
#include "io/image_io.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_DECODER
#error "define FUZZ_DECODER as the decoder under test"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    edgel_image img;
    memset(&img, 0, sizeof img);
    /* A decoded-size cap as the command has, so that a header claiming a huge image is
     * refused instead of exhausting the fuzzer's memory. */
    const edgel_io_limits limits = {(size_t)256 << 20, 0, 0, 0, NULL};
    if (FUZZ_DECODER(data, size, &limits, &img) == EDGEL_OK) {
        /* Touch every byte: a short buffer shows up under ASan. */
        volatile uint8_t sink = 0;
        const size_t row = (size_t)img.width * img.channels * edgel_pixel_size(img.type);
        for (int y = 0; y < img.height; y++)
            for (size_t i = 0; i < row; i++)
                sink ^= ((const uint8_t *)img.data)[(size_t)y * img.pitch + i];
        (void)sink;
        edgel_io_free(&img);
    }
    return 0;
}
