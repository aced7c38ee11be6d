/* AVX-512 reduction-vector kernel over bf16 pairs with fused multiply-adds:
 * what vdpbf16ps computes (each lane's high position's product added
 * first, then the low one's, each rounded once), without its flushing of
 * subnormal inputs and results; the engine runs it where an operand is tiny
 * enough for that flushing to change a sum (contract:
 * kernels/conv_ukernels.h). */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx512/bf16_convrv__avx512.h"
#include "kernels/conv_ukernels.h"

static inline __attribute__((always_inline)) __m512 hi_half(__m512i v)
{
    return _mm512_castsi512_ps(_mm512_and_si512(v, _mm512_set1_epi32((int)0xffff0000u)));
}

static inline __attribute__((always_inline)) __m512 lo_half(__m512i v)
{
    return _mm512_castsi512_ps(_mm512_slli_epi32(v, 16));
}

static inline __attribute__((always_inline)) void pair_step(const int rows, const int cols,
                                                            __mmask32 k, const uint16_t *const *ap,
                                                            const uint16_t *const *bp, size_t j,
                                                            __m512 acc[][CONVRV_AVX512_MAX_COLS])
{
    __m512i av[CONVRV_AVX512_MAX_ROWS];
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m)
        av[m] = _mm512_maskz_loadu_epi16(k, ap[m] + j);
#pragma GCC unroll 8
    for (int n = 0; n < cols; ++n) {
        const __m512i bv = _mm512_maskz_loadu_epi16(k, bp[n] + j);
        const __m512 bh = hi_half(bv), bl = lo_half(bv);
#pragma GCC unroll 8
        for (int m = 0; m < rows; ++m) {
            acc[m][n] = _mm512_fmadd_ps(hi_half(av[m]), bh, acc[m][n]);
            acc[m][n] = _mm512_fmadd_ps(lo_half(av[m]), bl, acc[m][n]);
        }
    }
}

void bf16_convrv_ukernel_4x6__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                     const uint16_t *const *a, size_t ars, const uint16_t *const *b,
                                     size_t brs, float *c, size_t ldm, size_t ldn, int accumulate)
{
    bf16_convrv_4xn__avx512(mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate, pair_step);
}
