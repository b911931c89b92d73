/* How many cores host work may use: those of this process's CPU affinity (taskset,
 * cgroups' cpusets), counted once. */
#define _GNU_SOURCE /* sched_getaffinity */
#include "core/host_pool.h"

#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

static int count_cores(void)
{
    cpu_set_t set;
    int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    if (n < 1)
        n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (n > 1024 ? 1024 : n);
}

int edgel_host_cores(void)
{
    static atomic_int cached;
    int n = atomic_load_explicit(&cached, memory_order_relaxed);
    if (!n) {
        n = count_cores();
        atomic_store_explicit(&cached, n, memory_order_relaxed);
    }
    return n;
}
