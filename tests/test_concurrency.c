/*
 * Concurrency: the library used from several threads at once.
 *  - threads with their own streams run different convolutions at once, and
 *    threads sharing one stream submit to it at once: every result is
 *    bitwise the single-threaded one;
 *  - one repeatable executor queued from several threads; one executor
 *    destroyed by two threads at once (exactly one wins);
 *  - aclGetRecentErrMsg is per thread;
 *  - a stream destroyed with work pending (waits for it), destroyed while
 *    another thread submits to it, synchronized after its destruction, and
 *    work run after aclFinalize: statuses, never a crash.
 * SOAK_SECONDS=<s> in the environment repeats the concurrent parts for that
 * long (`make soak`); by default each runs a few rounds.
 */
#define _GNU_SOURCE /* usleep */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "test_robust_case.h"

#define NCASES 4
#define NTHREADS 4

static rcase g_cases[NCASES];
static unsigned char *g_expect[NCASES];
static size_t g_expect_len[NCASES];
static atomic_int g_thread_failures;

/* CHECK from a worker thread: g_test_failures is not atomic. */
#define TCHECK(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            atomic_fetch_add(&g_thread_failures, 1);                                               \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                 \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void make_cases(void)
{
    g_cases[0] = rcase_2d(2, 4, 6, 9, 7, 3);

    rcase c = rcase_2d(1, 4, 2, 4, 3, 2);
    c.rank = 3, c.transposed = true, c.groups = 2, c.in[2] = 3, c.dt = ACL_FLOAT16;
    for (int i = 0; i < 3; ++i) c.p[i] = 0, c.s[i] = 2;
    g_cases[1] = c;

    c = rcase_2d(3, 3, 5, 17, 1, 5);
    c.rank = 1, c.dt = ACL_BF16, c.seed = 7;
    g_cases[2] = c;

    c = rcase_2d(2, 6, 4, 11, 10, 3);
    c.groups = 2, c.seed = 11;
    for (int i = 0; i < 3; ++i) c.s[i] = 2, c.d[i] = 2, c.p[i] = 2;
    g_cases[3] = c;
}

static bool same(int k, const unsigned char *got, size_t len)
{
    return got != NULL && len == g_expect_len[k] && memcmp(got, g_expect[k], len) == 0;
}

/* ---- own streams / shared stream ------------------------------------------ */

typedef struct worker_arg {
    int id;
    int rounds;
    aclrtStream shared; /* NULL: the thread creates its own stream */
} worker_arg;

static void *conv_worker(void *p)
{
    worker_arg *a = p;
    aclrtStream s = a->shared;
    if (s == NULL && aclrtCreateStream(&s) != ACL_SUCCESS) {
        TCHECK(false, "thread %d: aclrtCreateStream: %s", a->id, aclGetRecentErrMsg());
        return NULL;
    }
    for (int r = 0; r < a->rounds; ++r) {
        int k = (a->id + r) % NCASES;
        unsigned char *got = NULL;
        size_t len = 0;
        int rc = rc_run_once(&g_cases[k], s, &got, &len);
        TCHECK(rc == 0 && same(k, got, len), "thread %d round %d case %d: results differ from "
               "the single-threaded run (%s stream)", a->id, r, k, a->shared ? "shared" : "own");
        free(got);
    }
    if (a->shared == NULL) TCHECK(aclrtDestroyStream(s) == ACL_SUCCESS, "destroy own stream");
    return NULL;
}

static void run_threads(aclrtStream shared, int rounds)
{
    pthread_t th[NTHREADS];
    worker_arg args[NTHREADS];
    for (int i = 0; i < NTHREADS; ++i) {
        args[i] = (worker_arg){.id = i, .rounds = rounds, .shared = shared};
        pthread_create(&th[i], NULL, conv_worker, &args[i]);
    }
    for (int i = 0; i < NTHREADS; ++i) pthread_join(th[i], NULL);
}

/* ---- one repeatable executor, many submitting threads ---------------------- */

typedef struct shared_exec {
    aclOpExecutor *ex;
    void *ws;
    uint64_t ws_size;
    aclrtStream stream;
    int runs;
} shared_exec;

static void *submit_worker(void *p)
{
    shared_exec *s = p;
    for (int i = 0; i < s->runs; ++i)
        TCHECK(aclnnConvolutionBackward(s->ws, s->ws_size, s->ex, s->stream) == ACLNN_SUCCESS,
               "concurrent run of a repeatable executor: %s", aclGetRecentErrMsg());
    return NULL;
}

static aclnnStatus g_destroy_status[2];
static void *destroy_worker(void *p)
{
    shared_exec *s = p;
    int slot = s->runs; /* reused as the slot number */
    g_destroy_status[slot] = aclDestroyAclOpExecutor(s->ex);
    return NULL;
}

static void test_shared_executor(aclrtStream stream)
{
    const rcase *c = &g_cases[0];
    rbufs b;
    long fs;
    shared_exec s = {.stream = stream, .runs = 5};
    CHECK(rbufs_create(c, &b, &fs) == 0, "rbufs_create");
    CHECK_ST(rc_plan(c, &b, &s.ws_size, &s.ex), ACLNN_SUCCESS);
    CHECK_ST(aclrtMalloc(&s.ws, s.ws_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_ST(aclSetAclOpExecutorRepeatable(s.ex), ACLNN_SUCCESS);
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; ++i) pthread_create(&th[i], NULL, submit_worker, &s);
    for (int i = 0; i < NTHREADS; ++i) pthread_join(th[i], NULL);
    CHECK_ST(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    size_t len;
    unsigned char *got = rc_outputs(c, &b, &len);
    CHECK(same(0, got, len), "repeatable executor run from %d threads: wrong results", NTHREADS);
    free(got);

    /* two threads destroy it at once: exactly one succeeds */
    shared_exec d0 = s, d1 = s;
    d0.runs = 0, d1.runs = 1;
    pthread_create(&th[0], NULL, destroy_worker, &d0);
    pthread_create(&th[1], NULL, destroy_worker, &d1);
    pthread_join(th[0], NULL);
    pthread_join(th[1], NULL);
    CHECK((g_destroy_status[0] == ACLNN_SUCCESS) + (g_destroy_status[1] == ACLNN_SUCCESS) == 1 &&
              (g_destroy_status[0] == ACLNN_ERR_PARAM_INVALID ||
               g_destroy_status[1] == ACLNN_ERR_PARAM_INVALID),
          "concurrent destroys returned %d and %d", g_destroy_status[0], g_destroy_status[1]);
    aclrtFree(s.ws);
    rbufs_destroy(&b);
}

/* ---- per-thread error messages --------------------------------------------- */

static pthread_barrier_t g_barrier;

static void *errmsg_worker(void *p)
{
    const int id = (int)(intptr_t)p;
    char want[64];
    snprintf(want, sizeof want, "size %d", 1000 + id);
    pthread_barrier_wait(&g_barrier);
    for (int i = 0; i < 2000; ++i) {
        aclIntArray *a = aclCreateIntArray(NULL, (uint64_t)(1000 + id)); /* fails */
        TCHECK(a == NULL, "aclCreateIntArray(NULL, n) succeeded");
        if (i % 3 == 0) sched_yield();
        const char *msg = aclGetRecentErrMsg();
        if (strstr(msg, want) == NULL) {
            TCHECK(false, "thread %d sees another thread's message: \"%s\"", id, msg);
            break;
        }
    }
    return NULL;
}

static void test_error_messages(void)
{
    pthread_t th[NTHREADS];
    pthread_barrier_init(&g_barrier, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; ++i) pthread_create(&th[i], NULL, errmsg_worker, (void *)(intptr_t)i);
    for (int i = 0; i < NTHREADS; ++i) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&g_barrier);
}

/* ---- streams destroyed with work pending, or under a submitting thread ----- */

static void test_destroy_pending(void)
{
    const rcase *c = &g_cases[3];
    aclrtStream s;
    rbufs b;
    long fs;
    uint64_t ws_size;
    aclOpExecutor *ex;
    void *ws;
    CHECK_ST(aclrtCreateStream(&s), ACL_SUCCESS);
    CHECK(rbufs_create(c, &b, &fs) == 0, "rbufs_create");
    CHECK_ST(rc_plan(c, &b, &ws_size, &ex), ACLNN_SUCCESS);
    CHECK_ST(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_ST(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
    for (int i = 0; i < 6; ++i) CHECK_ST(aclnnConvolutionBackward(ws, ws_size, ex, s), ACLNN_SUCCESS);
    /* waits for the six runs */
    CHECK_ST(aclrtDestroyStream(s), ACL_SUCCESS);
    size_t len;
    unsigned char *got = rc_outputs(c, &b, &len);
    CHECK(same(3, got, len), "runs pending at aclrtDestroyStream did not complete");
    free(got);
    CHECK_ST(aclrtSynchronizeStream(s), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclrtDestroyStream(s), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclnnConvolutionBackward(ws, ws_size, ex, s), ACLNN_ERR_RUNTIME_ERROR);
    CHECK_ST(aclrtMemcpyAsync(ws, 4, b.mem[RC_X], 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
             ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS); /* repeatable: still live */
    aclrtFree(ws);
    rbufs_destroy(&b);
}

enum { SLOTS = 4096 };
typedef struct race {
    aclrtStream s;
    int32_t src[SLOTS], dst[SLOTS];
    aclError st[SLOTS];
    atomic_int started;
} race;

static void *race_submitter(void *p)
{
    race *r = p;
    for (int i = 0; i < SLOTS; ++i) {
        if (i == 16) atomic_store(&r->started, 1);
        r->st[i] = aclrtMemcpyAsync(&r->dst[i], 4, &r->src[i], 4, ACL_MEMCPY_HOST_TO_HOST, r->s);
    }
    atomic_store(&r->started, 1);
    return NULL;
}

static void test_destroy_while_submitting(int rounds)
{
    for (int round = 0; round < rounds; ++round) {
        race *r = calloc(1, sizeof *r);
        for (int i = 0; i < SLOTS; ++i) r->src[i] = i + 1;
        CHECK_ST(aclrtCreateStream(&r->s), ACL_SUCCESS);
        pthread_t th;
        pthread_create(&th, NULL, race_submitter, r);
        while (!atomic_load(&r->started)) sched_yield();
        aclError d = aclrtDestroyStream(r->s);
        pthread_join(th, NULL);
        CHECK_ST(d, ACL_SUCCESS);
        int ok = 0, refused = 0;
        for (int i = 0; i < SLOTS; ++i) {
            if (r->st[i] == ACL_SUCCESS) {
                ++ok;
                /* accepted work ran before the destroy returned */
                if (r->dst[i] != i + 1) {
                    CHECK(false, "copy %d accepted but not done when aclrtDestroyStream returned", i);
                    break;
                }
            } else {
                ++refused;
                CHECK(r->st[i] == ACL_ERROR_INVALID_RESOURCE_HANDLE,
                      "submission to a stream being destroyed returned %d", r->st[i]);
            }
        }
        CHECK(ok >= 16, "only %d submissions accepted before the destroy", ok);
        free(r);
    }
}

/* ---- after aclFinalize -------------------------------------------------------- */

static void test_finalize(void)
{
    const rcase *c = &g_cases[0];
    aclrtStream s1, s2;
    rbufs b1, b2, b3;
    long fs;
    uint64_t w1, w2, w3;
    aclOpExecutor *e1, *e2, *e3;
    void *ws1, *ws2, *ws3;
    CHECK_ST(aclrtCreateStream(&s1), ACL_SUCCESS);
    CHECK_ST(aclrtCreateStream(&s2), ACL_SUCCESS);
    CHECK(rbufs_create(c, &b1, &fs) == 0 && rbufs_create(c, &b2, &fs) == 0 &&
              rbufs_create(c, &b3, &fs) == 0, "rbufs_create");
    CHECK_ST(rc_plan(c, &b1, &w1, &e1), ACLNN_SUCCESS);
    CHECK_ST(rc_plan(c, &b2, &w2, &e2), ACLNN_SUCCESS);
    CHECK_ST(rc_plan(c, &b3, &w3, &e3), ACLNN_SUCCESS);
    CHECK_ST(aclrtMalloc(&ws1, w1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_ST(aclrtMalloc(&ws2, w2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_ST(aclrtMalloc(&ws3, w3, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    /* work pending on two streams: aclFinalize waits for it */
    CHECK_ST(aclnnConvolutionBackward(ws1, w1, e1, s1), ACLNN_SUCCESS);
    CHECK_ST(aclnnConvolutionBackward(ws2, w2, e2, s2), ACLNN_SUCCESS);
    CHECK_ST(aclFinalize(), ACL_SUCCESS);
    size_t len;
    unsigned char *got = rc_outputs(c, &b1, &len);
    CHECK(same(0, got, len), "work pending at aclFinalize (stream 1) did not complete");
    free(got);
    got = rc_outputs(c, &b2, &len);
    CHECK(same(0, got, len), "work pending at aclFinalize (stream 2) did not complete");
    free(got);
    /* everything stream-related now answers ACL_ERROR_UNINITIALIZE / invalid */
    CHECK_ST(aclnnConvolutionBackward(ws3, w3, e3, s1), ACLNN_ERR_RUNTIME_ERROR);
    CHECK_ST(aclDestroyAclOpExecutor(e3), ACLNN_ERR_PARAM_INVALID); /* consumed */
    CHECK_ST(aclrtSynchronizeStream(s1), ACL_ERROR_UNINITIALIZE);
    CHECK_ST(aclrtSynchronizeStream(NULL), ACL_ERROR_UNINITIALIZE);
    CHECK_ST(aclrtDestroyStream(s2), ACL_ERROR_UNINITIALIZE);
    CHECK_ST(aclrtSynchronizeDevice(), ACL_ERROR_UNINITIALIZE);
    aclrtStream s3;
    CHECK_ST(aclrtCreateStream(&s3), ACL_ERROR_UNINITIALIZE);
    CHECK_ST(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    /* phase 1 needs no runtime; freeing memory after finalize is allowed */
    CHECK_ST(rc_plan(c, &b3, &w3, &e3), ACLNN_SUCCESS);
    aclrtFree(ws1);
    aclrtFree(ws2);
    /* and everything works again after a new aclInit, old executor included */
    CHECK_ST(aclInit(NULL), ACL_SUCCESS);
    CHECK_ST(aclrtCreateStream(&s3), ACL_SUCCESS);
    CHECK(s3 != s1 && s3 != s2, "a new stream reuses a released handle");
    CHECK_ST(aclrtSynchronizeStream(s1), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclnnConvolutionBackward(ws3, w3, e3, s3), ACLNN_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(s3), ACL_SUCCESS);
    got = rc_outputs(c, &b3, &len);
    CHECK(same(0, got, len), "run after aclFinalize + aclInit: wrong results");
    free(got);
    CHECK_ST(aclrtDestroyStream(s3), ACL_SUCCESS);
    aclrtFree(ws3);
    rbufs_destroy(&b1);
    rbufs_destroy(&b2);
    rbufs_destroy(&b3);
}

int main(void)
{
    const char *soak_env = getenv("SOAK_SECONDS");
    const double soak = soak_env ? atof(soak_env) : 0.0;
    CHECK_ST(aclInit(NULL), ACL_SUCCESS);
    make_cases();
    aclrtStream shared;
    CHECK_ST(aclrtCreateStream(&shared), ACL_SUCCESS);
    /* single-threaded results first */
    for (int k = 0; k < NCASES; ++k)
        if (rc_run_once(&g_cases[k], shared, &g_expect[k], &g_expect_len[k]) != 0) {
            printf("test_concurrency: case %d does not run\n", k);
            return 1;
        }

    const double t0 = now();
    long rounds = 0;
    do {
        run_threads(NULL, 20);   /* own streams */
        run_threads(shared, 20); /* one shared stream */
        test_shared_executor(shared);
        test_error_messages();
        test_destroy_pending();
        test_destroy_while_submitting(soak > 0 ? 4 : 2);
        ++rounds;
        if (soak > 0 && (g_test_failures || atomic_load(&g_thread_failures))) break;
    } while (now() - t0 < soak);
    CHECK_ST(aclrtDestroyStream(shared), ACL_SUCCESS);
    test_finalize();

    for (int k = 0; k < NCASES; ++k) free(g_expect[k]);
    CHECK_ST(aclFinalize(), ACL_SUCCESS);
    int failures = g_test_failures + atomic_load(&g_thread_failures);
    printf("test_concurrency: %ld round(s) in %.1f s\n", rounds, now() - t0);
    if (failures) {
        printf("test_concurrency: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test_concurrency: all checks passed\n");
    return 0;
}
