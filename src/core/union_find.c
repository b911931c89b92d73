/* The union-find of cross-tile hysteresis (core/union_find.h). */
#include "core/union_find.h"

#include <stdlib.h>

int64_t edgel_nodes_find(edgel_nodes *n, int64_t a)
{
    return edgel_uf64_find(n->parent, a);
}

void edgel_nodes_join(edgel_nodes *n, int64_t a, int64_t b)
{
    if (a < 0 || b < 0)
        return;
    const int64_t joined = edgel_uf64_join(n->parent, a, b);
    if (joined >= 0)
        n->strong[n->parent[joined]] |= n->strong[joined];
}

/* One row of a face: near[i] with far[i - 1], far[i] and far[i + 1]. */
static void join_rows(edgel_nodes *n, const int64_t *near, const int64_t *far, int64_t length)
{
    for (int64_t i = 0; i < length; i++) {
        if (near[i] < 0)
            continue;
        for (int64_t j = i > 0 ? i - 1 : 0; j <= i + 1 && j < length; j++)
            edgel_nodes_join(n, near[i], far[j]);
    }
}

void edgel_nodes_join_faces(edgel_nodes *n, const int64_t *near, const int64_t *far,
                            int64_t rows, int64_t length)
{
    for (int64_t r = 0; r < rows; r++)
        for (int64_t d = -1; d <= 1; d++)
            if (r + d >= 0 && r + d < rows)
                join_rows(n, near + r * length, far + (r + d) * length, length);
}

int64_t edgel_nodes_add(edgel_nodes *n, int strong, int32_t seed)
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
        int32_t *seeds = realloc(n->seed, sizeof *seeds * (size_t)cap);
        if (!seeds)
            return -1;
        n->seed = seeds;
        n->cap = cap;
    }
    n->parent[n->count] = n->count;
    n->strong[n->count] = (uint8_t)strong;
    n->seed[n->count] = seed;
    return n->count++;
}

void edgel_nodes_free(edgel_nodes *n)
{
    free(n->parent), free(n->strong), free(n->seed);
    n->parent = NULL, n->strong = NULL, n->seed = NULL;
    n->count = n->cap = 0;
}
