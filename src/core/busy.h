/* Internal: one call at a time on an object of the API (an edgel_components, an
 * edgel_curves): a call while another thread's runs is refused with
 * EDGEL_ERROR_CONTEXT_BUSY, not run. */
#ifndef EDGEL_CORE_BUSY_H
#define EDGEL_CORE_BUSY_H

#include "core/status.h"

#include <stdatomic.h>

/* Takes the object (`what` names it in the messages; NULL `busy`: the object is NULL). */
static inline edgel_status edgel_busy_enter(atomic_int *busy, const char *what)
{
    if (!busy)
        return edgel_fail(EDGEL_ERROR_NULL_ARGUMENT, "%s is NULL", what);
    int idle = 0;
    if (!atomic_compare_exchange_strong_explicit(busy, &idle, 1, memory_order_acquire,
                                                 memory_order_relaxed))
        return edgel_fail(EDGEL_ERROR_CONTEXT_BUSY, "the %s are in a call on another thread "
                          "(they serve one call at a time)", what);
    return EDGEL_OK;
}

/* Gives it back; returns `st`. */
static inline edgel_status edgel_busy_leave(atomic_int *busy, edgel_status st)
{
    atomic_store_explicit(busy, 0, memory_order_release);
    return st;
}

#endif
