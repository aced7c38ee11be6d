/* The body of the AVX-512 reduction-vector kernels over BF16 pairs ("bf16
 * convrv", contract in kernels/conv_ukernels.h): convrv's accumulators and
 * lane tree (f32_convrv__avx512.h), each vector step taking 32 positions as
 * 16 pairs. The step (vdpbf16ps, or the fused multiply-adds that give its
 * sums) is a constant of the caller, inlined like the rest. */
#ifndef ACLCONV_BF16_CONVRV_AVX512_H_
#define ACLCONV_BF16_CONVRV_AVX512_H_

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/avx512/f32_convrv__avx512.h"

/* One vector step at position j of every dot product: positions j + 2l and
 * j + 2l + 1 into lane l, those outside k read as +0. */
typedef void (*bf16_convrv_step_fn)(int rows, int cols, __mmask32 k, const uint16_t *const *ap,
                                    const uint16_t *const *bp, size_t j,
                                    __m512 acc[][CONVRV_AVX512_MAX_COLS]);

static inline __attribute__((always_inline)) void
bf16_convrv_body__avx512(const int rows, const int cols, size_t mr, size_t nr, size_t nrows,
                         size_t len, const uint16_t *const *a, size_t ars, const uint16_t *const *b,
                         size_t brs, float *c, size_t ldm, size_t ldn, int accumulate,
                         bf16_convrv_step_fn step)
{
    enum { VP = 32 }; /* positions a vector step */
    __m512 acc[CONVRV_AVX512_MAX_ROWS][CONVRV_AVX512_MAX_COLS];
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m)
#pragma GCC unroll 8
        for (int n = 0; n < cols; ++n)
            acc[m][n] = _mm512_setzero_ps();
    const size_t full = len / VP * VP;
    const __mmask32 tail = (__mmask32)((1ull << (len - full)) - 1u);
    for (size_t r = 0; r < nrows; ++r) {
        const uint16_t *ap[CONVRV_AVX512_MAX_ROWS], *bp[CONVRV_AVX512_MAX_COLS];
#pragma GCC unroll 8
        for (int m = 0; m < rows; ++m)
            ap[m] = a[m] + r * ars;
#pragma GCC unroll 8
        for (int n = 0; n < cols; ++n)
            bp[n] = b[n] + r * brs;
        for (size_t j = 0; j < full; j += VP)
            step(rows, cols, 0xffffffffu, ap, bp, j, acc);
        if (tail) step(rows, cols, tail, ap, bp, full, acc);
    }
    convrv_finish__avx512(rows, cols, acc, mr, nr, c, ldm, ldn, accumulate);
}

/* bf16_convrv_body__avx512 with the columns nr needs, each count its own
 * instance (an edge tile neither loads nor multiplies the b rows it drops) */
static inline __attribute__((always_inline)) void
bf16_convrv_4xn__avx512(size_t mr, size_t nr, size_t nrows, size_t len, const uint16_t *const *a,
                        size_t ars, const uint16_t *const *b, size_t brs, float *c, size_t ldm,
                        size_t ldn, int accumulate, bf16_convrv_step_fn step)
{
    switch (nr) {
#define BF16_CONVRV_COLS(n)                                                                        \
    case n:                                                                                        \
        bf16_convrv_body__avx512(4, n, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn,            \
                                 accumulate, step);                                                \
        break;
        BF16_CONVRV_COLS(1)
        BF16_CONVRV_COLS(2)
        BF16_CONVRV_COLS(3)
        BF16_CONVRV_COLS(4)
        BF16_CONVRV_COLS(5)
#undef BF16_CONVRV_COLS
    default:
        bf16_convrv_body__avx512(4, 6, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate,
                                 step);
        break;
    }
}

#endif /* ACLCONV_BF16_CONVRV_AVX512_H_ */
