/* Public entry points: contexts. A context picks its backend (core/backend.h) once; every
 * later call goes through that backend's table. */
#include "api/context.h"
#include "core/grown.h"
#include "core/host_pool.h"
#include "core/status.h"
#include "cpu/cpu_backend.h"
#ifdef EDGEL_HAVE_CUDA
#include "cuda/cuda_backend.h"
#endif

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

_Thread_local const edgel_context *edgel_context_held;

/* The size of the struct's first version (0.3.0). */
#define OPTIONS_FIRST_SIZE (offsetof(edgel_context_options, device) + sizeof(int32_t))

static void options_defaults(edgel_context_options *options)
{
    memset(options, 0, sizeof *options);
    options->struct_size = sizeof *options;
    options->threads = 0;
    options->device = 0;
}

void edgel_context_options_init(edgel_context_options *options, size_t struct_size)
{
    edgel_context_options full;
    options_defaults(&full);
    edgel_grown_init(options, struct_size, &full, sizeof full);
}

/* The backend for `backend` (auto: the GPU when one is present, else the CPU). */
static edgel_status open_backend(edgel_backend backend, const edgel_context_options *o,
                                 int threads, edgel_context *ctx)
{
#ifdef EDGEL_HAVE_CUDA
    if (backend == EDGEL_BACKEND_CUDA ||
        (backend == EDGEL_BACKEND_AUTO && edgel_cuda_devices_present() > o->device)) {
        edgel_status st = edgel_cuda_backend_create(o->device, threads, &ctx->state);
        if (st == EDGEL_OK) {
            ctx->ops = edgel_cuda_ops();
            return EDGEL_OK;
        }
        if (backend == EDGEL_BACKEND_CUDA)
            return st;
    }
#else
    (void)o;
    if (backend == EDGEL_BACKEND_CUDA)
        return edgel_fail(EDGEL_ERROR_BACKEND_UNAVAILABLE,
                          "this build of edgel has no CUDA backend (built without nvcc)");
#endif
    ctx->ops = edgel_cpu_ops();
    return edgel_cpu_backend_create(threads, &ctx->state);
}

edgel_status edgel_context_create(edgel_backend backend, const edgel_context_options *options,
                                  edgel_context **out)
{
    if (!out)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "out is NULL");
    *out = NULL;
    edgel_context_options opts;
    options_defaults(&opts);
    if (options)
        EDGEL_TRY(edgel_grown_read(options, &opts, sizeof opts, OPTIONS_FIRST_SIZE, "options",
                                   "edgel_context_options_default"));
    if (opts.threads < 0 || opts.threads > 1024)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "threads %d must be in 0..1024 (0 = all cores)",
                          (int)opts.threads);
    if (opts.device < 0)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "device %d must be >= 0", (int)opts.device);
    if (backend != EDGEL_BACKEND_AUTO && backend != EDGEL_BACKEND_CPU &&
        backend != EDGEL_BACKEND_CUDA)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "unknown backend %d", (int)backend);
    edgel_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return edgel_fail(EDGEL_ERROR_OUT_OF_MEMORY, "out of memory for a context");
    ctx->threads = opts.threads ? opts.threads : edgel_host_cores();
    ctx->device = opts.device;
    edgel_status st = open_backend(backend, &opts, ctx->threads, ctx);
    if (st != EDGEL_OK) {
        free(ctx);
        return st;
    }
    ctx->backend = ctx->ops->kind;
    *out = ctx;
    return EDGEL_OK;
}

void edgel_context_destroy(edgel_context *ctx)
{
    if (!ctx)
        return;
    ctx->ops->destroy(ctx->state);
    free(ctx);
}

edgel_status edgel_context_backend(const edgel_context *ctx, edgel_backend *out)
{
    if (!ctx || !out)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "context or out is NULL");
    *out = ctx->backend;
    return EDGEL_OK;
}

edgel_status edgel_context_threads(const edgel_context *ctx, int32_t *out)
{
    if (!ctx || !out)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "context or out is NULL");
    *out = ctx->threads;
    return EDGEL_OK;
}

static edgel_status reserve_held(edgel_context *ctx, int32_t width, int32_t height,
                                 int32_t channels, int32_t batch)
{
    if (width < 1 || height < 1 || width > EDGEL_MAX_DIMENSION || height > EDGEL_MAX_DIMENSION ||
        (int64_t)width * height > EDGEL_MAX_PIXELS)
        return edgel_fail(EDGEL_ERROR_INVALID_SIZE, "reserve: size %dx%d out of range",
                          (int)width, (int)height);
    if (channels != 1 && channels != 3 && channels != 4)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "reserve: channels must be 1, 3 or 4");
    if (batch < 1)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "reserve: batch must be at least 1");
    return ctx->ops->reserve(ctx->state, width, height, channels, batch);
}

/* The calls: each holds its context (one thread at a time). */

edgel_status edgel_context_set_stream(edgel_context *ctx, void *stream)
{
    EDGEL_WITH_CONTEXT(ctx, ctx->ops->set_stream(ctx->state, stream));
}

edgel_status edgel_context_synchronize(edgel_context *ctx)
{
    EDGEL_WITH_CONTEXT(ctx, ctx->ops->synchronize(ctx->state));
}

edgel_status edgel_context_reserve(edgel_context *ctx, int32_t width, int32_t height,
                                   int32_t channels, int32_t batch)
{
    EDGEL_WITH_CONTEXT(ctx, reserve_held(ctx, width, height, channels, batch));
}

edgel_status edgel_cuda_device_count(int32_t *count)
{
    if (!count)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "count is NULL");
#ifdef EDGEL_HAVE_CUDA
    *count = edgel_cuda_devices_present();
#else
    *count = 0;
#endif
    return EDGEL_OK;
}

const char *edgel_build_config(void)
{
#ifdef EDGEL_HAVE_CUDA
#define EDGEL_CUDA_CONFIG "cuda: built for architectures " EDGEL_CUDA_ARCHITECTURES \
                          " (cuFFT loaded where installed)"
#else
#define EDGEL_CUDA_CONFIG "cuda: not built (CPU only)"
#endif
    return EDGEL_CUDA_CONFIG "; cpu fft: KISS FFT 131.1.0 (built in)";
}
