/* AVX-512 padded rows (the contract in cvt_ukernels.h), 16 columns a step,
 * each step stored whole, its padding as zeros: no call per row and none
 * per padding run. A step whose values start past its first lane (the left
 * padding) loads them from the row's first value and moves them up with
 * vpermps, so nothing before src is addressed. */
#include <immintrin.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/cvt_ukernels.h"

/* lanes l < n set, 0 <= n <= 16 */
static inline __mmask16 below16(size_t n)
{
    return (__mmask16)((1u << n) - 1u);
}

/* bound (lo or hi) as a lane of the step at column j, clamped to 0..16 */
static inline size_t lane16(size_t bound, size_t j)
{
    return bound <= j ? 0 : bound - j >= 16 ? 16 : bound - j;
}

void f32_padrows_ukernel__avx512(size_t rows, size_t wp, size_t lo, size_t hi, const float *src,
                                 size_t lds, float *dst, size_t ldd, int kind)
{
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (size_t r = 0; r < rows; ++r) {
        const float *s = src + r * lds;
        float *d = dst + r * ldd;
        for (size_t j = 0; j < wp; j += 16) {
            const size_t a = lane16(lo, j), b = lane16(hi, j); /* values in lanes [a, b) */
            __m512 v = _mm512_setzero_ps();
            if (a == 0 && b == 16) {
                v = _mm512_loadu_ps(s + (j - lo));
            } else if (a == 0 && b > 0) {
                v = _mm512_maskz_loadu_ps(below16(b), s + (j - lo));
            } else if (a < b) { /* j < lo: the row's first b - a values, up by a lanes */
                const __m512 first = _mm512_maskz_loadu_ps(below16(b - a), s);
                v = _mm512_maskz_permutexvar_ps((__mmask16)(below16(b) & ~below16(a)),
                                                _mm512_sub_epi32(iota, _mm512_set1_epi32((int)a)),
                                                first);
            }
            v = f32x16_round(v, kind); /* (+0 stays +0 in every kind) */
            if (wp - j >= 16)
                _mm512_storeu_ps(d + j, v);
            else
                _mm512_mask_storeu_ps(d + j, below16(wp - j), v);
        }
    }
}
