/* AVX2 depthwise correlation at a W stride of 2, both W output phases: 8
 * columns of each phase a step, interleaved in registers (unpacks, then a
 * lane permute) into 16 consecutive columns of the output row. The weights
 * of a 3x3 (1 + 2 or 2 + 4 taps) stay in registers for the call. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx2/f32_round__avx2.h"
#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/dw_ukernels.h"

#define VL 8

/* The phase's sum over its taps, t ascending from +0 (dwconv's order).
 * NT > 0: that many taps, weights in wv and offsets in ov (registers);
 * else nt taps, weights from w, offsets from toff. n: the columns to load
 * (8 or more: a whole vector). */
static inline __attribute__((always_inline)) __m256 phase_sum(const int NT, size_t nt,
                                                              const __m256 *wv, const ptrdiff_t *ov,
                                                              const float *w, const float *x,
                                                              const ptrdiff_t *toff, int64_t n)
{
    __m256 s = _mm256_setzero_ps();
    if (NT > 0) {
        _Pragma("GCC unroll 4") for (int t = 0; t < NT; ++t) s =
            _mm256_fmadd_ps(wv[t], avx2_load_n(x + ov[t], n), s);
    } else {
        for (size_t t = 0; t < nt; ++t)
            s = _mm256_fmadd_ps(_mm256_broadcast_ss(w + t), avx2_load_n(x + toff[t], n), s);
    }
    return s;
}

/* One step: 8 columns of each W phase from column j of the phase rows into
 * 16 columns of y at 2j; n0 / n1: the phases' columns left, c: the row's
 * (from 2j). SHARE: see taps. */
static inline __attribute__((always_inline)) void
step(const int NT0, const int NT1, const int SHARE, int yround, const size_t nt[2],
     const __m256 *w0, const __m256 *w1, const ptrdiff_t *o0, const ptrdiff_t *o1,
     const float *const w[2], const float *xj, const ptrdiff_t *const toff[2], float *yj,
     int64_t n0, int64_t n1, int64_t c)
{
    __m256 e, o;
    if (SHARE) {
        /* phase 1's tap 2k + 1 reads phase 0's tap k (n1 <= n0: its lanes
         * past n1 are never stored) */
        e = o = _mm256_setzero_ps();
        _Pragma("GCC unroll 2") for (int k = 0; k < NT0; ++k)
        {
            const __m256 a = avx2_load_n(xj + o0[k], n0);
            e = _mm256_fmadd_ps(w0[k], a, e);
            o = _mm256_fmadd_ps(w1[2 * k], avx2_load_n(xj + o1[2 * k], n1), o);
            o = _mm256_fmadd_ps(w1[2 * k + 1], a, o);
        }
    } else {
        e = phase_sum(NT0, nt[0], w0, o0, w[0], xj, toff[0], n0);
        o = phase_sum(NT1, nt[1], w1, o1, w[1], xj, toff[1], n1);
    }
    e = f32x8_round(e, yround);
    o = f32x8_round(o, yround);
    const __m256 a = _mm256_unpacklo_ps(e, o), b = _mm256_unpackhi_ps(e, o);
    avx2_store_n(yj, c, _mm256_permute2f128_ps(a, b, 0x20));
    avx2_store_n(yj + VL, c - VL, _mm256_permute2f128_ps(a, b, 0x31));
}

/* The taps' offsets are copied into locals first: the intrinsic stores may
 * alias anything, so toff[u][t] was reloaded after every store (as in the
 * AVX-512 kernel). Full steps (8 columns of both phases, 16 stored) come
 * first; after them at most one part step is left per row. */
static inline __attribute__((always_inline)) void
body(const int NT0, const int NT1, const int SHARE, size_t rows, size_t ncol, const size_t nt[2],
     const float *const w[2], const float *x, size_t xrs, const ptrdiff_t *const toff[2], float *y,
     size_t yrs, int yround)
{
    __m256 w0[4], w1[4];
    ptrdiff_t o0[4], o1[4];
#pragma GCC unroll 4
    for (int t = 0; t < NT0; ++t) {
        w0[t] = _mm256_set1_ps(w[0][t]);
        o0[t] = toff[0][t];
    }
#pragma GCC unroll 4
    for (int t = 0; t < NT1; ++t) {
        w1[t] = _mm256_set1_ps(w[1][t]);
        o1[t] = toff[1][t];
    }
    const int64_t n0 = (int64_t)(ncol + 1) / 2, n1 = (int64_t)ncol / 2; /* columns per phase */
    const int64_t full = n1 / VL * VL;
    for (size_t i = 0; i < rows; ++i) {
        const float *xi = x + i * xrs;
        float *yi = y + i * yrs;
        for (int64_t j = 0; j < full; j += VL)
            step(NT0, NT1, SHARE, yround, nt, w0, w1, o0, o1, w, xi + j, toff, yi + 2 * j, VL, VL,
                 2 * VL);
        if (full < n0)
            step(NT0, NT1, SHARE, yround, nt, w0, w1, o0, o1, w, xi + full, toff, yi + 2 * full,
                 n0 - full, n1 - full, (int64_t)ncol - 2 * full);
    }
}

void f32_dwconv_s2_ukernel_16__avx2(size_t rows, size_t ncol, const size_t nt[2],
                                    const float *const w[2], const float *x, size_t xrs,
                                    const ptrdiff_t *const toff[2], float *y, size_t yrs,
                                    int yround)
{
    /* a 3x3's even (1 + 2 taps) and odd (2 + 4) output rows at pad 1; SHARE
     * where phase 1's taps of a row tap sit at phase 0's shift + 1 and at
     * its shift (the planes' order of taps, as in the AVX-512 kernel): 2 of
     * 3 loads a step (4 of 6), the sums and their order unchanged */
    if (nt[0] == 1 && nt[1] == 2 && toff[0][0] == toff[1][1])
        body(1, 2, 1, rows, ncol, nt, w, x, xrs, toff, y, yrs, yround);
    else if (nt[0] == 1 && nt[1] == 2)
        body(1, 2, 0, rows, ncol, nt, w, x, xrs, toff, y, yrs, yround);
    else if (nt[0] == 2 && nt[1] == 4 && toff[0][0] == toff[1][1] && toff[0][1] == toff[1][3])
        body(2, 4, 1, rows, ncol, nt, w, x, xrs, toff, y, yrs, yround);
    else if (nt[0] == 2 && nt[1] == 4)
        body(2, 4, 0, rows, ncol, nt, w, x, xrs, toff, y, yrs, yround);
    else
        body(0, 0, 0, rows, ncol, nt, w, x, xrs, toff, y, yrs, yround);
}
