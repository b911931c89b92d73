/* The host's two-stage pipeline (core/host_pipeline.h). */
#include "core/host_pipeline.h"

#include <pthread.h>

typedef struct stage {
    edgel_status (*fn)(void *arg, int64_t i);
    void *arg;
    int64_t i;
    edgel_status st;
} stage;

static void *run_stage(void *p)
{
    stage *s = p;
    s->st = s->fn(s->arg, s->i);
    return NULL;
}

edgel_status edgel_host_pipeline(int64_t count, edgel_status (*first)(void *arg, int64_t i),
                                 edgel_status (*second)(void *arg, int64_t i), void *arg)
{
    stage s = {second, arg, 0, EDGEL_OK};
    pthread_t thread;
    int running = 0;
    edgel_status st = EDGEL_OK;
    for (int64_t i = 0; i < count && st == EDGEL_OK; i++) {
        st = first(arg, i);
        if (running) {
            pthread_join(thread, NULL);
            running = 0;
            if (st == EDGEL_OK)
                st = s.st;
        }
        if (st != EDGEL_OK)
            break;
        s.i = i;
        running = pthread_create(&thread, NULL, run_stage, &s) == 0;
        if (!running) { /* no thread to be had: here */
            run_stage(&s);
            st = s.st;
        }
    }
    if (running) {
        pthread_join(thread, NULL);
        if (st == EDGEL_OK)
            st = s.st;
    }
    return st;
}
