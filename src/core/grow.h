/* Internal: arrays that grow on the host. */
#ifndef EDGEL_CORE_GROW_H
#define EDGEL_CORE_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* *p holds at least `want` items of `size` bytes (*cap of them now): reallocated to want or
 * twice *cap, whichever is more, only to grow. Returns 0 when out of memory (*p kept). */
static inline int edgel_grow(void **p, int64_t *cap, int64_t want, size_t size)
{
    if (want <= *cap)
        return 1;
    const int64_t n = want > 2 * *cap ? want : 2 * *cap;
    void *q = realloc(*p, (size_t)n * size);
    if (!q)
        return 0;
    *p = q, *cap = n;
    return 1;
}

#endif
