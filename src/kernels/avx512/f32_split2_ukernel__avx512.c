/* AVX-512 fp32 pairs split and rounded: 32 values a step (two loads, a
 * two-source permute per phase), the tail masked: nothing past src[n - 1] is
 * read, nothing past the phases' last elements written. */
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

void f32_split2_ukernel__avx512(size_t n, const float *src, float *even, float *odd, int kind)
{
    const __m512i ei = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i oi = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512 lo = _mm512_loadu_ps(src + i), hi = _mm512_loadu_ps(src + i + 16);
        _mm512_storeu_ps(even + i / 2, maybe_round(_mm512_permutex2var_ps(lo, ei, hi), kind));
        _mm512_storeu_ps(odd + i / 2, maybe_round(_mm512_permutex2var_ps(lo, oi, hi), kind));
    }
    if (i < n) {
        const size_t r = n - i; /* 1..31 */
        const __m512 lo = _mm512_maskz_loadu_ps(first(r < 16 ? r : 16), src + i);
        const __m512 hi = _mm512_maskz_loadu_ps(first(r > 16 ? r - 16 : 0), src + i + 16);
        _mm512_mask_storeu_ps(even + i / 2, first((r + 1) / 2),
                              maybe_round(_mm512_permutex2var_ps(lo, ei, hi), kind));
        _mm512_mask_storeu_ps(odd + i / 2, first(r / 2),
                              maybe_round(_mm512_permutex2var_ps(lo, oi, hi), kind));
    }
}
