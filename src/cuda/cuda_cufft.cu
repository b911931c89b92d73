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

/* In `out`, `name` in the folder of the library that holds `symbol`. */
static int beside(const void *symbol, const char *name, char *out, size_t size)
{
    Dl_info info;
    if (!dladdr(symbol, &info) || !info.dli_fname)
        return 0;
    const char *slash = strrchr(info.dli_fname, '/');
    if (!slash)
        return 0;
    const int n = snprintf(out, size, "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname,
                           name);
    return n > 0 && (size_t)n < size;
}

static void *open_cufft(void)
{
    const char *env = getenv("EDGEL_CUFFT");
    if (env && *env)
        return dlopen(env, RTLD_NOW | RTLD_LOCAL);
    void *h = dlopen("libcufft.so.12", RTLD_NOW | RTLD_LOCAL);
    char path[4096];
    /* site-packages/edgel/libedgel.so -> site-packages/nvidia/cu13/lib, NVIDIA's PyPI cuFFT */
    if (!h && beside((void *)&edgel_cufft, "../nvidia/cu13/lib/libcufft.so.12", path, sizeof path))
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) /* the toolkit's own place, where ldconfig does not list it */
        h = dlopen("/usr/local/cuda/lib64/libcufft.so.12", RTLD_NOW | RTLD_LOCAL);
    return h;
}

/* cuFFT opens libnvJitLink.so.13 by name for its callbacks; where the loader would not find
 * it, the one beside cuFFT is opened first (a library already open answers to its name). */
static int open_nvjitlink(void *cufft_symbol)
{
    char path[4096];
    return dlopen("libnvJitLink.so.13", RTLD_NOW | RTLD_LOCAL) ||
           (beside(cufft_symbol, "libnvJitLink.so.13", path, sizeof path) &&
            dlopen(path, RTLD_NOW | RTLD_LOCAL));
}

static void load(void)
{
    void *h = open_cufft();
    if (!h)
        return;
    api.plan2d = (cufftResult(*)(cufftHandle *, int, int, cufftType))dlsym(h, "cufftPlan2d");
    api.plan_many = (cufftResult(*)(cufftHandle *, int, int *, int *, int, int, int *, int, int,
                                    cufftType, int))dlsym(h, "cufftPlanMany");
    api.destroy = (cufftResult(*)(cufftHandle))dlsym(h, "cufftDestroy");
    api.set_stream = (cufftResult(*)(cufftHandle, cudaStream_t))dlsym(h, "cufftSetStream");
    api.exec_r2c = (cufftResult(*)(cufftHandle, cufftReal *, cufftComplex *))dlsym(h, "cufftExecR2C");
    api.exec_c2r = (cufftResult(*)(cufftHandle, cufftComplex *, cufftReal *))dlsym(h, "cufftExecC2R");
    if (!api.plan2d || !api.plan_many || !api.destroy || !api.set_stream || !api.exec_r2c ||
        !api.exec_c2r)
        return; /* (a library missing one is not used; it stays loaded) */
    api.create = (cufftResult(*)(cufftHandle *))dlsym(h, "cufftCreate");
    api.make_plan_many =
        (cufftResult(*)(cufftHandle, int, int *, int *, int, int, int *, int, int, cufftType, int,
                        size_t *))dlsym(h, "cufftMakePlanMany");
    api.set_jit_callback =
        (cufftResult(*)(cufftHandle, const char *, const void *, size_t, cufftXtCallbackType,
                        void **))dlsym(h, "cufftXtSetJITCallback");
    if (!api.create || !api.make_plan_many || !api.set_jit_callback ||
        !open_nvjitlink((void *)api.plan2d))
        api.create = NULL, api.make_plan_many = NULL, api.set_jit_callback = NULL;
    loaded = &api;
}

const cufft_api *edgel_cufft(void)
{
    pthread_once(&once, load);
    return loaded;
}
