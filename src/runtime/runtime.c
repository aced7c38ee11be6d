/*
 * The process-level runtime: aclInit / aclFinalize, the single device, contexts,
 * system parameters and the run mode. Streams live in stream.c, memory in
 * memory.c.
 */
#include "runtime/runtime.h"

#include <pthread.h>
#include <stdatomic.h>

#include "common/alloc.h"
#include "common/log.h"
#include "runtime/rt_internal.h"

/* The only device. */
#define DEVICE_ID 0
#define DEVICE_COUNT 1u

/* Serializes aclInit / aclFinalize against each other. */
static pthread_mutex_t g_init_mu = PTHREAD_MUTEX_INITIALIZER;
/* Also read without the lock by runtime_is_initialized. */
static atomic_bool g_initialized;

bool runtime_is_initialized(void)
{
    return atomic_load(&g_initialized);
}

/* ---- contexts ------------------------------------------------------------
 * A context carries no state on a CPU: it is a token in a registry so that
 * destroying or setting an unknown one is reported. Each thread has its own
 * current context; a thread that set none (or whose context was destroyed)
 * sees the default context, which exists while the runtime is initialized.
 */
typedef struct context {
    aclrtContext handle;
    struct context *next;
} context;

static struct {
    pthread_mutex_t mu;
    context *live;
    uint64_t next_serial;
    aclrtContext default_ctx; /* NULL when not initialized */
} g_ctx = {.mu = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local aclrtContext t_current_ctx;

/* true if handle is the default context or a created one; g_ctx.mu held. */
static bool context_is_live(aclrtContext handle)
{
    if (handle != NULL && handle == g_ctx.default_ctx) return true;
    for (context *c = g_ctx.live; c != NULL; c = c->next)
        if (c->handle == handle) return true;
    return false;
}

static void contexts_open(void)
{
    pthread_mutex_lock(&g_ctx.mu);
    g_ctx.default_ctx = rt_token(RT_TOKEN_CONTEXT, ++g_ctx.next_serial);
    pthread_mutex_unlock(&g_ctx.mu);
}

static void contexts_close(void)
{
    pthread_mutex_lock(&g_ctx.mu);
    while (g_ctx.live != NULL) {
        context *c = g_ctx.live;
        g_ctx.live = c->next;
        aclconv_free(c);
    }
    g_ctx.default_ctx = NULL;
    pthread_mutex_unlock(&g_ctx.mu);
}

static aclError require_init(const char *fn)
{
    if (runtime_is_initialized()) return ACL_SUCCESS;
    aclconv_set_error("%s: the runtime is not initialized (call aclInit first)", fn);
    return ACL_ERROR_UNINITIALIZE;
}

static aclError check_device(const char *fn, int32_t deviceId)
{
    if (deviceId == DEVICE_ID) return ACL_SUCCESS;
    aclconv_set_error("%s: invalid deviceId %d (the only device is %d)", fn, (int)deviceId,
                      DEVICE_ID);
    return ACL_ERROR_INVALID_DEVICE;
}

#define REQUIRE_NONNULL(fn, p)                                                                     \
    do {                                                                                           \
        if ((p) == NULL) {                                                                         \
            aclconv_set_error("%s: %s is NULL", fn, #p);                                           \
            return ACL_ERROR_INVALID_PARAM;                                                        \
        }                                                                                          \
    } while (0)

/* ---- init / finalize -------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath)
{
    (void)configPath; /* CANN reads a JSON config; there is nothing to configure */
    aclError st = ACL_SUCCESS;
    pthread_mutex_lock(&g_init_mu);
    if (atomic_load(&g_initialized)) {
        aclconv_set_error("aclInit: already initialized (call aclFinalize first)");
        st = ACL_ERROR_REPEAT_INITIALIZE;
    } else {
        contexts_open();
        streams_open();
        atomic_store(&g_initialized, true);
    }
    pthread_mutex_unlock(&g_init_mu);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void)
{
    if (streams_on_worker_thread()) {
        /* it would wait for the stream that is running this very task */
        aclconv_set_error("aclFinalize: called from a stream task");
        return ACL_ERROR_INVALID_PARAM;
    }
    aclError st = ACL_SUCCESS;
    pthread_mutex_lock(&g_init_mu);
    if (!atomic_load(&g_initialized)) {
        aclconv_set_error("aclFinalize: not initialized (aclInit not called, or already "
                          "finalized)");
        st = ACL_ERROR_REPEAT_FINALIZE;
    } else {
        atomic_store(&g_initialized, false);
        streams_close(); /* runs every queued task, then releases the streams */
        contexts_close();
    }
    pthread_mutex_unlock(&g_init_mu);
    return st;
}

/* ---- device ------------------------------------------------------------
 * The device functions hold no state, so they work with or without aclInit.
 */

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId)
{
    return check_device("aclrtSetDevice", deviceId);
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId)
{
    aclError st = check_device("aclrtResetDevice", deviceId);
    if (st != ACL_SUCCESS) return st;
    /* CANN releases the device's default context here. Streams and contexts
     * belong to the process and are released by aclFinalize, so a program
     * that destroys its streams after resetting still works. */
    return ACL_SUCCESS;
}

/* There is one device, so every thread's device is 0, set or not. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId)
{
    REQUIRE_NONNULL("aclrtGetDevice", deviceId);
    *deviceId = DEVICE_ID;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count)
{
    REQUIRE_NONNULL("aclrtGetDeviceCount", count);
    *count = DEVICE_COUNT;
    return ACL_SUCCESS;
}

/* ACL_HOST: a CANN program sees ACL_HOST when it runs on the host side
 * (ACL_DEVICE only inside the NPU's own control CPU), and aclconv always runs
 * on the host. Code that branches on it then takes its host path, i.e. it
 * copies its inputs with aclrtMemcpy, which is what aclconv expects. */
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
    REQUIRE_NONNULL("aclrtGetRunMode", runMode);
    *runMode = ACL_HOST;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void)
{
    static const char fn[] = "aclrtSynchronizeDevice";
    if (streams_on_worker_thread()) {
        aclconv_set_error("%s: called from a stream task (it would wait for itself)", fn);
        return ACL_ERROR_INVALID_PARAM;
    }
    return streams_synchronize_all(fn);
}

/* ---- contexts --------------------------------------------------------- */

/* As in CANN, the new context becomes the calling thread's current one. */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *ctx, int32_t deviceId)
{
    static const char fn[] = "aclrtCreateContext";
    REQUIRE_NONNULL(fn, ctx);
    aclError st = check_device(fn, deviceId);
    if (st != ACL_SUCCESS) return st;
    context *c = aclconv_malloc(sizeof *c);
    if (c == NULL) {
        aclconv_set_error("%s: out of memory", fn);
        return ACL_ERROR_BAD_ALLOC;
    }
    pthread_mutex_lock(&g_ctx.mu);
    /* checked under g_ctx.mu: aclFinalize empties the registry under it */
    if (g_ctx.default_ctx == NULL) {
        pthread_mutex_unlock(&g_ctx.mu);
        aclconv_free(c);
        return require_init(fn);
    }
    c->handle = rt_token(RT_TOKEN_CONTEXT, ++g_ctx.next_serial);
    c->next = g_ctx.live;
    g_ctx.live = c;
    pthread_mutex_unlock(&g_ctx.mu);
    *ctx = c->handle;
    t_current_ctx = *ctx;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext ctx)
{
    static const char fn[] = "aclrtDestroyContext";
    REQUIRE_NONNULL(fn, ctx);
    aclError st = require_init(fn);
    if (st != ACL_SUCCESS) return st;
    context *found = NULL;
    pthread_mutex_lock(&g_ctx.mu);
    for (context **p = &g_ctx.live; *p != NULL; p = &(*p)->next) {
        if ((*p)->handle == ctx) {
            found = *p;
            *p = found->next;
            break;
        }
    }
    pthread_mutex_unlock(&g_ctx.mu);
    if (found == NULL) {
        aclconv_set_error("%s: context %p was not created by aclrtCreateContext or is already "
                          "destroyed",
                          fn, ctx);
        return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    }
    aclconv_free(found);
    if (t_current_ctx == ctx) t_current_ctx = NULL;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext ctx)
{
    static const char fn[] = "aclrtSetCurrentContext";
    REQUIRE_NONNULL(fn, ctx);
    aclError st = require_init(fn);
    if (st != ACL_SUCCESS) return st;
    pthread_mutex_lock(&g_ctx.mu);
    bool live = context_is_live(ctx);
    pthread_mutex_unlock(&g_ctx.mu);
    if (!live) {
        aclconv_set_error("%s: context %p is not a live context", fn, ctx);
        return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    }
    t_current_ctx = ctx;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *ctx)
{
    static const char fn[] = "aclrtGetCurrentContext";
    REQUIRE_NONNULL(fn, ctx);
    aclError st = require_init(fn);
    if (st != ACL_SUCCESS) return st;
    pthread_mutex_lock(&g_ctx.mu);
    /* a context destroyed since it was set falls back to the default one */
    *ctx =
        t_current_ctx != NULL && context_is_live(t_current_ctx) ? t_current_ctx : g_ctx.default_ctx;
    pthread_mutex_unlock(&g_ctx.mu);
    return ACL_SUCCESS;
}

/* ---- system parameters -------------------------------------------------
 * Process-wide values, default 0, kept across aclFinalize. The context
 * variant shares them: there is one device and contexts hold no state.
 */

#define SYS_PARAM_COUNT (ACL_OPT_ENABLE_KERNEL_EARLY_START + 1)

static _Atomic int64_t g_sys_params[SYS_PARAM_COUNT];

static aclError check_sys_param(const char *fn, aclSysParamOpt opt)
{
    if ((int)opt >= 0 && (int)opt < SYS_PARAM_COUNT) return ACL_SUCCESS;
    aclconv_set_error("%s: unknown option %d (valid: 0..%d)", fn, (int)opt, SYS_PARAM_COUNT - 1);
    return ACL_ERROR_INVALID_PARAM;
}

ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
    aclError st = check_sys_param("aclrtSetSysParamOpt", opt);
    if (st == ACL_SUCCESS) atomic_store(&g_sys_params[opt], value);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
    aclError st = check_sys_param("aclrtCtxSetSysParamOpt", opt);
    if (st == ACL_SUCCESS) atomic_store(&g_sys_params[opt], value);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
    REQUIRE_NONNULL("aclrtGetSysParamOpt", value);
    aclError st = check_sys_param("aclrtGetSysParamOpt", opt);
    if (st == ACL_SUCCESS) *value = atomic_load(&g_sys_params[opt]);
    return st;
}
