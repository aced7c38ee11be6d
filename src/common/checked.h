/* Overflow-checked size arithmetic: every product of caller-given sizes goes
 * through these, so a huge shape becomes a status instead of a wrap-around. */
#ifndef ACLCONV_CHECKED_H_
#define ACLCONV_CHECKED_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* *r = a * b; false on overflow (then *r is unspecified). */
static inline bool checked_mul_i64(int64_t a, int64_t b, int64_t *r)
{
    return !__builtin_mul_overflow(a, b, r);
}
static inline bool checked_add_i64(int64_t a, int64_t b, int64_t *r)
{
    return !__builtin_add_overflow(a, b, r);
}
static inline bool checked_mul_size(size_t a, size_t b, size_t *r)
{
    return !__builtin_mul_overflow(a, b, r);
}
static inline bool checked_add_size(size_t a, size_t b, size_t *r)
{
    return !__builtin_add_overflow(a, b, r);
}

/* Product of n dims into *r; false if any dim is negative or it overflows. */
static inline bool checked_numel(const int64_t *dims, uint64_t n, int64_t *r)
{
    int64_t p = 1;
    for (uint64_t i = 0; i < n; ++i) {
        if (dims[i] < 0 || !checked_mul_i64(p, dims[i], &p)) return false;
    }
    *r = p;
    return true;
}

#endif /* ACLCONV_CHECKED_H_ */
