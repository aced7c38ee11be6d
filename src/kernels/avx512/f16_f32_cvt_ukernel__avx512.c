/* AVX-512 fp16 -> fp32 row widening, 16 halves a step, the tail masked.
 * vcvtph2ps quiets signalling NaNs; f16_to_f32 does not, so NaN lanes take
 * bit 22 from the source (bit 9 << 13), as in the AVX2 kernel, unless quiet
 * asks for exactly what vcvtph2ps does. */
#include <immintrin.h>

#include "kernels/cvt_ukernels.h"

static inline __m512 cvt16(__m256i h, int quiet)
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

void f16_f32_cvt_ukernel__avx512(size_t n, const uint16_t *src, float *dst, int quiet)
{
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512 a = cvt16(_mm256_loadu_si256((const __m256i *)(src + i)), quiet);
        const __m512 b = cvt16(_mm256_loadu_si256((const __m256i *)(src + i + 16)), quiet);
        _mm512_storeu_ps(dst + i, a);
        _mm512_storeu_ps(dst + i + 16, b);
    }
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(dst + i, cvt16(_mm256_loadu_si256((const __m256i *)(src + i)), quiet));
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_ps(dst + i, m, cvt16(_mm256_maskz_loadu_epi16(m, src + i), quiet));
    }
}
