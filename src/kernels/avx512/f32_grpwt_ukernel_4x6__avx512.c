/* AVX-512 grouped weight-gradient dot products: up to 4 rows of a (dy of 4
 * output channels) x 6 rows of b ((channel, tap) rows of x), 24 zmm of
 * partial sums kept over every row of the call; the a vectors are loaded once
 * per step, each b vector once and used by the mr FMAs. Remainders of a row
 * are masked loads (every load is, with a full mask but for the last). */
#include <immintrin.h>

#include "kernels/grp_ukernels.h"

#define VL 16
#define NR 6

static inline __attribute__((always_inline)) void body(const int M, size_t nr, size_t rows,
                                                       size_t len, const float *const *a,
                                                       size_t aps, const float *const *b,
                                                       size_t bps, float *acc, size_t ldm)
{
    __m512 c[4][NR];
    const float *bp[NR];
    _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) bp[n] = b[(size_t)n < nr ? (size_t)n : nr - 1];
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            c[m][n] = (size_t)n < nr ? _mm512_loadu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES)
                                     : _mm512_setzero_ps();
    /* one loop body, the mask of the last vector chosen per step: a separate
     * remainder block made gcc spill the accumulators every row */
    const size_t nv = (len + VL - 1) / VL;
    const __mmask16 tm = (__mmask16)(len % VL ? (1u << (len % VL)) - 1u : 0xFFFFu);
    for (size_t r = 0; r < rows; ++r) {
        const float *ar[4];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) ar[m] = a[m] + r * aps;
        const size_t xo = r * bps;
        for (size_t v = 0; v < nv; ++v) {
            const size_t j = v * VL;
            const __mmask16 k = v + 1 < nv ? (__mmask16)0xFFFFu : tm;
            __m512 av[4];
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm512_maskz_loadu_ps(k, ar[m] + j);
            _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
                const __m512 bv = _mm512_maskz_loadu_ps(k, bp[n] + xo + j);
                _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm512_fmadd_ps(av[m], bv, c[m][n]);
            }
        }
    }
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            if ((size_t)n < nr) _mm512_storeu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES, c[m][n]);
}

void f32_grpwt_ukernel_4x6__avx512(size_t mr, size_t nr, size_t rows, size_t len,
                                   const float *const *a, size_t aps, const float *const *b,
                                   size_t bps, float *acc, size_t ldm)
{
    switch (mr) {
    case 1: body(1, nr, rows, len, a, aps, b, bps, acc, ldm); break;
    case 2: body(2, nr, rows, len, a, aps, b, bps, acc, ldm); break;
    case 3: body(3, nr, rows, len, a, aps, b, bps, acc, ldm); break;
    default: body(4, nr, rows, len, a, aps, b, bps, acc, ldm); break;
    }
}
