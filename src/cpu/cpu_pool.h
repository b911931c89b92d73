/*
 * The CPU backend's worker threads: one process-wide pool that runs a function on several
 * threads at once (the caller is one of them). Waiting workers spin for a few microseconds,
 * so that the stages of one call follow each other without a wake-up, and then sleep: a
 * thread that waits never holds a core that a busy machine needs (OpenMP's default spin of
 * milliseconds made 2 threads 8x slower than 1 on a loaded 2-core machine).
 *
 * The pool serves one call at a time; a call that finds it in use (another thread's
 * context) runs on its own thread alone, with the same results.
 */
#ifndef EDGEL_CPU_POOL_H
#define EDGEL_CPU_POOL_H

/* Runs fn(arg, t, n) for t = 0..n-1 on n threads, n <= `threads` (fewer when the pool is
 * in use or cannot grow); returns when every one has returned. */
void edgel_cpu_parallel(int threads, void (*fn)(void *arg, int thread, int nthreads),
                        void *arg);

/* Runs fn(arg, i) for i = 0..count-1 on up to `threads` threads, in contiguous chunks handed
 * out as threads finish their last (any order: callers' results must not depend on it). */
void edgel_cpu_parallel_for(int threads, int count, void (*fn)(void *arg, int index),
                            void *arg);

#endif
