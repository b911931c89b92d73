/* A small deterministic generator for test inputs (xorshift32). */
#ifndef EDGEL_TESTS_RANDOM_H
#define EDGEL_TESTS_RANDOM_H

#include <stdint.h>

static uint32_t test_rng_state = 12345;

static uint32_t next_random(void)
{
    test_rng_state ^= test_rng_state << 13;
    test_rng_state ^= test_rng_state >> 17;
    test_rng_state ^= test_rng_state << 5;
    return test_rng_state;
}

#endif
