/* AVX-512 step-2 row copies (the W phases of a stride-2 layer): 16 outputs a
 * step from two source vectors (load: the even lanes picked by one
 * two-source permute) or into the even lanes of two (store: spread by a
 * permute, written by masked stores that leave the odd lanes alone). The
 * vectors at the end of a row are masked: nothing past the last element is
 * read or written. */
#include <immintrin.h>

#include "kernels/cvt_ukernels.h"

static inline __mmask16 first(size_t k) /* lanes l < k, k <= 16 */
{
    return (__mmask16)((1u << k) - 1u);
}

void f32_load_step2_ukernel__avx512(size_t n, const float *src, float *dst)
{
    const __m512i even =
        _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        /* source elements 2i .. 2i + 30: the second vector's last lane (2i + 31) is not needed */
        const __m512 lo = _mm512_loadu_ps(src + 2 * i);
        const __m512 hi = _mm512_maskz_loadu_ps(0x7fff, src + 2 * i + 16);
        _mm512_storeu_ps(dst + i, _mm512_permutex2var_ps(lo, even, hi));
    }
    if (i < n) {
        const size_t span = 2 * (n - i) - 1; /* source elements to read */
        const __m512 lo = _mm512_maskz_loadu_ps(first(span < 16 ? span : 16), src + 2 * i);
        const __m512 hi = _mm512_maskz_loadu_ps(first(span > 16 ? span - 16 : 0), src + 2 * i + 16);
        _mm512_mask_storeu_ps(dst + i, first(n - i), _mm512_permutex2var_ps(lo, even, hi));
    }
}

void f32_store_step2_ukernel__avx512(size_t n, const float *src, float *dst)
{
    const __m512i lo_idx = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    const __m512i hi_idx =
        _mm512_setr_epi32(8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15);
    const __mmask16 evens = 0x5555;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512 v = _mm512_loadu_ps(src + i);
        _mm512_mask_storeu_ps(dst + 2 * i, evens, _mm512_permutexvar_ps(lo_idx, v));
        _mm512_mask_storeu_ps(dst + 2 * i + 16, evens, _mm512_permutexvar_ps(hi_idx, v));
    }
    if (i < n) {
        const size_t k = n - i, span = 2 * k - 1; /* destination elements spanned */
        const __m512 v = _mm512_maskz_loadu_ps(first(k), src + i);
        _mm512_mask_storeu_ps(dst + 2 * i, evens & first(span < 16 ? span : 16),
                              _mm512_permutexvar_ps(lo_idx, v));
        if (span > 16)
            _mm512_mask_storeu_ps(dst + 2 * i + 16, evens & first(span - 16),
                                  _mm512_permutexvar_ps(hi_idx, v));
    }
}
