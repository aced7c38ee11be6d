/*
 * gradBias has a documented summation order (src/engine/conv_bias.c): element
 * k of each (n, c) spatial block goes to accumulator k % 16, accumulators live
 * across n, then a fixed pairwise tree. This test pins it: for real-valued
 * FLOAT, FLOAT16 and BF16 gradOutput, dense and strided (gapped) layouts must
 * give the same bits, and both must equal a plain loop written from that
 * description.
 */
#include <stdlib.h>
#include <string.h>

#include "aclnnop/aclnn_convolution_backward.h"
#include "common/dtype.h"
#include "test_check.h"

enum { N = 3, C = 5, H = 7, W = 9, LANES = 16, GAP = 3 };

/* The documented order, from the fp32 values of gradOutput. */
static float bias_by_contract(const float *v, int c)
{
    float acc[LANES] = {0};
    for (int n = 0; n < N; ++n)
        for (int k = 0; k < H * W; ++k) acc[k % LANES] += v[(n * C + c) * H * W + k];
    for (int width = LANES / 2; width > 0; width /= 2)
        for (int j = 0; j < width; ++j) acc[j] += acc[j + width];
    return acc[0];
}

/* gradBias of gradOutput v (values in dtype dt) laid out dense or with a gap
 * after every row; out receives fp32 results. */
static void run(aclrtStream s, aclDataType dt, const float *v, int gapped, float *out)
{
    const int64_t row = W + (gapped ? GAP : 0);
    const int64_t yd[4] = {N, C, H, W}, ys[4] = {C * H * row, H * row, row, 1};
    const int64_t storage[1] = {N * C * H * row};
    const size_t es = aclDataTypeSize(dt);
    unsigned char *y = calloc((size_t)storage[0], es);
    for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c)
            for (int h = 0; h < H; ++h)
                for (int w = 0; w < W; ++w)
                    store_from_f32(y, dt, ((n * C + c) * H + h) * row + w,
                                   v[((n * C + c) * H + h) * W + w]);
    /* input and weight only shape the call: a 1x1 convolution, gradBias alone */
    static float x[N * C * H * W], wt[C * C];
    const int64_t wd[4] = {C, C, 1, 1}, bd[1] = {C}, one[2] = {1, 1}, zero[2] = {0, 0};
    const bool mask[3] = {false, false, true};
    aclTensor *ty = aclCreateTensor(yd, 4, dt, ys, 0, ACL_FORMAT_NCHW, storage, 1, y);
    aclTensor *tx = aclCreateTensor(yd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, yd, 4, x);
    aclTensor *tw = aclCreateTensor(wd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, wd, 4, wt);
    aclTensor *tb = aclCreateTensor(bd, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, bd, 1, out);
    aclIntArray *st = aclCreateIntArray(one, 2), *pd = aclCreateIntArray(zero, 2);
    aclIntArray *dl = aclCreateIntArray(one, 2), *op = aclCreateIntArray(zero, 2);
    aclBoolArray *mk = aclCreateBoolArray(mask, 3);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    CHECK_ST(aclnnConvolutionBackwardGetWorkspaceSize(ty, tx, tw, NULL, st, pd, dl, false, op, 1,
                                                      mk, 0, NULL, NULL, tb, &ws, &e),
             ACLNN_SUCCESS);
    CHECK_ST(aclnnConvolutionBackward(NULL, ws, e, s), ACLNN_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(s), ACL_SUCCESS);
    aclDestroyTensor(ty), aclDestroyTensor(tx), aclDestroyTensor(tw), aclDestroyTensor(tb);
    aclDestroyIntArray(st), aclDestroyIntArray(pd), aclDestroyIntArray(dl), aclDestroyIntArray(op);
    aclDestroyBoolArray(mk);
    free(y);
}

int main(void)
{
    aclrtStream s = NULL;
    CHECK_ST(aclInit(NULL), ACL_SUCCESS);
    CHECK_ST(aclrtCreateStream(&s), ACL_SUCCESS);
    const aclDataType dts[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    static float v[N * C * H * W];
    srand(11);
    for (int t = 0; t < 3; ++t) {
        /* real values, rounded to the dtype so the contract sees what is stored */
        for (int i = 0; i < N * C * H * W; ++i) {
            float r = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
            v[i] = dts[t] == ACL_FLOAT16 ? f32_round_f16(r) : dts[t] == ACL_BF16 ? f32_round_bf16(r) : r;
        }
        float dense[C], gapped[C];
        run(s, dts[t], v, 0, dense);
        run(s, dts[t], v, 1, gapped);
        for (int c = 0; c < C; ++c) {
            float want = bias_by_contract(v, c);
            CHECK(memcmp(&dense[c], &want, sizeof want) == 0 &&
                      memcmp(&gapped[c], &want, sizeof want) == 0,
                  "%s channel %d: dense %.9g, gapped %.9g, contract %.9g", dtype_name(dts[t]), c,
                  dense[c], gapped[c], want);
        }
    }
    CHECK_ST(aclrtDestroyStream(s), ACL_SUCCESS);
    CHECK_ST(aclFinalize(), ACL_SUCCESS);
    printf("test_conv_bias: %s\n", g_test_failures ? "FAILED" : "all checks passed");
    return g_test_failures != 0;
}
