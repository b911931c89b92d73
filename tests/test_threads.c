/* Contexts and threads: a context per thread gives every thread the serial result; one context
 * shared by threads that call at once refuses the overlapping calls with
 * EDGEL_ERROR_CONTEXT_BUSY and never corrupts a result (run under ASan in CI). */
#include "check.h"
#include "edgel.h"
#include "test_random.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { THREADS = 4, CALLS = 60, SIZES = 2 };
static const int sizes[SIZES][2] = {{640, 480}, {123, 77}};

typedef struct frame {
    int w, h;
    uint8_t *src, *want;
} frame;

static frame frames[SIZES];
static edgel_canny_params params;
static edgel_context *shared_ctx;
static atomic_int ok_calls, busy_calls, bad_calls, wrong_results;

static void make_frames(void)
{
    edgel_canny_params_default(&params);
    params.blur = EDGEL_BLUR_GAUSSIAN;
    params.blur_sigma = 1.4;
    edgel_context *ctx;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) == EDGEL_OK);
    for (int i = 0; i < SIZES; i++) {
        frame *f = &frames[i];
        f->w = sizes[i][0];
        f->h = sizes[i][1];
        f->src = malloc((size_t)f->w * f->h);
        f->want = malloc((size_t)f->w * f->h);
        for (int p = 0; p < f->w * f->h; p++)
            f->src[p] = (uint8_t)((p % f->w) * 3 + (p / f->w) * 5 + next_random() % 40);
        edgel_image s = edgel_image_host(f->src, f->w, f->h, EDGEL_U8, 1);
        edgel_image d = edgel_image_host(f->want, f->w, f->h, EDGEL_U8, 1);
        CHECK(edgel_canny(ctx, &params, &s, &d, NULL) == EDGEL_OK);
    }
    edgel_context_destroy(ctx);
}

/* Alternates the two sizes (the workspace grows and shrinks under the other thread's feet,
 * as in the reported crash). shared: every thread calls shared_ctx, else its own. */
static void *worker(void *arg)
{
    const int shared = *(const int *)arg;
    edgel_context *ctx = shared_ctx;
    if (!shared && edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ctx) != EDGEL_OK) {
        atomic_fetch_add(&bad_calls, 1);
        return NULL;
    }
    for (int n = 0; n < CALLS; n++) {
        const frame *f = &frames[n % SIZES];
        uint8_t *out = malloc((size_t)f->w * f->h);
        edgel_image s = edgel_image_host(f->src, f->w, f->h, EDGEL_U8, 1);
        edgel_image d = edgel_image_host(out, f->w, f->h, EDGEL_U8, 1);
        edgel_status st = edgel_canny(ctx, &params, &s, &d, NULL);
        if (st == EDGEL_OK) {
            atomic_fetch_add(&ok_calls, 1);
            if (memcmp(out, f->want, (size_t)f->w * f->h))
                atomic_fetch_add(&wrong_results, 1);
        } else if (st == EDGEL_ERROR_CONTEXT_BUSY && strstr(edgel_last_error(), "another thread")) {
            atomic_fetch_add(&busy_calls, 1);
        } else {
            atomic_fetch_add(&bad_calls, 1);
        }
        free(out);
    }
    if (!shared)
        edgel_context_destroy(ctx);
    return NULL;
}

static void run(int shared)
{
    atomic_store(&ok_calls, 0);
    atomic_store(&busy_calls, 0);
    atomic_store(&bad_calls, 0);
    atomic_store(&wrong_results, 0);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, worker, &shared) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
}

int main(void)
{
    make_frames();

    run(0); /* a context per thread: every call succeeds with the serial bytes */
    CHECK(atomic_load(&ok_calls) == THREADS * CALLS);
    CHECK(atomic_load(&wrong_results) == 0 && atomic_load(&bad_calls) == 0);

    /* One context for all: overlapping calls are refused, the others are right. With one
     * worker thread a call of 640x480 takes long enough that four threads meet. */
    edgel_context_options o;
    edgel_context_options_default(&o);
    o.threads = 1;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, &o, &shared_ctx) == EDGEL_OK);
    run(1);
    printf("shared context: %d calls ran, %d refused as busy\n", atomic_load(&ok_calls),
           atomic_load(&busy_calls));
    CHECK(atomic_load(&ok_calls) + atomic_load(&busy_calls) == THREADS * CALLS);
    CHECK(atomic_load(&ok_calls) > 0 && atomic_load(&busy_calls) > 0);
    CHECK(atomic_load(&wrong_results) == 0 && atomic_load(&bad_calls) == 0);

    /* Free again afterwards: a later call on the same context runs. */
    const frame *f = &frames[1];
    uint8_t *out = malloc((size_t)f->w * f->h);
    edgel_image s = edgel_image_host(f->src, f->w, f->h, EDGEL_U8, 1);
    edgel_image d = edgel_image_host(out, f->w, f->h, EDGEL_U8, 1);
    CHECK(edgel_canny(shared_ctx, &params, &s, &d, NULL) == EDGEL_OK);
    CHECK(!memcmp(out, f->want, (size_t)f->w * f->h));
    free(out);
    edgel_context_destroy(shared_ctx);

    for (int i = 0; i < SIZES; i++) {
        free(frames[i].src);
        free(frames[i].want);
    }
    return check_summary("threads");
}
