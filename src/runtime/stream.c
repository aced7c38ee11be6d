/*
 * Streams: in-order task queues, each served by its own worker thread.
 *
 * Lifetime: a stream is reachable from the registry (g_reg.live) until it is
 * destroyed or aclFinalize runs. Every caller that looks a handle up takes a
 * reference under g_reg.mu, so a stream being destroyed by one thread is never
 * freed under another thread that is still submitting to or waiting on it;
 * the last reference frees it. Whoever removes a stream from the registry
 * stops it (drains its queue, joins its worker) before dropping the
 * registry's reference.
 *
 * Lock order: g_reg.mu, then a stream's mu. Neither is held while a task runs.
 */
#include "runtime/runtime.h"

#include <pthread.h>
#include <string.h>

#include "common/alloc.h"
#include "common/log.h"
#include "common/thread.h"
#include "runtime/rt_internal.h"

enum { STATUS_MSG_CAPACITY = 512 };

typedef struct task {
    stream_task_fn fn;
    void *arg;
    void (*release)(void *);
    struct task *next;
} task;

typedef struct stream {
    aclrtStream handle;
    bool is_default;
    struct stream *next_live; /* registry list; under g_reg.mu */
    int refs;                 /* under g_reg.mu */

    pthread_mutex_t mu;     /* guards everything below */
    pthread_cond_t work_cv; /* to the worker: a task arrived, or stop */
    pthread_cond_t idle_cv; /* to waiters: the queue drained, or the worker exited */
    task *head, *tail;
    bool busy;                            /* the worker is running a task (already off the queue) */
    bool stopping;                        /* no more submissions; the worker exits once drained */
    bool exited;                          /* the worker has returned */
    int status;                           /* first failure since the last synchronize, 0 if none */
    char status_msg[STATUS_MSG_CAPACITY]; /* the failing task's error message */
    pthread_t worker;
} stream;

static struct {
    pthread_mutex_t mu;
    bool open; /* between aclInit and aclFinalize */
    uint64_t next_serial;
    stream *live;
    stream *default_stream; /* created at the first use of the NULL stream */
} g_reg = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* The stream whose worker is the calling thread, NULL on other threads. */
static _Thread_local stream *t_worker_stream;

bool streams_on_worker_thread(void)
{
    return t_worker_stream != NULL;
}

/* ---- the worker ------------------------------------------------------- */

/* Runs one task with the stream unlocked; records its failure, if first. */
static void run_task(stream *s, task *t)
{
    /* Tasks report through aclconv_set_error on this thread; start clean so a
     * stale message from an earlier task is not blamed on this one. */
    aclconv_clear_error();
    int st = t->fn(t->arg);
    if (t->release != NULL) t->release(t->arg);
    aclconv_free(t);

    pthread_mutex_lock(&s->mu);
    if (st != 0 && s->status == 0) {
        s->status = st;
        /* The message lives in this worker's thread-local slot; copy it so
         * the thread that synchronizes can see why the task failed. */
        strncpy(s->status_msg, aclGetRecentErrMsg(), sizeof s->status_msg - 1);
        s->status_msg[sizeof s->status_msg - 1] = '\0';
    }
    s->busy = false;
    if (s->head == NULL) pthread_cond_broadcast(&s->idle_cv);
    pthread_mutex_unlock(&s->mu);
}

static void *worker_main(void *arg)
{
    stream *s = arg;
    t_worker_stream = s;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (s->head == NULL && !s->stopping)
            pthread_cond_wait(&s->work_cv, &s->mu);
        if (s->head == NULL) break; /* stopping and drained */
        task *t = s->head;
        s->head = t->next;
        if (s->head == NULL) s->tail = NULL;
        s->busy = true;
        pthread_mutex_unlock(&s->mu);
        run_task(s, t);
        pthread_mutex_lock(&s->mu);
    }
    s->exited = true;
    pthread_cond_broadcast(&s->idle_cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- creation, references, stopping ------------------------------------ */

static void stream_free(stream *s)
{
    pthread_cond_destroy(&s->idle_cv);
    pthread_cond_destroy(&s->work_cv);
    pthread_mutex_destroy(&s->mu);
    aclconv_free(s);
}

/* A new stream with its worker running and one reference (the registry's).
 * Called with g_reg.mu held (it reads the serial counter). */
static aclError stream_new(const char *fn, bool is_default, stream **out)
{
    stream *s = aclconv_calloc(1, sizeof *s);
    if (s == NULL) {
        aclconv_set_error("%s: out of memory creating a stream", fn);
        return ACL_ERROR_BAD_ALLOC;
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->work_cv, NULL);
    pthread_cond_init(&s->idle_cv, NULL);
    s->is_default = is_default;
    s->refs = 1;
    int rc = aclconv_thread_create(&s->worker, worker_main, s);
    if (rc != 0) {
        stream_free(s);
        aclconv_set_error("%s: cannot start a stream worker thread (error %d)", fn, rc);
        return ACL_ERROR_RT_FAILURE;
    }
    s->handle = rt_token(RT_TOKEN_STREAM, ++g_reg.next_serial);
    *out = s;
    return ACL_SUCCESS;
}

static void stream_unref(stream *s)
{
    pthread_mutex_lock(&g_reg.mu);
    bool last = --s->refs == 0;
    pthread_mutex_unlock(&g_reg.mu);
    if (last) stream_free(s);
}

/*
 * Finds the live stream of handle (NULL: the default stream, created now if
 * needed) and takes a reference on it. The handle itself is only compared,
 * never dereferenced.
 */
static aclError stream_acquire(const char *fn, aclrtStream handle, stream **out)
{
    aclError st = ACL_SUCCESS;
    stream *s = NULL;
    pthread_mutex_lock(&g_reg.mu);
    if (!g_reg.open) {
        aclconv_set_error("%s: the runtime is not initialized (call aclInit first)", fn);
        st = ACL_ERROR_UNINITIALIZE;
    } else if (handle == NULL) {
        if (g_reg.default_stream == NULL) {
            st = stream_new(fn, true, &g_reg.default_stream);
            if (st == ACL_SUCCESS) {
                g_reg.default_stream->next_live = g_reg.live;
                g_reg.live = g_reg.default_stream;
            }
        }
        s = g_reg.default_stream;
    } else {
        for (s = g_reg.live; s != NULL && s->handle != handle; s = s->next_live)
            continue;
        if (s == NULL) {
            aclconv_set_error("%s: stream %p is not a live stream (destroyed, released by "
                              "aclFinalize, or never created)",
                              fn, handle);
            st = ACL_ERROR_INVALID_RESOURCE_HANDLE;
        }
    }
    if (st == ACL_SUCCESS) ++s->refs;
    pthread_mutex_unlock(&g_reg.mu);
    *out = s;
    return st;
}

/* Removes s from the registry; false if it was already gone. g_reg.mu held. */
static bool registry_remove(stream *s)
{
    for (stream **p = &g_reg.live; *p != NULL; p = &(*p)->next_live) {
        if (*p == s) {
            *p = s->next_live;
            s->next_live = NULL;
            if (g_reg.default_stream == s) g_reg.default_stream = NULL;
            return true;
        }
    }
    return false;
}

/* Refuses new tasks, waits until the worker ran every queued one and exited.
 * Safe to call from two threads at once: the first to arrive joins. */
static void stream_stop(stream *s)
{
    pthread_mutex_lock(&s->mu);
    bool joiner = !s->stopping;
    s->stopping = true;
    pthread_cond_signal(&s->work_cv);
    while (!s->exited)
        pthread_cond_wait(&s->idle_cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
    if (joiner) pthread_join(s->worker, NULL);
}

/* Waits until s has no queued or running task, then takes (and clears) its
 * recorded failure; the failing task's message goes to msg. */
static int stream_wait_idle(stream *s, char *msg, size_t msg_size)
{
    pthread_mutex_lock(&s->mu);
    while (s->head != NULL || s->busy)
        pthread_cond_wait(&s->idle_cv, &s->mu);
    int st = s->status;
    if (st != 0 && msg != NULL) {
        snprintf(msg, msg_size, "%s", s->status_msg);
    }
    s->status = 0;
    s->status_msg[0] = '\0';
    pthread_mutex_unlock(&s->mu);
    return st;
}

/* ---- the runtime's view: init, finalize, device sync -------------------- */

void streams_open(void)
{
    pthread_mutex_lock(&g_reg.mu);
    g_reg.open = true;
    pthread_mutex_unlock(&g_reg.mu);
}

void streams_close(void)
{
    pthread_mutex_lock(&g_reg.mu);
    g_reg.open = false;
    stream *list = g_reg.live;
    g_reg.live = NULL;
    g_reg.default_stream = NULL;
    pthread_mutex_unlock(&g_reg.mu);

    while (list != NULL) {
        stream *s = list;
        list = s->next_live;
        s->next_live = NULL;
        stream_stop(s);
        stream_unref(s); /* the registry's reference */
    }
}

aclError streams_synchronize_all(const char *fn)
{
    /* Waits for the live streams one at a time, in creation order (handles
     * grow with it), holding a reference on the stream being waited for and
     * no lock: a running task may itself submit work. It allocates nothing,
     * so "returned" means "work done" even out of memory. */
    pthread_mutex_lock(&g_reg.mu);
    bool open = g_reg.open;
    pthread_mutex_unlock(&g_reg.mu);
    if (!open) {
        aclconv_set_error("%s: the runtime is not initialized (call aclInit first)", fn);
        return ACL_ERROR_UNINITIALIZE;
    }
    int first = 0;
    char msg[STATUS_MSG_CAPACITY] = "";
    uintptr_t waited = 0; /* every stream with a handle up to this one is done */
    for (;;) {
        pthread_mutex_lock(&g_reg.mu);
        stream *next = NULL;
        for (stream *s = g_reg.live; s != NULL; s = s->next_live)
            if ((uintptr_t)s->handle > waited &&
                (next == NULL || (uintptr_t)s->handle < (uintptr_t)next->handle))
                next = s;
        if (next != NULL) ++next->refs;
        pthread_mutex_unlock(&g_reg.mu);
        if (next == NULL) break;
        waited = (uintptr_t)next->handle;
        char m[STATUS_MSG_CAPACITY];
        int st = stream_wait_idle(next, m, sizeof m);
        if (st != 0 && first == 0) {
            first = st;
            memcpy(msg, m, sizeof msg);
        }
        stream_unref(next);
    }
    if (first != 0)
        aclconv_set_error("%s: a stream task failed with status %d: %s", fn, first, msg);
    return first;
}

/* ---- public API -------------------------------------------------------- */

aclError stream_submit_as(const char *fn_name, aclrtStream stream_handle, stream_task_fn fn,
                          void *arg, void (*release)(void *))
{
    aclError st = ACL_SUCCESS;
    stream *s = NULL;
    task *t = NULL;
    if (fn == NULL) {
        aclconv_set_error("%s: the task function is NULL", fn_name);
        st = ACL_ERROR_INVALID_PARAM;
        goto fail;
    }
    st = stream_acquire(fn_name, stream_handle, &s);
    if (st != ACL_SUCCESS) goto fail;
    t = aclconv_malloc(sizeof *t);
    if (t == NULL) {
        aclconv_set_error("%s: out of memory queuing a task on stream %p", fn_name, stream_handle);
        st = ACL_ERROR_BAD_ALLOC;
        goto fail;
    }
    *t = (task){.fn = fn, .arg = arg, .release = release};

    pthread_mutex_lock(&s->mu);
    if (s->stopping) { /* being destroyed by another thread right now */
        pthread_mutex_unlock(&s->mu);
        aclconv_set_error("%s: stream %p is being destroyed", fn_name, stream_handle);
        st = ACL_ERROR_INVALID_RESOURCE_HANDLE;
        goto fail;
    }
    if (s->tail != NULL)
        s->tail->next = t;
    else
        s->head = t;
    s->tail = t;
    pthread_cond_signal(&s->work_cv);
    pthread_mutex_unlock(&s->mu);
    stream_unref(s);
    return ACL_SUCCESS;

fail:
    aclconv_free(t);
    if (s != NULL) stream_unref(s);
    if (release != NULL) release(arg);
    return st;
}

aclError stream_submit(aclrtStream stream_handle, stream_task_fn fn, void *arg,
                       void (*release)(void *))
{
    return stream_submit_as("stream_submit", stream_handle, fn, arg, release);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream_out)
{
    if (stream_out == NULL) {
        aclconv_set_error("aclrtCreateStream: stream is NULL");
        return ACL_ERROR_INVALID_PARAM;
    }
    aclError st = ACL_SUCCESS;
    stream *s = NULL;
    pthread_mutex_lock(&g_reg.mu);
    if (!g_reg.open) {
        aclconv_set_error("aclrtCreateStream: the runtime is not initialized (call aclInit first)");
        st = ACL_ERROR_UNINITIALIZE;
    } else {
        st = stream_new("aclrtCreateStream", false, &s);
        if (st == ACL_SUCCESS) {
            s->next_live = g_reg.live;
            g_reg.live = s;
            *stream_out = s->handle;
        }
    }
    pthread_mutex_unlock(&g_reg.mu);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream_handle)
{
    static const char fn[] = "aclrtDestroyStream";
    if (stream_handle == NULL) {
        aclconv_set_error("%s: stream is NULL (the default stream cannot be destroyed)", fn);
        return ACL_ERROR_INVALID_PARAM;
    }
    stream *s;
    aclError st = stream_acquire(fn, stream_handle, &s);
    if (st != ACL_SUCCESS) return st;
    if (s->is_default) {
        aclconv_set_error("%s: %p is the default stream, which cannot be destroyed", fn,
                          stream_handle);
        st = ACL_ERROR_INVALID_PARAM;
    } else if (t_worker_stream == s) {
        aclconv_set_error("%s: called by a task of stream %p itself (it would wait for itself)", fn,
                          stream_handle);
        st = ACL_ERROR_INVALID_PARAM;
    } else {
        pthread_mutex_lock(&g_reg.mu);
        bool removed = registry_remove(s);
        pthread_mutex_unlock(&g_reg.mu);
        if (removed) {
            stream_stop(s);
            stream_unref(s); /* the registry's reference */
        } else {
            aclconv_set_error("%s: stream %p is already being destroyed", fn, stream_handle);
            st = ACL_ERROR_INVALID_RESOURCE_HANDLE;
        }
    }
    stream_unref(s);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream_handle)
{
    static const char fn[] = "aclrtSynchronizeStream";
    stream *s;
    aclError st = stream_acquire(fn, stream_handle, &s);
    if (st != ACL_SUCCESS) return st;
    if (t_worker_stream == s) {
        aclconv_set_error("%s: called by a task of stream %p itself (it would wait for itself)", fn,
                          stream_handle);
        st = ACL_ERROR_INVALID_PARAM;
    } else {
        char msg[STATUS_MSG_CAPACITY];
        st = stream_wait_idle(s, msg, sizeof msg);
        if (st != 0)
            aclconv_set_error("%s: a task on stream %p failed with status %d: %s", fn,
                              stream_handle, st, msg);
    }
    stream_unref(s);
    return st;
}
