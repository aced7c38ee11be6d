/* AVX-512 bf16 smallest exponent (and copy), 32 halves a step, the tail
 * masked: the contract in cvt_ukernels.h. */
#include <immintrin.h>

#include "kernels/avx512/bf16_minexp__avx512.h"
#include "kernels/cvt_ukernels.h"

int bf16_minexp_ukernel__avx512(size_t n, const uint16_t *src, uint16_t *dst, int emin)
{
    __m512i mins = _mm512_set1_epi16(255);
    size_t i = 0;
    if (dst)
        for (; i + 32 <= n; i += 32) {
            const __m512i v = _mm512_loadu_si512(src + i);
            _mm512_storeu_si512(dst + i, v);
            mins = bf16_minexp_step(v, mins);
        }
    else
        for (; i + 32 <= n; i += 32)
            mins = bf16_minexp_step(_mm512_loadu_si512(src + i), mins);
    if (i < n && n >= 32) {
        /* the last 32 whole: min and the copy are idempotent over the
         * overlap, and a full load does not wait as a masked one did on
         * Zen 4 (~half of this kernel's samples in r50_c4_1x1's guard) */
        const __m512i v = _mm512_loadu_si512(src + n - 32);
        if (dst) _mm512_storeu_si512(dst + n - 32, v);
        mins = bf16_minexp_step(v, mins);
    } else if (i < n) {
        const __mmask32 m = (__mmask32)((1ull << (n - i)) - 1);
        const __m512i v = _mm512_maskz_loadu_epi16(m, src + i);
        if (dst) _mm512_mask_storeu_epi16(dst + i, m, v);
        mins = bf16_minexp_step(v, mins); /* the zeroed lanes are not counted */
    }
    const int e = bf16_minexp_reduce(mins);
    return e < emin ? e : emin;
}
