/* Moving data between caller views (any dtype, any strides) and packed fp32
 * buffers, with the precision mode's operand rounding applied on the way in
 * and the output casts on the way out. */
#ifndef ACLCONV_CONV_VIEWS_H_
#define ACLCONV_CONV_VIEWS_H_

#include "kernels/conv_ukernels.h"
#include "planning/conv_problem.h"

/* Offset in elements of element (n, c, d, h, w) of v. */
static inline int64_t conv_view_index(const conv_view *v, int64_t n, int64_t c, int64_t d,
                                      int64_t h, int64_t w)
{
    return n * v->stride[0] + c * v->stride[1] + d * v->stride[2] + h * v->stride[3] +
           w * v->stride[4];
}

/* Each (n, c) spatial block of v is one dense run, in order (unit W stride;
 * unit D and H may have any stride): element k of the block is the k-th of
 * the run, so a block loads or stores with one row call. */
static inline bool conv_view_blocks_dense(const conv_view *v)
{
    return v->stride[4] == 1 && (v->dim[3] == 1 || v->stride[3] == v->dim[4]) &&
           (v->dim[2] == 1 || v->stride[2] == v->dim[3] * v->dim[4]);
}

/* The f32_round kernel's kind (src/kernels/cvt_ukernels.h) of mode's rounding:
 * F32_ROUND_NONE, a copy, for CONV_MODE_F32. */
static inline int conv_round_kind(conv_mode mode)
{
    return mode == CONV_MODE_HF32   ? F32_ROUND_HF32
           : mode == CONV_MODE_F16  ? F32_ROUND_F16
           : mode == CONV_MODE_BF16 ? F32_ROUND_BF16
                                    : F32_ROUND_NONE;
}

/* The f32_round kind of mode's result rounding: FLOAT16 and BF16 round
 * accumulated results (conv_round_result), FLOAT and HF32 leave them
 * (F32_ROUND_NONE). */
static inline int conv_result_round_kind(conv_mode mode)
{
    return mode == CONV_MODE_F16 || mode == CONV_MODE_BF16 ? conv_round_kind(mode) : F32_ROUND_NONE;
}

/* Whether values of dtype dt (FLOAT, FLOAT16, BF16) pass mode's rounding
 * unchanged, NaNs aside: one rounding to dt then stands for the mode's
 * rounding followed by the cast. */
static inline bool conv_mode_keeps(aclDataType dt, conv_mode mode)
{
    return dt == ACL_FLOAT ? mode == CONV_MODE_F32 : dt == ACL_BF16 ? mode != CONV_MODE_F16 : mode != CONV_MODE_BF16;
}

/* Rounds an operand value to the precision of mode. */
float conv_round_operand(float v, conv_mode mode);
/* Rounds an accumulated data gradient to the compute dtype of mode. */
float conv_round_result(float v, conv_mode mode);

/* Whether mode keeps the values of v, a 16-bit view: then conv_load_row
 * only widens them, as the ISA's bf16_f32_cvt / f16_f32_cvt with *quiet
 * (the FLOAT16 / BF16 roundings quiet NaNs). */
bool conv_h16_widens(const conv_view *v, conv_mode mode, int *quiet);

/* dst[i] = v[n, c, d, h, w0 + i*step] rounded for mode, i < count: the bits
 * of conv_round_operand(load_as_f32(...), mode), the conversion chosen once
 * per row and run by k's row kernels where the row has unit or step-2
 * stride. Values of a narrow dtype are exact in the modes that keep at least
 * their precision (bf16 in FLOAT / HF32 / BF16, fp16 in FLOAT / HF32 /
 * FLOAT16), so those skip the rounding; a NaN still goes through it (its
 * payload is quieted there). The one row loader of the engines' packing. */
void conv_load_row(const conv_view *v, int64_t n, int64_t c, int64_t d, int64_t h, int64_t w0,
                   int64_t step, int64_t count, conv_mode mode, const conv_ukernels *k, float *dst);
/* conv_load_row from element index base of v, sw elements apart. */
void conv_load_elems(const conv_view *v, int64_t base, int64_t sw, int64_t count, conv_mode mode,
                     const conv_ukernels *k, float *dst);

/* Whether conv_split_row reads rows of v in mode: unit W stride, fp32 or a
 * 16-bit dtype whose values the mode keeps. */
static inline bool conv_split_row_ok(const conv_view *v, conv_mode mode)
{
    return v->stride[4] == 1 && (v->dtype == ACL_FLOAT || conv_mode_keeps(v->dtype, mode));
}

/* The two W phases of a stride-2 read in one pass: count elements of v from
 * (n, c, d, h, w0), element i to even[i / 2] (i even) or odd[i / 2], with
 * conv_load_row's bits (k's f32_split2 / h16_f32_split2). Only where
 * conv_split_row_ok. */
void conv_split_row(const conv_view *v, int64_t n, int64_t c, int64_t d, int64_t h, int64_t w0,
                    int64_t count, conv_mode mode, const conv_ukernels *k, float *even, float *odd);

/* Stores count data-gradient results src[i] (zeros when src is NULL) to
 * elements base + i*sw of out: the mode's result rounding (conv_round_result),
 * then RNE to the view's dtype, bit for bit, through k's row kernels where a
 * run is dense. stream: dense runs that narrow or round go through k's
 * streaming kernels where it has them (the caller fences before the task
 * ends). */
void conv_store_results(const conv_view *out, conv_mode mode, const conv_ukernels *k, bool stream,
                        int64_t base, int64_t sw, int64_t count, const float *src);

/* Copies spatial block (n, c) of v into dst (contiguous D*H*W fp32), rounding
 * every value with conv_round_operand(mode): a conv_load_row of k's a row. */
void conv_pack_block(const conv_view *v, int64_t n, int64_t c, conv_mode mode,
                     const conv_ukernels *k, float *dst);

/* Writes zeros (in v's dtype: all-zero bits are +0 in every dtype) to
 * elements w = w0, w0 + step, ... < end of row (n, c, d, h) of v: one
 * memset when the run is dense. */
void conv_view_zero_row(const conv_view *v, int64_t n, int64_t c, int64_t d, int64_t h, int64_t w0,
                        int64_t step, int64_t end);

/* Writes zeros (in v's dtype) to every element of spatial block (n, c) of v. */
void conv_view_zero_plane(const conv_view *v, int64_t n, int64_t c);

/* Writes zeros (in v's dtype) to every element of v. */
void conv_view_zero(const conv_view *v);

#endif /* ACLCONV_CONV_VIEWS_H_ */
