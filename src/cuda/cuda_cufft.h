/*
 * cuFFT, loaded at its first use (dlopen of libcufft.so.12) instead of linked: libedgel then
 * loads and runs everything else where cuFFT is missing (a wheel installed without the
 * nvidia-cufft package, a machine with a driver only), and the GPU has no FFT method there.
 * Looked for in order: $EDGEL_CUFFT (a path), the loader's search path (LD_LIBRARY_PATH,
 * ldconfig), NVIDIA's PyPI package beside the wheel's libedgel (site-packages/nvidia/cu13/lib),
 * then the CUDA toolkit's /usr/local/cuda/lib64. Callbacks (cufftXtSetJITCallback) need
 * cuFFT's nvJitLink (libnvJitLink.so.13), which is looked for beside cuFFT as well.
 */
#ifndef EDGEL_CUDA_CUFFT_H
#define EDGEL_CUDA_CUFFT_H

#include <cufft.h>
#include <cufftXt.h>

struct cufft_api {
    cufftResult (*plan2d)(cufftHandle *plan, int nx, int ny, cufftType type);
    cufftResult (*plan_many)(cufftHandle *plan, int rank, int *n, int *inembed, int istride,
                             int idist, int *onembed, int ostride, int odist, cufftType type,
                             int batch);
    cufftResult (*destroy)(cufftHandle plan);
    cufftResult (*set_stream)(cufftHandle plan, cudaStream_t stream);
    cufftResult (*exec_r2c)(cufftHandle plan, cufftReal *in, cufftComplex *out);
    cufftResult (*exec_c2r)(cufftHandle plan, cufftComplex *in, cufftReal *out);
    /* plans with callbacks: NULL where this cuFFT or its nvJitLink lacks them */
    cufftResult (*create)(cufftHandle *plan);
    cufftResult (*make_plan_many)(cufftHandle plan, int rank, int *n, int *inembed, int istride,
                                  int idist, int *onembed, int ostride, int odist,
                                  cufftType type, int batch, size_t *work_size);
    cufftResult (*set_jit_callback)(cufftHandle plan, const char *symbol, const void *fatbin,
                                    size_t size, cufftXtCallbackType type, void **caller_info);
};

/* cuFFT's functions, or NULL where it cannot be loaded (looked for once a process). */
const cufft_api *edgel_cufft(void);

#endif
