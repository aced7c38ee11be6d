/* AVX2 padded rows (the contract in cvt_ukernels.h), 8 columns a step, each
 * step stored whole, its padding as zeros; a step whose values start past
 * its first lane loads them from the row's first value and moves them up
 * (vpermps), so nothing before src is addressed. */
#include <immintrin.h>

#include "kernels/avx2/f32_round__avx2.h"
#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/cvt_ukernels.h"

/* bound (lo or hi) as a lane of the step at column j, clamped to 0..8 */
static inline size_t lane8(size_t bound, size_t j)
{
    return bound <= j ? 0 : bound - j >= 8 ? 8 : bound - j;
}

void f32_padrows_ukernel__avx2(size_t rows, size_t wp, size_t lo, size_t hi, const float *src,
                               size_t lds, float *dst, size_t ldd, int kind)
{
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (size_t r = 0; r < rows; ++r) {
        const float *s = src + r * lds;
        float *d = dst + r * ldd;
        for (size_t j = 0; j < wp; j += 8) {
            const size_t a = lane8(lo, j), b = lane8(hi, j); /* values in lanes [a, b) */
            __m256 v = _mm256_setzero_ps();
            if (a == 0 && b > 0) {
                v = avx2_load_n(s + (j - lo), (ptrdiff_t)b);
            } else if (a < b) { /* j < lo: the row's first b - a values, up by a lanes */
                const __m256 first = avx2_load_n(s, (ptrdiff_t)(b - a));
                v = _mm256_andnot_ps(_mm256_castsi256_ps(avx2_lane_mask(a)),
                                     _mm256_permutevar8x32_ps(
                                         first, _mm256_sub_epi32(iota, _mm256_set1_epi32((int)a))));
            }
            avx2_store_n(d + j, (ptrdiff_t)(wp - j), f32x8_round(v, kind));
        }
    }
}
