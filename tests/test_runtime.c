/*
 * Tests of the runtime (src/runtime), the thread pool (src/threading) and the
 * CPU/ISA functions (src/common/cpu.c). Each check prints what failed; main
 * returns non-zero if any did.
 */
#define _GNU_SOURCE /* usleep, setenv */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "test_check.h"
#include "aclconv/aclconv.h"
#include "common/alloc.h"
#include "common/cpu.h"
#include "common/log.h"
#include "runtime/runtime.h"
#include "threading/pool.h"

/* The recent error message names fn. */
#define CHECK_MSG(fn)                                                                              \
    CHECK(strstr(aclGetRecentErrMsg(), fn) != NULL, "message \"%s\" does not name %s",             \
          aclGetRecentErrMsg(), fn)

static void *garbage_handle(void)
{
    return (void *)(uintptr_t)0x1234560;
}

/* ---- small task helpers --------------------------------------------------- */

/* Counts release() calls, to check it runs exactly once per submission. */
static atomic_int g_released;
static void count_release(void *arg)
{
    atomic_fetch_add(&g_released, 1);
}

typedef struct seq_log {
    int *entries;
    int len;
    int cap;
} seq_log;

typedef struct log_item {
    seq_log *log;
    int value;
    useconds_t sleep_us;
} log_item;

/* Appends value to log without a lock: the stream runs tasks one at a time. */
static int append_task(void *arg)
{
    log_item *it = arg;
    if (it->sleep_us) usleep(it->sleep_us);
    if (it->log->len < it->log->cap) it->log->entries[it->log->len] = it->value;
    it->log->len++;
    return 0;
}

static int return_status_task(void *arg)
{
    return (int)(intptr_t)arg;
}

static int fail_with_message_task(void *arg)
{
    aclconv_set_error("my_failing_task: value %d", 42);
    return (int)(intptr_t)arg;
}

/* ---- before aclInit ------------------------------------------------------- */

static void test_before_init(void)
{
    aclrtStream s = NULL;
    CHECK(!runtime_is_initialized(), "initialized before aclInit");
    CHECK_ST(aclrtCreateStream(&s), ACL_ERROR_UNINITIALIZE);
    CHECK_MSG("aclrtCreateStream");
    CHECK_ST(aclrtSynchronizeStream(NULL), ACL_ERROR_UNINITIALIZE);
    CHECK_ST(aclrtSynchronizeDevice(), ACL_ERROR_UNINITIALIZE);
    atomic_store(&g_released, 0);
    CHECK_ST(stream_submit(NULL, return_status_task, NULL, count_release), ACL_ERROR_UNINITIALIZE);
    CHECK(atomic_load(&g_released) == 1, "release ran %d times", atomic_load(&g_released));
    CHECK_ST(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    CHECK_MSG("aclFinalize");
    aclrtContext ctx;
    CHECK_ST(aclrtCreateContext(&ctx, 0), ACL_ERROR_UNINITIALIZE);

    /* memory functions are plain memory functions: they work without init */
    void *p = NULL;
    CHECK_ST(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_ST(aclrtMemset(p, 100, 7, 100), ACL_SUCCESS);
    unsigned char q[100];
    CHECK_ST(aclrtMemcpy(q, sizeof q, p, 100, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    CHECK(q[0] == 7 && q[99] == 7, "memset/memcpy before init: %d %d", q[0], q[99]);
    CHECK_ST(aclrtFree(p), ACL_SUCCESS);
}

/* ---- init / finalize -------------------------------------------------------- */

static void test_init(void)
{
    CHECK_ST(aclInit(NULL), ACL_SUCCESS);
    CHECK(runtime_is_initialized(), "not initialized after aclInit");
    CHECK_ST(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    CHECK_MSG("aclInit");
    CHECK(runtime_is_initialized(), "repeat aclInit uninitialized the runtime");
}

/* ---- device, run mode, sys params ----------------------------------------- */

static void test_device(void)
{
    CHECK_ST(aclrtSetDevice(0), ACL_SUCCESS);
    CHECK_ST(aclrtSetDevice(1), ACL_ERROR_INVALID_DEVICE);
    CHECK_MSG("aclrtSetDevice");
    CHECK(strstr(aclGetRecentErrMsg(), "1") != NULL, "message lacks the bad id: %s",
          aclGetRecentErrMsg());
    CHECK_ST(aclrtSetDevice(-1), ACL_ERROR_INVALID_DEVICE);
    CHECK_ST(aclrtSetDevice(INT32_MIN), ACL_ERROR_INVALID_DEVICE);
    int32_t dev = -5;
    CHECK_ST(aclrtGetDevice(&dev), ACL_SUCCESS);
    CHECK(dev == 0, "device %d", (int)dev);
    CHECK_ST(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
    uint32_t count = 0;
    CHECK_ST(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    CHECK(count == 1, "device count %u", count);
    CHECK_ST(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
    aclrtRunMode mode = ACL_DEVICE;
    CHECK_ST(aclrtGetRunMode(&mode), ACL_SUCCESS);
    CHECK(mode == ACL_HOST, "run mode %d", (int)mode);
    CHECK_ST(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtResetDevice(1), ACL_ERROR_INVALID_DEVICE);
    CHECK_ST(aclrtResetDevice(0), ACL_SUCCESS);
    CHECK_ST(aclrtSetDevice(0), ACL_SUCCESS);
}

static void test_sys_params(void)
{
    int64_t v = -1;
    for (int opt = 0; opt <= 3; ++opt) {
        CHECK_ST(aclrtGetSysParamOpt((aclSysParamOpt)opt, &v), ACL_SUCCESS);
        CHECK(v == 0, "default of option %d is %lld", opt, (long long)v);
    }
    CHECK_ST(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS);
    CHECK_ST(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
    CHECK(v == 1, "deterministic %lld", (long long)v);
    CHECK_ST(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, INT64_MAX), ACL_SUCCESS);
    CHECK_ST(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v), ACL_SUCCESS);
    CHECK(v == INT64_MAX, "early start %lld", (long long)v);
    CHECK_ST(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
    CHECK(v == 1, "options are not independent: deterministic %lld", (long long)v);

    CHECK_ST(aclrtSetSysParamOpt((aclSysParamOpt)4, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclrtSetSysParamOpt");
    CHECK(strstr(aclGetRecentErrMsg(), "4") != NULL, "message lacks the value: %s",
          aclGetRecentErrMsg());
    CHECK_ST(aclrtSetSysParamOpt((aclSysParamOpt)-1, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtCtxSetSysParamOpt((aclSysParamOpt)99, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtGetSysParamOpt((aclSysParamOpt)4, &v), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclrtGetSysParamOpt");

    CHECK_ST(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0), ACL_SUCCESS);
    CHECK_ST(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 0), ACL_SUCCESS);
}

/* ---- contexts --------------------------------------------------------------- */

static void *get_ctx_thread(void *arg)
{
    aclrtContext *out = arg;
    if (aclrtGetCurrentContext(out) != ACL_SUCCESS) *out = NULL;
    return NULL;
}

static void test_contexts(void)
{
    aclrtContext a = NULL, b = NULL, cur = NULL, dflt = NULL;
    CHECK_ST(aclrtGetCurrentContext(&dflt), ACL_SUCCESS);
    CHECK(dflt != NULL, "no default context");
    CHECK_ST(aclrtCreateContext(&a, 0), ACL_SUCCESS);
    CHECK_ST(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    CHECK(cur == a, "create does not make the context current");
    CHECK_ST(aclrtCreateContext(&b, 0), ACL_SUCCESS);
    CHECK(a != b && b != NULL, "contexts not distinct");
    CHECK_ST(aclrtCreateContext(&b, 1), ACL_ERROR_INVALID_DEVICE);
    CHECK_ST(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtSetCurrentContext(a), ACL_SUCCESS);
    CHECK_ST(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    CHECK(cur == a, "set current");

    /* the current context is per thread */
    aclrtContext other = NULL;
    pthread_t t;
    pthread_create(&t, NULL, get_ctx_thread, &other);
    pthread_join(t, NULL);
    CHECK(other == dflt, "another thread sees this thread's current context");

    CHECK_ST(aclrtDestroyContext(b), ACL_SUCCESS);
    CHECK_ST(aclrtDestroyContext(b), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_MSG("aclrtDestroyContext");
    CHECK_ST(aclrtSetCurrentContext(b), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclrtSetCurrentContext(garbage_handle()), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclrtDestroyContext(garbage_handle()), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtDestroyContext(a), ACL_SUCCESS);
    CHECK_ST(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    CHECK(cur == dflt, "a destroyed current context is still reported");
    CHECK_ST(aclrtSetCurrentContext(dflt), ACL_SUCCESS);
    /* a stream handle is not a context */
    aclrtStream s;
    CHECK_ST(aclrtCreateStream(&s), ACL_SUCCESS);
    CHECK_ST(aclrtSetCurrentContext((aclrtContext)s), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclrtDestroyStream(s), ACL_SUCCESS);
}

/* ---- memory ----------------------------------------------------------------- */

static void test_malloc(void)
{
    static const size_t sizes[] = {1, 3, 63, 64, 65, 4096, 1000003};
    static const int policies[] = {
        ACL_MEM_MALLOC_HUGE_FIRST,
        ACL_MEM_MALLOC_HUGE_ONLY,
        ACL_MEM_MALLOC_NORMAL_ONLY,
        ACL_MEM_MALLOC_HUGE_FIRST_P2P,
        ACL_MEM_MALLOC_HUGE_ONLY_P2P,
        ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
        ACL_MEM_MALLOC_HUGE1G_ONLY,
        ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
        ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_MALLOC_NORMAL_ONLY,
        ACL_MEM_TYPE_HIGH_BAND_WIDTH | ACL_MEM_MALLOC_HUGE_FIRST,
        ACL_MEM_ACCESS_USER_SPACE_READONLY | ACL_MEM_MALLOC_HUGE_ONLY,
        ACL_MEM_TYPE_HIGH_BAND_WIDTH,
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        for (size_t j = 0; j < sizeof policies / sizeof policies[0]; ++j) {
            void *p = NULL;
            CHECK_ST(aclrtMalloc(&p, sizes[i], (aclrtMemMallocPolicy)policies[j]), ACL_SUCCESS);
            CHECK(p != NULL && (uintptr_t)p % 64 == 0, "size %zu policy 0x%x: %p not 64-aligned",
                  sizes[i], policies[j], p);
            if (p != NULL) memset(p, 0xA5, sizes[i]); /* all of it is writable (ASan) */
            CHECK_ST(aclrtFree(p), ACL_SUCCESS);
        }
        void *h = NULL;
        CHECK_ST(aclrtMallocHost(&h, sizes[i]), ACL_SUCCESS);
        CHECK(h != NULL && (uintptr_t)h % 64 == 0, "host %zu: %p", sizes[i], h);
        if (h != NULL) memset(h, 0x5A, sizes[i]);
        CHECK_ST(aclrtFreeHost(h), ACL_SUCCESS);
    }

    void *p = (void *)1;
    CHECK_ST(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclrtMalloc");
    CHECK_ST(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK(p == (void *)1, "failed aclrtMalloc wrote its output");
    static const unsigned bad_policies[] = {8, 0x200, 0x100 | 8, 0xFF, 0x10000, 0x80000000u};
    for (size_t j = 0; j < sizeof bad_policies / sizeof bad_policies[0]; ++j) {
        CHECK_ST(aclrtMalloc(&p, 64, (aclrtMemMallocPolicy)bad_policies[j]),
                 ACL_ERROR_INVALID_PARAM);
        CHECK_MSG("aclrtMalloc");
    }
    CHECK_ST(aclrtMalloc(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_BAD_ALLOC);
    CHECK_ST(aclrtMalloc(&p, SIZE_MAX - 10, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_BAD_ALLOC);
    aclconvTestFailAllocAt(1);
    CHECK_ST(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_BAD_ALLOC);
    CHECK_ST(aclrtMallocHost(&p, 64), ACL_ERROR_BAD_ALLOC);
    aclconvTestFailAllocAt(0);
    CHECK_ST(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclrtFree");
    CHECK_ST(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclrtFreeHost");
    CHECK_ST(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM);
}

static void test_memcpy_memset(void)
{
    unsigned char src[64], dst[64];
    for (int i = 0; i < 64; ++i)
        src[i] = (unsigned char)i;
    memset(dst, 0xEE, sizeof dst);
    for (int kind = 0; kind <= 7; ++kind)
        CHECK_ST(aclrtMemcpy(dst, sizeof dst, src, 64, (aclrtMemcpyKind)kind), ACL_SUCCESS);
    CHECK(memcmp(dst, src, 64) == 0, "memcpy content");

    memset(dst, 0xEE, sizeof dst);
    CHECK_ST(aclrtMemcpy(dst, 16, src, 17, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclrtMemcpy");
    CHECK(strstr(aclGetRecentErrMsg(), "17") != NULL, "message lacks count: %s",
          aclGetRecentErrMsg());
    CHECK(dst[0] == 0xEE, "a refused copy wrote");
    CHECK_ST(aclrtMemcpy(dst, 16, src, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    CHECK_ST(aclrtMemcpy(dst, 64, src, 8, (aclrtMemcpyKind)8), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtMemcpy(dst, 64, src, 8, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtMemcpy(dst, 64, src, 8, (aclrtMemcpyKind)100), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtMemcpy(NULL, 64, src, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtMemcpy(dst, 64, NULL, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtMemcpy(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    CHECK_ST(aclrtMemcpy(dst, 64, src, 0, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);

    /* overlapping copies behave as memmove */
    for (int i = 0; i < 64; ++i)
        dst[i] = (unsigned char)i;
    CHECK_ST(aclrtMemcpy(dst + 8, 56, dst, 32, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    int ok = 1;
    for (int i = 0; i < 32; ++i)
        ok &= dst[8 + i] == i;
    CHECK(ok, "overlapping copy forward");
    for (int i = 0; i < 64; ++i)
        dst[i] = (unsigned char)i;
    CHECK_ST(aclrtMemcpy(dst, 64, dst + 8, 32, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    ok = 1;
    for (int i = 0; i < 32; ++i)
        ok &= dst[i] == i + 8;
    CHECK(ok, "overlapping copy backward");

    memset(dst, 0, sizeof dst);
    CHECK_ST(aclrtMemset(dst, 64, 0x1AB, 10), ACL_SUCCESS);
    CHECK(dst[0] == 0xAB && dst[9] == 0xAB && dst[10] == 0, "memset: %x %x %x", dst[0], dst[9],
          dst[10]);
    CHECK_ST(aclrtMemset(dst, 10, 1, 11), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclrtMemset");
    CHECK(dst[10] == 0, "a refused memset wrote");
    CHECK_ST(aclrtMemset(NULL, 10, 1, 5), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtMemset(dst, 0, 1, 0), ACL_SUCCESS);
}

/* ---- error messages are per thread -------------------------------------------- */

static void *set_error_thread(void *arg)
{
    CHECK_ST(aclrtSetDevice(7), ACL_ERROR_INVALID_DEVICE);
    CHECK(strstr(aclGetRecentErrMsg(), "7") != NULL, "thread message: %s", aclGetRecentErrMsg());
    return NULL;
}

static void test_error_messages_per_thread(void)
{
    CHECK_ST(aclrtMemset(NULL, 10, 1, 5), ACL_ERROR_INVALID_PARAM);
    char before[1024];
    snprintf(before, sizeof before, "%s", aclGetRecentErrMsg());
    CHECK(strstr(before, "aclrtMemset") != NULL, "message: %s", before);
    pthread_t t;
    pthread_create(&t, NULL, set_error_thread, NULL);
    pthread_join(t, NULL);
    CHECK(strcmp(before, aclGetRecentErrMsg()) == 0, "another thread's error changed ours: %s",
          aclGetRecentErrMsg());
}

/* ---- streams ---------------------------------------------------------------- */

enum { ORDER_TASKS = 2000 };

static void test_stream_order(void)
{
    aclrtStream s = NULL;
    CHECK_ST(aclrtCreateStream(&s), ACL_SUCCESS);
    CHECK(s != NULL, "NULL stream handle");
    static int entries[ORDER_TASKS];
    static log_item items[ORDER_TASKS];
    seq_log log = {entries, 0, ORDER_TASKS};
    atomic_store(&g_released, 0);
    for (int i = 0; i < ORDER_TASKS; ++i) {
        /* a few slow ones early, so the queue really builds up */
        items[i] = (log_item){&log, i, i < 5 ? 2000u : 0u};
        CHECK_ST(stream_submit(s, append_task, &items[i], count_release), ACL_SUCCESS);
    }
    CHECK_ST(aclrtSynchronizeStream(s), ACL_SUCCESS);
    CHECK(log.len == ORDER_TASKS, "%d tasks ran, want %d", log.len, ORDER_TASKS);
    int in_order = 1;
    for (int i = 0; i < ORDER_TASKS && i < log.len; ++i)
        in_order &= entries[i] == i;
    CHECK(in_order, "tasks ran out of order");
    CHECK(atomic_load(&g_released) == ORDER_TASKS, "release ran %d times",
          atomic_load(&g_released));
    CHECK_ST(stream_submit(s, NULL, NULL, count_release), ACL_ERROR_INVALID_PARAM);
    CHECK(atomic_load(&g_released) == ORDER_TASKS + 1, "release not called on a refused submit");
    CHECK_ST(aclrtDestroyStream(s), ACL_SUCCESS);
}

typedef struct fill_arg {
    int *buf;
    int n, value;
    useconds_t sleep_us;
} fill_arg;

static int fill_task(void *arg)
{
    fill_arg *f = arg;
    if (f->sleep_us) usleep(f->sleep_us);
    for (int i = 0; i < f->n; ++i)
        f->buf[i] = f->value + i;
    return 0;
}

/* A queued copy sees exactly what the tasks before it wrote, not what the
 * tasks after it write. */
static void test_memcpy_async(aclrtStream s)
{
    enum { N = 1024 };
    static int buf[N], out[N];
    memset(out, 0, sizeof out);
    fill_arg first = {buf, N, 1000, 20000}, second = {buf, N, 5000, 0};
    CHECK_ST(stream_submit(s, fill_task, &first, NULL), ACL_SUCCESS);
    CHECK_ST(aclrtMemcpyAsync(out, sizeof out, buf, sizeof buf, ACL_MEMCPY_DEVICE_TO_HOST, s),
             ACL_SUCCESS);
    CHECK_ST(stream_submit(s, fill_task, &second, NULL), ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(s), ACL_SUCCESS);
    int ok = 1;
    for (int i = 0; i < N; ++i)
        ok &= out[i] == 1000 + i;
    CHECK(ok, "async copy not ordered with tasks (stream %p): out[0]=%d", s, out[0]);
    CHECK(buf[0] == 5000, "second fill did not run");

    /* checks happen at submit time */
    CHECK_ST(aclrtMemcpyAsync(out, 4, buf, 8, ACL_MEMCPY_DEVICE_TO_HOST, s),
             ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclrtMemcpyAsync");
    CHECK_ST(aclrtMemcpyAsync(out, 8, buf, 8, (aclrtMemcpyKind)9, s), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtMemcpyAsync(NULL, 8, buf, 8, ACL_MEMCPY_DEVICE_TO_HOST, s),
             ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtMemcpyAsync(out, 8, NULL, 8, ACL_MEMCPY_DEVICE_TO_HOST, s),
             ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtMemcpyAsync(out, 8, buf, 0, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
    CHECK_ST(aclrtMemcpyAsync(out, 8, buf, 8, ACL_MEMCPY_DEVICE_TO_HOST, garbage_handle()),
             ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_MSG("aclrtMemcpyAsync");
    CHECK_ST(aclrtSynchronizeStream(s), ACL_SUCCESS);
}

static void test_stream_failure_status(aclrtStream s)
{
    CHECK_ST(stream_submit(s, return_status_task, (void *)(intptr_t)0, NULL), ACL_SUCCESS);
    CHECK_ST(stream_submit(s, fail_with_message_task, (void *)(intptr_t)161002, NULL), ACL_SUCCESS);
    CHECK_ST(stream_submit(s, return_status_task, (void *)(intptr_t)0, NULL), ACL_SUCCESS);
    CHECK_ST(stream_submit(s, return_status_task, (void *)(intptr_t)12345, NULL), ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(s), 161002);
    CHECK_MSG("aclrtSynchronizeStream");
    CHECK(strstr(aclGetRecentErrMsg(), "my_failing_task: value 42") != NULL,
          "the task's own message is lost: %s", aclGetRecentErrMsg());
    CHECK_ST(aclrtSynchronizeStream(s), ACL_SUCCESS); /* cleared */
    CHECK_ST(stream_submit(s, return_status_task, (void *)(intptr_t)-7, NULL), ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(s), -7);
    CHECK_ST(aclrtSynchronizeStream(s), ACL_SUCCESS);
}

static void test_streams_basic(void)
{
    aclrtStream s;
    CHECK_ST(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtCreateStream(&s), ACL_SUCCESS);
    test_memcpy_async(s);
    test_stream_failure_status(s);
    CHECK_ST(aclrtDestroyStream(s), ACL_SUCCESS);

    /* the NULL stream is the default stream */
    test_memcpy_async(NULL);
    test_stream_failure_status(NULL);
    CHECK_ST(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
}

static void test_stream_handles(void)
{
    aclrtStream a, b;
    CHECK_ST(aclrtCreateStream(&a), ACL_SUCCESS);
    CHECK_ST(aclrtDestroyStream(a), ACL_SUCCESS);
    CHECK_ST(aclrtDestroyStream(a), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_MSG("aclrtDestroyStream");
    CHECK_ST(aclrtSynchronizeStream(a), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_MSG("aclrtSynchronizeStream");
    atomic_store(&g_released, 0);
    CHECK_ST(stream_submit(a, return_status_task, NULL, count_release),
             ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK(atomic_load(&g_released) == 1, "release not called for a dead stream");
    CHECK_ST(aclrtSynchronizeStream(garbage_handle()), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclrtDestroyStream(garbage_handle()), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclrtDestroyStream((aclrtStream)&a), ACL_ERROR_INVALID_RESOURCE_HANDLE);

    /* a new stream never revives an old handle */
    CHECK_ST(aclrtCreateStream(&b), ACL_SUCCESS);
    CHECK(a != b, "a destroyed handle was reused");
    CHECK_ST(aclrtDestroyStream(a), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(stream_submit(b, return_status_task, NULL, NULL), ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(b), ACL_SUCCESS);
    /* a context handle is not a stream */
    aclrtContext ctx;
    CHECK_ST(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream((aclrtStream)ctx), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclrtDestroyStream(b), ACL_SUCCESS);
}

static atomic_int g_slow_done;
static int slow_task(void *arg)
{
    usleep((useconds_t)(intptr_t)arg);
    atomic_fetch_add(&g_slow_done, 1);
    return 0;
}

static void test_destroy_waits(void)
{
    aclrtStream s;
    CHECK_ST(aclrtCreateStream(&s), ACL_SUCCESS);
    atomic_store(&g_slow_done, 0);
    atomic_store(&g_released, 0);
    for (int i = 0; i < 20; ++i)
        CHECK_ST(stream_submit(s, slow_task, (void *)(intptr_t)1000, count_release), ACL_SUCCESS);
    CHECK_ST(aclrtDestroyStream(s), ACL_SUCCESS);
    CHECK(atomic_load(&g_slow_done) == 20, "destroy returned with %d of 20 tasks done",
          atomic_load(&g_slow_done));
    CHECK(atomic_load(&g_released) == 20, "released %d of 20", atomic_load(&g_released));
}

/* Calls that would wait for the calling task itself fail instead of hanging. */
static int self_wait_task(void *arg)
{
    aclrtStream s = arg;
    int bad = 0;
    bad |= aclrtSynchronizeStream(s) != ACL_ERROR_INVALID_PARAM;
    bad |= aclrtDestroyStream(s) != ACL_ERROR_INVALID_PARAM;
    bad |= aclrtSynchronizeDevice() != ACL_ERROR_INVALID_PARAM;
    bad |= aclFinalize() != ACL_ERROR_INVALID_PARAM;
    return bad ? 1 : 0;
}

static void test_self_wait(void)
{
    aclrtStream s;
    CHECK_ST(aclrtCreateStream(&s), ACL_SUCCESS);
    CHECK_ST(stream_submit(s, self_wait_task, s, NULL), ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(s), ACL_SUCCESS);
    CHECK_ST(aclrtDestroyStream(s), ACL_SUCCESS);
}

/* Several threads submit to one stream: every task runs once, and each
 * thread's tasks run in the order that thread submitted them. */
enum { SUBMITTERS = 4, PER_SUBMITTER = 3000 };

typedef struct mt_shared {
    aclrtStream stream;
    int log[SUBMITTERS * PER_SUBMITTER]; /* thread * PER_SUBMITTER + seq */
    int len;
} mt_shared;

typedef struct mt_item {
    mt_shared *sh;
    int code;
} mt_item;

static int mt_append(void *arg)
{
    mt_item *it = arg;
    mt_shared *sh = it->sh;
    if (sh->len < SUBMITTERS * PER_SUBMITTER) sh->log[sh->len] = it->code;
    sh->len++;
    return 0;
}

typedef struct mt_thread_arg {
    mt_shared *sh;
    int id;
    mt_item items[PER_SUBMITTER];
    atomic_int submit_failures;
} mt_thread_arg;

static void *mt_submitter(void *arg)
{
    mt_thread_arg *ta = arg;
    for (int i = 0; i < PER_SUBMITTER; ++i) {
        ta->items[i] = (mt_item){ta->sh, ta->id * PER_SUBMITTER + i};
        if (stream_submit(ta->sh->stream, mt_append, &ta->items[i], NULL) != ACL_SUCCESS)
            atomic_fetch_add(&ta->submit_failures, 1);
    }
    return NULL;
}

static void check_mt_log(const char *what, mt_shared *sh)
{
    CHECK(sh->len == SUBMITTERS * PER_SUBMITTER, "%s: %d tasks ran, want %d", what, sh->len,
          SUBMITTERS * PER_SUBMITTER);
    static int seen[SUBMITTERS * PER_SUBMITTER];
    int next[SUBMITTERS] = {0};
    memset(seen, 0, sizeof seen);
    int dup = 0, disorder = 0;
    for (int i = 0; i < sh->len && i < SUBMITTERS * PER_SUBMITTER; ++i) {
        int code = sh->log[i];
        dup += seen[code]++ != 0;
        int t = code / PER_SUBMITTER, seq = code % PER_SUBMITTER;
        disorder += seq != next[t];
        next[t] = seq + 1;
    }
    CHECK(dup == 0, "%s: %d tasks ran twice", what, dup);
    CHECK(disorder == 0, "%s: %d tasks out of per-thread order", what, disorder);
}

static void run_submitters(mt_shared *sh, mt_thread_arg *args)
{
    pthread_t th[SUBMITTERS];
    for (int t = 0; t < SUBMITTERS; ++t) {
        args[t].sh = sh;
        args[t].id = t;
        atomic_store(&args[t].submit_failures, 0);
        pthread_create(&th[t], NULL, mt_submitter, &args[t]);
    }
    for (int t = 0; t < SUBMITTERS; ++t)
        pthread_join(th[t], NULL);
    for (int t = 0; t < SUBMITTERS; ++t)
        CHECK(atomic_load(&args[t].submit_failures) == 0, "thread %d: %d submissions failed", t,
              atomic_load(&args[t].submit_failures));
}

static void test_many_submitters_one_stream(void)
{
    static mt_shared sh;
    static mt_thread_arg args[SUBMITTERS];
    memset(&sh, 0, sizeof sh);
    CHECK_ST(aclrtCreateStream(&sh.stream), ACL_SUCCESS);
    run_submitters(&sh, args);
    CHECK_ST(aclrtSynchronizeStream(sh.stream), ACL_SUCCESS);
    check_mt_log("one stream, 4 submitters", &sh);
    CHECK_ST(aclrtDestroyStream(sh.stream), ACL_SUCCESS);
}

/* Several streams, each fed by its own thread, run at once. */
enum { STREAMS = 4 };

typedef struct stream_feed {
    aclrtStream stream;
    mt_shared sh; /* only thread 0's part of the log is used */
    mt_thread_arg arg;
} stream_feed;

static void *feed_thread(void *arg)
{
    stream_feed *f = arg;
    return mt_submitter(&f->arg);
}

static atomic_int g_streams_inside;
static atomic_int g_streams_max_inside;

/* Sleeps while counting how many streams are inside at once. */
static int overlap_task(void *arg)
{
    int now = atomic_fetch_add(&g_streams_inside, 1) + 1;
    int prev = atomic_load(&g_streams_max_inside);
    while (now > prev && !atomic_compare_exchange_weak(&g_streams_max_inside, &prev, now)) {
    }
    usleep(20000);
    atomic_fetch_sub(&g_streams_inside, 1);
    return 0;
}

static void test_many_streams(void)
{
    static stream_feed feeds[STREAMS];
    pthread_t th[STREAMS];
    memset(feeds, 0, sizeof feeds);
    for (int k = 0; k < STREAMS; ++k) {
        CHECK_ST(aclrtCreateStream(&feeds[k].stream), ACL_SUCCESS);
        feeds[k].sh.stream = feeds[k].stream;
        feeds[k].arg.sh = &feeds[k].sh;
        feeds[k].arg.id = 0;
    }
    for (int k = 0; k < STREAMS; ++k)
        pthread_create(&th[k], NULL, feed_thread, &feeds[k]);
    for (int k = 0; k < STREAMS; ++k)
        pthread_join(th[k], NULL);
    CHECK_ST(aclrtSynchronizeDevice(), ACL_SUCCESS);
    for (int k = 0; k < STREAMS; ++k) {
        CHECK(feeds[k].sh.len == PER_SUBMITTER, "stream %d ran %d of %d", k, feeds[k].sh.len,
              PER_SUBMITTER);
        int ok = 1;
        for (int i = 0; i < PER_SUBMITTER; ++i)
            ok &= feeds[k].sh.log[i] == i;
        CHECK(ok, "stream %d out of order", k);
    }

    /* streams really run concurrently: each worker is its own thread */
    atomic_store(&g_streams_inside, 0);
    atomic_store(&g_streams_max_inside, 0);
    for (int k = 0; k < STREAMS; ++k)
        CHECK_ST(stream_submit(feeds[k].stream, overlap_task, NULL, NULL), ACL_SUCCESS);
    /* a failure on one stream is reported by the device synchronize, once */
    CHECK_ST(stream_submit(feeds[1].stream, return_status_task, (void *)(intptr_t)77, NULL),
             ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeDevice(), 77);
    CHECK_MSG("aclrtSynchronizeDevice");
    CHECK_ST(aclrtSynchronizeDevice(), ACL_SUCCESS);
    CHECK(atomic_load(&g_streams_max_inside) >= 2, "streams never overlapped (max %d)",
          atomic_load(&g_streams_max_inside));
    for (int k = 0; k < STREAMS; ++k)
        CHECK_ST(aclrtDestroyStream(feeds[k].stream), ACL_SUCCESS);
}

/* One thread keeps submitting while another destroys the stream: every
 * submission either runs or is refused, and each one is released once. */
typedef struct race_arg {
    aclrtStream stream;
    atomic_int ok, refused, other;
} race_arg;

static void *race_submitter(void *arg)
{
    race_arg *r = arg;
    for (int i = 0; i < 20000; ++i) {
        aclError st = stream_submit(r->stream, return_status_task, NULL, count_release);
        if (st == ACL_SUCCESS)
            atomic_fetch_add(&r->ok, 1);
        else if (st == ACL_ERROR_INVALID_RESOURCE_HANDLE)
            atomic_fetch_add(&r->refused, 1);
        else
            atomic_fetch_add(&r->other, 1);
    }
    return NULL;
}

static void test_destroy_race(void)
{
    static race_arg r;
    memset(&r, 0, sizeof r);
    CHECK_ST(aclrtCreateStream(&r.stream), ACL_SUCCESS);
    atomic_store(&g_released, 0);
    pthread_t th;
    pthread_create(&th, NULL, race_submitter, &r);
    usleep(2000);
    CHECK_ST(aclrtDestroyStream(r.stream), ACL_SUCCESS);
    pthread_join(th, NULL);
    int total = atomic_load(&r.ok) + atomic_load(&r.refused);
    CHECK(atomic_load(&r.other) == 0, "%d unexpected statuses", atomic_load(&r.other));
    CHECK(total == 20000, "ok %d + refused %d != 20000", atomic_load(&r.ok),
          atomic_load(&r.refused));
    CHECK(atomic_load(&g_released) == 20000, "released %d of 20000", atomic_load(&g_released));
}

/* ---- finalize ---------------------------------------------------------------- */

static void test_finalize(void)
{
    aclrtStream s;
    CHECK_ST(aclrtCreateStream(&s), ACL_SUCCESS);
    void *mem = NULL, *host = NULL;
    CHECK_ST(aclrtMalloc(&mem, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_ST(aclrtMallocHost(&host, 256), ACL_SUCCESS);
    atomic_store(&g_slow_done, 0);
    atomic_store(&g_released, 0);
    for (int i = 0; i < 10; ++i) {
        CHECK_ST(stream_submit(s, slow_task, (void *)(intptr_t)1000, count_release), ACL_SUCCESS);
        CHECK_ST(stream_submit(NULL, slow_task, (void *)(intptr_t)1000, count_release),
                 ACL_SUCCESS);
    }
    CHECK_ST(aclFinalize(), ACL_SUCCESS);
    CHECK(atomic_load(&g_slow_done) == 20, "finalize returned with %d of 20 tasks done",
          atomic_load(&g_slow_done));
    CHECK(atomic_load(&g_released) == 20, "released %d of 20", atomic_load(&g_released));
    CHECK(!runtime_is_initialized(), "initialized after aclFinalize");

    /* after finalize: errors, never crashes; memory still frees */
    CHECK_ST(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    CHECK_ST(aclrtSynchronizeStream(s), ACL_ERROR_UNINITIALIZE);
    CHECK_ST(aclrtDestroyStream(s), ACL_ERROR_UNINITIALIZE);
    CHECK_MSG("aclrtDestroyStream");
    CHECK_ST(aclrtSynchronizeStream(NULL), ACL_ERROR_UNINITIALIZE);
    CHECK_ST(stream_submit(NULL, return_status_task, NULL, NULL), ACL_ERROR_UNINITIALIZE);
    CHECK_ST(aclrtMemcpyAsync(host, 256, mem, 256, ACL_MEMCPY_DEVICE_TO_HOST, NULL),
             ACL_ERROR_UNINITIALIZE);
    aclrtStream s2;
    CHECK_ST(aclrtCreateStream(&s2), ACL_ERROR_UNINITIALIZE);
    aclrtContext ctx;
    CHECK_ST(aclrtGetCurrentContext(&ctx), ACL_ERROR_UNINITIALIZE);
    CHECK_ST(aclrtFree(mem), ACL_SUCCESS);
    CHECK_ST(aclrtFreeHost(host), ACL_SUCCESS);

    /* init again after finalize works; old handles stay dead */
    CHECK_ST(aclInit(NULL), ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(s), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclrtDestroyStream(s), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    CHECK_ST(aclrtCreateStream(&s2), ACL_SUCCESS);
    CHECK_ST(stream_submit(s2, return_status_task, NULL, NULL), ACL_SUCCESS);
    CHECK_ST(stream_submit(NULL, return_status_task, NULL, NULL), ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(s2), ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    /* a failure not yet synchronized is dropped by finalize, not carried over */
    CHECK_ST(stream_submit(s2, return_status_task, (void *)(intptr_t)5, NULL), ACL_SUCCESS);
    CHECK_ST(aclFinalize(), ACL_SUCCESS);
    CHECK_ST(aclInit(NULL), ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeDevice(), ACL_SUCCESS);
    CHECK_ST(aclFinalize(), ACL_SUCCESS);
}

/* ---- thread pool --------------------------------------------------------------- */

enum { POOL_N = 5000, POOL_MAX_TRACKED_THREADS = 64 };

typedef struct pool_ctx {
    atomic_int counts[POOL_N];
    pthread_t threads[POOL_MAX_TRACKED_THREADS];
    atomic_int nthreads;
    pthread_mutex_t mu;
    useconds_t sleep_us;
} pool_ctx;

static void pool_count(void *vctx, size_t i)
{
    pool_ctx *c = vctx;
    atomic_fetch_add(&c->counts[i], 1);
    pthread_mutex_lock(&c->mu);
    int n = atomic_load(&c->nthreads), known = 0;
    for (int k = 0; k < n; ++k)
        known |= pthread_equal(c->threads[k], pthread_self());
    if (!known && n < POOL_MAX_TRACKED_THREADS) {
        c->threads[n] = pthread_self();
        atomic_store(&c->nthreads, n + 1);
    }
    pthread_mutex_unlock(&c->mu);
    if (c->sleep_us) usleep(c->sleep_us);
}

static void pool_ctx_reset(pool_ctx *c, useconds_t sleep_us)
{
    for (int i = 0; i < POOL_N; ++i)
        atomic_store(&c->counts[i], 0);
    atomic_store(&c->nthreads, 0);
    c->sleep_us = sleep_us;
}

/* Every index in [0, n) ran exactly once, none beyond. */
static int pool_check_once(const char *what, pool_ctx *c, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < POOL_N; ++i) {
        int want = i < n ? 1 : 0;
        if (atomic_load(&c->counts[i]) != want) {
            if (bad < 3)
                printf("FAIL %s: index %zu ran %d times (n=%zu)\n", what, i,
                       atomic_load(&c->counts[i]), n);
            ++bad;
        }
    }
    if (bad) ++g_test_failures;
    return bad == 0;
}

static pool_ctx g_pc1, g_pc2;

static void *pool_caller_thread(void *arg)
{
    pool_ctx *c = arg;
    for (int rep = 0; rep < 200; ++rep) {
        pool_ctx_reset(c, 0);
        size_t n = (size_t)(rep * 37 % POOL_N) + 1;
        pool_parallel_for(n, pool_count, c);
        if (!pool_check_once("concurrent caller", c, n)) break;
    }
    return NULL;
}

/* A task that itself calls pool_parallel_for (nested): runs inline. */
static void pool_nested(void *vctx, size_t i)
{
    pool_ctx *c = vctx;
    static pool_ctx inner[8];
    if (i < 8) {
        pool_ctx_reset(&inner[i], 0);
        pthread_mutex_init(&inner[i].mu, NULL);
        pool_parallel_for(100, pool_count, &inner[i]);
        for (int k = 0; k < 100; ++k)
            if (atomic_load(&inner[i].counts[k]) != 1) atomic_fetch_add(&c->counts[POOL_N - 1], 1);
        pthread_mutex_destroy(&inner[i].mu);
    }
}

typedef struct pool_from_stream {
    pool_ctx *c;
    size_t n;
} pool_from_stream;

static int pool_stream_task(void *arg)
{
    pool_from_stream *p = arg;
    pool_ctx_reset(p->c, 0);
    pool_parallel_for(p->n, pool_count, p->c);
    for (size_t i = 0; i < POOL_N; ++i)
        if (atomic_load(&p->c->counts[i]) != (i < p->n)) return 1;
    return 0;
}

static void test_pool(void)
{
    /* ACLCONV_NUM_THREADS=3 and ACLCONV_SPIN_US=150 were set by main before
     * any pool use */
    CHECK(aclconvGetNumThreads() == 3, "ACLCONV_NUM_THREADS=3 gave %d threads",
          aclconvGetNumThreads());
    CHECK(pool_num_threads() == 3, "pool_num_threads %d", pool_num_threads());
    pthread_mutex_init(&g_pc1.mu, NULL);
    pthread_mutex_init(&g_pc2.mu, NULL);

    static const size_t ns[] = {0, 1, 2, 3, 4, 7, 100, POOL_N};
    /* waits that sleep at once, then waits that poll first (the default) */
    const int spin_default = pool_set_spin_us(0);
    CHECK(spin_default == 150, "ACLCONV_SPIN_US=150 gave %d us", spin_default);
    for (int spin = 0; spin < 2; ++spin) {
        if (spin) pool_set_spin_us(spin_default);
        for (int threads = 1; threads <= 3; threads += 2) {
            CHECK_ST(aclconvSetNumThreads(threads), ACL_SUCCESS);
            CHECK(aclconvGetNumThreads() == threads, "set %d, get %d", threads,
                  aclconvGetNumThreads());
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
                pool_ctx_reset(&g_pc1, 0);
                pool_parallel_for(ns[k], pool_count, &g_pc1);
                char what[64];
                snprintf(what, sizeof what, "%d threads, n=%zu", threads, ns[k]);
                pool_check_once(what, &g_pc1, ns[k]);
            }
            /* slow indexes: with 3 threads, the workers must take part */
            pool_ctx_reset(&g_pc1, 200);
            pool_parallel_for(60, pool_count, &g_pc1);
            pool_check_once("slow", &g_pc1, 60);
            int used = atomic_load(&g_pc1.nthreads);
            if (threads == 1) {
                CHECK(used == 1 && pthread_equal(g_pc1.threads[0], pthread_self()),
                      "1 thread: %d threads ran indexes", used);
            } else {
                CHECK(used >= 2 && used <= 3, "3 threads: %d threads ran indexes", used);
            }
        }

        /* two threads call at once (one is served inline): all still exact */
        CHECK_ST(aclconvSetNumThreads(3), ACL_SUCCESS);
        pthread_t a, b;
        pthread_create(&a, NULL, pool_caller_thread, &g_pc1);
        pthread_create(&b, NULL, pool_caller_thread, &g_pc2);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
    }

    /* nested calls from inside a task run inline instead of deadlocking */
    pool_ctx_reset(&g_pc1, 0);
    pool_parallel_for(16, pool_nested, &g_pc1);
    CHECK(atomic_load(&g_pc1.counts[POOL_N - 1]) == 0, "nested parallel_for lost indexes");

    /* from two stream workers at once */
    CHECK_ST(aclInit(NULL), ACL_SUCCESS);
    aclrtStream s1, s2;
    CHECK_ST(aclrtCreateStream(&s1), ACL_SUCCESS);
    CHECK_ST(aclrtCreateStream(&s2), ACL_SUCCESS);
    pool_from_stream p1 = {&g_pc1, 3001}, p2 = {&g_pc2, 4999};
    for (int rep = 0; rep < 20; ++rep) {
        CHECK_ST(stream_submit(s1, pool_stream_task, &p1, NULL), ACL_SUCCESS);
        CHECK_ST(stream_submit(s2, pool_stream_task, &p2, NULL), ACL_SUCCESS);
    }
    CHECK_ST(aclrtSynchronizeStream(s1), ACL_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(s2), ACL_SUCCESS);
    CHECK_ST(aclrtDestroyStream(s1), ACL_SUCCESS);
    CHECK_ST(aclrtDestroyStream(s2), ACL_SUCCESS);
    CHECK_ST(aclFinalize(), ACL_SUCCESS);

    CHECK_ST(aclconvSetNumThreads(0), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclconvSetNumThreads");
    CHECK_ST(aclconvSetNumThreads(-3), ACL_ERROR_INVALID_PARAM);
    CHECK_ST(aclconvSetNumThreads(1 << 20), ACL_ERROR_INVALID_PARAM);
    CHECK(aclconvGetNumThreads() == 3, "a refused set changed the count");

    /* growing the pool later works */
    CHECK_ST(aclconvSetNumThreads(5), ACL_SUCCESS);
    pool_ctx_reset(&g_pc1, 200);
    pool_parallel_for(100, pool_count, &g_pc1);
    pool_check_once("5 threads", &g_pc1, 100);
    CHECK(atomic_load(&g_pc1.nthreads) <= 5, "5 threads: %d ran", atomic_load(&g_pc1.nthreads));
    CHECK_ST(aclconvSetNumThreads(3), ACL_SUCCESS);
    pthread_mutex_destroy(&g_pc1.mu);
    pthread_mutex_destroy(&g_pc2.mu);
}

/* ---- version and ISA ------------------------------------------------------------ */

static void test_isa(void)
{
    CHECK(strcmp(aclconvVersion(), "0.1.0") == 0, "version %s", aclconvVersion());
    aclconvIsa det = cpu_detected_isa();
#if defined(__x86_64__) || defined(__i386__)
    /* gcc's own detection checks cpuid and XCR0 too: an independent opinion */
    __builtin_cpu_init();
    aclconvIsa want = ACLCONV_ISA_SCALAR;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        want = ACLCONV_ISA_AVX2;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
            want = ACLCONV_ISA_AVX512;
    }
    CHECK(det == want, "detected %s, gcc says %s", cpu_isa_name(det), cpu_isa_name(want));
#endif
    printf("detected ISA: %s\n", cpu_isa_name(det));
    unsetenv("ACLCONV_ISA");
    CHECK(aclconvGetIsa() == det, "uncapped ISA %d != detected %d", aclconvGetIsa(), det);
    CHECK(cpu_isa() == det, "cpu_isa");
    CHECK(aclconvSetMaxIsa(ACLCONV_ISA_SCALAR) == ACLCONV_ISA_SCALAR, "cap scalar");
    CHECK(aclconvGetIsa() == ACLCONV_ISA_SCALAR, "cap scalar not kept");
    aclconvIsa a2 = aclconvSetMaxIsa(ACLCONV_ISA_AVX2);
    CHECK(a2 == (det < ACLCONV_ISA_AVX2 ? det : ACLCONV_ISA_AVX2), "cap avx2 gave %d", a2);
    CHECK(aclconvSetMaxIsa(ACLCONV_ISA_AVX512) == det, "uncap");
    CHECK(aclconvSetMaxIsa((aclconvIsa)99) == det, "out-of-range cap");

    static const struct {
        const char *env;
        aclconvIsa cap;
    } envs[] = {{"scalar", ACLCONV_ISA_SCALAR},
                {"avx2", ACLCONV_ISA_AVX2},
                {"avx512", ACLCONV_ISA_AVX512},
                {"bogus", ACLCONV_ISA_AVX512}};
    for (size_t i = 0; i < sizeof envs / sizeof envs[0]; ++i) {
        setenv("ACLCONV_ISA", envs[i].env, 1);
        aclconvIsa want_env = det < envs[i].cap ? det : envs[i].cap;
        CHECK(aclconvGetIsa() == want_env, "ACLCONV_ISA=%s gave %s", envs[i].env,
              cpu_isa_name(aclconvGetIsa()));
    }
    setenv("ACLCONV_ISA", "avx512", 1);
    CHECK(aclconvSetMaxIsa(ACLCONV_ISA_SCALAR) == ACLCONV_ISA_SCALAR, "api cap under env");
    aclconvSetMaxIsa(ACLCONV_ISA_AVX512);
    unsetenv("ACLCONV_ISA");
}

int main(void)
{
    /* before anything reads it */
    setenv("ACLCONV_NUM_THREADS", "3", 1);
    setenv("ACLCONV_SPIN_US", "150", 1);

    test_before_init();
    test_init();
    test_device();
    test_sys_params();
    test_contexts();
    test_malloc();
    test_memcpy_memset();
    test_error_messages_per_thread();
    test_stream_order();
    test_streams_basic();
    test_stream_handles();
    test_destroy_waits();
    test_self_wait();
    test_many_submitters_one_stream();
    test_many_streams();
    test_destroy_race();
    test_finalize(); /* finalizes */
    test_pool();
    test_isa();

    if (g_test_failures) {
        printf("test_runtime: %d check(s) failed\n", g_test_failures);
        return 1;
    }
    printf("test_runtime: all checks passed\n");
    return 0;
}
