/* Portable grouped data-gradient kernel for a W stride of 2: 2 channels x 4
 * columns of each W phase, the sums written to their interleaved columns. */
#include "kernels/grp_ukernels.h"
#include "kernels/scalar/f32_round__scalar.h"

#define MR 2
#define NR 4

void f32_grpconv_s2_ukernel_2x8__scalar(size_t mr, size_t nr, size_t ncol, size_t nc, size_t nrt,
                                        const size_t nk[2], const float *const w[2], const float *x,
                                        size_t cs, const ptrdiff_t *roff,
                                        const ptrdiff_t *const sh[2], float *y, size_t ldy,
                                        int yround)
{
    float acc[2][MR][NR] = {{{0.0f}}};
    for (size_t r = 0; r < nrt; ++r)
        for (size_t c = 0; c < nc; ++c)
            for (int u = 0; u < 2; ++u) {
                const float *wr = w[u] + r * nk[u] * nc * MR;
                for (size_t k = 0; k < nk[u]; ++k) {
                    const float *xc = x + roff[r] + c * cs + sh[u][k];
                    const float *wk = wr + (k * nc + c) * MR;
                    for (size_t m = 0; m < MR; ++m)
                        for (size_t j = 0; j < nr; ++j)
                            acc[u][m][j] += wk[m] * xc[j];
                }
            }
    for (size_t m = 0; m < mr; ++m)
        for (size_t i = 0; i < ncol; ++i)
            y[m * ldy + i] = f32_round_kind(acc[i % 2][m][i / 2], yround);
}
