/* AVX-512 channel-vector convolution kernel over BF16 input channel pairs
 * with fused multiply-adds: what vdpbf16ps computes (per pair the high
 * channel's product first), without its flushing of subnormals. Each pair
 * and tap runs twice over the positions, high halves then low halves, so
 * that 28 accumulators, 2 weight vectors and a broadcast fit the 32
 * registers (contract: kernels/conv_ukernels.h). */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx512/convcv_tile__avx512.h"
#include "kernels/conv_ukernels.h"

#define MR 32
#define NR 14
#define VL 16

static inline __attribute__((always_inline)) __m512 half_of(__m512i v, int high)
{
    return _mm512_castsi512_ps(high ? _mm512_and_si512(v, _mm512_set1_epi32((int)0xffff0000u))
                                    : _mm512_slli_epi32(v, 16));
}

static inline __attribute__((always_inline)) void
convcv_body(const int nr, const int halves, size_t mr, size_t ncp, size_t nt, size_t ntw,
            const uint32_t *w, const uint32_t *x, size_t cs, const ptrdiff_t *toff,
            const uint8_t *tedge, const int edges, void *yv, size_t ldy, size_t ystep,
            int accumulate, int ybf16)
{
    __m512 lo[VL], hi[VL];
    /* (accumulate: a float y only, the contract's) */
    tile_start(lo, hi, nr, halves, mr, (const float *)yv, ldy, ystep, accumulate);
    for (size_t c = 0; c < ncp; ++c, w += (ntw - nt) * MR) /* (taps outside the range) */
        for (size_t t = 0; t < nt; ++t) {
            const uint32_t *xt = x + c * cs + toff[t];
            /* edges (a constant): the flagged tiles in instances of their own */
            const unsigned e = edges ? tedge[t] : 0u;
#pragma GCC unroll 2
            for (int high = 1; high >= 0; --high) {
                /* the weights loaded again per half: 28 accumulators, 2
                 * weight vectors and a broadcast fill the 32 registers */
                const __m512 w0 = half_of(_mm512_loadu_si512(w), high);
                const __m512 w1 = half_of(_mm512_loadu_si512(w + VL), high);
#pragma GCC unroll 16
                for (int j = 0; j < nr; ++j) {
                    if ((j == 0 && (e & CONVCV_SKIP_FIRST)) ||
                        (j == nr - 1 && (e & CONVCV_SKIP_LAST)))
                        continue;
                    const __m512 b = half_of(_mm512_set1_epi32((int)xt[j]), high);
                    lo[j] = _mm512_fmadd_ps(w0, b, lo[j]);
                    if (halves == 2) hi[j] = _mm512_fmadd_ps(w1, b, hi[j]);
                }
            }
            w += MR;
        }
    tile_finish(lo, hi, nr, halves, mr, yv, ldy, ystep, ybf16, narrow_bf16);
}

#define CONVCV_HALVES(n, edges)                                                                    \
    if (mr > VL)                                                                                   \
        convcv_body(n, 2, mr, ncp, nt, ntw, w, x, cs, toff, tedge, edges, y, ldy, ystep,           \
                    accumulate, ybf16);                                                            \
    else                                                                                           \
        convcv_body(n, 1, mr, ncp, nt, ntw, w, x, cs, toff, tedge, edges, y, ldy, ystep,           \
                    accumulate, ybf16);
#define CONVCV(n)                                                                                  \
    case n:                                                                                        \
        if (tedge) {                                                                               \
            CONVCV_HALVES(n, 1)                                                                    \
        } else {                                                                                   \
            CONVCV_HALVES(n, 0)                                                                    \
        }                                                                                          \
        break;

void bf16_convcv_ukernel_32x14__avx512(size_t mr, size_t nr, size_t ncp, size_t nt, size_t ntw,
                                       const uint32_t *w, const uint32_t *x, size_t cs,
                                       const ptrdiff_t *toff, const uint8_t *tedge, void *y,
                                       size_t ldy, size_t ystep, int accumulate, int ybf16)
{
    switch (nr) {
        CONVCV(1)
        CONVCV(2)
        CONVCV(3)
        CONVCV(4)
        CONVCV(5)
        CONVCV(6) CONVCV(7) CONVCV(8) CONVCV(9) CONVCV(10) CONVCV(11) CONVCV(12) CONVCV(13)
            CONVCV(14) default : break;
    }
}
