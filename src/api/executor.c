#include "api/executor.h"

#include <pthread.h>

#include "common/alloc.h"
#include "common/log.h"
#include "runtime/runtime.h"

struct aclOpExecutor {
    const exec_ops *ops;
    void *plan;
    uint64_t workspace_size;
    bool repeatable;
    int refs; /* one for the registry, one per queued run */
    aclOpExecutor *next_live;
};

/* The live executors: a short intrusive list (executors are few at a time). */
static pthread_mutex_t g_live_lock = PTHREAD_MUTEX_INITIALIZER;
static aclOpExecutor *g_live;

static bool live_contains(const aclOpExecutor *e)
{
    for (aclOpExecutor *p = g_live; p != NULL; p = p->next_live)
        if (p == e) return true;
    return false;
}

static void live_remove(aclOpExecutor *e)
{
    for (aclOpExecutor **pp = &g_live; *pp != NULL; pp = &(*pp)->next_live) {
        if (*pp == e) {
            *pp = e->next_live;
            e->next_live = NULL;
            return;
        }
    }
}

/* Drops one reference; the last one frees the plan. Caller holds g_live_lock. */
static bool unref_locked(aclOpExecutor *e) { return --e->refs == 0; }

static void executor_free(aclOpExecutor *e)
{
    e->ops->destroy(e->plan);
    aclconv_free(e);
}

aclOpExecutor *executor_create(const exec_ops *ops, void *plan, uint64_t workspace_size)
{
    aclOpExecutor *e = aclconv_calloc(1, sizeof *e);
    if (e == NULL) {
        ops->destroy(plan);
        aclconv_set_error("aclOpExecutor: out of memory creating the executor");
        return NULL;
    }
    e->ops = ops;
    e->plan = plan;
    e->workspace_size = workspace_size;
    e->refs = 1;
    pthread_mutex_lock(&g_live_lock);
    e->next_live = g_live;
    g_live = e;
    pthread_mutex_unlock(&g_live_lock);
    return e;
}

typedef struct launch {
    aclOpExecutor *executor;
    void *workspace;
} launch;

static int launch_run(void *arg)
{
    launch *l = arg;
    return l->executor->ops->run(l->executor->plan, l->workspace);
}

static void launch_release(void *arg)
{
    launch *l = arg;
    pthread_mutex_lock(&g_live_lock);
    bool last = unref_locked(l->executor);
    pthread_mutex_unlock(&g_live_lock);
    if (last) executor_free(l->executor);
    aclconv_free(l);
}

aclnnStatus executor_launch(const char *op, void *workspace, uint64_t workspace_size,
                            aclOpExecutor *executor, aclrtStream stream)
{
    if (executor == NULL) {
        aclconv_set_error("%s: executor is NULL", op);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    launch *l = aclconv_malloc(sizeof *l);
    pthread_mutex_lock(&g_live_lock);
    aclnnStatus st = ACLNN_SUCCESS;
    if (!live_contains(executor)) {
        aclconv_set_error("%s: executor %p is not live: it was already run (and was not made "
                          "repeatable) or destroyed",
                          op, (void *)executor);
        st = ACLNN_ERR_PARAM_INVALID;
    } else if (workspace == NULL && executor->workspace_size > 0) {
        aclconv_set_error("%s: workspace is NULL but the plan needs %llu bytes", op,
                          (unsigned long long)executor->workspace_size);
        st = ACLNN_ERR_PARAM_NULLPTR;
    } else if (workspace_size < executor->workspace_size) {
        aclconv_set_error("%s: workspaceSize %llu is smaller than the %llu bytes planned", op,
                          (unsigned long long)workspace_size,
                          (unsigned long long)executor->workspace_size);
        st = ACLNN_ERR_PARAM_INVALID;
    } else if (l == NULL) {
        aclconv_set_error("%s: out of memory queuing the executor", op);
        st = ACLNN_ERR_INNER_NULLPTR;
    }
    if (st != ACLNN_SUCCESS) {
        pthread_mutex_unlock(&g_live_lock);
        aclconv_free(l);
        return st;
    }
    /* The queued run holds a reference; a one-shot executor also hands over
     * the registry's, so nobody can run or destroy it again. */
    if (executor->repeatable) {
        executor->refs++;
    } else {
        live_remove(executor);
    }
    pthread_mutex_unlock(&g_live_lock);

    l->executor = executor;
    l->workspace = workspace;
    aclError err = stream_submit(stream, launch_run, l, launch_release);
    if (err != ACL_SUCCESS) {
        /* stream_submit released l (and with it the run's reference) */
        aclconv_set_error("%s: cannot queue on stream %p (runtime error %d)", op, stream, err);
        return ACLNN_ERR_RUNTIME_ERROR;
    }
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor)
{
    if (executor == NULL) {
        aclconv_set_error("aclSetAclOpExecutorRepeatable: executor is NULL");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    pthread_mutex_lock(&g_live_lock);
    bool live = live_contains(executor);
    if (live) executor->repeatable = true;
    pthread_mutex_unlock(&g_live_lock);
    if (!live) {
        aclconv_set_error("aclSetAclOpExecutorRepeatable: executor %p is not live",
                          (void *)executor);
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor)
{
    if (executor == NULL) return ACLNN_SUCCESS;
    pthread_mutex_lock(&g_live_lock);
    bool live = live_contains(executor);
    bool last = false;
    if (live) {
        live_remove(executor);
        last = unref_locked(executor);
    }
    pthread_mutex_unlock(&g_live_lock);
    if (!live) {
        aclconv_set_error("aclDestroyAclOpExecutor: executor %p is not live (already run or "
                          "destroyed)",
                          (void *)executor);
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (last) executor_free(executor);
    return ACLNN_SUCCESS;
}
