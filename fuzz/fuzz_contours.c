/* libFuzzer target: sub-pixel curves (edgel_subpixel_edges) of any decoded image, gray or
 * converted to doubles as its type allows, with sigma and thresholds from the last option
 * bytes: the same curves on 1 and 3 threads; every curve well formed (limits increasing, a
 * closed curve's last point its first; for finite images, each point's modulus at least the
 * lower of the thresholds); then each writer (txt, svg, json, geojson, npz) leaves exactly its
 * file. */
#include "fuzz_file.h" /* first: it asks for _GNU_SOURCE */
#include "edgel.h"
#include "fuzz_input.h"
#include "io/curves_io.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OPTION_BYTES = 4 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *opt;
    edgel_image img;
    if (!fuzz_decode(data, size, OPTION_BYTES, &img, &opt))
        return 0;
    const edgel_image gray = fuzz_as_gray(&img);
    edgel_subpixel_params p;
    edgel_subpixel_params_default(&p);
    p.sigma = opt[0] / 32.0;
    p.high = opt[1] / 2.0;
    p.low = opt[2] / 2.0;
    static edgel_curves *one, *three;
    if (!one && (edgel_curves_create(&one) != EDGEL_OK || edgel_curves_create(&three) != EDGEL_OK))
        abort();
    /* a CPU context's curves stay on the host whatever the place asked */
    if (edgel_curves_set_place(three, (edgel_curves_place)(opt[0] & 1)) != EDGEL_OK)
        abort();
    const edgel_status a = edgel_subpixel_edges(fuzz_context(), &p, &gray, one);
    const edgel_status b = edgel_subpixel_edges(fuzz_context_of(3), &p, &gray, three);
    if (a != b || (a != EDGEL_OK && a != EDGEL_ERROR_UNSUPPORTED))
        abort();
    edgel_curves_view va, vb;
    edgel_curves_view_default(&va);
    edgel_curves_view_default(&vb);
    if (edgel_curves_get(one, &va) != EDGEL_OK || edgel_curves_get(three, &vb) != EDGEL_OK ||
        vb.device != -1 || !fuzz_same_curves(&va, &vb))
        abort();
    if (va.limits[0] != 0 || va.limits[va.curves] != va.points)
        abort();
    /* the copy out, interleaved, on 2 threads: the view's values */
    const size_t n = (size_t)va.points, m = (size_t)va.curves;
    double *xy = malloc(16 * n + 1), *grad = malloc(16 * n + 1), *mod = malloc(8 * n + 1);
    int64_t *limits = malloc(8 * (m + 1));
    uint8_t *closed = malloc(m + 1);
    if (!xy || !grad || !mod || !limits || !closed ||
        edgel_curves_copy(three, xy, grad, mod, limits, closed, 2) != EDGEL_OK ||
        memcmp(limits, va.limits, 8 * (m + 1)) || memcmp(closed, va.closed, m) ||
        memcmp(mod, va.modulus, 8 * n))
        abort();
    for (size_t i = 0; i < n; i++)
        if (memcmp(&xy[2 * i], &va.x[i], 8) || memcmp(&xy[2 * i + 1], &va.y[i], 8) ||
            memcmp(&grad[2 * i], &va.gx[i], 8) || memcmp(&grad[2 * i + 1], &va.gy[i], 8))
            abort();
    free(xy), free(grad), free(mod), free(limits), free(closed);
    for (int64_t k = 0; k < va.curves; k++) {
        const int64_t s = va.limits[k], e = va.limits[k + 1] - 1;
        if (e < s + 1 || (va.closed[k] && (va.x[s] != va.x[e] || va.y[s] != va.y[e])))
            abort();
    }
    /* (Positions are not bounded: on a nearly flat image a maximum within the reference's
     * tolerance of 1000 ulps can put the parabola's vertex pixels away, as the reference
     * program does; the corpus keeps such an image.) */
    int finite = 1;
    for (size_t i = 0; img.type == EDGEL_F32 && i < (size_t)gray.width * gray.height; i++)
        finite &= isfinite(((const float *)img.data)[i]) != 0;
    const double lowest = p.low < p.high ? p.low : p.high;
    for (int64_t i = 0; finite && i < va.points; i++)
        if (!(va.modulus[i] >= lowest))
            abort();
    static const char *const names[] = {"c.txt", "c.svg", "c.json", "c.geojson", "c.npz"};
    const edgel_image *bg = img.type == EDGEL_U8 && img.channels == 1 ? &img : NULL;
    const edgel_curves_meta meta = {gray.width, gray.height, p.sigma, p.high, p.low, bg, 1.3};
    for (int i = 0; i < 5 && a == EDGEL_OK && (opt[3] >> i & 1); i++) {
        char path[160];
        snprintf(path, sizeof path, "%s/%s", fuzz_dir(), names[i]);
        if (edgel_curves_write(path, &va, &meta) != EDGEL_OK)
            abort();
        fuzz_dir_expect(names[i]);
    }
    edgel_io_free(&img);
    return 0;
}
