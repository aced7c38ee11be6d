/* AVX-512 fp32 operand / result rounding of 16 lanes, shared by the row
 * rounding kernel (f32_round) and the pair-splitting one (f32_split2):
 * integer rounding of the bits for HF32 and BF16, vcvtps2ph with ties to
 * even and back for FLOAT16 (NaNs quieted, top 10 payload bits kept, exactly
 * as f32_to_f16). Include only from AVX-512 kernel files. */
#ifndef ACLCONV_F32_ROUND_AVX512_H_
#define ACLCONV_F32_ROUND_AVX512_H_

#include <immintrin.h>

#include "kernels/cvt_ukernels.h"

static inline __m512 f32x16_round(__m512 x, int kind)
{
    if (kind == F32_ROUND_NONE) return x;
    const __m512i u = _mm512_castps_si512(x);
    if (kind == F32_ROUND_F16)
        return _mm512_cvtph_ps(_mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    if (kind == F32_ROUND_HF32) {
        /* ties to even at bit 12: + 0x7ff + bit 12; NaNs kept (a carry
         * would turn them into infinities or -0), one mask, folded into
         * the cut: six operations. Bit 12 added by a shift and an and, not
         * by a second mask (a test and a masked add: five operations, two
         * of them writing masks): inside the depthwise kernels' window,
         * among their FMAs, dw_3x3 cubeMathType 3 ran -5 to -7% on Zen 5
         * (session 26); as a copy both forms take ~0.55 ns a vector in L1.
         * (An earlier eight-operation shift form, x read from memory three
         * times, had lost ~20% to the two-mask form in registers.) */
        const __mmask16 number = _mm512_cmp_ps_mask(x, x, _CMP_ORD_Q);
        const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 12), _mm512_set1_epi32(1));
        const __m512i r = _mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7ff)), lsb);
        return _mm512_castsi512_ps(
            _mm512_mask_and_epi32(u, number, r, _mm512_set1_epi32((int)0xfffff000u)));
    }
    const __mmask16 nan = _mm512_cmpgt_epi32_mask(
        _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)), _mm512_set1_epi32(0x7f800000));
    const __m512i hi = _mm512_set1_epi32((int)0xffff0000u);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i r =
        _mm512_and_si512(_mm512_add_epi32(u, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), lsb)), hi);
    const __m512i q = _mm512_or_si512(_mm512_and_si512(u, hi), _mm512_set1_epi32(0x400000));
    return _mm512_castsi512_ps(_mm512_mask_mov_epi32(r, nan, q));
}

#endif /* ACLCONV_F32_ROUND_AVX512_H_ */
