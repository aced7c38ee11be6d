/* The AVX-512 fp32 -> fp16 / bf16 narrowing loop shared by f32_narrow
 * (plain stores) and f32_narrow_nt (non-temporal stores): 16 a step, the tail
 * masked; vcvtps2ph (ties to even; NaNs quieted with the top 10 payload bits,
 * as f32_to_f16) or the integer rounding of f32_to_bf16. Include only from
 * AVX-512 kernel files. */
#ifndef ACLCONV_F32_NARROW_AVX512_H_
#define ACLCONV_F32_NARROW_AVX512_H_

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

static inline __m256i narrow16(__m512 x, int bf16)
{
    if (!bf16) return _mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m512i u = _mm512_castps_si512(x);
    const __mmask16 nan = _mm512_cmpgt_epi32_mask(_mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)),
                                                  _mm512_set1_epi32(0x7f800000));
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i r = _mm512_srli_epi32(_mm512_add_epi32(u, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), lsb)), 16);
    const __m512i q = _mm512_or_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(0x40));
    return _mm512_cvtepi32_epi16(_mm512_mask_mov_epi32(r, nan, q));
}

/* stream: full vectors landing on a 32-byte boundary are stored
 * non-temporally (a row that starts aligned is then streamed whole). */
static inline void narrow_row16(size_t n, const float *src, uint16_t *dst, int bf16, int stream)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256i h = narrow16(_mm512_loadu_ps(src + i), bf16);
        if (stream && ((uintptr_t)(dst + i) & 31) == 0)
            _mm256_stream_si256((__m256i *)(dst + i), h);
        else
            _mm256_storeu_si256((__m256i *)(dst + i), h);
    }
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        _mm256_mask_storeu_epi16(dst + i, m, narrow16(_mm512_maskz_loadu_ps(m, src + i), bf16));
    }
}

#endif /* ACLCONV_F32_NARROW_AVX512_H_ */
