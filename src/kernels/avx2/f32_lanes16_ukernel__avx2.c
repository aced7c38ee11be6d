/* AVX2 16-lane row sums: lanes 0-7 and 8-15 of a row in two ymm registers,
 * two rows at a time (four independent add chains). */
#include <immintrin.h>

#include "kernels/bias_ukernels.h"

static inline __attribute__((always_inline)) void rows_sum(const int rows, size_t n,
                                                           const float *x, size_t ldx, float *acc)
{
    __m256 lo[2], hi[2];
    for (int r = 0; r < rows; ++r) {
        lo[r] = _mm256_loadu_ps(acc + 16 * r);
        hi[r] = _mm256_loadu_ps(acc + 16 * r + 8);
    }
    size_t k = 0;
    for (; k + 16 <= n; k += 16)
        for (int r = 0; r < rows; ++r) {
            lo[r] = _mm256_add_ps(lo[r], _mm256_loadu_ps(x + (size_t)r * ldx + k));
            hi[r] = _mm256_add_ps(hi[r], _mm256_loadu_ps(x + (size_t)r * ldx + k + 8));
        }
    for (int r = 0; r < rows; ++r) {
        _mm256_storeu_ps(acc + 16 * r, lo[r]);
        _mm256_storeu_ps(acc + 16 * r + 8, hi[r]);
        for (size_t j = k; j < n; ++j) acc[16 * r + j - k] += x[(size_t)r * ldx + j];
    }
}

void f32_lanes16_ukernel__avx2(size_t m, size_t n, const float *x, size_t ldx, float *acc)
{
    size_t r = 0;
    for (; r + 2 <= m; r += 2) rows_sum(2, n, x + r * ldx, ldx, acc + 16 * r);
    for (; r < m; ++r) rows_sum(1, n, x + r * ldx, ldx, acc + 16 * r);
}
