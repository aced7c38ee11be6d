/* AVX-512 16-lane row sums: one zmm of lanes per row, four rows at a time
 * (four independent add chains), the tail a masked add (the lanes it does
 * not reach keep their value, -0 included). */
#include <immintrin.h>

#include "kernels/bias_ukernels.h"

static inline __attribute__((always_inline)) void rows_sum(const int rows, size_t n,
                                                           const float *x, size_t ldx, float *acc)
{
    __m512 a[4];
    for (int r = 0; r < rows; ++r) a[r] = _mm512_loadu_ps(acc + 16 * r);
    size_t k = 0;
    for (; k + 16 <= n; k += 16)
        for (int r = 0; r < rows; ++r)
            a[r] = _mm512_add_ps(a[r], _mm512_loadu_ps(x + (size_t)r * ldx + k));
    if (k < n) {
        const __mmask16 m = (__mmask16)((1u << (n - k)) - 1u);
        for (int r = 0; r < rows; ++r)
            a[r] = _mm512_mask_add_ps(a[r], m, a[r], _mm512_maskz_loadu_ps(m, x + (size_t)r * ldx + k));
    }
    for (int r = 0; r < rows; ++r) _mm512_storeu_ps(acc + 16 * r, a[r]);
}

void f32_lanes16_ukernel__avx512(size_t m, size_t n, const float *x, size_t ldx, float *acc)
{
    size_t r = 0;
    for (; r + 4 <= m; r += 4) rows_sum(4, n, x + r * ldx, ldx, acc + 16 * r);
    for (; r < m; ++r) rows_sum(1, n, x + r * ldx, ldx, acc + 16 * r);
}
