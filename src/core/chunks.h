/* Internal: the one out-of-core driver's machinery, which every chunked path uses (2-D tiles,
 * api_tiled.c; 3-D bricks, api_volume_bricks.c; sub-pixel bands of columns,
 * core/subpixel_stream.c; edgel.dask through edgel_components_join_faces).
 *
 * A grid of chunks over an image or a volume (x, y, z; an image's z is one pixel deep; bands
 * are a grid of one row), each computed from its region: the chunk grown by a halo per axis
 * and clipped to the grid. The driver's first pass walks the chunks in order (x fastest, then
 * y, then z) and numbers the components of each chunk that touch a face shared with another
 * chunk as nodes of the one union-find (core/union_find.h); edgel_chunk_faces joins facing
 * nodes where their pixels touch as the walk goes (a chunk with the one before it in x; at
 * the end of a row of chunks, the rows either side of the border over the whole width; at the
 * end of a layer, the slices either side of it over the whole plane: a pixel that touches
 * another chunk's across an edge or a corner is met by the widest of these that separates
 * them). The second pass decides each component from its node's set. */
#ifndef EDGEL_CORE_CHUNKS_H
#define EDGEL_CORE_CHUNKS_H

#include "core/union_find.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct edgel_chunk_grid {
    int64_t size[3];  /* the grid's pixels along x, y, z (1 where it has no such axis) */
    int32_t chunk[3]; /* a chunk's sides (at most the grid's) */
    int32_t halo[3];
    int64_t count[3]; /* chunks along each axis */
} edgel_chunk_grid;

/* A chunk of the grid, and its region. */
typedef struct edgel_chunk {
    int64_t index[3];
    int64_t start[3];  /* its first pixel */
    int32_t length[3];
    int64_t lo[3];     /* its region's first pixel */
    int32_t side[3];   /* its region's length */
    int64_t at;        /* its place in the walk: x fastest, then y, then z */
} edgel_chunk;

/* Along one axis of `size` pixels, the span [*lo, *hi) that a halo of `halo` around
 * [start, start + length) reads (clipped to the axis). */
static inline void edgel_chunk_axis_grow(int64_t size, int64_t start, int64_t length,
                                         int64_t halo, int64_t *lo, int64_t *hi)
{
    *lo = start - halo > 0 ? start - halo : 0;
    *hi = start + length + halo < size ? start + length + halo : size;
}

/* The inverse: the span [*lo, *hi) of a piece [x0, x0 + length) read from an axis of `size`
 * that the piece computes exactly (its halo on each side that has pixels beyond it). */
static inline void edgel_chunk_axis_own(int64_t size, int64_t x0, int64_t length, int64_t halo,
                                        int64_t *lo, int64_t *hi)
{
    const int64_t end = x0 + length;
    *lo = x0 == 0 ? 0 : x0 + halo < size ? x0 + halo : size;
    *hi = end >= size ? size : end - halo > 0 ? end - halo : 0;
}

/* A grid of `size` in chunks of `chunk` (each cut to the grid's size) with `halo`. */
void edgel_chunk_grid_init(edgel_chunk_grid *g, const int64_t size[3], const int32_t chunk[3],
                           const int32_t halo[3]);
int64_t edgel_chunk_grid_chunks(const edgel_chunk_grid *g);
/* The chunk at `index`, and its region. */
void edgel_chunk_at(const edgel_chunk_grid *g, const int64_t index[3], edgel_chunk *c);
/* The chunk `at` places into the walk. */
void edgel_chunk_nth(const edgel_chunk_grid *g, int64_t at, edgel_chunk *c);

/* The node of the chunk's pixel (x, y, z) (inside the chunk), or -1: none. Asked only on its
 * faces. */
typedef int64_t (*edgel_chunk_node_at)(void *user, int32_t x, int32_t y, int32_t z);

/* The faces of nodes held between the chunks of a walk. */
typedef struct edgel_chunk_faces {
    edgel_chunk_grid g;
    edgel_nodes *nodes;
    int64_t *z_far, *z_near, *z_next; /* W x H: a layer's last slice before, its first, its last
                                       * (grids of more than one layer) */
    int64_t *y_far, *y_near, *y_next; /* W x chunk depth: likewise for rows of chunks */
    int64_t *x_far, *x_near;          /* chunk height x chunk depth */
} edgel_chunk_faces;

/* The faces of grid `g`'s walk, joining `nodes`. Returns 0 when out of memory. */
int edgel_chunk_faces_init(edgel_chunk_faces *f, const edgel_chunk_grid *g, edgel_nodes *nodes);
void edgel_chunk_faces_free(edgel_chunk_faces *f);
/* Chunk c's nodes on its faces, read with node_at, joined to those of the chunks before it
 * (call once a chunk, in the walk's order; a row's and a layer's borders are joined at their
 * last chunk). */
void edgel_chunk_faces_add(edgel_chunk_faces *f, const edgel_chunk *c,
                           edgel_chunk_node_at node_at, void *user);

#ifdef __cplusplus
}
#endif

#endif
