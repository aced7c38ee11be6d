/*
 * The precision modes, one product at a time: a 1x1x1 convolution makes
 * gradWeight = x * dy and gradInput = dy * w, so each output shows exactly how
 * the operands were rounded. Values sit on rounding ties of the formats:
 *   1 + 2^-11 is exact in HF32 (11 mantissa bits), a tie in FLOAT16 (10 bits)
 *             that rounds to even: 1.0;
 *   1 + 2^-12 is a tie in HF32 (rounds to 1.0) and exact in FLOAT.
 * Checked per SoC (ACLCONV_SOC) and cubeMathType against docs/numerics.md §2,
 * including the calls the SoC rejects.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aclnnop/aclnn_convolution_backward.h"
#include "test_check.h"

/* Runs the 1x1x1 problem; returns the status and fills dx, dw. */
static aclnnStatus run(aclrtStream s, int8_t cube, float x, float w, float *dx, float *dw)
{
    float dy = 1.0f, db = 0.0f;
    const int64_t d[3] = {1, 1, 1}, bd[1] = {1}, one[1] = {1}, zero[1] = {0};
    const bool mask[3] = {true, true, true};
    aclTensor *tx = aclCreateTensor(d, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCL, d, 3, &x);
    aclTensor *tw = aclCreateTensor(d, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCL, d, 3, &w);
    aclTensor *tdy = aclCreateTensor(d, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCL, d, 3, &dy);
    aclTensor *tdx = aclCreateTensor(d, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCL, d, 3, dx);
    aclTensor *tdw = aclCreateTensor(d, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCL, d, 3, dw);
    aclTensor *tdb = aclCreateTensor(bd, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, bd, 1, &db);
    aclIntArray *st = aclCreateIntArray(one, 1), *pd = aclCreateIntArray(zero, 1);
    aclIntArray *dl = aclCreateIntArray(one, 1), *op = aclCreateIntArray(zero, 1);
    aclBoolArray *mk = aclCreateBoolArray(mask, 3);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    aclnnStatus rc = aclnnConvolutionBackwardGetWorkspaceSize(tdy, tx, tw, NULL, st, pd, dl, false,
                                                              op, 1, mk, cube, tdx, tdw, tdb, &ws, &e);
    void *work = NULL;
    if (rc == ACLNN_SUCCESS && ws > 0) CHECK_ST(aclrtMalloc(&work, ws, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    if (rc == ACLNN_SUCCESS) {
        CHECK_ST(aclnnConvolutionBackward(work, ws, e, s), ACLNN_SUCCESS);
        CHECK_ST(aclrtSynchronizeStream(s), ACL_SUCCESS);
    }
    if (work != NULL) aclrtFree(work);
    aclDestroyTensor(tx), aclDestroyTensor(tw), aclDestroyTensor(tdy);
    aclDestroyTensor(tdx), aclDestroyTensor(tdw), aclDestroyTensor(tdb);
    aclDestroyIntArray(st), aclDestroyIntArray(pd), aclDestroyIntArray(dl), aclDestroyIntArray(op);
    aclDestroyBoolArray(mk);
    return rc;
}

typedef struct mode_case {
    const char *soc;
    int8_t cube;
    float operand;   /* x and w */
    aclnnStatus status;
    float product;   /* expected gradInput and gradWeight */
} mode_case;

int main(void)
{
    const float tie16 = 1.0f + 0x1p-11f, tie_hf32 = 1.0f + 0x1p-12f;
    const mode_case cases[] = {
        /* Ascend910B: fp32 cube with HF32 */
        {"Ascend910B", 0, tie_hf32, ACLNN_SUCCESS, tie_hf32},
        {"Ascend910B", 1, tie_hf32, ACLNN_SUCCESS, 1.0f},
        {"Ascend910B", 1, tie16, ACLNN_SUCCESS, tie16},
        {"Ascend910B", 2, tie16, ACLNN_SUCCESS, 1.0f},
        {"Ascend910B", 3, tie_hf32, ACLNN_SUCCESS, 1.0f},
        {"Ascend910B", 3, tie16, ACLNN_SUCCESS, tie16},
        {"Ascend910_93", 1, tie_hf32, ACLNN_SUCCESS, 1.0f},
        /* Ascend910 / Ascend310P: no fp32 cube; mode 1 means FLOAT16 */
        {"Ascend910", 0, tie16, ACLNN_ERR_PARAM_INVALID, 0.0f},
        {"Ascend910", 1, tie16, ACLNN_SUCCESS, 1.0f},
        {"Ascend910", 2, tie16, ACLNN_SUCCESS, 1.0f},
        {"Ascend910", 3, tie16, ACLNN_ERR_PARAM_INVALID, 0.0f},
        {"Ascend310P", 1, tie16, ACLNN_SUCCESS, 1.0f},
        {"Ascend310P", 0, tie16, ACLNN_ERR_PARAM_INVALID, 0.0f},
    };
    aclrtStream s = NULL;
    CHECK_ST(aclInit(NULL), ACL_SUCCESS);
    CHECK_ST(aclrtCreateStream(&s), ACL_SUCCESS);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const mode_case *c = &cases[i];
        setenv("ACLCONV_SOC", c->soc, 1);
        float dx = NAN, dw = NAN;
        aclnnStatus rc = run(s, c->cube, c->operand, c->operand, &dx, &dw);
        CHECK(rc == c->status, "%s cubeMathType %d: status %d, want %d (%s)", c->soc, c->cube,
              (int)rc, (int)c->status, aclGetRecentErrMsg());
        if (rc == ACLNN_SUCCESS && c->status == ACLNN_SUCCESS)
            CHECK(dx == c->product && dw == c->product,
                  "%s cubeMathType %d operand %.9g: gradInput %.9g gradWeight %.9g, want %.9g",
                  c->soc, c->cube, c->operand, dx, dw, c->product);
    }
    unsetenv("ACLCONV_SOC");
    CHECK_ST(aclrtDestroyStream(s), ACL_SUCCESS);
    CHECK_ST(aclFinalize(), ACL_SUCCESS);
    printf("test_conv_modes: %s\n", g_test_failures ? "FAILED" : "all checks passed");
    return g_test_failures != 0;
}
