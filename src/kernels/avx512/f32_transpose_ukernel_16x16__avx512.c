/* AVX-512 transpose: 16 x 16 blocks in registers (unpack, shuffle within
 * 128-bit lanes, then two rounds of 128-bit lane shuffles). Tails are masked:
 * exactly the elements named are read and written. */
#include <immintrin.h>

#include "kernels/avx512/transpose16__avx512.h"
#include "kernels/conv_ukernels.h"

#define VL 16

void f32_transpose_ukernel_16x16__avx512(size_t m, size_t n, const float *src, size_t lds, float *dst,
                                         size_t ldd)
{
    for (size_t i0 = 0; i0 < m; i0 += VL) {
        const size_t mi = m - i0 < VL ? m - i0 : VL;
        const __mmask16 rows = (__mmask16)((1u << mi) - 1u);
        for (size_t j0 = 0; j0 < n; j0 += VL) {
            const size_t nj = n - j0 < VL ? n - j0 : VL;
            const __mmask16 cols = (__mmask16)((1u << nj) - 1u);
            __m512 r[16];
            for (int i = 0; i < VL; ++i)
                r[i] = (size_t)i < mi ? _mm512_maskz_loadu_ps(cols, src + (i0 + (size_t)i) * lds + j0)
                                      : _mm512_setzero_ps();
            transpose16(r);
            for (size_t j = 0; j < nj; ++j) _mm512_mask_storeu_ps(dst + (j0 + j) * ldd + i0, rows, r[j]);
        }
    }
}
