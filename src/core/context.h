/* Internal: what a context holds (the handle is opaque to users). */
#ifndef EDGEL_CORE_CONTEXT_H
#define EDGEL_CORE_CONTEXT_H

#include "cpu/cpu.h"
#include "edgel.h"
#ifdef EDGEL_HAVE_CUDA
#include "cuda/cuda_backend.h"
#endif

/* A context is used by one thread at a time; it keeps the CPU workspace between calls. */
struct edgel_context {
    edgel_backend backend;
    int32_t threads;
    int32_t device;
    edgel_cpu_workspace cpu;
#ifdef EDGEL_HAVE_CUDA
    edgel_cuda_state *cuda;
#endif
};

static inline int on_gpu(const edgel_context *ctx) { return ctx->backend == EDGEL_BACKEND_CUDA; }

#endif
