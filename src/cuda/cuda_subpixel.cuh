/* Internal: the sub-pixel detector's device memory and the chaining's entry, shared by its
 * files (cuda_subpixel.cu: the points; cuda_subpixel_chain.cu: their links, hysteresis and
 * curves). */
#ifndef EDGEL_CUDA_SUBPIXEL_CUH
#define EDGEL_CUDA_SUBPIXEL_CUH

#include "cuda/cuda_internal.h"

/* The chaining's device memory (cuda_subpixel_chain.cu), one allocation carved into arrays
 * sized by the points: the links and those the hysteresis keeps, the union-find over link
 * slots and then points with each set's size, facts of each chain, the competing proposals,
 * the curves in order and their points; cub's temporary space. */
struct subpixel_chain_buffers {
    int32_t *next, *prev, *kept_next, *kept_prev, *parent, *size, *rank, *first, *head;
    int32_t *proposal, *competing, *owner, *sorted_owner, *by_rank, *curve_root, *curve_of,
        *start, *succ[2], *dist[2], *counters;
    uint8_t *strong, *closed;
    int64_t *lengths, *limits;
    double *out[5]; /* x, y, gx, gy, modulus of the curves' points */
    void *block, *tmp;
    size_t points, tmp_bytes;
};

/* The sub-pixel detector's device memory (cuda_subpixel.cu): the source's rows (host calls),
 * the image as doubles and the blur's pass, each pixel's edge-point axis and point number,
 * the points' counts and first numbers by (column, chunk of rows), the points and their best
 * neighbours, the scans' space, the chaining's memory. Each grows to what a call needs and
 * is kept. */
struct subpixel_buffers {
    subpixel_chain_buffers chain;
    uint8_t *src, *axis;
    double *image, *pass, *kernel;
    int32_t *id, *counts, *starts, *total; /* total: the points, then the row-ordered ones */
    int32_t *column;                       /* each column's first point, then the count */
    double *x, *y, *gx, *gy, *mod, *fwd_s, *bck_s;
    int32_t *px, *py, *fwd, *bck, *row_order;
    void *scan_tmp;
    uint8_t *staging; /* page-locked: the points on their way to the host */
    size_t src_bytes, pixels, counts_cap, kernel_cap, total_cap, column_cap, points, scan_bytes,
        staging_bytes;
};

void release_subpixel_chain_buffers(subpixel_chain_buffers *b);
/* Steps 3b to 5 of the sub-pixel detector on the device (cuda_subpixel_chain.cu): from the
 * `count` points and best neighbours in b (numbered in the reference's order, `row_order`
 * their memory order), the links, the hysteresis (high >= low) and the curves, copied into
 * c's result through b's page-locked staging, on `threads` host threads, or written into c's
 * device result (c->place) on `device`. */
edgel_status subpixel_chain_on_device(subpixel_buffers *b, cudaStream_t stream, int32_t count,
                                      double high, double low, int threads, int device,
                                      edgel_curves *c);

#endif
