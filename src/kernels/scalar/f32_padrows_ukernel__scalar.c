/* Portable padded rows: the contract in cvt_ukernels.h. */
#include <string.h>

#include "kernels/cvt_ukernels.h"

void f32_padrows_ukernel__scalar(size_t rows, size_t wp, size_t lo, size_t hi, const float *src,
                                 size_t lds, float *dst, size_t ldd, int kind)
{
    for (size_t r = 0; r < rows; ++r) {
        float *d = dst + r * ldd;
        memset(d, 0, lo * sizeof(float));
        f32_round_ukernel__scalar(hi - lo, src + r * lds, d + lo, kind);
        memset(d + hi, 0, (wp - hi) * sizeof(float));
    }
}
