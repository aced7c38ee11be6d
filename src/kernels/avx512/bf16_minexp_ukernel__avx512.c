/* AVX-512 bf16 smallest exponent (and copy), 32 halves a step, the tail
 * masked: the contract in cvt_ukernels.h. */
#include <immintrin.h>

#include "kernels/cvt_ukernels.h"

static inline __attribute__((always_inline)) __m512i step(__m512i v, __m512i mins)
{
    const __m512i mag = _mm512_and_si512(v, _mm512_set1_epi16(0x7fff));
    const __mmask32 nonzero = _mm512_test_epi16_mask(mag, mag);
    return _mm512_mask_min_epu16(mins, nonzero, mins, _mm512_srli_epi16(mag, 7));
}

int bf16_minexp_ukernel__avx512(size_t n, const uint16_t *src, uint16_t *dst, int emin)
{
    __m512i mins = _mm512_set1_epi16(255);
    size_t i = 0;
    if (dst)
        for (; i + 32 <= n; i += 32) {
            const __m512i v = _mm512_loadu_si512(src + i);
            _mm512_storeu_si512(dst + i, v);
            mins = step(v, mins);
        }
    else
        for (; i + 32 <= n; i += 32)
            mins = step(_mm512_loadu_si512(src + i), mins);
    if (i < n) {
        const __mmask32 m = (__mmask32)((1ull << (n - i)) - 1);
        const __m512i v = _mm512_maskz_loadu_epi16(m, src + i);
        if (dst) _mm512_mask_storeu_epi16(dst + i, m, v);
        mins = step(v, mins); /* the zeroed lanes are not counted */
    }
    /* the exponent fields fit 8 bits: the 16-bit lanes' minimum */
    const __m256i m256 =
        _mm256_min_epu16(_mm512_castsi512_si256(mins), _mm512_extracti64x4_epi64(mins, 1));
    __m128i m128 = _mm_min_epu16(_mm256_castsi256_si128(m256), _mm256_extracti128_si256(m256, 1));
    m128 = _mm_minpos_epu16(m128);
    const int e = _mm_extract_epi16(m128, 0);
    return e < emin ? e : emin;
}
