/* Scalar row copy. */
#include "kernels/grp_ukernels.h"

void f32_grpcopy_ukernel__scalar(size_t rows, size_t len, const float *src, size_t sps, float *dst,
                                 size_t dps)
{
    for (size_t r = 0; r < rows; ++r)
        for (size_t j = 0; j < len; ++j) dst[r * dps + j] = src[r * sps + j];
}
