/* A minimal test harness: CHECK records a failure and goes on; check_summary prints the
 * closing "N passed, N failed" line and gives the exit status. */
#ifndef EDGEL_TESTS_CHECK_H
#define EDGEL_TESTS_CHECK_H

#include <stdio.h>

/* One suite of several files defines EDGEL_CHECK_SHARED and, in one file, the counters. */
#ifdef EDGEL_CHECK_SHARED
extern int check_passed, check_failed;
#else
static int check_passed, check_failed;
#endif

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (cond) {                                                                 \
            check_passed++;                                                         \
        } else {                                                                    \
            check_failed++;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                           \
    } while (0)

/* A call must fail with `status` and leave a message naming `needle`. */
#define CHECK_STATUS(call, status, needle)                                                   \
    do {                                                                                     \
        edgel_status st_ = (call);                                                           \
        int ok_ = st_ == (status) && strstr(edgel_last_error(), (needle)) != NULL;          \
        if (!ok_)                                                                            \
            fprintf(stderr, "%s:%d: %s gave %s \"%s\", expected %s with \"%s\"\n", __FILE__, \
                    __LINE__, #call, edgel_status_name(st_), edgel_last_error(), #status,     \
                    needle);                                                                 \
        CHECK(ok_);                                                                          \
    } while (0)

static inline int check_summary(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
