/* Random convolution-backward problems covering the feature axes (rank,
 * stride > kernel, head/tail padding, dilation, groups / depthwise / channel
 * multipliers, transposed with outputPadding, prime sizes, empty tensors,
 * dtypes and cubeMathType, masks, views). Shapes stay small so the plain
 * reference and sanitizer builds stay fast. */
#ifndef ACLCONV_TEST_CONV_GEN_H_
#define ACLCONV_TEST_CONV_GEN_H_

#include "reference/ref_conv.h"
#include "test_rng.h"

typedef struct conv_gen_opts {
    int allow_empty;    /* sometimes N = 0 or Cin = 0 */
    int allow_dtypes;   /* FLOAT16 / BF16 / mixed dtypes and cubeMathType 1..3 */
    int allow_views;    /* strided views with offsets */
    int max_spatial_1d; /* largest input length of 1-D problems, etc. */
    int max_spatial_2d;
    int max_spatial_3d;
    int wide_percent; /* share of cases with 9..40 channels per group */
    int64_t max_macs; /* bound on the multiply-adds of one gradient pass */
} conv_gen_opts;

void conv_gen_default_opts(conv_gen_opts *o);
/* Larger shapes (a few million multiply-adds) for engine tiling edges. */
void conv_gen_big_opts(conv_gen_opts *o);

/* A random problem that passes ref_problem_check and the 910B checker.
 * p->seed is drawn too (data / layout seed). */
void conv_gen_problem(test_rng *r, const conv_gen_opts *o, ref_problem *p);

/* The promoted dtype P(P(gradOutput, input), weight). */
aclDataType conv_promote(aclDataType a, aclDataType b);
aclDataType conv_promoted(const ref_problem *p);

#endif /* ACLCONV_TEST_CONV_GEN_H_ */
