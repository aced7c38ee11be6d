/* What the operator layer needs from the runtime: queuing work on a stream. */
#ifndef ACLCONV_RUNTIME_H_
#define ACLCONV_RUNTIME_H_

#include <stdbool.h>

#include "acl/acl.h"

/* A unit of stream work. Returns 0 on success or a status (aclError or
 * aclnnStatus) that the next aclrtSynchronizeStream of the stream reports. */
typedef int (*stream_task_fn)(void *arg);

/*
 * Queues fn(arg) on stream (NULL: the default stream). The stream's worker
 * runs tasks one at a time in submission order. release(arg), if not NULL, is
 * called exactly once: after fn ran, or before returning when submission
 * fails. Returns ACL_SUCCESS, ACL_ERROR_UNINITIALIZE (no aclInit, or after
 * aclFinalize), ACL_ERROR_INVALID_RESOURCE_HANDLE (not a live stream) or
 * ACL_ERROR_BAD_ALLOC. Safe to call from several threads.
 */
aclError stream_submit(aclrtStream stream, stream_task_fn fn, void *arg, void (*release)(void *));

/* true between aclInit and aclFinalize. */
bool runtime_is_initialized(void);

#endif /* ACLCONV_RUNTIME_H_ */
