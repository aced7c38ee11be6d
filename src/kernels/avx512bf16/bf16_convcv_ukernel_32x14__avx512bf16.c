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

/* The sums of a tile of both halves narrowed into a BF16 y at
 * y[m*ldy + j*ystep], ystep 1 or 2, m < mr, j < nr: each position's 32
 * sums narrowed into one vector first (vcvtne2ps2bf16 gives the bits of
 * vcvtneps2bf16 on each half: checked for every fp32 value on Zen 5), then
 * the 16 x 32 words transposed in four rounds of 16 shuffles. tile_finish
 * transposes two 16 x 16 fp32 halves and then narrows: 128 shuffles and 28
 * conversions, ~5% of a 1x1 call's time (its reduction is 128 pairs). */
static inline __attribute__((always_inline)) void finish_words(const __m512 *lo, const __m512 *hi,
                                                               const int nr, size_t mr,
                                                               uint16_t *y, size_t ldy,
                                                               size_t ystep)
{
    /* v[j]: word m = channel m's sum at position j */
    __m512i v[VL], a[VL], b[VL], c[VL];
#pragma GCC unroll 16
    for (int j = 0; j < VL; ++j)
        v[j] = j < nr ? (__m512i)_mm512_cvtne2ps_pbh(hi[j], lo[j]) : _mm512_setzero_si512();
    /* a[2i + s], 128-bit lane L, dword d: channel 8L + 4s + d at positions
     * 2i, 2i + 1 */
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
        a[2 * i] = _mm512_unpacklo_epi16(v[2 * i], v[2 * i + 1]);
        a[2 * i + 1] = _mm512_unpackhi_epi16(v[2 * i], v[2 * i + 1]);
    }
    /* b[4i + 2s + h], lane L, qword q: channel 8L + 4s + 2h + q at
     * positions 4i .. 4i + 3 */
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i)
        for (int s = 0; s < 2; ++s) {
            b[4 * i + 2 * s] = _mm512_unpacklo_epi32(a[4 * i + s], a[4 * i + 2 + s]);
            b[4 * i + 2 * s + 1] = _mm512_unpackhi_epi32(a[4 * i + s], a[4 * i + 2 + s]);
        }
    /* c[8i + k], lane L: channel 8L + k (k = 4s + 2h + e) at positions
     * 8i .. 8i + 7 */
#pragma GCC unroll 2
    for (int i = 0; i < 2; ++i)
        for (int k2 = 0; k2 < 4; ++k2) {
            c[8 * i + 2 * k2] = _mm512_unpacklo_epi64(b[8 * i + k2], b[8 * i + 4 + k2]);
            c[8 * i + 2 * k2 + 1] = _mm512_unpackhi_epi64(b[8 * i + k2], b[8 * i + 4 + k2]);
        }
    /* positions 0-7 and 8-15 of a channel side by side: channels k and
     * k + 8 in one vector, k + 16 and k + 24 in another */
    const __m512i first = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
    const __m512i second = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
    const __mmask16 cols = (__mmask16)((1u << nr) - 1u);
    const uint32_t even = step2_mask(nr); /* ystep 2 */
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
        const __m512i o[2] = {_mm512_permutex2var_epi64(c[k], first, c[8 + k]),
                              _mm512_permutex2var_epi64(c[k], second, c[8 + k])};
        for (int q = 0; q < 4; ++q) {
            const size_t m = (size_t)(k + 8 * q);
            if (m >= mr) continue;
            const __m256i row = q & 1 ? _mm512_extracti64x4_epi64(o[q >> 1], 1)
                                      : _mm512_castsi512_si256(o[q >> 1]);
            uint16_t *ym = y + m * ldy;
            if (ystep == 1)
                _mm256_mask_storeu_epi16(ym, cols, row);
            else /* word j to word 2j: the other output phase's words are left alone */
                _mm512_mask_storeu_epi16(ym, (__mmask32)even, _mm512_cvtepu16_epi32(row));
        }
    }
}

/* Whether position j of nr is left out under the tap's edge flags e (j
 * and nr are constants of the unrolled loops: a test of e at most) */
static inline __attribute__((always_inline)) int edge_skip(int j, int nr, unsigned e)
{
    return (j == 0 && (e & CONVCV_SKIP_FIRST)) || (j == nr - 1 && (e & CONVCV_SKIP_LAST));
}

/* One pair of the tap at xt: 2 weight vectors x nr broadcast position
 * words; e: the tap's edge flags. */
static inline __attribute__((always_inline)) void
pair_step(const int nr, const uint32_t *w, const uint32_t *xt, __m512 *lo, __m512 *hi, unsigned e)
{
    const __m512bh w0 = (__m512bh)_mm512_loadu_si512(w);
    const __m512bh w1 = (__m512bh)_mm512_loadu_si512(w + VL);
#pragma GCC unroll 16
    for (int j = 0; j < nr; ++j) {
        if (edge_skip(j, nr, e)) continue;
        const __m512bh b = (__m512bh)_mm512_set1_epi32((int)xt[j]);
        lo[j] = _mm512_dpbf16_ps(lo[j], w0, b);
        hi[j] = _mm512_dpbf16_ps(hi[j], w1, b);
    }
}

/* The pair loop of a one-tap call (1x1 layers) with both channel halves:
 * one loop whose requests (a result line while c < 2 * mr, the strip
 * PF_PAIRS ahead while there is one) fall back on the pair's own strip, a
 * hit, instead of the general loop's checks (~30 instructions next to 28
 * vdpbf16ps with the tap loop). Three loops, one per kind of request, made
 * gcc store the 28 accumulators to the stack and load them back between
 * them: -2 to -4% of the call (docs/performance.md, session 21). */
static inline __attribute__((always_inline)) void
one_tap_pairs(const int nr, size_t mr, size_t ncp, size_t wcs, const uint32_t *w, const uint32_t *x,
              size_t cs, const void *yv, size_t ldy, size_t ystep, int ybf16, __m512 *lo,
              __m512 *hi)
{
    const size_t ahead = ncp > PF_PAIRS ? ncp - PF_PAIRS : 0;
    const size_t lines = ystep <= 2 ? 2 * mr : 0;
    const size_t es = ybf16 ? 2 : 4;
    for (size_t c = 0; c < ncp; ++c, x += cs, w += wcs) {
        const char *line =
            c < lines
                ? (const char *)yv + ((c >> 1) * ldy + (c & 1) * (size_t)(nr - 1) * ystep) * es
                : (const char *)x;
        const char *strip = (const char *)(c < ahead ? x + PF_PAIRS * cs : x);
        _mm_prefetch(line, _MM_HINT_T0);
        _mm_prefetch(strip, _MM_HINT_T0);
        _mm_prefetch(strip + (nr - 1) * sizeof(uint32_t), _MM_HINT_T0);
        pair_step(nr, w, x, lo, hi, 0);
    }
}

static inline __attribute__((always_inline)) void
convcv_body(const int nr, const int halves, const int one_tap, size_t mr, size_t ncp, size_t nt,
            size_t ntw, const uint32_t *w, const uint32_t *x, size_t cs, const ptrdiff_t *toff,
            const uint8_t *tedge, const int edges, void *yv, size_t ldy, size_t ystep,
            int accumulate, int ybf16, const int words)
{
    __m512 lo[VL], hi[VL];
    /* words (a constant): from zero into a BF16 y at step 1 or 2 with both
     * halves. gcc keeps the sums in registers from the first pair to the
     * stores only in such instances: tile_start's and tile_finish's loops
     * over the tile made it store and load all 28 in each call. */
    if (words) {
#pragma GCC unroll 16
        for (int j = 0; j < VL; ++j)
            lo[j] = hi[j] = _mm512_setzero_ps();
    } else { /* (accumulate: a float y only, the contract's) */
        tile_start(lo, hi, nr, halves, mr, (const float *)yv, ldy, ystep, accumulate);
    }
    if (one_tap) /* (halves == 2) */
        one_tap_pairs(nr, mr, ncp, ntw * MR, w, x + toff[0], cs, yv, ldy, ystep, ybf16, lo, hi);
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
            /* edges (a constant): flags of the tiles at a row's ends, in
             * instances of their own */
            const unsigned e = edges ? tedge[t] : 0u;
            const __m512bh w0 = (__m512bh)_mm512_loadu_si512(w);
            if (halves == 2) {
                pair_step(nr, w, xt, lo, hi, e);
            } else {
#pragma GCC unroll 16
                for (int j = 0; j < nr; ++j)
                    if (!edge_skip(j, nr, e))
                        lo[j] =
                            _mm512_dpbf16_ps(lo[j], w0, (__m512bh)_mm512_set1_epi32((int)xt[j]));
            }
            w += MR;
        }
        w += (ntw - nt) * MR; /* the taps outside the call's range */
    }
    if (words || (ybf16 && halves == 2 && ystep <= 2))
        finish_words(lo, hi, nr, mr, (uint16_t *)yv, ldy, ystep);
    else
        tile_finish(lo, hi, nr, halves, mr, yv, ldy, ystep, ybf16, narrow_dot);
}

#define CONVCV_HALVES(n, edges)                                                                    \
    if (mr > VL)                                                                                   \
        convcv_body(n, 2, 0, mr, ncp, nt, ntw, w, x, cs, toff, tedge, edges, y, ldy, ystep,        \
                    accumulate, ybf16, 0);                                                         \
    else                                                                                           \
        convcv_body(n, 1, 0, mr, ncp, nt, ntw, w, x, cs, toff, tedge, edges, y, ldy, ystep,        \
                    accumulate, ybf16, 0);
#define CONVCV(n)                                                                                  \
    case n:                                                                                        \
        if (tedge) {                                                                               \
            CONVCV_HALVES(n, 1)                                                                    \
        } else {                                                                                   \
            CONVCV_HALVES(n, 0)                                                                    \
        }                                                                                          \
        break;

/* Full tiles (14 positions, both halves): of one tap (the bulk of 1x1
 * layers: rows of 14, 28, 56 and planes of 196 are tiles of 14) into a
 * float y or from zero into a BF16 one, and of several taps from zero into
 * a BF16 y at step 1 or 2 (the data pass's calls; it never accumulates). */
#define FULL_TILE(name, one_tap, edges, ybf16)                                                     \
    static __attribute__((noinline)) void name(size_t mr, size_t ncp, size_t nt, size_t ntw,       \
                                               const uint32_t *w, const uint32_t *x, size_t cs,    \
                                               const ptrdiff_t *toff, const uint8_t *tedge,        \
                                               void *y, size_t ldy, size_t ystep, int accumulate)  \
    {                                                                                              \
        convcv_body(NR, 2, one_tap, mr, ncp, nt, ntw, w, x, cs, toff, tedge, edges, y, ldy, ystep, \
                    accumulate, ybf16, ybf16);                                                     \
    }
FULL_TILE(one_tap_f32, 1, 0, 0)
FULL_TILE(one_tap_bf16, 1, 0, 1)
FULL_TILE(full_tile_bf16, 0, 0, 1)
FULL_TILE(edges_tile_bf16, 0, 1, 1)

void bf16_convcv_ukernel_32x14__avx512bf16(size_t mr, size_t nr, size_t ncp, size_t nt, size_t ntw,
                                           const uint32_t *w, const uint32_t *x, size_t cs,
                                           const ptrdiff_t *toff, const uint8_t *tedge, void *y,
                                           size_t ldy, size_t ystep, int accumulate, int ybf16)
{
    if (nr == NR && mr > VL && nt == 1 && !ybf16 && !tedge) {
        one_tap_f32(mr, ncp, nt, ntw, w, x, cs, toff, NULL, y, ldy, ystep, accumulate);
        return;
    }
    if (nr == NR && mr > VL && ybf16 && ystep <= 2) { /* (ybf16: accumulate is 0) */
        (tedge     ? edges_tile_bf16
         : nt == 1 ? one_tap_bf16
                   : full_tile_bf16)(mr, ncp, nt, ntw, w, x, cs, toff, tedge, y, ldy, ystep, 0);
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
