/* Validation of aclnnConvolutionBackwardGetWorkspaceSize arguments. */
#ifndef ACLCONV_CONV_BWD_CHECK_H_
#define ACLCONV_CONV_BWD_CHECK_H_

#include "common/common.h"
#include "common/soc.h"

/* The arguments of aclnnConvolutionBackwardGetWorkspaceSize, as given. */
typedef struct conv_bwd_args {
    const aclTensor *grad_output;
    const aclTensor *input;
    const aclTensor *weight;
    const aclIntArray *bias_sizes;
    const aclIntArray *stride;
    const aclIntArray *padding;
    const aclIntArray *dilation;
    bool transposed;
    const aclIntArray *output_padding;
    int groups;
    const aclBoolArray *output_mask;
    int8_t cube_math_type;
    const aclTensor *grad_input;
    const aclTensor *grad_weight;
    const aclTensor *grad_bias;
} conv_bwd_args;

/*
 * Runs every check of docs/validation.md (CANN's ConvolutionBackwardChecker
 * for soc, in CANN's order, then aclconv's own safety checks) and returns the
 * status of the first that fails, having recorded a message naming the
 * parameter and the bad value; ACLNN_SUCCESS if all pass. Pure: reads only the
 * argument objects, never tensor data.
 *
 * On success, *empty is set when input, weight or gradOutput has no element
 * (then the empty-tensor rules were applied and the only work left is zero
 * filling gradWeight / gradBias).
 */
aclnnStatus conv_bwd_validate(const conv_bwd_args *a, soc_id soc, bool *empty);

#endif /* ACLCONV_CONV_BWD_CHECK_H_ */
