/* AVX-512 fp16 / bf16 -> fp32 widening of 16 lanes, shared by the row
 * widening kernels (f16_f32_cvt, bf16_f32_cvt) and the pair-splitting one
 * (h16_f32_split2). Include only from AVX-512 kernel files. */
#ifndef ACLCONV_H16_WIDEN_AVX512_H_
#define ACLCONV_H16_WIDEN_AVX512_H_

#include <immintrin.h>

/* 16 halves -> fp32, f16_to_f32's bits. vcvtph2ps quiets signalling NaNs;
 * f16_to_f32 does not, so NaN lanes take bit 22 from the source (bit 9 << 13)
 * unless quiet asks for exactly what vcvtph2ps does. */
static inline __m512 f16x16_widen(__m256i h, int quiet)
{
    if (quiet) return _mm512_cvtph_ps(h);
    const __m512i w = _mm512_cvtepu16_epi32(h);
    const __mmask16 nan = _mm512_cmpgt_epi32_mask(_mm512_and_si512(w, _mm512_set1_epi32(0x7fff)),
                                                  _mm512_set1_epi32(0x7c00));
    const __m512i f = _mm512_castps_si512(_mm512_cvtph_ps(h));
    /* bit 22 of NaN lanes := bit 22 of w << 13 (ternlog: select by the 0x400000 mask) */
    const __m512i fixed = _mm512_ternarylogic_epi32(f, _mm512_slli_epi32(w, 13), _mm512_set1_epi32(0x400000), 0xd8);
    return _mm512_castsi512_ps(_mm512_mask_mov_epi32(f, nan, fixed));
}

/* bf16 values already in the top halves of u's lanes (low halves zero): the
 * fp32 values, NaN lanes quieted (bit 22 set) on request. */
static inline __m512 bf16x16_quiet(__m512i u, int quiet)
{
    if (!quiet) return _mm512_castsi512_ps(u);
    const __mmask16 nan = _mm512_cmpgt_epi32_mask(_mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)),
                                                  _mm512_set1_epi32(0x7f800000));
    return _mm512_castsi512_ps(_mm512_mask_or_epi32(u, nan, u, _mm512_set1_epi32(0x400000)));
}

/* 16 bf16 halves -> fp32 (shifted up 16, exact), NaN lanes quieted on
 * request: bf16_to_f32's bits, as bf16_f32_cvt gives them. */
static inline __m512 bf16x16_widen(__m256i h, int quiet)
{
    return bf16x16_quiet(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16), quiet);
}

#endif /* ACLCONV_H16_WIDEN_AVX512_H_ */
