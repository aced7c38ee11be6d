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

/* The sums of v[0..15], each in _mm512_reduce_add_ps's tree ((l, l+8),
 * (l, l+4), (l, l+2), (l, l+1), conv_ukernels.h), with four levels of
 * shuffles and adds shared by the 16: 45 operations instead of 16 x 8.
 * Lane 4*(k % 4) + k/4 of the result holds the sum of v[k]. 4x6 on rows of
 * 256 in L1 (aclconv_kernel_bench): 72-73% -> 76-79% of the peak. */
static inline __attribute__((always_inline)) __m512 convrv_sums16__avx512(const __m512 v[16])
{
    __m512 w[8], x[4], y[2];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) { /* (l, l+8): v[2i] in lanes 0-7, v[2i+1] in 8-15 */
        const __m512 lo = _mm512_shuffle_f32x4(v[2 * i], v[2 * i + 1], 0x44);
        const __m512 hi = _mm512_shuffle_f32x4(v[2 * i], v[2 * i + 1], 0xee);
        w[i] = _mm512_add_ps(hi, lo);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) { /* (l, l+4): quarter q holds v[4i + q] */
        const __m512 lo = _mm512_shuffle_f32x4(w[2 * i], w[2 * i + 1], 0x88);
        const __m512 hi = _mm512_shuffle_f32x4(w[2 * i], w[2 * i + 1], 0xdd);
        x[i] = _mm512_add_ps(hi, lo);
    }
#pragma GCC unroll 2
    for (int i = 0; i < 2; ++i) { /* (l, l+2): quarter q holds v[8i + q], v[8i + 4 + q] */
        const __m512 lo = _mm512_shuffle_ps(x[2 * i], x[2 * i + 1], _MM_SHUFFLE(1, 0, 1, 0));
        const __m512 hi = _mm512_shuffle_ps(x[2 * i], x[2 * i + 1], _MM_SHUFFLE(3, 2, 3, 2));
        y[i] = _mm512_add_ps(lo, hi);
    }
    /* (l, l+1): quarter q holds v[q], v[4 + q], v[8 + q], v[12 + q] */
    const __m512 lo = _mm512_shuffle_ps(y[0], y[1], _MM_SHUFFLE(2, 0, 2, 0));
    const __m512 hi = _mm512_shuffle_ps(y[0], y[1], _MM_SHUFFLE(3, 1, 3, 1));
    return _mm512_add_ps(lo, hi);
}

/* The end of every AVX-512 reduction-vector kernel: the rows x cols
 * accumulators reduced, each by the 16-lane tree, and stored (or added) at
 * c[m*ldm + n*ldn] for m < mr, n < nr. */
static inline __attribute__((always_inline)) void
convrv_finish__avx512(const int rows, const int cols, __m512 acc[][CONVRV_AVX512_MAX_COLS],
                      size_t mr, size_t nr, float *c, size_t ldm, size_t ldn, int accumulate)
{
    float sum[CONVRV_AVX512_MAX_ROWS][CONVRV_AVX512_MAX_COLS];
    if (rows * cols == 1) {
        sum[0][0] = _mm512_reduce_add_ps(acc[0][0]);
    } else {
        /* accumulator k = m*cols + n, 16 at a time (zeros past the last) */
#pragma GCC unroll 2
        for (int k0 = 0; k0 < rows * cols; k0 += 16) {
            __m512 v[16];
            float t[16];
#pragma GCC unroll 16
            for (int k = 0; k < 16; ++k)
                v[k] = k0 + k < rows * cols ? acc[(k0 + k) / cols][(k0 + k) % cols]
                                            : _mm512_setzero_ps();
            _mm512_storeu_ps(t, convrv_sums16__avx512(v));
#pragma GCC unroll 16
            for (int k = 0; k < 16; ++k)
                if (k0 + k < rows * cols)
                    sum[(k0 + k) / cols][(k0 + k) % cols] = t[4 * (k % 4) + k / 4];
        }
    }
    for (size_t m = 0; m < mr; ++m)
        for (size_t n = 0; n < nr; ++n) {
            float *d = c + m * ldm + n * ldn;
            *d = accumulate ? *d + sum[m][n] : sum[m][n];
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
    convrv_finish__avx512(rows, cols, acc, mr, nr, c, ldm, ldn, accumulate);
}

#endif /* ACLCONV_F32_CONVRV_AVX512_H_ */
