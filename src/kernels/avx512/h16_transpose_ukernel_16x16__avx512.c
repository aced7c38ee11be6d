/* AVX-512 widening transpose of fp16 / bf16 rows: each 16 x 16 block's rows
 * loaded as halves, widened in registers as f16_f32_cvt / bf16_f32_cvt do
 * (h16_widen__avx512.h), then f32_transpose's register transpose. One pass
 * over a 16-bit dy where a widening copy and a transpose of the copy took
 * two (contract: kernels/conv_ukernels.h). */
#include <immintrin.h>

#include "kernels/avx512/h16_widen__avx512.h"
#include "kernels/avx512/transpose16__avx512.h"
#include "kernels/conv_ukernels.h"

#define VL 16

static inline __attribute__((always_inline)) void blocks(const int bf16, size_t m, size_t n,
                                                         const uint16_t *src, size_t lds,
                                                         float *dst, size_t ldd, int quiet)
{
    for (size_t i0 = 0; i0 < m; i0 += VL) {
        const size_t mi = m - i0 < VL ? m - i0 : VL;
        const __mmask16 rows = (__mmask16)((1u << mi) - 1u);
        for (size_t j0 = 0; j0 < n; j0 += VL) {
            const size_t nj = n - j0 < VL ? n - j0 : VL;
            const __mmask16 cols = (__mmask16)((1u << nj) - 1u);
            __m512 r[16];
            for (int i = 0; i < VL; ++i) {
                if ((size_t)i >= mi) {
                    r[i] = _mm512_setzero_ps();
                    continue;
                }
                const __m256i h = _mm256_maskz_loadu_epi16(cols, src + (i0 + (size_t)i) * lds + j0);
                r[i] = bf16 ? bf16x16_quiet(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16), quiet)
                            : f16x16_widen(h, quiet);
            }
            transpose16(r);
            for (size_t j = 0; j < nj; ++j)
                _mm512_mask_storeu_ps(dst + (j0 + j) * ldd + i0, rows, r[j]);
        }
    }
}

void h16_transpose_ukernel_16x16__avx512(size_t m, size_t n, const uint16_t *src, size_t lds,
                                         float *dst, size_t ldd, int bf16, int quiet)
{
    if (bf16)
        blocks(1, m, n, src, lds, dst, ldd, quiet);
    else
        blocks(0, m, n, src, lds, dst, ldd, quiet);
}
