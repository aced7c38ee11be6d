/* A small deterministic generator for benchmark data (splitmix64). */
#ifndef ACLCONV_BENCH_RNG_H_
#define ACLCONV_BENCH_RNG_H_

#include <stdint.h>

typedef struct bench_rng {
    uint64_t s;
} bench_rng;

static inline void bench_rng_seed(bench_rng *r, uint64_t seed)
{
    r->s = seed;
}

static inline uint64_t bench_rng_next(bench_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [-1, 1). */
static inline float bench_rng_sym(bench_rng *r)
{
    return (float)((double)(bench_rng_next(r) >> 40) * (2.0 / 16777216.0) - 1.0);
}

/* Uniform in [0, n). */
static inline uint64_t bench_rng_below(bench_rng *r, uint64_t n)
{
    return bench_rng_next(r) % n;
}

/* FNV-1a of a string: per-case seeds. */
static inline uint64_t bench_rng_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; ++s)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

#endif /* ACLCONV_BENCH_RNG_H_ */
