/* Portable 16-lane row sums. */
#include "kernels/bias_ukernels.h"

void f32_lanes16_ukernel__scalar(size_t m, size_t n, const float *x, size_t ldx, float *acc)
{
    for (size_t r = 0; r < m; ++r)
        for (size_t k = 0; k < n; ++k) acc[r * 16 + k % 16] += x[r * ldx + k];
}
