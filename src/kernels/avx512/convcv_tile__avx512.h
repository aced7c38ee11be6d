/* The channel-vector kernels' tile I/O (f32_convcv / bf16_convcv 32x14):
 * a half of 16 channels x nr positions held as nr vectors of 16 channels,
 * transposed in registers from and to y[m*ldy + j*ystep]. Shared by the
 * kernels that include it (compiled with AVX-512 flags). */
#ifndef ACLCONV_CONVCV_TILE_AVX512_H_
#define ACLCONV_CONVCV_TILE_AVX512_H_

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/avx512/f32_narrow__avx512.h"
#include "kernels/avx512/transpose16__avx512.h"

/* The even 32-bit lanes (fp32) or 16-bit words (bf16) of 2 * nr: positions
 * j < nr stored at step 2, the other output phase's elements left alone. */
static inline uint32_t step2_mask(int nr)
{
    uint32_t even = 0;
    for (int j = 0; j < nr; ++j)
        even |= 1u << (2 * j);
    return even;
}

/* y[m*ldy + j*ystep] for m < rows, j < nr into r, transposed: r[j] holds
 * position j of 16 channels (rows m >= rows are 0) */
static inline __attribute__((always_inline)) void
load_half(__m512 r[16], int nr, size_t rows, const float *y, size_t ldy, size_t ystep)
{
    const __mmask16 cols = (__mmask16)((1u << nr) - 1u);
    for (int m = 0; m < 16; ++m) {
        r[m] = _mm512_setzero_ps();
        if ((size_t)m < rows && ystep == 1) r[m] = _mm512_maskz_loadu_ps(cols, y + (size_t)m * ldy);
        if ((size_t)m < rows && ystep != 1) {
            float v[16] = {0};
            for (int j = 0; j < nr; ++j)
                v[j] = y[(size_t)m * ldy + (size_t)j * ystep];
            r[m] = _mm512_loadu_ps(v);
        }
    }
    transpose16(r);
}

/* the inverse: r[j] for j < nr back to y[m*ldy + j*ystep], only m < rows */
static inline __attribute__((always_inline)) void store_half(__m512 r[16], int nr, size_t rows,
                                                             float *y, size_t ldy, size_t ystep)
{
    const __mmask16 cols = (__mmask16)((1u << nr) - 1u);
#pragma GCC unroll 16
    for (int j = nr; j < 16; ++j)
        r[j] = _mm512_setzero_ps();
    transpose16(r);
    if (ystep == 1) {
#pragma GCC unroll 16
        for (int m = 0; m < 16; ++m)
            if ((size_t)m < rows) _mm512_mask_storeu_ps(y + (size_t)m * ldy, cols, r[m]);
    } else if (ystep == 2) {
        /* the interleaved output phases of a stride-2 gradInput: positions
         * spread to the even lanes of two vectors, masked stores leave the
         * odd lanes (another phase's) alone */
        const __m512i lo = _mm512_set_epi32(7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
        const __m512i hi =
            _mm512_set_epi32(15, 15, 14, 14, 13, 13, 12, 12, 11, 11, 10, 10, 9, 9, 8, 8);
        const uint32_t even = step2_mask(nr);
        const __mmask16 klo = (__mmask16)(even & 0xffffu), khi = (__mmask16)(even >> 16);
#pragma GCC unroll 16
        for (int m = 0; m < 16; ++m) {
            if ((size_t)m >= rows) continue;
            float *ym = y + (size_t)m * ldy;
            _mm512_mask_storeu_ps(ym, klo, _mm512_permutexvar_ps(lo, r[m]));
            if (khi) _mm512_mask_storeu_ps(ym + 16, khi, _mm512_permutexvar_ps(hi, r[m]));
        }
    } else {
        for (int m = 0; m < 16; ++m) {
            if ((size_t)m >= rows) continue;
            float v[16];
            _mm512_storeu_ps(v, r[m]);
            for (int j = 0; j < nr; ++j)
                y[(size_t)m * ldy + (size_t)j * ystep] = v[j];
        }
    }
}

/* f32_narrow's bf16 rounding (ties to even, NaNs quieted) in integer
 * instructions */
static inline __attribute__((always_inline)) __m256i narrow_bf16(__m512 x)
{
    return narrow16(x, 1);
}

/* f32_narrow's fp16 rounding: vcvtps2ph, ties to even (NaNs quieted with
 * the top payload bits, as f32_to_f16) */
static inline __attribute__((always_inline)) __m256i narrow_f16(__m512 x)
{
    return narrow16(x, 0);
}

/* store_half for a BF16 y: each value narrowed to bf16 by narrow (a
 * constant: narrow_bf16, or an instruction with the same results on the
 * caller's values), y[m*ldy + j*ystep] 16-bit */
static inline __attribute__((always_inline)) void store_half_bf16(__m512 r[16], int nr, size_t rows,
                                                                  uint16_t *y, size_t ldy,
                                                                  size_t ystep,
                                                                  __m256i (*narrow)(__m512))
{
    for (int j = nr; j < 16; ++j)
        r[j] = _mm512_setzero_ps();
    transpose16(r);
    const __mmask16 cols = (__mmask16)((1u << nr) - 1u);
    const uint32_t even = step2_mask(nr); /* ystep 2 */
    for (int m = 0; m < 16; ++m) {
        if ((size_t)m >= rows) continue;
        const __m256i h = narrow(r[m]);
        uint16_t *ym = y + (size_t)m * ldy;
        if (ystep == 1) {
            _mm256_mask_storeu_epi16(ym, cols, h);
        } else if (ystep == 2) {
            /* word j to word 2j: the other output phase's words are left alone */
            _mm512_mask_storeu_epi16(ym, (__mmask32)even, _mm512_cvtepu16_epi32(h));
        } else {
            uint16_t v[16];
            _mm256_storeu_si256((__m256i *)v, h);
            for (int j = 0; j < nr; ++j)
                ym[(size_t)j * ystep] = v[j];
        }
    }
}

/* A tile's running sums, `halves` channel halves of 16 (mr channels: the
 * low half's rows are the first min(mr, 16)) x nr positions: from y
 * (accumulate) or from 0. */
static inline __attribute__((always_inline)) void tile_start(__m512 lo[16], __m512 hi[16], int nr,
                                                             int halves, size_t mr, const float *y,
                                                             size_t ldy, size_t ystep,
                                                             int accumulate)
{
    const size_t rows_lo = mr < 16 ? mr : 16;
    if (accumulate) {
        load_half(lo, nr, rows_lo, y, ldy, ystep);
        if (halves == 2) load_half(hi, nr, mr - rows_lo, y + 16 * ldy, ldy, ystep);
    } else {
#pragma GCC unroll 16
        for (int j = 0; j < nr; ++j) {
            lo[j] = _mm512_setzero_ps();
            if (halves == 2) hi[j] = _mm512_setzero_ps();
        }
    }
}

/* The tile's sums stored at y[m*ldy + j*ystep]: floats, or with ybf16 a
 * BF16 y, each sum narrowed by narrow (store_half_bf16). */
static inline __attribute__((always_inline)) void tile_finish(__m512 lo[16], __m512 hi[16], int nr,
                                                              int halves, size_t mr, void *y,
                                                              size_t ldy, size_t ystep, int ybf16,
                                                              __m256i (*narrow)(__m512))
{
    const size_t rows_lo = mr < 16 ? mr : 16;
    if (ybf16) {
        uint16_t *y16 = (uint16_t *)y;
        store_half_bf16(lo, nr, rows_lo, y16, ldy, ystep, narrow);
        if (halves == 2) store_half_bf16(hi, nr, mr - rows_lo, y16 + 16 * ldy, ldy, ystep, narrow);
    } else {
        float *y32 = (float *)y;
        store_half(lo, nr, rows_lo, y32, ldy, ystep);
        if (halves == 2) store_half(hi, nr, mr - rows_lo, y32 + 16 * ldy, ldy, ystep);
    }
}

#endif /* ACLCONV_CONVCV_TILE_AVX512_H_ */
