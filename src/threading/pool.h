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

typedef void (*pool_slot_task_fn)(void *ctx, size_t index, int slot);

/*
 * As pool_parallel_for, but at most max_slots indexes run at once and each
 * runs with a slot in [0, max_slots) that no index running at the same time
 * shares: the number of its scratch buffer in a workspace planned for
 * max_slots threads. Results must not depend on which slot runs an index.
 */
void pool_parallel_for_slots(size_t n, int max_slots, pool_slot_task_fn fn, void *ctx);

/* Threads used by pool_parallel_for, including the caller (>= 1). */
int pool_num_threads(void);

/*
 * How long the pool's waits poll before they sleep, in microseconds (from
 * ACLCONV_SPIN_US, default 200; 0: sleep at once). Returns the previous
 * value; for tests, which run the pool both ways.
 */
int pool_set_spin_us(int us);

#endif /* ACLCONV_POOL_H_ */
