/* F16C fp16 -> fp32 row widening, 8 halves a step. vcvtph2ps is exact for
 * every half but quiets signalling NaNs (sets bit 22); f16_to_f32 keeps the
 * source's quiet bit, so NaN lanes take bit 22 from the source (bit 9 << 13),
 * unless quiet asks for exactly what vcvtph2ps does. */
#include <immintrin.h>
#include <string.h>

#include "kernels/cvt_ukernels.h"

static inline __m256 cvt8(__m128i h, int quiet)
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

void f16_f32_cvt_ukernel__avx2(size_t n, const uint16_t *src, float *dst, int quiet)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 a = cvt8(_mm_loadu_si128((const __m128i *)(src + i)), quiet);
        const __m256 b = cvt8(_mm_loadu_si128((const __m128i *)(src + i + 8)), quiet);
        _mm256_storeu_ps(dst + i, a);
        _mm256_storeu_ps(dst + i + 8, b);
    }
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, cvt8(_mm_loadu_si128((const __m128i *)(src + i)), quiet));
    if (i < n) { /* tail: through a local vector, exactly n - i elements read and written */
        uint16_t hs[8] = {0};
        float fs[8];
        memcpy(hs, src + i, (n - i) * sizeof(uint16_t));
        _mm256_storeu_ps(fs, cvt8(_mm_loadu_si128((const __m128i *)hs), quiet));
        memcpy(dst + i, fs, (n - i) * sizeof(float));
    }
}
