/* Portable fp16 / bf16 pairs split and widened: the row widening kernels'
 * conversions, one value at a time. */
#include "common/dtype.h"
#include "engine/conv_fast_convert.h"
#include "kernels/cvt_ukernels.h"

void h16_f32_split2_ukernel__scalar(size_t n, const uint16_t *src, float *even, float *odd, int bf16, int quiet)
{
    for (size_t i = 0; i < n; ++i) {
        float v = bf16 ? bf16_to_f32(src[i]) : f16_to_f32_inl(src[i]);
        if (quiet) f32_quiet_nans(&v, 1);
        (i % 2 ? odd : even)[i / 2] = v;
    }
}
