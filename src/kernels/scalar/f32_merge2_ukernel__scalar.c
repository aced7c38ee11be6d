/* Portable fp32 W phases merged and rounded: the inline helpers, one value at
 * a time. */
#include "common/dtype.h"
#include "engine/conv_fast_convert.h"
#include "kernels/cvt_ukernels.h"

static inline float round_kind(float v, int kind)
{
    switch (kind) {
    case F32_ROUND_HF32: return f32_round_hf32(v);
    case F32_ROUND_F16: return f32_round_f16_inl(v);
    case F32_ROUND_BF16: return f32_round_bf16(v);
    default: return v;
    }
}

void f32_merge2_ukernel__scalar(size_t n, const float *even, const float *odd, float *dst, int kind)
{
    for (size_t i = 0; i < n; ++i) dst[i] = round_kind((i % 2 ? odd : even)[i / 2], kind);
}
