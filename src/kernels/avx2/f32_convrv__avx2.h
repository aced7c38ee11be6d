/* The body of the AVX2+FMA reduction-vector kernels ("convrv", contract in
 * kernels/conv_ukernels.h): rows x cols dot products, 8 lanes each, held in
 * ymm accumulators over every row of the call and reduced at the end. rows
 * and cols are constants where it is inlined and every accumulator is
 * indexed by constants only, so gcc keeps them in registers (reduced
 * through the runtime mr, nr, the array lived in memory and each row of the
 * call stored and reloaded it). The tail of a row: masked loads, whose
 * cleared lanes add 0 * 0. */
#ifndef ACLCONV_F32_CONVRV_AVX2_H_
#define ACLCONV_F32_CONVRV_AVX2_H_

#include <immintrin.h>
#include <stddef.h>

#include "kernels/avx2/lane_mask__avx2.h"

#define CONVRV_AVX2_MAX_ROWS 3
#define CONVRV_AVX2_MAX_COLS 8

static inline float convrv_hsum__avx2(__m256 v)
{
    const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_shuffle_ps(t, t, 1)));
}

static inline __attribute__((always_inline)) void
convrv_body__avx2(const int rows, const int cols, size_t mr, size_t nr, size_t nrows, size_t len,
                  const float *const *a, size_t ars, const float *const *b, size_t brs, float *c,
                  size_t ldm, size_t ldn, int accumulate)
{
    enum { VL = 8 };
    __m256 acc[CONVRV_AVX2_MAX_ROWS][CONVRV_AVX2_MAX_COLS];
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m)
#pragma GCC unroll 8
        for (int n = 0; n < cols; ++n)
            acc[m][n] = _mm256_setzero_ps();
    const size_t full = len / VL * VL;
    const __m256i tail = avx2_lane_mask(len - full);
    for (size_t r = 0; r < nrows; ++r) {
        const float *ap[CONVRV_AVX2_MAX_ROWS], *bp[CONVRV_AVX2_MAX_COLS];
#pragma GCC unroll 8
        for (int m = 0; m < rows; ++m)
            ap[m] = a[m] + r * ars;
#pragma GCC unroll 8
        for (int n = 0; n < cols; ++n)
            bp[n] = b[n] + r * brs;
        for (size_t j = 0; j < full; j += VL) {
            __m256 av[CONVRV_AVX2_MAX_ROWS];
#pragma GCC unroll 8
            for (int m = 0; m < rows; ++m)
                av[m] = _mm256_loadu_ps(ap[m] + j);
#pragma GCC unroll 8
            for (int n = 0; n < cols; ++n) {
                const __m256 bv = _mm256_loadu_ps(bp[n] + j);
#pragma GCC unroll 8
                for (int m = 0; m < rows; ++m)
                    acc[m][n] = _mm256_fmadd_ps(av[m], bv, acc[m][n]);
            }
        }
        if (len > full) {
            __m256 av[CONVRV_AVX2_MAX_ROWS];
#pragma GCC unroll 8
            for (int m = 0; m < rows; ++m)
                av[m] = _mm256_maskload_ps(ap[m] + full, tail);
#pragma GCC unroll 8
            for (int n = 0; n < cols; ++n) {
                const __m256 bv = _mm256_maskload_ps(bp[n] + full, tail);
#pragma GCC unroll 8
                for (int m = 0; m < rows; ++m)
                    acc[m][n] = _mm256_fmadd_ps(av[m], bv, acc[m][n]);
            }
        }
    }
    float sum[CONVRV_AVX2_MAX_ROWS][CONVRV_AVX2_MAX_COLS];
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m)
#pragma GCC unroll 8
        for (int n = 0; n < cols; ++n)
            sum[m][n] = convrv_hsum__avx2(acc[m][n]);
    for (size_t m = 0; m < mr; ++m)
        for (size_t n = 0; n < nr; ++n) {
            float *d = c + m * ldm + n * ldn;
            *d = accumulate ? *d + sum[m][n] : sum[m][n];
        }
}

#endif /* ACLCONV_F32_CONVRV_AVX2_H_ */
