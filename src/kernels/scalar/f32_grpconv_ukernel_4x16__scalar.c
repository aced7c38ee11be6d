/* Portable grouped data-gradient kernel, 4 channels x 16 positions. A lane
 * whose W tap falls off its row adds w * 0 without reading the source. */
#include "kernels/grp_ukernels.h"
#include "kernels/scalar/f32_round__scalar.h"

#define MR 4
#define NR 16

void f32_grpconv_ukernel_4x16__scalar(size_t mr, size_t nr, size_t nc, size_t nrt, size_t nkw,
                                      const float *w, const float *x, size_t cs,
                                      const ptrdiff_t *roff, const ptrdiff_t *wsh, size_t ow,
                                      size_t col0, float *y, size_t ldy, int stream, int yround,
                                      const ukernel_prefetch *pf)
{
    (void)stream; /* plain stores */
    float acc[MR][NR] = {{0.0f}};
    ptrdiff_t col[NR];
    for (size_t j = 0, cj = col0; j < NR; ++j, cj = cj + 1 == ow ? 0 : cj + 1) col[j] = (ptrdiff_t)cj;
    for (size_t r = 0; r < nrt; ++r)
        for (size_t k = 0; k < nkw; ++k) {
            const float *xk = x + roff[r] + wsh[k];
            for (size_t c = 0; c < nc; ++c) {
                const float *xc = xk + c * cs;
                float xv[NR];
                for (size_t j = 0; j < NR; ++j) {
                    const ptrdiff_t cc = col[j] + wsh[k];
                    xv[j] = j < nr && cc >= 0 && cc < (ptrdiff_t)ow ? xc[j] : 0.0f;
                }
                for (size_t m = 0; m < MR; ++m) {
                    const float wv = w[m];
                    for (size_t j = 0; j < NR; ++j) acc[m][j] += wv * xv[j];
                }
                w += MR;
            }
        }
    for (size_t m = 0; m < mr; ++m)
        for (size_t j = 0; j < nr; ++j)
            y[m * ldy + j] = f32_round_kind(acc[m][j], yround);
    if (pf) ukernel_prefetch_steps(pf, 0, 1, 1);
}
