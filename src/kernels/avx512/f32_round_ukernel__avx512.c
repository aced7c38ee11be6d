/* AVX-512 fp32 operand / result rounding (f32_round__avx512.h), 16 a step,
 * the tail masked. */
#include <immintrin.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/cvt_ukernels.h"

void f32_round_ukernel__avx512(size_t n, const float *src, float *dst, int kind)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(dst + i, f32x16_round(_mm512_loadu_ps(src + i), kind));
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_ps(dst + i, m, f32x16_round(_mm512_maskz_loadu_ps(m, src + i), kind));
    }
}
