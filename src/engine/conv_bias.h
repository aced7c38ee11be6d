/* gradBias: the sum of gradOutput over N and space, per channel. */
#ifndef ACLCONV_CONV_BIAS_H_
#define ACLCONV_CONV_BIAS_H_

#include "planning/conv_problem.h"

/* Computes p->grad_bias from p->bias_src (the unrounded gradOutput) with the
 * compute pool, one task per channel. */
void conv_bias_run(const conv_problem *p);

#endif /* ACLCONV_CONV_BIAS_H_ */
