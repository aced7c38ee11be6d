/* AVX2+FMA depthwise correlation: 32 lanes (4 ymm accumulators) per block,
 * then single vectors, then one masked vector. */
#include <immintrin.h>

#include "kernels/dw_ukernels.h"

#define VL 8

void f32_dwconv_ukernel_32__avx2(size_t len, size_t nt, const float *w, const float *x,
                                 const ptrdiff_t *toff, float *y)
{
    size_t j = 0;
    for (; j + 4 * VL <= len; j += 4 * VL) {
        __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
        __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
        for (size_t t = 0; t < nt; ++t) {
            const float *xp = x + toff[t] + j;
            const __m256 wv = _mm256_broadcast_ss(w + t);
            const __m256 v0 = _mm256_loadu_ps(xp), v1 = _mm256_loadu_ps(xp + VL);
            const __m256 v2 = _mm256_loadu_ps(xp + 2 * VL), v3 = _mm256_loadu_ps(xp + 3 * VL);
            a0 = _mm256_fmadd_ps(wv, v0, a0);
            a1 = _mm256_fmadd_ps(wv, v1, a1);
            a2 = _mm256_fmadd_ps(wv, v2, a2);
            a3 = _mm256_fmadd_ps(wv, v3, a3);
        }
        _mm256_storeu_ps(y + j, a0);
        _mm256_storeu_ps(y + j + VL, a1);
        _mm256_storeu_ps(y + j + 2 * VL, a2);
        _mm256_storeu_ps(y + j + 3 * VL, a3);
    }
    for (; j + VL <= len; j += VL) {
        __m256 a = _mm256_setzero_ps();
        for (size_t t = 0; t < nt; ++t) {
            const __m256 v = _mm256_loadu_ps(x + toff[t] + j);
            a = _mm256_fmadd_ps(_mm256_broadcast_ss(w + t), v, a);
        }
        _mm256_storeu_ps(y + j, a);
    }
    if (j < len) {
        const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(len - j)),
                                             _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        __m256 a = _mm256_setzero_ps();
        for (size_t t = 0; t < nt; ++t) {
            const __m256 v = _mm256_maskload_ps(x + toff[t] + j, m);
            a = _mm256_fmadd_ps(_mm256_broadcast_ss(w + t), v, a);
        }
        _mm256_maskstore_ps(y + j, m, a);
    }
}
