/* Internal: what an edgel_curves holds (edgel.h): the result of the last call, and the
 * working arrays a call reuses, each grown on demand and kept. */
#ifndef EDGEL_CORE_CURVES_H
#define EDGEL_CORE_CURVES_H

#include "edgel.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus /* (CUDA sources read the struct; C++23 makes _Atomic(int) this type) */
#include <atomic>
typedef std::atomic<int> edgel_busy_flag;
extern "C" {
#else
#include <stdatomic.h>
typedef atomic_int edgel_busy_flag;
#endif

/* A growing list of edge points (one thread's rows while they are found; then all of them,
 * numbered in the reference's order of visit: column by column, down each column). */
typedef struct edgel_point_list {
    double *x, *y, *gx, *gy, *mod;
    int32_t *px, *py; /* the pixel */
    size_t count, cap;
} edgel_point_list;

/* A result in device memory (edgel_curves_set_place): its arrays carved from one allocation
 * of the backend's, which frees it and copies out of it (the core never calls a backend). */
typedef struct edgel_device_curves {
    int device;       /* the CUDA device holding the result; -1: the result is on the host */
    void *block;      /* the allocation, on block_device; reused from call to call */
    size_t bytes;
    int block_device;
    double *x, *y, *gx, *gy, *modulus;
    int64_t *limits;
    uint8_t *closed;
    void (*release)(void *block, int device);
    edgel_status (*copy)(const struct edgel_curves *c, double *xy, double *gradient,
                         double *modulus, int64_t *limits, uint8_t *closed);
} edgel_device_curves;

struct edgel_curves {
    edgel_busy_flag busy;
    int has_points; /* the last call found points (edgel_subpixel_find_points) */
    edgel_curves_place place;
    edgel_device_curves on_device;
    /* the result */
    int64_t points, curves;
    double *x, *y, *gx, *gy, *modulus;
    size_t point_cap;
    int64_t *limits;
    uint8_t *closed;
    size_t curve_cap;
    /* a call's working memory: the image as doubles and the blur's pass (per pixel), each
     * thread's edge points and rows, all edge points by column, their links */
    double *image, *pass;
    size_t pixel_cap;
    edgel_point_list *found; /* one a thread */
    int found_cap;
    edgel_point_list all;
    int32_t *row_order;      /* the points in memory (row-major) order */
    int32_t *column_start;   /* w + 1 entries: each column's first point; then w cursors a
                                thread's list */
    int32_t *rank;           /* by column: its points above each row (h + 1 a column) */
    size_t rank_cap;
    int32_t *next, *prev;
    int32_t *label;                /* each point's set of points that may link (a root) */
    uint8_t *bucket;               /* its set's bucket by number, then by memory order */
    int32_t *fwd, *bck;            /* each point's best forward and backward neighbour */
    double *fwd_score, *bck_score; /* and their scores */
    uint8_t *valid;
    size_t link_cap, column_cap;
};

/* Room for `pixels` working pixels (the arrays' old contents are not kept): 0 when out of
 * memory. */
int edgel_curves_reserve_pixels(edgel_curves *c, size_t pixels);
/* Room for `points` points and `curves` curves in the result (contents kept): 0 when out of
 * memory. */
int edgel_curves_reserve_result(edgel_curves *c, size_t points, size_t curves);
/* No curves as the result: 0 when out of memory. */
int edgel_curves_set_none(edgel_curves *c);
/* Room for `count` numbered points (c->all, their links, order and neighbours; contents not
 * kept): 0 when out of memory or past INT32_MAX points. */
int edgel_curves_reserve_points(edgel_curves *c, size_t count);
/* Room for `count` entries of c->column_start (contents not kept): 0 when out of memory. */
int edgel_curves_reserve_columns(edgel_curves *c, size_t count);
/* Room for `count` points in a list (contents kept): 0 when out of memory. */
int edgel_point_list_reserve(edgel_point_list *l, size_t count);
void edgel_point_list_free(edgel_point_list *l);
/* The result copied out (edgel_curves_copy's arrays; NULL: skipped), positions and gradients
 * interleaved, on up to `threads` threads. */
void edgel_curves_copy_out(const edgel_curves *c, double *xy, double *gradient, double *modulus,
                           int64_t *limits, uint8_t *closed, int threads);
/* No result (a call begins): no points or curves, on the host. */
void edgel_curves_clear(edgel_curves *c);
/* Frees everything an edgel_curves holds, and it. */
void edgel_curves_free(edgel_curves *c);

#ifdef __cplusplus
}
#endif

#endif
