#include "conv_expect.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "conv_gen.h"
#include "test_rng.h"

/* Unit roundoff of fp32 (accumulation in the library) and of double (the
 * reference). */
#define U_FP32 0x1p-24
#define U_FP64 0x1p-53
/* Small-integer data: |value| <= INT_DATA_RANGE. Exact in every operand
 * format (bf16 keeps integers up to 256, fp16 up to 2048, hf32 up to 4096);
 * products <= 16, so with the generator's small shapes every sum of
 * |terms| stays far below 2^24 (err_budget checks it per element and falls
 * back to the rounding budget if it ever did not). */
#define INT_DATA_RANGE 4
/* Every integer of magnitude below this is exact in fp32. */
#define FP32_EXACT_INT 0x1p24

conv_compute_kind conv_compute_kind_of(const ref_problem *p)
{
    const aclDataType pr = conv_promoted(p);
    switch (p->cube_math) {
    case 2: return CK_FP16;
    case 1:
    case 3:
        if (pr == ACL_FLOAT) return CK_HF32;
        break;
    default: break;
    }
    return pr == ACL_FLOAT16 ? CK_FP16 : pr == ACL_BF16 ? CK_BF16 : CK_FP32;
}

const char *conv_compute_kind_name(conv_compute_kind k)
{
    static const char *names[] = {"FLOAT", "HF32", "FLOAT16", "BFLOAT16"};
    return names[k];
}

float conv_round_compute(float v, conv_compute_kind k)
{
    switch (k) {
    case CK_HF32: return f32_round_hf32(v);
    case CK_FP16: return f32_round_f16(v);
    case CK_BF16: return f32_round_bf16(v);
    default: return v;
    }
}

float conv_round_dtype(float v, aclDataType dt)
{
    switch (dt) {
    case ACL_FLOAT16: return f32_round_f16(v);
    case ACL_BF16: return f32_round_bf16(v);
    default: return v;
    }
}

void conv_data_free(conv_data *d)
{
    free(d->dy);
    free(d->x);
    free(d->w);
    memset(d, 0, sizeof *d);
}

static float *alloc_f(int64_t n) { return (float *)malloc((size_t)(n > 0 ? n : 1) * sizeof(float)); }
static double *alloc_d(int64_t n) { return (double *)calloc((size_t)(n > 0 ? n : 1), sizeof(double)); }

int conv_data_make(const ref_problem *p, conv_data *d)
{
    test_rng r;
    rng_seed(&r, p->seed * 0x2545f4914f6cdd1dull + 17);
    float **arrs[3] = {&d->dy, &d->x, &d->w};
    const int tens[3] = {REF_T_DY, REF_T_X, REF_T_W};
    memset(d, 0, sizeof *d);
    for (int a = 0; a < 3; ++a) {
        const int64_t n = ref_problem_numel(p, tens[a]);
        float *v = alloc_f(n);
        if (!v) {
            conv_data_free(d);
            return -1;
        }
        for (int64_t i = 0; i < n; ++i) {
            if (p->int_data)
                v[i] = (float)rng_range(&r, -INT_DATA_RANGE, INT_DATA_RANGE);
            else
                v[i] = conv_round_dtype((float)(2.0 * rng_unit(&r) - 1.0), p->dt[tens[a]]);
        }
        *arrs[a] = v;
    }
    return 0;
}

void conv_expect_free(conv_expect *e)
{
    free(e->dx_lo), free(e->dx_hi), free(e->dw_lo), free(e->dw_hi), free(e->db_lo), free(e->db_hi);
    free(e->dx_ref), free(e->dw_ref), free(e->db_ref);
    memset(e, 0, sizeof *e);
}

/* gamma_n = n u / (1 - n u): the classic bound on the relative error (w.r.t.
 * sum |terms|) of n floating-point operations in any order (Higham, Accuracy
 * and Stability of Numerical Algorithms, 2nd ed., §3.1 and §4.2). */
static double gamma_n(double n, double u) { return n * u / (1.0 - n * u); }

/*
 * Error budget of one output element with `terms` products (or plain values):
 * the library rounds each product at most once (products of hf32/fp16/bf16
 * operands are exact in fp32; fp32 x fp32 is rounded once) and adds in fp32 in
 * some order: |lib - exact| <= gamma_terms(fp32) * sum|terms|. The reference
 * itself sums in double: |ref - exact| <= gamma_terms(fp64) * sum|terms|.
 * Integer data: every partial sum is an integer of magnitude <= sum|terms|
 * < 2^24, so every fp32 operation is exact and the budget is 0.
 */
static double err_budget(const ref_problem *p, int64_t terms, double abs_sum)
{
    if (p->int_data && abs_sum < FP32_EXACT_INT) return 0.0;
    return (gamma_n((double)terms, U_FP32) + gamma_n((double)terms, U_FP64)) * abs_sum;
}

typedef enum { ROUND_DX, ROUND_DW_DB } round_path;

/* The library's roundings after accumulation (all monotone):
 * gradInput: fp32 accumulator -> compute dtype (fp16/bf16 only) -> gradInput dtype;
 * gradWeight / gradBias: fp32 result -> output dtype. */
static float round_result(double v, round_path path, conv_compute_kind ck, aclDataType out)
{
    float f = (float)v;
    if (path == ROUND_DX && (ck == CK_FP16 || ck == CK_BF16)) f = conv_round_compute(f, ck);
    return conv_round_dtype(f, out);
}

static int fill_interval(const ref_problem *p, int64_t n, const double *ref, const double *abs,
                         int64_t terms, round_path path, conv_compute_kind ck, aclDataType out,
                         float **lo, float **hi)
{
    *lo = alloc_f(n);
    *hi = alloc_f(n);
    if (!*lo || !*hi) return -1;
    for (int64_t i = 0; i < n; ++i) {
        const double e = err_budget(p, terms, abs[i]);
        (*lo)[i] = round_result(ref[i] - e, path, ck, out);
        (*hi)[i] = round_result(ref[i] + e, path, ck, out);
    }
    return 0;
}

int conv_expect_make(const ref_problem *p, const conv_data *d, conv_expect *e)
{
    memset(e, 0, sizeof *e);
    const conv_compute_kind ck = conv_compute_kind_of(p);
    const int64_t n_dy = ref_problem_numel(p, REF_T_DY), n_x = ref_problem_numel(p, REF_T_X),
                  n_w = ref_problem_numel(p, REF_T_W);
    e->n_dx = n_x, e->n_dw = n_w, e->n_db = p->c_out;
    const int empty = n_dy == 0 || n_x == 0 || n_w == 0;

    /* operands rounded to the compute precision, and their magnitudes */
    double *dy = alloc_d(n_dy), *x = alloc_d(n_x), *w = alloc_d(n_w);
    double *ady = alloc_d(n_dy), *ax = alloc_d(n_x), *aw = alloc_d(n_w);
    double *dy_orig = alloc_d(n_dy), *ady_orig = alloc_d(n_dy);
    double *adx = alloc_d(n_x), *adw = alloc_d(n_w), *adb = alloc_d(p->c_out);
    e->dx_ref = alloc_d(n_x), e->dw_ref = alloc_d(n_w), e->db_ref = alloc_d(p->c_out);
    int rc = -1;
    if (!dy || !x || !w || !ady || !ax || !aw || !dy_orig || !ady_orig || !adx || !adw || !adb ||
        !e->dx_ref || !e->dw_ref || !e->db_ref)
        goto done;
    for (int64_t i = 0; i < n_dy; ++i) {
        dy[i] = conv_round_compute(d->dy[i], ck), ady[i] = fabs(dy[i]);
        dy_orig[i] = d->dy[i], ady_orig[i] = fabs(dy_orig[i]);
    }
    for (int64_t i = 0; i < n_x; ++i) x[i] = conv_round_compute(d->x[i], ck), ax[i] = fabs(x[i]);
    for (int64_t i = 0; i < n_w; ++i) w[i] = conv_round_compute(d->w[i], ck), aw[i] = fabs(w[i]);

    ref_problem_gradients(p, dy, x, w, e->dx_ref, e->dw_ref, NULL);
    ref_problem_gradients(p, ady, ax, aw, adx, adw, NULL);
    /* gradBias sums the ORIGINAL gradOutput values (not rounded to compute) */
    ref_problem_gradients(p, dy_orig, x, w, NULL, NULL, e->db_ref);
    ref_problem_gradients(p, ady_orig, ax, aw, NULL, NULL, adb);
    if (empty) { /* spec §2: gradWeight and gradBias are zero-filled */
        for (int64_t i = 0; i < n_w; ++i) e->dw_ref[i] = adw[i] = 0.0;
        for (int64_t i = 0; i < p->c_out; ++i) e->db_ref[i] = adb[i] = 0.0;
    }

    int64_t k_all = 1, o_all = 1, s_all = 1;
    for (int i = 0; i < p->dims; ++i) k_all *= p->k[i], o_all *= p->o[i], s_all *= p->in[i];
    const int64_t g = p->groups;
    /* terms per element: gradInput sums over Cout/g channels and the kernel
     * taps (either mode); gradWeight over N and the positions of the tensor
     * playing the forward output; gradBias over N and gradOutput positions */
    const int64_t t_dx = (p->c_out / g) * k_all;
    const int64_t t_dw = p->n * (p->transposed ? s_all : o_all);
    const int64_t t_db = p->n * o_all;
    if (fill_interval(p, n_x, e->dx_ref, adx, t_dx, ROUND_DX, ck, p->dt[REF_T_DX], &e->dx_lo,
                      &e->dx_hi) ||
        fill_interval(p, n_w, e->dw_ref, adw, t_dw, ROUND_DW_DB, ck, p->dt[REF_T_DW], &e->dw_lo,
                      &e->dw_hi) ||
        fill_interval(p, p->c_out, e->db_ref, adb, t_db, ROUND_DW_DB, ck, p->dt[REF_T_DB],
                      &e->db_lo, &e->db_hi))
        goto done;
    rc = 0;
done:
    free(dy), free(x), free(w), free(ady), free(ax), free(aw), free(dy_orig), free(ady_orig);
    free(adx), free(adw), free(adb);
    if (rc) conv_expect_free(e);
    return rc;
}

int64_t conv_compare(const char *what, const float *got, const float *lo, const float *hi,
                     const double *ref, int64_t n, int64_t *discriminating, char *msg,
                     size_t msg_len)
{
    int64_t bad = 0, disc = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (lo[i] > 0.0f || hi[i] < 0.0f) ++disc;
        const float v = got[i];
        /* NaN compares false: never inside */
        if (!(v >= lo[i] && v <= hi[i])) {
            if (bad == 0 && msg)
                snprintf(msg, msg_len,
                         "%s[%" PRId64 "] = %.9g (bits %08x), expected in [%.9g, %.9g] "
                         "(reference sum %.17g)",
                         what, i, (double)v, (unsigned)f32_bits(v), (double)lo[i], (double)hi[i],
                         ref[i]);
            ++bad;
        }
    }
    if (discriminating) *discriminating = disc;
    return bad;
}
