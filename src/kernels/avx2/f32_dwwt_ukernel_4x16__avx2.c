/* AVX2+FMA depthwise weight-gradient dot products: 4 taps x 16 partial sums
 * (two ymm per tap: the even and the odd 8-wide blocks of a row), so 8
 * independent FMA chains; the dy vectors of a block are loaded once per group
 * of 4 taps. Then groups of 2 and 1. */
#include <immintrin.h>

#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/dw_ukernels.h"

#define VL 8

static inline __attribute__((always_inline)) void sweep(const int nb, size_t rows, size_t len,
                                                        const float *x, size_t xps,
                                                        const ptrdiff_t *toff, const float *dy,
                                                        size_t dyps, float *acc)
{
    __m256 a0[4], a1[4];
    const float *xp[4];
    for (int t = 0; t < nb; ++t) {
        a0[t] = _mm256_loadu_ps(acc + (size_t)t * DW_ACC_LANES);
        a1[t] = _mm256_loadu_ps(acc + (size_t)t * DW_ACC_LANES + VL);
        xp[t] = x + toff[t];
    }
    const size_t tail = len % VL, pairs = len / (2 * VL) * (2 * VL);
    const __m256i m = avx2_lane_mask(tail);
    for (size_t r = 0; r < rows; ++r) {
        const float *dr = dy + r * dyps;
        const size_t xo = r * xps;
        size_t j = 0;
        for (; j < pairs; j += 2 * VL) {
            const __m256 d0 = _mm256_loadu_ps(dr + j), d1 = _mm256_loadu_ps(dr + j + VL);
            for (int t = 0; t < nb; ++t) {
                const __m256 v0 = _mm256_loadu_ps(xp[t] + xo + j);
                const __m256 v1 = _mm256_loadu_ps(xp[t] + xo + j + VL);
                a0[t] = _mm256_fmadd_ps(v0, d0, a0[t]);
                a1[t] = _mm256_fmadd_ps(v1, d1, a1[t]);
            }
        }
        if (j + VL <= len) { /* an even block, maybe followed by an odd tail */
            const __m256 d0 = _mm256_loadu_ps(dr + j);
            for (int t = 0; t < nb; ++t)
                a0[t] = _mm256_fmadd_ps(_mm256_loadu_ps(xp[t] + xo + j), d0, a0[t]);
            j += VL;
            if (tail) {
                const __m256 d1 = _mm256_maskload_ps(dr + j, m);
                for (int t = 0; t < nb; ++t)
                    a1[t] = _mm256_fmadd_ps(_mm256_maskload_ps(xp[t] + xo + j, m), d1, a1[t]);
            }
        } else if (tail) { /* an even tail */
            const __m256 d0 = _mm256_maskload_ps(dr + j, m);
            for (int t = 0; t < nb; ++t)
                a0[t] = _mm256_fmadd_ps(_mm256_maskload_ps(xp[t] + xo + j, m), d0, a0[t]);
        }
    }
    for (int t = 0; t < nb; ++t) {
        _mm256_storeu_ps(acc + (size_t)t * DW_ACC_LANES, a0[t]);
        _mm256_storeu_ps(acc + (size_t)t * DW_ACC_LANES + VL, a1[t]);
    }
}

void f32_dwwt_ukernel_4x16__avx2(size_t nt, size_t rows, size_t len, const float *x,
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
