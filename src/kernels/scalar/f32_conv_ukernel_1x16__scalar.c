/* Portable spatial-vector convolution kernel, 1 channel x 16 lanes (depthwise). */
#include "kernels/conv_ukernels.h"
#include "kernels/scalar/f32_round__scalar.h"

#define MR 1
#define NR 16

void f32_conv_ukernel_1x16__scalar(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                   const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                   size_t ldy, int accumulate, int xround)
{
    float acc[MR][NR];
    for (size_t m = 0; m < MR; ++m)
        for (size_t j = 0; j < NR; ++j) acc[m][j] = accumulate && m < mr && j < nr ? y[m * ldy + j] : 0.0f;
    for (size_t c = 0; c < nc; ++c) {
        const float *xc = x + c * cs;
        for (size_t t = 0; t < nt; ++t) {
            const float *xt = xc + toff[t];
            float xv[NR];
            for (size_t j = 0; j < NR; ++j) xv[j] = j < nr ? f32_round_kind(xt[j], xround) : 0.0f;
            for (size_t m = 0; m < MR; ++m) {
                const float wv = w[m];
                for (size_t j = 0; j < NR; ++j) acc[m][j] += wv * xv[j];
            }
            w += MR;
        }
    }
    for (size_t m = 0; m < mr; ++m)
        for (size_t j = 0; j < nr; ++j) y[m * ldy + j] = acc[m][j];
}
