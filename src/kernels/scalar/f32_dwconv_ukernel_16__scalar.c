/* Portable depthwise correlation: blocks of 16 lanes (multiply, then add). */
#include "kernels/dw_ukernels.h"

#define NB 16

void f32_dwconv_ukernel_16__scalar(size_t len, size_t nt, const float *w, const float *x,
                                   const ptrdiff_t *toff, float *y)
{
    for (size_t j = 0; j < len; j += NB) {
        const size_t nb = len - j < NB ? len - j : NB;
        float acc[NB];
        for (size_t l = 0; l < nb; ++l) acc[l] = 0.0f;
        for (size_t t = 0; t < nt; ++t) {
            const float wt = w[t];
            const float *xp = x + toff[t] + j;
            for (size_t l = 0; l < nb; ++l) {
                const float prod = wt * xp[l];
                acc[l] = acc[l] + prod;
            }
        }
        for (size_t l = 0; l < nb; ++l) y[j + l] = acc[l];
    }
}
