/* The AVX2 fp32 -> fp16 / bf16 narrowing loop shared by f32_narrow (plain
 * stores) and f32_narrow_nt (non-temporal stores): 8 a step, the tail through
 * a local vector; vcvtps2ph (ties to even; NaNs quieted with the top 10
 * payload bits, as f32_to_f16) or the integer rounding of f32_to_bf16.
 * Include only from AVX2 kernel files. */
#ifndef ACLCONV_F32_NARROW_AVX2_H_
#define ACLCONV_F32_NARROW_AVX2_H_

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* stream: full vectors landing on a 16-byte boundary are stored
 * non-temporally (a row that starts aligned is then streamed whole). */
static inline void narrow_row8(size_t n, const float *src, uint16_t *dst, int bf16, int stream)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = narrow8(_mm256_loadu_ps(src + i), bf16);
        if (stream && ((uintptr_t)(dst + i) & 15) == 0)
            _mm_stream_si128((__m128i *)(dst + i), h);
        else
            _mm_storeu_si128((__m128i *)(dst + i), h);
    }
    if (i < n) {
        float in[8] = {0};
        uint16_t out[8];
        memcpy(in, src + i, (n - i) * sizeof(float));
        _mm_storeu_si128((__m128i *)out, narrow8(_mm256_loadu_ps(in), bf16));
        memcpy(dst + i, out, (n - i) * sizeof(uint16_t));
    }
}

#endif /* ACLCONV_F32_NARROW_AVX2_H_ */
