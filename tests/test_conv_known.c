/*
 * Hand-computed exact cases through the public API (tests/util/conv_harness):
 * the documented 2-D example, the repo's 1-D stride-3 and 3-D 1x1x1 examples
 * (docs: /work/shared/spec/example-walkthrough.md), a 3x3 pad-1 border-count
 * case, a transposed case, and empty tensors. Expected numbers are written
 * here from the formulas by hand, not taken from the reference. Every case
 * runs on dense tensors and again on strided views with offsets.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_harness.h"
#include "reference/ref_conv.h"

static int g_failures;

typedef double (*value_fn)(int tensor, const int64_t *idx, const ref_problem *p);

static double ones(int tensor, const int64_t *idx, const ref_problem *p) { return 1.0; }

/* Values given by lists (1-D problems with n = c = 1). */
static const double *g_list[3];
static double from_list(int tensor, const int64_t *idx, const ref_problem *p)
{
    return g_list[tensor][idx[2]];
}

static void unravel(int64_t e, const int64_t *shape, int rank, int64_t *idx)
{
    for (int i = rank - 1; i >= 0; --i) {
        idx[i] = e % shape[i];
        e /= shape[i];
    }
}

static float *make_values(const ref_problem *p, int tensor, value_fn fn)
{
    int64_t shape[5], idx[5];
    const int rank = ref_problem_shape(p, tensor, shape);
    const int64_t n = ref_problem_numel(p, tensor);
    float *v = (float *)malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
    for (int64_t e = 0; e < n; ++e) {
        unravel(e, shape, rank, idx);
        v[e] = (float)fn(tensor, idx, p);
    }
    return v;
}

static void expect_all(const char *name, const char *what, const float *got, int64_t n,
                       double (*want)(int64_t e, const int64_t *idx, const ref_problem *p),
                       const ref_problem *p, int tensor)
{
    int64_t shape[5], idx[5];
    const int rank = ref_problem_shape(p, tensor, shape);
    int64_t bad = 0;
    for (int64_t e = 0; e < n; ++e) {
        unravel(e, shape, rank, idx);
        const double w = want(e, idx, p);
        if (!((double)got[e] == w)) {
            if (bad == 0)
                printf("FAIL %s: %s[%" PRId64 "] = %.9g, want %.9g\n", name, what, e,
                       (double)got[e], w);
            ++bad;
        }
    }
    if (bad) {
        printf("FAIL %s: %s: %" PRId64 " of %" PRId64 " elements wrong\n", name, what, bad, n);
        ++g_failures;
    }
}

typedef double (*want_fn)(int64_t e, const int64_t *idx, const ref_problem *p);

static void run_known(const char *name, const char *line, value_fn values, want_fn want_dx,
                      want_fn want_dw, want_fn want_db)
{
    for (int views = 0; views < 2; ++views) {
        ref_problem p;
        char err[256], full[512];
        if (ref_problem_parse(line, &p, err, sizeof err) != 0 ||
            ref_problem_check(&p, err, sizeof err) != 0) {
            printf("FAIL %s: bad case line: %s\n", name, err);
            ++g_failures;
            return;
        }
        p.seed = 12345;
        for (int t = 0; t < REF_T_COUNT; ++t) p.view[t] = views;
        ref_problem_format(&p, full, sizeof full);
        conv_data d;
        d.dy = make_values(&p, REF_T_DY, values);
        d.x = make_values(&p, REF_T_X, values);
        d.w = make_values(&p, REF_T_W, values);
        th_outputs o;
        char msg[1024];
        char label[128];
        snprintf(label, sizeof label, "%s%s", name, views ? " (views)" : "");
        if (th_run(&p, &d, 0, &o, msg, sizeof msg) != 0) {
            printf("FAIL %s: %s\n  case: %s\n", label, msg, full);
            ++g_failures;
        } else {
            const int before = g_failures;
            if (want_dx && o.dx) expect_all(label, "gradInput", o.dx, ref_problem_numel(&p, REF_T_DX), want_dx, &p, REF_T_DX);
            if (want_dw && o.dw) expect_all(label, "gradWeight", o.dw, ref_problem_numel(&p, REF_T_DW), want_dw, &p, REF_T_DW);
            if (want_db && o.db) expect_all(label, "gradBias", o.db, p.c_out, want_db, &p, REF_T_DB);
            if (g_failures != before) printf("  case: %s\n", full);
            else printf("ok   %s\n", label);
        }
        th_outputs_free(&o);
        conv_data_free(&d);
    }
}

/* ---- expected values, by hand ---------------------------------------------- */

static double c2(int64_t e, const int64_t *i, const ref_problem *p) { return 2.0; }
static double c12(int64_t e, const int64_t *i, const ref_problem *p) { return 12.0; }
static double c98(int64_t e, const int64_t *i, const ref_problem *p) { return 98.0; }
static double c686(int64_t e, const int64_t *i, const ref_problem *p) { return 686.0; }
static double c0(int64_t e, const int64_t *i, const ref_problem *p) { return 0.0; }

/* 3x3 kernel, padding 1, 6x6 input, all ones, N = 2, Cout = 4:
 * gradInput = Cout * (valid taps in H) * (valid taps in W), 2 at a border, else 3;
 * gradWeight[tap] = N * (rows where the tap is inside) * (cols ...): 6 for the
 * centre tap row/col, 5 for the others; gradBias = N * 36 = 72. */
static double taps(int64_t i, int64_t n) { return (i == 0 || i == n - 1) ? 2.0 : 3.0; }
static double border_dx(int64_t e, const int64_t *i, const ref_problem *p)
{
    return 4.0 * taps(i[2], 6) * taps(i[3], 6);
}
static double border_dw(int64_t e, const int64_t *i, const ref_problem *p)
{
    return 2.0 * (i[2] == 1 ? 6.0 : 5.0) * (i[3] == 1 ? 6.0 : 5.0);
}
static double c72(int64_t e, const int64_t *i, const ref_problem *p) { return 72.0; }

/* transposed 1-D: x = [1, 2], w = [1, 10, 100], stride 2, dy = [1..5]:
 * gradInput[i] = sum_k dy[2i+k] w[k] = [1+20+300, 3+40+500];
 * gradWeight[k] = sum_i x[i] dy[2i+k] = [1+6, 2+8, 3+10]; gradBias = 15 */
static const double kT_x[] = {1, 2}, kT_w[] = {1, 10, 100}, kT_dy[] = {1, 2, 3, 4, 5};
static double t_dx(int64_t e, const int64_t *i, const ref_problem *p) { return e == 0 ? 321 : 543; }
static double t_dw(int64_t e, const int64_t *i, const ref_problem *p) { return 7.0 + 3.0 * (double)e; }
static double c15(int64_t e, const int64_t *i, const ref_problem *p) { return 15.0; }

/* 1-D stride 3 > kernel 2 on 7: y[o] covers x[3o], x[3o+1]; x[2], x[5], x[6]
 * are never touched and get 0. w = [10, 1], dy = [1, 2]. */
static const double kS_x[] = {1, 2, 3, 4, 5, 6, 7}, kS_w[] = {10, 1}, kS_dy[] = {1, 2};
static double s_dx(int64_t e, const int64_t *i, const ref_problem *p)
{
    static const double v[] = {10, 1, 0, 20, 2, 0, 0};
    return v[e];
}
static double s_dw(int64_t e, const int64_t *i, const ref_problem *p) { return e == 0 ? 9 : 12; }
static double c3(int64_t e, const int64_t *i, const ref_problem *p) { return 3.0; }

int main(void)
{
    const char *dt_all[] = {"f32,f32,f32,f32,f32,f32", "f16,f16,f16,f16,f16,f16",
                            "bf16,bf16,bf16,bf16,bf16,bf16", "f16,bf16,f32,bf16,f16,f32"};
    for (int i = 0; i < 4; ++i) {
        char line[256], name[64];
        /* 98 and 2 are exact in every dtype */
        snprintf(line, sizeof line,
                 "dims=2 n=2 c=2:2 in=7x7 k=1x1 s=1x1 p=0x0 d=1x1 g=1 dt=%s cmt=1 mask=111",
                 dt_all[i]);
        snprintf(name, sizeof name, "2-D documented example [%s]", dt_all[i]);
        run_known(name, line, ones, c2, c98, c98);
    }
    run_known("1-D stride 3 tiling [4,2,9] k3",
              "dims=1 n=4 c=2:2 in=9 k=3 s=3 p=0 d=1 g=1 cmt=0 mask=111", ones, c2, c12, c12);
    run_known("3-D 1x1x1 [2,2,7,7,7]",
              "dims=3 n=2 c=2:2 in=7x7x7 k=1x1x1 s=1x1x1 p=0x0x0 d=1x1x1 g=1 cmt=1 mask=111", ones,
              c2, c686, c686);
    run_known("3x3 pad 1 border counts", "dims=2 n=2 c=3:4 in=6x6 k=3x3 s=1x1 p=1x1 d=1x1 g=1 cmt=0",
              ones, border_dx, border_dw, c72);
    g_list[REF_T_DY] = kS_dy, g_list[REF_T_X] = kS_x, g_list[REF_T_W] = kS_w;
    run_known("1-D stride 3 > kernel 2 (untouched inputs 0)",
              "dims=1 n=1 c=1:1 in=7 k=2 s=3 p=0 d=1 g=1 cmt=0", from_list, s_dx, s_dw, c3);
    g_list[REF_T_DY] = kT_dy, g_list[REF_T_X] = kT_x, g_list[REF_T_W] = kT_w;
    run_known("transposed 1-D stride 2", "dims=1 n=1 c=1:1 in=2 k=3 s=2 p=0 d=1 g=1 t=1 op=0 cmt=0",
              from_list, t_dx, t_dw, c15);
    /* empty tensors: gradWeight and gradBias are zero-filled, gradInput (empty)
     * untouched */
    run_known("empty N=0", "dims=2 n=0 c=2:3 in=5x5 k=3x3 s=1x1 p=0x0 d=1x1 g=1 mask=111", ones,
              c0, c0, c0);
    run_known("empty N=0 transposed", "dims=2 n=0 c=2:3 in=3x3 k=2x2 s=2x2 p=0x0 d=1x1 g=1 t=1 op=1x0 mask=111", ones,
              c0, c0, c0);
    run_known("empty Cin=0 (gradBias zero-filled)",
              "dims=1 n=2 c=0:3 in=5 k=2 s=1 p=0 d=1 g=1 mask=011", ones, c0, c0, c0);
    th_finish();
    if (g_failures) {
        printf("test_conv_known: %d FAILURES\n", g_failures);
        return 1;
    }
    printf("test_conv_known: OK\n");
    return 0;
}
