/* aclOpExecutor: a finished plan plus its life-cycle state.
 *
 * GetWorkspaceSize creates an executor around an operator-specific plan;
 * the run call queues it on a stream. Live executors are kept in a registry,
 * so a consumed, destroyed or garbage executor pointer is answered with a
 * status instead of being dereferenced. */
#ifndef ACLCONV_EXECUTOR_H_
#define ACLCONV_EXECUTOR_H_

#include "common/common.h"

typedef struct exec_ops {
    /* Runs the plan with a workspace of at least the planned size. Called on
     * a stream worker; returns an aclnnStatus. */
    aclnnStatus (*run)(void *plan, void *workspace);
    void (*destroy)(void *plan);
} exec_ops;

/* Wraps plan in a new registered executor. On failure (out of memory) the
 * plan is destroyed and NULL returned with a message. */
aclOpExecutor *executor_create(const exec_ops *ops, void *plan, uint64_t workspace_size);

/* Checks the run arguments and queues the plan on stream. A one-shot executor
 * is consumed once queued (or when queuing fails); an argument error leaves
 * it untouched so the caller can retry. op names the operator in messages. */
aclnnStatus executor_launch(const char *op, void *workspace, uint64_t workspace_size,
                            aclOpExecutor *executor, aclrtStream stream);

#endif /* ACLCONV_EXECUTOR_H_ */
