/* libFuzzer target, differential: sub-pixel curves in pieces against the whole image. Any
 * decoded image (colour as a wider gray image) is cut into a grid of pieces at columns and
 * rows read from the option bytes, each with edgel_subpixel_halo's margin inside the image;
 * each piece's points (edgel_subpixel_find_points, its place given) keep their own pixels,
 * their neighbours renamed by pixel; all are sorted in the reference's order and chained
 * (edgel_subpixel_chain_points): the curves must equal edgel_subpixel_edges' on the whole
 * image, array for array. */
#include "fuzz_file.h" /* first: it asks for _GNU_SOURCE */
#define EDGEL_EXPERIMENTAL /* edgel_components, the sub-pixel pieces */
#include "edgel.h"
#include "fuzz_input.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OPTION_BYTES = 5 };

typedef struct point {
    double v[7]; /* x, y, gx, gy, modulus, fwd score, bck score */
    int64_t px, py, fpx, fpy, bpx, bpy;
} point;

static int by_pixel(const void *a, const void *b)
{
    const point *p = a, *q = b;
    if (p->px != q->px)
        return p->px < q->px ? -1 : 1;
    return (p->py > q->py) - (p->py < q->py);
}

static int64_t find(const point *all, int64_t n, int64_t px, int64_t py)
{
    if (px < 0)
        return -1;
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        const int64_t mid = (lo + hi) / 2;
        if (all[mid].px < px || (all[mid].px == px && all[mid].py < py))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= n || all[lo].px != px || all[lo].py != py)
        abort(); /* a neighbour is a point of some piece */
    return lo;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *opt;
    edgel_image img;
    if (!fuzz_decode(data, size, OPTION_BYTES, &img, &opt))
        return 0;
    const edgel_image gray = fuzz_as_gray(&img);
    edgel_subpixel_params p;
    fuzz_subpixel_params(&p, opt);
    static edgel_curves *whole, *piece, *chained;
    if (!whole && (edgel_curves_create(&whole) != EDGEL_OK ||
                   edgel_curves_create(&piece) != EDGEL_OK ||
                   edgel_curves_create(&chained) != EDGEL_OK))
        abort();
    if (edgel_subpixel_edges(fuzz_context(), &p, &gray, whole) != EDGEL_OK) {
        edgel_io_free(&img);
        return 0;
    }
    const int halo = edgel_subpixel_halo(p.sigma), w = gray.width, h = gray.height;
    /* cuts: up to 2 interior columns and rows, pieces at least the halo wide */
    int xs[4] = {0, 0, 0, 0}, ys[4] = {0, 0, 0, 0}, nx = 1, ny = 1;
    for (int k = 0; k < 2; k++) {
        const int cx = (opt[3] >> (4 * k) & 15) * w / 16, cy = (opt[4] >> (4 * k) & 15) * h / 16;
        if (cx - xs[nx - 1] >= halo && w - cx >= halo)
            xs[nx++] = cx;
        if (cy - ys[ny - 1] >= halo && h - cy >= halo)
            ys[ny++] = cy;
    }
    xs[nx] = w, ys[ny] = h;
    point *all = NULL;
    int64_t n = 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            const int ax = xs[i] - (i ? halo : 0), bx = xs[i + 1] + (i + 1 < nx ? halo : 0);
            const int ay = ys[j] - (j ? halo : 0), by = ys[j + 1] + (j + 1 < ny ? halo : 0);
            edgel_image cut = gray;
            cut.data = (uint8_t *)gray.data + (size_t)ay * gray.pitch +
                       (size_t)ax * edgel_pixel_size(gray.type);
            cut.width = bx - ax, cut.height = by - ay;
            edgel_subpixel_points v;
            edgel_subpixel_points_default(&v);
            if (edgel_subpixel_find_points(fuzz_context_of(2), &p, &cut, ax, ay, piece) !=
                    EDGEL_OK ||
                edgel_curves_get_points(piece, &v) != EDGEL_OK)
                abort();
            all = realloc(all, sizeof *all * (size_t)(n + v.count + 1));
            for (int64_t k = 0; k < v.count; k++) {
                const int64_t gx = v.px[k] + ax, gy = v.py[k] + ay;
                if (gx < xs[i] || gx >= xs[i + 1] || gy < ys[j] || gy >= ys[j + 1])
                    continue; /* another piece's */
                point *q = &all[n++];
                const double *arrays[7] = {v.x, v.y, v.gx, v.gy, v.modulus, v.fwd_score,
                                           v.bck_score};
                for (int a = 0; a < 7; a++)
                    q->v[a] = arrays[a][k];
                q->px = gx, q->py = gy;
                q->fpx = v.fwd[k] >= 0 ? v.px[v.fwd[k]] + ax : -1;
                q->fpy = v.fwd[k] >= 0 ? v.py[v.fwd[k]] + ay : -1;
                q->bpx = v.bck[k] >= 0 ? v.px[v.bck[k]] + ax : -1;
                q->bpy = v.bck[k] >= 0 ? v.py[v.bck[k]] + ay : -1;
            }
        }
    qsort(all, (size_t)n, sizeof *all, by_pixel);
    double *d = malloc(sizeof(double) * 7 * (size_t)(n + 1));
    int32_t *ints = malloc(sizeof(int32_t) * 4 * (size_t)(n + 1));
    for (int64_t k = 0; k < n; k++) {
        for (int a = 0; a < 7; a++)
            d[a * n + k] = all[k].v[a];
        ints[k] = (int32_t)all[k].px, ints[n + k] = (int32_t)all[k].py;
        ints[2 * n + k] = (int32_t)find(all, n, all[k].fpx, all[k].fpy);
        ints[3 * n + k] = (int32_t)find(all, n, all[k].bpx, all[k].bpy);
    }
    edgel_subpixel_points in;
    edgel_subpixel_points_default(&in);
    in.count = n;
    in.x = d, in.y = d + n, in.gx = d + 2 * n, in.gy = d + 3 * n, in.modulus = d + 4 * n;
    in.fwd_score = d + 5 * n, in.bck_score = d + 6 * n;
    in.px = ints, in.py = ints + n, in.fwd = ints + 2 * n, in.bck = ints + 3 * n;
    edgel_curves_view a, b;
    edgel_curves_view_default(&a);
    edgel_curves_view_default(&b);
    if (edgel_subpixel_chain_points(fuzz_context_of(3), &p, &in, chained) != EDGEL_OK ||
        edgel_curves_get(whole, &a) != EDGEL_OK || edgel_curves_get(chained, &b) != EDGEL_OK ||
        !fuzz_same_curves(&a, &b))
        abort();
    free(all), free(d), free(ints);
    edgel_io_free(&img);
    return 0;
}
