/*
 * GPU suite: the CUDA backend must give the CPU backend's bytes (and so cv2.Canny's, or ITK's
 * floats for the itk preset) for every option, size, memory kind, batch and stream arrangement. Run by scripts/gpu-check.sh on a
 * machine with an NVIDIA GPU; exits 77 (skipped) where there is none.
 *
 *   test_gpu [--small] [BSDS500_DIR]
 *
 * --small: a few small cases only (for compute-sanitizer).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"
#include "../test_random.h"
#include "io/image_io.h"

int main(int argc, char **argv)
{
    int small = 0;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small"))
            small = 1;
        else
            dir = argv[i];
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("test_gpu: no CUDA device, skipped\n");
        return 77;
    }
    edgel_context_options o;
    edgel_context_options_default(&o);
    if (edgel_context_create(EDGEL_BACKEND_CPU, &o, &cpu) != EDGEL_OK ||
        edgel_context_create(EDGEL_BACKEND_CUDA, &o, &gpu) != EDGEL_OK ||
        edgel_context_create(EDGEL_BACKEND_CUDA, &o, &gpu2) != EDGEL_OK) {
        fprintf(stderr, "test_gpu: contexts: %s\n", edgel_last_error());
        return 1;
    }
    edgel_backend b;
    edgel_context *autoctx;
    CHECK(edgel_context_create(EDGEL_BACKEND_AUTO, NULL, &autoctx) == EDGEL_OK);
    CHECK(edgel_context_backend(autoctx, &b) == EDGEL_OK && b == EDGEL_BACKEND_CUDA);
    edgel_context_destroy(autoctx);

    enum { MAX_PHOTOS = 500 };
    edgel_image *photos = calloc(MAX_PHOTOS, sizeof *photos);
    int n = dir ? load_photos(dir, photos, small ? 2 : MAX_PHOTOS) : 0;
    uint8_t fallback[64 * 48 * 3];
    if (n == 0) { /* no photographs given: a smooth synthetic frame */
        for (int i = 0; i < 64 * 48 * 3; i++)
            fallback[i] = (uint8_t)((i / 3 % 64) * 3 + (i / 192) * 2 + (next_random() & 7));
        photos[0] = edgel_image_host(fallback, 64, 48, EDGEL_U8, 3);
    }
    if (n > 0)
        test_photos(photos, n);
    test_sizes(&photos[0], small);
    test_blurred_sizes(&photos[0], small);
    test_hysteresis_paths(small);
    test_stages(&photos[0]);
    test_gradients(&photos[0]);
    test_batches_and_streams(&photos[0], small);
    test_mixed_batches(&photos[0], small);
    test_itk(photos, n, small);
    test_skimage(photos, n, small);
    test_filter(&photos[0], small);
    test_fft_paths(&photos[0], small);
    test_fixed_filter(&photos[0], small);
    test_fixed_stream(&photos[0], small);
    test_building_blocks(&photos[0], small);
    test_tiled(&photos[0], small);
    test_subpixel(photos, n, small);
    test_subpixel_batch(photos, n, small);
    test_volumes(small);
    for (int i = 0; i < n; i++)
        edgel_io_free(&photos[i]);
    free(photos);
    edgel_context_destroy(cpu);
    edgel_context_destroy(gpu);
    edgel_context_destroy(gpu2);
    return check_summary("test_gpu");
}
