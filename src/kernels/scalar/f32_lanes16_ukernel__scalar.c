/* Portable 16-lane row sum. */
#include "kernels/bias_ukernels.h"

void f32_lanes16_ukernel__scalar(size_t n, const float *x, float *acc)
{
    for (size_t k = 0; k < n; ++k) acc[k % 16] += x[k];
}
