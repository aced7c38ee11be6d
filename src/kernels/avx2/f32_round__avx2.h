/* AVX2 fp32 operand / result rounding of 8 lanes, shared by the row
 * rounding kernel (f32_round) and the pair-splitting one (f32_split2):
 * integer rounding of the bits for HF32 and BF16, F16C (vcvtps2ph with ties
 * to even, then back) for FLOAT16, which quiets NaNs and keeps the top 10
 * payload bits exactly as f32_to_f16 does. Include only from AVX2 kernel
 * files. */
#ifndef ACLCONV_F32_ROUND_AVX2_H_
#define ACLCONV_F32_ROUND_AVX2_H_

#include <immintrin.h>

#include "kernels/cvt_ukernels.h"

static inline __m256 f32x8_round(__m256 x, int kind)
{
    if (kind == F32_ROUND_NONE) return x;
    const __m256i u = _mm256_castps_si256(x);
    if (kind == F32_ROUND_F16)
        return _mm256_cvtph_ps(_mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    if (kind == F32_ROUND_HF32) {
        /* inf / NaN unchanged; else add half - 1 + lsb at bit 12, cut 12 bits */
        const __m256i exp = _mm256_set1_epi32(0x7f800000);
        const __m256i special = _mm256_cmpeq_epi32(_mm256_and_si256(u, exp), exp);
        const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 12), _mm256_set1_epi32(1));
        __m256i r = _mm256_add_epi32(u, _mm256_add_epi32(_mm256_set1_epi32(0x7ff), lsb));
        r = _mm256_and_si256(r, _mm256_set1_epi32((int)0xfffff000u));
        return _mm256_castsi256_ps(_mm256_blendv_epi8(r, u, special));
    }
    /* BF16: NaN -> quiet, high half kept; else ties to even at bit 16 */
    const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff)),
                                           _mm256_set1_epi32(0x7f800000));
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    const __m256i hi = _mm256_set1_epi32((int)0xffff0000u);
    const __m256i r =
        _mm256_and_si256(_mm256_add_epi32(u, _mm256_add_epi32(_mm256_set1_epi32(0x7fff), lsb)), hi);
    const __m256i q = _mm256_or_si256(_mm256_and_si256(u, hi), _mm256_set1_epi32(0x400000));
    return _mm256_castsi256_ps(_mm256_blendv_epi8(r, q, nan));
}

#endif /* ACLCONV_F32_ROUND_AVX2_H_ */
