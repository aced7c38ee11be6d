/* AVX2 16-lane row sum: lanes 0-7 and 8-15 in two ymm registers. */
#include <immintrin.h>

#include "kernels/bias_ukernels.h"

void f32_lanes16_ukernel__avx2(size_t n, const float *x, float *acc)
{
    __m256 lo = _mm256_loadu_ps(acc), hi = _mm256_loadu_ps(acc + 8);
    size_t k = 0;
    for (; k + 16 <= n; k += 16) {
        lo = _mm256_add_ps(lo, _mm256_loadu_ps(x + k));
        hi = _mm256_add_ps(hi, _mm256_loadu_ps(x + k + 8));
    }
    _mm256_storeu_ps(acc, lo);
    _mm256_storeu_ps(acc + 8, hi);
    for (size_t j = 0; k < n; ++k, ++j) acc[j] += x[k];
}
