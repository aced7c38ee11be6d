/* AVX-512 bf16 padded rows (the contract in cvt_ukernels.h): f32_padrows's
 * scheme on 32 halves a step, the exponent scan's minima kept in a vector
 * across all rows and reduced once. */
#include <immintrin.h>

#include "kernels/avx512/bf16_minexp__avx512.h"
#include "kernels/cvt_ukernels.h"

/* lanes l < n set (n >= 32: all) */
static inline __mmask32 below32(size_t n)
{
    return n >= 32 ? (__mmask32)0xffffffffu : (__mmask32)((1u << n) - 1u);
}

/* zeros in d[0, n) */
static inline void zero_run(uint16_t *d, size_t n)
{
    for (size_t j = 0; j < n; j += 32)
        _mm512_mask_storeu_epi16(d + j, below32(n - j), _mm512_setzero_si512());
}

int bf16_padrows_ukernel__avx512(size_t rows, size_t wp, size_t lo, size_t hi, const uint16_t *src,
                                 size_t lds, uint16_t *dst, size_t ldd, int emin)
{
    const size_t n = hi - lo, full = n / 32 * 32;
    const __mmask32 tail = below32(n - full);
    __m512i mins = _mm512_set1_epi16(255);
    for (size_t r = 0; r < rows; ++r) {
        const uint16_t *s = src + r * lds;
        uint16_t *d = dst + r * ldd;
        zero_run(d, lo);
        for (size_t i = 0; i < full; i += 32) {
            const __m512i v = _mm512_loadu_si512(s + i);
            _mm512_storeu_si512(d + lo + i, v);
            mins = bf16_minexp_step(v, mins);
        }
        if (tail) {
            const __m512i v = _mm512_maskz_loadu_epi16(tail, s + full);
            _mm512_mask_storeu_epi16(d + lo + full, tail, v);
            mins = bf16_minexp_step(v, mins); /* (the zeroed lanes are not counted) */
        }
        zero_run(d + hi, wp - hi);
    }
    const int e = bf16_minexp_reduce(mins);
    return e < emin ? e : emin;
}
