/* Portable reduction-vector kernel, 2 x 4 dot products (one lane). */
#include "kernels/conv_ukernels.h"

#define MR 2
#define NR 4

void f32_convrv_ukernel_2x4__scalar(size_t mr, size_t nr, size_t nrows, size_t len,
                                    const float *const *a, size_t ars, const float *const *b,
                                    size_t brs, float *c, size_t ldm, size_t ldn, int accumulate)
{
    float acc[MR][NR] = {{0.0f}};
    for (size_t r = 0; r < nrows; ++r)
        for (size_t j = 0; j < len; ++j)
            for (size_t m = 0; m < MR; ++m) {
                const float av = a[m][r * ars + j];
                for (size_t n = 0; n < NR; ++n) acc[m][n] += av * b[n][r * brs + j];
            }
    for (size_t m = 0; m < mr; ++m)
        for (size_t n = 0; n < nr; ++n) {
            float *d = c + m * ldm + n * ldn;
            *d = accumulate ? *d + acc[m][n] : acc[m][n];
        }
}
