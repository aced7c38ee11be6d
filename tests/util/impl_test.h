/*
 * Helpers of the tests that compare one engine implementation against the
 * plain "direct" one through conv_plan on canonical problems
 * (test_dw_impl.c, test_grouped_impl.c, test_fast_impl.c). The tests keep
 * what is theirs: the problem generators, the case loops, how the ISA is
 * chosen and what they assert about the chosen implementation; what every one
 * of them needs lives here, so a fix to the sentinel / overrun / tolerance
 * checks reaches all of them at once.
 *
 * Reconciled between the three former copies (test_dw_impl.c,
 * test_grouped_impl.c, test_fast_impl.c):
 *  - tensor layout, sentinels (fp32 0x7fc0beef, 16-bit 0x7e5a: the same in
 *    all three), numel / elem_index / offset_of, abs_copy, describe (same
 *    one-line format), run_plan (0xA5 workspace, 64-byte overrun check),
 *    compare (same signature: bitwise when tol is NULL, else |a - b| <= tol[e];
 *    whole buffers, sentinels included), reset_sentinel, clone_layout: the
 *    copies were identical, taken as they were.
 *  - fill: grouped drew integer weights in [-wide, wide] (wide > 0), the
 *    others always [-3, 3]; it_fill takes int_max, 0 keeping [-3, 3], and
 *    draws the same random numbers as every former copy.
 *  - tolerance: dw counted ks[0]*ks[1]*ks[2] terms per gradInput element,
 *    grouped and fast (CG or OG) * ks; dw's problems have CG == OG == 1, so
 *    it_tolerances uses the general count and gives the same bounds.
 *  - failure counter: each test had its own g_fail, which run_plan's overrun
 *    check also incremented; the counter is now here (it_fail / it_failures).
 *    test_check.h does not fit: its g_test_failures is static in the header,
 *    so impl_test.c would count into a copy the test never sees, and CHECK's
 *    "FAIL file:line: cond" lines would replace the tests' "FAIL seed ..."
 *    lines that name the seed and the problem.
 *  - ISA selection stays in the tests: dw / grouped set ACLCONV_ISA, fast
 *    calls aclconvSetMaxIsa; the helpers run under whatever is in force.
 *  - fast's long 1-D rows add 6000 to the least size (it_draw_extent's
 *    lo_add), its 1x1 problems overwrite the drawn extents after the draws:
 *    both stay in its generator, the draws those seeds make unchanged.
 */
#ifndef ACLCONV_TEST_IMPL_TEST_H_
#define ACLCONV_TEST_IMPL_TEST_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/conv_engine.h"
#include "test_rng.h"

/* Outside a view every buffer element holds these bits: a NaN no
 * implementation produces, so a stray store shows. */
#define IT_SENTINEL_F32 0x7fc0beefu
#define IT_SENTINEL_16 0x7e5au

/* A conv_view with its own buffer: buf_elems elements of the view's dtype,
 * the view starting 3 elements in, sentinels everywhere outside the view. */
typedef struct it_tensor {
    conv_view v;
    void *buf;
    int64_t buf_elems;
} it_tensor;

/* The five tensors of one problem (gradInput has y's dims for the
 * transposed data direction). */
typedef struct it_operands {
    it_tensor x, y, w, gi, gw;
} it_operands;

/* Failures counted so far by the helpers (workspace overruns) and by the
 * tests through it_fail. */
void it_fail(void);
int it_failures(void);

size_t it_dt_size(aclDataType dt);

/* A view with dims d; when strided, a step of 1-2 elements and gaps after
 * rows and planes (draws from r only when strided). */
void it_tensor_make(it_tensor *t, aclDataType dt, const int64_t d[5], int strided, test_rng *r);
/* Elements between a tensor's 64-byte-aligned buffer and its view's first
 * element (it_tensor_make): 3 unless a test sets it (0: aligned views, where
 * the kernels may stream their results). */
extern int64_t it_view_offset;
void it_tensor_free(it_tensor *t);
/* A fresh buffer with src's layout, all sentinel. */
void it_clone_layout(it_tensor *dst, const it_tensor *src);
/* A fresh buffer with src's layout and contents (sentinels included). */
void it_clone(it_tensor *dst, const it_tensor *src);
/* A fresh tensor with src's layout holding |value| of src's view elements. */
void it_abs_copy(it_tensor *dst, const it_tensor *src);
/* Every buffer element back to the sentinel. */
void it_reset_sentinel(it_tensor *t);
/* Whole buffers (view and sentinels) bitwise equal; same layout assumed. */
bool it_same_bits(const it_tensor *a, const it_tensor *b);
/* The same, but a NaN matches any NaN (fp32, fp16 or bf16 buffers of one
 * dtype; else it_same_bits):
 * for sums where two NaN payloads may meet (docs/numerics.md, section 4). */
bool it_same_bits_nan(const it_tensor *a, const it_tensor *b);

int64_t it_numel(const conv_view *v);
/* Row-major index (n, c, d, h, w) of element e of v, and its offset. */
void it_elem_index(const conv_view *v, int64_t e, int64_t idx[5]);
int64_t it_offset_of(const conv_view *v, int64_t e);

/* Integers in [-int_max, int_max] (int_max 0: [-3, 3]) when int_data, else
 * reals in [-1, 1), into every view element in row-major order. */
void it_fill(it_tensor *t, int int_data, int64_t int_max, test_rng *r);

/* Small-integer data of an fp32 tensor scaled by 1 + 2^-13 when mode rounds
 * fp32 operands (HF32, FLOAT16): the operand rounding takes each value back
 * to its integer (below half an HF32 ulp), so the sums stay exact, while a
 * path that leaves an operand unrounded sums non-integers and its bits
 * differ. Nothing for other modes and dtypes. */
void it_mark_rounding(it_tensor *t, conv_mode mode);
/* it_mark_rounding of x, gradOutput and the weights. */
void it_mark_operands(it_operands *o, conv_mode mode);

/* Spatial dim i of a canonical problem whose ks[i], dil[i], stride[i] are
 * set: draws the head padding pad[i] in [0, ext] (ext = dil*(ks-1)+1), an
 * independent tail in [0, ext-1] (the canonical form of asymmetric padding)
 * and xs[i] in [lo, lo + maxs] with lo the least size giving one output plus
 * lo_add; sets ys[i]. Shared by the generators so they agree on what a
 * valid padded size is. */
void it_draw_extent(conv_problem *p, int i, int64_t lo_add, int64_t maxs, test_rng *r);

/* ACL_FLOAT, or (allow) one of fp32 / fp16 / bf16 drawn from r. */
aclDataType it_random_dt(test_rng *r, int allow);

/* The five tensors for p's dims, in the order x, y, w, gi, gw, each with a
 * dtype from it_random_dt(r, dtypes) then it_tensor_make(.., strided, r). */
void it_operands_make(it_operands *o, const conv_problem *p, int dtypes, int strided, test_rng *r);
/* Points p's views (and bias_src = y) at o's. */
void it_operands_attach(conv_problem *p, const it_operands *o);
void it_operands_free(it_operands *o);

/* One line naming the problem (for FAIL lines); buf of 512 is enough. */
void it_describe(const conv_problem *p, char *buf, size_t n);

/* Plans p with ACLCONV_IMPL = impl (NULL: the planner's choice; a forced one
 * that does not apply falls back to direct), runs it on a 0xA5 workspace with
 * 64 guard bytes (an overrun prints FAIL and counts), stores the names of
 * the implementations chosen for passes 0 (data) and 1 (weights). Returns -1
 * when planning fails, names then "(no plan)" (the former copies left them
 * as they were, stale or uninitialized). */
int it_run_plan(const conv_problem *p, const char *impl, char names[2][16]);

/* Compares whole buffers of a and b (same layout): view elements bitwise, or
 * within tol[e] when tol != NULL; outside the view bitwise, and a's
 * sentinels intact. Returns the number of bad elements; the first one is
 * described in msg. */
int64_t it_compare(const it_tensor *a, const it_tensor *b, const float *tol, char *msg, size_t len);

/* ref[0] / ref[1]: gradInput / gradWeight of p computed by direct (in the
 * layouts of o->gi / o->gw) under the thread count and ISA in force. */
void it_run_reference(const conv_problem *p, const it_operands *o, it_tensor ref[2]);

/* Per-element bounds for real data: both implementations sum the same terms
 * in some order, each within n * 2^-24 * sum|terms| of the exact sum (n terms
 * per output); tol[k][e] = 2 * (n + 2) * 2^-24 * sum|terms|, sum|terms| from
 * direct on |operands|. tol[k] are malloc'ed (free them). */
void it_tolerances(const conv_problem *p, const it_operands *o, float *tol[2]);

/* Compares o->gi / o->gw against ref[0] / ref[1] with it_compare (tol[k]
 * NULL: bitwise); a bad output prints "FAIL seed S isa I threads T
 * gradInput|gradWeight (impl): ..." with desc and counts. */
void it_check_outputs(const it_operands *o, const it_tensor ref[2], float *const tol[2],
                      const char names[2][16], uint64_t seed, const char *isa, int threads,
                      const char *desc);

/* The implementation's results must not depend on the thread count: with
 * threads == 1 (the first run) snapshots o->gi / o->gw into first[0] /
 * first[1] (it_tensor_free them after the last run), later runs must match
 * them bitwise, else "FAIL seed S isa I: T threads differ from 1 thread"
 * with desc, counted. */
void it_check_threads(it_tensor first[2], const it_operands *o, int threads, uint64_t seed,
                      const char *isa, const char *desc);

#endif /* ACLCONV_TEST_IMPL_TEST_H_ */
