/* AVX-512 fp32 W phases merged and rounded: 32 outputs a step (a load per
 * phase, two two-source permutes), the tail masked: nothing past the phases'
 * last elements is read, nothing past dst[n - 1] written. */
#include <immintrin.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/cvt_ukernels.h"

static inline __mmask16 first(size_t k) /* lanes l < k, k <= 16 */
{
    return (__mmask16)((1u << k) - 1u);
}

static inline __m512 maybe_round(__m512 v, int kind)
{
    return kind == F32_ROUND_NONE ? v : f32x16_round(v, kind);
}

void f32_merge2_ukernel__avx512(size_t n, const float *even, const float *odd, float *dst, int kind)
{
    const __m512i lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i hi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512 e = maybe_round(_mm512_loadu_ps(even + i / 2), kind);
        const __m512 o = maybe_round(_mm512_loadu_ps(odd + i / 2), kind);
        _mm512_storeu_ps(dst + i, _mm512_permutex2var_ps(e, lo, o));
        _mm512_storeu_ps(dst + i + 16, _mm512_permutex2var_ps(e, hi, o));
    }
    if (i < n) {
        const size_t r = n - i; /* 1..31 */
        const __m512 e = maybe_round(_mm512_maskz_loadu_ps(first((r + 1) / 2), even + i / 2), kind);
        const __m512 o = maybe_round(_mm512_maskz_loadu_ps(first(r / 2), odd + i / 2), kind);
        _mm512_mask_storeu_ps(dst + i, first(r < 16 ? r : 16), _mm512_permutex2var_ps(e, lo, o));
        if (r > 16)
            _mm512_mask_storeu_ps(dst + i + 16, first(r - 16), _mm512_permutex2var_ps(e, hi, o));
    }
}
