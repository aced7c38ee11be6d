/* AVX2 step-2 row copies (the W phases of a stride-2 layer): 8 outputs a
 * step. Load: the even lanes of two source vectors (one shuffle, one
 * 64-bit lane permute). Store: spread into the even lanes of two vectors
 * and written with lane-masked stores (the odd lanes untouched). The end of
 * a row goes element by element: nothing past its last element is read or
 * written. */
#include <immintrin.h>

#include "kernels/cvt_ukernels.h"

void f32_load_step2_ukernel__avx2(size_t n, const float *src, float *dst)
{
    size_t i = 0;
    /* a step reads source elements 2i .. 2i + 15: whole steps while 2i + 15 <= 2(n - 1) */
    for (; i + 9 <= n; i += 8) {
        const __m256 lo = _mm256_loadu_ps(src + 2 * i), hi = _mm256_loadu_ps(src + 2 * i + 8);
        const __m256 e =
            _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)); /* a0 a2 b0 b2 | a4 a6 b4 b6 */
        _mm256_storeu_ps(dst + i,
                         _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e), 0xd8)));
    }
    for (; i < n; ++i)
        dst[i] = src[2 * i];
}

void f32_store_step2_ukernel__avx2(size_t n, const float *src, float *dst)
{
    const __m256i lo_idx = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
    const __m256i hi_idx = _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7);
    const __m256i evens = _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(src + i);
        _mm256_maskstore_ps(dst + 2 * i, evens, _mm256_permutevar8x32_ps(v, lo_idx));
        _mm256_maskstore_ps(dst + 2 * i + 8, evens, _mm256_permutevar8x32_ps(v, hi_idx));
    }
    for (; i < n; ++i)
        dst[2 * i] = src[i];
}
