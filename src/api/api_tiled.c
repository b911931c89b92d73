/*
 * Canny of an image of any size, in tiles, byte-identical to one call on the whole image
 * (edgel_canny_tiled from callbacks, edgel_canny_tiled_image on host views). Both presets'
 * stages before hysteresis are local: a tile's classes (none, weak, strong) come exactly from
 * a region of the tile and a halo (halo_of). Hysteresis is global: an edge is every candidate
 * of an 8-connected component of candidates that holds a strong pixel. So:
 *   1. the backend gives each tile's marks (core/backend.h, canny_marks): edges where the
 *      tile alone makes them, OPEN on the other candidates whose component inside the tile
 *      touches its sides, none elsewhere; only those open components are left to decide;
 *   2. each open component becomes a node of the chunked driver (core/chunks.h, whose face
 *      join edgel_components exposes to drivers of their own), and an edge on a side the
 *      strong node 0; nodes on either side of each tile border are joined where their pixels
 *      touch (the columns beside a tile-column border; the rows above and below a tile-row
 *      border, full width, so corners are included);
 *   3. each open component becomes edges when its set holds node 0, else nothing.
 * The host touches only the open components' pixels (core/tile_flood.c); the backend does the
 * rest in parallel, and on views a row's links overlap the next row's marks
 * (core/host_pipeline.c).
 * From callbacks every tile is computed twice (its marks are not kept); on views the edges
 * hold the marks between the two steps, and each tile is computed once.
 * Memory: a region or a row of regions' views, and a node per open component, never the
 * image.
 */
#include "api/context.h"
#include "core/backend.h"
#include "core/chunks.h"
#include "core/host_pool.h"
#include "core/image.h"
#include "core/itk_gaussian.h"
#include "core/params.h"
#include "core/status.h"
#include "core/host_pipeline.h"
#include "core/tile_flood.h"
#include "core/union_find.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MARK_EDGE 255
#define MARK_OPEN 128 /* from the backend: a candidate of an open component */
#define MARK_SEEN 129 /* on views, between the two steps: an open component numbered */

/* One tiled call's geometry and buffers. */
typedef struct tiled {
    edgel_context *ctx;
    const edgel_canny_params *params;
    const edgel_tile_io *io;          /* from callbacks, or */
    const edgel_image *src, *dst;     /* on views */
    int64_t w, h;
    int tw, th, halo, cn;
    edgel_pixel_type type;
    edgel_chunk_grid g;               /* the image in tiles */
    int64_t tiles_x, tiles_y;
    uint8_t *region, *marks;          /* callbacks: a region, a tile's marks */
    uint8_t *sides;                   /* each tile of a row: its left, then right column */
    uint8_t **side_of;                /* views: sides + 2 * th * tx, three rows' */
    edgel_image *regions, *views;     /* views: three rows of tiles */
    edgel_tile_rect *rects;
    edgel_flood f;                    /* the numbering's (f.side: the current tile's sides) */
    edgel_side_nodes nodes;           /* the node of each side pixel of a tile, -1: none */
    int64_t *node_base;               /* the first node of each tile */
    edgel_chunk_faces faces;
    int faces_h;                      /* the height of the tile whose sides are in nodes */
    edgel_nodes n;
} tiled;

/* The widest of a GPU's tiles on host views. */
#define GPU_TILE_WIDTH 32768

/* The halo that makes a tile's classes exact. opencv: the blur's radius, the Sobel's, and
 * one for non-maximum suppression; itk: the Gaussian's radius, one for the second
 * derivative's neighbourhood, one for the suppression's. */
static edgel_status halo_of(const edgel_canny_params *p, int *halo)
{
    if (p->preset == EDGEL_PRESET_SKIMAGE)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED,
                          "the skimage preset runs on whole images (up to %d a side), not in "
                          "tiles", EDGEL_MAX_DIMENSION);
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

static edgel_status oom(void)
{
    return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "tiled Canny: out of memory for border labels");
}

/* From callbacks every tile is read twice; a source that changes in between cannot be joined. */
static edgel_status changed_source(void)
{
    return edgel_fail(EDGEL_ERROR_IO, "tiled Canny: the read callback gave other pixels the "
                      "second time (the source changed during the call); nothing is decided");
}

/* Tile (tx, ty), and its region: the tile and the halo inside the image. */
static void tile_geometry(const tiled *t, int64_t tx, int64_t ty, int64_t *rx0, int64_t *ry0,
                          edgel_tile_rect *region, edgel_tile_rect *tile)
{
    const int64_t index[3] = {tx, ty, 0};
    edgel_chunk c;
    edgel_chunk_at(&t->g, index, &c);
    *rx0 = c.lo[0], *ry0 = c.lo[1];
    region->x = region->y = 0;
    region->width = c.side[0], region->height = c.side[1];
    tile->x = (int32_t)(c.start[0] - c.lo[0]), tile->y = (int32_t)(c.start[1] - c.lo[1]);
    tile->width = c.length[0], tile->height = c.length[1];
}

/* A host view of the rectangle at (x, y) of `img`. */
static edgel_image sub_view(const edgel_image *img, int64_t x, int64_t y, int w, int h)
{
    edgel_image v = *img;
    v.data = (uint8_t *)img->data + (size_t)y * img->pitch +
             (size_t)x * (size_t)img->channels * edgel_pixel_size(img->type);
    v.width = w;
    v.height = h;
    return v;
}

/* Once every canny_marks call's marks are written (core/backend.h). */
static edgel_status marks_wait(tiled *t)
{
    return t->ctx->ops->canny_marks_wait ? t->ctx->ops->canny_marks_wait(t->ctx->state)
                                         : EDGEL_OK;
}

/* The marks of tile (tx, ty), from callbacks, into t->marks (packed). */
static edgel_status read_marks(tiled *t, int64_t tx, int64_t ty, edgel_image *marks)
{
    int64_t rx0, ry0;
    edgel_tile_rect r, tile;
    tile_geometry(t, tx, ty, &rx0, &ry0, &r, &tile);
    const edgel_image src = edgel_image_host(t->region, r.width, r.height, t->type, t->cn);
    const edgel_status st = t->io->read(t->io->user, rx0, ry0, &src);
    if (st != EDGEL_OK)
        return edgel_fail(st, "tiled Canny: the read callback failed for %dx%d at (%lld, %lld)",
                          (int)r.width, (int)r.height, (long long)rx0, (long long)ry0);
    *marks = edgel_image_host(t->marks, tile.width, tile.height, EDGEL_U8, 1);
    t->f.side = t->sides;
    const edgel_status made =
        t->ctx->ops->canny_marks(t->ctx->state, t->params, &src, &tile, marks, &t->f.side, 1);
    const edgel_status waited = marks_wait(t);
    return made != EDGEL_OK ? made : waited;
}

/* The marks of a row of tiles on views, into the edges themselves (t->views), with buffer
 * `buf` of three (a row's are linked while the next row's are made and, on a backend that
 * returns before its marks are written, the one after is under way). */
static edgel_status row_marks(tiled *t, int64_t ty, int buf)
{
    const int64_t first = buf * t->tiles_x;
    for (int64_t tx = 0; tx < t->tiles_x; tx++) {
        int64_t rx0, ry0;
        edgel_tile_rect r, *tile = &t->rects[first + tx];
        tile_geometry(t, tx, ty, &rx0, &ry0, &r, tile);
        t->regions[first + tx] = sub_view(t->src, rx0, ry0, r.width, r.height);
        t->views[first + tx] = sub_view(t->dst, tx * t->tw, ty * t->th, tile->width, tile->height);
    }
    return t->ctx->ops->canny_marks(t->ctx->state, t->params, t->regions + first, t->rects + first,
                                    t->views + first, t->side_of + first, (int)t->tiles_x);
}

/* The value of the k-th side pixel of a tile in the walk's order: the top row, the bottom
 * row, then the left and right columns without their ends (from t->f.side: a column of a
 * large image is a cache miss a pixel). */
static uint8_t side_pixel(const tiled *t, const edgel_image *m, int side, int i, int *x, int *y)
{
    const int cw = m->width, ch = m->height;
    *x = side < 2 ? i : side == 2 ? 0 : cw - 1;
    *y = side == 0 ? 0 : side == 1 ? ch - 1 : i + 1;
    return side < 2 ? ((const uint8_t *)m->data)[(size_t)*y * m->pitch + *x]
                    : t->f.side[(side == 3 ? ch : 0) + *y];
}

/* The open components of a tile's marks in a fixed order (their first pixel along the side
 * walk). Numbering (`first` < 0): each `from` component is turned into MARK_SEEN and becomes
 * a node, and the side arrays are filled. Deciding: the k-th becomes edges when its node's
 * set, first + k, holds node 0, else nothing; a tile whose count differs from its numbering
 * (nodes first..end-1) means the source gave other pixels the second time. */
static edgel_status open_components(tiled *t, const edgel_image *m, uint8_t from,
                                    int64_t first, int64_t end)
{
    const int cw = m->width, ch = m->height;
    int64_t k = first;
    for (int side = 0; side < 4; side++) {
        const int n = side < 2 ? cw : ch > 2 ? ch - 2 : 0;
        for (int i = 0; i < n; i++) {
            int x, y;
            if (side_pixel(t, m, side, i, &x, &y) != from)
                continue;
            if (first < 0) {
                const int64_t node = edgel_nodes_add(&t->n, 0, y * cw + x);
                if (node < 0 || !edgel_flood_fill(&t->f, m, x, y, from, MARK_SEEN, node, &t->nodes))
                    return oom();
                continue;
            }
            if (k >= end)
                return changed_source();
            const uint8_t to = t->n.strong[edgel_nodes_find(&t->n, k++)] ? MARK_EDGE : 0;
            if (!edgel_flood_fill(&t->f, m, x, y, from, to, -1, NULL))
                return oom();
        }
    }
    return first >= 0 && k != end ? changed_source() : EDGEL_OK;
}

/* Deciding on views, once every join is made and t->n.strong holds each node's set's flag:
 * tile i's nodes from the seeds noted while numbering (no side walk). Returns 0 when out of
 * memory. */
static int decide_tile(tiled *t, edgel_flood *f, int64_t i)
{
    const int64_t ty = i / t->tiles_x, tx = i % t->tiles_x, y0 = ty * t->th, x0 = tx * t->tw;
    const edgel_image m = sub_view(t->dst, x0, y0, (int)(t->w - x0 < t->tw ? t->w - x0 : t->tw),
                                   (int)(t->h - y0 < t->th ? t->h - y0 : t->th));
    const int64_t end = i + 1 < t->tiles_x * t->tiles_y ? t->node_base[i + 1] : t->n.count;
    for (int64_t k = t->node_base[i]; k < end; k++) {
        const int x = t->n.seed[k] % m.width, y = t->n.seed[k] / m.width;
        if (((uint8_t *)m.data)[(size_t)y * m.pitch + x] == MARK_SEEN &&
            !edgel_flood_fill(f, &m, x, y, MARK_SEEN, t->n.strong[k] ? MARK_EDGE : 0, -1, NULL))
            return 0;
    }
    return 1;
}

typedef struct decide_job {
    tiled *t;
    atomic_int failed;
} decide_job;

/* Worker `thread` of `n`: every n-th tile, with its own stack. */
static void decide_tiles(void *arg, int thread, int n)
{
    decide_job *job = arg;
    tiled *t = job->t;
    edgel_flood f = {0};
    f.side = malloc(2 * (size_t)t->th); /* the fill keeps a column nobody reads any more */
    int ok = f.side != NULL;
    for (int64_t i = thread; ok && i < t->tiles_x * t->tiles_y; i += n)
        ok = decide_tile(t, &f, i);
    if (!ok)
        atomic_store(&job->failed, 1);
    free(f.side);
    edgel_flood_free(&f);
}

/* The node of a tile's side pixel (x, y) (edgel_chunk_node_at): from its side arrays. */
static int64_t side_node(void *user, int32_t x, int32_t y, int32_t z)
{
    const tiled *t = user;
    (void)z;
    const edgel_side_nodes *sn = &t->nodes;
    return y == 0 ? sn->top[x] : x == 0 ? sn->left[y] : y == t->faces_h - 1 ? sn->bottom[x]
                                                                           : sn->right[y];
}

/* Step 2 for tile (tx, ty) of marks `m`: its nodes, joined across its borders with the tiles
 * before it (core/chunks.h). */
static edgel_status link_tile(tiled *t, int64_t tx, int64_t ty, const edgel_image *m)
{
    const int cw = m->width, ch = m->height;
    const edgel_side_nodes *sn = &t->nodes;
    for (int x = 0; x < cw; x++)
        sn->top[x] = sn->bottom[x] = -1;
    for (int y = 0; y < ch; y++)
        sn->left[y] = sn->right[y] = -1;
    t->node_base[ty * t->tiles_x + tx] = t->n.count;
    EDGEL_TRY(open_components(t, m, MARK_OPEN, -1, -1));
    const uint8_t *d = m->data;
    for (int x = 0; x < cw; x++) { /* edges on the sides: node 0 */
        if (d[x] == MARK_EDGE)
            sn->top[x] = 0;
        if (d[(size_t)(ch - 1) * m->pitch + x] == MARK_EDGE)
            sn->bottom[x] = 0;
    }
    for (int y = 0; y < ch; y++) {
        if (t->f.side[y] == MARK_EDGE)
            sn->left[y] = 0;
        if (t->f.side[ch + y] == MARK_EDGE)
            sn->right[y] = 0;
    }
    const int64_t index[3] = {tx, ty, 0};
    edgel_chunk c;
    edgel_chunk_at(&t->g, index, &c);
    t->faces_h = ch;
    edgel_chunk_faces_add(&t->faces, &c, side_node, t);
    return EDGEL_OK;
}

/* From callbacks: steps 1 and 2 over all tiles, then each tile again, decided and written. */
static edgel_status run_callbacks(tiled *t)
{
    edgel_image m;
    for (int64_t ty = 0; ty < t->tiles_y; ty++) {
        for (int64_t tx = 0; tx < t->tiles_x; tx++) {
            EDGEL_TRY(read_marks(t, tx, ty, &m));
            EDGEL_TRY(link_tile(t, tx, ty, &m));
        }
    }
    const int64_t tiles = t->tiles_x * t->tiles_y;
    for (int64_t ty = 0; ty < t->tiles_y; ty++)
        for (int64_t tx = 0; tx < t->tiles_x; tx++) {
            const int64_t i = ty * t->tiles_x + tx;
            EDGEL_TRY(read_marks(t, tx, ty, &m));
            EDGEL_TRY(open_components(t, &m, MARK_OPEN, t->node_base[i],
                                      i + 1 < tiles ? t->node_base[i + 1] : t->n.count));
            const edgel_status st = t->io->write(t->io->user, tx * t->tw, ty * t->th, &m);
            if (st != EDGEL_OK)
                return edgel_fail(st, "tiled Canny: the write callback failed for the tile at "
                                  "(%lld, %lld)", (long long)(tx * t->tw),
                                  (long long)(ty * t->th));
        }
    return EDGEL_OK;
}

/* Pipeline step i, first stage: row i's marks made, into buffer i % 3, and row i - 1's
 * written (canny_marks returns so, core/backend.h); after the last row, all written. */
static edgel_status marks_row(void *arg, int64_t i)
{
    tiled *t = arg;
    return i < t->tiles_y ? row_marks(t, i, (int)(i % 3)) : marks_wait(t);
}

/* Pipeline step i, second stage: row ty = i - 1 linked, its marks and sides in buffer
 * ty % 3. */
static edgel_status link_row(void *arg, int64_t i)
{
    tiled *t = arg;
    const int64_t ty = i - 1;
    if (ty < 0)
        return EDGEL_OK;
    const int64_t first = (ty % 3) * t->tiles_x;
    for (int64_t tx = 0; tx < t->tiles_x; tx++) {
        t->f.side = t->side_of[first + tx];
        EDGEL_TRY(link_tile(t, tx, ty, &t->views[first + tx]));
    }
    return EDGEL_OK;
}

/* On views: steps 1 and 2 a row of tiles at a time into the edges, the links of a row on a
 * thread of their own while the backend works on the next row (they touch other rows of the
 * edges); then step 3 in place, tiles in parallel. */
static edgel_status run_views(tiled *t)
{
    edgel_status st = edgel_host_pipeline(t->tiles_y + 1, marks_row, link_row, t);
    if (st != EDGEL_OK) { /* nothing of the backend's may still be writing the edges */
        marks_wait(t);
        /* (the links fail only for memory; their message was the thread's) */
        return st == EDGEL_ERROR_OUT_OF_MEMORY ? oom() : st;
    }
    for (int64_t k = 1; k < t->n.count; k++) /* each node's set's flag, before the workers read */
        t->n.strong[k] = t->n.strong[edgel_nodes_find(&t->n, k)];
    decide_job d;
    d.t = t;
    atomic_init(&d.failed, 0);
    edgel_host_parallel(edgel_host_cores(), decide_tiles, &d);
    return atomic_load(&d.failed) ? oom() : EDGEL_OK;
}

/* The image's size and pixels, the params and the tiles, for either way in. */
static edgel_status check_tiled(const edgel_canny_params *params, int64_t w, int64_t h, int cn,
                                edgel_pixel_type type, int32_t tw, int32_t th, int *halo)
{
    if (!params)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "params is NULL");
    EDGEL_TRY(edgel_check_canny_params(params, 0));
    if (w < 1 || h < 1 || w > EDGEL_MAX_TILED_DIMENSION || h > EDGEL_MAX_TILED_DIMENSION ||
        w * h > EDGEL_MAX_TILED_PIXELS)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE,
                          "tiled Canny: %lldx%lld must be 1..%d a side, %lld pixels in all",
                          (long long)w, (long long)h, EDGEL_MAX_TILED_DIMENSION,
                          (long long)EDGEL_MAX_TILED_PIXELS);
    EDGEL_TRY(halo_of(params, halo)); /* (refuses the skimage preset) */
    if (cn != 1 && cn != 3 && cn != 4)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "tiled Canny: channels must be 1, 3 or 4");
    const int itk = params->preset == EDGEL_PRESET_ITK;
    if (itk ? cn != 1 || (type != EDGEL_U8 && type != EDGEL_U16 && type != EDGEL_F32)
            : type != EDGEL_U8)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED,
                          "tiled Canny: the opencv preset reads u8, the itk preset 1-channel u8, "
                          "u16 or f32");
    if (tw < 1 || th < 1 || (int64_t)tw + 2 * *halo > EDGEL_MAX_DIMENSION ||
        (int64_t)th + 2 * *halo > EDGEL_MAX_DIMENSION ||
        ((int64_t)tw + 2 * *halo) * ((int64_t)th + 2 * *halo) > EDGEL_MAX_PIXELS / 4)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE,
                          "tiled Canny: tiles of %dx%d (with a halo of %d) out of range", (int)tw,
                          (int)th, *halo);
    return EDGEL_OK;
}

static void free_tiled(tiled *t)
{
    free(t->region), free(t->marks), free(t->regions), free(t->views), free(t->rects);
    free(t->sides), free(t->side_of);
    edgel_flood_free(&t->f);
    free(t->nodes.top), free(t->nodes.bottom), free(t->nodes.left), free(t->nodes.right);
    free(t->node_base);
    edgel_chunk_faces_free(&t->faces);
    edgel_nodes_free(&t->n);
}

/* Geometry and the buffers both ways share; node 0 (strong). */
static edgel_status start_tiled(tiled *t, int32_t tw, int32_t th)
{
    t->tw = tw, t->th = th;
    const int64_t size[3] = {t->w, t->h, 1};
    const int32_t chunk[3] = {tw, th, 1}, halo[3] = {t->halo, t->halo, 0};
    edgel_chunk_grid_init(&t->g, size, chunk, halo);
    t->tiles_x = t->g.count[0], t->tiles_y = t->g.count[1];
    t->nodes.top = malloc(sizeof(int64_t) * (size_t)tw);
    t->nodes.bottom = malloc(sizeof(int64_t) * (size_t)tw);
    t->nodes.left = malloc(sizeof(int64_t) * (size_t)th);
    t->nodes.right = malloc(sizeof(int64_t) * (size_t)th);
    t->node_base = malloc(sizeof(int64_t) * (size_t)(t->tiles_x * t->tiles_y));
    if (!t->nodes.top || !t->nodes.bottom || !t->nodes.left || !t->nodes.right ||
        !t->node_base || !edgel_chunk_faces_init(&t->faces, &t->g, &t->n) ||
        edgel_nodes_add(&t->n, 1, 0) != 0)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "tiled Canny: out of memory for %dx%d tiles",
                          (int)tw, (int)th);
    return EDGEL_OK;
}

static edgel_status canny_tiled_held(edgel_context *ctx, const edgel_canny_params *params,
                                     const edgel_tile_io *io, int32_t tw, int32_t th)
{
    tiled t = {0};
    if (!io || !io->read || !io->write)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "io or its callbacks are NULL");
    EDGEL_TRY(check_tiled(params, io->width, io->height, io->channels, io->type, tw, th, &t.halo));
    t.ctx = ctx, t.params = params, t.io = io, t.w = io->width, t.h = io->height;
    t.cn = io->channels, t.type = io->type;
    edgel_status st = start_tiled(&t, tw, th);
    if (st == EDGEL_OK) {
        const size_t region = ((size_t)tw + 2 * t.halo) * ((size_t)th + 2 * t.halo);
        t.region = malloc(region * (size_t)t.cn * edgel_pixel_size(t.type));
        t.marks = malloc((size_t)tw * th);
        t.sides = malloc(2 * (size_t)th);
        if (!t.region || !t.marks || !t.sides)
            st = edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY,
                            "tiled Canny: out of memory for %dx%d tiles", (int)tw, (int)th);
    }
    if (st == EDGEL_OK)
        st = run_callbacks(&t);
    free_tiled(&t);
    return st;
}

/* Host views of any size: the input, and u8 1-channel edges apart from it. */
static edgel_status check_views(const edgel_image *src, const edgel_image *edges)
{
    if (!src->data || !edges->data)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "the input or edges data pointer is NULL");
    if (src->memory != EDGEL_MEMORY_HOST || edges->memory != EDGEL_MEMORY_HOST)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "tiled Canny takes host views (device images are whole-image calls)");
    if (edges->type != EDGEL_U8 || edges->channels != 1)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "tiled Canny: edges are u8, 1 channel");
    if (edgel_pixel_size(src->type) == 0)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "input: unknown pixel type %d",
                          (int)src->type);
    EDGEL_TRY(edgel_check_same_size(src, "input", edges, "edges"));
    if (src->pitch < edgel_row_bytes(src) || edges->pitch < edgel_row_bytes(edges))
        return edgel_fail(EDGEL_ERROR_INVALID_PITCH, "tiled Canny: a pitch is less than a row");
    if (edgel_images_overlap(src, edges))
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "tiled Canny: the edges overlap the input (they hold its marks)");
    return EDGEL_OK;
}

static edgel_status canny_views_held(edgel_context *ctx, const edgel_canny_params *params,
                                     const edgel_image *src, const edgel_image *edges,
                                     int32_t tw, int32_t th)
{
    tiled t = {0};
    if (!src || !edges)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "the input or edges view is NULL");
    EDGEL_TRY(check_tiled(params, src->width, src->height, src->channels, src->type, tw, th,
                          &t.halo));
    EDGEL_TRY(check_views(src, edges));
    t.ctx = ctx, t.params = params, t.src = src, t.dst = edges;
    t.w = src->width, t.h = src->height, t.cn = src->channels, t.type = src->type;
    edgel_status st = start_tiled(&t, tw, th);
    if (st == EDGEL_OK) {
        const size_t n = 3 * (size_t)t.tiles_x; /* three rows of tiles */
        t.regions = malloc(sizeof *t.regions * n);
        t.views = malloc(sizeof *t.views * n);
        t.rects = malloc(sizeof *t.rects * n);
        t.sides = malloc(2 * (size_t)th * n);
        t.side_of = malloc(sizeof *t.side_of * n);
        if (!t.regions || !t.views || !t.rects || !t.sides || !t.side_of)
            st = oom();
        for (size_t i = 0; st == EDGEL_OK && i < n; i++)
            t.side_of[i] = t.sides + 2 * (size_t)th * i;
    }
    if (st == EDGEL_OK)
        st = run_views(&t);
    free_tiled(&t);
    return st;
}

edgel_status edgel_canny_tiled_image_held(edgel_context *ctx, const edgel_canny_params *params,
                                          const edgel_image *src, const edgel_image *edges)
{
    /* large tiles where the backend's work in parallel pays for its start (a GPU's copies and
     * launches, the CPU's stripes) */
    if (ctx->ops->kind == EDGEL_BACKEND_CPU || !src || src->width < 1 || src->height < 1)
        return canny_views_held(ctx, params, src, edges, 4096, 4096); /* (refused there) */
    /* A GPU's: 2^26 pixels, wide, the image's width split evenly in at most GPU_TILE_WIDTH
     * columns: a tile's rows cross PCIe as a 2D copy, whose rate falls with its rows' length
     * (8 KiB rows down at half the rate of 32 KiB ones). */
    const int64_t across = (src->width + GPU_TILE_WIDTH - 1) / GPU_TILE_WIDTH;
    const int64_t tw = (src->width + across - 1) / across;
    int64_t th = ((int64_t)1 << 26) / tw;
    th = th > GPU_TILE_WIDTH ? GPU_TILE_WIDTH : th;
    const int64_t down = (src->height + th - 1) / th;
    th = (src->height + down - 1) / down;
    return canny_views_held(ctx, params, src, edges, (int32_t)tw, (int32_t)(th < 1 ? 1 : th));
}

edgel_status edgel_canny_tile_halo(const edgel_canny_params *params, int32_t *halo)
{
    if (!halo)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "halo is NULL");
    edgel_canny_params p;
    EDGEL_TRY(edgel_canny_params_read(params, &p));
    EDGEL_TRY(edgel_check_canny_params(&p, 0));
    int h = 0;
    EDGEL_TRY(halo_of(&p, &h));
    *halo = h;
    return EDGEL_OK;
}

edgel_status edgel_canny_tiled(edgel_context *ctx, const edgel_canny_params *params,
                               const edgel_tile_io *io, int32_t tile_width, int32_t tile_height)
{
    edgel_canny_params p;
    EDGEL_TRY(edgel_canny_params_read(params, &p));
    EDGEL_WITH_CONTEXT(ctx, canny_tiled_held(ctx, &p, io, tile_width, tile_height));
}

edgel_status edgel_canny_tiled_image(edgel_context *ctx, const edgel_canny_params *params,
                                     const edgel_image *src, const edgel_image *edges,
                                     int32_t tile_width, int32_t tile_height)
{
    edgel_canny_params p;
    EDGEL_TRY(edgel_canny_params_read(params, &p));
    EDGEL_WITH_CONTEXT(ctx, canny_views_held(ctx, &p, src, edges, tile_width, tile_height));
}
