/* A small deterministic generator for test inputs (xorshift32). */
#ifndef EDGEL_TESTS_RANDOM_H
#define EDGEL_TESTS_RANDOM_H

#include <stdint.h>

/* One suite of several files (EDGEL_CHECK_SHARED, check.h) shares one state. */
#ifdef EDGEL_CHECK_SHARED
extern uint32_t test_rng_state;
#else
static uint32_t test_rng_state = 12345;
#endif

static inline uint32_t next_random(void)
{
    test_rng_state ^= test_rng_state << 13;
    test_rng_state ^= test_rng_state >> 17;
    test_rng_state ^= test_rng_state << 5;
    return test_rng_state;
}

#endif
