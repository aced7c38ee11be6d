/* AVX-512 bf16 rows zipped into pairs, 32 positions a step (two vpermt2w),
 * the exponent scan on the way, the tail masked: the contract in
 * cvt_ukernels.h. */
#include <immintrin.h>

#include "kernels/avx512/bf16_minexp__avx512.h"
#include "kernels/cvt_ukernels.h"

static inline __attribute__((always_inline)) void zip32(__m512i a, __m512i b, __m512i *d0,
                                                        __m512i *d1)
{
    /* word 2i of d0 = a[i], 2i + 1 = b[i] (i < 16); d1 the same from 16 */
    const __m512i i0 = _mm512_set_epi16(47, 15, 46, 14, 45, 13, 44, 12, 43, 11, 42, 10, 41, 9, 40,
                                        8, 39, 7, 38, 6, 37, 5, 36, 4, 35, 3, 34, 2, 33, 1, 32, 0);
    const __m512i i1 = _mm512_add_epi16(i0, _mm512_set1_epi16(16));
    *d0 = _mm512_permutex2var_epi16(a, i0, b);
    *d1 = _mm512_permutex2var_epi16(a, i1, b);
}

int bf16_zip_ukernel__avx512(size_t rows, size_t n, const uint16_t *lo, const uint16_t *hi,
                             size_t ss, uint32_t *dst, size_t ds, int emin)
{
    __m512i mins = _mm512_set1_epi16(255);
    const size_t rest = n % 32;
    const __mmask32 m = (__mmask32)((1ull << rest) - 1);
    const __mmask16 m0 = (__mmask16)(rest >= 16 ? 0xffffu : (1u << rest) - 1u);
    const __mmask16 m1 = (__mmask16)(rest > 16 ? (1u << (rest - 16)) - 1u : 0u);
    for (size_t r = 0; r < rows; ++r, lo += ss, hi = hi ? hi + ss : NULL, dst += ds) {
        size_t i = 0;
        for (; i + 32 <= n; i += 32) {
            const __m512i a = _mm512_loadu_si512(lo + i);
            const __m512i b = hi ? _mm512_loadu_si512(hi + i) : _mm512_setzero_si512();
            __m512i d0, d1;
            zip32(a, b, &d0, &d1);
            _mm512_storeu_si512(dst + i, d0);
            _mm512_storeu_si512(dst + i + 16, d1);
            mins = bf16_minexp_step(b, bf16_minexp_step(a, mins));
        }
        if (rest) {
            const __m512i a = _mm512_maskz_loadu_epi16(m, lo + i);
            const __m512i b = hi ? _mm512_maskz_loadu_epi16(m, hi + i) : _mm512_setzero_si512();
            __m512i d0, d1;
            zip32(a, b, &d0, &d1);
            _mm512_mask_storeu_epi32(dst + i, m0, d0);
            _mm512_mask_storeu_epi32(dst + i + 16, m1, d1);
            mins = bf16_minexp_step(b, bf16_minexp_step(a, mins));
        }
    }
    const int e = bf16_minexp_reduce(mins);
    return e < emin ? e : emin;
}
