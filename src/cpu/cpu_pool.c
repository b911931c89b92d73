/* The CPU backend's worker pool (cpu_pool.h): workers spin briefly, then sleep. */
#define _GNU_SOURCE /* pthread_atfork is POSIX; clock_gettime */
#include "cpu/cpu_pool.h"
#include "cpu/cpu.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

/* How long a waiting thread spins before it sleeps: long enough to catch the next stage of a
 * call, short enough to cost nothing on a busy machine. */
#define SPIN_NS 50000

enum { MAX_WORKERS = 1023 };

static struct {
    pthread_mutex_t lock; /* guards the job, `workers` and the condition variables */
    pthread_cond_t wake, done;
    int workers;                   /* started (each waits for jobs until the process ends) */
    unsigned long generation;      /* of the job below; workers run each generation once */
    void (*fn)(void *, int, int);
    void *arg;
    int nthreads;
    atomic_ulong published;        /* generation, readable without the lock (the spin) */
    atomic_int pending;            /* workers of this job that have not returned */
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER,
          .done = PTHREAD_COND_INITIALIZER};

static atomic_flag pool_in_use = ATOMIC_FLAG_INIT;

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Spins until cond(arg) holds or SPIN_NS pass; true when it holds. */
static int spin_until(int (*cond)(unsigned long), unsigned long arg)
{
    const long long end = now_ns() + SPIN_NS;
    for (int i = 1;; i++) {
        if (cond(arg))
            return 1;
        relax();
        if (i % 64 == 0 && now_ns() > end)
            return 0;
    }
}

static int published_after(unsigned long seen) { return atomic_load(&pool.published) != seen; }
static int all_returned(unsigned long unused)
{
    (void)unused;
    return atomic_load(&pool.pending) == 0;
}

static void *worker(void *index)
{
    const int t = (int)(intptr_t)index; /* 1..workers: the caller is thread 0 */
    unsigned long seen = 0;
    for (;;) {
        spin_until(published_after, seen);
        pthread_mutex_lock(&pool.lock);
        while (pool.generation == seen)
            pthread_cond_wait(&pool.wake, &pool.lock);
        seen = pool.generation;
        void (*fn)(void *, int, int) = pool.fn;
        void *arg = pool.arg;
        const int n = pool.nthreads;
        pthread_mutex_unlock(&pool.lock);
        if (t >= n)
            continue; /* not needed for this job */
        fn(arg, t, n);
        if (atomic_fetch_sub(&pool.pending, 1) == 1) {
            pthread_mutex_lock(&pool.lock);
            pthread_cond_signal(&pool.done);
            pthread_mutex_unlock(&pool.lock);
        }
    }
    return NULL;
}

/* Starts workers up to `want`; returns how many there are. Called holding the lock. */
static int grow(int want)
{
    if (want > MAX_WORKERS)
        want = MAX_WORKERS;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    while (pool.workers < want) {
        pthread_t id;
        if (pthread_create(&id, &attr, worker, (void *)(intptr_t)(pool.workers + 1)) != 0)
            break; /* run with the workers there are */
        pool.workers++;
    }
    pthread_attr_destroy(&attr);
    return pool.workers;
}

/* A child of fork() has none of the parent's workers: it starts afresh. */
static void forget_workers(void)
{
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.done, NULL);
    pool.workers = 0;
    atomic_store(&pool.pending, 0);
    atomic_flag_clear(&pool_in_use);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void) { pthread_atfork(NULL, NULL, forget_workers); }

void edgel_cpu_parallel(int threads, void (*fn)(void *arg, int thread, int nthreads), void *arg)
{
    /* More threads than cores would only queue for them (and wait at each stage's end for
     * the last to get a core): never more than this process may run on. */
    const int cores = edgel_cpu_count();
    threads = threads < cores ? threads : cores;
    if (threads <= 1 || atomic_flag_test_and_set(&pool_in_use)) {
        fn(arg, 0, 1);
        return;
    }
    pthread_once(&atfork_once, register_atfork);
    pthread_mutex_lock(&pool.lock);
    const int workers = grow(threads - 1);
    const int n = workers + 1 < threads ? workers + 1 : threads;
    pool.fn = fn;
    pool.arg = arg;
    pool.nthreads = n;
    atomic_store(&pool.pending, n - 1);
    pool.generation++;
    atomic_store(&pool.published, pool.generation);
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);

    fn(arg, 0, n);

    if (!spin_until(all_returned, 0)) {
        pthread_mutex_lock(&pool.lock);
        while (atomic_load(&pool.pending) != 0)
            pthread_cond_wait(&pool.done, &pool.lock);
        pthread_mutex_unlock(&pool.lock);
    }
    atomic_flag_clear(&pool_in_use);
}

typedef struct for_job {
    void (*fn)(void *, int);
    void *arg;
    int count, chunk;
    atomic_int next;
} for_job;

static void run_chunks(void *p, int thread, int nthreads)
{
    (void)thread;
    (void)nthreads;
    for_job *job = p;
    for (;;) {
        const int begin = atomic_fetch_add(&job->next, job->chunk);
        if (begin >= job->count)
            return;
        const int end = begin + job->chunk < job->count ? begin + job->chunk : job->count;
        for (int i = begin; i < end; i++)
            job->fn(job->arg, i);
    }
}

void edgel_cpu_parallel_for(int threads, int count, void (*fn)(void *arg, int index), void *arg)
{
    if (count <= 0)
        return;
    if (threads > count)
        threads = count;
    const int chunk = count / (threads * 8) > 1 ? count / (threads * 8) : 1;
    for_job job = {fn, arg, count, chunk, 0};
    edgel_cpu_parallel(threads, run_chunks, &job);
}
