/* AVX-512 fp32 -> fp16 / bf16 narrowing into every other element: the
 * results of one W output phase of a stride-2 gradInput, whose other
 * elements belong to the other phase. Each 16-bit result is widened into a
 * 32-bit lane (value in the low half) and stored with a mask of the even
 * 16-bit lanes, so the odd ones are not touched. */
#include <immintrin.h>

#include "kernels/avx512/f32_narrow__avx512.h"
#include "kernels/cvt_ukernels.h"

void f32_narrow_step2_ukernel__avx512(size_t n, const float *src, uint16_t *dst, int bf16)
{
    const __mmask32 even = 0x55555555u;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512i h = _mm512_cvtepu16_epi32(narrow16(_mm512_loadu_ps(src + i), bf16));
        _mm512_mask_storeu_epi16(dst + 2 * i, even, h);
    }
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        const __mmask32 k = even & (__mmask32)((1ull << (2 * (n - i))) - 1u);
        const __m512i h = _mm512_cvtepu16_epi32(narrow16(_mm512_maskz_loadu_ps(m, src + i), bf16));
        _mm512_mask_storeu_epi16(dst + 2 * i, k, h);
    }
}
