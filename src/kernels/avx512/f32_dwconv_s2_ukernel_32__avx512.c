/* AVX-512 depthwise correlation at a W stride of 2, both W output phases:
 * 16 columns of each phase a step, interleaved in registers (two vpermt2ps)
 * into 32 consecutive columns of the output row. Through a grid per phase
 * and a merging copy (f32_merge2, since removed), dw_3x3_s2's gradInput
 * spent more time merging than computing. The weights of a 3x3 (1 + 2 or
 * 2 + 4 taps) stay in registers for the call; other tap counts broadcast
 * from memory. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/dw_ukernels.h"

#define VL 16

static inline __mmask16 lanes(int64_t n)
{
    return n >= VL ? (__mmask16)0xffff : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << n) - 1u);
}

/* The phase's sum over its taps, t ascending from +0 (dwconv's order).
 * NT > 0: that many taps, weights in wv; else nt taps, weights from w. */
static inline __attribute__((always_inline)) __m512 phase_sum(const int NT, size_t nt,
                                                              const __m512 *wv, const float *w,
                                                              const float *x, const ptrdiff_t *toff,
                                                              __mmask16 m)
{
    __m512 s = _mm512_setzero_ps();
    if (NT > 0) {
        _Pragma("GCC unroll 4") for (int t = 0; t < NT; ++t) s =
            _mm512_fmadd_ps(wv[t], _mm512_maskz_loadu_ps(m, x + toff[t]), s);
    } else {
        for (size_t t = 0; t < nt; ++t)
            s = _mm512_fmadd_ps(_mm512_set1_ps(w[t]), _mm512_maskz_loadu_ps(m, x + toff[t]), s);
    }
    return s;
}

static inline __attribute__((always_inline)) void body(const int NT0, const int NT1, size_t rows,
                                                       size_t ncol, const size_t nt[2],
                                                       const float *const w[2], const float *x,
                                                       size_t xrs, const ptrdiff_t *const toff[2],
                                                       float *y, size_t yrs, int yround)
{
    __m512 w0[4], w1[4];
    _Pragma("GCC unroll 4") for (int t = 0; t < NT0; ++t) w0[t] = _mm512_set1_ps(w[0][t]);
    _Pragma("GCC unroll 4") for (int t = 0; t < NT1; ++t) w1[t] = _mm512_set1_ps(w[1][t]);
    const int64_t n0 = (int64_t)(ncol + 1) / 2, n1 = (int64_t)ncol / 2; /* columns per phase */
    const __m512i lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i hi =
        _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    for (size_t i = 0; i < rows; ++i) {
        const float *xi = x + i * xrs;
        float *yi = y + i * yrs;
        for (int64_t j = 0; j < n0; j += VL) {
            __m512 e = phase_sum(NT0, nt[0], w0, w[0], xi + j, toff[0], lanes(n0 - j));
            __m512 o = phase_sum(NT1, nt[1], w1, w[1], xi + j, toff[1], lanes(n1 - j));
            e = f32x16_round(e, yround);
            o = f32x16_round(o, yround);
            const int64_t c = (int64_t)ncol - 2 * j; /* columns left from 2j */
            _mm512_mask_storeu_ps(yi + 2 * j, lanes(c), _mm512_permutex2var_ps(e, lo, o));
            _mm512_mask_storeu_ps(yi + 2 * j + VL, lanes(c - VL), _mm512_permutex2var_ps(e, hi, o));
        }
    }
}

void f32_dwconv_s2_ukernel_32__avx512(size_t rows, size_t ncol, const size_t nt[2],
                                      const float *const w[2], const float *x, size_t xrs,
                                      const ptrdiff_t *const toff[2], float *y, size_t yrs,
                                      int yround)
{
    if (nt[0] == 1 && nt[1] == 2) /* a 3x3's even output rows (pad 1) */
        body(1, 2, rows, ncol, nt, w, x, xrs, toff, y, yrs, yround);
    else if (nt[0] == 2 && nt[1] == 4) /* its odd rows */
        body(2, 4, rows, ncol, nt, w, x, xrs, toff, y, yrs, yround);
    else
        body(0, 0, rows, ncol, nt, w, x, xrs, toff, y, yrs, yround);
}
