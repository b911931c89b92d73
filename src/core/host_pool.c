/* Worker threads for host work (host_pool.h): workers spin briefly, then sleep. A job is
 * published by a generation number; workers read it without a lock (a seqlock), and sleeping
 * threads wait on a futex that is woken only when someone sleeps, so that the stages of one
 * call pass between threads without system calls, and a wake-up costs one. */
#define _GNU_SOURCE /* pthread_atfork is POSIX; clock_gettime, syscall */
#include "core/host_pool.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* How a waiting thread waits: it spins for SPIN_NS, then yields its core to whoever else
 * wants it until YIELD_NS, then sleeps. Long enough to catch the next stage of a call
 * without a wake-up, short enough to cost little on a busy machine (OpenMP's default spin
 * lasts milliseconds, and a thread spinning at a barrier keeps the core its late partner
 * needs). */
#define SPIN_NS 20000
#define YIELD_NS 300000

enum { MAX_WORKERS = 1023 };

typedef void (*job_fn)(void *, int, int);

static struct {
    pthread_mutex_t lock;        /* guards starting workers */
    int workers;                 /* started (each waits for jobs until the process ends) */
    _Atomic(job_fn) fn;          /* the job, written before its generation is published */
    _Atomic(void *) arg;
    atomic_int nthreads;
    atomic_ulong generation;     /* of the job, even; odd while the job is being written */
    atomic_int job_seq;          /* the workers' futex: bumped after each job is published */
    atomic_int pending;          /* workers of this job that have not returned (the caller's
                                    futex) */
    atomic_int sleeping_workers, caller_sleeping;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

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

/* Sleeps while *word == value (or returns at once); wakes every sleeper on word. */
static void sleep_on(atomic_int *word, int value)
{
#if defined(__linux__)
    syscall(SYS_futex, (int *)word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
#else
    (void)word, (void)value;
    struct timespec ts = {0, 50000};
    nanosleep(&ts, NULL);
#endif
}

static void wake_all(atomic_int *word)
{
#if defined(__linux__)
    syscall(SYS_futex, (int *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
    (void)word;
#endif
}

static int new_generation(unsigned long seen) { return atomic_load(&pool.generation) != seen; }
static int all_returned(unsigned long unused)
{
    (void)unused;
    return atomic_load(&pool.pending) == 0;
}

/* Waits until cond(arg): spins, yields, then sleeps on `word`, counted in `sleepers` (the
 * waker changes the state, then `word`, then reads the count; the sleeper counts itself,
 * then reads `word`, then re-checks: so either it sees the change or the waker sees it). */
static void wait_until(int (*cond)(unsigned long), unsigned long arg, atomic_int *word,
                       atomic_int *sleepers)
{
    const long long start = now_ns();
    for (int i = 1; !cond(arg); i++) {
        relax();
        if (i % 64 != 0)
            continue;
        const long long waited = now_ns() - start;
        if (waited > SPIN_NS && waited <= YIELD_NS) {
            sched_yield();
        } else if (waited > YIELD_NS) {
            atomic_fetch_add(sleepers, 1);
            for (;;) {
                const int value = atomic_load(word);
                if (cond(arg))
                    break;
                sleep_on(word, value);
            }
            atomic_fetch_sub(sleepers, 1);
            return;
        }
    }
}

static void wake_sleepers(atomic_int *word, atomic_int *sleepers)
{
    if (atomic_load(sleepers) != 0)
        wake_all(word);
}

static void *worker(void *index)
{
    const int t = (int)(intptr_t)index; /* 1..workers: the caller is thread 0 */
    unsigned long seen = 0;
    for (;;) {
        wait_until(new_generation, seen, &pool.job_seq, &pool.sleeping_workers);
        /* The job of one generation: read again if a newer one came meanwhile. */
        unsigned long g;
        job_fn fn;
        void *arg;
        int n;
        do {
            while ((g = atomic_load(&pool.generation)) & 1)
                relax(); /* the caller is writing the job (a few stores) */
            fn = atomic_load(&pool.fn);
            arg = atomic_load(&pool.arg);
            n = atomic_load(&pool.nthreads);
        } while (g != atomic_load(&pool.generation));
        seen = g;
        if (t >= n)
            continue; /* not needed for this job */
        fn(arg, t, n);
        if (atomic_fetch_sub(&pool.pending, 1) == 1)
            wake_sleepers(&pool.pending, &pool.caller_sleeping);
    }
    return NULL;
}

/* Starts workers up to `want`; returns how many there are. */
static int grow(int want)
{
    if (want > MAX_WORKERS)
        want = MAX_WORKERS;
    pthread_mutex_lock(&pool.lock);
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
    const int n = pool.workers;
    pthread_mutex_unlock(&pool.lock);
    return n;
}

/* A child of fork() has none of the parent's workers: it starts afresh. */
static void forget_workers(void)
{
    pthread_mutex_init(&pool.lock, NULL);
    pool.workers = 0;
    atomic_store(&pool.pending, 0);
    atomic_store(&pool.sleeping_workers, 0);
    atomic_store(&pool.caller_sleeping, 0);
    atomic_flag_clear(&pool_in_use);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void) { pthread_atfork(NULL, NULL, forget_workers); }

void edgel_host_parallel(int threads, void (*fn)(void *arg, int thread, int nthreads), void *arg)
{
    /* More threads than cores would only queue for them (and wait at each stage's end for
     * the last to get a core): never more than this process may run on. */
    const int cores = edgel_host_cores();
    threads = threads < cores ? threads : cores;
    if (threads <= 1 || atomic_flag_test_and_set(&pool_in_use)) {
        fn(arg, 0, 1);
        return;
    }
    pthread_once(&atfork_once, register_atfork);
    const int workers = grow(threads - 1);
    const int n = workers + 1 < threads ? workers + 1 : threads;
    atomic_fetch_add(&pool.generation, 1); /* odd: a reader of the last job reads again */
    atomic_store(&pool.fn, fn);
    atomic_store(&pool.arg, arg);
    atomic_store(&pool.nthreads, n);
    atomic_store(&pool.pending, n - 1);
    atomic_fetch_add(&pool.generation, 1);
    atomic_fetch_add(&pool.job_seq, 1);
    wake_sleepers(&pool.job_seq, &pool.sleeping_workers);

    fn(arg, 0, n);

    wait_until(all_returned, 0, &pool.pending, &pool.caller_sleeping);
    atomic_flag_clear(&pool_in_use);
}

/* A parallel loop: thread t owns the t-th contiguous range of indices and works through it
 * from the front; a thread whose range is done takes what is left of the others'. Threads
 * that start together each run their own range (contiguous rows, no imbalance); one that
 * starts late, or loses its core, has its share taken over. */
typedef struct for_range {
    atomic_int next;
    int end;
    char pad[64 - sizeof(atomic_int) - sizeof(int)]; /* one cache line each */
} for_range;

typedef struct for_job {
    void (*fn)(void *, int);
    void *arg;
    for_range *ranges;
    int nranges; /* one a thread asked for (the pool may run fewer: each runs them all) */
} for_job;

static void run_range(for_job *job, for_range *r)
{
    for (int i; (i = atomic_fetch_add(&r->next, 1)) < r->end;)
        job->fn(job->arg, i);
}

static void run_ranges(void *p, int thread, int nthreads)
{
    for_job *job = p;
    (void)nthreads;
    for (int k = 0; k < job->nranges; k++)
        run_range(job, &job->ranges[(thread + k) % job->nranges]);
}

void edgel_host_parallel_for(int threads, int count, void (*fn)(void *arg, int index), void *arg)
{
    if (count <= 0)
        return;
    const int cores = edgel_host_cores();
    threads = threads < cores ? threads : cores;
    threads = threads < count ? threads : count;
    if (threads <= 1) { /* no job to share */
        for (int i = 0; i < count; i++)
            fn(arg, i);
        return;
    }
    for_range local[64];
    for_range *ranges = threads <= 64 ? local : malloc(sizeof(for_range) * (size_t)threads);
    if (!ranges) { /* no memory to share the loop: run it here */
        for (int i = 0; i < count; i++)
            fn(arg, i);
        return;
    }
    for (int t = 0; t < threads; t++) {
        int begin, end;
        edgel_stripe(t, threads, count, &begin, &end);
        atomic_init(&ranges[t].next, begin);
        ranges[t].end = end;
    }
    for_job job = {fn, arg, ranges, threads};
    edgel_host_parallel(threads, run_ranges, &job);
    if (ranges != local)
        free(ranges);
}
