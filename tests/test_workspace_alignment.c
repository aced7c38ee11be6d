/*
 * The workspace may come at any alignment: the run moves its base up to 64
 * bytes inside the planned size. A convolution big enough for the fast
 * engine runs with the workspace at every offset 0..63 from a 64-byte
 * boundary; results must equal the aligned run bit for bit, and the bytes
 * after the planned size must stay untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_convolution_backward.h"

enum { N = 2, C = 24, O = 20, HW = 13, K = 3, GUARD = 256 };

static float g_x[N * C * HW * HW], g_dy[N * O * HW * HW], g_w[O * C * K * K];
static float g_dx[N * C * HW * HW], g_dw[O * C * K * K], g_db[O];

static aclTensor *tensor4(const int64_t *dims, float *data)
{
    int64_t strides[4] = {dims[1] * dims[2] * dims[3], dims[2] * dims[3], dims[3], 1};
    return aclCreateTensor(dims, 4, ACL_FLOAT, strides, 0, ACL_FORMAT_NCHW, dims, 4, data);
}

/* Runs the problem with the workspace at base + offset; 0 on success. */
static int run(unsigned char *base, size_t offset, uint64_t *planned, aclrtStream stream)
{
    const int64_t xd[4] = {N, C, HW, HW}, yd[4] = {N, O, HW, HW}, wd[4] = {O, C, K, K};
    const int64_t bd[1] = {O}, one[2] = {1, 1}, pad[2] = {1, 1}, zero[2] = {0, 0};
    const bool mask[3] = {true, true, true};
    aclTensor *x = tensor4(xd, g_x), *dy = tensor4(yd, g_dy), *w = tensor4(wd, g_w);
    aclTensor *dx = tensor4(xd, g_dx), *dw = tensor4(wd, g_dw);
    aclTensor *db = aclCreateTensor(bd, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, bd, 1, g_db);
    aclIntArray *s = aclCreateIntArray(one, 2), *p = aclCreateIntArray(pad, 2);
    aclIntArray *d = aclCreateIntArray(one, 2), *op = aclCreateIntArray(zero, 2);
    aclBoolArray *m = aclCreateBoolArray(mask, 3);
    aclOpExecutor *e = NULL;
    int rc = aclnnConvolutionBackwardGetWorkspaceSize(dy, x, w, NULL, s, p, d, false, op, 1, m, 0,
                                                      dx, dw, db, planned, &e);
    if (rc == 0 && base != NULL) {
        memset(base + offset + *planned, 0x5C, GUARD);
        rc = aclnnConvolutionBackward(base + offset, *planned, e, stream);
        if (rc == 0) rc = aclrtSynchronizeStream(stream);
        for (size_t i = 0; rc == 0 && i < GUARD; ++i)
            if (base[offset + *planned + i] != 0x5C) rc = -1;
    } else if (rc == 0) {
        aclSetAclOpExecutorRepeatable(e);
        aclDestroyAclOpExecutor(e);
    }
    aclDestroyTensor(x), aclDestroyTensor(dy), aclDestroyTensor(w);
    aclDestroyTensor(dx), aclDestroyTensor(dw), aclDestroyTensor(db);
    aclDestroyIntArray(s), aclDestroyIntArray(p), aclDestroyIntArray(d), aclDestroyIntArray(op);
    aclDestroyBoolArray(m);
    return rc;
}

int main(void)
{
    aclrtStream stream = NULL;
    if (aclInit(NULL) != 0 || aclrtCreateStream(&stream) != 0) return 1;
    srand(7);
    float *ins[3] = {g_x, g_dy, g_w};
    size_t lens[3] = {sizeof g_x / 4, sizeof g_dy / 4, sizeof g_w / 4};
    for (int t = 0; t < 3; ++t)
        for (size_t i = 0; i < lens[t]; ++i) ins[t][i] = (float)(rand() % 9 - 4) * 0.37f;

    uint64_t planned = 0;
    if (run(NULL, 0, &planned, stream) != 0) return 1;
    /* aligned_alloc wants a multiple of the alignment (TSan checks it) */
    unsigned char *base = aligned_alloc(64, (planned + 64 + GUARD + 64 + 63) / 64 * 64);
    static float ref_dx[sizeof g_dx / 4], ref_dw[sizeof g_dw / 4], ref_db[O];
    int failures = 0;
    for (size_t offset = 0; offset < 64; ++offset) {
        memset(base, 0xA5, planned + 64);
        if (run(base, offset, &planned, stream) != 0) {
            printf("FAIL offset %zu: run failed or wrote past the workspace: %s\n", offset,
                   aclGetRecentErrMsg());
            ++failures;
            continue;
        }
        if (offset == 0) {
            memcpy(ref_dx, g_dx, sizeof g_dx), memcpy(ref_dw, g_dw, sizeof g_dw);
            memcpy(ref_db, g_db, sizeof g_db);
        } else if (memcmp(ref_dx, g_dx, sizeof g_dx) || memcmp(ref_dw, g_dw, sizeof g_dw) ||
                   memcmp(ref_db, g_db, sizeof g_db)) {
            printf("FAIL offset %zu: results differ from the aligned run\n", offset);
            ++failures;
        }
    }
    free(base);
    aclrtDestroyStream(stream);
    aclFinalize();
    printf("test_workspace_alignment: planned %llu bytes, %s\n", (unsigned long long)planned,
           failures ? "FAILED" : "OK");
    return failures != 0;
}
