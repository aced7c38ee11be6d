/* AVX2+FMA depthwise correlation: 64 lanes (8 independent accumulators, so
 * the FMA latency is hidden) per block, then 4 vectors, then single vectors, then one masked
 * vector. */
#include <immintrin.h>

#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/dw_ukernels.h"

#define VL 8

void f32_dwconv_ukernel_64__avx2(size_t len, size_t nt, const float *w, const float *x,
                                 const ptrdiff_t *toff, float *y)
{
    size_t j = 0;
    for (; j + 8 * VL <= len; j += 8 * VL) {
        __m256 a[8];
        for (int b = 0; b < 8; ++b) a[b] = _mm256_setzero_ps();
        for (size_t t = 0; t < nt; ++t) {
            const float *xp = x + toff[t] + j;
            const __m256 wv = _mm256_broadcast_ss(w + t);
            for (int b = 0; b < 8; ++b) {
                const __m256 v = _mm256_loadu_ps(xp + b * VL);
                a[b] = _mm256_fmadd_ps(wv, v, a[b]);
            }
        }
        for (int b = 0; b < 8; ++b) _mm256_storeu_ps(y + j + b * VL, a[b]);
    }
    for (; j + 4 * VL <= len; j += 4 * VL) {
        __m256 a[4];
        for (int b = 0; b < 4; ++b) a[b] = _mm256_setzero_ps();
        for (size_t t = 0; t < nt; ++t) {
            const float *xp = x + toff[t] + j;
            const __m256 wv = _mm256_broadcast_ss(w + t);
            for (int b = 0; b < 4; ++b) {
                const __m256 v = _mm256_loadu_ps(xp + b * VL);
                a[b] = _mm256_fmadd_ps(wv, v, a[b]);
            }
        }
        for (int b = 0; b < 4; ++b) _mm256_storeu_ps(y + j + b * VL, a[b]);
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
        const __m256i m = avx2_lane_mask(len - j);
        __m256 a = _mm256_setzero_ps();
        for (size_t t = 0; t < nt; ++t) {
            const __m256 v = _mm256_maskload_ps(x + toff[t] + j, m);
            a = _mm256_fmadd_ps(_mm256_broadcast_ss(w + t), v, a);
        }
        avx2_store_n(y + j, (ptrdiff_t)(len - j), a);
    }
}
