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

/* One pair of positions (at j, j + 1 of each row; whole == 0: j alone). */
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

static inline __attribute__((always_inline)) void
convwt_body(const int nv, size_t mr, size_t nr, size_t nrows, size_t len, const uint16_t *const *a,
            size_t ars, const uint32_t *b, size_t ldb, float *c, size_t ldc, int accumulate)
{
    __m512 acc[MR][4];
    convwt_load(acc, nv, mr, nr, c, ldc, accumulate);
    const size_t lenp = (len + 1) / 2, full = len / 2;
    for (size_t r = 0; r < nrows; ++r) {
        const uint16_t *ar[MR];
        for (int m = 0; m < MR; ++m)
            ar[m] = a[m] + r * ars;
        const uint32_t *br = b + r * lenp * ldb;
        /* the broadcasts one row at a time: all six at once need 34 registers */
        for (size_t q = 0; q < full; ++q)
            pair_step(nv, acc, ar, br + q * ldb, 2 * q, 1);
        if (len & 1) pair_step(nv, acc, ar, br + full * ldb, 2 * full, 0);
    }
    convwt_store(acc, nv, mr, nr, c, ldc);
}

void bf16_convwt_ukernel_6x64__avx512bf16(size_t mr, size_t nr, size_t nrows, size_t len,
                                          const uint16_t *const *a, size_t ars, const uint32_t *b,
                                          size_t ldb, float *c, size_t ldc, int accumulate)
{
    if (nr > 3 * VL)
        convwt_body(4, mr, nr, nrows, len, a, ars, b, ldb, c, ldc, accumulate);
    else if (nr > 2 * VL)
        convwt_body(3, mr, nr, nrows, len, a, ars, b, ldb, c, ldc, accumulate);
    else if (nr > VL)
        convwt_body(2, mr, nr, nrows, len, a, ars, b, ldb, c, ldc, accumulate);
    else
        convwt_body(1, mr, nr, nrows, len, a, ars, b, ldb, c, ldc, accumulate);
}
