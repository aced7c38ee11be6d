/* AVX-512 channel-vector convolution kernel: 16 output channels (one zmm)
 * x 16 positions (16 accumulators, one per position; x broadcast). The tile
 * is transposed in registers once at the end, so the kernel reads and writes
 * the same [channel][position] layout as the spatial-vector 'conv' kernel.
 * Against 8x48 it has no column tail (a row of any width is tiled exactly)
 * and aligned weight vectors: vgg_3x3_256's dx kernel 106 -> 114 GFLOP/s on
 * one core with the junk columns counted as waste (docs/performance.md). */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx512/transpose16__avx512.h"
#include "kernels/conv_ukernels.h"

#define MR 16
#define NR 16

static inline __attribute__((always_inline)) void
convcv_body(const int nr, size_t mr, size_t nc, size_t nt, const float *w, const float *x,
            size_t cs, const ptrdiff_t *toff, float *y, size_t ldy, size_t ystep, int accumulate)
{
    const __mmask16 cols = (__mmask16)((1u << nr) - 1u);
    __m512 acc[NR];
    if (accumulate) {
        /* the running sums start from y, transposed like the result */
        for (int m = 0; m < MR; ++m) {
            acc[m] = _mm512_setzero_ps();
            if ((size_t)m < mr && ystep == 1)
                acc[m] = _mm512_maskz_loadu_ps(cols, y + (size_t)m * ldy);
            if ((size_t)m < mr && ystep != 1) {
                float v[NR] = {0};
                for (int j = 0; j < nr; ++j)
                    v[j] = y[(size_t)m * ldy + (size_t)j * ystep];
                acc[m] = _mm512_loadu_ps(v);
            }
        }
        transpose16(acc);
    } else {
#pragma GCC unroll 16
        for (int j = 0; j < nr; ++j)
            acc[j] = _mm512_setzero_ps();
    }
    for (size_t c = 0; c < nc; ++c) {
        const float *xc = x + c * cs;
        for (size_t t = 0; t < nt; ++t) {
            const float *xt = xc + toff[t];
            /* loaded into a variable, then used by every FMA (docs/kernels.md) */
            const __m512 wv = _mm512_loadu_ps(w);
#pragma GCC unroll 16
            for (int j = 0; j < nr; ++j)
                acc[j] = _mm512_fmadd_ps(wv, _mm512_set1_ps(xt[j]), acc[j]);
            w += MR;
        }
    }
    for (int j = nr; j < NR; ++j)
        acc[j] = _mm512_setzero_ps();
    transpose16(acc);
    if (ystep == 1) {
        for (int m = 0; m < MR; ++m)
            if ((size_t)m < mr) _mm512_mask_storeu_ps(y + (size_t)m * ldy, cols, acc[m]);
    } else if (ystep == 2) {
        /* the interleaved output phases of a stride-2 gradInput: positions
         * spread to the even lanes of two vectors, masked stores leave the
         * odd lanes (another phase's) alone */
        const __m512i lo = _mm512_set_epi32(7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
        const __m512i hi =
            _mm512_set_epi32(15, 15, 14, 14, 13, 13, 12, 12, 11, 11, 10, 10, 9, 9, 8, 8);
        uint32_t even = 0;
        for (int j = 0; j < nr; ++j)
            even |= 1u << (2 * j);
        const __mmask16 klo = (__mmask16)(even & 0xffffu), khi = (__mmask16)(even >> 16);
        for (int m = 0; m < MR; ++m) {
            if ((size_t)m >= mr) continue;
            float *ym = y + (size_t)m * ldy;
            _mm512_mask_storeu_ps(ym, klo, _mm512_permutexvar_ps(lo, acc[m]));
            if (khi) _mm512_mask_storeu_ps(ym + 16, khi, _mm512_permutexvar_ps(hi, acc[m]));
        }
    } else {
        for (int m = 0; m < MR; ++m) {
            if ((size_t)m >= mr) continue;
            float v[NR];
            _mm512_storeu_ps(v, acc[m]);
            for (int j = 0; j < nr; ++j)
                y[(size_t)m * ldy + (size_t)j * ystep] = v[j];
        }
    }
}

#define CONVCV(n)                                                                                  \
    case n: convcv_body(n, mr, nc, nt, w, x, cs, toff, y, ldy, ystep, accumulate); break;

void f32_convcv_ukernel_16x16__avx512(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                      const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                      size_t ldy, size_t ystep, int accumulate)
{
    /* the positions of the tile as a constant: the broadcasts and
     * accumulators of the loop are unrolled for exactly that many */
    switch (nr) {
        CONVCV(1)
        CONVCV(2) CONVCV(3) CONVCV(4) CONVCV(5) CONVCV(6) CONVCV(7) CONVCV(8) CONVCV(9) CONVCV(10)
            CONVCV(11) CONVCV(12) CONVCV(13) CONVCV(14) CONVCV(15) CONVCV(16) default : break;
    }
}
