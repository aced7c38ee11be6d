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
/* an instance's ROUND when the rounding kind comes at run time (kind) */
#define ROUND_ANY (-2)

static inline __mmask16 lanes(int64_t n)
{
    return n >= VL ? (__mmask16)0xffff : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << n) - 1u);
}

/* The phase's sum over its taps, t ascending from +0 (dwconv's order).
 * NT > 0: that many taps, weights in wv and offsets in ov (registers);
 * else nt taps, weights from w, offsets from toff. */
static inline __attribute__((always_inline)) __m512 phase_sum(const int NT, size_t nt,
                                                              const __m512 *wv, const ptrdiff_t *ov,
                                                              const float *w, const float *x,
                                                              const ptrdiff_t *toff, __mmask16 m)
{
    __m512 s = _mm512_setzero_ps();
    if (NT > 0) {
        _Pragma("GCC unroll 4") for (int t = 0; t < NT; ++t) s =
            _mm512_fmadd_ps(wv[t], _mm512_maskz_loadu_ps(m, x + ov[t]), s);
    } else {
        for (size_t t = 0; t < nt; ++t)
            s = _mm512_fmadd_ps(_mm512_set1_ps(w[t]), _mm512_maskz_loadu_ps(m, x + toff[t]), s);
    }
    return s;
}

/* One step: 16 columns of each W phase from column j of the phase rows,
 * rounded, interleaved into 32 columns of y at 2j; m0 / m1: the phases'
 * columns, s0 / s1: the two stores' (ROUND: the rounding kind, a constant
 * of the instance, or ROUND_ANY: kind; SHARE: see taps) */
static inline __attribute__((always_inline)) void
step(const int NT0, const int NT1, const int SHARE, const int ROUND, int kind, const size_t nt[2],
     const __m512 *w0, const __m512 *w1, const ptrdiff_t *o0, const ptrdiff_t *o1,
     const float *const w[2], const float *xj, const ptrdiff_t *const toff[2], float *yj,
     __mmask16 m0, __mmask16 m1, __mmask16 s0, __mmask16 s1)
{
    const __m512i lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i hi =
        _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    __m512 e, o;
    if (SHARE) {
        /* phase 1's tap 2k + 1 reads phase 0's tap k (m1 <= m0) */
        e = o = _mm512_setzero_ps();
        _Pragma("GCC unroll 2") for (int k = 0; k < NT0; ++k)
        {
            const __m512 a = _mm512_maskz_loadu_ps(m0, xj + o0[k]);
            e = _mm512_fmadd_ps(w0[k], a, e);
            o = _mm512_fmadd_ps(w1[2 * k], _mm512_maskz_loadu_ps(m1, xj + o1[2 * k]), o);
            o = _mm512_fmadd_ps(w1[2 * k + 1], a, o);
        }
    } else {
        e = phase_sum(NT0, nt[0], w0, o0, w[0], xj, toff[0], m0);
        o = phase_sum(NT1, nt[1], w1, o1, w[1], xj, toff[1], m1);
    }
    if (ROUND != F32_ROUND_NONE) {
        e = f32x16_round(e, ROUND == ROUND_ANY ? kind : ROUND);
        o = f32x16_round(o, ROUND == ROUND_ANY ? kind : ROUND);
    }
    _mm512_mask_storeu_ps(yj, s0, _mm512_permutex2var_ps(e, lo, o));
    _mm512_mask_storeu_ps(yj + VL, s1, _mm512_permutex2var_ps(e, hi, o));
}

/* The taps' offsets and weights are copied into locals first: the
 * intrinsic stores may alias anything, so gcc reloaded toff[u][t] from
 * memory after every store (dw_3x3_s2's gradInput: the kernel at ~1800
 * cycles a 56 x 56 plane, 60% of the pass without its stream out). Full
 * steps (16 columns of both phases, 32 stored) take no masks; the one
 * part step a row may end with has its masks computed once a call. */
static inline __attribute__((always_inline)) void
body(const int NT0, const int NT1, const int SHARE, const int ROUND, size_t rows, size_t ncol,
     const size_t nt[2], const float *const w[2], const float *x, size_t xrs,
     const ptrdiff_t *const toff[2], float *y, size_t yrs, int kind)
{
    __m512 w0[4], w1[4];
    ptrdiff_t o0[4], o1[4];
#pragma GCC unroll 4
    for (int t = 0; t < NT0; ++t) {
        w0[t] = _mm512_set1_ps(w[0][t]);
        o0[t] = toff[0][t];
    }
#pragma GCC unroll 4
    for (int t = 0; t < NT1; ++t) {
        w1[t] = _mm512_set1_ps(w[1][t]);
        o1[t] = toff[1][t];
    }
    const int64_t n0 = (int64_t)(ncol + 1) / 2, n1 = (int64_t)ncol / 2; /* columns per phase */
    /* steps with 16 columns of phase 1 have 16 of phase 0 (n0 >= n1) and 32
     * output columns; after them at most one step is left (n0 <= n1 + 1) */
    const int64_t full = n1 / VL * VL, c = (int64_t)ncol - 2 * full;
    const __mmask16 m0 = lanes(n0 - full), m1 = lanes(n1 - full), s0 = lanes(c), s1 = lanes(c - VL);
    for (size_t i = 0; i < rows; ++i) {
        const float *xi = x + i * xrs;
        float *yi = y + i * yrs;
        for (int64_t j = 0; j < full; j += VL)
            step(NT0, NT1, SHARE, ROUND, kind, nt, w0, w1, o0, o1, w, xi + j, toff, yi + 2 * j,
                 (__mmask16)0xffff, (__mmask16)0xffff, (__mmask16)0xffff, (__mmask16)0xffff);
        if (full < n0)
            step(NT0, NT1, SHARE, ROUND, kind, nt, w0, w1, o0, o1, w, xi + full, toff,
                 yi + 2 * full, m0, m1, s0, s1);
    }
}

/* the tap counts of a 3x3's output H phases as constants (pad 1: even rows
 * 1 + 2 taps, odd rows 2 + 4), with results unrounded or rounded; SHARE
 * where phase 1's taps of a row tap sit at phase 0's shift + 1 and at its
 * shift (padding 1, the planes' order of taps): phase 0's load serves both
 * phases, 2 of 3 loads a step (4 of 6) with the sums and their order
 * unchanged; one plane in L1 (aclconv_kernel_bench) -15%. */
static inline __attribute__((always_inline)) void
taps(const int ROUND, size_t rows, size_t ncol, const size_t nt[2], const float *const w[2],
     const float *x, size_t xrs, const ptrdiff_t *const toff[2], float *y, size_t yrs, int kind)
{
    if (nt[0] == 1 && nt[1] == 2 && toff[0][0] == toff[1][1])
        body(1, 2, 1, ROUND, rows, ncol, nt, w, x, xrs, toff, y, yrs, kind);
    else if (nt[0] == 1 && nt[1] == 2)
        body(1, 2, 0, ROUND, rows, ncol, nt, w, x, xrs, toff, y, yrs, kind);
    else if (nt[0] == 2 && nt[1] == 4 && toff[0][0] == toff[1][1] && toff[0][1] == toff[1][3])
        body(2, 4, 1, ROUND, rows, ncol, nt, w, x, xrs, toff, y, yrs, kind);
    else if (nt[0] == 2 && nt[1] == 4)
        body(2, 4, 0, ROUND, rows, ncol, nt, w, x, xrs, toff, y, yrs, kind);
    else
        body(0, 0, 0, ROUND, rows, ncol, nt, w, x, xrs, toff, y, yrs, kind);
}

void f32_dwconv_s2_ukernel_32__avx512(size_t rows, size_t ncol, const size_t nt[2],
                                      const float *const w[2], const float *x, size_t xrs,
                                      const ptrdiff_t *const toff[2], float *y, size_t yrs,
                                      int yround)
{
    if (yround == F32_ROUND_NONE)
        taps(F32_ROUND_NONE, rows, ncol, nt, w, x, xrs, toff, y, yrs, yround);
    else
        taps(ROUND_ANY, rows, ncol, nt, w, x, xrs, toff, y, yrs, yround);
}
