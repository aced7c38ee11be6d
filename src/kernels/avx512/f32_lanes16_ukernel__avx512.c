/* AVX-512 16-lane row sum: one zmm of lanes, the tail a masked add (the
 * lanes it does not reach keep their value, -0 included). */
#include <immintrin.h>

#include "kernels/bias_ukernels.h"

void f32_lanes16_ukernel__avx512(size_t n, const float *x, float *acc)
{
    __m512 a = _mm512_loadu_ps(acc);
    size_t k = 0;
    for (; k + 16 <= n; k += 16) a = _mm512_add_ps(a, _mm512_loadu_ps(x + k));
    if (k < n) {
        const __mmask16 m = (__mmask16)((1u << (n - k)) - 1u);
        a = _mm512_mask_add_ps(a, m, a, _mm512_maskz_loadu_ps(m, x + k));
    }
    _mm512_storeu_ps(acc, a);
}
