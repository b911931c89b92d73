/*
 * One batch over several contexts at once (several GPUs of a host): the frames are cut into
 * equal consecutive shares, one a context, and each share runs on a thread of its own, the
 * caller's running the first. Equal shares keep each GPU's copy pipeline full for its whole
 * share (a share is one backend call: its copies and kernels overlap from its first frame to
 * its last), which dealing out small runs would break at every run.
 */
#include "api/context.h"
#include "core/params.h"
#include "core/status.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

typedef struct share_job {
    edgel_context *const *ctxs;
    const edgel_canny_params *params;
    const edgel_image *srcs, *edges;
    int count, nctx;
    atomic_int failed; /* set by the first share that fails; later shares are not started */
    pthread_mutex_t lock;
    edgel_status st;
    char message[512];
} share_job;

typedef struct share {
    share_job *job;
    int index;
    pthread_t thread;
    int running;
} share;

static void share_range(const share_job *j, int i, int *first, int *n)
{
    const int a = (int)((long long)j->count * i / j->nctx);
    const int b = (int)((long long)j->count * (i + 1) / j->nctx);
    *first = a;
    *n = b - a;
}

static void *run_share(void *arg)
{
    share *sh = arg;
    share_job *j = sh->job;
    int first, n;
    share_range(j, sh->index, &first, &n);
    if (n == 0 || atomic_load(&j->failed))
        return NULL;
    edgel_context *ctx = j->ctxs[sh->index];
    edgel_status st = edgel_canny_frames(ctx, j->params, j->srcs + first, j->edges + first, n);
    if (st != EDGEL_OK) {
        pthread_mutex_lock(&j->lock);
        if (!atomic_exchange(&j->failed, 1)) { /* the first failure is the one reported */
            j->st = st;
            snprintf(j->message, sizeof j->message, "frames %d to %d on context %d: %s", first,
                     first + n - 1, sh->index, edgel_last_error());
        }
        pthread_mutex_unlock(&j->lock);
    }
    return NULL;
}

/* Holds every context, in order; on a refusal leaves those already held. */
static edgel_status hold_all(edgel_context *const *ctxs, int nctx)
{
    for (int i = 0; i < nctx; i++) {
        if (!ctxs[i])
            return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "context %d is NULL", i);
        for (int k = 0; k < i; k++)
            if (ctxs[k] == ctxs[i])
                return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                                  "context %d is context %d again (each share needs a context "
                                  "of its own)",
                                  i, k);
    }
    for (int i = 0; i < nctx; i++) {
        edgel_status st = edgel_context_enter(ctxs[i]);
        if (st != EDGEL_OK) {
            st = edgel_fail_within(st, "context %d", i);
            while (i-- > 0)
                edgel_context_leave(ctxs[i]);
            return st;
        }
    }
    return EDGEL_OK;
}

static edgel_status run_shares(edgel_context *const *ctxs, int nctx,
                               const edgel_canny_params *params, const edgel_image *srcs,
                               const edgel_image *edges, int count)
{
    EDGEL_TRY(edgel_check_canny_batch(ctxs[0], params, srcs, edges, count));
    if (srcs[0].memory != EDGEL_MEMORY_HOST)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT,
                          "frames in device memory belong to one GPU: run them with "
                          "edgel_canny_batch on that GPU's context");
    share_job job = {.ctxs = ctxs, .params = params, .srcs = srcs, .edges = edges,
                     .count = count, .nctx = nctx, .st = EDGEL_OK};
    atomic_init(&job.failed, 0);
    pthread_mutex_init(&job.lock, NULL);
    share shares[EDGEL_MAX_BATCH_CONTEXTS];
    for (int i = 0; i < nctx; i++) {
        shares[i] = (share){.job = &job, .index = i};
        if (i > 0)
            shares[i].running = pthread_create(&shares[i].thread, NULL, run_share, &shares[i]) == 0;
    }
    run_share(&shares[0]);
    for (int i = 1; i < nctx; i++) {
        if (shares[i].running)
            pthread_join(shares[i].thread, NULL);
        else
            run_share(&shares[i]); /* no thread to be had: its share runs here, after */
    }
    pthread_mutex_destroy(&job.lock);
    if (job.st != EDGEL_OK)
        return edgel_fail(job.st, "%s", job.message);
    return EDGEL_OK;
}

edgel_status edgel_canny_batch_multi(edgel_context *const *contexts, int32_t ncontexts,
                                     const edgel_canny_params *params, const edgel_image *srcs,
                                     const edgel_image *edges, int32_t count)
{
    if (!contexts)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "contexts is NULL");
    if (ncontexts < 1 || ncontexts > EDGEL_MAX_BATCH_CONTEXTS)
        return edgel_fail(EDGEL_ERROR_INVALID_ARGUMENT, "ncontexts %d must be in 1..%d",
                          (int)ncontexts, EDGEL_MAX_BATCH_CONTEXTS);
    edgel_canny_params p;
    EDGEL_TRY(edgel_canny_params_read(params, &p));
    EDGEL_TRY(hold_all(contexts, ncontexts));
    edgel_status st = run_shares(contexts, ncontexts, &p, srcs, edges, count);
    for (int i = 0; i < ncontexts; i++)
        edgel_context_leave(contexts[i]);
    return st;
}
