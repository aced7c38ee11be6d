/* Portable fp32 operand / result rounding: the inline helpers, one loop per
 * kind (each vectorizes with the baseline ISA). */
#include <string.h>

#include "common/dtype.h"
#include "engine/conv_fast_convert.h"
#include "kernels/cvt_ukernels.h"

void f32_round_ukernel__scalar(size_t n, const float *src, float *dst, int kind)
{
    if (kind == F32_ROUND_HF32)
        for (size_t i = 0; i < n; ++i) dst[i] = f32_round_hf32(src[i]);
    else if (kind == F32_ROUND_F16)
        for (size_t i = 0; i < n; ++i) dst[i] = f32_round_f16_inl(src[i]);
    else if (kind == F32_ROUND_BF16)
        for (size_t i = 0; i < n; ++i) dst[i] = f32_round_bf16(src[i]);
    else if (dst != src)
        memmove(dst, src, n * sizeof(float));
}
