/* One batch over several contexts (edgel_canny_batch_multi): the bytes of one call per frame
 * for every number of contexts and frames (shares of 0 frames included), and the refusals:
 * no contexts, a context listed twice, a context busy on another thread, device frames, a bad
 * frame (named, nothing held afterwards). With EDGEL_TEST_BACKEND=cuda the contexts are CUDA
 * contexts, all on device 0 unless several devices are present (then one a device, in turn). */
#include "check.h"
#include "edgel.h"
#include "test_random.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { W = 161, H = 97, FRAMES = 13, MAX_CTX = 5 };

static edgel_backend backend = EDGEL_BACKEND_CPU;

static void make_contexts(edgel_context **ctxs, int n)
{
    int32_t devices = 0;
    CHECK(edgel_cuda_device_count(&devices) == EDGEL_OK);
    for (int i = 0; i < n; i++) {
        edgel_context_options o;
        edgel_context_options_default(&o);
        o.threads = 1 + i % 2;
        o.device = devices > 1 ? i % devices : 0;
        CHECK(edgel_context_create(backend, &o, &ctxs[i]) == EDGEL_OK);
    }
}

static void free_contexts(edgel_context **ctxs, int n)
{
    for (int i = 0; i < n; i++)
        edgel_context_destroy(ctxs[i]);
}

/* Frames of noise with structure (different in each frame), and their single-call edges. */
static uint8_t *src_px, *want_px, *got_px;
static edgel_image srcs[FRAMES], want[FRAMES], got[FRAMES];
static edgel_canny_params params;

static void make_frames(void)
{
    const size_t px = (size_t)W * H;
    src_px = malloc(px * FRAMES);
    want_px = malloc(px * FRAMES);
    got_px = malloc(px * FRAMES);
    for (size_t i = 0; i < px * FRAMES; i++)
        src_px[i] = (uint8_t)((i % W) * 3 + (i / W % H) * 5 + next_random() % 90);
    edgel_canny_params_default(&params);
    params.blur = EDGEL_BLUR_GAUSSIAN;
    params.blur_sigma = 1.2;
    params.low_threshold = 40;
    params.high_threshold = 110;
    edgel_context *ref;
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ref) == EDGEL_OK);
    for (int i = 0; i < FRAMES; i++) {
        srcs[i] = edgel_image_host(src_px + px * i, W, H, EDGEL_U8, 1);
        want[i] = edgel_image_host(want_px + px * i, W, H, EDGEL_U8, 1);
        got[i] = edgel_image_host(got_px + px * i, W, H, EDGEL_U8, 1);
        CHECK(edgel_canny(ref, &params, &srcs[i], &want[i], NULL) == EDGEL_OK);
    }
    edgel_context_destroy(ref);
}

static void test_identity(void)
{
    edgel_context *ctxs[MAX_CTX];
    make_contexts(ctxs, MAX_CTX);
    const int counts[] = {1, 2, 3, 7, FRAMES};
    for (int n = 1; n <= MAX_CTX; n++)
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
            memset(got_px, 0x5a, (size_t)W * H * FRAMES);
            const int count = counts[c];
            CHECK(edgel_canny_batch_multi(ctxs, n, &params, srcs, got, count) == EDGEL_OK);
            CHECK(memcmp(got_px, want_px, (size_t)W * H * count) == 0);
            /* Frames past `count` are not touched. */
            int untouched = 1;
            for (size_t i = (size_t)W * H * count; i < (size_t)W * H * FRAMES; i++)
                untouched &= got_px[i] == 0x5a;
            CHECK(untouched);
        }
    /* The contexts are free again afterwards: a plain batch on each works. */
    for (int i = 0; i < MAX_CTX; i++)
        CHECK(edgel_canny_batch(ctxs[i], &params, srcs, got, 2) == EDGEL_OK);
    free_contexts(ctxs, MAX_CTX);
}

typedef struct holder {
    edgel_context *ctx;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int inside, release;
} holder;

/* A tiled callback that holds its context (inside a call) until told to let go. */
static edgel_status hold_read(void *user, int64_t x, int64_t y, const edgel_image *dst)
{
    (void)x;
    (void)y;
    holder *h = user;
    pthread_mutex_lock(&h->lock);
    h->inside = 1;
    pthread_cond_broadcast(&h->cond);
    while (!h->release)
        pthread_cond_wait(&h->cond, &h->lock);
    pthread_mutex_unlock(&h->lock);
    for (int r = 0; r < dst->height; r++)
        memset((uint8_t *)dst->data + (size_t)r * dst->pitch, 7, (size_t)dst->width);
    return EDGEL_OK;
}

static edgel_status drop_tile(void *user, int64_t x, int64_t y, const edgel_image *edges)
{
    (void)user;
    (void)x;
    (void)y;
    (void)edges;
    return EDGEL_OK;
}

static void *hold_context(void *arg)
{
    holder *h = arg;
    edgel_tile_io io = {.width = 64, .height = 64, .channels = 1, .type = EDGEL_U8,
                        .read = hold_read, .write = drop_tile, .user = h};
    edgel_canny_tiled(h->ctx, &params, &io, 64, 64);
    return NULL;
}

static void test_refusals(void)
{
    edgel_context *ctxs[3];
    make_contexts(ctxs, 3);
    CHECK_STATUS(edgel_canny_batch_multi(NULL, 2, &params, srcs, got, 4),
                 EDGEL_ERROR_NULL_ARGUMENT, "contexts");
    CHECK_STATUS(edgel_canny_batch_multi(ctxs, 0, &params, srcs, got, 4),
                 EDGEL_ERROR_INVALID_ARGUMENT, "ncontexts");
    CHECK_STATUS(edgel_canny_batch_multi(ctxs, EDGEL_MAX_BATCH_CONTEXTS + 1, &params, srcs, got,
                                         4),
                 EDGEL_ERROR_INVALID_ARGUMENT, "ncontexts");
    edgel_context *twice[3] = {ctxs[0], ctxs[1], ctxs[0]};
    CHECK_STATUS(edgel_canny_batch_multi(twice, 3, &params, srcs, got, 4),
                 EDGEL_ERROR_INVALID_ARGUMENT, "context 2 is context 0 again");
    edgel_context *with_null[2] = {ctxs[0], NULL};
    CHECK_STATUS(edgel_canny_batch_multi(with_null, 2, &params, srcs, got, 4),
                 EDGEL_ERROR_NULL_ARGUMENT, "context 1 is NULL");
    CHECK_STATUS(edgel_canny_batch_multi(ctxs, 2, &params, srcs, got, 0),
                 EDGEL_ERROR_INVALID_ARGUMENT, "count");
    /* A bad frame is named, and every context is free afterwards. */
    edgel_image bad[4];
    memcpy(bad, srcs, sizeof bad);
    bad[2].width = W - 1;
    CHECK_STATUS(edgel_canny_batch_multi(ctxs, 3, &params, bad, got, 4),
                 EDGEL_ERROR_INVALID_SIZE, "frame 2");
    edgel_image on_device[2] = {srcs[0], srcs[1]};
    on_device[0].memory = on_device[1].memory = EDGEL_MEMORY_DEVICE;
    edgel_image out_device[2] = {got[0], got[1]};
    out_device[0].memory = out_device[1].memory = EDGEL_MEMORY_DEVICE;
    CHECK(edgel_canny_batch_multi(ctxs, 2, &params, on_device, out_device, 2) != EDGEL_OK);
    CHECK(edgel_canny_batch_multi(ctxs, 3, &params, srcs, got, 4) == EDGEL_OK);
    /* A context held by another thread's call: refused, nothing written, the others freed. */
    holder h = {.ctx = ctxs[1]};
    pthread_mutex_init(&h.lock, NULL);
    pthread_cond_init(&h.cond, NULL);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, hold_context, &h) == 0);
    pthread_mutex_lock(&h.lock);
    while (!h.inside)
        pthread_cond_wait(&h.cond, &h.lock);
    pthread_mutex_unlock(&h.lock);
    memset(got_px, 0x5a, (size_t)W * H * 4);
    CHECK_STATUS(edgel_canny_batch_multi(ctxs, 3, &params, srcs, got, 4),
                 EDGEL_ERROR_CONTEXT_BUSY, "context 1");
    CHECK(got_px[0] == 0x5a && got_px[(size_t)W * H * 4 - 1] == 0x5a);
    CHECK(edgel_canny_batch(ctxs[0], &params, srcs, got, 1) == EDGEL_OK); /* ctxs[0] let go */
    pthread_mutex_lock(&h.lock);
    h.release = 1;
    pthread_cond_broadcast(&h.cond);
    pthread_mutex_unlock(&h.lock);
    pthread_join(t, NULL);
    CHECK(edgel_canny_batch_multi(ctxs, 3, &params, srcs, got, 4) == EDGEL_OK);
    CHECK(memcmp(got_px, want_px, (size_t)W * H * 4) == 0);
    free_contexts(ctxs, 3);
    int32_t devices = -1;
    CHECK(edgel_cuda_device_count(&devices) == EDGEL_OK && devices >= 0);
    CHECK_STATUS(edgel_cuda_device_count(NULL), EDGEL_ERROR_NULL_ARGUMENT, "count");
}

/* Frames of different sizes and pitches in one batch (sizes repeated out of order, 1x1 and
 * a padded pitch among them): each frame's bytes equal a single call, through one context
 * and through several; a frame of another kind is refused, naming it. */
static void test_mixed_sizes(void)
{
    enum { N = 7 };
    static const int sizes[N][3] = {{161, 97, 0}, {40, 30, 0}, {161, 97, 0}, {1, 1, 0},
                                    {40, 30, 9}, {77, 120, 0}, {40, 30, 0}};
    uint8_t *in[N], *out[N], *want[N];
    edgel_image s[N], o[N];
    edgel_context *ctxs[3], *ref;
    make_contexts(ctxs, 3);
    CHECK(edgel_context_create(EDGEL_BACKEND_CPU, NULL, &ref) == EDGEL_OK);
    for (int i = 0; i < N; i++) {
        const int w = sizes[i][0], h = sizes[i][1], pitch = w + sizes[i][2];
        in[i] = malloc((size_t)pitch * h);
        out[i] = malloc((size_t)w * h);
        want[i] = malloc((size_t)w * h);
        for (int p = 0; p < pitch * h; p++)
            in[i][p] = (uint8_t)(p % pitch * 7 + p / pitch * 3 + next_random() % 60);
        s[i] = edgel_image_host(in[i], w, h, EDGEL_U8, 1);
        s[i].pitch = (size_t)pitch;
        o[i] = edgel_image_host(out[i], w, h, EDGEL_U8, 1);
        edgel_image wv = edgel_image_host(want[i], w, h, EDGEL_U8, 1);
        CHECK(edgel_canny(ref, &params, &s[i], &wv, NULL) == EDGEL_OK);
    }
    for (int n = 1; n <= 3; n++) {
        for (int i = 0; i < N; i++)
            memset(out[i], 0x5a, (size_t)sizes[i][0] * sizes[i][1]);
        CHECK((n == 1 ? edgel_canny_batch(ctxs[0], &params, s, o, N)
                      : edgel_canny_batch_multi(ctxs, n, &params, s, o, N)) == EDGEL_OK);
        for (int i = 0; i < N; i++)
            CHECK(memcmp(out[i], want[i], (size_t)sizes[i][0] * sizes[i][1]) == 0);
    }
    s[4] = edgel_image_host(in[0], 20, 30, EDGEL_U8, 3); /* a colour frame among gray ones */
    o[4] = edgel_image_host(out[4], 20, 30, EDGEL_U8, 1);
    CHECK_STATUS(edgel_canny_batch(ctxs[0], &params, s, o, N), EDGEL_ERROR_INVALID_SIZE,
                 "frame 4 differs from frame 0");
    for (int i = 0; i < N; i++) {
        free(in[i]);
        free(out[i]);
        free(want[i]);
    }
    edgel_context_destroy(ref);
    free_contexts(ctxs, 3);
}

int main(void)
{
    const char *b = getenv("EDGEL_TEST_BACKEND");
    if (b && !strcmp(b, "cuda"))
        backend = EDGEL_BACKEND_CUDA;
    make_frames();
    test_identity();
    test_mixed_sizes();
    test_refusals();
    free(src_px);
    free(want_px);
    free(got_px);
    return check_summary(backend == EDGEL_BACKEND_CUDA ? "batch_multi (cuda)" : "batch_multi");
}
