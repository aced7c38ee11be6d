/*
 * aclnnop/aclnn_convolution_backward.h: gradients of a 1D, 2D or 3D
 * convolution (or transposed convolution) with respect to its input, weight
 * and bias.
 *
 * Forward convolution (transposed == false), with groups g, per spatial dim i:
 *   input      x  [N, Cin, S...]           (S = L, or H,W, or D,H,W)
 *   weight     w  [Cout, Cin/g, K...]
 *   gradOutput dy [N, Cout, O...]
 *   O_i = floor((S_i + padHead_i + padTail_i - dilation_i*(K_i-1) - 1) / stride_i) + 1
 *   y[n,co,o] = sum_{ci in group(co), k} x[n,ci, o*stride - padHead + k*dilation] * w[co,ci',k]
 * Gradients (out-of-range x positions contribute 0; untouched inputs get 0):
 *   gradInput [n,ci,i]  = sum_{co in group(ci)} sum_{o,k: o*stride - padHead + k*dilation = i}
 *                           dy[n,co,o] * w[co,ci',k]
 *   gradWeight[co,ci',k] = sum_{n,o} x[n,ci, o*stride - padHead + k*dilation] * dy[n,co,o]
 *   gradBias  [co]       = sum_{n,o} dy[n,co,o]
 *
 * Transposed convolution (transposed == true) is the adjoint of the above:
 *   input [N, Cin, S...], weight [Cin, Cout/g, K...], gradOutput [N, Cout, O...],
 *   O_i = (S_i - 1)*stride_i - 2*padding_i + dilation_i*(K_i-1) + outputPadding_i + 1,
 *   gradInput = forward convolution of gradOutput with weight (same stride,
 *   padding, dilation, groups); gradWeight swaps the roles of input and
 *   gradOutput; gradBias[co] = sum of gradOutput over N and space.
 *
 * Numerics (see docs/numerics.md): products accumulate in fp32. cubeMathType
 * chooses the operand precision: 0 keeps the promoted dtype, 1 and 3 use HF32
 * (11-bit mantissa) for FLOAT, 2 rounds operands to FLOAT16.
 */
#ifndef ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H_
#define ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Phase 1: validates every argument, plans the computation and returns the
 * workspace it needs. Nothing is read from or written to tensor memory.
 *
 * gradOutput   dy: [N, Cout, O...] (3-D NCL/ND, 4-D NCHW or 5-D NCDHW);
 *              FLOAT, FLOAT16 or BFLOAT16 (Ascend910B; Ascend910/310P: no BF16).
 * input        x:  [N, Cin, S...], same rank as gradOutput.
 * weight       w:  [Cout, Cin/groups, K...] ([Cin, Cout/groups, K...] when transposed).
 * biasSizes    [Cout] (transposed: [weight[1]*groups]); read only when a tensor
 *              is empty and outputMask[2] is set; may be NULL otherwise.
 * stride       rank-2 values, each >= 1.
 * padding      rank-2 values (or 4 for 2D: top, bottom, left, right), each >= 0;
 *              with rank-2 values the padding is applied on both sides.
 * dilation     rank-2 values, each >= 1 (1 means a dense kernel).
 * transposed   true for the gradient of a transposed convolution.
 * outputPadding rank-2 values (or 4 for 2D); all 0 unless transposed, then >= 0
 *              (and < stride for 3D). The shapes of the tensors decide the
 *              computation; outputPadding is only validated.
 * groups       >= 1; Cin (transposed: Cout) = weight[1] * groups.
 * outputMask   3 booleans: compute gradInput, gradWeight, gradBias.
 * cubeMathType 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16, 3 USE_HF32.
 * gradInput    same shape as input; required when outputMask[0].
 * gradWeight   same shape as weight; required when outputMask[1].
 * gradBias     1-D [gradOutput.shape[1]], format ND; required when outputMask[2].
 *              Outputs whose mask entry is false may be NULL; if given they
 *              are validated but never written. Outputs may be strided views.
 * workspaceSize receives the bytes of workspace phase 2 needs (may be 0):
 *              packed weights (about the weight tensor; gradWeight adds at
 *              most 4 fp32 partial copies of it, 16 where it shares the
 *              gradInput pass's reads: few input channels, or strided
 *              transposed layers) plus, per compute thread,
 *              tiles of about 0.5-4 MiB (and, on AMD, where a 16-bit
 *              gradOutput with few input channels is read once for both
 *              gradients, an fp32 copy of one of its images, at most 8 MiB),
 *              and N x C
 *              floats (at most 4 MiB)
 *              when gradBias is summed inside the weights pass. Apart from
 *              those sums it does not grow with N (no im2col).
 *              Only calls the fast kernels decline (a kernel side > 32, more
 *              than 512 taps, a stride > 16) take the direct path, whose
 *              workspace is fp32 copies of the operands it reads.
 * executor     receives the plan; consumed by aclnnConvolutionBackward.
 *
 * Returns ACLNN_SUCCESS, ACLNN_ERR_PARAM_NULLPTR (a required pointer is NULL,
 * or outputMask does not have 3 entries), ACLNN_ERR_PARAM_INVALID (a dtype,
 * format, shape or attribute is invalid, or the shapes do not agree), or
 * ACLNN_ERR_INNER_* when planning fails (e.g. out of memory). On failure
 * *executor is not written and aclGetRecentErrMsg() says why.
 */
ACLNN_API aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *input, const aclTensor *weight,
    const aclIntArray *biasSizes, const aclIntArray *stride, const aclIntArray *padding,
    const aclIntArray *dilation, bool transposed, const aclIntArray *outputPadding, int groups,
    const aclBoolArray *outputMask, int8_t cubeMathType, aclTensor *gradInput,
    aclTensor *gradWeight, aclTensor *gradBias, uint64_t *workspaceSize,
    aclOpExecutor **executor);

/*
 * Phase 2: queues the planned computation on stream (NULL: the default
 * stream) and returns; aclrtSynchronizeStream waits for it. workspace must
 * hold at least the planned workspaceSize bytes (it may be NULL when that is
 * 0), at any alignment, and stay valid until the run has finished. The executor is released after the run unless it was made repeatable.
 * Returns ACLNN_ERR_PARAM_NULLPTR for a NULL executor or a NULL workspace with
 * a non-zero planned size, ACLNN_ERR_PARAM_INVALID for a too small workspace
 * or an executor already consumed.
 */
ACLNN_API aclnnStatus aclnnConvolutionBackward(void *workspace, uint64_t workspaceSize,
                                               aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H_ */
