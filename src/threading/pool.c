/*
 * The persistent compute thread pool.
 *
 * One job at a time: a caller that gets dispatch_mu publishes its job
 * (fn, ctx, n) with a new generation number, wakes the workers and takes part
 * itself; indexes are handed out by an atomic counter. A caller that finds
 * the pool busy (another thread's job, or a nested call from inside a task)
 * runs its loop inline: results never depend on which thread runs an index,
 * and this can never deadlock.
 *
 * Waits poll for a while before they sleep (ACLCONV_SPIN_US): a worker for
 * the next job, the caller for the workers to finish. Waking a sleeping
 * thread took ~37 us a dispatch of two tasks on a 2-core VM (futex wake,
 * then the done signal back), and one execute dispatches several jobs
 * (weights packing, the passes, their reductions), a few percent of a
 * layer of a few ms. The mutex and condition variables stay the protocol;
 * polling only skips the sleep when the news comes soon.
 *
 * Workers are started on first need and joined by a destructor at exit, so
 * they neither keep the process alive nor leak.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */

#include "threading/pool.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define POOL_PAUSE() _mm_pause()
#else
#define POOL_PAUSE() ((void)0)
#endif

#include "aclconv/aclconv.h"
#include "common/log.h"
#include "common/thread.h"

/* Upper bound of aclconvSetNumThreads / ACLCONV_NUM_THREADS, caller included. */
#define POOL_MAX_THREADS 1024
/* ACLCONV_SPIN_US's default and upper bound, microseconds */
#define POOL_SPIN_US_DEFAULT 200
#define POOL_SPIN_US_MAX 100000

typedef struct worker {
    pthread_t thread;
    int index;
    uint64_t seen; /* last generation this worker looked at; under g_pool.mu */
} worker;

static struct {
    pthread_once_t config_once;
    atomic_int num_threads; /* threads per job, caller included */
    atomic_int spin_us;     /* how long a wait polls before it sleeps */

    pthread_mutex_t dispatch_mu; /* held by the caller whose job the pool runs */

    pthread_mutex_t mu;     /* guards everything below */
    pthread_cond_t work_cv; /* to workers: a new generation, or shutdown */
    pthread_cond_t done_cv; /* to the caller: pending reached 0 */
    int spawned;
    worker workers[POOL_MAX_THREADS - 1];
    bool shutdown;
    uint64_t generation;
    atomic_uint_least64_t published; /* = generation, for polling without mu */
    /* the current job */
    pool_task_fn fn;
    void *ctx;
    size_t n;
    int participants;   /* workers 0..participants-1 take part */
    atomic_int pending; /* participants not finished yet (written under mu) */
    atomic_size_t next; /* next index to hand out */
} g_pool = {
    .config_once = PTHREAD_ONCE_INIT,
    .dispatch_mu = PTHREAD_MUTEX_INITIALIZER,
    .mu = PTHREAD_MUTEX_INITIALIZER,
    .work_cv = PTHREAD_COND_INITIALIZER,
    .done_cv = PTHREAD_COND_INITIALIZER,
};

/* ---- configuration -------------------------------------------------------- */

/* The environment variable name as a whole number >= lo, or -1 (absent, not
 * a whole number, below lo or out of long's range). */
static long env_whole(const char *name, long lo)
{
    const char *env = getenv(name);
    if (env == NULL) return -1;
    char *end;
    errno = 0;
    long v = strtol(env, &end, 10);
    return end != env && *end == '\0' && errno == 0 && v >= lo ? v : -1;
}

/* ACLCONV_NUM_THREADS if it is a whole number >= 1, else the online cores. */
static int default_num_threads(void)
{
    long v = env_whole("ACLCONV_NUM_THREADS", 1);
    if (v < 1) v = sysconf(_SC_NPROCESSORS_ONLN);
    if (v < 1) return 1;
    return v > POOL_MAX_THREADS ? POOL_MAX_THREADS : (int)v;
}

/* ACLCONV_SPIN_US if it is a whole number in 0..POOL_SPIN_US_MAX (0: sleep
 * at once, for machines with more busy threads than cores), else the default. */
static int default_spin_us(void)
{
    const long v = env_whole("ACLCONV_SPIN_US", 0);
    return v >= 0 && v <= POOL_SPIN_US_MAX ? (int)v : POOL_SPIN_US_DEFAULT;
}

static void config_init(void)
{
    atomic_store(&g_pool.num_threads, default_num_threads());
    atomic_store(&g_pool.spin_us, default_spin_us());
}

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Polls until done(arg) or spin_us have passed; the caller then takes mu and
 * checks again, so a poll that gives up early costs only the sleep. */
static void poll_until(bool (*done)(const void *), const void *arg)
{
    const int spin_us = atomic_load_explicit(&g_pool.spin_us, memory_order_relaxed);
    if (spin_us <= 0 || done(arg)) return;
    const int64_t until = now_ns() + (int64_t)spin_us * 1000;
    do {
        for (int i = 0; i < 16; ++i) {
            POOL_PAUSE();
            if (done(arg)) return;
        }
        sched_yield();
    } while (now_ns() < until);
}

static bool job_published(const void *seen)
{
    return atomic_load_explicit(&g_pool.published, memory_order_acquire) != *(const uint64_t *)seen;
}

static bool job_finished(const void *unused)
{
    (void)unused;
    return atomic_load_explicit(&g_pool.pending, memory_order_acquire) == 0;
}

int pool_num_threads(void)
{
    pthread_once(&g_pool.config_once, config_init);
    return atomic_load(&g_pool.num_threads);
}

ACL_FUNC_VISIBILITY int aclconvGetNumThreads(void)
{
    return pool_num_threads();
}

ACL_FUNC_VISIBILITY aclError aclconvSetNumThreads(int numThreads)
{
    if (numThreads < 1 || numThreads > POOL_MAX_THREADS) {
        aclconv_set_error("aclconvSetNumThreads: numThreads %d is outside 1..%d", numThreads,
                          POOL_MAX_THREADS);
        return ACL_ERROR_INVALID_PARAM;
    }
    pthread_once(&g_pool.config_once, config_init);
    atomic_store(&g_pool.num_threads, numThreads);
    return ACL_SUCCESS;
}

int pool_set_spin_us(int us)
{
    pthread_once(&g_pool.config_once, config_init);
    us = us < 0 ? 0 : us > POOL_SPIN_US_MAX ? POOL_SPIN_US_MAX : us;
    return atomic_exchange(&g_pool.spin_us, us);
}

/* ---- workers ------------------------------------------------------------ */

static void run_indexes(pool_task_fn fn, void *ctx, size_t n)
{
    /* relaxed: the job itself is published and retired under g_pool.mu */
    for (size_t i; (i = atomic_fetch_add_explicit(&g_pool.next, 1, memory_order_relaxed)) < n;)
        fn(ctx, i);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    pthread_mutex_lock(&g_pool.mu);
    for (;;) {
        if (g_pool.generation == w->seen && !g_pool.shutdown) {
            const uint64_t seen = w->seen;
            pthread_mutex_unlock(&g_pool.mu);
            poll_until(job_published, &seen);
            pthread_mutex_lock(&g_pool.mu);
        }
        while (g_pool.generation == w->seen && !g_pool.shutdown)
            pthread_cond_wait(&g_pool.work_cv, &g_pool.mu);
        /* a job published before shutdown is still run: its caller waits for it */
        if (g_pool.generation == w->seen) break; /* shutdown */
        w->seen = g_pool.generation;
        if (w->index >= g_pool.participants) continue;
        pool_task_fn fn = g_pool.fn;
        void *ctx = g_pool.ctx;
        size_t n = g_pool.n;
        pthread_mutex_unlock(&g_pool.mu);
        run_indexes(fn, ctx, n);
        pthread_mutex_lock(&g_pool.mu);
        if (atomic_fetch_sub_explicit(&g_pool.pending, 1, memory_order_release) == 1)
            pthread_cond_signal(&g_pool.done_cv);
    }
    pthread_mutex_unlock(&g_pool.mu);
    return NULL;
}

/* Starts workers until there are `want`; returns how many exist (fewer if a
 * thread cannot be created: the pool then just runs with fewer). Called with
 * dispatch_mu held, so never concurrently. */
static int grow_workers(int want)
{
    pthread_mutex_lock(&g_pool.mu);
    while (g_pool.spawned < want && !g_pool.shutdown) {
        worker *w = &g_pool.workers[g_pool.spawned];
        w->index = g_pool.spawned;
        /* a worker must not mistake the job published before it starts for an
         * old one, so it starts from the current generation */
        w->seen = g_pool.generation;
        if (aclconv_thread_create(&w->thread, worker_main, w) != 0) break;
        ++g_pool.spawned;
    }
    int have = g_pool.spawned;
    pthread_mutex_unlock(&g_pool.mu);
    return have;
}

/* Joins the workers at exit (or library unload) so none outlives the code. */
__attribute__((destructor)) static void pool_shutdown(void)
{
    pthread_mutex_lock(&g_pool.mu);
    g_pool.shutdown = true;
    pthread_cond_broadcast(&g_pool.work_cv);
    int n = g_pool.spawned;
    pthread_mutex_unlock(&g_pool.mu);
    for (int k = 0; k < n; ++k) {
        if (!pthread_equal(g_pool.workers[k].thread, pthread_self()))
            pthread_join(g_pool.workers[k].thread, NULL);
    }
}

/* ---- dispatch ------------------------------------------------------------- */

void pool_parallel_for(size_t n, pool_task_fn fn, void *ctx)
{
    if (n == 0) return;
    int threads = pool_num_threads();
    if (n == 1 || threads == 1 || pthread_mutex_trylock(&g_pool.dispatch_mu) != 0) {
        for (size_t i = 0; i < n; ++i)
            fn(ctx, i);
        return;
    }

    int helpers = grow_workers(threads - 1);
    if ((size_t)helpers > n - 1) helpers = (int)(n - 1); /* the caller takes one index */

    pthread_mutex_lock(&g_pool.mu);
    if (g_pool.shutdown) helpers = 0; /* exiting: workers are gone */
    g_pool.fn = fn;
    g_pool.ctx = ctx;
    g_pool.n = n;
    g_pool.participants = helpers;
    atomic_store_explicit(&g_pool.pending, helpers, memory_order_relaxed);
    atomic_store_explicit(&g_pool.next, 0, memory_order_relaxed);
    if (helpers > 0) {
        ++g_pool.generation;
        atomic_store_explicit(&g_pool.published, g_pool.generation, memory_order_release);
        pthread_cond_broadcast(&g_pool.work_cv);
    }
    pthread_mutex_unlock(&g_pool.mu);

    run_indexes(fn, ctx, n);

    poll_until(job_finished, NULL);
    pthread_mutex_lock(&g_pool.mu);
    while (atomic_load_explicit(&g_pool.pending, memory_order_relaxed) > 0)
        pthread_cond_wait(&g_pool.done_cv, &g_pool.mu);
    pthread_mutex_unlock(&g_pool.mu);
    pthread_mutex_unlock(&g_pool.dispatch_mu);
}
