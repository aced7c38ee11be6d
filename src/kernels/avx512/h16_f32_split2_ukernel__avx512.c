/* AVX-512 fp16 / bf16 pairs split and widened: 32 values a step (one load),
 * the tail masked. A bf16 pair is one 32-bit word: the even value is the
 * word shifted up 16, the odd one the word with its low half cleared. */
#include <immintrin.h>

#include "kernels/avx512/h16_widen__avx512.h"
#include "kernels/cvt_ukernels.h"

static inline void split32(__m512i w, int bf16, int quiet, __m512 *even, __m512 *odd)
{
    if (bf16) {
        *even = bf16x16_quiet(_mm512_slli_epi32(w, 16), quiet);
        *odd = bf16x16_quiet(_mm512_and_si512(w, _mm512_set1_epi32((int)0xffff0000u)), quiet);
        return;
    }
    *even = f16x16_widen(_mm512_cvtepi32_epi16(w), quiet); /* keeps the low halves */
    *odd = f16x16_widen(_mm512_cvtepi32_epi16(_mm512_srli_epi32(w, 16)), quiet);
}

void h16_f32_split2_ukernel__avx512(size_t n, const uint16_t *src, float *even, float *odd, int bf16,
                                    int quiet)
{
    size_t i = 0;
    __m512 e, o;
    for (; i + 32 <= n; i += 32) {
        split32(_mm512_loadu_si512(src + i), bf16, quiet, &e, &o);
        _mm512_storeu_ps(even + i / 2, e);
        _mm512_storeu_ps(odd + i / 2, o);
    }
    if (i < n) {
        const size_t r = n - i; /* 1..31 */
        split32(_mm512_maskz_loadu_epi16((__mmask32)((1u << r) - 1u), src + i), bf16, quiet, &e, &o);
        _mm512_mask_storeu_ps(even + i / 2, (__mmask16)((1u << ((r + 1) / 2)) - 1u), e);
        _mm512_mask_storeu_ps(odd + i / 2, (__mmask16)((1u << (r / 2)) - 1u), o);
    }
}
