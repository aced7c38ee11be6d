/* One value rounded as f32_round does for kind (F32_ROUND_NONE: unchanged):
 * the inline helpers, for the portable kernels that round as they move values
 * (f32_split2, the W stride-2 data kernels). */
#ifndef ACLCONV_F32_ROUND_SCALAR_H_
#define ACLCONV_F32_ROUND_SCALAR_H_

#include "common/dtype.h"
#include "engine/conv_fast_convert.h"
#include "kernels/cvt_ukernels.h"

static inline float f32_round_kind(float v, int kind)
{
    switch (kind) {
    case F32_ROUND_HF32: return f32_round_hf32(v);
    case F32_ROUND_F16: return f32_round_f16_inl(v);
    case F32_ROUND_BF16: return f32_round_bf16(v);
    default: return v;
    }
}

#endif /* ACLCONV_F32_ROUND_SCALAR_H_ */
