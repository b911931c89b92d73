/*
 * Canny of an image of any size, in tiles, byte-identical to one call on the whole image
 * (edgel_canny_tiled). Both presets' stages before hysteresis are local: a tile's classes
 * (none, weak, strong) come exactly from a region of the tile and a halo (halo_of), run
 * through the context's backend like any image (its borders are the image's only where it
 * touches them; elsewhere the halo absorbs the difference). Hysteresis is global: an edge is every
 * candidate pixel of an 8-connected component of candidates that holds a strong pixel. So:
 *   1. each tile's components are labelled; those that touch the tile's sides become nodes
 *      of a union-find, with a flag for holding a strong pixel;
 *   2. nodes on either side of each tile border are joined where their pixels touch (the
 *      rows above and below a tile-row border, full width, so corners are included; the
 *      columns beside a tile-column border, their rows and the rows either side);
 *   3. each tile is computed again and a component's pixels are edges when it, or the set
 *      its node belongs to, holds a strong pixel.
 * Memory: one region and its results, and a node a border-touching component (at most the
 * tiles' perimeters), never the image.
 */
#include "api/context.h"
#include "core/image.h"
#include "core/itk_gaussian.h"
#include "core/params.h"
#include "core/status.h"

#include <stdlib.h>
#include <string.h>

#define CLASS_NONE 0
#define CLASS_WEAK 128
#define CLASS_STRONG 255

typedef struct nodes {
    int64_t *parent;
    uint8_t *strong;
    int64_t count, cap;
} nodes;

static int64_t find(nodes *n, int64_t a)
{
    while (n->parent[a] != a) {
        n->parent[a] = n->parent[n->parent[a]];
        a = n->parent[a];
    }
    return a;
}

static void join(nodes *n, int64_t a, int64_t b)
{
    if (a < 0 || b < 0)
        return;
    a = find(n, a);
    b = find(n, b);
    if (a == b)
        return;
    if (a > b) {
        const int64_t t = a;
        a = b;
        b = t;
    }
    n->parent[b] = a;
    n->strong[a] |= n->strong[b];
}

static int64_t add_node(nodes *n, int strong)
{
    if (n->count == n->cap) {
        const int64_t cap = n->cap ? 2 * n->cap : 4096;
        int64_t *p = realloc(n->parent, sizeof *p * (size_t)cap);
        if (!p)
            return -1;
        n->parent = p;
        uint8_t *s = realloc(n->strong, (size_t)cap);
        if (!s)
            return -1;
        n->strong = s;
        n->cap = cap;
    }
    n->parent[n->count] = n->count;
    n->strong[n->count] = (uint8_t)strong;
    return n->count++;
}

/* One tiled call's buffers and geometry. */
typedef struct tiled {
    edgel_context *ctx;
    const edgel_canny_params *params;
    const edgel_tile_io *io;
    int64_t w, h;
    int tw, th, halo, cn, itk;
    size_t pixel; /* bytes of a source pixel */
    int64_t tiles_x, tiles_y;
    uint8_t *region, *region_edges, *region_classes; /* (tw + 2 halo) x (th + 2 halo) */
    float *region_sup;                                /* itk: the suppressed stage */
    int32_t *labels;                                  /* tw x th, -1: no candidate */
    uint8_t *comp_strong;                             /* a tile's components */
    int64_t *comp_node;                               /* their nodes, -1: inside the tile */
    int32_t *stack;                                   /* flood fill, 2 * tw * th */
    int64_t *node_base;                               /* the first node of each tile */
    int64_t *row_above, *row_top, *row_bottom;        /* node of each column, full width */
    int64_t *col_right;                               /* the last tile's right column */
    nodes n;
} tiled;

/* The halo that makes a tile's classes exact. opencv: the blur's radius, the Sobel's, and
 * one for non-maximum suppression; itk: the Gaussian's radius, one for the second
 * derivative's neighbourhood, one for the suppression's. */
static edgel_status halo_of(const edgel_canny_params *p, int *halo)
{
    if (p->preset == EDGEL_PRESET_ITK) {
        double kernel[2 * EDGEL_ITK_MAX_RADIUS + 1];
        *halo = edgel_itk_gaussian_kernel(p->variance, p->maximum_error, kernel) + 2;
        return EDGEL_OK;
    }
    int blur = 0;
    if (p->blur == EDGEL_BLUR_GAUSSIAN) {
        int32_t k;
        EDGEL_TRY(edgel_resolve_gaussian(p->blur_ksize, p->blur_sigma, &k));
        blur = k / 2;
    } else if (p->blur == EDGEL_BLUR_5X5_159) {
        blur = 2;
    }
    const int sobel = p->aperture == EDGEL_APERTURE_SCHARR ? 1 : p->aperture / 2;
    *halo = blur + sobel + 1;
    return EDGEL_OK;
}

/* The classes of tile (tx, ty) into t->region_classes, as rows of `cw` bytes: read the region,
 * run the backend on it, crop. *cw, *ch: the tile's size. */
static edgel_status tile_classes(tiled *t, int64_t tx, int64_t ty, int *cw, int *ch)
{
    const int64_t x0 = tx * t->tw, y0 = ty * t->th;
    const int64_t x1 = x0 + t->tw < t->w ? x0 + t->tw : t->w;
    const int64_t y1 = y0 + t->th < t->h ? y0 + t->th : t->h;
    const int64_t rx0 = x0 - t->halo > 0 ? x0 - t->halo : 0;
    const int64_t ry0 = y0 - t->halo > 0 ? y0 - t->halo : 0;
    const int64_t rx1 = x1 + t->halo < t->w ? x1 + t->halo : t->w;
    const int64_t ry1 = y1 + t->halo < t->h ? y1 + t->halo : t->h;
    const int rw = (int)(rx1 - rx0), rh = (int)(ry1 - ry0);
    edgel_image src = edgel_image_host(t->region, rw, rh, t->io->type, t->cn);
    const edgel_status st = t->io->read(t->io->user, rx0, ry0, &src);
    if (st != EDGEL_OK)
        return edgel_fail(st, "tiled Canny: the read callback failed for %dx%d at (%lld, %lld)",
                          rw, rh, (long long)rx0, (long long)ry0);
    edgel_image edges = edgel_image_host(t->region_edges, rw, rh, EDGEL_U8, 1);
    /* the region's suppressed map: its classes (opencv), or ITK's suppressed values */
    uint8_t *sup = t->region_edges + (size_t)rw * rh;
    edgel_image supv = t->itk ? edgel_image_host(t->region_sup, rw, rh, EDGEL_F32, 1)
                              : edgel_image_host(sup, rw, rh, EDGEL_U8, 1);
    edgel_canny_stages stages = {0};
    stages.suppressed = &supv;
    EDGEL_TRY(t->ctx->ops->canny(t->ctx->state, t->params, &src, &edges, 1, &stages));
    *cw = (int)(x1 - x0);
    *ch = (int)(y1 - y0);
    const float lower = (float)t->params->low_threshold, upper = (float)t->params->high_threshold;
    for (int y = 0; y < *ch; y++) {
        const size_t at = (size_t)(y0 - ry0 + y) * rw + (size_t)(x0 - rx0);
        uint8_t *dst = t->region_classes + (size_t)y * *cw;
        if (!t->itk) {
            memcpy(dst, sup + at, (size_t)*cw);
            continue;
        }
        for (int x = 0; x < *cw; x++) { /* ITK's strict float comparisons, no swap */
            const float v = t->region_sup[at + x];
            dst[x] = v > upper ? CLASS_STRONG : v > lower ? CLASS_WEAK : CLASS_NONE;
        }
    }
    return EDGEL_OK;
}

/* 8-connected components of the candidates of a cw x ch class map, in raster order of their
 * first pixel; returns how many (t->labels, t->comp_strong). */
static int label_tile(tiled *t, int cw, int ch)
{
    const uint8_t *c = t->region_classes;
    int32_t *lab = t->labels;
    const int n = cw * ch;
    for (int i = 0; i < n; i++)
        lab[i] = -1;
    int comps = 0;
    for (int i = 0; i < n; i++) {
        if (c[i] == CLASS_NONE || lab[i] >= 0)
            continue;
        int strong = 0, top = 0;
        lab[i] = comps;
        t->stack[top++] = i;
        while (top) {
            const int p = t->stack[--top];
            strong |= c[p] == CLASS_STRONG;
            const int px = p % cw, py = p / cw;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    const int qx = px + dx, qy = py + dy;
                    if (qx < 0 || qy < 0 || qx >= cw || qy >= ch)
                        continue;
                    const int q = qy * cw + qx;
                    if (c[q] != CLASS_NONE && lab[q] < 0) {
                        lab[q] = comps;
                        t->stack[top++] = q;
                    }
                }
        }
        t->comp_strong[comps++] = (uint8_t)strong;
    }
    return comps;
}

/* The node of each component that touches the tile's sides (numbered from *next in the
 * order of the components), -1 for the others. Returns -1 when out of memory. */
static int assign_nodes(tiled *t, int comps, int cw, int ch, int create)
{
    for (int k = 0; k < comps; k++)
        t->comp_node[k] = -1;
    for (int y = 0; y < ch; y++) {
        const int step = y == 0 || y == ch - 1 ? 1 : (cw > 1 ? cw - 1 : 1); /* inner: the ends */
        for (int x = 0; x < cw; x += step) {
            const int32_t l = t->labels[(size_t)y * cw + x];
            if (l >= 0)
                t->comp_node[l] = 1; /* mark */
        }
    }
    int64_t next = create ? t->n.count : 0;
    for (int k = 0; k < comps; k++) {
        if (t->comp_node[k] < 0)
            continue;
        if (create) {
            if ((t->comp_node[k] = add_node(&t->n, t->comp_strong[k])) < 0)
                return -1;
        } else {
            t->comp_node[k] = next++;
        }
    }
    return 0;
}

static edgel_status oom(void)
{
    return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "tiled Canny: out of memory for border labels");
}

/* Pass 1: labels, nodes, joins across borders. */
static edgel_status link_tiles(tiled *t)
{
    for (int64_t ty = 0; ty < t->tiles_y; ty++) {
        for (int64_t tx = 0; tx < t->tiles_x; tx++) {
            int cw, ch;
            EDGEL_TRY(tile_classes(t, tx, ty, &cw, &ch));
            const int comps = label_tile(t, cw, ch);
            t->node_base[ty * t->tiles_x + tx] = t->n.count;
            if (assign_nodes(t, comps, cw, ch, 1) < 0)
                return oom();
            const int64_t x0 = tx * t->tw;
            for (int x = 0; x < cw; x++) { /* the tile's top and bottom rows, full width */
                const int32_t a = t->labels[x], b = t->labels[(size_t)(ch - 1) * cw + x];
                t->row_top[x0 + x] = a >= 0 ? t->comp_node[a] : -1;
                t->row_bottom[x0 + x] = b >= 0 ? t->comp_node[b] : -1;
            }
            /* across the tile-column border on the left: the last tile's right column
             * against this one's left column, rows y-1..y+1 */
            for (int y = 0; tx > 0 && y < ch; y++) {
                const int32_t l = t->labels[(size_t)y * cw];
                if (l < 0)
                    continue;
                for (int dy = -1; dy <= 1; dy++)
                    if (y + dy >= 0 && y + dy < ch)
                        join(&t->n, t->comp_node[l], t->col_right[y + dy]);
            }
            for (int y = 0; y < ch; y++) {
                const int32_t r = t->labels[(size_t)y * cw + cw - 1];
                t->col_right[y] = r >= 0 ? t->comp_node[r] : -1;
            }
        }
        /* across the tile-row border above: columns x-1..x+1 over the full width */
        for (int64_t x = 0; ty > 0 && x < t->w; x++) {
            if (t->row_top[x] < 0)
                continue;
            for (int dx = -1; dx <= 1; dx++)
                if (x + dx >= 0 && x + dx < t->w)
                    join(&t->n, t->row_top[x], t->row_above[x + dx]);
        }
        int64_t *swap = t->row_above;
        t->row_above = t->row_bottom;
        t->row_bottom = swap;
    }
    return EDGEL_OK;
}

/* Pass 2: each tile again; its edges to the writer. */
static edgel_status write_tiles(tiled *t)
{
    for (int64_t ty = 0; ty < t->tiles_y; ty++)
        for (int64_t tx = 0; tx < t->tiles_x; tx++) {
            int cw, ch;
            EDGEL_TRY(tile_classes(t, tx, ty, &cw, &ch));
            const int comps = label_tile(t, cw, ch);
            assign_nodes(t, comps, cw, ch, 0);
            const int64_t base = t->node_base[ty * t->tiles_x + tx];
            for (int k = 0; k < comps; k++)
                if (t->comp_node[k] >= 0)
                    t->comp_strong[k] = t->n.strong[find(&t->n, base + t->comp_node[k])];
            uint8_t *e = t->region_edges;
            for (int i = 0; i < cw * ch; i++)
                e[i] = t->labels[i] >= 0 && t->comp_strong[t->labels[i]] ? 255 : 0;
            const edgel_image view = edgel_image_host(e, cw, ch, EDGEL_U8, 1);
            const edgel_status st = t->io->write(t->io->user, tx * t->tw, ty * t->th, &view);
            if (st != EDGEL_OK)
                return edgel_fail(st, "tiled Canny: the write callback failed for the tile at "
                                  "(%lld, %lld)", (long long)(tx * t->tw),
                                  (long long)(ty * t->th));
        }
    return EDGEL_OK;
}

static edgel_status check_tiled(const edgel_canny_params *params, const edgel_tile_io *io,
                                int32_t tw, int32_t th, int *halo)
{
    if (!params || !io || !io->read || !io->write)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "params, io or its callbacks are NULL");
    EDGEL_TRY(edgel_check_canny_params(params, 0));
    if (io->width < 1 || io->height < 1 || io->width > EDGEL_MAX_TILED_DIMENSION ||
        io->height > EDGEL_MAX_TILED_DIMENSION ||
        io->width * io->height > EDGEL_MAX_TILED_PIXELS)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE,
                          "tiled Canny: %lldx%lld must be 1..%d a side, %lld pixels in all",
                          (long long)io->width, (long long)io->height, EDGEL_MAX_TILED_DIMENSION,
                          (long long)EDGEL_MAX_TILED_PIXELS);
    if (io->channels != 1 && io->channels != 3 && io->channels != 4)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "tiled Canny: channels must be 1, 3 or 4");
    const int itk = params->preset == EDGEL_PRESET_ITK;
    if (itk ? io->channels != 1 || (io->type != EDGEL_U8 && io->type != EDGEL_U16 &&
                                    io->type != EDGEL_F32)
            : io->type != EDGEL_U8)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED,
                          "tiled Canny: the opencv preset reads u8, the itk preset 1-channel u8, "
                          "u16 or f32");
    EDGEL_TRY(halo_of(params, halo));
    if (tw < 1 || th < 1 || (int64_t)tw + 2 * *halo > EDGEL_MAX_DIMENSION ||
        (int64_t)th + 2 * *halo > EDGEL_MAX_DIMENSION ||
        ((int64_t)tw + 2 * *halo) * ((int64_t)th + 2 * *halo) > EDGEL_MAX_PIXELS / 4)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE,
                          "tiled Canny: tiles of %dx%d (with a halo of %d) out of range", (int)tw,
                          (int)th, *halo);
    return EDGEL_OK;
}

static edgel_status canny_tiled_held(edgel_context *ctx, const edgel_canny_params *params,
                                     const edgel_tile_io *io, int32_t tw, int32_t th)
{
    int halo = 0;
    EDGEL_TRY(check_tiled(params, io, tw, th, &halo));
    tiled t = {0};
    t.ctx = ctx, t.params = params, t.io = io, t.w = io->width, t.h = io->height;
    t.tw = tw, t.th = th, t.halo = halo, t.cn = io->channels;
    t.itk = params->preset == EDGEL_PRESET_ITK, t.pixel = edgel_pixel_size(io->type);
    t.tiles_x = (t.w + tw - 1) / tw, t.tiles_y = (t.h + th - 1) / th;
    const size_t region = ((size_t)tw + 2 * halo) * ((size_t)th + 2 * halo);
    const size_t tile = (size_t)tw * th;
    t.region = malloc(region * (size_t)t.cn * t.pixel);
    t.region_sup = t.itk ? malloc(sizeof(float) * region) : NULL;
    t.region_edges = malloc(2 * region);
    t.region_classes = malloc(tile);
    t.labels = malloc(sizeof *t.labels * tile);
    t.comp_strong = malloc(tile);
    t.comp_node = malloc(sizeof *t.comp_node * tile);
    t.stack = malloc(sizeof *t.stack * tile);
    t.node_base = malloc(sizeof *t.node_base * (size_t)(t.tiles_x * t.tiles_y));
    t.row_above = malloc(sizeof(int64_t) * (size_t)t.w);
    t.row_top = malloc(sizeof(int64_t) * (size_t)t.w);
    t.row_bottom = malloc(sizeof(int64_t) * (size_t)t.w);
    t.col_right = malloc(sizeof(int64_t) * (size_t)th);
    edgel_status st = EDGEL_OK;
    if (!t.region || (t.itk && !t.region_sup) || !t.region_edges || !t.region_classes || !t.labels || !t.comp_strong ||
        !t.comp_node || !t.stack || !t.node_base || !t.row_above || !t.row_top ||
        !t.row_bottom || !t.col_right)
        st = edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "tiled Canny: out of memory for %dx%d tiles",
                        (int)tw, (int)th);
    if (st == EDGEL_OK)
        st = link_tiles(&t);
    if (st == EDGEL_OK)
        st = write_tiles(&t);
    free(t.region), free(t.region_sup), free(t.region_edges), free(t.region_classes);
    free(t.labels);
    free(t.comp_strong), free(t.comp_node), free(t.stack), free(t.node_base);
    free(t.row_above), free(t.row_top), free(t.row_bottom), free(t.col_right);
    free(t.n.parent), free(t.n.strong);
    return st;
}

edgel_status edgel_canny_tile_halo(const edgel_canny_params *params, int32_t *halo)
{
    if (!params || !halo)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "params or halo is NULL");
    EDGEL_TRY(edgel_check_canny_params(params, 0));
    int h = 0;
    EDGEL_TRY(halo_of(params, &h));
    *halo = h;
    return EDGEL_OK;
}

edgel_status edgel_canny_tiled(edgel_context *ctx, const edgel_canny_params *params,
                               const edgel_tile_io *io, int32_t tile_width, int32_t tile_height)
{
    EDGEL_WITH_CONTEXT(ctx, canny_tiled_held(ctx, params, io, tile_width, tile_height));
}
