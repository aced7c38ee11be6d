/* Portable fp32 -> fp16 / bf16 narrowing: the inline helpers. */
#include "common/dtype.h"
#include "engine/conv_fast_convert.h"
#include "kernels/cvt_ukernels.h"

void f32_narrow_ukernel__scalar(size_t n, const float *src, uint16_t *dst, int bf16)
{
    if (bf16)
        for (size_t i = 0; i < n; ++i) dst[i] = f32_to_bf16(src[i]);
    else
        for (size_t i = 0; i < n; ++i) dst[i] = f32_to_f16_inl(src[i]);
}
