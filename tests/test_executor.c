/*
 * Executors and workspaces: every misuse of the two-phase call is answered
 * with a status, never a crash, and leaves the executor in its documented
 * state (docs/architecture.md, "Executors"):
 *   run twice without aclSetAclOpExecutorRepeatable, repeatable runs many
 *   times then destroyed (also with runs still queued), destroy twice,
 *   NULL / garbage executors, a workspace smaller than planned, a NULL
 *   workspace with a non-zero size, bad and destroyed streams, outputs that
 *   alias inputs or overlap each other, views reaching outside their storage.
 */
#include "test_robust_case.h"

static aclrtStream g_stream;
static unsigned char *g_expect; /* outputs of a plain run of g_case */
static size_t g_expect_len;
static rcase g_case;

/* A planned executor of g_case with its buffers and a workspace. */
typedef struct planned {
    rbufs b;
    uint64_t ws_size;
    void *ws;
    aclOpExecutor *ex;
} planned;

static void plan_case(planned *p)
{
    long fs;
    memset(p, 0, sizeof *p);
    CHECK(rbufs_create(&g_case, &p->b, &fs) == 0, "rbufs_create");
    CHECK_ST(rc_plan(&g_case, &p->b, &p->ws_size, &p->ex), ACLNN_SUCCESS);
    CHECK(p->ws_size > 0, "the test problem needs a workspace");
    CHECK_ST(aclrtMalloc(&p->ws, p->ws_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
}

static void check_results(planned *p, const char *what)
{
    size_t len;
    unsigned char *got = rc_outputs(&g_case, &p->b, &len);
    CHECK(len == g_expect_len && memcmp(got, g_expect, len) == 0, "%s: wrong results", what);
    free(got);
}

static void unplan(planned *p)
{
    aclrtFree(p->ws);
    rbufs_destroy(&p->b);
}

static void *garbage(void) { return (void *)(uintptr_t)0xdeadbee0; }

static void test_one_shot_twice(void)
{
    planned p;
    plan_case(&p);
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, g_stream), ACLNN_SUCCESS);
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, g_stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclSetAclOpExecutorRepeatable(p.ex), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclDestroyAclOpExecutor(p.ex), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    check_results(&p, "one-shot");
    unplan(&p);
}

static void test_repeatable_many(void)
{
    planned p;
    plan_case(&p);
    CHECK_ST(aclSetAclOpExecutorRepeatable(p.ex), ACLNN_SUCCESS);
    CHECK_ST(aclSetAclOpExecutorRepeatable(p.ex), ACLNN_SUCCESS); /* no-op */
    for (int i = 0; i < 50; ++i) {
        CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, g_stream), ACLNN_SUCCESS);
        if (i % 10 == 9) {
            CHECK_ST(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
            check_results(&p, "repeatable");
            /* garbage in the outputs: the next run rewrites them completely */
            for (int o = RC_DX; o < RC_NT; ++o) memset(p.b.mem[o], 0xff, p.b.bytes[o]);
        }
    }
    CHECK_ST(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    CHECK_ST(aclDestroyAclOpExecutor(p.ex), ACLNN_SUCCESS);
    CHECK_ST(aclDestroyAclOpExecutor(p.ex), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, g_stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclSetAclOpExecutorRepeatable(p.ex), ACLNN_ERR_PARAM_INVALID);
    unplan(&p);

    /* destroyed while runs are still queued: released after they ran */
    plan_case(&p);
    CHECK_ST(aclSetAclOpExecutorRepeatable(p.ex), ACLNN_SUCCESS);
    for (int i = 0; i < 8; ++i)
        CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, g_stream), ACLNN_SUCCESS);
    CHECK_ST(aclDestroyAclOpExecutor(p.ex), ACLNN_SUCCESS);
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, g_stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    check_results(&p, "repeatable destroyed with queued runs");
    unplan(&p);
}

static void test_destroy_twice(void)
{
    planned p;
    plan_case(&p);
    CHECK_ST(aclDestroyAclOpExecutor(p.ex), ACLNN_SUCCESS); /* never run */
    CHECK_ST(aclDestroyAclOpExecutor(p.ex), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, g_stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclDestroyAclOpExecutor(NULL), ACLNN_SUCCESS);
    CHECK_ST(aclDestroyAclOpExecutor(garbage()), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclSetAclOpExecutorRepeatable(NULL), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclSetAclOpExecutorRepeatable(garbage()), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, NULL, g_stream), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, garbage(), g_stream), ACLNN_ERR_PARAM_INVALID);
    unplan(&p);
}

static void test_workspace_errors(void)
{
    planned p;
    plan_case(&p);
    /* argument errors leave the one-shot executor live: the retry works */
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size - 1, p.ex, g_stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclnnConvolutionBackward(p.ws, 0, p.ex, g_stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclnnConvolutionBackward(NULL, p.ws_size, p.ex, g_stream), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclnnConvolutionBackward(NULL, 0, p.ex, g_stream), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclnnConvolutionBackward(NULL, UINT64_MAX, p.ex, g_stream), ACLNN_ERR_PARAM_NULLPTR);
    /* a larger workspace than planned is fine */
    void *big = NULL;
    CHECK_ST(aclrtMalloc(&big, p.ws_size + 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_ST(aclnnConvolutionBackward(big, p.ws_size + 4096, p.ex, g_stream), ACLNN_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    check_results(&p, "after workspace errors");
    aclrtFree(big);
    unplan(&p);

    /* phase 1 without somewhere to put its results */
    plan_case(&p);
    CHECK_ST(aclDestroyAclOpExecutor(p.ex), ACLNN_SUCCESS);
    aclOpExecutor *ex = NULL;
    uint64_t ws = 0;
    CHECK_ST(rc_plan(&g_case, &p.b, NULL, &ex), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(rc_plan(&g_case, &p.b, &ws, NULL), ACLNN_ERR_PARAM_NULLPTR);
    CHECK(ex == NULL, "executor written on failure");
    unplan(&p);
}

static void test_streams(void)
{
    planned p;
    /* repeatable on a bad stream: an error, the executor stays live */
    plan_case(&p);
    CHECK_ST(aclSetAclOpExecutorRepeatable(p.ex), ACLNN_SUCCESS);
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, garbage()), ACLNN_ERR_RUNTIME_ERROR);
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, g_stream), ACLNN_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    check_results(&p, "repeatable after a bad stream");
    CHECK_ST(aclDestroyAclOpExecutor(p.ex), ACLNN_SUCCESS);
    unplan(&p);

    /* one-shot on a destroyed stream: an error, and the executor is consumed */
    aclrtStream dead;
    CHECK_ST(aclrtCreateStream(&dead), ACL_SUCCESS);
    CHECK_ST(aclrtDestroyStream(dead), ACL_SUCCESS);
    plan_case(&p);
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, dead), ACLNN_ERR_RUNTIME_ERROR);
    CHECK_ST(aclDestroyAclOpExecutor(p.ex), ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclrtSynchronizeStream(dead), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclrtDestroyStream(dead), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    unplan(&p);
}

/* The executor copied what it needs: tensors and arrays destroyed between the
 * two phases (or re-initialized) change nothing. */
static void test_objects_destroyed_after_plan(void)
{
    planned p;
    plan_case(&p);
    CHECK_ST(aclSetAclOpExecutorRepeatable(p.ex), ACLNN_SUCCESS);
    int64_t one[1] = {1};
    CHECK_ST(aclInitTensor(p.b.t[RC_DX], one, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, one, 1,
                           p.b.mem[RC_X]),
             ACLNN_SUCCESS);
    for (int i = 0; i < RC_NT; ++i) {
        aclDestroyTensor(p.b.t[i]);
        p.b.t[i] = NULL;
    }
    aclDestroyIntArray(p.b.stride);
    aclDestroyIntArray(p.b.pad);
    aclDestroyBoolArray(p.b.mask);
    p.b.stride = p.b.pad = NULL;
    p.b.mask = NULL;
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, g_stream), ACLNN_SUCCESS);
    CHECK_ST(aclnnConvolutionBackward(p.ws, p.ws_size, p.ex, g_stream), ACLNN_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    check_results(&p, "objects destroyed between the phases");
    CHECK_ST(aclDestroyAclOpExecutor(p.ex), ACLNN_SUCCESS);
    unplan(&p);
}

/* ---- aliasing and views outside storage ------------------------------------ */

/* GetWorkspaceSize of g_case with tensor `which` replaced by t (others from b). */
static aclnnStatus plan_with(rbufs *b, int which, aclTensor *t, const bool *mask)
{
    aclTensor *ts[RC_NT];
    for (int i = 0; i < RC_NT; ++i) ts[i] = i == which ? t : b->t[i];
    bool m[3] = {mask[0], mask[1], mask[2]};
    aclBoolArray *ma = aclCreateBoolArray(m, 3);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    aclnnStatus st = aclnnConvolutionBackwardGetWorkspaceSize(
        ts[RC_DY], ts[RC_X], ts[RC_W], b->bias, b->stride, b->pad, b->dil, g_case.transposed,
        b->outpad, (int)g_case.groups, ma, g_case.cube, ts[RC_DX], ts[RC_DW], ts[RC_DB], &ws, &ex);
    if (st == ACLNN_SUCCESS) {
        /* run it: the test cases that are accepted must also run cleanly */
        void *wsp = NULL;
        if (ws) aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_ST(aclnnConvolutionBackward(wsp, ws, ex, g_stream), ACLNN_SUCCESS);
        CHECK_ST(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
        if (wsp) aclrtFree(wsp);
    }
    aclDestroyBoolArray(ma);
    return st;
}

/* A tensor with the shape of b's tensor `like`, at data + elem_off elements,
 * with explicit strides / offset / storage. */
static aclTensor *tensor_like(const rbufs *b, int like, void *data, const int64_t *stride,
                              int64_t offset, const int64_t *storage, uint64_t storage_nd)
{
    const uint64_t nd = b->nd[like];
    aclFormat fmt = nd == 1 ? ACL_FORMAT_ND : nd == 3 ? ACL_FORMAT_NCL : nd == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW;
    return aclCreateTensor(b->shape[like], nd, g_case.dt, stride, offset, fmt,
                           storage ? storage : b->shape[like], storage ? storage_nd : nd, data);
}

static void test_aliasing(void)
{
    const bool all[3] = {true, true, true};
    rbufs b;
    long fs;
    CHECK(rbufs_create(&g_case, &b, &fs) == 0, "rbufs_create");
    const size_t es = aclDataTypeSize(g_case.dt);

    /* gradInput is the input's memory */
    aclTensor *t = tensor_like(&b, RC_DX, b.mem[RC_X], NULL, 0, NULL, 0);
    CHECK_ST(plan_with(&b, RC_DX, t, all), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(t);
    /* gradWeight is the weight's memory */
    t = tensor_like(&b, RC_DW, b.mem[RC_W], NULL, 0, NULL, 0);
    CHECK_ST(plan_with(&b, RC_DW, t, all), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(t);
    /* gradInput overlaps gradOutput by its last element only */
    size_t dy_elems = rc_numel(&b, RC_DY), dx_elems = rc_numel(&b, RC_DX);
    void *big = NULL;
    CHECK_ST(aclrtMalloc(&big, (dy_elems + dx_elems) * es, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memcpy(big, b.mem[RC_DY], dy_elems * es);
    aclTensor *dy = tensor_like(&b, RC_DY, big, NULL, 0, NULL, 0);
    t = tensor_like(&b, RC_DX, (char *)big + (dy_elems - 1) * es, NULL, 0, NULL, 0);
    aclTensor *saved = b.t[RC_DY];
    b.t[RC_DY] = dy;
    CHECK_ST(plan_with(&b, RC_DX, t, all), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(t);
    /* ... and right after it: accepted, and correct */
    t = tensor_like(&b, RC_DX, (char *)big + dy_elems * es, NULL, 0, NULL, 0);
    CHECK_ST(plan_with(&b, RC_DX, t, all), ACLNN_SUCCESS);
    CHECK(memcmp((char *)big + dy_elems * es, g_expect, dx_elems * es) == 0,
          "gradInput placed right after gradOutput: wrong results");
    aclDestroyTensor(t);
    b.t[RC_DY] = saved;
    aclDestroyTensor(dy);
    aclrtFree(big);
    /* two outputs overlapping each other: gradBias inside gradWeight */
    t = tensor_like(&b, RC_DB, b.mem[RC_DW], NULL, 0, NULL, 0);
    CHECK_ST(plan_with(&b, RC_DB, t, all), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(t);
    /* an output whose mask entry is false may alias an input: never written */
    const bool no_dx[3] = {false, true, true};
    unsigned char *x_before = malloc(b.bytes[RC_X]);
    memcpy(x_before, b.mem[RC_X], b.bytes[RC_X]);
    t = tensor_like(&b, RC_DX, b.mem[RC_X], NULL, 0, NULL, 0);
    CHECK_ST(plan_with(&b, RC_DX, t, no_dx), ACLNN_SUCCESS);
    CHECK(memcmp(x_before, b.mem[RC_X], b.bytes[RC_X]) == 0, "an unrequested output was written");
    aclDestroyTensor(t);
    free(x_before);
    rbufs_destroy(&b);
}

static void test_views_outside_storage(void)
{
    const bool all[3] = {true, true, true};
    rbufs b;
    long fs;
    CHECK(rbufs_create(&g_case, &b, &fs) == 0, "rbufs_create");
    for (int which = RC_DY; which < RC_NT; ++which) {
        const uint64_t tnd = b.nd[which];
        int64_t st[8], acc = 1, n = (int64_t)rc_numel(&b, which);
        for (uint64_t i = tnd; i-- > 0;) st[i] = acc, acc *= b.shape[which][i];
        /* offset one past the room in storage */
        aclTensor *t = tensor_like(&b, which, b.mem[which], st, 1, NULL, 0);
        CHECK_ST(plan_with(&b, which, t, all), ACLNN_ERR_PARAM_INVALID);
        aclDestroyTensor(t);
        /* storage one element short (1-D storage) */
        int64_t short_storage = n - 1;
        t = tensor_like(&b, which, b.mem[which], st, 0, &short_storage, 1);
        CHECK_ST(plan_with(&b, which, t, all), ACLNN_ERR_PARAM_INVALID);
        aclDestroyTensor(t);
        /* a stride that walks past the end, and one that overflows int64 */
        int64_t big[8];
        memcpy(big, st, sizeof big);
        big[0] = n;
        if (b.shape[which][0] > 1) {
            t = tensor_like(&b, which, b.mem[which], big, 0, NULL, 0);
            CHECK_ST(plan_with(&b, which, t, all), ACLNN_ERR_PARAM_INVALID);
            aclDestroyTensor(t);
        }
        big[0] = INT64_MAX / 2;
        if (b.shape[which][0] > 2) {
            t = tensor_like(&b, which, b.mem[which], big, 0, NULL, 0);
            CHECK_ST(plan_with(&b, which, t, all), ACLNN_ERR_PARAM_INVALID);
            aclDestroyTensor(t);
        }
        /* a huge offset */
        t = tensor_like(&b, which, b.mem[which], st, INT64_MAX - 1, NULL, 0);
        CHECK_ST(plan_with(&b, which, t, all), ACLNN_ERR_PARAM_INVALID);
        aclDestroyTensor(t);
        /* huge storage dims whose product overflows */
        int64_t huge[2] = {INT64_MAX / 2, 4};
        t = tensor_like(&b, which, b.mem[which], st, 0, huge, 2);
        CHECK_ST(plan_with(&b, which, t, all), ACLNN_ERR_PARAM_INVALID);
        aclDestroyTensor(t);
    }
    rbufs_destroy(&b);
}

int main(void)
{
    CHECK_ST(aclInit(NULL), ACL_SUCCESS);
    CHECK_ST(aclrtCreateStream(&g_stream), ACL_SUCCESS);
    g_case = rcase_2d(2, 4, 6, 7, 5, 3);
    g_case.groups = 2;
    if (rc_run_once(&g_case, g_stream, &g_expect, &g_expect_len) != 0) {
        printf("test_executor: the plain run failed\n");
        return 1;
    }
    test_one_shot_twice();
    test_repeatable_many();
    test_destroy_twice();
    test_workspace_errors();
    test_streams();
    test_objects_destroyed_after_plan();
    test_aliasing();
    test_views_outside_storage();
    free(g_expect);
    CHECK_ST(aclrtDestroyStream(g_stream), ACL_SUCCESS);
    CHECK_ST(aclFinalize(), ACL_SUCCESS);
    if (g_test_failures) {
        printf("test_executor: %d check(s) failed\n", g_test_failures);
        return 1;
    }
    printf("test_executor: all checks passed\n");
    return 0;
}
