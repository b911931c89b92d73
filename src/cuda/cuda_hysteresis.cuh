/*
 * Hysteresis on the GPU (cuda_hysteresis.cu): what the tile kernels before it share with it
 * (the bitmaps' and nodes' layout, the wait of an early launch) and its launcher.
 */
#ifndef EDGEL_CUDA_HYSTERESIS_CUH
#define EDGEL_CUDA_HYSTERESIS_CUH

#include <stdint.h>

#include "cuda/cuda_arch.cuh"
#include "cuda/cuda_internal.h"

#define EDGEL_FULL_WARP 0xFFFFFFFFu
#define EDGEL_TILE_NODES 128 /* per tile: top 0-31, bottom 32-63, left 64-95, right 96-127 */
#define EDGEL_NODE_TOP 0
#define EDGEL_NODE_BOTTOM 32
#define EDGEL_NODE_LEFT 64
#define EDGEL_NODE_RIGHT 96

/* Bitmaps and union-find nodes of the hysteresis. Frame z's arrays start at z * stride.
 * A tile's 32 row words are adjacent (bitmap_word), so that a warp reads or writes a tile, a
 * row a lane, in four 32-byte sectors (in rows of the frame, a sector each). */
struct canny_bits {
    uint32_t *cand, *strong, *reach;
    uint32_t *parent; /* node 0, then EDGEL_TILE_NODES per tile */
    size_t stride;    /* uint32 elements from one frame's arrays to the next's */
    int tiles_x, tiles_y;
};

/* The bitmap word of row `row` of tile `tile` (tiles numbered along the rows of tiles). */
__device__ __forceinline__ size_t bitmap_word(int tile, int row)
{
    return (size_t)tile * 32 + (size_t)row;
}

__device__ __forceinline__ uint32_t tile_node(int tile, int k)
{
    return 1u + (uint32_t)tile * EDGEL_TILE_NODES + (uint32_t)k;
}

/* The hysteresis kernels may be launched before the kernel before them has finished
 * (programmatic dependent launch, sm_90 and later): they wait here, before their first read
 * of its results, so that their launch overlaps its tail. */
__device__ __forceinline__ void wait_for_previous_kernel()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
}

/* p, which the compiler may no longer take apart: a frame's node array is then one base
 * register, and a node's address one multiply-add (left alone, the compiler folded the
 * frame's offset into every node index: ten instructions a load in the finds' loops). */
template <typename T> __device__ __forceinline__ T *opaque(T *p)
{
    asm("" : "+l"(p));
    return p;
}
/* link_tiles takes W = 4 warps a tile or 1 (finish_tiles 1): four give a tile the shortest
 * time; one lets four times as many tiles share an SM, for launches of many tiles. With one
 * warp a tile a block holds two tiles (an SM holds at most 32 blocks), each on its own. */
template <int W> __host__ __device__ constexpr int tiles_per_block() { return W == 1 ? 2 : 1; }

/* Programmatic dependent launch on the current device (compute capability 9.0 and kernels
 * compiled for it): the hysteresis kernels, and the stream kernel after a pre-blur, may then
 * start before the kernel before them ends. */
bool early_launch_supported();

/* Hysteresis after a tile kernel that left the bitmaps `b` of `nframes` frames of
 * width x height: links inside and across tiles, then the edge bytes of t.dst. */
edgel_status launch_hysteresis(cudaStream_t stream, const frame_table &t, const canny_bits &b,
                               int width, int height, int nframes);

#endif
