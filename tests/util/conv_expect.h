/*
 * What the library must produce for a problem: the numeric contract of
 * docs/numerics.md applied to the plain reference (src/reference).
 *
 * For every output element the expectation is an interval [lo, hi] of values
 * of the output dtype: the reference's exact (double) sum A, widened by the
 * worst-case error E of an fp32 accumulation of the same terms in any order,
 * then pushed through the same monotone roundings the library applies:
 *   lo = R(A - E), hi = R(A + E).
 * Every rounding step is monotone, so a library whose fp32 accumulation is
 * within E of A must land in [lo, hi]. With small-integer data every partial
 * sum is an exactly representable integer, E = 0 and lo == hi: the comparison
 * is exact (bitwise).
 */
#ifndef ACLCONV_TEST_CONV_EXPECT_H_
#define ACLCONV_TEST_CONV_EXPECT_H_

#include <stdint.h>

#include "reference/ref_conv.h"

/* The precision the operands are rounded to before the products. */
typedef enum { CK_FP32 = 0, CK_HF32, CK_FP16, CK_BF16 } conv_compute_kind;

conv_compute_kind conv_compute_kind_of(const ref_problem *p);
const char *conv_compute_kind_name(conv_compute_kind k);
/* Rounds v (already a value of its own dtype) to the compute precision. */
float conv_round_compute(float v, conv_compute_kind k);
/* Rounds v to dt (RNE) and back to float. */
float conv_round_dtype(float v, aclDataType dt);

/* Host data of one problem: dense values of gradOutput, input and weight,
 * each exactly representable in its tensor's dtype. */
typedef struct conv_data {
    float *dy, *x, *w;
} conv_data;

/* Fills data from p->seed: small integers in [-range, range] when p->int_data
 * (range chosen so every partial sum stays an exact fp32 integer), else
 * uniform reals in [-1, 1] rounded to each tensor's dtype. Returns 0 or -1
 * (allocation). Free with conv_data_free. */
int conv_data_make(const ref_problem *p, conv_data *d);
void conv_data_free(conv_data *d);

/* Expected intervals of the three outputs (dense, problem shapes). */
typedef struct conv_expect {
    float *dx_lo, *dx_hi, *dw_lo, *dw_hi, *db_lo, *db_hi;
    double *dx_ref, *dw_ref, *db_ref; /* reference sums A (for messages) */
    int64_t n_dx, n_dw, n_db;
} conv_expect;

/* Computes the expectations of every output (mask ignored). Applies the
 * empty-tensor rule: when gradOutput, input or weight has no element,
 * gradWeight and gradBias are zero. Returns 0 or -1 (allocation). */
int conv_expect_make(const ref_problem *p, const conv_data *d, conv_expect *e);
void conv_expect_free(conv_expect *e);

/* Compares got (dense, floats read from the output dtype) with [lo, hi].
 * NaN never matches. Writes the first mismatch into msg; returns the number of
 * mismatching elements. *discriminating counts elements where 0 is outside
 * [lo, hi] (so an all-zero output would fail). */
int64_t conv_compare(const char *what, const float *got, const float *lo, const float *hi,
                     const double *ref, int64_t n, int64_t *discriminating, char *msg,
                     size_t msg_len);

#endif /* ACLCONV_TEST_CONV_EXPECT_H_ */
