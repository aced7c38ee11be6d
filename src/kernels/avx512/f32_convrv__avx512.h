/* The body of the AVX-512 reduction-vector kernels ("convrv", contract in
 * kernels/conv_ukernels.h): rows x cols dot products, 16 lanes each, held in
 * zmm accumulators over every row of the call and reduced at the end. rows
 * and cols are constants where it is inlined: every accumulator is indexed
 * by constants only, so gcc keeps them in registers. (Reduced through the
 * runtime mr, nr, the array lived in memory and each row of the call
 * stored and reloaded it.) The last vector of a row is a masked step; its
 * masked lanes add 0 * 0. */
#ifndef ACLCONV_F32_CONVRV_AVX512_H_
#define ACLCONV_F32_CONVRV_AVX512_H_

#include <immintrin.h>
#include <stddef.h>

#define CONVRV_AVX512_MAX_ROWS 4
#define CONVRV_AVX512_MAX_COLS 8

/* One vector step at j of every dot product, lanes k (the others add 0 * 0). */
static inline __attribute__((always_inline)) void
convrv_step__avx512(const int rows, const int cols, __mmask16 k, const float *const *ap,
                    const float *const *bp, size_t j, __m512 acc[][CONVRV_AVX512_MAX_COLS])
{
    __m512 av[CONVRV_AVX512_MAX_ROWS];
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m)
        av[m] = _mm512_maskz_loadu_ps(k, ap[m] + j);
#pragma GCC unroll 8
    for (int n = 0; n < cols; ++n) {
        const __m512 bv = _mm512_maskz_loadu_ps(k, bp[n] + j);
#pragma GCC unroll 8
        for (int m = 0; m < rows; ++m)
            acc[m][n] = _mm512_fmadd_ps(av[m], bv, acc[m][n]);
    }
}

static inline __attribute__((always_inline)) void
convrv_body__avx512(const int rows, const int cols, size_t mr, size_t nr, size_t nrows, size_t len,
                    const float *const *a, size_t ars, const float *const *b, size_t brs, float *c,
                    size_t ldm, size_t ldn, int accumulate)
{
    enum { VL = 16 };
    __m512 acc[CONVRV_AVX512_MAX_ROWS][CONVRV_AVX512_MAX_COLS];
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m)
#pragma GCC unroll 8
        for (int n = 0; n < cols; ++n)
            acc[m][n] = _mm512_setzero_ps();
    const size_t full = len / VL * VL;
    const __mmask16 tail = (__mmask16)((1u << (len - full)) - 1u);
    for (size_t r = 0; r < nrows; ++r) {
        const float *ap[CONVRV_AVX512_MAX_ROWS], *bp[CONVRV_AVX512_MAX_COLS];
#pragma GCC unroll 8
        for (int m = 0; m < rows; ++m)
            ap[m] = a[m] + r * ars;
#pragma GCC unroll 8
        for (int n = 0; n < cols; ++n)
            bp[n] = b[n] + r * brs;
        for (size_t j = 0; j < full; j += VL)
            convrv_step__avx512(rows, cols, 0xffff, ap, bp, j, acc);
        if (tail) convrv_step__avx512(rows, cols, tail, ap, bp, full, acc);
    }
    float sum[CONVRV_AVX512_MAX_ROWS][CONVRV_AVX512_MAX_COLS];
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m)
#pragma GCC unroll 8
        for (int n = 0; n < cols; ++n)
            sum[m][n] = _mm512_reduce_add_ps(acc[m][n]);
    for (size_t m = 0; m < mr; ++m)
        for (size_t n = 0; n < nr; ++n) {
            float *d = c + m * ldm + n * ldn;
            *d = accumulate ? *d + sum[m][n] : sum[m][n];
        }
}

#endif /* ACLCONV_F32_CONVRV_AVX512_H_ */
