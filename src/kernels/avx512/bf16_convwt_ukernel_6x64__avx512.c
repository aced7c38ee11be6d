/* AVX-512 weight-gradient kernel over bf16 pairs with fused multiply-adds:
 * what vdpbf16ps computes (the high element's product added first, then the
 * low one's, each rounded once), without its flushing of subnormal inputs and
 * results. The engine runs it where an operand is tiny enough for that
 * flushing to change a sum (contract: kernels/conv_ukernels.h). */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/avx512/convwt_tile__avx512.h"
#include "kernels/conv_ukernels.h"

#define MR CONVWT_MR
#define VL 16

static inline __attribute__((always_inline)) __m512i pair_at(const uint16_t *p, int whole)
{
    uint32_t d;
    if (whole)
        memcpy(&d, p, sizeof d);
    else
        d = p[0];
    return _mm512_set1_epi32((int)d);
}

static inline __attribute__((always_inline)) __m512 hi_half(__m512i v)
{
    return _mm512_castsi512_ps(_mm512_and_si512(v, _mm512_set1_epi32((int)0xffff0000u)));
}

static inline __attribute__((always_inline)) __m512 lo_half(__m512i v)
{
    return _mm512_castsi512_ps(_mm512_slli_epi32(v, 16));
}

/* One pair of positions (at j, j + 1 of each row; whole == 0: j alone):
 * every accumulator takes its high product, then every one its low
 * product (the order per sum of vdpbf16ps; one half's b vectors at a time
 * keep 24 accumulators, 4 b vectors and a broadcast in registers). */
static inline __attribute__((always_inline)) void pair_step(const int nv, __m512 acc[MR][4],
                                                            const uint16_t *const *ar,
                                                            const uint32_t *bq, size_t j, int whole)
{
#pragma GCC unroll 2
    for (int high = 1; high >= 0; --high) {
        __m512 bh[4];
        for (int v = 0; v < nv; ++v) {
            const __m512i bv = _mm512_loadu_si512(bq + (size_t)v * VL);
            bh[v] = high ? hi_half(bv) : lo_half(bv);
        }
#pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) {
            const __m512i s = pair_at(ar[m] + j, whole);
            const __m512 sh = high ? hi_half(s) : lo_half(s);
#pragma GCC unroll 4
            for (int v = 0; v < nv; ++v)
                acc[m][v] = _mm512_fmadd_ps(sh, bh[v], acc[m][v]);
        }
    }
}

void bf16_convwt_ukernel_6x64__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                      const uint16_t *const *a, size_t ars, const uint32_t *b,
                                      size_t ldb, float *const *c, int accumulate)
{
    convwt_pairs(mr, nr, nrows, len, a, ars, b, ldb, c, accumulate, pair_step);
}
