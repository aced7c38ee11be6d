/* Portable depthwise weight-gradient dot products: 1 tap x 4 lanes (lane =
 * position mod 4), one tap at a time (multiply, then add). */
#include "kernels/dw_ukernels.h"

#define VL 4

void f32_dwwt_ukernel_1x4__scalar(size_t nt, size_t rows, size_t len, const float *x, size_t xps,
                                  const ptrdiff_t *toff, const float *dy, size_t dyps, float *acc)
{
    for (size_t t = 0; t < nt; ++t) {
        float a[VL];
        for (int l = 0; l < VL; ++l) a[l] = acc[t * DW_ACC_LANES + (size_t)l];
        for (size_t r = 0; r < rows; ++r) {
            const float *dr = dy + r * dyps;
            const float *xr = x + toff[t] + r * xps;
            for (size_t j = 0; j < len; ++j) {
                const float prod = xr[j] * dr[j];
                a[j % VL] = a[j % VL] + prod;
            }
        }
        for (int l = 0; l < VL; ++l) acc[t * DW_ACC_LANES + (size_t)l] = a[l];
    }
}
