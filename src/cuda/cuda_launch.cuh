/* Internal: kernel launches the CUDA backend's units share. */
#ifndef EDGEL_CUDA_LAUNCH_CUH
#define EDGEL_CUDA_LAUNCH_CUH

#include <cuda_runtime.h>

/* Launches `kernel` on `stream`; with `early`, as a programmatic dependent launch: it may
 * start before the kernel before it ends, and waits for it in wait_for_previous_kernel(). */
template <typename... Params, typename... Args>
static cudaError_t launch_after(bool early, void (*kernel)(Params...), dim3 grid, dim3 block,
                                cudaStream_t stream, Args... args)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.stream = stream;
    cudaLaunchAttribute attr = {};
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = early ? 1 : 0;
    return cudaLaunchKernelEx(&cfg, kernel, args...);
}

#endif
