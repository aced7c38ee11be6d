/* A small deterministic random generator for tests (splitmix64): the same
 * seed gives the same sequence on every machine. */
#ifndef ACLCONV_TEST_RNG_H_
#define ACLCONV_TEST_RNG_H_

#include <stdint.h>

typedef struct test_rng {
    uint64_t s;
} test_rng;

static inline void rng_seed(test_rng *r, uint64_t seed) { r->s = seed; }

static inline uint64_t rng_next(test_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform integer in [lo, hi] (inclusive); lo <= hi. */
static inline int64_t rng_range(test_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* Uniform double in [0, 1). */
static inline double rng_unit(test_rng *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }

/* true with probability num/den. */
static inline int rng_chance(test_rng *r, int num, int den) { return rng_range(r, 0, den - 1) < num; }

#endif /* ACLCONV_TEST_RNG_H_ */
