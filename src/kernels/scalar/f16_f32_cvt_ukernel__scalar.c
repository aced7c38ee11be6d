/* Portable fp16 -> fp32 row widening: the branch-free inline conversion. */
#include "engine/conv_fast_convert.h"
#include "kernels/cvt_ukernels.h"

void f16_f32_cvt_ukernel__scalar(size_t n, const uint16_t *src, float *dst, int quiet)
{
    for (size_t i = 0; i < n; ++i) dst[i] = f16_to_f32_inl(src[i]);
    if (quiet) f32_quiet_nans(dst, (int64_t)n);
}
