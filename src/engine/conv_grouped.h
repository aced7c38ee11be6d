/* The grouped implementation: convolutions with a few channels per group
 * (CG, OG <= 16, groups >= 2, not depthwise), both passes, any stride,
 * padding and dilation. A task streams the planes of one group: they are
 * packed with the per-channel plane geometry of src/engine/conv_plane.h, then
 * the weights pass runs long dot products per (output channel, channel, tap)
 * with vector partial sums. See docs/kernels.md, "Grouped implementation". */
#ifndef ACLCONV_CONV_GROUPED_H_
#define ACLCONV_CONV_GROUPED_H_

#include "engine/conv_impl.h"

extern const conv_impl conv_impl_grouped;

/* For tests: the source layout grouped plans for pass (a conv_pass) of p
 * ("masked": one copy per source channel, W taps masked; "copies": KW
 * shifted copies; data pass only: "planes", whole packed planes with junk
 * columns, "merged", whole packed planes and a W stride of 2, both W output
 * phases a kernel call), NULL when it declines. */
const char *conv_grouped_layout(const conv_problem *p, int pass, aclconvIsa isa);

/* For tests: whether the data pass of p has its kernel round the results
 * as it stores them (FLOAT16 / BF16 mode, fp32 gradInput): in place, or
 * merged (into gradInput or the planes streamed out). */
bool conv_grouped_rounds_in_place(const conv_problem *p, aclconvIsa isa);

#endif /* ACLCONV_CONV_GROUPED_H_ */
