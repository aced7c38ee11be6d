/* The kernel tables of the fast engine, one per ISA. */
#include "kernels/conv_ukernels.h"

static const conv_ukernels table_scalar = {
    ACLCONV_ISA_SCALAR, 4, 16, f32_conv_ukernel_4x16__scalar, 4, 16, f32_convwt_ukernel_4x16__scalar,
    2, 4, f32_convrv_ukernel_2x4__scalar,
    16, f32_conv_ukernel_1x16__scalar, 4, f32_convrv_ukernel_2x4__scalar,
    f32_transpose_ukernel_1x1__scalar, f16_f32_cvt_ukernel__scalar, bf16_f32_cvt_ukernel__scalar,
    h16_f32_split2_ukernel__scalar, f32_round_ukernel__scalar, f32_narrow_ukernel__scalar,
    f32_lanes16_ukernel__scalar, 0, 0, NULL,
};
static const conv_ukernels table_avx2 = {
    ACLCONV_ISA_AVX2, 4, 24, f32_conv_ukernel_4x24__avx2, 6, 16, f32_convwt_ukernel_6x16__avx2,
    3, 4, f32_convrv_ukernel_3x4__avx2,
    64, f32_conv_ukernel_1x64__avx2, 8, f32_convrv_ukernel_1x8__avx2,
    f32_transpose_ukernel_8x8__avx2, f16_f32_cvt_ukernel__avx2, bf16_f32_cvt_ukernel__avx2,
    h16_f32_split2_ukernel__avx2, f32_round_ukernel__avx2, f32_narrow_ukernel__avx2,
    f32_lanes16_ukernel__avx2, 16, 6, f32_convcv_ukernel_16x6__avx2,
};
static const conv_ukernels table_avx512 = {
    ACLCONV_ISA_AVX512, 8, 48, f32_conv_ukernel_8x48__avx512, 6, 64, f32_convwt_ukernel_6x64__avx512,
    4, 6, f32_convrv_ukernel_4x6__avx512,
    128, f32_conv_ukernel_1x128__avx512, 8, f32_convrv_ukernel_1x8__avx512,
    f32_transpose_ukernel_16x16__avx512, f16_f32_cvt_ukernel__avx512, bf16_f32_cvt_ukernel__avx512,
    h16_f32_split2_ukernel__avx512, f32_round_ukernel__avx512, f32_narrow_ukernel__avx512,
    f32_lanes16_ukernel__avx512, 16, 16, f32_convcv_ukernel_16x16__avx512,
};

const conv_ukernels *conv_ukernels_for(aclconvIsa isa)
{
    switch (isa) {
    case ACLCONV_ISA_AVX512: return &table_avx512;
    case ACLCONV_ISA_AVX2: return &table_avx2;
    default: return &table_scalar;
    }
}
