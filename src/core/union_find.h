/* Internal: the union-find of cross-tile hysteresis over the components that touch tile
 * borders (the tiled driver, api_tiled.c, and edgel_components, api_components.c): a node per
 * component with a strong flag (the set holds an edge pixel) and a seed pixel inside its tile;
 * sets are joined towards their lowest node. */
#ifndef EDGEL_CORE_UNION_FIND_H
#define EDGEL_CORE_UNION_FIND_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct edgel_nodes {
    int64_t *parent;
    uint8_t *strong;
    int32_t *seed; /* a pixel of the component inside its tile (y * width + x) */
    int64_t count, cap;
} edgel_nodes;

/* The root of node a's set (halving the path on the way). */
int64_t edgel_nodes_find(edgel_nodes *n, int64_t a);
/* Joins the sets of a and b (nothing where either is negative: no node); the root keeps the
 * strong flag of both. */
void edgel_nodes_join(edgel_nodes *n, int64_t a, int64_t b);
/* Joins the nodes of two facing lines of `length` pixels either side of a tile border where
 * their pixels touch, 8-connected: near[i] with far[i - 1], far[i] and far[i + 1]; a negative
 * entry is no component. */
void edgel_nodes_join_faces(edgel_nodes *n, const int64_t *near, const int64_t *far,
                            int64_t length);
/* A new node in a set of its own; its index, or -1 when out of memory. */
int64_t edgel_nodes_add(edgel_nodes *n, int strong, int32_t seed);
void edgel_nodes_free(edgel_nodes *n);

#ifdef __cplusplus
}
#endif

#endif
