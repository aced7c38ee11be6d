/* The BF16 pair guard's exponent scan in AVX-512 registers (bf16_minexp,
 * bf16_zip): 32 halves a step into 16-bit lane minima, then one minimum.
 * Shared by the kernels that include it (compiled with AVX-512 flags). */
#ifndef ACLCONV_BF16_MINEXP_AVX512_H_
#define ACLCONV_BF16_MINEXP_AVX512_H_

#include <immintrin.h>

/* the exponent fields of v's nonzero halves (sign ignored) into mins */
static inline __attribute__((always_inline)) __m512i bf16_minexp_step(__m512i v, __m512i mins)
{
    const __m512i mag = _mm512_and_si512(v, _mm512_set1_epi16(0x7fff));
    const __mmask32 nonzero = _mm512_test_epi16_mask(mag, mag);
    return _mm512_mask_min_epu16(mins, nonzero, mins, _mm512_srli_epi16(mag, 7));
}

static inline __attribute__((always_inline)) int bf16_minexp_reduce(__m512i mins)
{
    const __m256i m256 =
        _mm256_min_epu16(_mm512_castsi512_si256(mins), _mm512_extracti64x4_epi64(mins, 1));
    const __m128i m128 =
        _mm_min_epu16(_mm256_castsi256_si128(m256), _mm256_extracti128_si256(m256, 1));
    return _mm_extract_epi16(_mm_minpos_epu16(m128), 0);
}

#endif /* ACLCONV_BF16_MINEXP_AVX512_H_ */
