/* Shared by the C++/CUDA benchmark programs: error checks, medians, clocks, event timing. */
#ifndef EDGEL_BENCH_UTIL_H
#define EDGEL_BENCH_UTIL_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <vector>

#include "edgel.h"

#define CK(call)                                                                               \
    do {                                                                                       \
        cudaError_t e_ = (call);                                                               \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)
#define EK(call)                                                                               \
    do {                                                                                       \
        edgel_status s_ = (call);                                                              \
        if (s_ != EDGEL_OK) {                                                                  \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, edgel_last_error());  \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

static double now_ms()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Median event time of fn(i) over runs, after warm-up. */
template <typename F> static double time_events(cudaStream_t stream, int runs, F fn)
{
    std::vector<cudaEvent_t> ev(2 * runs);
    for (auto &e : ev)
        cudaEventCreate(&e);
    for (int i = 0; i < 10; i++)
        fn(i);
    CK(cudaStreamSynchronize(stream));
    for (int i = 0; i < runs; i++) {
        cudaEventRecord(ev[2 * i], stream);
        fn(i);
        cudaEventRecord(ev[2 * i + 1], stream);
    }
    CK(cudaStreamSynchronize(stream));
    std::vector<double> t;
    for (int i = 0; i < runs; i++) {
        float ms;
        cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]);
        t.push_back(ms);
    }
    for (auto &e : ev)
        cudaEventDestroy(e);
    return median(t);
}

#endif
