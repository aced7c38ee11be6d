/* AVX2 grouped weight-gradient dot products: up to 3 rows of a x 4 rows of b,
 * 12 ymm of partial sums kept over the call; the remainder is masked loads. */
#include <immintrin.h>

#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/grp_ukernels.h"

#define VL 8
#define NR 4

static inline __attribute__((always_inline)) void body(const int M, size_t nr, size_t len,
                                                       const float *const *a,
                                                       const float *const *b, float *acc,
                                                       size_t ldm)
{
    __m256 c[3][NR];
    const float *bp[NR];
    _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) bp[n] = b[(size_t)n < nr ? (size_t)n : nr - 1];
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            c[m][n] = (size_t)n < nr ? _mm256_loadu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES)
                                     : _mm256_setzero_ps();
    const size_t full = len / VL * VL;
    for (size_t j = 0; j < full; j += VL) {
        __m256 av[3];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm256_loadu_ps(a[m] + j);
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
            const __m256 bv = _mm256_loadu_ps(bp[n] + j);
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm256_fmadd_ps(av[m], bv, c[m][n]);
        }
    }
    if (len > full) {
        const __m256i tm = avx2_lane_mask(len - full);
        __m256 av[3];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm256_maskload_ps(a[m] + full, tm);
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
            const __m256 bv = _mm256_maskload_ps(bp[n] + full, tm);
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm256_fmadd_ps(av[m], bv, c[m][n]);
        }
    }
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            if ((size_t)n < nr) _mm256_storeu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES, c[m][n]);
}

void f32_grpwt_ukernel_3x4__avx2(size_t mr, size_t nr, size_t len, const float *const *a,
                                 const float *const *b, float *acc, size_t ldm)
{
    switch (mr) {
    case 1: body(1, nr, len, a, b, acc, ldm); break;
    case 2: body(2, nr, len, a, b, acc, ldm); break;
    default: body(3, nr, len, a, b, acc, ldm); break;
    }
}
