/* Portable fp32 W phases merged and rounded: the inline helpers, one value at
 * a time. */
#include "kernels/cvt_ukernels.h"
#include "kernels/scalar/f32_round__scalar.h"

void f32_merge2_ukernel__scalar(size_t n, const float *even, const float *odd, float *dst, int kind)
{
    for (size_t i = 0; i < n; ++i)
        dst[i] = f32_round_kind((i % 2 ? odd : even)[i / 2], kind);
}
