/* Which implementation aclconv picks per pass. The executor keeps its plan
 * private, so the benchmark asks the planner itself: it repeats what
 * aclnnConvolutionBackwardGetWorkspaceSize does (validate, canonicalize,
 * plan) through the library's internal entry points (static library) and
 * reads conv_plan_impl_name. Planning is deterministic, so this is the
 * choice the measured executor made. */
#ifndef ACLCONV_BENCH_IMPL_H_
#define ACLCONV_BENCH_IMPL_H_

#include "aclnnop/aclnn_convolution_backward.h"

/* names[0]: gradInput, names[1]: gradWeight ("-" when not computed, "?" when
 * planning failed). Same arguments as GetWorkspaceSize. Returns 0 on success. */
int acl_bench_impl_names(const aclTensor *gradOutput, const aclTensor *input,
                         const aclTensor *weight, const aclIntArray *biasSizes,
                         const aclIntArray *stride, const aclIntArray *padding,
                         const aclIntArray *dilation, bool transposed,
                         const aclIntArray *outputPadding, int groups,
                         const aclBoolArray *outputMask, int8_t cubeMathType, aclTensor *gradInput,
                         aclTensor *gradWeight, aclTensor *gradBias, char (*names)[48]);

#endif /* ACLCONV_BENCH_IMPL_H_ */
