/*
 * The CUDA backend's tuning constants, one place: each a -D away from another value, each
 * with the reason for its value. None changes a result, only the time to it. To re-derive
 * one on a GPU, time the variants side by side in one run, e.g.
 *   bash bench/gpu-lab/measure-variants.sh '' '-DEDGEL_STREAM_WARPS=8' '-DEDGEL_LINK_FULL=0'
 * (bench_gpu's Canny table for each variant in turn, the rounds interleaved).
 */
#ifndef EDGEL_CUDA_TUNING_H
#define EDGEL_CUDA_TUNING_H

/* Warps a block of the streaming kernel: 4 leaves room for 16 blocks an SM at its registers. */
#ifndef EDGEL_STREAM_WARPS
#define EDGEL_STREAM_WARPS 4
#endif

/* Rows ahead that the streaming kernel prefetches into L2: covers the latency of a row's load. */
#ifndef EDGEL_STREAM_PREFETCH
#define EDGEL_STREAM_PREFETCH 9
#endif

/* 1: skip the suppression of rows with no magnitude above the low threshold (natural images
 * have many; the skip's test costs less than the rows it saves). */
#ifndef EDGEL_STREAM_SKIP_FLAT
#define EDGEL_STREAM_SKIP_FLAT 1
#endif

/* Blocks an SM the streaming kernel's register allocation aims for (1: the compiler's choice,
 * which fewer registers a thread did not beat). */
#ifndef EDGEL_STREAM_MIN_BLOCKS
#define EDGEL_STREAM_MIN_BLOCKS 1
#endif

/* Warps an SM a streaming launch must give before a shape that shares less work is taken:
 * below it the GPU idles; above it wide lanes share the per-row work (cuda_canny.cu). */
#ifndef EDGEL_STREAM_SM_WARPS
#define EDGEL_STREAM_SM_WARPS 15
#endif

/* 1: link_tiles holds registers for a full SM of warps, so that a launch of many tiles keeps
 * every SM busy. */
#ifndef EDGEL_LINK_FULL
#define EDGEL_LINK_FULL 1
#endif

/* Tiles an SM from which link_tiles takes one warp a tile instead of four: one is slower a
 * tile but four times as many share an SM, which pays once tiles fill the GPU several times
 * (4K frames and batches). */
#ifndef EDGEL_LINK_SOLO_SM_TILES
#define EDGEL_LINK_SOLO_SM_TILES 60.6
#endif

/* Host slots a batch of host frames takes in turn, so that one frame's copy in, another's
 * kernels and a third's copy out overlap (a frame's PCIe copies outlast its kernels); more
 * than four add nothing over three stages. */
#ifndef EDGEL_HOST_SLOTS
#define EDGEL_HOST_SLOTS 4
#endif

/* Sub-pixel frames of a batch on the GPU at once, each on its own stream and memory: one
 * frame's kernels run while another's call waits on the host for the counts that size its
 * next steps, and the small kernels of several frames fill the GPU together. */
#ifndef EDGEL_SUBPIXEL_LANES
#define EDGEL_SUBPIXEL_LANES 4
#endif

/* Pixels (all frames) up to which the fixed-point pre-blur runs two pixels a lane instead of
 * four: twice the warps fill the GPU on small frames; large ones favour fewer. */
#ifndef STREAM_NARROW_PIXELS
#define STREAM_NARROW_PIXELS (1 << 20)
#endif

#endif
