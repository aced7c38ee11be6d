/* AVX-512 reduction-vector kernel: 1 x 8 dot products, 16 lanes each
 * (8 zmm accumulators, 1 vector of a, 1 of b), reduced at the end. */
#include <immintrin.h>

#include "kernels/conv_ukernels.h"

#define MR 1
#define NR 8
#define VL 16

void f32_convrv_ukernel_1x8__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                    const float *const *a, size_t ars, const float *const *b,
                                    size_t brs, float *c, size_t ldm, size_t ldn, int accumulate)
{
    __m512 acc[MR][NR];
    for (int m = 0; m < MR; ++m)
        for (int n = 0; n < NR; ++n) acc[m][n] = _mm512_setzero_ps();
    const size_t full = len / VL * VL;
    const __mmask16 tail = (__mmask16)((1u << (len - full)) - 1u);
    for (size_t r = 0; r < nrows; ++r) {
        const float *ap[MR], *bp[NR];
        for (int m = 0; m < MR; ++m) ap[m] = a[m] + r * ars;
        for (int n = 0; n < NR; ++n) bp[n] = b[n] + r * brs;
        for (size_t j = 0; j < full; j += VL) {
            __m512 av[MR];
            for (int m = 0; m < MR; ++m) av[m] = _mm512_loadu_ps(ap[m] + j);
            for (int n = 0; n < NR; ++n) {
                const __m512 bv = _mm512_loadu_ps(bp[n] + j);
                for (int m = 0; m < MR; ++m) acc[m][n] = _mm512_fmadd_ps(av[m], bv, acc[m][n]);
            }
        }
        if (tail) {
            __m512 av[MR];
            for (int m = 0; m < MR; ++m) av[m] = _mm512_maskz_loadu_ps(tail, ap[m] + full);
            for (int n = 0; n < NR; ++n) {
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
