/* The GPU suite's shared pieces (tests/gpu/test_gpu.c and one file a feature): the contexts,
 * copies to and from the device, and the comparisons every feature's tests use. The CHECK
 * counters are the suite's (check.h with EDGEL_CHECK_SHARED). */
#ifndef EDGEL_TESTS_GPU_COMMON_H
#define EDGEL_TESTS_GPU_COMMON_H

#define EDGEL_CHECK_SHARED
#include "../check.h"
#include "edgel.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

extern edgel_context *cpu, *gpu, *gpu2;

#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

/* Bytes that differ between a and b, the first in *first. */
size_t count_diff(const uint8_t *a, const uint8_t *b, size_t n, size_t *first);
/* A device copy of a host image, and back. */
edgel_image device_copy(const edgel_image *host);
void device_download(const edgel_image *dev, void *host);
void describe(char *buf, size_t n, const edgel_canny_params *p, const edgel_image *src);
/* CPU, GPU on host memory and GPU on device memory must agree byte for byte; returns the
 * CPU's edge pixel count. */
size_t compare_case(const edgel_canny_params *p, const edgel_image *src, const char *name);
/* Every stage the CPU gives, the GPU gives too. */
void compare_stages(const edgel_canny_params *p, const edgel_image *src);
/* The k-th of the suite's option sets. */
void params_for(int k, edgel_canny_params *p);
/* A w x h crop or mirrored tiling of a photograph, with `cn` channels. */
edgel_image make_frame(const edgel_image *photo, int w, int h, int cn, void **mem);
int load_photos(const char *dir, edgel_image *photos, int max);
/* Floats that differ bit for bit. */
size_t count_float_diff(const float *a, const float *b, size_t n);

/* One function a feature's file. */
void test_photos(edgel_image *photos, int n);
void test_sizes(const edgel_image *photo, int small);
void test_blurred_sizes(const edgel_image *photo, int small);
void test_hysteresis_paths(int small);
void test_stages(const edgel_image *photo);
void test_gradients(const edgel_image *photo);
void test_batches_and_streams(const edgel_image *photo, int small);
void test_mixed_batches(const edgel_image *photo, int small);
void test_itk(const edgel_image *photos, int n, int small);
void test_skimage(const edgel_image *photos, int n, int small);
void test_filter(const edgel_image *photo, int small);
void test_fft_paths(const edgel_image *photo, int small);
void test_fixed_filter(const edgel_image *photo, int small);
void test_fixed_stream(const edgel_image *photo, int small);
void test_building_blocks(const edgel_image *photo, int small);
void test_tiled(const edgel_image *photo, int small);
void test_subpixel(const edgel_image *photos, int n, int small);
void test_subpixel_batch(const edgel_image *photos, int n, int small);
void test_volumes(int small);

#endif
