/* AVX-512 reduction-vector kernel: 4 x 6 dot products, 16 lanes each
 * (24 zmm accumulators, 4 vectors of a, 1 of b), reduced at the end. */
#include <immintrin.h>

#include "kernels/conv_ukernels.h"

#define MR 4
#define NR 6
#define VL 16

static inline __attribute__((always_inline)) void rv_body(const int cols, size_t mr, size_t nr, size_t nrows,
                                                          size_t len, const float *const *a, size_t ars,
                                                          const float *const *b, size_t brs, float *c,
                                                          size_t ldm, size_t ldn, int accumulate)
{
    __m512 acc[MR][NR];
    for (int m = 0; m < MR; ++m)
        for (int n = 0; n < cols; ++n) acc[m][n] = _mm512_setzero_ps();
    const size_t full = len / VL * VL;
    const __mmask16 tail = (__mmask16)((1u << (len - full)) - 1u);
    for (size_t r = 0; r < nrows; ++r) {
        const float *ap[MR], *bp[NR];
        for (int m = 0; m < MR; ++m) ap[m] = a[m] + r * ars;
        for (int n = 0; n < cols; ++n) bp[n] = b[n] + r * brs;
        for (size_t j = 0; j < full; j += VL) {
            __m512 av[MR];
            for (int m = 0; m < MR; ++m) av[m] = _mm512_loadu_ps(ap[m] + j);
            for (int n = 0; n < cols; ++n) {
                const __m512 bv = _mm512_loadu_ps(bp[n] + j);
                for (int m = 0; m < MR; ++m) acc[m][n] = _mm512_fmadd_ps(av[m], bv, acc[m][n]);
            }
        }
        if (tail) {
            __m512 av[MR];
            for (int m = 0; m < MR; ++m) av[m] = _mm512_maskz_loadu_ps(tail, ap[m] + full);
            for (int n = 0; n < cols; ++n) {
                const __m512 bv = _mm512_maskz_loadu_ps(tail, bp[n] + full);
                for (int m = 0; m < MR; ++m) acc[m][n] = _mm512_fmadd_ps(av[m], bv, acc[m][n]);
            }
        }
    }
    for (size_t m = 0; m < mr; ++m)
        for (size_t n = 0; n < nr; ++n) {
            const float s = _mm512_reduce_add_ps(acc[m][n]);
            float *d = c + m * ldm + n * ldn;
            *d = accumulate ? *d + s : s;
        }
}

/* the columns the tile has, as a constant: an edge tile (nr < NR) neither
 * loads nor multiplies the b rows it drops */
void f32_convrv_ukernel_4x6__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                    const float *const *a, size_t ars, const float *const *b,
                                    size_t brs, float *c, size_t ldm, size_t ldn, int accumulate)
{
    switch (nr) {
    case 1: rv_body(1, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate); break;
    case 2: rv_body(2, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate); break;
    case 3: rv_body(3, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate); break;
    case 4: rv_body(4, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate); break;
    case 5: rv_body(5, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate); break;
    default: rv_body(NR, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate); break;
    }
}
