/* Portable weight-gradient kernel, 4 reduction rows x 16 output lanes. */
#include "kernels/conv_ukernels.h"

#define MR 4
#define NR 16

void f32_convwt_ukernel_4x16__scalar(size_t mr, size_t nr, size_t nrows, size_t len,
                                     const float *const *a, size_t ars, const float *b,
                                     size_t ldb, float *const *c, int accumulate)
{
    float acc[MR][NR];
    for (size_t m = 0; m < MR; ++m)
        for (size_t o = 0; o < NR; ++o) acc[m][o] = accumulate && m < mr && o < nr ? c[m][o] : 0.0f;
    for (size_t r = 0; r < nrows; ++r) {
        for (size_t j = 0; j < len; ++j) {
            const float *bj = b + (r * len + j) * ldb;
            float bv[NR];
            for (size_t o = 0; o < NR; ++o) bv[o] = o < nr ? bj[o] : 0.0f;
            for (size_t m = 0; m < MR; ++m) {
                const float av = m < mr ? a[m][r * ars + j] : 0.0f;
                for (size_t o = 0; o < NR; ++o) acc[m][o] += av * bv[o];
            }
        }
    }
    for (size_t m = 0; m < mr; ++m)
        for (size_t o = 0; o < nr; ++o) c[m][o] = acc[m][o];
}
