/* AVX-512 fp16 -> fp32 row widening, 32 halves a step, the tail masked. */
#include <immintrin.h>

#include "kernels/avx512/h16_widen__avx512.h"
#include "kernels/cvt_ukernels.h"

void f16_f32_cvt_ukernel__avx512(size_t n, const uint16_t *src, float *dst, int quiet)
{
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512 a = f16x16_widen(_mm256_loadu_si256((const __m256i *)(src + i)), quiet);
        const __m512 b = f16x16_widen(_mm256_loadu_si256((const __m256i *)(src + i + 16)), quiet);
        _mm512_storeu_ps(dst + i, a);
        _mm512_storeu_ps(dst + i + 16, b);
    }
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(dst + i, f16x16_widen(_mm256_loadu_si256((const __m256i *)(src + i)), quiet));
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_ps(dst + i, m, f16x16_widen(_mm256_maskz_loadu_epi16(m, src + i), quiet));
    }
}
