/* AVX-512 depthwise weight-gradient dot products: 4 taps x 32 partial sums
 * (two zmm per tap: the even and the odd 16-wide blocks of a row), so 8
 * independent FMA chains; the dy vectors of a block are loaded once per group
 * of 4 taps. Then groups of 2 and 1. */
#include <immintrin.h>

#include "kernels/dw_ukernels.h"

#define VL 16

static inline __attribute__((always_inline)) void sweep(const int nb, size_t rows, size_t len,
                                                        const float *x, size_t xps,
                                                        const ptrdiff_t *toff, const float *dy,
                                                        size_t dyps, float *acc)
{
    __m512 a0[4], a1[4];
    const float *xp[4];
    for (int t = 0; t < nb; ++t) {
        a0[t] = _mm512_loadu_ps(acc + (size_t)t * DW_ACC_LANES);
        a1[t] = _mm512_loadu_ps(acc + (size_t)t * DW_ACC_LANES + VL);
        xp[t] = x + toff[t];
    }
    const size_t tail = len % VL, pairs = len / (2 * VL) * (2 * VL);
    const __mmask16 m = (__mmask16)((1u << tail) - 1u);
    for (size_t r = 0; r < rows; ++r) {
        const float *dr = dy + r * dyps;
        const size_t xo = r * xps;
        size_t j = 0;
        for (; j < pairs; j += 2 * VL) {
            const __m512 d0 = _mm512_loadu_ps(dr + j), d1 = _mm512_loadu_ps(dr + j + VL);
            for (int t = 0; t < nb; ++t) {
                const __m512 v0 = _mm512_loadu_ps(xp[t] + xo + j);
                const __m512 v1 = _mm512_loadu_ps(xp[t] + xo + j + VL);
                a0[t] = _mm512_fmadd_ps(v0, d0, a0[t]);
                a1[t] = _mm512_fmadd_ps(v1, d1, a1[t]);
            }
        }
        if (j + VL <= len) { /* an even block, maybe followed by an odd tail */
            const __m512 d0 = _mm512_loadu_ps(dr + j);
            for (int t = 0; t < nb; ++t)
                a0[t] = _mm512_fmadd_ps(_mm512_loadu_ps(xp[t] + xo + j), d0, a0[t]);
            j += VL;
            if (tail) {
                const __m512 d1 = _mm512_maskz_loadu_ps(m, dr + j);
                for (int t = 0; t < nb; ++t)
                    a1[t] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, xp[t] + xo + j), d1, a1[t]);
            }
        } else if (tail) { /* an even tail */
            const __m512 d0 = _mm512_maskz_loadu_ps(m, dr + j);
            for (int t = 0; t < nb; ++t)
                a0[t] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, xp[t] + xo + j), d0, a0[t]);
        }
    }
    for (int t = 0; t < nb; ++t) {
        _mm512_storeu_ps(acc + (size_t)t * DW_ACC_LANES, a0[t]);
        _mm512_storeu_ps(acc + (size_t)t * DW_ACC_LANES + VL, a1[t]);
    }
}

void f32_dwwt_ukernel_4x32__avx512(size_t nt, size_t rows, size_t len, const float *x,
                                    size_t xps, const ptrdiff_t *toff, const float *dy,
                                    size_t dyps, float *acc)
{
    size_t t = 0;
    for (; t + 4 <= nt; t += 4) sweep(4, rows, len, x, xps, toff + t, dy, dyps, acc + t * DW_ACC_LANES);
    if (t + 2 <= nt) {
        sweep(2, rows, len, x, xps, toff + t, dy, dyps, acc + t * DW_ACC_LANES);
        t += 2;
    }
    if (t < nt) sweep(1, rows, len, x, xps, toff + t, dy, dyps, acc + t * DW_ACC_LANES);
}
