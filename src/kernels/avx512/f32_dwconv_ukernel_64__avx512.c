/* AVX-512 depthwise correlation: 64 lanes (4 zmm accumulators) per block, then
 * single vectors, then one masked vector. */
#include <immintrin.h>

#include "kernels/dw_ukernels.h"

#define VL 16

void f32_dwconv_ukernel_64__avx512(size_t len, size_t nt, const float *w, const float *x,
                                   const ptrdiff_t *toff, float *y)
{
    size_t j = 0;
    for (; j + 4 * VL <= len; j += 4 * VL) {
        __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
        __m512 a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
        for (size_t t = 0; t < nt; ++t) {
            const float *xp = x + toff[t] + j;
            const __m512 wv = _mm512_set1_ps(w[t]);
            const __m512 v0 = _mm512_loadu_ps(xp), v1 = _mm512_loadu_ps(xp + VL);
            const __m512 v2 = _mm512_loadu_ps(xp + 2 * VL), v3 = _mm512_loadu_ps(xp + 3 * VL);
            a0 = _mm512_fmadd_ps(wv, v0, a0);
            a1 = _mm512_fmadd_ps(wv, v1, a1);
            a2 = _mm512_fmadd_ps(wv, v2, a2);
            a3 = _mm512_fmadd_ps(wv, v3, a3);
        }
        _mm512_storeu_ps(y + j, a0);
        _mm512_storeu_ps(y + j + VL, a1);
        _mm512_storeu_ps(y + j + 2 * VL, a2);
        _mm512_storeu_ps(y + j + 3 * VL, a3);
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
