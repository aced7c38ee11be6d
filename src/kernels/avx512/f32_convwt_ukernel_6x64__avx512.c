/* AVX-512 weight-gradient kernel: 6 reduction rows x 64 output lanes
 * (24 zmm accumulators, 4 vectors of b, 1 broadcast of a). */
#include <immintrin.h>

#include "kernels/avx512/convwt_tile__avx512.h"
#include "kernels/conv_ukernels.h"

#define MR CONVWT_MR
#define VL 16

static inline __attribute__((always_inline)) void convwt_body(const int nv, size_t mr, size_t nr,
                                                              size_t nrows, size_t len,
                                                              const float *const *a, size_t ars,
                                                              const float *b, size_t ldb,
                                                              float *const *c, int accumulate)
{
    __m512 acc[MR][4];
    convwt_load(acc, nv, mr, nr, c, accumulate);
    const float *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3], *a4 = a[4], *a5 = a[5];
    for (size_t r = 0; r < nrows; ++r) {
        const size_t ro = r * ars;
        const float *br = b + r * len * ldb;
        for (size_t j = 0; j < len; ++j) {
            __m512 bv[4];
            for (int v = 0; v < nv; ++v) bv[v] = _mm512_loadu_ps(br + j * ldb + (size_t)v * VL);
            const float av[MR] = {a0[ro + j], a1[ro + j], a2[ro + j], a3[ro + j], a4[ro + j], a5[ro + j]};
            for (int m = 0; m < MR; ++m) {
                const __m512 s = _mm512_set1_ps(av[m]);
                for (int v = 0; v < nv; ++v) acc[m][v] = _mm512_fmadd_ps(s, bv[v], acc[m][v]);
            }
        }
    }
    convwt_store(acc, nv, mr, nr, c);
}

void f32_convwt_ukernel_6x64__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                     const float *const *a, size_t ars, const float *b,
                                     size_t ldb, float *const *c, int accumulate)
{
    if (nr > 3 * VL)
        convwt_body(4, mr, nr, nrows, len, a, ars, b, ldb, c, accumulate);
    else if (nr > 2 * VL)
        convwt_body(3, mr, nr, nrows, len, a, ars, b, ldb, c, accumulate);
    else if (nr > VL)
        convwt_body(2, mr, nr, nrows, len, a, ars, b, ldb, c, accumulate);
    else
        convwt_body(1, mr, nr, nrows, len, a, ars, b, ldb, c, accumulate);
}
