/* AVX-512 channel-vector convolution kernel: 32 output channels (two zmm)
 * x 14 positions (28 accumulators; x broadcast once into a register for
 * both channel halves). Per channel and tap: 2 weight loads and 14
 * broadcasts feed 28 FMAs. The 16 x 16 shape it replaced (one weight vector,
 * the broadcast folded into each FMA) needs a load per FMA: on a core with
 * two 512-bit FMA pipes and two 512-bit loads a cycle (Zen 5) the loads were
 * its limit, 74% of the FMA peak in the kernel benchmark (docs/kernels.md).
 * Each channel half's tile is transposed in registers at the end, so the
 * kernel reads and writes the same [channel][position] layout as the
 * spatial-vector 'conv' kernel. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx512/convcv_tile__avx512.h"
#include "kernels/conv_ukernels.h"

#define MR 32
#define NR 14
#define VL 16
/* The kernel asks for the strip of the channel this many ahead: successive
 * channels' strips are a slab row (cs floats) apart, a pattern the L1
 * prefetchers did not follow for conv1d_k3's rows of 252 (its gradInput
 * pass -8 to -10% CPU time on Zen 5; the 3x3 and 1x1 passes unchanged; a
 * request per tap instead, six per channel there, lost the gain). */
#define PF_CHANNELS 4

/* Whether position j of nr is left out under the tap's edge flags e (j
 * and nr are constants of the unrolled loops: a test of e at most) */
static inline __attribute__((always_inline)) int edge_skip(int j, int nr, unsigned e)
{
    return (j == 0 && (e & CONVCV_SKIP_FIRST)) || (j == nr - 1 && (e & CONVCV_SKIP_LAST));
}

/* One channel of the tap at xt: 2 weight vectors x nr broadcast positions
 * (the weights loaded into variables that the unrolled FMAs use,
 * docs/kernels.md); e: the tap's edge flags. */
static inline __attribute__((always_inline)) void
channel_step(const int nr, const float *w, const float *xt, __m512 *lo, __m512 *hi, unsigned e)
{
    const __m512 w0 = _mm512_loadu_ps(w), w1 = _mm512_loadu_ps(w + VL);
#pragma GCC unroll 16
    for (int j = 0; j < nr; ++j) {
        if (edge_skip(j, nr, e)) continue;
        const __m512 b = _mm512_set1_ps(xt[j]);
        lo[j] = _mm512_fmadd_ps(w0, b, lo[j]);
        hi[j] = _mm512_fmadd_ps(w1, b, hi[j]);
    }
}

/* The channel loop of a one-tap call (1x1 layers) with both channel halves:
 * one loop whose requests (a result line while c < 2 * mr at steps 1 and
 * 2, the strip PF_CHANNELS ahead while there is one) fall back on the
 * channel's own strip, a hit, instead of the general loop's checks (~30
 * instructions next to 28 FMAs with the tap loop). Three loops, one per
 * kind of request, made gcc store the 28 accumulators to the stack and load
 * them back between them (bf16_convcv's vdpbf16ps kernel does the same). */
static inline __attribute__((always_inline)) void
one_tap_channels(const int nr, size_t mr, size_t nc, size_t wcs, const float *w, const float *x,
                 size_t cs, const void *y, size_t ldy, size_t ystep, size_t es, __m512 *lo,
                 __m512 *hi)
{
    const size_t ahead = nc > PF_CHANNELS ? nc - PF_CHANNELS : 0;
    /* (at step 2 too, as bf16_convcv's: a 1x1 stride-2 gradInput, 256 ->
     * 512 channels at 56 -> 28, -1.5% in six alternated runs; the general
     * loop's stride-2 3x3 phases lost) */
    const size_t lines = ystep <= 2 ? 2 * mr : 0;
    for (size_t c = 0; c < nc; ++c, x += cs, w += wcs) {
        const char *line =
            c < lines ? (const char *)y + ((c >> 1) * ldy + (c & 1) * (size_t)(nr - 1) * ystep) * es
                      : (const char *)x;
        const float *strip = c < ahead ? x + PF_CHANNELS * cs : x;
        _mm_prefetch((const char *)line, _MM_HINT_T0);
        _mm_prefetch((const char *)strip, _MM_HINT_T0);
        _mm_prefetch((const char *)(strip + nr - 1), _MM_HINT_T0);
        channel_step(nr, w, x, lo, hi, 0);
    }
}

/* halves: 2, or 1 when mr <= 16 (the upper half's weights are the panel's
 * zero padding: skipped, not computed); edges (a constant): the taps'
 * flags tedge apply (instances of their own: the interior tiles' loops
 * stay as they were) */
static inline __attribute__((always_inline)) void
convcv_body(const int nr, const int halves, const int one_tap, size_t mr, size_t nc, size_t nt,
            size_t ntw, const float *w, const float *x, size_t cs, const ptrdiff_t *toff,
            const uint8_t *tedge, const int edges, void *y, size_t ldy, size_t ystep,
            int accumulate, const int step, int y16)
{
    __m512 lo[VL], hi[VL];
    const size_t es = y16 ? 2 : 4; /* bytes of a result */
    /* step (a constant) 1 or 2: from zero into results at that step. gcc
     * keeps the sums in registers from the first channel to the stores
     * only in such instances: tile_start's and tile_finish's other cases
     * (their loops over the tile) made it store and load all 28 in each
     * call (and between the loops of a one-tap call). */
    if (step) {
        ystep = (size_t)step;
#pragma GCC unroll 16
        for (int j = 0; j < VL; ++j)
            lo[j] = hi[j] = _mm512_setzero_ps();
    } else { /* (from y: transposed like the result) */
        tile_start(lo, hi, nr, halves, mr, (const float *)y, ldy, ystep, accumulate);
    }
    if (one_tap) /* (halves == 2) */
        one_tap_channels(nr, mr, nc, ntw * MR, w, x + toff[0], cs, y, ldy, ystep, es, lo, hi);
    for (size_t c = 0; c < (one_tap ? 0 : nc); ++c) {
        const float *xc = x + c * cs;
        /* the lines of the results, one request per channel for the first
         * 2 * mr channels (a row's first and last element): the stores at
         * the end then hit. The caller asked for them in a burst before the
         * call until now: r50_c4_1x1's dx -2 to -6% CPU this way. Unit steps
         * only (the stride-2 phases of r50_c3_3x3s2 were +1-3% slower) */
        if (ystep == 1 && c < 2 * mr)
            _mm_prefetch((const char *)y + ((c >> 1) * ldy + (c & 1) * (size_t)(nr - 1)) * es,
                         _MM_HINT_T0);
        if (c + PF_CHANNELS < nc) {
            /* the first tap's strip: nr floats, one or two lines. The
             * intrinsic, not ukernel_prefetch_addr: with its asm statement
             * gcc spilled an accumulator in this loop (1x1 kernel
             * benchmark 91% -> 30% of the peak) */
            const char *pf = (const char *)(xc + PF_CHANNELS * cs + toff[0]);
            _mm_prefetch(pf, _MM_HINT_T0);
            _mm_prefetch(pf + (nr - 1) * sizeof(float), _MM_HINT_T0);
        }
        for (size_t t = 0; t < nt; ++t) {
            const float *xt = xc + toff[t];
            const unsigned e = edges ? tedge[t] : 0u;
            /* loaded into variables that the unrolled FMAs use (docs/kernels.md) */
            const __m512 w0 = _mm512_loadu_ps(w);
            if (halves == 2) {
                channel_step(nr, w, xt, lo, hi, e);
            } else {
#pragma GCC unroll 16
                for (int j = 0; j < nr; ++j)
                    if (!edge_skip(j, nr, e))
                        lo[j] = _mm512_fmadd_ps(w0, _mm512_set1_ps(xt[j]), lo[j]);
            }
            w += MR;
        }
        w += (ntw - nt) * MR; /* the taps outside the call's range */
    }
    if (y16 == CONVCV_Y_BF16)
        tile_finish(lo, hi, nr, halves, mr, y, ldy, ystep, 1, narrow_bf16);
    else if (y16 == CONVCV_Y_F16)
        tile_finish(lo, hi, nr, halves, mr, y, ldy, ystep, 1, narrow_f16);
    else
        tile_finish(lo, hi, nr, halves, mr, y, ldy, ystep, 0, NULL);
}

#define CONVCV_HALVES(n, edges)                                                                    \
    if (mr > VL)                                                                                   \
        convcv_body(n, 2, 0, mr, nc, nt, ntw, w, x, cs, toff, tedge, edges, y, ldy, ystep,         \
                    accumulate, 0, y16);                                                           \
    else                                                                                           \
        convcv_body(n, 1, 0, mr, nc, nt, ntw, w, x, cs, toff, tedge, edges, y, ldy, ystep,         \
                    accumulate, 0, y16);
#define CONVCV(n)                                                                                  \
    case n:                                                                                        \
        if (tedge) {                                                                               \
            CONVCV_HALVES(n, 1)                                                                    \
        } else {                                                                                   \
            CONVCV_HALVES(n, 0)                                                                    \
        }                                                                                          \
        break;

/* Full tiles (14 positions, both halves): of one tap (the bulk of 1x1
 * layers: rows of 14, 28, 56 and planes of 196 are tiles of 14) and of
 * several, from zero into results at step 1 or 2 (every data pass call),
 * those at a row's ends with edge flags in their own; one tap with another
 * step or accumulating. */
#define FULL_TILE(name, one_tap, edges, step)                                                      \
    static __attribute__((noinline)) void name(                                                    \
        size_t mr, size_t nc, size_t nt, size_t ntw, const float *w, const float *x, size_t cs,    \
        const ptrdiff_t *toff, const uint8_t *tedge, void *y, size_t ldy, size_t ystep,            \
        int accumulate, int y16)                                                                   \
    {                                                                                              \
        convcv_body(NR, 2, one_tap, mr, nc, nt, ntw, w, x, cs, toff, tedge, edges, y, ldy, ystep,  \
                    accumulate, step, y16);                                                        \
    }
FULL_TILE(one_tap_step1, 1, 0, 1)
FULL_TILE(one_tap_step2, 1, 0, 2)
FULL_TILE(full_step1, 0, 0, 1)
FULL_TILE(full_step2, 0, 0, 2)
FULL_TILE(edges_step1, 0, 1, 1)
FULL_TILE(edges_step2, 0, 1, 2)
FULL_TILE(one_tap_any, 1, 0, 0)

void f32_convcv_ukernel_32x14__avx512(size_t mr, size_t nr, size_t nc, size_t nt, size_t ntw,
                                      const float *w, const float *x, size_t cs,
                                      const ptrdiff_t *toff, const uint8_t *tedge, void *y,
                                      size_t ldy, size_t ystep, int accumulate, int y16)
{
    if (nr == NR && mr > VL && !accumulate && ystep <= 2) {
        (tedge        ? ystep == 1 ? edges_step1 : edges_step2
         : nt == 1    ? ystep == 1 ? one_tap_step1 : one_tap_step2
         : ystep == 1 ? full_step1
                      : full_step2)(mr, nc, nt, ntw, w, x, cs, toff, tedge, y, ldy, ystep, 0, y16);
        return;
    }
    if (nr == NR && mr > VL && nt == 1 && !tedge) {
        one_tap_any(mr, nc, nt, ntw, w, x, cs, toff, NULL, y, ldy, ystep, accumulate, y16);
        return;
    }
    /* the positions of the tile as a constant: the broadcasts and
     * accumulators of the loop are unrolled for exactly that many */
    switch (nr) {
        CONVCV(1)
        CONVCV(2)
        CONVCV(3)
        CONVCV(4)
        CONVCV(5) CONVCV(6) CONVCV(7) CONVCV(8) CONVCV(9) CONVCV(10) CONVCV(11) CONVCV(12)
            CONVCV(13) CONVCV(14) default : break;
    }
}
