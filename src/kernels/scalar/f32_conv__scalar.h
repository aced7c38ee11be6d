/* The portable spatial-vector convolution kernels' body ("conv", contract in
 * kernels/conv_ukernels.h): mr_max channels (the panel's MR) x 16 lanes,
 * multiply then add per term. Include only from the scalar kernel files. */
#ifndef ACLCONV_F32_CONV_SCALAR_H_
#define ACLCONV_F32_CONV_SCALAR_H_

#include "kernels/conv_ukernels.h"
#include "kernels/scalar/f32_round__scalar.h"

#define CONV_SCALAR_NR 16
#define CONV_SCALAR_MAX_MR 4

static inline void f32_conv_scalar(size_t mr_max, size_t mr, size_t nr, size_t nc, size_t nt,
                                   const float *w, const float *x, size_t cs, const ptrdiff_t *toff,
                                   float *y, size_t ldy, int accumulate, int xround)
{
    float acc[CONV_SCALAR_MAX_MR][CONV_SCALAR_NR];
    for (size_t m = 0; m < mr_max; ++m)
        for (size_t j = 0; j < CONV_SCALAR_NR; ++j)
            acc[m][j] = accumulate && m < mr && j < nr ? y[m * ldy + j] : 0.0f;
    for (size_t c = 0; c < nc; ++c) {
        const float *xc = x + c * cs;
        for (size_t t = 0; t < nt; ++t) {
            const float *xt = xc + toff[t];
            float xv[CONV_SCALAR_NR];
            for (size_t j = 0; j < CONV_SCALAR_NR; ++j)
                xv[j] = j < nr ? f32_round_kind(xt[j], xround) : 0.0f;
            for (size_t m = 0; m < mr_max; ++m) {
                const float wv = w[m];
                for (size_t j = 0; j < CONV_SCALAR_NR; ++j)
                    acc[m][j] += wv * xv[j];
            }
            w += mr_max;
        }
    }
    for (size_t m = 0; m < mr; ++m)
        for (size_t j = 0; j < nr; ++j)
            y[m * ldy + j] = acc[m][j];
}

#endif /* ACLCONV_F32_CONV_SCALAR_H_ */
