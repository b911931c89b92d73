/* Shared by the C++/CUDA benchmark programs: error checks, medians, clocks, event timing. */
#ifndef EDGEL_BENCH_UTIL_H
#define EDGEL_BENCH_UTIL_H

#include <cuda_runtime.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <vector>

#include "edgel.h"
#include "io/image_io.h"

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

/* A frame of w x h (packed, pitch w) cut from the gray photograph `g` tiled and mirrored,
 * shifted 37 pixels right a seed: natural content at any size, different in each frame. */
static inline void tile_photo(uint8_t *f, const edgel_image &g, int w, int h, int seed)
{
    for (int y = 0; y < h; y++) {
        int ty = y / g.height, sy = y % g.height;
        if (ty & 1)
            sy = g.height - 1 - sy;
        for (int x = 0; x < w; x++) {
            int tx = (x + seed * 37) / g.width, sx = (x + seed * 37) % g.width;
            if (tx & 1)
                sx = g.width - 1 - sx;
            f[(size_t)y * w + x] = ((const uint8_t *)g.data)[(size_t)sy * g.pitch + sx];
        }
    }
}

/* The photograph at `path` in gray (luma for colour files), into `gray`; its view. Exits on
 * a file that is no 8-bit gray or colour image. */
static inline edgel_image read_gray_photo(const char *path, edgel_context *cpu, std::vector<uint8_t> &gray)
{
    edgel_image read;
    EK(edgel_io_read(path, NULL, &read));
    if (read.type != EDGEL_U8 || read.channels == 2) {
        fprintf(stderr, "%s is not an 8-bit gray or colour image\n", path);
        exit(2);
    }
    gray.resize((size_t)read.width * read.height);
    edgel_image photo = edgel_image_host(gray.data(), read.width, read.height, EDGEL_U8, 1);
    if (read.channels == 1)
        memcpy(gray.data(), read.data, gray.size());
    else
        EK(edgel_to_gray(cpu, EDGEL_GRAY_RGB, &read, &photo));
    edgel_io_free(&read);
    return photo;
}

/* Up to `max` BSDS500 photographs (the .jpg files of dir/test, dir/train, dir/val) in gray,
 * each in memory of its own (malloc). */
static inline std::vector<edgel_image> read_bsds_grays(const char *dir, edgel_context *cpu,
                                                       size_t max)
{
    std::vector<edgel_image> grays;
    const char *subs[] = {"test", "train", "val"};
    for (int s = 0; s < 3 && grays.size() < max; s++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, subs[s]);
        DIR *d = opendir(path);
        dirent *e;
        while (d && (e = readdir(d)) && grays.size() < max) {
            if (!strstr(e->d_name, ".jpg"))
                continue;
            char file[2048];
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            edgel_image rgb;
            if (edgel_io_read(file, NULL, &rgb) != EDGEL_OK)
                continue;
            edgel_image g = edgel_image_host(malloc((size_t)rgb.width * rgb.height), rgb.width,
                                             rgb.height, EDGEL_U8, 1);
            EK(edgel_to_gray(cpu, EDGEL_GRAY_RGB, &rgb, &g));
            edgel_io_free(&rgb);
            grays.push_back(g);
        }
        if (d)
            closedir(d);
    }
    return grays;
}

#endif
