/* Slot-numbered loops on top of pool_parallel_for: one pool index per slot,
 * each draining a shared counter, so a slot is never used twice at once. */
#include <stdatomic.h>

#include "threading/pool.h"

typedef struct slot_loop {
    atomic_size_t next;
    size_t n;
    pool_slot_task_fn fn;
    void *ctx;
} slot_loop;

static void slot_worker(void *arg, size_t slot)
{
    slot_loop *l = arg;
    for (size_t i; (i = atomic_fetch_add(&l->next, 1)) < l->n;) l->fn(l->ctx, i, (int)slot);
}

void pool_parallel_for_slots(size_t n, int max_slots, pool_slot_task_fn fn, void *ctx)
{
    if (n == 0) return;
    size_t slots = max_slots < 1 ? 1 : (size_t)max_slots;
    if (slots > n) slots = n;
    slot_loop l = {.n = n, .fn = fn, .ctx = ctx};
    atomic_init(&l.next, 0);
    pool_parallel_for(slots, slot_worker, &l);
}
