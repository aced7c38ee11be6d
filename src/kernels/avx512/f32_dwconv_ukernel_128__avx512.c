/* AVX-512 depthwise correlation: 128 lanes (8 independent accumulators, so
 * the FMA latency is hidden) per block, then 4 vectors, then single vectors, then one masked
 * vector. */
#include <immintrin.h>

#include "kernels/dw_ukernels.h"

#define VL 16

void f32_dwconv_ukernel_128__avx512(size_t len, size_t nt, const float *w, const float *x,
                                    const ptrdiff_t *toff, float *y)
{
    size_t j = 0;
    for (; j + 8 * VL <= len; j += 8 * VL) {
        __m512 a[8];
        for (int b = 0; b < 8; ++b) a[b] = _mm512_setzero_ps();
        for (size_t t = 0; t < nt; ++t) {
            const float *xp = x + toff[t] + j;
            const __m512 wv = _mm512_set1_ps(w[t]);
            for (int b = 0; b < 8; ++b) {
                const __m512 v = _mm512_loadu_ps(xp + b * VL);
                a[b] = _mm512_fmadd_ps(wv, v, a[b]);
            }
        }
        for (int b = 0; b < 8; ++b) _mm512_storeu_ps(y + j + b * VL, a[b]);
    }
    for (; j + 4 * VL <= len; j += 4 * VL) {
        __m512 a[4];
        for (int b = 0; b < 4; ++b) a[b] = _mm512_setzero_ps();
        for (size_t t = 0; t < nt; ++t) {
            const float *xp = x + toff[t] + j;
            const __m512 wv = _mm512_set1_ps(w[t]);
            for (int b = 0; b < 4; ++b) {
                const __m512 v = _mm512_loadu_ps(xp + b * VL);
                a[b] = _mm512_fmadd_ps(wv, v, a[b]);
            }
        }
        for (int b = 0; b < 4; ++b) _mm512_storeu_ps(y + j + b * VL, a[b]);
    }
    for (; j + VL <= len; j += VL) {
        __m512 a = _mm512_setzero_ps();
        for (size_t t = 0; t < nt; ++t) {
            const __m512 v = _mm512_loadu_ps(x + toff[t] + j);
            a = _mm512_fmadd_ps(_mm512_set1_ps(w[t]), v, a);
        }
        _mm512_storeu_ps(y + j, a);
    }
    if (j < len) {
        const __mmask16 m = (__mmask16)((1u << (len - j)) - 1u);
        __m512 a = _mm512_setzero_ps();
        for (size_t t = 0; t < nt; ++t) {
            const __m512 v = _mm512_maskz_loadu_ps(m, x + toff[t] + j);
            a = _mm512_fmadd_ps(_mm512_set1_ps(w[t]), v, a);
        }
        _mm512_mask_storeu_ps(y + j, m, a);
    }
}
