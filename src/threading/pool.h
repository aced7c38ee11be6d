/* The persistent compute thread pool. */
#ifndef ACLCONV_POOL_H_
#define ACLCONV_POOL_H_

#include <stddef.h>

typedef void (*pool_task_fn)(void *ctx, size_t index);

/*
 * Runs fn(ctx, i) for every i in [0, n) and returns when all have finished.
 * Which thread runs which index is unspecified, so callers partition work so
 * that each output element is computed by exactly one index in a fixed order:
 * results then do not depend on the number of threads. The calling thread
 * takes part. Safe to call from several threads at once (concurrent callers
 * may be served one after the other, or inline). Never allocates.
 */
void pool_parallel_for(size_t n, pool_task_fn fn, void *ctx);

/* Threads used by pool_parallel_for, including the caller (>= 1). */
int pool_num_threads(void);

#endif /* ACLCONV_POOL_H_ */
