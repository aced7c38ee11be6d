/* AVX-512 transpose: 16 x 16 blocks in registers (unpack, shuffle within
 * 128-bit lanes, then two rounds of 128-bit lane shuffles). Tails are masked:
 * exactly the elements named are read and written. */
#include <immintrin.h>

#include "kernels/conv_ukernels.h"

#define VL 16

static inline __attribute__((always_inline)) void transpose16(__m512 r[16])
{
    __m512 t[16];
    for (int i = 0; i < 8; ++i) {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    /* t[4q + 0..3] from rows 4q..4q+3: columns 4k + {0,1} (lo) and {2,3} (hi) */
    for (int q = 0; q < 4; ++q) {
        r[4 * q + 0] = _mm512_shuffle_ps(t[4 * q + 0], t[4 * q + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[4 * q + 1] = _mm512_shuffle_ps(t[4 * q + 0], t[4 * q + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[4 * q + 2] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[4 * q + 3] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    /* then two rounds of 128-bit block shuffles: r[k] = column k */
    for (int k = 0; k < 4; ++k) {
        t[k] = _mm512_shuffle_f32x4(r[k], r[4 + k], 0x88);
        t[4 + k] = _mm512_shuffle_f32x4(r[k], r[4 + k], 0xdd);
        t[8 + k] = _mm512_shuffle_f32x4(r[8 + k], r[12 + k], 0x88);
        t[12 + k] = _mm512_shuffle_f32x4(r[8 + k], r[12 + k], 0xdd);
    }
    for (int k = 0; k < 8; ++k) {
        r[k] = _mm512_shuffle_f32x4(t[k], t[8 + k], 0x88);
        r[8 + k] = _mm512_shuffle_f32x4(t[k], t[8 + k], 0xdd);
    }
}

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
