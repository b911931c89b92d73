/*
 * Worker threads for host work (the CPU backend's stages, the CUDA backend's staging copies):
 * one process-wide pool that runs a function on several
 * threads at once (the caller is one of them). Waiting workers spin for a few microseconds,
 * so that the stages of one call follow each other without a wake-up, and then sleep: a
 * thread that waits never holds a core that a busy machine needs (OpenMP's default spin of
 * milliseconds made 2 threads 8x slower than 1 where two cores were busy).
 *
 * The pool serves one call at a time; a call that finds it in use (another thread's
 * context) runs on its own thread alone, with the same results.
 */
#ifndef EDGEL_CORE_HOST_POOL_H
#define EDGEL_CORE_HOST_POOL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Cores this process may run on (its CPU affinity; at least 1, at most 1024). */
int edgel_host_cores(void);

/* Stripes of rows [y0, y1) for task `i` of `n` over `height` rows. */
static inline void edgel_stripe(int i, int n, int height, int *y0, int *y1)
{
    *y0 = (int)((long long)height * i / n);
    *y1 = (int)((long long)height * (i + 1) / n);
}

/* Runs fn(arg, t, n) for t = 0..n-1 on n threads, n <= `threads` (fewer when the pool is
 * in use or cannot grow); returns when every one has returned. */
void edgel_host_parallel(int threads, void (*fn)(void *arg, int thread, int nthreads),
                        void *arg);

/* Runs fn(arg, i) for i = 0..count-1 on up to `threads` threads: each thread takes a
 * contiguous range, and a thread done with its own takes over what is left of a late one's
 * (any order: callers' results must not depend on it). */
void edgel_host_parallel_for(int threads, int count, void (*fn)(void *arg, int index),
                            void *arg);

/* Copies `rows` rows of `row_bytes` between pitched buffers, on up to `threads` threads
 * (large copies only: staging for the GPU backend). */
void edgel_host_copy_rows(int threads, const uint8_t *src, size_t src_pitch, uint8_t *dst,
                          size_t dst_pitch, size_t row_bytes, int rows);

/* Copies of `count` separate buffers, their bytes shared evenly by up to `threads` threads
 * (staging for the GPU backend: many arrays of one size in one call). */
typedef struct edgel_host_part {
    void *dst;
    const void *src;
    size_t bytes;
} edgel_host_part;
void edgel_host_copy_parts(int threads, const edgel_host_part *parts, int count);

#ifdef __cplusplus
}
#endif

#endif
