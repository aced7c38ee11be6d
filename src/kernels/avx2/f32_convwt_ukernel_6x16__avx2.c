/* AVX2+FMA weight-gradient kernel: 6 reduction rows x 16 output lanes
 * (12 ymm accumulators, 2 vectors of b, 1 broadcast of a). */
#include <immintrin.h>

#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/conv_ukernels.h"

#define MR 6
#define VL 8

static inline __attribute__((always_inline)) void convwt_body(const int nv, size_t mr, size_t nr,
                                                              size_t nrows, size_t len,
                                                              const float *const *a, size_t ars,
                                                              const float *b, size_t ldb,
                                                              float *const *c, int accumulate)
{
    __m256 acc[MR][2];
    const ptrdiff_t tail = (ptrdiff_t)nr - (nv - 1) * VL; /* lanes of the last vector */
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m)
#pragma GCC unroll 8
        for (int v = 0; v < nv; ++v) acc[m][v] = _mm256_setzero_ps();
    /* loops over MR with a guard, not up to mr: a runtime trip count kept
     * the accumulators on the stack through the whole reduction */
    if (accumulate)
#pragma GCC unroll 8
        for (int m = 0; m < MR; ++m)
#pragma GCC unroll 8
            for (int v = 0; v < nv; ++v)
                if ((size_t)m < mr)
                    acc[m][v] = avx2_load_n(c[m] + (size_t)v * VL, v == nv - 1 ? tail : VL);
    const float *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3], *a4 = a[4], *a5 = a[5];
    for (size_t r = 0; r < nrows; ++r) {
        const size_t ro = r * ars;
        const float *br = b + r * len * ldb;
        for (size_t j = 0; j < len; ++j) {
            __m256 bv[2];
#pragma GCC unroll 8
            for (int v = 0; v < nv; ++v) bv[v] = _mm256_loadu_ps(br + j * ldb + (size_t)v * VL);
            const float *ap[MR] = {a0 + ro + j, a1 + ro + j, a2 + ro + j, a3 + ro + j, a4 + ro + j, a5 + ro + j};
#pragma GCC unroll 8
            for (int m = 0; m < MR; ++m) {
                const __m256 s = _mm256_broadcast_ss(ap[m]);
#pragma GCC unroll 8
                for (int v = 0; v < nv; ++v) acc[m][v] = _mm256_fmadd_ps(s, bv[v], acc[m][v]);
            }
        }
    }
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m)
#pragma GCC unroll 8
        for (int v = 0; v < nv; ++v)
            if ((size_t)m < mr)
                avx2_store_n(c[m] + (size_t)v * VL, v == nv - 1 ? tail : VL, acc[m][v]);
}

void f32_convwt_ukernel_6x16__avx2(size_t mr, size_t nr, size_t nrows, size_t len,
                                   const float *const *a, size_t ars, const float *b, size_t ldb,
                                   float *const *c, int accumulate)
{
    if (nr > VL)
        convwt_body(2, mr, nr, nrows, len, a, ars, b, ldb, c, accumulate);
    else
        convwt_body(1, mr, nr, nrows, len, a, ars, b, ldb, c, accumulate);
}
