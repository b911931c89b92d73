/* Internal: the host's one union-find. Sets are joined towards their lowest index and paths
 * are halved as they are walked; int32 and int64 parents (edgel_uf32_*, edgel_uf64_*), and
 * int32 parents that threads join at once (edgel_uf_shared_*: the sub-pixel chains).
 * On it, the nodes of cross-chunk hysteresis over the components that touch chunk borders
 * (the chunked driver, core/chunks.h; edgel_components, api_components.c): a node per component with a strong flag (the set
 * holds an edge pixel) and a seed pixel inside its tile. */
#ifndef EDGEL_CORE_UNION_FIND_H
#define EDGEL_CORE_UNION_FIND_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* edgel_ufN_find: the root of a's set (halving the path). edgel_ufN_join: joins the sets of
 * a and b under the lower root; the root that joined the other's set (no longer a root), or
 * -1 where they were one set. */
#define EDGEL_UNION_FIND(name, T)                                                            \
    static inline T name##_find(T *parent, T a)                                               \
    {                                                                                         \
        while (parent[a] != a) {                                                              \
            parent[a] = parent[parent[a]];                                                    \
            a = parent[a];                                                                    \
        }                                                                                     \
        return a;                                                                             \
    }                                                                                         \
    static inline T name##_join(T *parent, T a, T b)                                          \
    {                                                                                         \
        a = name##_find(parent, a), b = name##_find(parent, b);                               \
        if (a == b)                                                                           \
            return -1;                                                                        \
        if (a > b) {                                                                          \
            const T t = a;                                                                    \
            a = b, b = t;                                                                     \
        }                                                                                     \
        parent[b] = a;                                                                        \
        return b;                                                                             \
    }
EDGEL_UNION_FIND(edgel_uf32, int32_t)
EDGEL_UNION_FIND(edgel_uf64, int64_t)

#ifndef __cplusplus
#include <stdatomic.h>
/* The same on parents that threads join at once: a parent always has a lower index than its
 * child (a root joins the lower root), so halving the path as it goes, concurrently with
 * joins, keeps every set a tree. */
static inline int32_t edgel_uf_shared_find(_Atomic int32_t *parent, int32_t a)
{
    for (;;) {
        const int32_t p = atomic_load_explicit(&parent[a], memory_order_relaxed);
        if (p == a)
            return a;
        const int32_t g = atomic_load_explicit(&parent[p], memory_order_relaxed);
        if (g != p)
            atomic_store_explicit(&parent[a], g, memory_order_relaxed);
        a = g;
    }
}

static inline void edgel_uf_shared_join(_Atomic int32_t *parent, int32_t a, int32_t b)
{
    for (;;) {
        a = edgel_uf_shared_find(parent, a), b = edgel_uf_shared_find(parent, b);
        if (a == b)
            return;
        if (a < b) {
            const int32_t t = a;
            a = b, b = t;
        }
        int32_t expected = a;
        if (atomic_compare_exchange_weak_explicit(&parent[a], &expected, b,
                                                  memory_order_relaxed, memory_order_relaxed))
            return;
    }
}
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
/* The one face join: joins the nodes of two facing faces either side of a chunk border where
 * their pixels touch. A face is `rows` rows of `length` pixels (a tile's side: one row; a
 * brick's face: a plane), in order along the border; near row r, entry i meets far rows r - 1
 * to r + 1, entries i - 1 to i + 1 (8-connected across a line, 26 across a plane). A negative
 * entry is no component. */
void edgel_nodes_join_faces(edgel_nodes *n, const int64_t *near, const int64_t *far,
                            int64_t rows, int64_t length);
/* A new node in a set of its own; its index, or -1 when out of memory. */
int64_t edgel_nodes_add(edgel_nodes *n, int strong, int32_t seed);
void edgel_nodes_free(edgel_nodes *n);

#ifdef __cplusplus
}
#endif

#endif
