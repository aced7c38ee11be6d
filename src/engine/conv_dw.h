/* The depthwise implementation: convolutions with one input and one output
 * channel per group (CG == OG == 1), any stride, padding and dilation, both
 * passes. Each task streams whole channel planes once: the plane is packed
 * (padding materialized, phase-split by stride, widened and rounded to fp32)
 * into a per-slot buffer, then one vectorized sweep over flattened padded rows
 * computes it; with unit strides and dense fp32 rows in mode FLOAT the
 * planes are read in place instead. See docs/kernels.md, "Depthwise
 * implementation". */
#ifndef ACLCONV_CONV_DW_H_
#define ACLCONV_CONV_DW_H_

#include "engine/conv_impl.h"

extern const conv_impl conv_impl_dw;

/* For tests: whether dw's weights pass of p reads x in place at stride 2
 * (the dwrowwt_s2 kernel), with the in-place choice as planning makes it. */
bool conv_dw_weights_inplace_s2(const conv_problem *p, aclconvIsa isa);

/* For tests: whether dw's pass of p packs 16 channels of an image with the
 * channels in the vector (dwch_pack; dwchwt, dwchconv). */
bool conv_dw_chan_vec(const conv_problem *p, conv_pass pass, aclconvIsa isa);

/* For tests: whether dw's data pass of p computes both W output phases of a
 * stride-2 gradInput in one kernel call (dwconv_s2), without grids. */
bool conv_dw_data_merged(const conv_problem *p, aclconvIsa isa);

/* For tests: which operands the kernels of dw's pass of p convert as they
 * read them in place (16-bit widened, fp32 rounded for the mode; no
 * converted planes), with the in-place choice as planning makes it:
 * CONV_DW_SRC_CONVERTED (dy of the data pass, x of the weights pass),
 * CONV_DW_DY_CONVERTED (dy of the weights pass). */
enum { CONV_DW_SRC_CONVERTED = 1, CONV_DW_DY_CONVERTED = 2 };
int conv_dw_kernel_converts(const conv_problem *p, conv_pass pass, aclconvIsa isa);

/* For tests: whether dw's run of both gradients of p computes gradInput
 * with the channels in the vector (dwchconv): 0 no, 1 into gradInput's
 * rows, 2 into the slot, 16 planes streamed out together. */
int conv_dw_fused_chan(const conv_problem *p, aclconvIsa isa);

/* For tests: whether dw's in-place data pass of p streams dense fp32
 * gradInput planes out from the slot, with the choices as planning makes them. */
bool conv_dw_data_streamed(const conv_problem *p, aclconvIsa isa);

/* For tests: how many 16-bit gradInput planes dw's in-place data pass of p
 * stores in one run (0: a plane at a time, not through the groups). */
int64_t conv_dw_data_group(const conv_problem *p, aclconvIsa isa);

/* For tests: whether dw's weights run computes gradInput too (both passes
 * wanted, at least one in place), with the choices as planning makes them. */
bool conv_dw_fuses_data(const conv_problem *p, aclconvIsa isa);

/* For tests: whether that run, in mode FLOAT16 with fp32 operands, rounds x
 * in the weights kernels' window and gives them dy from the data pass's
 * rounded copy. */
bool conv_dw_fused_x_in_window(const conv_problem *p, aclconvIsa isa);

#endif /* ACLCONV_CONV_DW_H_ */
