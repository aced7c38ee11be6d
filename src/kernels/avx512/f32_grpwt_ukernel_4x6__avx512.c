/* AVX-512 grouped weight-gradient dot products: up to 4 rows of a (dy of 4
 * output channels) x 6 rows of b ((channel, tap) rows of x), 24 zmm of
 * partial sums kept over every row of the call; the a vectors are loaded once
 * per step, each b vector once and used by the mr FMAs. The remainder is
 * masked loads. */
#include <immintrin.h>

#include "kernels/grp_ukernels.h"

#define VL 16
#define NR 6

static inline __attribute__((always_inline)) void body(const int M, size_t nr, size_t len,
                                                       const float *const *a,
                                                       const float *const *b, float *acc,
                                                       size_t ldm)
{
    __m512 c[4][NR];
    const float *bp[NR];
    _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) bp[n] = b[(size_t)n < nr ? (size_t)n : nr - 1];
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            c[m][n] = (size_t)n < nr ? _mm512_loadu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES)
                                     : _mm512_setzero_ps();
    /* full vectors with plain loads (masked loads cost more on Zen 4), then
     * the remainder with masked ones; no row loop around them, which made gcc
     * spill the accumulators */
    const size_t full = len / VL * VL;
    for (size_t j = 0; j < full; j += VL) {
        __m512 av[4];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm512_loadu_ps(a[m] + j);
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
            const __m512 bv = _mm512_loadu_ps(bp[n] + j);
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm512_fmadd_ps(av[m], bv, c[m][n]);
        }
    }
    if (len > full) {
        const __mmask16 tm = (__mmask16)((1u << (len - full)) - 1u);
        __m512 av[4];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm512_maskz_loadu_ps(tm, a[m] + full);
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
            const __m512 bv = _mm512_maskz_loadu_ps(tm, bp[n] + full);
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm512_fmadd_ps(av[m], bv, c[m][n]);
        }
    }
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            if ((size_t)n < nr) _mm512_storeu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES, c[m][n]);
}

void f32_grpwt_ukernel_4x6__avx512(size_t mr, size_t nr, size_t len, const float *const *a,
                                   const float *const *b, float *acc, size_t ldm)
{
    switch (mr) {
    case 1: body(1, nr, len, a, b, acc, ldm); break;
    case 2: body(2, nr, len, a, b, acc, ldm); break;
    case 3: body(3, nr, len, a, b, acc, ldm); break;
    default: body(4, nr, len, a, b, acc, ldm); break;
    }
}
