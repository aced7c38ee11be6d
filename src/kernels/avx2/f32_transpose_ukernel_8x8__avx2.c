/* AVX2 transpose: 8 x 8 blocks in registers (unpack, shuffle within
 * 128-bit lanes, then 128-bit lane permutes). Tails are masked: exactly the
 * elements named are read and written. */
#include <immintrin.h>

#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/avx2/transpose8__avx2.h"
#include "kernels/conv_ukernels.h"

#define VL 8

void f32_transpose_ukernel_8x8__avx2(size_t m, size_t n, const float *src, size_t lds, float *dst,
                                     size_t ldd)
{
    for (size_t i0 = 0; i0 < m; i0 += VL) {
        const size_t mi = m - i0 < VL ? m - i0 : VL;
        for (size_t j0 = 0; j0 < n; j0 += VL) {
            const size_t nj = n - j0 < VL ? n - j0 : VL;
            const __m256i cols = avx2_lane_mask(nj);
            __m256 r[8];
            for (int i = 0; i < VL; ++i)
                r[i] = (size_t)i < mi ? _mm256_maskload_ps(src + (i0 + (size_t)i) * lds + j0, cols)
                                      : _mm256_setzero_ps();
            transpose8(r);
            for (size_t j = 0; j < nj; ++j)
                avx2_store_n(dst + (j0 + j) * ldd + i0, (ptrdiff_t)mi, r[j]);
        }
    }
}
