/*
 * Cross-chunk hysteresis for drivers of their own (edgel_components in edgel.h): the chunked
 * driver's union-find and face join (core/union_find.h) behind a handle that checks its
 * arguments and serves one thread at a time.
 */
#include "core/busy.h"
#include "core/status.h"
#include "core/union_find.h"
#include "edgel.h"

#include <stdatomic.h>
#include <stdlib.h>

#define MAX_NODES ((int64_t)1 << 40)

struct edgel_components {
    atomic_int busy;
    edgel_nodes n;
};

static edgel_status enter(edgel_components *c)
{
    return edgel_busy_enter(c ? &c->busy : NULL, "components");
}

static edgel_status leave(edgel_components *c, edgel_status st)
{
    return edgel_busy_leave(&c->busy, st);
}

/* Every entry of `nodes` negative or an added node. */
static edgel_status check_nodes(const edgel_components *c, const int64_t *nodes, int64_t count,
                                const char *name)
{
    for (int64_t i = 0; i < count; i++)
        if (nodes[i] >= c->n.count)
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "components: %s[%lld] = %lld is not a node (%lld added)", name,
                              (long long)i, (long long)nodes[i], (long long)c->n.count);
    return EDGEL_OK;
}

edgel_status edgel_components_create(edgel_components **components)
{
    if (!components)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "components is NULL");
    *components = calloc(1, sizeof **components);
    if (!*components)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "components: out of memory");
    atomic_init(&(*components)->busy, 0);
    return EDGEL_OK;
}

void edgel_components_destroy(edgel_components *components)
{
    if (!components)
        return;
    edgel_nodes_free(&components->n);
    free(components);
}

static edgel_status add_held(edgel_components *c, int64_t count, const uint8_t *strong,
                             int64_t *first)
{
    if (!first)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "first is NULL");
    if (count < 0 || count > MAX_NODES - c->n.count)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE,
                          "components: %lld nodes more than %lld (at most 2^40 in all)",
                          (long long)count, (long long)c->n.count);
    const int64_t start = c->n.count;
    for (int64_t i = 0; i < count; i++)
        if (edgel_nodes_add(&c->n, strong && strong[i], 0) < 0) {
            c->n.count = start; /* all or nothing */
            return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "components: out of memory for %lld "
                              "nodes", (long long)(start + count));
        }
    *first = start;
    return EDGEL_OK;
}

edgel_status edgel_components_add(edgel_components *components, int64_t count,
                                  const uint8_t *strong, int64_t *first)
{
    EDGEL_TRY(enter(components));
    return leave(components, add_held(components, count, strong, first));
}

static edgel_status join_held(edgel_components *c, const int64_t *near, const int64_t *far,
                              int64_t rows, int64_t length)
{
    if (rows < 0 || length < 0)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "components: rows %lld or length %lld is "
                          "negative", (long long)rows, (long long)length);
    if (rows && length > ((int64_t)1 << 62) / rows)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "components: faces of %lld rows of %lld "
                          "are out of range (2^62 entries at most)", (long long)rows,
                          (long long)length);
    const int64_t count = rows * length;
    if (count && (!near || !far))
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "near or far is NULL");
    EDGEL_TRY(check_nodes(c, near, count, "near"));
    EDGEL_TRY(check_nodes(c, far, count, "far"));
    edgel_nodes_join_faces(&c->n, near, far, rows, length);
    return EDGEL_OK;
}

edgel_status edgel_components_join(edgel_components *components, const int64_t *near,
                                   const int64_t *far, int64_t length)
{
    EDGEL_TRY(enter(components));
    return leave(components, join_held(components, near, far, 1, length));
}

edgel_status edgel_components_join_faces(edgel_components *components, const int64_t *near,
                                         const int64_t *far, int64_t rows, int64_t length)
{
    EDGEL_TRY(enter(components));
    return leave(components, join_held(components, near, far, rows, length));
}

static edgel_status strong_held(edgel_components *c, const int64_t *nodes, int64_t count,
                                uint8_t *strong)
{
    if (count < 0)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "components: count %lld is negative",
                          (long long)count);
    if (count && (!nodes || !strong))
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "nodes or strong is NULL");
    EDGEL_TRY(check_nodes(c, nodes, count, "nodes"));
    for (int64_t i = 0; i < count; i++)
        strong[i] = nodes[i] >= 0 && c->n.strong[edgel_nodes_find(&c->n, nodes[i])];
    return EDGEL_OK;
}

edgel_status edgel_components_strong(edgel_components *components, const int64_t *nodes,
                                     int64_t count, uint8_t *strong)
{
    EDGEL_TRY(enter(components));
    return leave(components, strong_held(components, nodes, count, strong));
}
