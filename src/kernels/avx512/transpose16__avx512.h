/* AVX-512 16 x 16 transpose in registers (unpack, shuffle within 128-bit
 * lanes, then two rounds of 128-bit lane shuffles): r[k] becomes column k.
 * Shared by the kernels that include it (compiled with AVX-512 flags). */
#ifndef ACLCONV_TRANSPOSE16_AVX512_H_
#define ACLCONV_TRANSPOSE16_AVX512_H_

#include <immintrin.h>
#include <stddef.h>

static inline __attribute__((always_inline)) void transpose16(__m512 r[16])
{
    __m512 t[16];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    /* t[4q + 0..3] from rows 4q..4q+3: columns 4k + {0,1} (lo) and {2,3} (hi) */
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) {
        r[4 * q + 0] = _mm512_shuffle_ps(t[4 * q + 0], t[4 * q + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[4 * q + 1] = _mm512_shuffle_ps(t[4 * q + 0], t[4 * q + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[4 * q + 2] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[4 * q + 3] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    /* then two rounds of 128-bit block shuffles: r[k] = column k */
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
        t[k] = _mm512_shuffle_f32x4(r[k], r[4 + k], 0x88);
        t[4 + k] = _mm512_shuffle_f32x4(r[k], r[4 + k], 0xdd);
        t[8 + k] = _mm512_shuffle_f32x4(r[8 + k], r[12 + k], 0x88);
        t[12 + k] = _mm512_shuffle_f32x4(r[8 + k], r[12 + k], 0xdd);
    }
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
        r[k] = _mm512_shuffle_f32x4(t[k], t[8 + k], 0x88);
        r[8 + k] = _mm512_shuffle_f32x4(t[k], t[8 + k], 0xdd);
    }
}

/* Row i of a transpose's source, lanes j0 .. j0 + 15 (those outside cols
 * zero), as 16 32-bit lanes; ctx is the kernel's own state. */
typedef __m512 (*transpose16_load_fn)(void *ctx, size_t i, size_t j0, __mmask16 cols);

/* The 16 x 16 blocks of an m x n transpose of 32-bit lanes: each block's
 * rows from load (a constant, inlined), transposed in registers, stored as
 * dst[j*ldd + i] for i < m, j < n; tails masked, so exactly the elements
 * named are read and written. The walk of f32_transpose, h16_transpose
 * and bf16_pairt, which differ in their loads. */
static inline __attribute__((always_inline)) void
transpose16_blocks(size_t m, size_t n, float *dst, size_t ldd, transpose16_load_fn load, void *ctx)
{
    for (size_t i0 = 0; i0 < m; i0 += 16) {
        const size_t mi = m - i0 < 16 ? m - i0 : 16;
        const __mmask16 rows = (__mmask16)((1u << mi) - 1u);
        for (size_t j0 = 0; j0 < n; j0 += 16) {
            const size_t nj = n - j0 < 16 ? n - j0 : 16;
            const __mmask16 cols = (__mmask16)((1u << nj) - 1u);
            __m512 r[16];
            for (size_t i = 0; i < 16; ++i)
                r[i] = i < mi ? load(ctx, i0 + i, j0, cols) : _mm512_setzero_ps();
            transpose16(r);
            for (size_t j = 0; j < nj; ++j)
                _mm512_mask_storeu_ps(dst + (j0 + j) * ldd + i0, rows, r[j]);
        }
    }
}

#endif
