/* AVX2 fp32 -> fp16 / bf16 narrowing, 8 a step, the tail through a local
 * vector: vcvtps2ph (ties to even; NaNs quieted with the top 10 payload bits,
 * as f32_to_f16) or the integer rounding of f32_to_bf16. */
#include <immintrin.h>
#include <string.h>

#include "kernels/cvt_ukernels.h"

static inline __m128i narrow8(__m256 x, int bf16)
{
    if (!bf16) return _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256i u = _mm256_castps_si256(x);
    const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff)),
                                           _mm256_set1_epi32(0x7f800000));
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    const __m256i r = _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_add_epi32(_mm256_set1_epi32(0x7fff), lsb)), 16);
    const __m256i q = _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x40));
    const __m256i h = _mm256_blendv_epi8(r, q, nan); /* 16-bit values in 32-bit lanes */
    return _mm_packus_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

void f32_narrow_ukernel__avx2(size_t n, const float *src, uint16_t *dst, int bf16)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) _mm_storeu_si128((__m128i *)(dst + i), narrow8(_mm256_loadu_ps(src + i), bf16));
    if (i < n) {
        float in[8] = {0};
        uint16_t out[8];
        memcpy(in, src + i, (n - i) * sizeof(float));
        _mm_storeu_si128((__m128i *)out, narrow8(_mm256_loadu_ps(in), bf16));
        memcpy(dst + i, out, (n - i) * sizeof(uint16_t));
    }
}
