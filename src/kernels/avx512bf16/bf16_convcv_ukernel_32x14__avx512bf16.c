/* AVX-512 BF16 channel-vector convolution kernel: f32_convcv 32x14's tile
 * (32 output channels in two zmm x 14 positions, 28 accumulators) over
 * input channel pairs with vdpbf16ps: per pair and tap 2 weight loads and
 * 14 broadcasts feed 28 instructions of 32 products each. The bits of
 * bf16_convcv_ukernel_32x14__avx512 when no operand is tiny (contract:
 * kernels/conv_ukernels.h). */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx512/convcv_tile__avx512.h"
#include "kernels/conv_ukernels.h"

#define MR 32
#define NR 14
#define VL 16
#define PF_PAIRS 4 /* as f32_convcv's PF_CHANNELS */

/* vcvtneps2bf16: f32_narrow's bf16 rounding (ties to even, NaNs quieted)
 * in one instruction, where the integer rounding takes ~10 per vector. It
 * takes subnormal inputs as zero: the sums this kernel narrows are zero or
 * normal wherever its results are kept (the guard of docs/kernels.md, "BF16
 * pairs"); every other fp32 value narrows to the same bits (all checked on
 * Zen 5). */
static inline __attribute__((always_inline)) __m256i narrow_dot(__m512 x)
{
    return (__m256i)_mm512_cvtneps_pbh(x);
}

/* One pair of the tap at xt: 2 weight vectors x nr broadcast position words. */
static inline __attribute__((always_inline)) void
pair_step(const int nr, const uint32_t *w, const uint32_t *xt, __m512 *lo, __m512 *hi)
{
    const __m512bh w0 = (__m512bh)_mm512_loadu_si512(w);
    const __m512bh w1 = (__m512bh)_mm512_loadu_si512(w + VL);
#pragma GCC unroll 16
    for (int j = 0; j < nr; ++j) {
        const __m512bh b = (__m512bh)_mm512_set1_epi32((int)xt[j]);
        lo[j] = _mm512_dpbf16_ps(lo[j], w0, b);
        hi[j] = _mm512_dpbf16_ps(hi[j], w1, b);
    }
}

/* The pair loop of a one-tap call (1x1 layers) with both channel halves: the
 * general loop's checks per pair (results' lines to request, a strip ahead,
 * the tap loop) cost ~30 instructions next to 28 vdpbf16ps; here the pairs
 * run in three stretches (requesting the results' lines and the strips
 * ahead, the strips only, neither). The same requests, terms and order. */
static inline __attribute__((always_inline)) void
one_tap_pairs(const int nr, size_t mr, size_t ncp, const uint32_t *w, const uint32_t *x, size_t cs,
              const void *yv, size_t ldy, size_t ystep, int ybf16, __m512 *lo, __m512 *hi)
{
    const size_t ahead = ncp > PF_PAIRS ? ncp - PF_PAIRS : 0;
    const size_t lines = ystep <= 2 ? (2 * mr < ahead ? 2 * mr : ahead) : 0;
    const size_t es = ybf16 ? 2 : 4;
    size_t c = 0;
    for (; c < lines; ++c, x += cs, w += MR) {
        _mm_prefetch((const char *)yv + ((c >> 1) * ldy + (c & 1) * (size_t)(nr - 1) * ystep) * es,
                     _MM_HINT_T0);
        _mm_prefetch((const char *)(x + PF_PAIRS * cs), _MM_HINT_T0);
        _mm_prefetch((const char *)(x + PF_PAIRS * cs + nr - 1), _MM_HINT_T0);
        pair_step(nr, w, x, lo, hi);
    }
    for (; c < ahead; ++c, x += cs, w += MR) {
        _mm_prefetch((const char *)(x + PF_PAIRS * cs), _MM_HINT_T0);
        _mm_prefetch((const char *)(x + PF_PAIRS * cs + nr - 1), _MM_HINT_T0);
        pair_step(nr, w, x, lo, hi);
    }
    for (; c < ncp; ++c, x += cs, w += MR) {
        if (c < 2 * mr && ystep <= 2)
            _mm_prefetch((const char *)yv +
                             ((c >> 1) * ldy + (c & 1) * (size_t)(nr - 1) * ystep) * es,
                         _MM_HINT_T0);
        pair_step(nr, w, x, lo, hi);
    }
}

static inline __attribute__((always_inline)) void
convcv_body(const int nr, const int halves, const int one_tap, size_t mr, size_t ncp, size_t nt,
            const uint32_t *w, const uint32_t *x, size_t cs, const ptrdiff_t *toff, void *yv,
            size_t ldy, size_t ystep, int accumulate, int ybf16)
{
    __m512 lo[VL], hi[VL];
    /* (accumulate: a float y only, the contract's) */
    tile_start(lo, hi, nr, halves, mr, (const float *)yv, ldy, ystep, accumulate);
    if (one_tap) /* (halves == 2) */
        one_tap_pairs(nr, mr, ncp, w, x + toff[0], cs, yv, ldy, ystep, ybf16, lo, hi);
    for (size_t c = 0; c < (one_tap ? 0 : ncp); ++c) {
        const uint32_t *xc = x + c * cs;
        /* the lines of the results, as f32_convcv; also at step 2 (the
         * interleaved output phases), where the caller's burst of requests
         * before the call stalled */
        if (ystep <= 2 && c < 2 * mr)
            _mm_prefetch((const char *)yv + ((c >> 1) * ldy + (c & 1) * (size_t)(nr - 1) * ystep) *
                                                (ybf16 ? 2 : 4),
                         _MM_HINT_T0);
        if (c + PF_PAIRS < ncp) {
            const char *pf = (const char *)(xc + PF_PAIRS * cs + toff[0]);
            _mm_prefetch(pf, _MM_HINT_T0);
            _mm_prefetch(pf + (nr - 1) * sizeof(uint32_t), _MM_HINT_T0);
        }
        for (size_t t = 0; t < nt; ++t) {
            const uint32_t *xt = xc + toff[t];
            const __m512bh w0 = (__m512bh)_mm512_loadu_si512(w);
            if (halves == 2) {
                pair_step(nr, w, xt, lo, hi);
            } else {
#pragma GCC unroll 16
                for (int j = 0; j < nr; ++j)
                    lo[j] = _mm512_dpbf16_ps(lo[j], w0, (__m512bh)_mm512_set1_epi32((int)xt[j]));
            }
            w += MR;
        }
    }
    tile_finish(lo, hi, nr, halves, mr, yv, ldy, ystep, ybf16, narrow_dot);
}

#define CONVCV(n)                                                                                  \
    case n:                                                                                        \
        if (mr > VL)                                                                               \
            convcv_body(n, 2, 0, mr, ncp, nt, w, x, cs, toff, y, ldy, ystep, accumulate, ybf16);   \
        else                                                                                       \
            convcv_body(n, 1, 0, mr, ncp, nt, w, x, cs, toff, y, ldy, ystep, accumulate, ybf16);   \
        break;

/* Full tiles of one tap (the bulk of 1x1 layers: rows of 14, 28, 56 and
 * planes of 196 are tiles of 14): one more instance only. */
static __attribute__((noinline)) void convcv_one_tap(size_t mr, size_t ncp, const uint32_t *w,
                                                     const uint32_t *x, size_t cs,
                                                     const ptrdiff_t *toff, void *y, size_t ldy,
                                                     size_t ystep, int accumulate, int ybf16)
{
    convcv_body(NR, 2, 1, mr, ncp, 1, w, x, cs, toff, y, ldy, ystep, accumulate, ybf16);
}

void bf16_convcv_ukernel_32x14__avx512bf16(size_t mr, size_t nr, size_t ncp, size_t nt,
                                           const uint32_t *w, const uint32_t *x, size_t cs,
                                           const ptrdiff_t *toff, void *y, size_t ldy, size_t ystep,
                                           int accumulate, int ybf16)
{
    if (nr == NR && mr > VL && nt == 1) {
        convcv_one_tap(mr, ncp, w, x, cs, toff, y, ldy, ystep, accumulate, ybf16);
        return;
    }
    switch (nr) {
        CONVCV(1)
        CONVCV(2)
        CONVCV(3)
        CONVCV(4)
        CONVCV(5)
        CONVCV(6)
        CONVCV(7)
        CONVCV(8) CONVCV(9) CONVCV(10) CONVCV(11) CONVCV(12) CONVCV(13) CONVCV(14) default : break;
    }
}
