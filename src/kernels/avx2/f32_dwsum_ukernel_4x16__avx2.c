/* AVX2 lane sums of dense runs (gradBias's order): 4 channels side by side,
 * two ymm of lanes each (8 independent add chains), masked tail. */
#include <immintrin.h>

#include "kernels/dw_ukernels.h"

#define CB 4
#define VL 8

static inline __m256i vmask(ptrdiff_t n) /* lanes l < n */
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

static inline __attribute__((always_inline)) void sum_block(const int nc, size_t len,
                                                            const float *const *x, float *acc)
{
    __m256 a[CB][2];
#pragma GCC unroll 4
    for (int c = 0; c < nc; ++c) {
        a[c][0] = _mm256_loadu_ps(acc + (size_t)c * DW_SUM_LANES);
        a[c][1] = _mm256_loadu_ps(acc + (size_t)c * DW_SUM_LANES + VL);
    }
    size_t k = 0;
    for (; k + DW_SUM_LANES <= len; k += DW_SUM_LANES)
#pragma GCC unroll 4
        for (int c = 0; c < nc; ++c) {
            a[c][0] = _mm256_add_ps(a[c][0], _mm256_loadu_ps(x[c] + k));
            a[c][1] = _mm256_add_ps(a[c][1], _mm256_loadu_ps(x[c] + k + VL));
        }
    if (k < len) {
        /* masked-out lanes add nothing: blend keeps them as they are */
        const ptrdiff_t rem = (ptrdiff_t)(len - k);
        const __m256i m0 = vmask(rem), m1 = vmask(rem - VL);
#pragma GCC unroll 4
        for (int c = 0; c < nc; ++c) {
            const __m256 s0 = _mm256_add_ps(a[c][0], _mm256_maskload_ps(x[c] + k, m0));
            const __m256 s1 = _mm256_add_ps(a[c][1], _mm256_maskload_ps(x[c] + k + VL, m1));
            a[c][0] = _mm256_blendv_ps(a[c][0], s0, _mm256_castsi256_ps(m0));
            a[c][1] = _mm256_blendv_ps(a[c][1], s1, _mm256_castsi256_ps(m1));
        }
    }
#pragma GCC unroll 4
    for (int c = 0; c < nc; ++c) {
        _mm256_storeu_ps(acc + (size_t)c * DW_SUM_LANES, a[c][0]);
        _mm256_storeu_ps(acc + (size_t)c * DW_SUM_LANES + VL, a[c][1]);
    }
}

void f32_dwsum_ukernel_4x16__avx2(size_t nch, size_t len, const float *const *x, float *acc)
{
    size_t c = 0;
    for (; c + CB <= nch; c += CB)
        sum_block(CB, len, x + c, acc + c * DW_SUM_LANES);
    switch (nch - c) {
    case 3: sum_block(3, len, x + c, acc + c * DW_SUM_LANES); break;
    case 2: sum_block(2, len, x + c, acc + c * DW_SUM_LANES); break;
    case 1: sum_block(1, len, x + c, acc + c * DW_SUM_LANES); break;
    default: break;
    }
}
