/* AVX-512 bf16 row split into its W phases: 64 values a step, two vpermt2w
 * (even and odd words of two vectors), the exponent scan on the way, the
 * tail masked: the contract in cvt_ukernels.h. */
#include <immintrin.h>

#include "kernels/avx512/bf16_minexp__avx512.h"
#include "kernels/cvt_ukernels.h"

static inline __attribute__((always_inline)) __m512i idx_even(void)
{
    return _mm512_set_epi16(62, 60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40, 38, 36, 34, 32, 30, 28,
                            26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
}

int bf16_split2_ukernel__avx512(size_t n, const uint16_t *src, uint16_t *even, uint16_t *odd,
                                int emin)
{
    const __m512i ie = idx_even(), io = _mm512_add_epi16(ie, _mm512_set1_epi16(1));
    __m512i mins = _mm512_set1_epi16(255);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        const __m512i a = _mm512_loadu_si512(src + i), b = _mm512_loadu_si512(src + i + 32);
        _mm512_storeu_si512(even + i / 2, _mm512_permutex2var_epi16(a, ie, b));
        _mm512_storeu_si512(odd + i / 2, _mm512_permutex2var_epi16(a, io, b));
        mins = bf16_minexp_step(b, bf16_minexp_step(a, mins));
    }
    if (i < n) {
        const size_t rest = n - i;
        const __mmask32 ma = (__mmask32)(rest >= 32 ? 0xffffffffu : (1ull << rest) - 1);
        const __mmask32 mb = (__mmask32)(rest > 32 ? (1ull << (rest - 32)) - 1 : 0);
        const __m512i a = _mm512_maskz_loadu_epi16(ma, src + i);
        const __m512i b = _mm512_maskz_loadu_epi16(mb, src + i + 32);
        const size_t ne = (rest + 1) / 2, no = rest / 2;
        _mm512_mask_storeu_epi16(even + i / 2, (__mmask32)((1ull << ne) - 1),
                                 _mm512_permutex2var_epi16(a, ie, b));
        _mm512_mask_storeu_epi16(odd + i / 2, (__mmask32)((1ull << no) - 1),
                                 _mm512_permutex2var_epi16(a, io, b));
        mins = bf16_minexp_step(b, bf16_minexp_step(a, mins));
    }
    const int e = bf16_minexp_reduce(mins);
    return e < emin ? e : emin;
}
