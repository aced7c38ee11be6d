/* Portable fp32 pairs split and rounded: the inline helpers, one value at a
 * time. */
#include "kernels/cvt_ukernels.h"
#include "kernels/scalar/f32_round__scalar.h"

void f32_split2_ukernel__scalar(size_t n, const float *src, float *even, float *odd, int kind)
{
    for (size_t i = 0; i < n; ++i)
        (i % 2 ? odd : even)[i / 2] = f32_round_kind(src[i], kind);
}
