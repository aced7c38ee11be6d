/*
 * Fault injection: every allocation of a whole program's life (aclInit,
 * stream, device memory, tensors, arrays, planning, executor, run, async
 * copy, synchronize, clean up, aclFinalize) is made to fail in turn.
 *
 * For N = 1, 2, ...: aclconvTestFailAllocAt(N) makes the Nth allocation and
 * every later one fail; the sequence then runs and, at its first failing
 * step, checks that the failure is a status CANN would give (NULL with a
 * message from a create function, ACL_ERROR_BAD_ALLOC from the runtime,
 * ACLNN_ERR_INNER_* from planning, ACLNN_ERR_INNER_NULLPTR or
 * ACLNN_ERR_RUNTIME_ERROR from the run call), cleans up what exists, and
 * checks the executor's state (consumed or not) is the documented one. Then a
 * fault-free sequence must give bitwise the baseline results: the library is
 * still usable. The walk stops at the first N where no allocation failed.
 *
 * Leaks: `make asan` runs this under LeakSanitizer, which fails the test if
 * any failure path leaks (glibc's own counters are useless here: per-thread
 * arenas of the stream workers come and go).
 */
#include "common/alloc.h"
#include "common/log.h"
#include "test_robust_case.h"

typedef struct seq_cfg {
    const char *name;
    rcase c;
    bool repeatable;
    int runs;
    bool default_stream;
    bool memcpy_async; /* read gradBias back with aclrtMemcpyAsync */
} seq_cfg;

/* A failure message is there and says something. */
#define CHECK_MSG_SET(what) CHECK(aclGetRecentErrMsg()[0] != '\0', "%s failed without a message", what)

static bool is_inner(long st) { return st >= ACLNN_ERR_INNER && st < ACLNN_ERR_INNER + 1000; }

/* The whole program. Returns 0 when every step succeeded (outputs in *out),
 * 1 when a step failed (already checked). */
static int sequence(const seq_cfg *cfg, unsigned char **out, size_t *len)
{
    const rcase *c = &cfg->c;
    aclrtStream stream = NULL;
    rbufs b;
    memset(&b, 0, sizeof b);
    aclOpExecutor *ex = NULL;
    bool ex_live = false, queued = false;
    void *ws = NULL, *stage = NULL;
    uint64_t wsz = 0;
    int failed = 0;
    long fs;
    aclError e;
    aclnnStatus st;
    *out = NULL;
    *len = 0;

    CHECK_ST(aclInit(NULL), ACL_SUCCESS); /* allocates nothing */
    if (!cfg->default_stream) {
        aclconv_clear_error();
        e = aclrtCreateStream(&stream);
        if (e != ACL_SUCCESS) {
            CHECK_ST(e, ACL_ERROR_BAD_ALLOC);
            CHECK_MSG_SET("aclrtCreateStream");
            stream = NULL;
            failed = 1;
            goto cleanup;
        }
    }
    aclconv_clear_error();
    if (rbufs_create(c, &b, &fs) != 0) {
        CHECK(fs == ACL_ERROR_BAD_ALLOC || fs == -1, "create failed with %ld", fs);
        CHECK_MSG_SET("a create function");
        failed = 1;
        goto cleanup;
    }
    aclconv_clear_error();
    st = rc_plan(c, &b, &wsz, &ex);
    if (st != ACLNN_SUCCESS) {
        CHECK(is_inner(st), "GetWorkspaceSize under OOM returned %d, want ACLNN_ERR_INNER_*", st);
        CHECK_MSG_SET("GetWorkspaceSize");
        ex = NULL;
        failed = 1;
        goto cleanup;
    }
    ex_live = true;
    if (cfg->repeatable) CHECK_ST(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
    if (wsz > 0) {
        aclconv_clear_error();
        e = aclrtMalloc(&ws, wsz, ACL_MEM_MALLOC_HUGE_FIRST);
        if (e != ACL_SUCCESS) {
            CHECK_ST(e, ACL_ERROR_BAD_ALLOC);
            CHECK_MSG_SET("aclrtMalloc(workspace)");
            ws = NULL;
            failed = 1;
            goto cleanup;
        }
    }
    for (int r = 0; r < cfg->runs; ++r) {
        aclconv_clear_error();
        st = aclnnConvolutionBackward(ws, wsz, ex, stream);
        if (st != ACLNN_SUCCESS) {
            /* out of memory queuing (executor kept), or the stream could not
             * take the task (a one-shot executor is consumed) */
            CHECK(st == ACLNN_ERR_INNER_NULLPTR || st == ACLNN_ERR_RUNTIME_ERROR,
                  "run under OOM returned %d", st);
            CHECK_MSG_SET("aclnnConvolutionBackward");
            if (st == ACLNN_ERR_RUNTIME_ERROR && !cfg->repeatable) ex_live = false;
            failed = 1;
            goto cleanup;
        }
        queued = true;
        if (!cfg->repeatable) ex_live = false;
    }
    if (cfg->memcpy_async) {
        aclconv_clear_error();
        e = aclrtMallocHost(&stage, b.bytes[RC_DB]);
        if (e != ACL_SUCCESS) {
            CHECK_ST(e, ACL_ERROR_BAD_ALLOC);
            CHECK_MSG_SET("aclrtMallocHost");
            stage = NULL;
            failed = 1;
            goto cleanup;
        }
        aclconv_clear_error();
        e = aclrtMemcpyAsync(stage, b.bytes[RC_DB], b.mem[RC_DB], b.bytes[RC_DB],
                             ACL_MEMCPY_DEVICE_TO_HOST, stream);
        if (e != ACL_SUCCESS) {
            CHECK_ST(e, ACL_ERROR_BAD_ALLOC);
            CHECK_MSG_SET("aclrtMemcpyAsync");
            failed = 1;
            goto cleanup;
        }
    }
    /* waits without allocating: succeeds even out of memory (F2) */
    CHECK_ST(aclrtSynchronizeDevice(), ACL_SUCCESS);
    *out = rc_outputs(c, &b, len);
    if (cfg->memcpy_async)
        CHECK(memcmp(stage, b.mem[RC_DB], b.bytes[RC_DB]) == 0, "async copy of gradBias differs");

cleanup:
    /* work already queued finishes before anything is freed; a stream
     * synchronize allocates nothing, so it works out of memory */
    if (queued) CHECK_ST(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    if (ex != NULL) {
        st = aclDestroyAclOpExecutor(ex);
        if (ex_live)
            CHECK_ST(st, ACLNN_SUCCESS);
        else
            CHECK_ST(st, ACLNN_ERR_PARAM_INVALID); /* consumed: not live any more */
    }
    if (ws != NULL) CHECK_ST(aclrtFree(ws), ACL_SUCCESS);
    if (stage != NULL) CHECK_ST(aclrtFreeHost(stage), ACL_SUCCESS);
    rbufs_destroy(&b);
    if (stream != NULL) CHECK_ST(aclrtDestroyStream(stream), ACL_SUCCESS);
    CHECK_ST(aclFinalize(), ACL_SUCCESS);
    return failed;
}

static void walk(const seq_cfg *cfg)
{
    unsigned char *base = NULL, *got = NULL;
    size_t base_len = 0, got_len = 0;
    aclconvTestFailAllocAt(0);
    if (sequence(cfg, &base, &base_len) != 0) {
        CHECK(false, "%s: the fault-free baseline failed", cfg->name);
        return;
    }
    /* warm-up: lazily created process state (compute pool, ...) */
    if (sequence(cfg, &got, &got_len) == 0) free(got);
    long n, failures = 0, total_allocs = 0;
    for (n = 1;; ++n) {
        aclconvTestFailAllocAt(n);
        int r = sequence(cfg, &got, &got_len);
        long made = aclconvTestFailAllocAt(0);
        if (made < n) { /* nothing failed: the full sequence ran */
            CHECK(r == 0, "%s: no allocation failed but the sequence did", cfg->name);
            CHECK(got_len == base_len && memcmp(got, base, base_len) == 0,
                  "%s: results differ from the baseline", cfg->name);
            free(got);
            total_allocs = made;
            break;
        }
        failures += r;
        free(got);
        got = NULL;
        /* still usable: a clean run gives the same bits */
        r = sequence(cfg, &got, &got_len);
        CHECK(r == 0 && got_len == base_len && memcmp(got, base, base_len) == 0,
              "%s: after failing allocation %ld the library gives other results", cfg->name, n);
        free(got);
        got = NULL;
        if (n > 10000) {
            CHECK(false, "%s: the walk does not end", cfg->name);
            break;
        }
    }
    printf("%s: %ld allocations, each failed in turn: %ld sequences stopped with a status\n",
           cfg->name, total_allocs, failures);
    free(base);
}

int main(void)
{
    seq_cfg cfgs[3];
    memset(cfgs, 0, sizeof cfgs);

    cfgs[0].name = "2d one-shot, own stream, async copy";
    cfgs[0].c = rcase_2d(2, 3, 4, 5, 6, 3);
    cfgs[0].runs = 1;
    cfgs[0].memcpy_async = true;

    cfgs[1].name = "3d transposed fp16 groups=2, repeatable x2, default stream";
    rcase c3 = rcase_2d(1, 4, 2, 3, 3, 2);
    c3.rank = 3;
    c3.transposed = true;
    c3.groups = 2;
    c3.in[2] = 2;
    for (int i = 0; i < 3; ++i) c3.p[i] = 0, c3.s[i] = 2;
    c3.dt = ACL_FLOAT16;
    cfgs[1].c = c3;
    cfgs[1].repeatable = true;
    cfgs[1].runs = 2;
    cfgs[1].default_stream = true;

    cfgs[2].name = "1d bf16, gradInput not requested";
    rcase c1 = rcase_2d(2, 2, 3, 7, 1, 3);
    c1.rank = 1;
    c1.dt = ACL_BF16;
    c1.mask[0] = false;
    cfgs[2].c = c1;
    cfgs[2].runs = 1;

    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; ++i) walk(&cfgs[i]);
    if (g_test_failures) {
        printf("test_faults: %d check(s) failed\n", g_test_failures);
        return 1;
    }
    printf("test_faults: all checks passed\n");
    return 0;
}
