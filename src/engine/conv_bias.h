/* gradBias: the sum of gradOutput over N and space, per channel.
 *
 * The summation order is part of the numeric contract (docs/numerics.md):
 * the bits do not depend on threads, strides, dtype path or on which pass
 * computes the sum. Per (n, c) block of gradOutput (its D*H*W elements in
 * flattened order), element i goes to lane i % CONV_BIAS_LANES, each lane
 * summing in ascending i from +0; the lanes are added by a fixed pairwise tree
 * into the block sum S(n, c); then gradBias[c] = S(0, c) + S(1, c) + ...,
 * left to right over n.
 *
 * Block sums fit a pass that already streams gradOutput image by image: a
 * weights implementation may compute S(n, c) while the rows are in cache
 * (conv_bias_add_rows, conv_bias_lanes_sum) and finish with
 * conv_bias_store_sums; otherwise the plan runs conv_bias_run. */
#ifndef ACLCONV_CONV_BIAS_H_
#define ACLCONV_CONV_BIAS_H_

#include "aclconv/aclconv.h"
#include "kernels/conv_ukernels.h"
#include "planning/conv_problem.h"

#define CONV_BIAS_LANES 16
/* Most block sums (N x C floats of workspace) a fused weights pass keeps. */
#define CONV_BIAS_MAX_SUMS ((int64_t)1 << 20)

/* gradBias is requested and has elements. */
bool conv_bias_wanted(const conv_problem *p);

/* gradBias is wanted and its block sums fit CONV_BIAS_MAX_SUMS. */
bool conv_bias_sums_fit(const conv_problem *p);

/* Whether a weights implementation reading gradOutput as its y operand may
 * compute the block sums (conv_bias_sums_fit, not transposed: a transposed
 * call's gradOutput is its x). */
bool conv_bias_fusable(const conv_problem *p);

/* acc[o*CONV_BIAS_LANES + (lane0 + k) % CONV_BIAS_LANES] += bias_src[n, c + o,
 * d, h, w0 + k], o < m, k < len, in ascending k (the unrounded value,
 * widened to fp32). lane0 is the flattened index of (d, h, w0) in the block,
 * modulo the lanes. k: the plan's ISA's kernels (every ISA gives the same
 * bits). */
void conv_bias_add_rows(float *acc, int64_t lane0, const conv_view *src, int64_t n, int64_t c,
                        int64_t m, int64_t d, int64_t h, int64_t w0, int64_t len,
                        const conv_ukernels *k);

/* The same from fp32 rows x[o*ldx + k] (ldx >= 0) that hold the values of
 * bias_src's: rows a pass loaded, widened or rounded in a mode that keeps
 * their dtype (conv_mode_keeps). A NaN among them may have lost its payload
 * bits: a block sum that comes out NaN is taken from the view instead
 * (conv_bias_block_sum). */
void conv_bias_add_f32(float *acc, int64_t lane0, const float *x, int64_t ldx, int64_t m,
                       int64_t len, const conv_ukernels *k);

/* The block sum S(n, c), from the view. */
float conv_bias_block_sum(const conv_view *src, int64_t n, int64_t c, const conv_ukernels *k);

/* The block sum of lanes: the fixed pairwise tree (acc is consumed). */
float conv_bias_lanes_sum(float acc[CONV_BIAS_LANES]);

/* Writes gradBias from the block sums sums[n * C + c] (C = all channels). */
void conv_bias_store_sums(const conv_problem *p, const float *sums);

/* Computes p->grad_bias from p->bias_src with the compute pool, one task per
 * channel, with the row kernel of isa. */
void conv_bias_run(const conv_problem *p, aclconvIsa isa);

#endif /* ACLCONV_CONV_BIAS_H_ */
