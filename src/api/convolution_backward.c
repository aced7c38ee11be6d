/* aclnnConvolutionBackward: the two-phase entry points. */
#include "aclnnop/aclnn_convolution_backward.h"

#include "api/executor.h"
#include "common/log.h"
#include "engine/conv_engine.h"
#include "planning/conv_problem.h"
#include "validation/conv_bwd_check.h"

#define OP_NAME "aclnnConvolutionBackward"

ACLNN_API aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *input, const aclTensor *weight,
    const aclIntArray *biasSizes, const aclIntArray *stride, const aclIntArray *padding,
    const aclIntArray *dilation, bool transposed, const aclIntArray *outputPadding, int groups,
    const aclBoolArray *outputMask, int8_t cubeMathType, aclTensor *gradInput,
    aclTensor *gradWeight, aclTensor *gradBias, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    if (workspaceSize == NULL || executor == NULL) {
        aclconv_set_error(OP_NAME ": %s is NULL", workspaceSize == NULL ? "workspaceSize"
                                                                         : "executor");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    const conv_bwd_args args = {gradOutput, input,         weight,     biasSizes,
                                stride,     padding,       dilation,   transposed,
                                outputPadding, groups,     outputMask, cubeMathType,
                                gradInput,  gradWeight,    gradBias};
    const soc_id soc = soc_current();
    bool empty = false;
    aclnnStatus st = conv_bwd_validate(&args, soc, &empty);
    if (st != ACLNN_SUCCESS) return st;

    conv_problem problem;
    conv_problem_init(&problem, &args, soc, empty);
    void *plan = NULL;
    uint64_t size = 0;
    st = conv_plan_create(&problem, &plan, &size);
    if (st != ACLNN_SUCCESS) return st;
    aclOpExecutor *e = executor_create(&conv_plan_ops, plan, size);
    if (e == NULL) return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    *workspaceSize = size;
    *executor = e;
    return ACLNN_SUCCESS;
}

ACLNN_API aclnnStatus aclnnConvolutionBackward(void *workspace, uint64_t workspaceSize,
                                               aclOpExecutor *executor, const aclrtStream stream)
{
    return executor_launch(OP_NAME, workspace, workspaceSize, executor, stream);
}
