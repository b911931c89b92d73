/* cuFFT loaded at first use (cuda_cufft.h). */
#include "cuda/cuda_cufft.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cufft_api api;
static const cufft_api *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The path of NVIDIA's PyPI cuFFT beside this library in site-packages, in `out`. */
static int beside_wheel(char *out, size_t size)
{
    Dl_info info;
    if (!dladdr((void *)&edgel_cufft, &info) || !info.dli_fname)
        return 0;
    const char *slash = strrchr(info.dli_fname, '/');
    if (!slash) /* site-packages/edgel/libedgel.so -> site-packages/nvidia/cu13/lib */
        return 0;
    const int n = snprintf(out, size, "%.*s/../nvidia/cu13/lib/libcufft.so.12",
                           (int)(slash - info.dli_fname), info.dli_fname);
    return n > 0 && (size_t)n < size;
}

static void *open_cufft(void)
{
    const char *env = getenv("EDGEL_CUFFT");
    if (env && *env)
        return dlopen(env, RTLD_NOW | RTLD_LOCAL);
    void *h = dlopen("libcufft.so.12", RTLD_NOW | RTLD_LOCAL);
    char path[4096];
    if (!h && beside_wheel(path, sizeof path))
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) /* the toolkit's own place, where ldconfig does not list it */
        h = dlopen("/usr/local/cuda/lib64/libcufft.so.12", RTLD_NOW | RTLD_LOCAL);
    return h;
}

static void load(void)
{
    void *h = open_cufft();
    if (!h)
        return;
    api.plan2d = (cufftResult(*)(cufftHandle *, int, int, cufftType))dlsym(h, "cufftPlan2d");
    api.destroy = (cufftResult(*)(cufftHandle))dlsym(h, "cufftDestroy");
    api.set_stream = (cufftResult(*)(cufftHandle, cudaStream_t))dlsym(h, "cufftSetStream");
    api.exec_r2c = (cufftResult(*)(cufftHandle, cufftReal *, cufftComplex *))dlsym(h, "cufftExecR2C");
    api.exec_c2r = (cufftResult(*)(cufftHandle, cufftComplex *, cufftReal *))dlsym(h, "cufftExecC2R");
    if (api.plan2d && api.destroy && api.set_stream && api.exec_r2c && api.exec_c2r)
        loaded = &api; /* (a library missing one is not used; it stays loaded) */
}

const cufft_api *edgel_cufft(void)
{
    pthread_once(&once, load);
    return loaded;
}
