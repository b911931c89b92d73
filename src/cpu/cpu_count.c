/* How many cores the CPU backend may use. */
#include "cpu/cpu.h"

#include <unistd.h>

int edgel_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (n > 1024 ? 1024 : (int)n);
}
