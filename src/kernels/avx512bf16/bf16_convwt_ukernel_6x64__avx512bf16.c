/* AVX-512 BF16 weight-gradient kernel: 6 reduction rows x 64 output lanes of
 * bf16 pairs, vdpbf16ps (24 zmm accumulators, 4 vectors of b pairs, 1
 * broadcast pair of a). The bits of bf16_convwt_ukernel_6x64__avx512 when no
 * operand is tiny (contract: kernels/conv_ukernels.h). */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/avx512/convwt_tile__avx512.h"
#include "kernels/conv_ukernels.h"

#define MR CONVWT_MR
#define VL 16

static inline __attribute__((always_inline)) __m512bh pair_at(const uint16_t *p, int whole)
{
    uint32_t d;
    if (whole)
        memcpy(&d, p, sizeof d);
    else
        d = p[0]; /* the row's last element alone: its partner is +0 */
    return (__m512bh)_mm512_set1_epi32((int)d);
}

/* One pair of positions (at j, j + 1 of each row; whole == 0: j alone), the
 * broadcasts one row at a time: all six at once need 34 registers. */
static inline __attribute__((always_inline)) void pair_step(const int nv, __m512 acc[MR][4],
                                                            const uint16_t *const *ar,
                                                            const uint32_t *bq, size_t j, int whole)
{
    __m512bh bv[4];
    for (int v = 0; v < nv; ++v)
        bv[v] = (__m512bh)_mm512_loadu_si512(bq + (size_t)v * VL);
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) {
        const __m512bh s = pair_at(ar[m] + j, whole);
#pragma GCC unroll 4
        for (int v = 0; v < nv; ++v)
            acc[m][v] = _mm512_dpbf16_ps(acc[m][v], s, bv[v]);
    }
}

void bf16_convwt_ukernel_6x64__avx512bf16(size_t mr, size_t nr, size_t nrows, size_t len,
                                          const uint16_t *const *a, size_t ars, const uint32_t *b,
                                          size_t ldb, float *const *c, int accumulate)
{
    convwt_pairs(mr, nr, nrows, len, a, ars, b, ldb, c, accumulate, pair_step);
}
