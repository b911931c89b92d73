/* edgel contours on images larger than memory: the image read a row at a time and cut into
 * strips of whole rows, each found with a halo of rows above and below
 * (edgel_subpixel_find_points), its own rows' points kept with their neighbours named by
 * pixel; then every point put in the reference's order (column by column: a column's points
 * strip after strip), the neighbours turned into indices, and the whole chained at once
 * (edgel_subpixel_chain_points): the curves of the whole image, point for point. */
#include "cli.h"
#include "io/image_io.h"
#include "io/row_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A strip's own points, their neighbours by pixel (x, y; -1: none), and how many fall in
 * each column. */
typedef struct strip_points {
    int64_t count;
    double *x, *y, *gx, *gy, *mod, *fwd_s, *bck_s;
    int32_t *px, *py, *fwd_x, *fwd_y, *bck_x, *bck_y;
    int32_t *per_column; /* width entries */
    int32_t y0, y1;      /* its own rows */
} strip_points;

static void free_strip(strip_points *s)
{
    void *all[] = {s->x,    s->y,    s->gx,    s->gy,    s->mod,   s->fwd_s, s->bck_s,
                   s->px,   s->py,   s->fwd_x, s->fwd_y, s->bck_x, s->bck_y, s->per_column};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
    memset(s, 0, sizeof *s);
}

/* The points of `v` (a piece whose first row is image row `top`) whose pixel is in rows
 * y0 .. y1 - 1, into s. 0 when out of memory. */
static int keep_strip(const edgel_subpixel_points *v, int64_t top, int32_t y0, int32_t y1,
                      int64_t width, strip_points *s)
{
    int64_t n = 0;
    for (int64_t i = 0; i < v->count; i++)
        n += v->py[i] + top >= y0 && v->py[i] + top < y1;
    const size_t m = (size_t)(n ? n : 1);
    double **d[] = {&s->x, &s->y, &s->gx, &s->gy, &s->mod, &s->fwd_s, &s->bck_s};
    int32_t **k[] = {&s->px, &s->py, &s->fwd_x, &s->fwd_y, &s->bck_x, &s->bck_y};
    int ok = 1;
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        ok &= (*d[i] = malloc(m * sizeof(double))) != NULL;
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        ok &= (*k[i] = malloc(m * sizeof(int32_t))) != NULL;
    s->per_column = calloc((size_t)width, sizeof(int32_t));
    if (!ok || !s->per_column)
        return 0;
    s->count = n, s->y0 = y0, s->y1 = y1;
    int64_t j = 0;
    for (int64_t i = 0; i < v->count; i++) {
        const int32_t py = (int32_t)(v->py[i] + top);
        if (py < y0 || py >= y1)
            continue;
        s->x[j] = v->x[i], s->y[j] = v->y[i], s->gx[j] = v->gx[i], s->gy[j] = v->gy[i];
        s->mod[j] = v->modulus[i], s->fwd_s[j] = v->fwd_score[i], s->bck_s[j] = v->bck_score[i];
        s->px[j] = v->px[i], s->py[j] = py;
        const int32_t f = v->fwd[i], b = v->bck[i];
        s->fwd_x[j] = f < 0 ? -1 : v->px[f], s->fwd_y[j] = f < 0 ? -1 : (int32_t)(v->py[f] + top);
        s->bck_x[j] = b < 0 ? -1 : v->px[b], s->bck_y[j] = b < 0 ? -1 : (int32_t)(v->py[b] + top);
        s->per_column[v->px[i]]++;
        j++;
    }
    return 1;
}

/* The image: strips of `rows` rows, their points. */
typedef struct strips {
    strip_points *s;
    int count, cap;
    int64_t width, height;
} strips;

/* Where each strip's points of each column go: first[s * width + x]. */
static int64_t *column_starts(const strips *all, int64_t *total)
{
    const int64_t w = all->width;
    int64_t *first = malloc(sizeof(int64_t) * (size_t)(all->count * w + 1));
    if (!first)
        return NULL;
    int64_t at = 0;
    for (int64_t x = 0; x < w; x++)
        for (int s = 0; s < all->count; s++) {
            first[s * w + x] = at;
            at += all->s[s].per_column[x];
        }
    *total = at;
    return first;
}

/* A library call's failure as the io layer's, so that the caller has one message to print. */
static edgel_status library_failed(edgel_status st)
{
    return st == EDGEL_OK ? st : edgel_io_fail(st, "%s", edgel_last_error());
}

edgel_status contours_in_strips(const char *input, const edgel_subpixel_params *params,
                                edgel_context *ctx, size_t memory, int rows, int quiet,
                                edgel_curves *curves, int64_t *width, int64_t *height)
{
    edgel_row_reader *r;
    int64_t w, h;
    int cn;
    EDGEL_IO_TRY(edgel_row_reader_open(input, memory, &r, &w, &h, &cn));
    const edgel_pixel_type type = edgel_row_reader_type(r);
    const int halo = edgel_subpixel_halo(params->sigma);
    const size_t item = edgel_pixel_size(type), row_bytes = (size_t)w * cn * item;
    if (rows < 1) { /* strips within a quarter of --memory: the rows, their gray and work */
        const size_t fit = memory / 4 / ((size_t)w * (66 + (size_t)cn * item));
        rows = fit > (size_t)2 * halo + 1 ? (int)(fit - 2 * (size_t)halo < (1u << 30)
                                                      ? fit - 2 * (size_t)halo
                                                      : (1u << 30))
                                          : 1;
    }
    const int64_t band = rows + 2LL * halo; /* rows held: a strip and its halos */
    uint8_t *held = malloc(row_bytes * (size_t)(band < h ? band : h));
    uint8_t *gray = cn > 1 ? malloc((size_t)w * (size_t)(band < h ? band : h)) : NULL;
    strips all = {NULL, 0, 0, w, h};
    edgel_status st = held && (cn == 1 || gray) ? EDGEL_OK
                                                : edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY,
                                                             "out of memory for strips of %d "
                                                             "rows of %lld pixels", rows,
                                                             (long long)w);
    int64_t held_first = 0, held_rows = 0; /* the rows in `held`: from this image row */
    for (int64_t y0 = 0; st == EDGEL_OK && y0 < h; y0 += rows) {
        const int64_t y1 = y0 + rows < h ? y0 + rows : h;
        const int64_t top = y0 - halo > 0 ? y0 - halo : 0,
                      bottom = y1 + halo < h ? y1 + halo : h;
        /* drop the rows above the piece, read the rows below */
        const int64_t keep = held_first + held_rows - top;
        if (keep > 0 && top > held_first)
            memmove(held, held + (size_t)(top - held_first) * row_bytes, (size_t)keep * row_bytes);
        held_rows = keep > 0 ? keep : 0, held_first = top;
        while (st == EDGEL_OK && held_first + held_rows < bottom)
            st = edgel_row_reader_next(r, held + (size_t)held_rows++ * row_bytes);
        if (st != EDGEL_OK)
            break;
        edgel_image piece = edgel_image_host(held, (int32_t)w, (int32_t)(bottom - top), type, cn);
        if (cn > 1) {
            const edgel_image g = edgel_image_host(gray, (int32_t)w, (int32_t)(bottom - top),
                                                   EDGEL_U8, 1);
            st = library_failed(edgel_to_gray(ctx, EDGEL_GRAY_RGB, &piece, &g));
            piece = g;
        }
        if (st == EDGEL_OK)
            st = library_failed(edgel_subpixel_find_points(ctx, params, &piece, 0, top, curves));
        edgel_subpixel_points v;
        edgel_subpixel_points_default(&v);
        if (st == EDGEL_OK)
            st = library_failed(edgel_curves_get_points(curves, &v));
        if (st == EDGEL_OK && all.count == all.cap) {
            const int cap = all.cap ? 2 * all.cap : 16;
            strip_points *grown = realloc(all.s, sizeof *grown * (size_t)cap);
            if (!grown)
                st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the strips");
            else
                all.s = grown, all.cap = cap;
        }
        if (st == EDGEL_OK) {
            memset(&all.s[all.count], 0, sizeof all.s[0]);
            if (!keep_strip(&v, top, (int32_t)y0, (int32_t)y1, w, &all.s[all.count++]))
                st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a strip's points");
        }
        if (st == EDGEL_OK && !quiet && h >= 4096 && (y0 / rows) % 16 == 15)
            fprintf(stderr, "edgel contours: rows %lld of %lld\n", (long long)y1, (long long)h);
    }
    edgel_row_reader_close(r);
    free(held), free(gray);
    /* every point in the reference's order, neighbours as indices */
    int64_t total = 0, *first = st == EDGEL_OK ? column_starts(&all, &total) : NULL;
    if (st == EDGEL_OK && !first)
        st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the points' order");
    const size_t m = (size_t)(total ? total : 1);
    double *x = NULL, *y = NULL, *gx = NULL, *gy = NULL, *mod = NULL, *fs = NULL, *bs = NULL;
    int32_t *px = NULL, *py = NULL, *fwd = NULL, *bck = NULL;
    if (st == EDGEL_OK) {
        x = malloc(m * 8), y = malloc(m * 8), gx = malloc(m * 8), gy = malloc(m * 8);
        mod = malloc(m * 8), fs = malloc(m * 8), bs = malloc(m * 8);
        px = malloc(m * 4), py = malloc(m * 4), fwd = malloc(m * 4), bck = malloc(m * 4);
        if (!x || !y || !gx || !gy || !mod || !fs || !bs || !px || !py || !fwd || !bck)
            st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for %lld points",
                            (long long)total);
    }
    for (int s = 0; st == EDGEL_OK && s < all.count; s++) {
        const strip_points *p = &all.s[s];
        int64_t *cursor = first + s * w; /* (advanced as the strip's points are placed) */
        for (int64_t i = 0; i < p->count; i++) {
            const int64_t at = cursor[p->px[i]]++;
            x[at] = p->x[i], y[at] = p->y[i], gx[at] = p->gx[i], gy[at] = p->gy[i];
            mod[at] = p->mod[i], fs[at] = p->fwd_s[i], bs[at] = p->bck_s[i];
            px[at] = p->px[i], py[at] = p->py[i];
        }
    }
    for (int s = 0; st == EDGEL_OK && s < all.count; s++) /* the cursors back to the runs' starts */
        for (int64_t c = 0; c < w; c++)
            first[s * w + c] -= all.s[s].per_column[c];
    /* neighbours: the point at pixel (nx, ny) is in the strip holding row ny, in its run of
     * column nx, found by the row (the run is in order of rows) */
    for (int s = 0; st == EDGEL_OK && s < all.count; s++) {
        const strip_points *p = &all.s[s];
        int64_t *seen = calloc((size_t)w, sizeof(int64_t)); /* the strip's points met a column */
        if (!seen) {
            st = edgel_io_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory");
            break;
        }
        for (int64_t i = 0; i < p->count; i++) {
            const int64_t at = first[s * w + p->px[i]] + seen[p->px[i]]++;
            for (int dir = 0; dir < 2; dir++) {
                const int32_t nx = dir ? p->bck_x[i] : p->fwd_x[i],
                              ny = dir ? p->bck_y[i] : p->fwd_y[i];
                int32_t found = -1;
                if (nx >= 0) {
                    int t = 0;
                    while (t + 1 < all.count && ny >= all.s[t].y1)
                        t++;
                    int64_t lo = first[t * w + nx], hi = lo + all.s[t].per_column[nx];
                    while (lo < hi) { /* the run's rows ascend */
                        const int64_t mid = lo + (hi - lo) / 2;
                        if (py[mid] < ny)
                            lo = mid + 1;
                        else
                            hi = mid;
                    }
                    found = lo < first[t * w + nx] + all.s[t].per_column[nx] && py[lo] == ny
                                ? (int32_t)lo
                                : -1;
                    if (found < 0)
                        st = edgel_io_fail(EDGEL_ERROR_INTERNAL, "a neighbour at (%d, %d) is no "
                                        "point of its strip", nx, ny);
                }
                (dir ? bck : fwd)[at] = found;
            }
        }
        free(seen);
    }
    for (int s = 0; s < all.count; s++)
        free_strip(&all.s[s]);
    free(all.s);
    free(first);
    if (st == EDGEL_OK) {
        edgel_subpixel_points pts;
        edgel_subpixel_points_default(&pts);
        pts.count = total, pts.x = x, pts.y = y, pts.gx = gx, pts.gy = gy, pts.modulus = mod;
        pts.px = px, pts.py = py, pts.fwd = fwd, pts.bck = bck;
        pts.fwd_score = fs, pts.bck_score = bs;
        st = library_failed(edgel_subpixel_chain_points(ctx, params, &pts, curves));
    }
    free(x), free(y), free(gx), free(gy), free(mod), free(fs), free(bs);
    free(px), free(py), free(fwd), free(bck);
    *width = w, *height = h;
    return st;
}
