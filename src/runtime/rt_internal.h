/* What the runtime's own files (runtime.c, stream.c, memory.c) share. */
#ifndef ACLCONV_RT_INTERNAL_H_
#define ACLCONV_RT_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl.h"
#include "runtime/runtime.h"

/*
 * Handles given to callers (streams, contexts) are tokens, not pointers: the
 * runtime looks a token up in its registry and never dereferences it, so a
 * destroyed or made-up handle is reported instead of crashing. Tokens come
 * from a counter and are never reused, unlike a pointer whose memory gets
 * recycled by the next create. The low 4 bits say the kind of handle, so a
 * stream handle passed as a context (or back) is never found.
 */
#define RT_TOKEN_BASE ((uintptr_t)0xAC100000u)
#define RT_TOKEN_STREAM ((uintptr_t)0x8u)
#define RT_TOKEN_CONTEXT ((uintptr_t)0x4u)

static inline void *rt_token(uintptr_t kind, uint64_t serial)
{
    return (void *)(RT_TOKEN_BASE + (uintptr_t)serial * 16u + kind);
}

/* stream_submit, with fn_name (the public function) in error messages. */
aclError stream_submit_as(const char *fn_name, aclrtStream stream, stream_task_fn fn, void *arg,
                          void (*release)(void *));

/* Stream registry (stream.c), driven by aclInit / aclFinalize. */

/* Lets streams be created and used (aclInit). */
void streams_open(void);
/* Stops accepting work, waits until every stream (default one included) has
 * run all its tasks, and releases them all (aclFinalize). */
void streams_close(void);
/* Waits until every stream is idle; returns the first failure any of them
 * recorded since its last synchronize, and clears them (aclrtSynchronizeDevice). */
aclError streams_synchronize_all(const char *fn);
/* true on a stream worker thread, i.e. inside a task: calls that wait for
 * streams would wait for themselves there. */
bool streams_on_worker_thread(void);

#endif /* ACLCONV_RT_INTERNAL_H_ */
