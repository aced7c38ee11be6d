/* The kernel tables of the fast engine, one per ISA (the scalar one has no
 * channel-vector kernel: convcv NULL). */
#include "kernels/conv_ukernels.h"

#include "common/cpu.h"

/* a kernel's tile and function on one line */
/* clang-format off */
static const conv_ukernels table_scalar = {
    .isa = ACLCONV_ISA_SCALAR,
    .conv_mr = 4, .conv_nr = 16, .conv = f32_conv_ukernel_4x16__scalar,
    .convwt_mr = 4, .convwt_nr = 16, .convwt = f32_convwt_ukernel_4x16__scalar,
    .convrv_mr = 2, .convrv_nr = 4, .convrv = f32_convrv_ukernel_2x4__scalar,
    .conv1_nr = 16, .conv1 = f32_conv_ukernel_1x16__scalar,
    .convrv1_nr = 4, .convrv1 = f32_convrv_ukernel_2x4__scalar,
    .transpose = f32_transpose_ukernel_1x1__scalar,
    .f16_f32_cvt = f16_f32_cvt_ukernel__scalar,
    .bf16_f32_cvt = bf16_f32_cvt_ukernel__scalar,
    .h16_f32_split2 = h16_f32_split2_ukernel__scalar,
    .f32_round = f32_round_ukernel__scalar,
    .f32_padrows = f32_padrows_ukernel__scalar,
    .f32_load_step2 = f32_load_step2_ukernel__scalar,
    .f32_store_step2 = f32_store_step2_ukernel__scalar,
    .f32_split2 = f32_split2_ukernel__scalar,
    .f32_narrow = f32_narrow_ukernel__scalar,
    .lanes16 = f32_lanes16_ukernel__scalar,
    .bf16_minexp = bf16_minexp_ukernel__scalar,
    .bf16_padrows = bf16_padrows_ukernel__scalar,
    .bf16_zip = bf16_zip_ukernel__scalar,
    .bf16_pairt = bf16_pairt_ukernel_1x1__scalar,
    .bf16_split2 = bf16_split2_ukernel__scalar,
    .bf16_zip_split2 = bf16_zip_split2_ukernel__scalar,
    .bf16_zipt = bf16_zipt_ukernel_1x1__scalar,
};
static const conv_ukernels table_avx2 = {
    .isa = ACLCONV_ISA_AVX2,
    .conv_mr = 4, .conv_nr = 24, .conv = f32_conv_ukernel_4x24__avx2,
    .convwt_mr = 6, .convwt_nr = 16, .convwt = f32_convwt_ukernel_6x16__avx2,
    .convrv_mr = 3, .convrv_nr = 4, .convrv = f32_convrv_ukernel_3x4__avx2,
    .conv1_nr = 64, .conv1 = f32_conv_ukernel_1x64__avx2,
    .convrv1_nr = 8, .convrv1 = f32_convrv_ukernel_1x8__avx2,
    .transpose = f32_transpose_ukernel_8x8__avx2,
    .f16_f32_cvt = f16_f32_cvt_ukernel__avx2,
    .bf16_f32_cvt = bf16_f32_cvt_ukernel__avx2,
    .h16_f32_split2 = h16_f32_split2_ukernel__avx2,
    .f32_round = f32_round_ukernel__avx2,
    .f32_padrows = f32_padrows_ukernel__avx2,
    .f32_load_step2 = f32_load_step2_ukernel__avx2,
    .f32_store_step2 = f32_store_step2_ukernel__avx2,
    .f32_split2 = f32_split2_ukernel__avx2,
    .f32_narrow = f32_narrow_ukernel__avx2,
    .f32_narrow_nt = f32_narrow_nt_ukernel__avx2,
    .f32_narrow_step2 = f32_narrow_step2_ukernel__avx2,
    .f32_round_nt = f32_round_nt_ukernel__avx2,
    .lanes16 = f32_lanes16_ukernel__avx2,
    .bf16_minexp = bf16_minexp_ukernel__scalar,
    .bf16_padrows = bf16_padrows_ukernel__scalar,
    .bf16_zip = bf16_zip_ukernel__scalar,
    .bf16_pairt = bf16_pairt_ukernel_1x1__scalar,
    .bf16_split2 = bf16_split2_ukernel__scalar,
    .bf16_zip_split2 = bf16_zip_split2_ukernel__scalar,
    .bf16_zipt = bf16_zipt_ukernel_1x1__scalar,
    .convcv_mr = 16, .convcv_nr = 6, .convcv = f32_convcv_ukernel_16x6__avx2,
};
static const conv_ukernels table_avx512 = {
    .isa = ACLCONV_ISA_AVX512,
    .conv_mr = 8, .conv_nr = 48, .conv = f32_conv_ukernel_8x48__avx512,
    .conv_nt = f32_conv_ukernel_8x48_nt__avx512, .store_fence = store_fence__avx2,
    .convwt_mr = 6, .convwt_nr = 64, .convwt = f32_convwt_ukernel_6x64__avx512,
    .convrv_mr = 4, .convrv_nr = 6, .convrv = f32_convrv_ukernel_4x6__avx512,
    .conv1_nr = 128, .conv1 = f32_conv_ukernel_1x128__avx512,
    .convrv1_nr = 8, .convrv1 = f32_convrv_ukernel_1x8__avx512,
    .transpose = f32_transpose_ukernel_16x16__avx512,
    .h16_transpose = h16_transpose_ukernel_16x16__avx512,
    .f16_f32_cvt = f16_f32_cvt_ukernel__avx512,
    .bf16_f32_cvt = bf16_f32_cvt_ukernel__avx512,
    .h16_f32_split2 = h16_f32_split2_ukernel__avx512,
    .f32_round = f32_round_ukernel__avx512,
    .f32_padrows = f32_padrows_ukernel__avx512,
    .f32_load_step2 = f32_load_step2_ukernel__avx512,
    .f32_store_step2 = f32_store_step2_ukernel__avx512,
    .f32_split2 = f32_split2_ukernel__avx512,
    .f32_narrow = f32_narrow_ukernel__avx512,
    .f32_narrow_nt = f32_narrow_nt_ukernel__avx512,
    .f32_round_nt = f32_round_nt_ukernel__avx512,
    .f32_narrow_step2 = f32_narrow_step2_ukernel__avx512,
    .lanes16 = f32_lanes16_ukernel__avx512,
    .convcv_mr = 32, .convcv_nr = 14, .convcv = f32_convcv_ukernel_32x14__avx512, .convcv_y16 = true,
    .bf16_convwt_mr = 6, .bf16_convwt_nr = 64, .bf16_convwt = bf16_convwt_ukernel_6x64__avx512,
    .bf16_convcv_mr = 32, .bf16_convcv_nr = 14, .bf16_convcv = bf16_convcv_ukernel_32x14__avx512,
    .bf16_convrv_mr = 4, .bf16_convrv_nr = 6, .bf16_convrv = bf16_convrv_ukernel_4x6__avx512,
    .bf16_minexp = bf16_minexp_ukernel__avx512,
    .bf16_padrows = bf16_padrows_ukernel__avx512,
    .bf16_zip = bf16_zip_ukernel__avx512,
    .bf16_pairt = bf16_pairt_ukernel_16x16__avx512,
    .bf16_split2 = bf16_split2_ukernel__avx512,
    .bf16_zip_split2 = bf16_zip_split2_ukernel__avx512,
    .bf16_zipt = bf16_zipt_ukernel_16x16__avx512,
};
/* clang-format on */

const conv_ukernels *conv_ukernels_for(aclconvIsa isa)
{
    switch (isa) {
    case ACLCONV_ISA_AVX512: return &table_avx512;
    case ACLCONV_ISA_AVX2: return &table_avx2;
    default: return &table_scalar;
    }
}

bf16_convwt_ukernel_fn conv_bf16_dot_convwt(aclconvIsa isa)
{
    return cpu_has_bf16_dot(isa) ? bf16_convwt_ukernel_6x64__avx512bf16 : NULL;
}

bf16_convcv_ukernel_fn conv_bf16_dot_convcv(aclconvIsa isa)
{
    return cpu_has_bf16_dot(isa) ? bf16_convcv_ukernel_32x14__avx512bf16 : NULL;
}

bf16_convrv_ukernel_fn conv_bf16_dot_convrv(aclconvIsa isa)
{
    return cpu_has_bf16_dot(isa) ? bf16_convrv_ukernel_4x6__avx512bf16 : NULL;
}
