/*
 * Regression tests for robustness bugs found by the fuzzer and the other
 * robustness tests (docs/robustness.md, "Bugs found"). Each test names the
 * finding; every one of them is fixed and its test runs unconditionally.
 */
#define _GNU_SOURCE /* setenv */
#include <unistd.h>

#include "common/alloc.h"
#include "test_robust_case.h"

/* Some of these bugs were hangs: fail in bounded time instead. */
#define REGRESSION_TIME_LIMIT_S 120

/*
 * F1 (fixed in 4af501e): strides whose product overflows int64 (accepted: one output position
 * makes any stride legal) made the fast engine claim the data pass with zero
 * sub-problems, leaving gradInput unwritten (and UB in data_nsub). With a
 * 5x5 input, 3x3 kernel and no padding, stride 8 and stride 2^32 are the same
 * problem (one output position), so the results must be bitwise equal.
 */
static void test_huge_stride_product(aclrtStream s, const char *impl)
{
    if (impl != NULL)
        setenv("ACLCONV_IMPL", impl, 1);
    else
        unsetenv("ACLCONV_IMPL");
    rcase small = rcase_2d(1, 16, 16, 5, 5, 3);
    small.p[0] = small.p[1] = 0;
    small.s[0] = small.s[1] = 8;
    rcase huge = small;
    huge.s[0] = huge.s[1] = (int64_t)1 << 32; /* product 2^64: wraps to 0 */
    unsigned char *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    CHECK(rc_run_once(&small, s, &a, &la) == 0, "stride 8 run");
    CHECK(rc_run_once(&huge, s, &b, &lb) == 0, "stride 2^32 run");
    CHECK(a && b && la == lb && memcmp(a, b, la) == 0,
          "F1 (%s): stride 2^32 gives other results than the equivalent stride 8",
          impl ? impl : "default engine");
    free(a);
    free(b);
    /* a 3-D call with three huge strides (product wraps to a negative value) */
    rcase h3 = small;
    h3.rank = 3;
    h3.in[2] = 5;
    h3.s[2] = 8; /* W: one output position too */
    rcase s3 = h3;
    h3.s[0] = INT64_MAX / 3;
    h3.s[1] = 3;
    h3.s[2] = 5;
    CHECK(rc_run_once(&s3, s, &a, &la) == 0, "3-D stride 8 run");
    CHECK(rc_run_once(&h3, s, &b, &lb) == 0, "3-D huge stride run");
    CHECK(a && b && la == lb && memcmp(a, b, la) == 0,
          "F1 (%s): 3-D strides with an overflowing product give other results",
          impl ? impl : "default engine");
    free(a);
    free(b);
    unsetenv("ACLCONV_IMPL");
}

/*
 * F2 (fixed in e082078): aclrtSynchronizeDevice allocated a snapshot of the
 * streams and, out of memory, returned ACL_ERROR_BAD_ALLOC before the work was
 * done; a caller freeing buffers on that error freed memory a task still used
 * (found by the fuzzer's fault injection). Now it waits without allocating.
 */
static void test_sync_device_out_of_memory(aclrtStream s)
{
    rcase c = rcase_2d(4, 32, 32, 32, 32, 3);
    rbufs b;
    long fs;
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    void *w = NULL;
    CHECK(rbufs_create(&c, &b, &fs) == 0, "rbufs_create");
    CHECK_ST(rc_plan(&c, &b, &ws, &ex), ACLNN_SUCCESS);
    CHECK_ST(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_ST(aclnnConvolutionBackward(w, ws, ex, s), ACLNN_SUCCESS);
    aclconvTestFailAllocAt(1); /* every allocation fails from now on */
    aclError e = aclrtSynchronizeDevice();
    aclconvTestFailAllocAt(0);
    CHECK_ST(e, ACL_SUCCESS);
    /* the run is over: gradBias holds sums, not the 0x7f pre-fill */
    const unsigned char *db = b.mem[RC_DB];
    CHECK(!(db[0] == 0x7f && db[1] == 0x7f && db[2] == 0x7f && db[3] == 0x7f),
          "F2: aclrtSynchronizeDevice returned before the queued run finished");
    CHECK_ST(aclrtSynchronizeStream(s), ACL_SUCCESS);
    aclrtFree(w);
    rbufs_destroy(&b);
}

/*
 * F3 (found by a one-hour fuzz run): a unit dim's stride is never stepped
 * along, so any value is legal, but the fast engine's prefetch sized a row
 * span with it (2^59 x 4 bytes: an endless loop). Views now get packed strides
 * for unit dims in planning, and the prefetch is bounded. A 2-D call with
 * W = 1 must give the same bits with a huge W stride as with a dense one.
 */
static void run_unit_w(aclrtStream s, int64_t w_stride, float out[3][128])
{
    enum { C = 6, H = 6, G = 1, K = 3 };
    static float x[C * H], dy[C * H], w[C * (C / G) * K];
    for (int i = 0; i < C * H; ++i) x[i] = (float)(i % 7) - 3.0f, dy[i] = (float)(i % 5) - 2.0f;
    for (int i = 0; i < C * (C / G) * K; ++i) w[i] = (float)(i % 3) - 1.0f;
    const int64_t xd[4] = {1, C, H, 1}, wd[4] = {C, C / G, K, 1}, bd[1] = {C};
    const int64_t xs[4] = {C * H, H, 1, w_stride}, ws[4] = {(C / G) * K, K, 1, w_stride};
    const int64_t one[2] = {1, 1}, pad[2] = {1, 0}, zero[2] = {0, 0};
    const bool mask[3] = {true, true, true};
    memset(out, 0, sizeof(float) * 3 * 128);
    aclTensor *tx = aclCreateTensor(xd, 4, ACL_FLOAT, xs, 0, ACL_FORMAT_NCHW, xd, 4, x);
    aclTensor *tdy = aclCreateTensor(xd, 4, ACL_FLOAT, xs, 0, ACL_FORMAT_NCHW, xd, 4, dy);
    aclTensor *tw = aclCreateTensor(wd, 4, ACL_FLOAT, ws, 0, ACL_FORMAT_NCHW, wd, 4, w);
    aclTensor *tdx = aclCreateTensor(xd, 4, ACL_FLOAT, xs, 0, ACL_FORMAT_NCHW, xd, 4, out[0]);
    aclTensor *tdw = aclCreateTensor(wd, 4, ACL_FLOAT, ws, 0, ACL_FORMAT_NCHW, wd, 4, out[1]);
    aclTensor *tdb = aclCreateTensor(bd, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, bd, 1, out[2]);
    aclIntArray *st = aclCreateIntArray(one, 2), *pd = aclCreateIntArray(pad, 2);
    aclIntArray *dl = aclCreateIntArray(one, 2), *op = aclCreateIntArray(zero, 2);
    aclBoolArray *mk = aclCreateBoolArray(mask, 3);
    uint64_t wsize = 0;
    aclOpExecutor *ex = NULL;
    void *work = NULL;
    CHECK_ST(aclnnConvolutionBackwardGetWorkspaceSize(tdy, tx, tw, NULL, st, pd, dl, false, op, G,
                                                      mk, 1, tdx, tdw, tdb, &wsize, &ex),
             ACLNN_SUCCESS);
    if (wsize > 0) CHECK_ST(aclrtMalloc(&work, wsize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_ST(aclnnConvolutionBackward(work, wsize, ex, s), ACLNN_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(s), ACL_SUCCESS);
    if (work != NULL) aclrtFree(work);
    aclDestroyTensor(tx), aclDestroyTensor(tdy), aclDestroyTensor(tw);
    aclDestroyTensor(tdx), aclDestroyTensor(tdw), aclDestroyTensor(tdb);
    aclDestroyIntArray(st), aclDestroyIntArray(pd), aclDestroyIntArray(dl), aclDestroyIntArray(op);
    aclDestroyBoolArray(mk);
}

static void test_unit_dim_huge_stride(aclrtStream s)
{
    static float dense[3][128], huge[3][128];
    run_unit_w(s, 1, dense);
    run_unit_w(s, (int64_t)1 << 59, huge);
    CHECK(memcmp(dense, huge, sizeof dense) == 0,
          "F3: a huge stride on a unit dim changes the results");
}

int main(void)
{
    alarm(REGRESSION_TIME_LIMIT_S); /* SIGALRM ends the program: a failure */
    aclrtStream s;
    CHECK_ST(aclInit(NULL), ACL_SUCCESS);
    CHECK_ST(aclrtCreateStream(&s), ACL_SUCCESS);

    /* F1, fixed in 4af501e */
    test_huge_stride_product(s, "direct");
    test_huge_stride_product(s, NULL);
    /* F2, fixed in e082078 */
    test_sync_device_out_of_memory(s);
    /* F3: unit-dim strides */
    test_unit_dim_huge_stride(s);

    CHECK_ST(aclrtDestroyStream(s), ACL_SUCCESS);
    CHECK_ST(aclFinalize(), ACL_SUCCESS);
    if (g_test_failures) {
        printf("test_robust_regressions: %d check(s) failed\n", g_test_failures);
        return 1;
    }
    printf("test_robust_regressions: all checks passed\n");
    return 0;
}
