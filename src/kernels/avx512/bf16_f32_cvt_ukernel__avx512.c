/* AVX-512 bf16 -> fp32 row widening, 16 a step, the tail masked; NaN lanes
 * quieted on request. */
#include <immintrin.h>

#include "kernels/cvt_ukernels.h"

static inline __m512i widen(__m256i h, int quiet)
{
    const __m512i u = _mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16);
    if (!quiet) return u;
    const __mmask16 nan = _mm512_cmpgt_epi32_mask(_mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)),
                                                  _mm512_set1_epi32(0x7f800000));
    return _mm512_mask_or_epi32(u, nan, u, _mm512_set1_epi32(0x400000));
}

void bf16_f32_cvt_ukernel__avx512(size_t n, const uint16_t *src, float *dst, int quiet)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_si512(dst + i, widen(_mm256_loadu_si256((const __m256i *)(src + i)), quiet));
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_epi32(dst + i, m, widen(_mm256_maskz_loadu_epi16(m, src + i), quiet));
    }
}
