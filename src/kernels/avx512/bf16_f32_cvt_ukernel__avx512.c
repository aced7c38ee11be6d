/* AVX-512 bf16 -> fp32 row widening, 16 a step, the tail masked; NaN lanes
 * quieted on request. */
#include <immintrin.h>

#include "kernels/avx512/h16_widen__avx512.h"
#include "kernels/cvt_ukernels.h"

void bf16_f32_cvt_ukernel__avx512(size_t n, const uint16_t *src, float *dst, int quiet)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(dst + i,
                         bf16x16_widen(_mm256_loadu_si256((const __m256i *)(src + i)), quiet));
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_ps(dst + i, m,
                              bf16x16_widen(_mm256_maskz_loadu_epi16(m, src + i), quiet));
    }
}
