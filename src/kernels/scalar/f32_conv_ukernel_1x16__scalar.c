/* Portable spatial-vector convolution kernel, 1 channel x 16 lanes (depthwise). */
#include "kernels/scalar/f32_conv__scalar.h"

void f32_conv_ukernel_1x16__scalar(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                   const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                   size_t ldy, int accumulate, int xround)
{
    f32_conv_scalar(1, mr, nr, nc, nt, w, x, cs, toff, y, ldy, accumulate, xround);
}
