/* AVX-512 BF16 reduction-vector kernel: 4 x 6 dot products of bf16 pairs,
 * vdpbf16ps (24 zmm accumulators, 4 vectors of a, 1 of b, 32 positions a
 * step). The bits of bf16_convrv_ukernel_4x6__avx512 when no operand is
 * tiny (contract: kernels/conv_ukernels.h). */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx512/bf16_convrv__avx512.h"
#include "kernels/conv_ukernels.h"

static inline __attribute__((always_inline)) void pair_step(const int rows, const int cols,
                                                            __mmask32 k, const uint16_t *const *ap,
                                                            const uint16_t *const *bp, size_t j,
                                                            __m512 acc[][CONVRV_AVX512_MAX_COLS])
{
    __m512bh av[CONVRV_AVX512_MAX_ROWS];
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m)
        av[m] = (__m512bh)_mm512_maskz_loadu_epi16(k, ap[m] + j);
#pragma GCC unroll 8
    for (int n = 0; n < cols; ++n) {
        const __m512bh bv = (__m512bh)_mm512_maskz_loadu_epi16(k, bp[n] + j);
#pragma GCC unroll 8
        for (int m = 0; m < rows; ++m)
            acc[m][n] = _mm512_dpbf16_ps(acc[m][n], av[m], bv);
    }
}

void bf16_convrv_ukernel_4x6__avx512bf16(size_t mr, size_t nr, size_t nrows, size_t len,
                                         const uint16_t *const *a, size_t ars,
                                         const uint16_t *const *b, size_t brs, float *c, size_t ldm,
                                         size_t ldn, int accumulate)
{
    bf16_convrv_4xn__avx512(mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate, pair_step);
}
