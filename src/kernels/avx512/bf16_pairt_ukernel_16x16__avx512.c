/* AVX-512 transpose of BF16 pairs with the guard's exponent scan: the
 * 16 x 16 blocks of f32_transpose_ukernel_16x16__avx512, each loaded row
 * scanned while in a register (contract: kernels/conv_ukernels.h). */
#include <immintrin.h>

#include "kernels/avx512/bf16_minexp__avx512.h"
#include "kernels/avx512/transpose16__avx512.h"
#include "kernels/conv_ukernels.h"

#define VL 16

int bf16_pairt_ukernel_16x16__avx512(size_t m, size_t n, const uint16_t *src, size_t lds,
                                     uint32_t *dst, size_t ldd, int emin)
{
    __m512i mins = _mm512_set1_epi16(255);
    for (size_t i0 = 0; i0 < m; i0 += VL) {
        const size_t mi = m - i0 < VL ? m - i0 : VL;
        const __mmask16 rows = (__mmask16)((1u << mi) - 1u);
        for (size_t j0 = 0; j0 < n; j0 += VL) {
            const size_t nj = n - j0 < VL ? n - j0 : VL;
            const __mmask16 cols = (__mmask16)((1u << nj) - 1u);
            __m512 r[16];
            for (int i = 0; i < VL; ++i) {
                /* (a row of pairs at any 2-byte offset: odd lds) */
                r[i] = (size_t)i < mi ? _mm512_castsi512_ps(_mm512_maskz_loadu_epi32(
                                            cols, src + (i0 + (size_t)i) * lds + 2 * j0))
                                      : _mm512_setzero_ps();
                mins = bf16_minexp_step(_mm512_castps_si512(r[i]), mins); /* zeros do not count */
            }
            transpose16(r);
            for (size_t j = 0; j < nj; ++j)
                _mm512_mask_storeu_epi32(dst + (j0 + j) * ldd + i0, rows,
                                         _mm512_castps_si512(r[j]));
        }
    }
    const int e = bf16_minexp_reduce(mins);
    return e < emin ? e : emin;
}
