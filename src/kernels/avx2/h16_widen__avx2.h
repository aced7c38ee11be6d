/* AVX2 (F16C) fp16 / bf16 -> fp32 widening of 8 lanes, shared by the row
 * widening kernels (f16_f32_cvt, bf16_f32_cvt) and the pair-splitting one
 * (h16_f32_split2). Include only from AVX2 kernel files. */
#ifndef ACLCONV_H16_WIDEN_AVX2_H_
#define ACLCONV_H16_WIDEN_AVX2_H_

#include <immintrin.h>

/* 8 halves -> fp32, f16_to_f32's bits. vcvtph2ps is exact for every half but
 * quiets signalling NaNs (sets bit 22); f16_to_f32 keeps the source's quiet
 * bit, so NaN lanes take bit 22 from the source (bit 9 << 13), unless quiet
 * asks for exactly what vcvtph2ps does. */
static inline __m256 f16x8_widen(__m128i h, int quiet)
{
    if (quiet) return _mm256_cvtph_ps(h);
    const __m256i w = _mm256_cvtepu16_epi32(h);
    const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(w, _mm256_set1_epi32(0x7fff)),
                                           _mm256_set1_epi32(0x7c00));
    const __m256i q = _mm256_and_si256(nan, _mm256_set1_epi32(0x400000));
    const __m256i f = _mm256_castps_si256(_mm256_cvtph_ps(h));
    return _mm256_castsi256_ps(
        _mm256_or_si256(_mm256_andnot_si256(q, f), _mm256_and_si256(_mm256_slli_epi32(w, 13), q)));
}

/* bf16 values already in the top halves of u's lanes (low halves zero): the
 * fp32 values, NaN lanes quieted (bit 22 set) on request. */
static inline __m256 bf16x8_quiet(__m256i u, int quiet)
{
    if (!quiet) return _mm256_castsi256_ps(u);
    const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff)),
                                           _mm256_set1_epi32(0x7f800000));
    return _mm256_castsi256_ps(_mm256_or_si256(u, _mm256_and_si256(nan, _mm256_set1_epi32(0x400000))));
}

#endif /* ACLCONV_H16_WIDEN_AVX2_H_ */
