/* AVX-512 bf16 rows zipped into pairs and split into W phases: 32 values of
 * each row a step; viewed as 32-bit words the rows already hold their even
 * values in the low halves and their odd ones in the high halves, so each
 * phase is one shift and one 16-bit blend (split2 and zip took two
 * permutes each and a round trip through a buffer). The exponent scan on
 * the way, the tail masked: the contract in cvt_ukernels.h. */
#include <immintrin.h>

#include "kernels/avx512/bf16_minexp__avx512.h"
#include "kernels/cvt_ukernels.h"

/* word i of *e = a[2i] | b[2i] << 16, of *o = a[2i + 1] | b[2i + 1] << 16 */
static inline __attribute__((always_inline)) void zip_split(__m512i a, __m512i b, __m512i *e,
                                                            __m512i *o)
{
    const __mmask32 high = 0xaaaaaaaau; /* the high half of every word */
    *e = _mm512_mask_blend_epi16(high, a, _mm512_slli_epi32(b, 16));
    *o = _mm512_mask_blend_epi16(high, _mm512_srli_epi32(a, 16), b);
}

int bf16_zip_split2_ukernel__avx512(size_t n, const uint16_t *lo, const uint16_t *hi,
                                    uint32_t *even, uint32_t *odd, int emin)
{
    __m512i mins = _mm512_set1_epi16(255);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512i a = _mm512_loadu_si512(lo + i);
        const __m512i b = hi ? _mm512_loadu_si512(hi + i) : _mm512_setzero_si512();
        __m512i e, o;
        zip_split(a, b, &e, &o);
        _mm512_storeu_si512(even + i / 2, e);
        _mm512_storeu_si512(odd + i / 2, o);
        mins = bf16_minexp_step(b, bf16_minexp_step(a, mins));
    }
    if (i < n) {
        const size_t rest = n - i, ne = (rest + 1) / 2, no = rest / 2;
        const __mmask32 m = (__mmask32)((1ull << rest) - 1);
        const __m512i a = _mm512_maskz_loadu_epi16(m, lo + i);
        const __m512i b = hi ? _mm512_maskz_loadu_epi16(m, hi + i) : _mm512_setzero_si512();
        __m512i e, o;
        zip_split(a, b, &e, &o);
        _mm512_mask_storeu_epi32(even + i / 2, (__mmask16)((1u << ne) - 1), e);
        _mm512_mask_storeu_epi32(odd + i / 2, (__mmask16)((1u << no) - 1), o);
        mins = bf16_minexp_step(b, bf16_minexp_step(a, mins));
    }
    const int e = bf16_minexp_reduce(mins);
    return e < emin ? e : emin;
}
