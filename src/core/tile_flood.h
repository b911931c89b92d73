/* Internal: the tiled driver's flood fill over a tile's marks (api_tiled.c): turns an
 * 8-connected component of one mark into another, keeps the tile's side columns (read
 * without a cache miss a pixel) up to date, and notes a node for the component's pixels on
 * the tile's four sides. */
#ifndef EDGEL_CORE_TILE_FLOOD_H
#define EDGEL_CORE_TILE_FLOOD_H

#include "edgel.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A fill's stack (grown on demand), and the tile's side columns: side[y] the left column's
 * mark of row y, side[height + y] the right column's. */
typedef struct edgel_flood {
    int32_t *stack;
    size_t cap;
    uint8_t *side;
} edgel_flood;

/* The node of each pixel on a tile's sides (-1: none): top and bottom rows, left and right
 * columns. */
typedef struct edgel_side_nodes {
    int64_t *top, *bottom, *left, *right;
} edgel_side_nodes;

/* Turns the 8-connected component of `from` pixels at (x, y) of host marks `m` (u8) into
 * `to`, in the marks and in f->side, noting `node` in `sides` for its pixels on the tile's
 * sides (when node >= 0). Returns 0 when out of memory. */
int edgel_flood_fill(edgel_flood *f, const edgel_image *m, int x, int y, uint8_t from,
                     uint8_t to, int64_t node, const edgel_side_nodes *sides);

/* Frees the stack (the side columns are the caller's). */
void edgel_flood_free(edgel_flood *f);

#ifdef __cplusplus
}
#endif

#endif
