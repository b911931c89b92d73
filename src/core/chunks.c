/* The chunked driver's grid and face joins (core/chunks.h). */
#include "core/chunks.h"

#include <stdlib.h>

void edgel_chunk_grid_init(edgel_chunk_grid *g, const int64_t size[3], const int32_t chunk[3],
                           const int32_t halo[3])
{
    for (int a = 0; a < 3; a++) {
        g->size[a] = size[a];
        g->chunk[a] = chunk[a] < size[a] ? chunk[a] : (int32_t)size[a];
        g->halo[a] = halo[a];
        g->count[a] = (size[a] + g->chunk[a] - 1) / g->chunk[a];
    }
}

int64_t edgel_chunk_grid_chunks(const edgel_chunk_grid *g)
{
    return g->count[0] * g->count[1] * g->count[2];
}

void edgel_chunk_at(const edgel_chunk_grid *g, const int64_t index[3], edgel_chunk *c)
{
    for (int a = 0; a < 3; a++) {
        c->index[a] = index[a];
        c->start[a] = index[a] * g->chunk[a];
        const int64_t left = g->size[a] - c->start[a];
        c->length[a] = (int32_t)(left < g->chunk[a] ? left : g->chunk[a]);
        int64_t hi;
        edgel_chunk_axis_grow(g->size[a], c->start[a], c->length[a], g->halo[a], &c->lo[a], &hi);
        c->side[a] = (int32_t)(hi - c->lo[a]);
    }
    c->at = (index[2] * g->count[1] + index[1]) * g->count[0] + index[0];
}

void edgel_chunk_nth(const edgel_chunk_grid *g, int64_t at, edgel_chunk *c)
{
    const int64_t index[3] = {at % g->count[0], at / g->count[0] % g->count[1],
                              at / (g->count[0] * g->count[1])};
    edgel_chunk_at(g, index, c);
}

int edgel_chunk_faces_init(edgel_chunk_faces *f, const edgel_chunk_grid *g, edgel_nodes *nodes)
{
    *f = (edgel_chunk_faces){0};
    f->g = *g;
    f->nodes = nodes;
    const size_t plane = (size_t)g->size[0] * (size_t)g->size[1];
    const size_t rows = (size_t)g->size[0] * (size_t)g->chunk[2];
    const size_t face = (size_t)g->chunk[1] * (size_t)g->chunk[2];
    int ok = 1;
    int64_t **row_planes[] = {&f->y_far, &f->y_near, &f->y_next};
    int64_t **planes[] = {&f->z_far, &f->z_near, &f->z_next};
    for (int i = 0; i < 3; i++) {
        *row_planes[i] = malloc(rows * sizeof(int64_t));
        ok = ok && *row_planes[i];
        if (g->count[2] > 1) {
            *planes[i] = malloc(plane * sizeof(int64_t));
            ok = ok && *planes[i];
        }
    }
    f->x_far = malloc(face * sizeof(int64_t));
    f->x_near = malloc(face * sizeof(int64_t));
    if (!ok || !f->x_far || !f->x_near) {
        edgel_chunk_faces_free(f);
        return 0;
    }
    return 1;
}

void edgel_chunk_faces_free(edgel_chunk_faces *f)
{
    int64_t *all[] = {f->z_far, f->z_near, f->z_next, f->y_far,
                      f->y_near, f->y_next, f->x_far, f->x_near};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
    *f = (edgel_chunk_faces){0};
}

static void swap(int64_t **a, int64_t **b)
{
    int64_t *t = *a;
    *a = *b, *b = t;
}

void edgel_chunk_faces_add(edgel_chunk_faces *f, const edgel_chunk *c,
                           edgel_chunk_node_at node_at, void *user)
{
    const edgel_chunk_grid *g = &f->g;
    const int32_t w = c->length[0], h = c->length[1], d = c->length[2];
    const int64_t W = g->size[0];
    if (g->count[2] > 1)
        for (int32_t y = 0; y < h; y++) /* the first and last slices */
            for (int32_t x = 0; x < w; x++) {
                const size_t p = (size_t)(c->start[1] + y) * (size_t)W + (size_t)(c->start[0] + x);
                f->z_near[p] = node_at(user, x, y, 0);
                f->z_next[p] = node_at(user, x, y, d - 1);
            }
    for (int32_t z = 0; z < d; z++) /* the first and last rows */
        for (int32_t x = 0; x < w; x++) {
            const size_t p = (size_t)z * (size_t)W + (size_t)(c->start[0] + x);
            f->y_near[p] = node_at(user, x, 0, z);
            f->y_next[p] = node_at(user, x, h - 1, z);
        }
    for (int32_t z = 0; z < d; z++) /* the first column, joined to the chunk before's last */
        for (int32_t y = 0; y < h; y++)
            f->x_near[(size_t)z * h + y] = node_at(user, 0, y, z);
    if (c->index[0] > 0)
        edgel_nodes_join_faces(f->nodes, f->x_near, f->x_far, d, h);
    for (int32_t z = 0; z < d; z++)
        for (int32_t y = 0; y < h; y++)
            f->x_far[(size_t)z * h + y] = node_at(user, w - 1, y, z);
    if (c->index[0] < g->count[0] - 1)
        return;
    if (c->index[1] > 0) /* the row of chunks is done */
        edgel_nodes_join_faces(f->nodes, f->y_near, f->y_far, d, W);
    swap(&f->y_far, &f->y_next);
    if (c->index[1] < g->count[1] - 1 || g->count[2] == 1)
        return;
    if (c->index[2] > 0) /* the layer is done */
        edgel_nodes_join_faces(f->nodes, f->z_near, f->z_far, g->size[1], W);
    swap(&f->z_far, &f->z_next);
}
