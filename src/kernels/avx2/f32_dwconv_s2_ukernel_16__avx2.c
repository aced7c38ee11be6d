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
 * NT > 0: that many taps, weights in wv; else nt taps, weights from w. */
static inline __attribute__((always_inline)) __m256 phase_sum(const int NT, size_t nt,
                                                              const __m256 *wv, const float *w,
                                                              const float *x, const ptrdiff_t *toff,
                                                              int64_t n)
{
    __m256 s = _mm256_setzero_ps();
    if (NT > 0) {
        _Pragma("GCC unroll 4") for (int t = 0; t < NT; ++t) s =
            _mm256_fmadd_ps(wv[t], avx2_load_n(x + toff[t], n), s);
    } else {
        for (size_t t = 0; t < nt; ++t)
            s = _mm256_fmadd_ps(_mm256_broadcast_ss(w + t), avx2_load_n(x + toff[t], n), s);
    }
    return s;
}

static inline __attribute__((always_inline)) void body(const int NT0, const int NT1, size_t rows,
                                                       size_t ncol, const size_t nt[2],
                                                       const float *const w[2], const float *x,
                                                       size_t xrs, const ptrdiff_t *const toff[2],
                                                       float *y, size_t yrs, int yround)
{
    __m256 w0[4], w1[4];
    _Pragma("GCC unroll 4") for (int t = 0; t < NT0; ++t) w0[t] = _mm256_set1_ps(w[0][t]);
    _Pragma("GCC unroll 4") for (int t = 0; t < NT1; ++t) w1[t] = _mm256_set1_ps(w[1][t]);
    const int64_t n0 = (int64_t)(ncol + 1) / 2, n1 = (int64_t)ncol / 2; /* columns per phase */
    for (size_t i = 0; i < rows; ++i) {
        const float *xi = x + i * xrs;
        float *yi = y + i * yrs;
        for (int64_t j = 0; j < n0; j += VL) {
            const __m256 e =
                f32x8_round(phase_sum(NT0, nt[0], w0, w[0], xi + j, toff[0], n0 - j), yround);
            const __m256 o =
                f32x8_round(phase_sum(NT1, nt[1], w1, w[1], xi + j, toff[1], n1 - j), yround);
            const __m256 a = _mm256_unpacklo_ps(e, o), b = _mm256_unpackhi_ps(e, o);
            const int64_t c = (int64_t)ncol - 2 * j; /* columns left from 2j */
            avx2_store_n(yi + 2 * j, c, _mm256_permute2f128_ps(a, b, 0x20));
            avx2_store_n(yi + 2 * j + VL, c - VL, _mm256_permute2f128_ps(a, b, 0x31));
        }
    }
}

void f32_dwconv_s2_ukernel_16__avx2(size_t rows, size_t ncol, const size_t nt[2],
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
