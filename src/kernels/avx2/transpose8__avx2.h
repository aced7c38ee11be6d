/* AVX2 8 x 8 transpose in registers (unpack, shuffle within 128-bit lanes,
 * then 128-bit lane permutes): r[k] becomes column k. Shared by the kernels
 * that include it (compiled with AVX2 flags). */
#ifndef ACLCONV_TRANSPOSE8_AVX2_H_
#define ACLCONV_TRANSPOSE8_AVX2_H_

#include <immintrin.h>

/* the loops unrolled: r[] must stay in registers in the caller (gcc keeps an
 * array indexed by a loop counter in memory, accumulators included) */
static inline __attribute__((always_inline)) void transpose8(__m256 r[8])
{
    __m256 t[8];
#pragma GCC unroll 8
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
#pragma GCC unroll 8
    for (int q = 0; q < 2; ++q) {
        r[4 * q + 0] = _mm256_shuffle_ps(t[4 * q + 0], t[4 * q + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[4 * q + 1] = _mm256_shuffle_ps(t[4 * q + 0], t[4 * q + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[4 * q + 2] = _mm256_shuffle_ps(t[4 * q + 1], t[4 * q + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[4 * q + 3] = _mm256_shuffle_ps(t[4 * q + 1], t[4 * q + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
#pragma GCC unroll 8
    for (int k = 0; k < 4; ++k) {
        t[k] = _mm256_permute2f128_ps(r[k], r[4 + k], 0x20);
        t[4 + k] = _mm256_permute2f128_ps(r[k], r[4 + k], 0x31);
    }
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k)
        r[k] = t[k];
}

#endif
