/* The direct implementation: every gradient element is one loop straight from
 * its formula over packed fp32 operands. Correct for every problem (any
 * stride, padding, dilation, groups); the portable fallback of the engine. */
#ifndef ACLCONV_CONV_DIRECT_H_
#define ACLCONV_CONV_DIRECT_H_

#include "planning/conv_problem.h"

/* Packed operands: contiguous [N, C, D, H, W] fp32, already rounded to the
 * mode's operand precision. Unused ones may be NULL. */
typedef struct conv_packed {
    const float *x, *y, *w;
} conv_packed;

/* gradInput[n, c, :] of a regular convolution (dx from dy = y and w). */
void conv_direct_bwd_data(const conv_problem *p, const conv_packed *t, int64_t n, int64_t c);
/* gradInput[n, o, :] of a transposed call: the forward convolution of x. */
void conv_direct_fwd(const conv_problem *p, const conv_packed *t, int64_t n, int64_t o);
/* gradWeight[o, :, :]: sums over n and output positions of x * dy. */
void conv_direct_bwd_weights(const conv_problem *p, const conv_packed *t, int64_t o);

#endif /* ACLCONV_CONV_DIRECT_H_ */
