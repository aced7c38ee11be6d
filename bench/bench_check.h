/* --check: aclconv's results against the double-precision reference. */
#ifndef ACLCONV_BENCH_CHECK_H_
#define ACLCONV_BENCH_CHECK_H_

#include "bench_run.h"

/* Host copies of one call: operands as the device holds them (rounded to the
 * dtype, widened to float) and the results read back (NULL: not computed). */
typedef struct bench_host {
    const float *dy, *x, *w;
    const float *dx, *dw, *db;
} bench_host;

/* Compares every requested output with the reference: all elements when the
 * case is small, else a fixed random sample of each output. Fills the check_*
 * fields of r; returns 0 when within tolerance. */
int bench_check(const bench_case *c, const bench_host *h, const bench_opts *o, acl_result *r);

#endif /* ACLCONV_BENCH_CHECK_H_ */
