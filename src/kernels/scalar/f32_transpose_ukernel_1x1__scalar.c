/* Portable transpose: element by element, 16 source rows at a time so the
 * destination is written in runs of up to 16 consecutive floats. */
#include "kernels/conv_ukernels.h"

void f32_transpose_ukernel_1x1__scalar(size_t m, size_t n, const float *src, size_t lds, float *dst,
                                       size_t ldd)
{
    for (size_t i0 = 0; i0 < m; i0 += 16) {
        const size_t mi = m - i0 < 16 ? m - i0 : 16;
        for (size_t j = 0; j < n; ++j)
            for (size_t i = 0; i < mi; ++i) dst[j * ldd + i0 + i] = src[(i0 + i) * lds + j];
    }
}
