/*
 * --check. Every requested output element e is compared with the exact sum
 * ref_e = sum_j a_j b_j (in double, from the operands the device holds) and
 * with S_e = sum_j |a_j b_j|, the magnitude of its terms. The test is
 *   |got_e - ref_e| <= S_e * (2.01 u_op + 4 sqrt(K) u_f32) + u_out |ref_e|
 * where
 *   u_op   unit roundoff of the operand rounding the mode adds (HF32 2^-12
 *          for fp32 with cubeMathType 1/3, fp16 2^-11 for cubeMathType 2,
 *          else 0: the operands are already in their dtype); each product
 *          then carries at most 2u_op + u_op^2 relative error;
 *   K      the number of terms of the element's sum (accumulation length);
 *          fp32 accumulation of random-sign terms errs like sqrt(K) u_f32
 *          times S (Higham, ch. 4; the worst case is K u_f32 S);
 *   u_out  unit roundoff of the output dtype (0 for fp32, 2^-8 bf16, 2^-11
 *          fp16): the final rounding to the output tensor.
 * Small cases compare every element with the shared reference
 * (src/reference, ref_problem_gradients); big ones a fixed random sample of
 * each output, evaluated here element by element from the same formulas.
 * An output that is all zero while the reference is not fails too.
 */
#include "bench_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rng.h"
#ifdef BENCH_HAVE_REF
#include "reference/ref_conv.h"
#endif

#define U_F32 (1.0 / 16777216.0)  /* 2^-24 */
#define U_HF32 (1.0 / 4096.0)     /* 2^-12: 11 mantissa bits kept */
#define U_F16 (1.0 / 2048.0)      /* 2^-11 */
#define U_BF16 (1.0 / 256.0)      /* 2^-8 */
#define ACC_SQRT_FACTOR 4.0       /* multiple of sqrt(K) u_f32 allowed */
#define OP_PRODUCT_FACTOR 2.01    /* a product of two rounded operands: 2u + u^2 */
#define FULL_CHECK_MAX_MACS 3.0e7 /* above: sampled elements */

/* The geometry in index form: unused spatial dims are 1 (padding 0). */
typedef struct geom {
    int64_t n, c, o, g, cg, og;
    int64_t in[3], out[3], k[3], s[3], p[3], d[3];
    int t;
} geom;

static void geom_init(const bench_case *c, geom *q)
{
    q->n = c->n;
    q->c = c->c;
    q->o = c->o;
    q->g = c->g;
    q->cg = c->c / c->g;
    q->og = c->o / c->g;
    q->t = c->t;
    for (int j = 0; j < 3; ++j) {
        q->in[j] = c->in[j];
        q->out[j] = c->out[j];
        q->k[j] = c->k[j];
        q->s[j] = c->s[j];
        q->p[j] = c->p[j];
        q->d[j] = c->d[j];
    }
}

static int64_t prod3(const int64_t v[3])
{
    return v[0] * v[1] * v[2];
}

typedef struct acc2 {
    double sum, abs;
} acc2;

static inline void acc_add(acc2 *a, double x, double y)
{
    a->sum += x * y;
    a->abs += fabs(x * y);
}

/* gradInput element (n, ch, sp): input-shaped. */
static acc2 elem_dx(const geom *q, const bench_host *h, int64_t n, int64_t ch, const int64_t sp[3])
{
    acc2 a = {0, 0};
    const int64_t grp = ch / q->cg, cl = ch % q->cg;
    const int64_t out_sp = prod3(q->out), ksz = prod3(q->k);
    for (int64_t k0 = 0; k0 < q->k[0]; ++k0)
        for (int64_t k1 = 0; k1 < q->k[1]; ++k1)
            for (int64_t k2 = 0; k2 < q->k[2]; ++k2) {
                const int64_t kk[3] = {k0, k1, k2};
                int64_t pos[3];
                int ok = 1;
                for (int j = 0; j < 3 && ok; ++j) {
                    if (!q->t) { /* dy position o with o*s - p + k*d = i */
                        int64_t num = sp[j] + q->p[j] - kk[j] * q->d[j];
                        ok = num >= 0 && num % q->s[j] == 0 && num / q->s[j] < q->out[j];
                        pos[j] = ok ? num / q->s[j] : 0;
                    } else { /* forward conv of dy: dy at i*s - p + k*d */
                        pos[j] = sp[j] * q->s[j] - q->p[j] + kk[j] * q->d[j];
                        ok = pos[j] >= 0 && pos[j] < q->out[j];
                    }
                }
                if (!ok) continue;
                const int64_t kidx = (k0 * q->k[1] + k1) * q->k[2] + k2;
                const int64_t didx = (pos[0] * q->out[1] + pos[1]) * q->out[2] + pos[2];
                for (int64_t ol = 0; ol < q->og; ++ol) {
                    const int64_t co = grp * q->og + ol;
                    const double dy = h->dy[(n * q->o + co) * out_sp + didx];
                    /* regular: w[co][cl][k]; transposed: w[ch][ol][k] */
                    const double w = !q->t ? h->w[(co * q->cg + cl) * ksz + kidx]
                                           : h->w[(ch * q->og + ol) * ksz + kidx];
                    acc_add(&a, dy, w);
                }
            }
    return a;
}

/* gradWeight element (a, b, k): regular w[co][cl][k]; transposed w[ch][ol][k]. */
static acc2 elem_dw(const geom *q, const bench_host *h, int64_t a0, int64_t b0, const int64_t kk[3])
{
    acc2 a = {0, 0};
    const int64_t in_sp = prod3(q->in), out_sp = prod3(q->out);
    int64_t co, ci;
    if (!q->t) {
        co = a0;
        ci = (a0 / q->og) * q->cg + b0;
    } else {
        ci = a0;
        co = (a0 / q->cg) * q->og + b0;
    }
    /* the forward output y runs over gradOutput (regular) or input (transposed) */
    const int64_t *ys = !q->t ? q->out : q->in;
    const int64_t *xs = !q->t ? q->in : q->out;
    for (int64_t n = 0; n < q->n; ++n)
        for (int64_t y0 = 0; y0 < ys[0]; ++y0)
            for (int64_t y1 = 0; y1 < ys[1]; ++y1)
                for (int64_t y2 = 0; y2 < ys[2]; ++y2) {
                    const int64_t yy[3] = {y0, y1, y2};
                    int64_t xp[3];
                    int ok = 1;
                    for (int j = 0; j < 3 && ok; ++j) {
                        xp[j] = yy[j] * q->s[j] - q->p[j] + kk[j] * q->d[j];
                        ok = xp[j] >= 0 && xp[j] < xs[j];
                    }
                    if (!ok) continue;
                    const int64_t yidx = (y0 * ys[1] + y1) * ys[2] + y2;
                    const int64_t xidx = (xp[0] * xs[1] + xp[1]) * xs[2] + xp[2];
                    double xv, yv;
                    if (!q->t) {
                        xv = h->x[(n * q->c + ci) * in_sp + xidx];
                        yv = h->dy[(n * q->o + co) * out_sp + yidx];
                    } else {
                        xv = h->dy[(n * q->o + co) * out_sp + xidx];
                        yv = h->x[(n * q->c + ci) * in_sp + yidx];
                    }
                    acc_add(&a, xv, yv);
                }
    return a;
}

static acc2 elem_db(const geom *q, const bench_host *h, int64_t co)
{
    acc2 a = {0, 0};
    const int64_t out_sp = prod3(q->out);
    for (int64_t n = 0; n < q->n; ++n)
        for (int64_t j = 0; j < out_sp; ++j)
            acc_add(&a, h->dy[(n * q->o + co) * out_sp + j], 1.0);
    return a;
}

/* Running comparison of one output tensor. */
typedef struct cmp_state {
    double tol_rel; /* relative to S: 2.01 u_op + 4 sqrt(K) u_f32 */
    double u_out;
    double max_err;   /* max |d| / S */
    double max_ratio; /* max |d| / tolerance */
    double max_diff, max_ref, max_got;
    int64_t compared, bad;
    int64_t first_bad;
    double bad_got, bad_ref;
} cmp_state;

static void cmp_init(cmp_state *s, double u_op, double k_terms, double u_out)
{
    memset(s, 0, sizeof *s);
    s->tol_rel = OP_PRODUCT_FACTOR * u_op + ACC_SQRT_FACTOR * sqrt(k_terms) * U_F32;
    s->u_out = u_out;
    s->first_bad = -1;
}

static void cmp_add(cmp_state *s, int64_t idx, double got, double ref, double abs_sum)
{
    const double d = fabs(got - ref);
    const double tol = s->tol_rel * abs_sum + s->u_out * fabs(ref) + 1e-30;
    const double err = abs_sum > 0 ? d / abs_sum : (d > 0 ? INFINITY : 0.0);
    if (err > s->max_err) s->max_err = err;
    if (d / tol > s->max_ratio) s->max_ratio = d / tol;
    if (d > s->max_diff) s->max_diff = d;
    if (fabs(ref) > s->max_ref) s->max_ref = fabs(ref);
    if (fabs(got) > s->max_got) s->max_got = fabs(got);
    if (!(d <= tol)) { /* also catches NaN */
        if (s->bad++ == 0) {
            s->first_bad = idx;
            s->bad_got = got;
            s->bad_ref = ref;
        }
    }
    ++s->compared;
}

static double operand_u(const bench_case *c)
{
    if (c->dtype == ACL_FLOAT && (c->cube == 1 || c->cube == 3)) return U_HF32;
    if (c->cube == 2 && c->dtype != ACL_FLOAT16) return U_F16;
    return 0.0;
}

static double output_u(const bench_case *c)
{
    return c->dtype == ACL_BF16 ? U_BF16 : c->dtype == ACL_FLOAT16 ? U_F16 : 0.0;
}

/* Decomposes a flat index of a [A][B][S0][S1][S2] tensor. */
static void split_index(int64_t idx, int64_t b_dim, const int64_t sp[3], int64_t *a, int64_t *b,
                        int64_t pos[3])
{
    pos[2] = idx % sp[2];
    idx /= sp[2];
    pos[1] = idx % sp[1];
    idx /= sp[1];
    pos[0] = idx % sp[0];
    idx /= sp[0];
    *b = idx % b_dim;
    *a = idx / b_dim;
}

#ifdef BENCH_HAVE_REF
static void to_ref_problem(const bench_case *c, ref_problem *p)
{
    ref_problem_init(p);
    snprintf(p->name, sizeof p->name, "%s", c->name);
    p->dims = c->dims;
    p->n = c->n;
    p->c_in = c->c;
    p->c_out = c->o;
    p->groups = c->g;
    for (int j = 0; j < REF_MAX_SPATIAL; ++j) {
        p->in[j] = j < c->dims ? c->in[j] : 1;
        p->k[j] = j < c->dims ? c->k[j] : 1;
        p->s[j] = j < c->dims ? c->s[j] : 1;
        p->d[j] = j < c->dims ? c->d[j] : 1;
        p->ph[j] = p->pt[j] = j < c->dims ? c->p[j] : 0;
        p->op[j] = j < c->dims ? c->op[j] : 0;
    }
    p->transposed = c->t;
    for (int t = 0; t < REF_T_COUNT; ++t)
        p->dt[t] = c->dtype;
    p->cube_math = c->cube;
    p->mask = ((c->mask & BENCH_MASK_DATA) ? REF_MASK_DX : 0) |
              ((c->mask & BENCH_MASK_WEIGHT) ? REF_MASK_DW | REF_MASK_DB : 0);
    ref_problem_derive_out(p);
}

static double *to_double(const float *v, int64_t n, int absval)
{
    double *d = malloc((size_t)(n ? n : 1) * sizeof *d);
    if (d != NULL)
        for (int64_t i = 0; i < n; ++i)
            d[i] = absval ? fabs((double)v[i]) : (double)v[i];
    return d;
}

/* Every element through the shared reference. Returns -1 if it cannot run. */
static int check_full(const bench_case *c, const bench_host *h, const int64_t numel[6],
                      cmp_state st[3], char *msg, size_t msg_len)
{
    ref_problem p;
    to_ref_problem(c, &p);
    char why[256];
    if (ref_problem_check(&p, why, sizeof why) != 0) {
        snprintf(msg, msg_len, "reference rejects the case: %.200s", why);
        return -1;
    }
    /* numel: dy x w dx dw db */
    const float *got_of[3] = {h->dx, h->dw, h->db};
    double *in[2][3] = {{0}};
    double *out[2][3] = {{0}};
    int rc = 0;
    for (int v = 0; v < 2 && rc == 0; ++v) { /* 0: values, 1: |values| */
        in[v][0] = to_double(h->dy, numel[0], v);
        in[v][1] = to_double(h->x, numel[1], v);
        in[v][2] = to_double(h->w, numel[2], v);
        for (int o = 0; o < 3; ++o)
            out[v][o] = got_of[o] ? calloc((size_t)numel[3 + o], sizeof(double)) : NULL;
        if (!in[v][0] || !in[v][1] || !in[v][2] || (h->dx && !out[v][0]) || (h->dw && !out[v][1]) ||
            (h->db && !out[v][2])) {
            rc = -1;
            snprintf(msg, msg_len, "out of memory for the reference");
            break;
        }
        ref_problem_gradients(&p, in[v][0], in[v][1], in[v][2], out[v][0], out[v][1], out[v][2]);
    }
    if (rc == 0) {
        for (int o = 0; o < 3; ++o) {
            const float *got = got_of[o];
            if (got == NULL) continue;
            for (int64_t i = 0; i < numel[3 + o]; ++i)
                cmp_add(&st[o], i, got[i], out[0][o][i], out[1][o][i]);
        }
    }
    for (int v = 0; v < 2; ++v)
        for (int i = 0; i < 3; ++i) {
            free(in[v][i]);
            free(out[v][i]);
        }
    return rc;
}
#endif

int bench_check(const bench_case *c, const bench_host *h, const bench_opts *o, acl_result *r)
{
    geom q;
    geom_init(c, &q);
    int64_t sh[5];
    int64_t numel[6];
    bench_case_grad_output_shape(c, sh);
    numel[0] = bench_shape_numel(sh, c->dims + 2);
    bench_case_input_shape(c, sh);
    numel[1] = numel[3] = bench_shape_numel(sh, c->dims + 2);
    bench_case_weight_shape(c, sh);
    numel[2] = numel[4] = bench_shape_numel(sh, c->dims + 2);
    numel[5] = c->o;

    /* accumulation lengths: gradInput (o/g) prod(k); gradWeight N prod(y);
     * gradBias N prod(gradOutput spatial) */
    const double kdx = (double)q.og * (double)prod3(q.k);
    const double kdw = (double)q.n * (double)prod3(q.t ? q.in : q.out);
    const double kdb = (double)q.n * (double)prod3(q.out);
    cmp_state st[3];
    cmp_init(&st[0], operand_u(c), kdx, output_u(c));
    cmp_init(&st[1], operand_u(c), kdw, output_u(c));
    cmp_init(&st[2], 0.0, kdb, output_u(c)); /* gradBias sums unrounded gradOutput */

    r->checked = 1;
    r->check_full = 0;
    int done = 0;
#ifdef BENCH_HAVE_REF
    if (o->check_mode == BENCH_CHECK_FULL ||
        (o->check_mode == BENCH_CHECK_AUTO && bench_case_macs(c) <= FULL_CHECK_MAX_MACS)) {
        if (check_full(c, h, numel, st, r->check_msg, sizeof r->check_msg) == 0) {
            done = 1;
            r->check_full = 1;
        } else {
            cmp_init(&st[0], operand_u(c), kdx, output_u(c));
            cmp_init(&st[1], operand_u(c), kdw, output_u(c));
            cmp_init(&st[2], 0.0, kdb, output_u(c));
        }
    }
#endif
    if (!done) {
        bench_rng rng;
        bench_rng_seed(&rng, o->seed ^ bench_rng_hash(c->name) ^ 0x5eedull);
        const int64_t samples = o->check_samples > 0 ? o->check_samples : 1;
        const float *got_of[3] = {h->dx, h->dw, h->db};
        for (int out = 0; out < 3; ++out) {
            const float *got = got_of[out];
            if (got == NULL) continue;
            const int64_t n = numel[3 + out];
            const int64_t count = n <= samples ? n : samples;
            for (int64_t s = 0; s < count; ++s) {
                /* first and last element always, then random ones */
                const int64_t idx = n <= samples ? s
                                    : s == 0     ? 0
                                    : s == 1     ? n - 1
                                                 : (int64_t)bench_rng_below(&rng, (uint64_t)n);
                acc2 a;
                int64_t A, B, pos[3];
                if (out == 0) {
                    split_index(idx, q.c, q.in, &A, &B, pos);
                    a = elem_dx(&q, h, A, B, pos);
                } else if (out == 1) {
                    split_index(idx, q.t ? q.og : q.cg, q.k, &A, &B, pos);
                    a = elem_dw(&q, h, A, B, pos);
                } else {
                    a = elem_db(&q, h, idx);
                }
                cmp_add(&st[out], idx, got[idx], a.sum, a.abs);
            }
        }
    }

    static const char *const names[3] = {"gradInput", "gradWeight", "gradBias"};
    r->check_ok = 1;
    r->check_err = 0;
    r->check_tol = 0;
    r->check_tol_out = 0;
    r->check_rel = 0;
    double worst_ratio = 0;
    for (int out = 0; out < 3; ++out) {
        const cmp_state *s = &st[out];
        if (s->compared == 0) continue;
        if (s->max_err > r->check_err) r->check_err = s->max_err;
        if (s->max_ratio >= worst_ratio) {
            worst_ratio = s->max_ratio;
            r->check_tol = s->tol_rel;
            r->check_tol_out = s->u_out > 0;
        }
        const double rel = s->max_ref > 0 ? s->max_diff / s->max_ref : s->max_diff;
        if (rel > r->check_rel) r->check_rel = rel;
        if (s->bad > 0 && r->check_ok) {
            r->check_ok = 0;
            snprintf(r->check_msg, sizeof r->check_msg,
                     "%s: %lld of %lld compared elements off, first at flat index %lld: got %.9g, "
                     "reference %.9g",
                     names[out], (long long)s->bad, (long long)s->compared, (long long)s->first_bad,
                     s->bad_got, s->bad_ref);
        } else if (s->max_ref > 0 && s->max_got == 0 && r->check_ok) {
            r->check_ok = 0;
            snprintf(r->check_msg, sizeof r->check_msg, "%s: all compared elements are zero",
                     names[out]);
        }
    }
    return r->check_ok ? 0 : -1;
}
