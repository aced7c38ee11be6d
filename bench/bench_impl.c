/* See bench_impl.h. Uses src/ internals: links the static library only. */
#include "bench_impl.h"

#include <stdio.h>

#include "common/soc.h"
#include "engine/conv_engine.h"
#include "planning/conv_problem.h"
#include "validation/conv_bwd_check.h"

int acl_bench_impl_names(const aclTensor *gradOutput, const aclTensor *input,
                         const aclTensor *weight, const aclIntArray *biasSizes,
                         const aclIntArray *stride, const aclIntArray *padding,
                         const aclIntArray *dilation, bool transposed,
                         const aclIntArray *outputPadding, int groups,
                         const aclBoolArray *outputMask, int8_t cubeMathType, aclTensor *gradInput,
                         aclTensor *gradWeight, aclTensor *gradBias, char (*names)[48])
{
    snprintf(names[0], 48, "?");
    snprintf(names[1], 48, "?");
    const conv_bwd_args args = {gradOutput, input,        weight,     biasSizes,     stride,
                                padding,    dilation,     transposed, outputPadding, groups,
                                outputMask, cubeMathType, gradInput,  gradWeight,    gradBias};
    const soc_id soc = soc_current();
    bool empty = false;
    if (conv_bwd_validate(&args, soc, &empty) != ACLNN_SUCCESS) return -1;
    conv_problem problem;
    conv_problem_init(&problem, &args, soc, empty);
    void *plan = NULL;
    uint64_t size = 0;
    if (conv_plan_create(&problem, &plan, &size) != ACLNN_SUCCESS) return -1;
    for (int pass = 0; pass < 2; ++pass)
        snprintf(names[pass], 48, "%s", conv_plan_impl_name(plan, pass));
    conv_plan_ops.destroy(plan);
    return 0;
}
