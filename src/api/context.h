/* Internal: what a context holds (the handle is opaque to users). */
#ifndef EDGEL_CORE_CONTEXT_H
#define EDGEL_CORE_CONTEXT_H

#include "core/backend.h"
#include "core/status.h"
#include "edgel.h"

#include <stdatomic.h>

/* A context is used by one thread at a time; it keeps the CPU workspace between calls. A call
 * from a second thread while one is running is refused (EDGEL_ERROR_CONTEXT_BUSY) instead of
 * sharing the workspace. */
struct edgel_context {
    atomic_int busy;
    edgel_backend backend;
    int32_t threads;
    int32_t device;
    const edgel_backend_ops *ops; /* the backend behind the seam, and its state */
    void *state;
};

/* The context the calling thread's current call holds (NULL: none), to tell a callback that
 * reuses its call's context from another thread's call. */
extern _Thread_local const edgel_context *edgel_context_held;

/* Takes the context for one call: EDGEL_OK, or BUSY while another call holds it. */
static inline edgel_status edgel_context_enter(edgel_context *ctx)
{
    if (!ctx)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "context is NULL");
    int idle = 0;
    if (!atomic_compare_exchange_strong_explicit(&ctx->busy, &idle, 1, memory_order_acquire,
                                                 memory_order_relaxed))
        return edgel_context_held == ctx
                   ? edgel_fail(EDGEL_ERROR_CONTEXT_BUSY,
                                "the context is in a call on this thread already (a callback "
                                "of a tiled call may not use that call's context: give it "
                                "another)")
                   : edgel_fail(EDGEL_ERROR_CONTEXT_BUSY,
                                "the context is in a call on another thread (a context serves "
                                "one thread at a time: give each thread its own)");
    edgel_context_held = ctx;
    return EDGEL_OK;
}

static inline void edgel_context_leave(edgel_context *ctx)
{
    edgel_context_held = NULL;
    atomic_store_explicit(&ctx->busy, 0, memory_order_release);
}

/* Runs `call` (an expression giving a status) holding the context; returns its status. */
#define EDGEL_WITH_CONTEXT(ctx, call)                       \
    do {                                                    \
        EDGEL_TRY(edgel_context_enter(ctx));                \
        edgel_status with_status_ = (call);                 \
        edgel_context_leave(ctx);                           \
        return with_status_;                                \
    } while (0)

static inline int on_gpu(const edgel_context *ctx) { return ctx->backend == EDGEL_BACKEND_CUDA; }

/* Canny of a host image past the whole-image limits, in tiles (api_tiled.c), on a held
 * context. */
edgel_status edgel_canny_tiled_image_held(edgel_context *ctx, const edgel_canny_params *params,
                                          const edgel_image *src, const edgel_image *edges);

/* Checked frames of one kind, of any sizes, on a held context: each size (and pitches) as
 * one backend call (api_canny.c). */
edgel_status edgel_canny_frames(edgel_context *ctx, const edgel_canny_params *params,
                                const edgel_image *srcs, const edgel_image *edges, int32_t count);

/* A caller's volume parameters read (struct_size) and checked (api_volume.c). */
edgel_status edgel_volume_canny_params_read(const edgel_volume_canny_params *params,
                                            edgel_volume_canny_params *p);

/* The checks of edgel_canny_batch (api_canny.c): EDGEL_OK when `ctx` may run the frames. */
edgel_status edgel_check_canny_batch(edgel_context *ctx, const edgel_canny_params *params,
                                     const edgel_image *srcs, const edgel_image *edges,
                                     int32_t count);

#endif
