/* Planning and running a canonical convolution-backward problem. */
#ifndef ACLCONV_CONV_ENGINE_H_
#define ACLCONV_CONV_ENGINE_H_

#include "api/executor.h"
#include "planning/conv_problem.h"

/* Plans p: picks an implementation per requested gradient and lays out the
 * workspace. On success *plan is owned by the caller (run / destroy it through
 * conv_plan_ops). Returns ACLNN_ERR_INNER_* on failure, with a message. */
aclnnStatus conv_plan_create(const conv_problem *p, void **plan, uint64_t *workspace_size);

extern const exec_ops conv_plan_ops;

/* Name of the implementation chosen for pass (0: gradInput, 1: gradWeight),
 * "-" when the pass is not computed. For logs and benchmarks. */
const char *conv_plan_impl_name(const void *plan, int pass);

#endif /* ACLCONV_CONV_ENGINE_H_ */
