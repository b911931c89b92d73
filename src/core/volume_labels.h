/* Internal: the 26-connected components of a brick's candidates (the bricked volume driver,
 * api_volume_bricks.c): labels numbered by their first voxel in raster order, so that any two
 * labellings of the same classes (on any number of threads) give the same numbers, and each
 * label's strong flag. Slabs of slices are labelled on threads of their own and joined where
 * they meet. */
#ifndef EDGEL_CORE_VOLUME_LABELS_H
#define EDGEL_CORE_VOLUME_LABELS_H

#include <stddef.h>
#include <stdint.h>

typedef struct edgel_label_slab edgel_label_slab;

typedef struct edgel_volume_labels {
    int32_t *label;   /* a voxel: 0 (no candidate) or its component, 1 .. count */
    uint8_t *strong;  /* a label: 1 when its component holds a strong voxel */
    int64_t *node;    /* a label: the driver's node, or -1 */
    int32_t count;
    size_t voxels_cap, strong_cap, node_cap;
    edgel_label_slab *slabs; /* a slab's stack and components */
    int slabs_cap;
    int32_t *parent, *final; /* the slabs' components: union-find, and their labels */
    size_t parent_cap, final_cap;
} edgel_volume_labels;

/* Labels the candidates (EDGEL_MAP_WEAK or EDGEL_MAP_STRONG) of a packed w x h x d box of
 * classes (fewer than 2^31 voxels) on up to `threads` threads; node[] set to -1. Returns 0
 * when out of memory. */
int edgel_volume_labels_run(edgel_volume_labels *l, const uint8_t *classes, int w, int h, int d,
                            int threads);
void edgel_volume_labels_free(edgel_volume_labels *l);

#endif
