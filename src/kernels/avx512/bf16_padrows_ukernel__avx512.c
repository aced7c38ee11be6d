/* AVX-512 bf16 padded rows (the contract in cvt_ukernels.h), 32 columns a
 * step, f32_padrows__avx512's scheme on 16-bit lanes (vpermw), the exponent
 * scan's minima kept in a vector across all rows and reduced once. */
#include <immintrin.h>

#include "kernels/avx512/bf16_minexp__avx512.h"
#include "kernels/cvt_ukernels.h"

/* lanes l < n set, 0 <= n <= 32 */
static inline __mmask32 below32(size_t n)
{
    return n >= 32 ? (__mmask32)0xffffffffu : (__mmask32)((1u << n) - 1u);
}

/* bound (lo or hi) as a lane of the step at column j, clamped to 0..32 */
static inline size_t lane32(size_t bound, size_t j)
{
    return bound <= j ? 0 : bound - j >= 32 ? 32 : bound - j;
}

int bf16_padrows_ukernel__avx512(size_t rows, size_t wp, size_t lo, size_t hi, const uint16_t *src,
                                 size_t lds, uint16_t *dst, size_t ldd, int emin)
{
    static const uint16_t lanes[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                       11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                       22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    const __m512i iota = _mm512_loadu_si512(lanes);
    __m512i mins = _mm512_set1_epi16(255);
    for (size_t r = 0; r < rows; ++r) {
        const uint16_t *s = src + r * lds;
        uint16_t *d = dst + r * ldd;
        for (size_t j = 0; j < wp; j += 32) {
            const size_t a = lane32(lo, j), b = lane32(hi, j); /* values in lanes [a, b) */
            __m512i v = _mm512_setzero_si512();
            if (a == 0 && b == 32) {
                v = _mm512_loadu_si512(s + (j - lo));
            } else if (a == 0 && b > 0) {
                v = _mm512_maskz_loadu_epi16(below32(b), s + (j - lo));
            } else if (a < b) { /* j < lo: the row's first b - a values, up by a lanes */
                const __m512i first = _mm512_maskz_loadu_epi16(below32(b - a), s);
                v = _mm512_maskz_permutexvar_epi16(
                    below32(b) & ~below32(a), _mm512_sub_epi16(iota, _mm512_set1_epi16((short)a)),
                    first);
            }
            mins = bf16_minexp_step(v, mins); /* (zeros are not counted) */
            if (wp - j >= 32)
                _mm512_storeu_si512(d + j, v);
            else
                _mm512_mask_storeu_epi16(d + j, below32(wp - j), v);
        }
    }
    const int e = bf16_minexp_reduce(mins);
    return e < emin ? e : emin;
}
