/*
 * The FFT method's cuFFT callbacks, compiled to LTO-IR apart from the library (CMakeLists.txt
 * embeds the result) and linked into cuFFT's own kernels when a plan is made
 * (cufftXtSetJITCallback): the forward transform reads its tiles straight from the image and
 * multiplies its spectrum as it stores it, the inverse stores the kept correlations into the
 * output, so no pass of their own reads or writes the grids (a batch holds under 2^32
 * values: offsets fit in 32 bits). Each gets the plan's fft_tiles
 * (cuda_filter_pixels.cuh) as its caller information. Their plans place the tiles' spectra
 * nx * ny apart, so that a value's place in its tile is a mask. (C++ names: cuFFT declares
 * them so.)
 */
#include <cufftXt.h>

#include "cuda/cuda_filter_pixels.cuh"

/* The caller information, read whole in 16-byte read-only loads (the pieces a callback does
 * not use are dropped): field by field, each callback spent some twenty loads on it. */
__device__ __forceinline__ fft_tiles tiles_at(const void *info)
{
    fft_tiles t;
#pragma unroll
    for (unsigned k = 0; k < sizeof t / 16; k++)
        ((int4 *)&t)[k] = __ldg((const int4 *)info + k);
    __builtin_assume(__isGlobal(t.g.src));
    __builtin_assume(__isGlobal(t.g.dst));
    __builtin_assume(__isGlobal(t.kspec));
    return t;
}

__device__ cufftReal edgel_fft_load(void *, unsigned long long i, void *info, void *)
{
    return fft_tile_load(tiles_at(info), (unsigned)i);
}

__device__ void edgel_fft_multiply(void *out, unsigned long long i, cufftComplex v, void *info,
                                   void *)
{
    const fft_tiles t = tiles_at(info);
    const unsigned in_tile = (unsigned)i & ((1u << (t.nx_log2 + t.ny_log2)) - 1);
    ((float2 *)out)[i] = fft_tile_multiply(t, in_tile, make_float2(v.x, v.y));
}

__device__ void edgel_fft_store(void *, unsigned long long i, cufftReal v, void *info, void *)
{
    fft_tile_store(tiles_at(info), (unsigned)i, v);
}
