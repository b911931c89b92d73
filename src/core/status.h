/* Internal: setting the per-thread error message. */
#ifndef EDGEL_CORE_STATUS_H
#define EDGEL_CORE_STATUS_H

#include "edgel.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#  define EDGEL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#  define EDGEL_PRINTF(a, b)
#endif

/* Records a formatted message for the calling thread and returns `status`. */
edgel_status edgel_fail(edgel_status status, const char *fmt, ...) EDGEL_PRINTF(2, 3);

/* Puts a formatted place ("frame 3") before the calling thread's message, as "place:
 * message", and returns `status`. */
edgel_status edgel_fail_within(edgel_status status, const char *fmt, ...) EDGEL_PRINTF(2, 3);

/* Returns early from the enclosing function when `expr` is not EDGEL_OK. */
#define EDGEL_TRY(expr)                     \
    do {                                    \
        edgel_status try_status_ = (expr);  \
        if (try_status_ != EDGEL_OK)        \
            return try_status_;             \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif
