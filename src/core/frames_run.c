/* The frames of a batch over threads: see frames_run.h. */
#include "core/frames_run.h"

#include "core/host_pool.h"
#include "core/status.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

typedef struct frames_job {
    edgel_status (*fn)(void *arg, int lane, int frame);
    void *arg;
    int count;
    atomic_int next, failed;
    pthread_mutex_t lock;
    int failed_frame; /* the lowest so far, -1: none */
    edgel_status st;
    char message[512];
} frames_job;

static void run_lane(void *arg, int lane, int nlanes)
{
    (void)nlanes;
    frames_job *j = arg;
    while (!atomic_load(&j->failed)) {
        const int i = atomic_fetch_add(&j->next, 1);
        if (i >= j->count)
            return;
        const edgel_status st = j->fn(j->arg, lane, i);
        if (st == EDGEL_OK)
            continue;
        pthread_mutex_lock(&j->lock); /* (the message is this thread's) */
        if (j->failed_frame < 0 || i < j->failed_frame) {
            j->failed_frame = i;
            j->st = st;
            snprintf(j->message, sizeof j->message, "%s", edgel_last_error());
        }
        pthread_mutex_unlock(&j->lock);
        atomic_store(&j->failed, 1);
    }
}

typedef struct lane_thread {
    frames_job *job;
    int lane;
    pthread_t thread;
} lane_thread;

static void *run_own_lane(void *arg)
{
    lane_thread *t = arg;
    run_lane(t->job, t->lane, 0);
    return NULL;
}

/* Lanes 1.. on threads of their own (as many as start), lane 0 on the caller's. */
static void run_own_threads(frames_job *j, int lanes)
{
    lane_thread t[EDGEL_MAX_FRAME_LANES];
    int started = 0;
    for (int k = 1; k < lanes && k < EDGEL_MAX_FRAME_LANES; k++) {
        t[started].job = j, t[started].lane = k;
        if (pthread_create(&t[started].thread, NULL, run_own_lane, &t[started]) == 0)
            started++;
    }
    run_lane(j, 0, lanes);
    for (int k = 0; k < started; k++)
        pthread_join(t[k].thread, NULL);
}

edgel_status edgel_run_frames(int lanes, int count, int own_threads,
                              edgel_status (*fn)(void *arg, int lane, int frame), void *arg)
{
    frames_job j;
    j.fn = fn, j.arg = arg, j.count = count;
    atomic_init(&j.next, 0);
    atomic_init(&j.failed, 0);
    pthread_mutex_init(&j.lock, NULL);
    j.failed_frame = -1;
    j.st = EDGEL_OK;
    j.message[0] = '\0';
    lanes = lanes < count ? lanes : count;
    if (own_threads)
        run_own_threads(&j, lanes);
    else
        edgel_host_parallel(lanes, run_lane, &j);
    pthread_mutex_destroy(&j.lock);
    if (j.failed_frame < 0)
        return EDGEL_OK;
    if (count > 1)
        return edgel_fail(j.st, "frame %d: %s", j.failed_frame, j.message);
    return edgel_fail(j.st, "%s", j.message);
}
