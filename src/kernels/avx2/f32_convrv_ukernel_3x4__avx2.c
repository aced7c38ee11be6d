/* AVX2+FMA reduction-vector kernel: 3 x 4 dot products, 8 lanes each
 * (12 ymm accumulators, 3 vectors of a, 1 of b), reduced at the end. */
#include <immintrin.h>

#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/conv_ukernels.h"

#define MR 3
#define NR 4
#define VL 8

static inline float hsum(__m256 v)
{
    const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_shuffle_ps(t, t, 1)));
}

void f32_convrv_ukernel_3x4__avx2(size_t mr, size_t nr, size_t nrows, size_t len,
                                  const float *const *a, size_t ars, const float *const *b,
                                  size_t brs, float *c, size_t ldm, size_t ldn, int accumulate)
{
    __m256 acc[MR][NR];
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m)
#pragma GCC unroll 8
        for (int n = 0; n < NR; ++n) acc[m][n] = _mm256_setzero_ps();
    const size_t full = len / VL * VL;
    const __m256i tail = avx2_lane_mask(len - full);
    for (size_t r = 0; r < nrows; ++r) {
        const float *ap[MR], *bp[NR];
#pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) ap[m] = a[m] + r * ars;
#pragma GCC unroll 8
        for (int n = 0; n < NR; ++n) bp[n] = b[n] + r * brs;
        for (size_t j = 0; j < full; j += VL) {
            __m256 av[MR];
#pragma GCC unroll 8
            for (int m = 0; m < MR; ++m) av[m] = _mm256_loadu_ps(ap[m] + j);
#pragma GCC unroll 8
            for (int n = 0; n < NR; ++n) {
                const __m256 bv = _mm256_loadu_ps(bp[n] + j);
#pragma GCC unroll 8
                for (int m = 0; m < MR; ++m) acc[m][n] = _mm256_fmadd_ps(av[m], bv, acc[m][n]);
            }
        }
        if (len > full) {
            __m256 av[MR];
#pragma GCC unroll 8
            for (int m = 0; m < MR; ++m) av[m] = _mm256_maskload_ps(ap[m] + full, tail);
#pragma GCC unroll 8
            for (int n = 0; n < NR; ++n) {
                const __m256 bv = _mm256_maskload_ps(bp[n] + full, tail);
#pragma GCC unroll 8
                for (int m = 0; m < MR; ++m) acc[m][n] = _mm256_fmadd_ps(av[m], bv, acc[m][n]);
            }
        }
    }
    for (size_t m = 0; m < mr; ++m)
        for (size_t n = 0; n < nr; ++n) {
            const float s = hsum(acc[m][n]);
            float *d = c + m * ldm + n * ldn;
            *d = accumulate ? *d + s : s;
        }
}
