/*
 * Helpers shared by the C examples: the steps of the official aclnn usage
 * flow (init, device, stream, device memory, tensors, clean up), in C.
 */
#ifndef ACLCONV_EXAMPLE_UTIL_H_
#define ACLCONV_EXAMPLE_UTIL_H_

#include "acl/acl.h"
#include "aclnnop/aclnn_convolution_backward.h"

#define CHECK_RET(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf(__VA_ARGS__);                                                                   \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

/* A device buffer and the tensor viewing it (contiguous, storage = view). */
typedef struct {
    int64_t shape[5];
    uint64_t ndim;
    void *device;
    aclTensor *tensor;
} example_tensor;

static inline int64_t example_numel(const example_tensor *t)
{
    int64_t n = 1;
    for (uint64_t i = 0; i < t->ndim; ++i) n *= t->shape[i];
    return n;
}

/* aclInit, aclrtSetDevice, aclrtCreateStream. */
static inline int example_init(int32_t device, aclrtStream *stream)
{
    aclError ret = aclInit(NULL);
    CHECK_RET(ret == ACL_SUCCESS, "aclInit failed. ERROR: %d\n", ret);
    ret = aclrtSetDevice(device);
    CHECK_RET(ret == ACL_SUCCESS, "aclrtSetDevice failed. ERROR: %d\n", ret);
    ret = aclrtCreateStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, "aclrtCreateStream failed. ERROR: %d\n", ret);
    return 0;
}

static inline void example_finalize(int32_t device, aclrtStream stream)
{
    aclrtDestroyStream(stream);
    aclrtResetDevice(device);
    aclFinalize();
}

/* Allocates device memory for t, fills it with `value` (fp32) and creates the
 * tensor with contiguous strides and the given format. */
static inline int example_tensor_create(example_tensor *t, float value, aclFormat format)
{
    int64_t n = example_numel(t);
    size_t bytes = (size_t)n * sizeof(float);
    aclError ret = aclrtMalloc(&t->device, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, "aclrtMalloc failed. ERROR: %d\n", ret);
    float *host = NULL;
    ret = aclrtMallocHost((void **)&host, bytes);
    CHECK_RET(ret == ACL_SUCCESS, "aclrtMallocHost failed. ERROR: %d\n", ret);
    for (int64_t i = 0; i < n; ++i) host[i] = value;
    ret = aclrtMemcpy(t->device, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtFreeHost(host);
    CHECK_RET(ret == ACL_SUCCESS, "aclrtMemcpy failed. ERROR: %d\n", ret);

    int64_t strides[5];
    strides[t->ndim - 1] = 1;
    for (int64_t i = (int64_t)t->ndim - 2; i >= 0; --i) strides[i] = t->shape[i + 1] * strides[i + 1];
    t->tensor = aclCreateTensor(t->shape, t->ndim, ACL_FLOAT, strides, 0, format, t->shape, t->ndim,
                                t->device);
    CHECK_RET(t->tensor != NULL, "aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
    return 0;
}

static inline void example_tensor_destroy(example_tensor *t)
{
    aclDestroyTensor(t->tensor);
    if (t->device != NULL) aclrtFree(t->device);
}

/* Copies t back to the host and prints every element as the official example does. */
static inline int example_print(const char *name, const example_tensor *t)
{
    int64_t n = example_numel(t);
    size_t bytes = (size_t)n * sizeof(float);
    float *host = NULL;
    aclError ret = aclrtMallocHost((void **)&host, bytes);
    CHECK_RET(ret == ACL_SUCCESS, "aclrtMallocHost failed. ERROR: %d\n", ret);
    ret = aclrtMemcpy(host, bytes, t->device, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    if (ret == ACL_SUCCESS)
        for (int64_t i = 0; i < n; ++i) printf("%sResult[%ld] is: %f\n", name, (long)i, host[i]);
    aclrtFreeHost(host);
    CHECK_RET(ret == ACL_SUCCESS, "copy result from device to host failed. ERROR: %d\n", ret);
    return 0;
}

/* The attributes of one call, as plain arrays. */
typedef struct {
    int64_t stride[3], padding[3], dilation[3], output_padding[3];
    uint64_t spatial; /* 1, 2 or 3 */
    bool transposed;
    int groups;
    int8_t cube_math_type;
} example_attrs;

/* Runs the two-phase call on (gradOutput, input, weight) -> (gradInput,
 * gradWeight, gradBias) with all three outputs requested, and waits. */
static inline int example_run(const example_attrs *a, example_tensor *t[6], aclrtStream stream)
{
    int64_t bias_size = t[5]->shape[0];
    bool mask[3] = {true, true, true};
    aclIntArray *bias_sizes = aclCreateIntArray(&bias_size, 1);
    aclIntArray *stride = aclCreateIntArray(a->stride, a->spatial);
    aclIntArray *padding = aclCreateIntArray(a->padding, a->spatial);
    aclIntArray *dilation = aclCreateIntArray(a->dilation, a->spatial);
    aclIntArray *output_padding = aclCreateIntArray(a->output_padding, a->spatial);
    aclBoolArray *output_mask = aclCreateBoolArray(mask, 3);
    int status = 1;
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    void *workspace = NULL;
    if (!bias_sizes || !stride || !padding || !dilation || !output_padding || !output_mask) {
        printf("creating the attribute arrays failed: %s\n", aclGetRecentErrMsg());
        goto cleanup;
    }
    aclnnStatus ret = aclnnConvolutionBackwardGetWorkspaceSize(
        t[0]->tensor, t[1]->tensor, t[2]->tensor, bias_sizes, stride, padding, dilation,
        a->transposed, output_padding, a->groups, output_mask, a->cube_math_type, t[3]->tensor,
        t[4]->tensor, t[5]->tensor, &workspace_size, &executor);
    if (ret != ACL_SUCCESS) {
        printf("aclnnConvolutionBackwardGetWorkspaceSize failed. ERROR: %d (%s)\n", ret,
               aclGetRecentErrMsg());
        goto cleanup;
    }
    if (workspace_size > 0 &&
        (ret = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS) {
        printf("allocate workspace failed. ERROR: %d\n", ret);
        aclSetAclOpExecutorRepeatable(executor); /* so that it can be released unrun */
        aclDestroyAclOpExecutor(executor);
        goto cleanup;
    }
    ret = aclnnConvolutionBackward(workspace, workspace_size, executor, stream);
    if (ret != ACL_SUCCESS) {
        printf("aclnnConvolutionBackward failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
        goto cleanup;
    }
    ret = aclrtSynchronizeStream(stream);
    if (ret != ACL_SUCCESS) {
        printf("aclrtSynchronizeStream failed. ERROR: %d\n", ret);
        goto cleanup;
    }
    status = 0;
cleanup:
    if (workspace != NULL) aclrtFree(workspace);
    aclDestroyIntArray(bias_sizes);
    aclDestroyIntArray(stride);
    aclDestroyIntArray(padding);
    aclDestroyIntArray(dilation);
    aclDestroyIntArray(output_padding);
    aclDestroyBoolArray(output_mask);
    return status;
}

/* The whole flow of an example: init, tensors of all-ones data, the call,
 * printing gradInput, gradWeight and gradBias, clean up. */
static inline int example_main(const example_attrs *a, example_tensor t[6], aclFormat format)
{
    int32_t device = 0;
    aclrtStream stream = NULL;
    int status = example_init(device, &stream);
    if (status != 0) {
        example_finalize(device, stream);
        return status;
    }
    example_tensor *order[6];
    for (int i = 0; i < 6 && status == 0; ++i) {
        order[i] = &t[i];
        status = example_tensor_create(&t[i], 1.0f, i == 5 ? ACL_FORMAT_ND : format);
    }
    if (status == 0) status = example_run(a, order, stream);
    if (status == 0) status = example_print("gradInput", &t[3]);
    if (status == 0) status = example_print("gradWeight", &t[4]);
    if (status == 0) status = example_print("gradBias", &t[5]);
    for (int i = 0; i < 6; ++i) example_tensor_destroy(&t[i]);
    example_finalize(device, stream);
    return status;
}

#endif /* ACLCONV_EXAMPLE_UTIL_H_ */
