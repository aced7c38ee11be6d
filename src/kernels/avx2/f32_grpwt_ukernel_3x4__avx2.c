/* AVX2 grouped weight-gradient dot products: up to 3 rows of a x 4 rows of b,
 * 12 ymm of partial sums kept over every row of the call; remainders are
 * masked loads. */
#include <immintrin.h>

#include "kernels/grp_ukernels.h"

#define VL 8
#define NR 4

static inline __attribute__((always_inline)) void body(const int M, size_t nr, size_t rows,
                                                       size_t len, const float *const *a,
                                                       size_t aps, const float *const *b,
                                                       size_t bps, float *acc, size_t ldm)
{
    __m256 c[3][NR];
    const float *bp[NR];
    _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) bp[n] = b[(size_t)n < nr ? (size_t)n : nr - 1];
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            c[m][n] = (size_t)n < nr ? _mm256_loadu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES)
                                     : _mm256_setzero_ps();
    /* one loop body, the mask of the last vector chosen per step: a separate
     * remainder block made gcc spill the accumulators every row */
    const size_t nv = (len + VL - 1) / VL, tail = len % VL ? len % VL : VL;
    const __m256i tm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)tail),
                                          _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i all = _mm256_set1_epi32(-1);
    for (size_t r = 0; r < rows; ++r) {
        const float *ar[3];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) ar[m] = a[m] + r * aps;
        const size_t xo = r * bps;
        for (size_t v = 0; v < nv; ++v) {
            const size_t j = v * VL;
            const __m256i k = v + 1 < nv ? all : tm;
            __m256 av[3];
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm256_maskload_ps(ar[m] + j, k);
            _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
                const __m256 bv = _mm256_maskload_ps(bp[n] + xo + j, k);
                _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm256_fmadd_ps(av[m], bv, c[m][n]);
            }
        }
    }
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            if ((size_t)n < nr) _mm256_storeu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES, c[m][n]);
}

void f32_grpwt_ukernel_3x4__avx2(size_t mr, size_t nr, size_t rows, size_t len,
                                 const float *const *a, size_t aps, const float *const *b,
                                 size_t bps, float *acc, size_t ldm)
{
    switch (mr) {
    case 1: body(1, nr, rows, len, a, aps, b, bps, acc, ldm); break;
    case 2: body(2, nr, rows, len, a, aps, b, bps, acc, ldm); break;
    default: body(3, nr, rows, len, a, aps, b, bps, acc, ldm); break;
    }
}
