/* The ABI of growing structs (include/edgel.h: struct_size). Built against a frozen copy of
 * the 0.3.0 header (tests/abi/0.3.0/edgel.h, the first with struct sizes) and run against
 * the library being built, whatever fields its structs have gained since: a program of an
 * older header must keep working. Also: structs never initialised, or from a header newer
 * than the library, are refused with a clear message; an init writes only the caller's size. */
#include "check.h"
#include "edgel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { W = 96, H = 64 };

int main(void)
{
    uint8_t *src = malloc(W * H), *a = malloc(W * H), *b = malloc(W * H);
    for (int i = 0; i < W * H; i++)
        src[i] = (uint8_t)((i % W) * 5 ^ (i / W) * 3);
    edgel_image s = edgel_image_host(src, W, H, EDGEL_U8, 1);
    edgel_image ea = edgel_image_host(a, W, H, EDGEL_U8, 1);
    edgel_image eb = edgel_image_host(b, W, H, EDGEL_U8, 1);

    /* The old header's structs, initialised by its macros, work with this library. */
    edgel_context_options o;
    edgel_context_options_default(&o);
    CHECK(o.struct_size == sizeof o && o.threads == 0 && o.device == 0);
    o.threads = 2;
    edgel_context *ctx = NULL;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &ctx) == EDGEL_OK);
    int32_t threads = 0;
    CHECK(edgel_context_threads(ctx, &threads) == EDGEL_OK && threads == 2);
    edgel_canny_params p;
    edgel_canny_params_default(&p);
    CHECK(p.struct_size == sizeof p && p.low_threshold == 50 && p.maximum_error == 0.01);
    p.blur = EDGEL_BLUR_GAUSSIAN;
    p.blur_sigma = 1.2;
    CHECK(edgel_canny_params_check(&p) == EDGEL_OK);
    CHECK(edgel_canny(ctx, &p, &s, &ea, NULL) == EDGEL_OK);
    int32_t halo = 0;
    CHECK(edgel_canny_tile_halo(&p, &halo) == EDGEL_OK && halo > 0);
    edgel_filter_params f;
    edgel_filter_params_default(&f);
    CHECK(f.struct_size == sizeof f && f.anchor_x == -1);
    CHECK(edgel_filter_params_check(&f) == EDGEL_OK);

    /* Never initialised: refused, naming the macro; nothing written. */
    edgel_canny_params raw;
    memcpy(&raw, &p, sizeof raw);
    raw.struct_size = 0;
    memset(b, 7, W * H);
    CHECK_STATUS(edgel_canny(ctx, &raw, &s, &eb, NULL), EDGEL_ERROR_INVALID_ARGUMENT,
                 "edgel_canny_params_default");
    CHECK(b[0] == 7 && b[W * H - 1] == 7);
    edgel_context_options raw_o = o;
    raw_o.struct_size = 3;
    edgel_context *none = NULL;
    CHECK_STATUS(edgel_context_create(EDGEL_BACKEND_CPU, &raw_o, &none),
                 EDGEL_ERROR_INVALID_ARGUMENT, "edgel_context_options_default");
    CHECK(none == NULL);
    edgel_filter_params raw_f = f;
    raw_f.struct_size = 0;
    CHECK_STATUS(edgel_filter_params_check(&raw_f), EDGEL_ERROR_INVALID_ARGUMENT,
                 "edgel_filter_params_default");

    /* From a newer header than the library's: refused, saying so. */
    struct {
        edgel_canny_params p;
        double field_of_a_later_version;
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.p = p;
    newer.p.struct_size = 1 << 20;
    CHECK_STATUS(edgel_canny(ctx, &newer.p, &s, &eb, NULL), EDGEL_ERROR_UNSUPPORTED,
                 "newer edgel header");
    CHECK_STATUS(edgel_canny(ctx, NULL, &s, &eb, NULL), EDGEL_ERROR_NULL_ARGUMENT, "params");

    /* An init writes the caller's size and nothing past it. */
    unsigned char buf[sizeof(edgel_canny_params) + 16];
    memset(buf, 0xab, sizeof buf);
    edgel_canny_params_init((edgel_canny_params *)(void *)buf, 12);
    uint32_t size;
    memcpy(&size, buf, sizeof size);
    CHECK(size == 12);
    int untouched = 1;
    for (size_t i = 12; i < sizeof buf; i++)
        untouched &= buf[i] == 0xab;
    CHECK(untouched);

    /* The same params through a struct copied field by field (as another language's binding
     * lays it out) give the same edges. */
    edgel_canny_params q;
    edgel_canny_params_init(&q, sizeof q);
    q.blur = p.blur;
    q.blur_sigma = p.blur_sigma;
    CHECK(edgel_canny(ctx, &q, &s, &eb, NULL) == EDGEL_OK);
    CHECK(memcmp(a, b, W * H) == 0);

    edgel_context_destroy(ctx);
    free(src);
    free(a);
    free(b);
    return check_summary("abi");
}
