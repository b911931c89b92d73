/*
 * ITK's Canny on volumes of any size, in bricks (edgel_canny_volume_bricks): the 2-D tiled
 * driver's design (api_tiled.c) one dimension up, on the chunked driver (core/chunks.h).
 * The suppressed stage is local: a brick's classes (none, weak, strong) come exactly from a
 * box of the brick and a halo per axis. Hysteresis is global: an edge is every candidate of a
 * 26-connected component of candidates that holds a strong voxel. So:
 *   1. pass 1, brick by brick in the grid's walk: the brick's components
 *      (core/volume_labels.c); those that touch a face shared with another brick become
 *      nodes, strong where they hold a strong voxel, joined across the faces as the walk
 *      goes (edgel_chunk_faces);
 *   2. pass 2, brick by brick again: a component is edges when it holds a strong voxel or
 *      its node's set does.
 * Memory: a brick's box (source, suppressed stage, the backend's work), its labels, and
 * three planes of nodes.
 */
#include "api/context.h"
#include "core/backend.h"
#include "core/chunks.h"
#include "core/host_pool.h"
#include "core/itk_gaussian.h"
#include "core/itk_math.h"
#include "core/status.h"
#include "core/union_find.h"
#include "core/volume_labels.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct bricks {
    edgel_context *ctx;
    edgel_volume_canny_params p;
    const edgel_brick_io *io;
    edgel_chunk_grid g; /* the volume in bricks */
    int32_t threads;  /* the context's host threads */
    void *box;        /* a brick and its halo: the source, the suppressed stage, the edges */
    float *suppressed;
    uint8_t *box_edges;
    uint8_t *classes, *out; /* the brick's */
    edgel_volume_labels labels;
    edgel_nodes nodes;
    int64_t *first_node; /* a brick's: its first node, and its numbers of labels and nodes */
    int32_t *label_count, *node_count;
    edgel_chunk_faces faces;
    int32_t length[3]; /* the brick whose labels are held */
} bricks;

/* The halo along each axis: the Gaussian's radius at the axis's variance in voxels, one for
 * the second derivative's neighbourhood, one for the suppression's. */
static void halo_of(const edgel_volume_canny_params *p, int32_t halo[3])
{
    double kernel[2 * EDGEL_ITK_MAX_RADIUS + 1];
    for (int a = 0; a < 3; a++)
        halo[a] = edgel_itk_gaussian_kernel(p->variance[a] / (p->spacing[a] * p->spacing[a]),
                                            p->maximum_error[a], kernel) + 2;
}

edgel_status edgel_canny_volume_halo(const edgel_volume_canny_params *params, int32_t halo[3])
{
    if (!halo)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "halo is NULL");
    edgel_volume_canny_params p;
    EDGEL_TRY(edgel_volume_canny_params_read(params, &p));
    halo_of(&p, halo);
    return EDGEL_OK;
}

static edgel_status check_io(const edgel_brick_io *io, const int32_t brick[3])
{
    static const char axis[3] = {'x', 'y', 'z'};
    if (!io || !io->read || !io->write)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "io, its read or its write is NULL");
    if (io->type != EDGEL_U8 && io->type != EDGEL_U16 && io->type != EDGEL_F32)
        return edgel_fail(EDGEL_ERROR_UNSUPPORTED, "bricked volumes are u8, u16 or f32");
    const int64_t size[3] = {io->width, io->height, io->depth};
    double voxels = 1.0;
    for (int a = 0; a < 3; a++) {
        if (size[a] < 1 || size[a] > EDGEL_MAX_BRICKED_DIMENSION)
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "the volume's size along %c is %lld: it must be in [1, %d]",
                              axis[a], (long long)size[a], EDGEL_MAX_BRICKED_DIMENSION);
        if (brick[a] < 1)
            return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                              "the bricks' size along %c is %d: it must be at least 1", axis[a],
                              brick[a]);
        voxels *= (double)size[a];
    }
    if (voxels > (double)EDGEL_MAX_BRICKED_VOXELS)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "%lldx%lldx%lld voxels: more than EDGEL_MAX_BRICKED_VOXELS",
                          (long long)size[0], (long long)size[1], (long long)size[2]);
    return EDGEL_OK;
}

/* Sizes and buffers; EDGEL_OK or a failure before any callback. */
static edgel_status setup(bricks *b)
{
    const edgel_chunk_grid *g = &b->g;
    double box = 1.0, brick = 1.0;
    for (int a = 0; a < 3; a++) {
        const int64_t side = g->chunk[a] + 2LL * g->halo[a];
        box *= (double)(side < g->size[a] ? side : g->size[a]);
        brick *= (double)g->chunk[a];
    }
    if (brick >= (double)INT32_MAX || box > (double)EDGEL_MAX_VOXELS)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "bricks of %dx%dx%d voxels are too large (a brick below 2^31 voxels, "
                          "with its halo of %d, %d, %d at most EDGEL_MAX_VOXELS)",
                          g->chunk[0], g->chunk[1], g->chunk[2], g->halo[0], g->halo[1],
                          g->halo[2]);
    const size_t boxes = (size_t)box, voxels = (size_t)brick;
    const size_t bricks_all = (size_t)edgel_chunk_grid_chunks(g);
    b->box = malloc(boxes * edgel_pixel_size(b->io->type));
    b->suppressed = malloc(boxes * sizeof(float));
    b->box_edges = malloc(boxes);
    b->classes = malloc(voxels);
    b->out = malloc(voxels);
    b->first_node = malloc(bricks_all * sizeof(int64_t));
    b->label_count = malloc(bricks_all * sizeof(int32_t));
    b->node_count = malloc(bricks_all * sizeof(int32_t));
    if (!b->box || !b->suppressed || !b->box_edges || !b->classes || !b->out || !b->first_node ||
        !b->label_count || !b->node_count || !edgel_chunk_faces_init(&b->faces, g, &b->nodes))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY,
                          "out of memory for bricks of %dx%dx%d voxels and their planes of "
                          "nodes (%lldx%lld)", g->chunk[0], g->chunk[1], g->chunk[2],
                          (long long)g->size[0], (long long)g->size[1]);
    return EDGEL_OK;
}

static void release(bricks *b)
{
    void *all[] = {b->box,        b->suppressed,  b->box_edges,  b->classes, b->out,
                   b->first_node, b->label_count, b->node_count};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
    edgel_chunk_faces_free(&b->faces);
    edgel_volume_labels_free(&b->labels);
    edgel_nodes_free(&b->nodes);
}

typedef struct classes_job {
    bricks *b;
    int64_t offset[3]; /* the brick's first voxel in its box */
    int32_t side[3], length[3];
} classes_job;

/* Slice z of the brick's classes, from the box's suppressed stage. */
static void classes_slice(void *arg, int z)
{
    const classes_job *j = arg;
    const float lower = (float)j->b->p.lower_threshold, upper = (float)j->b->p.upper_threshold;
    uint8_t *c = j->b->classes + (size_t)z * j->length[1] * j->length[0];
    for (int32_t y = 0; y < j->length[1]; y++) {
        const float *row = j->b->suppressed +
                           ((size_t)(z + j->offset[2]) * j->side[1] + (size_t)(y + j->offset[1])) *
                               j->side[0] + j->offset[0];
        for (int32_t x = 0; x < j->length[0]; x++)
            *c++ = edgel_itk_class(row[x], lower, upper);
    }
}

/* Brick c: its box read with the halo, its classes and its components. */
static edgel_status compute(bricks *b, const edgel_chunk *c)
{
    const int32_t *side = c->side, *length = c->length;
    const edgel_volume src = edgel_volume_host(b->box, side[0], side[1], side[2], b->io->type);
    const edgel_volume edges = edgel_volume_host(b->box_edges, side[0], side[1], side[2],
                                                 EDGEL_U8);
    const edgel_volume sup = edgel_volume_host(b->suppressed, side[0], side[1], side[2],
                                               EDGEL_F32);
    const edgel_volume_canny_stages stages = {NULL, &sup};
    EDGEL_TRY(b->io->read(b->io->user, c->lo[0], c->lo[1], c->lo[2], &src));
    /* the suppressed stage alone: thresholds no value passes leave the backend's hysteresis
     * nothing to follow (the classes come from the real ones below) */
    edgel_volume_canny_params none = b->p;
    none.upper_threshold = none.lower_threshold = INFINITY;
    EDGEL_TRY(b->ctx->ops->canny_volume(b->ctx->state, &none, &src, &edges, &stages));
    classes_job job = {b,
                       {c->start[0] - c->lo[0], c->start[1] - c->lo[1], c->start[2] - c->lo[2]},
                       {side[0], side[1], side[2]},
                       {length[0], length[1], length[2]}};
    edgel_host_parallel_for(b->threads, length[2], classes_slice, &job);
    if (!edgel_volume_labels_run(&b->labels, b->classes, length[0], length[1], length[2],
                                 b->threads))
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a brick's components");
    memcpy(b->length, length, sizeof b->length);
    return EDGEL_OK;
}

/* The label of voxel (x, y, z) of the brick held. */
static int32_t label_at(const bricks *b, int32_t x, int32_t y, int32_t z)
{
    return b->labels.label[((size_t)z * b->length[1] + (size_t)y) * b->length[0] + (size_t)x];
}

/* The node of voxel (x, y, z) of the brick held (edgel_chunk_node_at). */
static int64_t node_at(void *user, int32_t x, int32_t y, int32_t z)
{
    const bricks *b = user;
    return b->labels.node[label_at(b, x, y, z)];
}

/* Marks with node 0 (a placeholder) the labels of brick c that touch a face shared with
 * another brick, then numbers them from `first` in label order; returns how many. */
static int32_t number_nodes(bricks *b, const edgel_chunk *c, int64_t first)
{
    int64_t *node = b->labels.node;
    const int64_t *index = c->index, *count = b->g.count;
    node[0] = -1;
    const int32_t w = c->length[0], h = c->length[1], d = c->length[2];
    for (int32_t z = 0; z < d; z++)
        for (int32_t y = 0; y < h; y++) {
            const int inner_face = (index[2] > 0 && z == 0) ||
                                   (index[2] < count[2] - 1 && z == d - 1) ||
                                   (index[1] > 0 && y == 0) ||
                                   (index[1] < count[1] - 1 && y == h - 1);
            const int32_t step = inner_face ? 1 : (w > 1 ? w - 1 : 1);
            for (int32_t x = 0; x < w; x += step) {
                const int side = inner_face || (index[0] > 0 && x == 0) ||
                                 (index[0] < count[0] - 1 && x == w - 1);
                const int32_t l = label_at(b, x, y, z);
                if (side && l)
                    node[l] = 0;
            }
        }
    int32_t n = 0;
    for (int32_t l = 1; l <= b->labels.count; l++)
        node[l] = node[l] == 0 ? first + n++ : -1;
    return n;
}

/* Pass 1 for brick c: its nodes, joined across its faces to the bricks before it. */
static edgel_status first_pass(bricks *b, const edgel_chunk *c)
{
    EDGEL_TRY(compute(b, c));
    const int64_t first = b->nodes.count;
    const int32_t n = number_nodes(b, c, first);
    for (int32_t l = 1; l <= b->labels.count; l++)
        if (b->labels.node[l] >= 0 &&
            edgel_nodes_add(&b->nodes, b->labels.strong[l], 0) != b->labels.node[l])
            return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for the components "
                              "that cross bricks");
    b->first_node[c->at] = first, b->label_count[c->at] = b->labels.count;
    b->node_count[c->at] = n;
    edgel_chunk_faces_add(&b->faces, c, node_at, b);
    return EDGEL_OK;
}

typedef struct edges_job {
    bricks *b;
    int32_t slice; /* voxels a slice */
} edges_job;

/* Slice z of the brick's edges: 255 where its label's component is edges. */
static void edges_slice(void *arg, int z)
{
    const edges_job *j = arg;
    const int32_t *label = j->b->labels.label + (size_t)z * j->slice;
    const uint8_t *edge = j->b->labels.strong;
    uint8_t *out = j->b->out + (size_t)z * j->slice;
    for (int32_t i = 0; i < j->slice; i++)
        out[i] = label[i] && edge[label[i]] ? 255 : 0;
}

/* Pass 2 for brick c: its edges, to the caller. */
static edgel_status second_pass(bricks *b, const edgel_chunk *c)
{
    EDGEL_TRY(compute(b, c));
    const int32_t n = b->labels.count == b->label_count[c->at]
                          ? number_nodes(b, c, b->first_node[c->at])
                          : -1;
    if (n != b->node_count[c->at])
        return edgel_fail(EDGEL_ERROR_IO, "the brick at (%lld, %lld, %lld) read other voxels "
                          "the second time (its components differ)", (long long)c->start[0],
                          (long long)c->start[1], (long long)c->start[2]);
    uint8_t *edge = b->labels.strong; /* a label: 1 where its component is edges */
    for (int32_t l = 1; l <= b->labels.count; l++) {
        const int64_t node = b->labels.node[l];
        edge[l] |= node >= 0 && b->nodes.strong[edgel_nodes_find(&b->nodes, node)];
    }
    const int32_t *length = c->length;
    edges_job job = {b, length[0] * length[1]};
    edgel_host_parallel_for(b->threads, length[2], edges_slice, &job);
    const edgel_volume out = edgel_volume_host(b->out, length[0], length[1], length[2],
                                               EDGEL_U8);
    return b->io->write(b->io->user, c->start[0], c->start[1], c->start[2], &out);
}

static edgel_status run(bricks *b)
{
    EDGEL_TRY(setup(b));
    const int64_t chunks = edgel_chunk_grid_chunks(&b->g);
    edgel_chunk c;
    for (int64_t at = 0; at < chunks; at++) {
        edgel_chunk_nth(&b->g, at, &c);
        EDGEL_TRY(first_pass(b, &c));
    }
    for (int64_t at = 0; at < chunks; at++) {
        edgel_chunk_nth(&b->g, at, &c);
        EDGEL_TRY(second_pass(b, &c));
    }
    return EDGEL_OK;
}

static edgel_status bricks_held(edgel_context *ctx, const edgel_volume_canny_params *params,
                                const edgel_brick_io *io, const int32_t brick[3])
{
    bricks b = {0};
    b.ctx = ctx, b.io = io;
    EDGEL_TRY(edgel_volume_canny_params_read(params, &b.p));
    EDGEL_TRY(check_io(io, brick));
    const int64_t size[3] = {io->width, io->height, io->depth};
    int32_t halo[3];
    halo_of(&b.p, halo);
    edgel_chunk_grid_init(&b.g, size, brick, halo);
    EDGEL_TRY(edgel_context_threads(ctx, &b.threads));
    const edgel_status st = run(&b);
    release(&b);
    return st;
}

edgel_status edgel_canny_volume_bricks(edgel_context *ctx, const edgel_volume_canny_params *params,
                                       const edgel_brick_io *io, int32_t brick_width,
                                       int32_t brick_height, int32_t brick_depth)
{
    const int32_t brick[3] = {brick_width, brick_height, brick_depth};
    EDGEL_WITH_CONTEXT(ctx, bricks_held(ctx, params, io, brick));
}
