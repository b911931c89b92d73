/* A host that unloads libedgel right after a multi-threaded call (as Octave and MATLAB unload
 * a mex) keeps running: the worker threads' code stays mapped (the library is NODELETE). */
#define _POSIX_C_SOURCE 200809L
#include "edgel.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    edgel_status (*create)(edgel_backend, const edgel_context_options *, edgel_context **) =
        (edgel_status(*)(edgel_backend, const edgel_context_options *, edgel_context **))dlsym(
            lib, "edgel_context_create");
    void (*destroy)(edgel_context *) = (void (*)(edgel_context *))dlsym(lib, "edgel_context_destroy");
    edgel_status (*canny)(edgel_context *, const edgel_canny_params *, const edgel_image *,
                          const edgel_image *, const edgel_canny_stages *) =
        (edgel_status(*)(edgel_context *, const edgel_canny_params *, const edgel_image *,
                         const edgel_image *, const edgel_canny_stages *))dlsym(lib, "edgel_canny");
    void (*init)(edgel_canny_params *, size_t) =
        (void (*)(edgel_canny_params *, size_t))dlsym(lib, "edgel_canny_params_init");
    void (*init_options)(edgel_context_options *, size_t) =
        (void (*)(edgel_context_options *, size_t))dlsym(lib, "edgel_context_options_init");
    if (!create || !destroy || !canny || !init || !init_options)
        return 1;
    enum { W = 640, H = 480 };
    unsigned char *src = malloc(W * H), *dst = malloc(W * H);
    for (int i = 0; i < W * H; i++)
        src[i] = (unsigned char)(i * 7 + i / W * 13);
    edgel_context_options o;
    init_options(&o, sizeof o);
    o.threads = 2; /* two threads: the pool starts a worker */
    edgel_context *ctx;
    if (create(EDGEL_BACKEND_CPU, &o, &ctx) != EDGEL_OK)
        return 1;
    edgel_canny_params p;
    init(&p, sizeof p);
    edgel_image s = {src, W, H, W, EDGEL_U8, 1, EDGEL_MEMORY_HOST};
    edgel_image d = {dst, W, H, W, EDGEL_U8, 1, EDGEL_MEMORY_HOST};
    int ok = 1;
    for (int i = 0; i < 20; i++)
        ok &= canny(ctx, &p, &s, &d, NULL) == EDGEL_OK;
    destroy(ctx);
    dlclose(lib); /* while the worker still spins in the library's code */
    struct timespec t = {0, 50 * 1000 * 1000};
    nanosleep(&t, NULL);
    free(src);
    free(dst);
    printf("unload: %s\n", ok ? "ok" : "a call failed");
    return ok ? 0 : 1;
}
