/* libFuzzer target: edgel_subpixel_edges_batch on frames read from the input (count, sizes
 * from 0x0 up, pixel types, pitches, a frame given twice or left out, parameters from its
 * bytes): a refusal only with a named status and a message; else each frame's curves equal
 * its single call's, on 1 and 3 threads. */
#include "edgel.h"
#include "fuzz_input.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { HEADER = 5, MAX_FRAMES = 8, MAX_SIDE = 48 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static edgel_curves *curves[MAX_FRAMES], *single;
    if (size < HEADER || !fuzz_context() || !fuzz_context_of(3))
        return 0;
    for (int i = 0; i < MAX_FRAMES && !curves[MAX_FRAMES - 1]; i++)
        if (edgel_curves_create(&curves[i]) != EDGEL_OK)
            abort();
    if (!single && edgel_curves_create(&single) != EDGEL_OK)
        abort();
    edgel_subpixel_params p;
    fuzz_subpixel_params(&p, data);
    const int count = data[3] % (MAX_FRAMES + 1), twist = data[4]; /* 0 frames too */
    data += HEADER;
    size -= HEADER;
    /* a frame: width, height, type byte, then its pixels' bytes (repeated to fill it) */
    static uint8_t pixels[MAX_FRAMES][MAX_SIDE * (MAX_SIDE * 8 + 8)]; /* (odd frames: 8 more a row) */
    static const edgel_pixel_type types[] = {EDGEL_U8, EDGEL_U16, EDGEL_F32, EDGEL_F64,
                                             EDGEL_S16};
    edgel_image srcs[MAX_FRAMES];
    for (int i = 0; i < count; i++) {
        const int w = size >= 3 ? data[0] % (MAX_SIDE + 1) : 7;
        const int h = size >= 3 ? data[1] % (MAX_SIDE + 1) : 5;
        const edgel_pixel_type type = types[size >= 3 ? data[2] % 5 : 0];
        if (size >= 3)
            data += 3, size -= 3;
        const size_t pitch = (size_t)w * edgel_pixel_size(type) + (i & 1) * 8;
        for (size_t k = 0; k < pitch * h; k++)
            pixels[i][k] = size ? data[k % size] : (uint8_t)k;
        srcs[i] = edgel_image_host(pixels[i], w, h, type, 1);
        srcs[i].pitch = pitch;
    }
    edgel_curves *listed[MAX_FRAMES];
    memcpy(listed, curves, sizeof listed);
    if (count > 1 && twist == 1)
        listed[count - 1] = listed[0]; /* refused: a curves twice */
    if (count > 0 && twist == 2)
        listed[count / 2] = NULL; /* refused */
    for (int threads = 1; threads <= 3; threads += 2) {
        const edgel_status st =
            edgel_subpixel_edges_batch(fuzz_context_of(threads), &p, srcs, listed, count);
        if (st != EDGEL_OK) {
            if (!edgel_last_error()[0])
                abort(); /* a refusal says why */
            continue;
        }
        if ((twist == 1 && count > 1) || (twist == 2 && count > 0))
            abort(); /* those must be refused */
        for (int i = 0; i < count; i++) {
            if (edgel_subpixel_edges(fuzz_context(), &p, &srcs[i], single) != EDGEL_OK)
                abort(); /* the batch took it */
            edgel_curves_view a, b;
            edgel_curves_view_default(&a);
            edgel_curves_view_default(&b);
            if (edgel_curves_get(single, &a) != EDGEL_OK ||
                edgel_curves_get(listed[i], &b) != EDGEL_OK || !fuzz_same_curves(&a, &b))
                abort();
        }
    }
    return 0;
}
