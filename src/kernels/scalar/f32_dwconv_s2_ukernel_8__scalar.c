/* Portable depthwise correlation at a W stride of 2, both W phases: 8
 * columns of a phase at a time, taps outer (the compiler's vectors, as in
 * dwconv's portable kernel), stored to every other column. */
#include "kernels/dw_ukernels.h"
#include "kernels/scalar/f32_round__scalar.h"

#define NR 8

void f32_dwconv_s2_ukernel_8__scalar(size_t rows, size_t ncol, const size_t nt[2],
                                     const float *const w[2], const float *x, size_t xrs,
                                     const ptrdiff_t *const toff[2], float *y, size_t yrs,
                                     int yround)
{
    for (size_t i = 0; i < rows; ++i)
        for (size_t u = 0; u < 2; ++u) {
            const size_t n = (ncol + 1 - u) / 2; /* the phase's columns */
            for (size_t j0 = 0; j0 < n; j0 += NR) {
                const size_t len = n - j0 < NR ? n - j0 : NR;
                float acc[NR] = {0.0f};
                for (size_t t = 0; t < nt[u]; ++t) {
                    const float wt = w[u][t];
                    const float *xt = x + i * xrs + j0 + toff[u][t];
                    for (size_t l = 0; l < len; ++l)
                        acc[l] += wt * xt[l];
                }
                for (size_t l = 0; l < len; ++l)
                    y[i * yrs + 2 * (j0 + l) + u] = f32_round_kind(acc[l], yround);
            }
        }
}
