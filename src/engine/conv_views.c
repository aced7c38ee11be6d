#include "engine/conv_views.h"

#include "common/dtype.h"

float conv_round_operand(float v, conv_mode mode)
{
    switch (mode) {
    case CONV_MODE_HF32: return f32_round_hf32(v);
    case CONV_MODE_F16: return f32_round_f16(v);
    case CONV_MODE_BF16: return f32_round_bf16(v);
    default: return v;
    }
}

float conv_round_result(float v, conv_mode mode)
{
    switch (mode) {
    case CONV_MODE_F16: return f32_round_f16(v);
    case CONV_MODE_BF16: return f32_round_bf16(v);
    default: return v; /* fp32 and HF32 produce fp32 */
    }
}

void conv_pack_block(const conv_view *v, int64_t n, int64_t c, conv_mode mode, float *dst)
{
    for (int64_t d = 0; d < v->dim[2]; ++d)
        for (int64_t h = 0; h < v->dim[3]; ++h)
            for (int64_t w = 0; w < v->dim[4]; ++w)
                *dst++ = conv_round_operand(
                    load_as_f32(v->data, v->dtype, conv_view_index(v, n, c, d, h, w)), mode);
}

void conv_view_zero(const conv_view *v)
{
    for (int64_t n = 0; n < v->dim[0]; ++n)
        for (int64_t c = 0; c < v->dim[1]; ++c)
            for (int64_t d = 0; d < v->dim[2]; ++d)
                for (int64_t h = 0; h < v->dim[3]; ++h)
                    for (int64_t w = 0; w < v->dim[4]; ++w)
                        store_from_f32(v->data, v->dtype, conv_view_index(v, n, c, d, h, w),
                                       0.0f);
}
