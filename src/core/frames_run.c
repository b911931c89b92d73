/* The frames of a batch over the host pool's threads: see frames_run.h. */
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

edgel_status edgel_run_frames(int lanes, int count,
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
    edgel_host_parallel(lanes < count ? lanes : count, run_lane, &j);
    pthread_mutex_destroy(&j.lock);
    if (j.failed_frame < 0)
        return EDGEL_OK;
    if (count > 1)
        return edgel_fail(j.st, "frame %d: %s", j.failed_frame, j.message);
    return edgel_fail(j.st, "%s", j.message);
}
