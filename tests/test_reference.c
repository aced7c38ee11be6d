/*
 * Verifies the plain reference (src/reference/ref_conv.c) on its own, before
 * anything is compared with it:
 *  - hand-computed cases (1-D, stride > kernel, dilation with padding, 2-D
 *    all-ones, 3x3 pad-1 border counts, groups, asymmetric 2-D padding,
 *    transposed, 3-D);
 *  - adjoint identities on random problems of every feature:
 *      <conv(x,w), dy> == <x, dX(dy,w)> == <w, dW(x,dy)>,
 *      <convT(x,w), dy> == <x, gradInput> == <w, gradWeight> (transposed, with
 *      convT written independently as a scatter), and <b, dB> == <b, sum dy>;
 *  - central finite differences of the forward (and transposed forward)
 *    convolution on random elements of x and w, compared with dX and dW;
 *  - the problem line format: format -> parse -> format round trip.
 *
 * Tolerances. With dyadic data (multiples of 1/8 in [-1, 1]) every product
 * is a multiple of 2^-6 and every sum of them stays far below 2^47 in
 * magnitude, so each double sum is exact and the identities hold EXACTLY
 * (compared with ==). With real data the double sums of T triple products
 * carry at most gamma_T(2^-53) * S error each (S = the same expression on
 * absolute values; Higham §3.1), so the two sides may differ by twice that.
 *
 * Usage: test_reference [--seed S] [--count N]
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_gen.h"
#include "reference/ref_conv.h"
#include "test_rng.h"

#define U_FP64 0x1p-53
static int g_failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            ++g_failures;                                                                          \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

static double gamma_n(double n, double u) { return n * u / (1.0 - n * u); }

static double dot(const double *a, const double *b, int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

static double *dalloc(int64_t n) { return (double *)calloc((size_t)(n > 0 ? n : 1), sizeof(double)); }

static int parse_or_die(const char *line, ref_problem *p)
{
    char err[256];
    if (ref_problem_parse(line, p, err, sizeof err) != 0) {
        printf("FAIL parse '%s': %s\n", line, err);
        ++g_failures;
        return -1;
    }
    if (ref_problem_check(p, err, sizeof err) != 0) {
        printf("FAIL check '%s': %s\n", line, err);
        ++g_failures;
        return -1;
    }
    return 0;
}

/* Runs the reference gradients of a problem line on given data and compares
 * with expected arrays (any may be NULL). */
static void hand_case(const char *line, const double *dy, const double *x, const double *w,
                      const double *want_y, const double *want_dx, const double *want_dw,
                      const double *want_db)
{
    ref_problem p;
    if (parse_or_die(line, &p)) return;
    const int64_t ndy = ref_problem_numel(&p, REF_T_DY), nx = ref_problem_numel(&p, REF_T_X),
                  nw = ref_problem_numel(&p, REF_T_W);
    double *dx = dalloc(nx), *dw = dalloc(nw), *db = dalloc(p.c_out), *y = dalloc(ndy);
    ref_problem_gradients(&p, dy, x, w, dx, dw, db);
    if (want_y) {
        ref_geom g;
        ref_problem_geom(&p, &g);
        if (p.transposed)
            ref_conv_transposed_forward(&g, x, w, y);
        else
            ref_conv_forward(&g, x, w, y);
        for (int64_t i = 0; i < ndy; ++i)
            CHECK(y[i] == want_y[i], "%s: y[%" PRId64 "] = %g, want %g", line, i, y[i], want_y[i]);
    }
    for (int64_t i = 0; want_dx && i < nx; ++i)
        CHECK(dx[i] == want_dx[i], "%s: dx[%" PRId64 "] = %g, want %g", line, i, dx[i], want_dx[i]);
    for (int64_t i = 0; want_dw && i < nw; ++i)
        CHECK(dw[i] == want_dw[i], "%s: dw[%" PRId64 "] = %g, want %g", line, i, dw[i], want_dw[i]);
    for (int64_t i = 0; want_db && i < p.c_out; ++i)
        CHECK(db[i] == want_db[i], "%s: db[%" PRId64 "] = %g, want %g", line, i, db[i], want_db[i]);
    free(dx), free(dw), free(db), free(y);
}

static double *filled(int64_t n, double v)
{
    double *a = dalloc(n);
    for (int64_t i = 0; i < n; ++i) a[i] = v;
    return a;
}

static void test_hand_cases(void)
{
    { /* 1-D: y = x[o] - x[o+1]; dx = [1, 1, 1, 1, -4], dw = [30, 40], db = 10 */
        const double x[] = {1, 2, 3, 4, 5}, w[] = {1, -1}, dy[] = {1, 2, 3, 4};
        const double y[] = {-1, -1, -1, -1}, dx[] = {1, 1, 1, 1, -4}, dw[] = {30, 40},
                     db[] = {10};
        hand_case("dims=1 n=1 c=1:1 in=5 k=2 s=1 p=0 d=1 g=1", dy, x, w, y, dx, dw, db);
    }
    { /* stride 3 > kernel 2: O = 2, input positions 2, 5, 6 are never touched */
        const double x[] = {1, 2, 3, 4, 5, 6, 7}, w[] = {10, 1}, dy[] = {1, 2};
        const double y[] = {12, 45}, dx[] = {10, 1, 0, 20, 2, 0, 0},
                     dw[] = {1 * 1 + 4 * 2, 2 * 1 + 5 * 2}, db[] = {3};
        hand_case("dims=1 n=1 c=1:1 in=7 k=2 s=3 p=0 d=1 g=1", dy, x, w, y, dx, dw, db);
    }
    { /* dilation 2 with padding 1: y[o] = x[o-1] w0 + x[o+1] w1 */
        const double x[] = {1, 2, 3, 4}, w[] = {1, 10}, dy[] = {1, 1, 1, 1};
        const double y[] = {20, 31, 42, 3}, dx[] = {1, 11, 11, 10}, dw[] = {1 + 2 + 3, 2 + 3 + 4},
                     db[] = {4};
        hand_case("dims=1 n=1 c=1:1 in=4 k=2 s=1 p=1 d=2 g=1", dy, x, w, y, dx, dw, db);
    }
    { /* the documented 2-D example: all ones, [2,2,7,7], 1x1 kernel */
        double *ones = filled(196, 1), *dx = filled(196, 2), *dw = filled(4, 98),
               *db = filled(2, 98);
        hand_case("dims=2 n=2 c=2:2 in=7x7 k=1x1 s=1x1 p=0x0 d=1x1 g=1", ones, ones, ones, NULL, dx,
                  dw, db);
        free(ones), free(dx), free(dw), free(db);
    }
    { /* 3x3 pad 1 on 5x5, all ones, Cout = 3: dx = 3 * valid taps (9 / 6 / 4);
       * dw[tap] = positions where the tap is in range (25 / 20 / 16); db = 25 */
        double *ones = filled(3 * 25, 1), dx[25], dw[27], db[3] = {25, 25, 25};
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 5; ++j) {
                int ri = (i == 0 || i == 4) ? 2 : 3, rj = (j == 0 || j == 4) ? 2 : 3;
                dx[i * 5 + j] = 3.0 * ri * rj;
            }
        for (int co = 0; co < 3; ++co)
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b) dw[co * 9 + a * 3 + b] = (a == 1 ? 5 : 4) * (b == 1 ? 5 : 4);
        hand_case("dims=2 n=1 c=1:3 in=5x5 k=3x3 s=1x1 p=1x1 d=1x1 g=1", ones, ones, ones, NULL, dx,
                  dw, db);
        free(ones);
    }
    { /* groups 2, 1x1: each channel only sees its own */
        const double x[] = {1, 2, 3, 4}, w[] = {10, 100}, dy[] = {1, 2, 3, 4};
        const double y[] = {10, 20, 300, 400}, dx[] = {10, 20, 300, 400},
                     dw[] = {1 * 1 + 2 * 2, 3 * 3 + 4 * 4}, db[] = {3, 7};
        hand_case("dims=1 n=1 c=2:2 in=2 k=1 s=1 p=0 d=1 g=2", dy, x, w, y, dx, dw, db);
    }
    { /* asymmetric 2-D padding [top 1, bottom 0, left 0, right 2], 1x1 kernel:
       * y is x placed at rows 1..2, cols 0..1 of a 3x4 grid */
        const double x[] = {1, 2, 3, 4}, w[] = {1};
        const double dy[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        const double y[] = {0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0}, dx[] = {5, 6, 9, 10},
                     dw[] = {1 * 5 + 2 * 6 + 3 * 9 + 4 * 10}, db[] = {78};
        hand_case("dims=2 n=1 c=1:1 in=2x2 k=1x1 s=1x1 p=1:0x0:2 d=1x1 g=1", dy, x, w, y, dx, dw,
                  db);
    }
    { /* transposed 1-D: x = [1, 2], w = [1, 10, 100], stride 2:
       * convT(x) = [1, 10, 100 + 2, 20, 200]; gradInput[i] = sum_k dy[2i+k] w[k];
       * gradWeight[k] = sum_i x[i] dy[2i+k] */
        const double x[] = {1, 2}, w[] = {1, 10, 100}, dy[] = {1, 2, 3, 4, 5};
        const double y[] = {1, 10, 102, 20, 200}, dx[] = {321, 543}, dw[] = {7, 10, 13},
                     db[] = {15};
        hand_case("dims=1 n=1 c=1:1 in=2 k=3 s=2 p=0 d=1 g=1 t=1 op=0", dy, x, w, y, dx, dw, db);
    }
    { /* transposed with outputPadding 1 and padding 1: O = (2-1)*2 - 2 + 2 + 1 + 1 = 4;
       * convT(x)[j] with j = 2i - 1 + k: i=0 -> j=-1,0,1; i=1 -> j=1,2,3 */
        const double x[] = {1, 2}, w[] = {1, 10, 100}, dy[] = {1, 2, 3, 4};
        const double y[] = {10, 100 + 2, 20, 200}, dx[] = {1 * 10 + 2 * 100, 2 * 1 + 3 * 10 + 4 * 100},
                     dw[] = {2 * 2, 1 * 1 + 2 * 3, 1 * 2 + 2 * 4}, db[] = {10};
        hand_case("dims=1 n=1 c=1:1 in=2 k=3 s=2 p=1 d=1 g=1 t=1 op=1", dy, x, w, y, dx, dw, db);
    }
    { /* 3-D all ones [2,2,7,7,7], 1x1x1: dx = 2, dw = db = 686 */
        double *ones = filled(2 * 2 * 343, 1), *dx = filled(2 * 2 * 343, 2), *dw = filled(4, 686),
               *db = filled(2, 686);
        hand_case("dims=3 n=2 c=2:2 in=7x7x7 k=1x1x1 s=1x1x1 p=0x0x0 d=1x1x1 g=1", ones, ones, ones,
                  NULL, dx, dw, db);
        free(ones), free(dx), free(dw), free(db);
    }
    { /* 1-D stride 3 tiles [4,2,9] exactly with k=3: dx = 2, dw = 12, db = 12 */
        double *ones = filled(4 * 2 * 9, 1), *dx = filled(72, 2), *dw = filled(12, 12),
               *db = filled(2, 12);
        hand_case("dims=1 n=4 c=2:2 in=9 k=3 s=3 p=0 d=1 g=1", ones, ones, ones, NULL, dx, dw, db);
        free(ones), free(dx), free(dw), free(db);
    }
}

/* ---- random identities ------------------------------------------------------ */

static void fill_data(test_rng *r, double *a, int64_t n, int dyadic)
{
    for (int64_t i = 0; i < n; ++i)
        a[i] = dyadic ? (double)rng_range(r, -8, 8) / 8.0 : 2.0 * rng_unit(r) - 1.0;
}

/* The forward of a problem: y = conv(x, w) ([N,Cout,O]) or convT(x, w). */
static void problem_forward(const ref_problem *p, const double *x, const double *w, double *y)
{
    ref_geom g;
    ref_problem_geom(p, &g);
    if (p->transposed)
        ref_conv_transposed_forward(&g, x, w, y);
    else
        ref_conv_forward(&g, x, w, y);
}

static void abs_copy(const double *a, double *b, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) b[i] = fabs(a[i]);
}

static void test_identities(uint64_t seed, int count)
{
    test_rng r;
    rng_seed(&r, seed);
    conv_gen_opts o;
    conv_gen_default_opts(&o);
    o.allow_empty = 0;
    int n_t = 0, n_nt = 0;
    for (int c = 0; c < count; ++c) {
        ref_problem p;
        conv_gen_problem(&r, &o, &p);
        const int dyadic = c % 2 == 0;
        char line[512];
        ref_problem_format(&p, line, sizeof line);
        const int64_t ndy = ref_problem_numel(&p, REF_T_DY), nx = ref_problem_numel(&p, REF_T_X),
                      nw = ref_problem_numel(&p, REF_T_W);
        double *x = dalloc(nx), *w = dalloc(nw), *dy = dalloc(ndy), *b = dalloc(p.c_out);
        double *y = dalloc(ndy), *dx = dalloc(nx), *dw = dalloc(nw), *db = dalloc(p.c_out);
        double *ax = dalloc(nx), *aw = dalloc(nw), *ady = dalloc(ndy), *ay = dalloc(ndy);
        fill_data(&r, x, nx, dyadic);
        fill_data(&r, w, nw, dyadic);
        fill_data(&r, dy, ndy, dyadic);
        fill_data(&r, b, p.c_out, dyadic);
        problem_forward(&p, x, w, y);
        ref_problem_gradients(&p, dy, x, w, dx, dw, db);
        const double l1 = dot(y, dy, ndy), l2 = dot(x, dx, nx), l3 = dot(w, dw, nw);
        /* S = sum over all (x, w, dy) triples of |x w dy|; T = number of triples + outer terms */
        abs_copy(x, ax, nx), abs_copy(w, aw, nw), abs_copy(dy, ady, ndy);
        problem_forward(&p, ax, aw, ay);
        const double S = dot(ay, ady, ndy);
        /* each forward element sums at most Cin/g * prod(K) products (both
         * modes), then ndy of them are summed: no sum is longer than triples */
        int64_t taps = p.c_in / p.groups;
        for (int i = 0; i < p.dims; ++i) taps *= p.k[i];
        const int64_t triples = ndy * (taps + 1);
        const double tol = dyadic ? 0.0 : 2.0 * gamma_n((double)triples + ndy + nx + nw, U_FP64) * S;
        CHECK(fabs(l1 - l2) <= tol, "<fwd, dy> %.17g != <x, dX> %.17g (tol %g) case %s", l1, l2,
              tol, line);
        CHECK(fabs(l1 - l3) <= tol, "<fwd, dy> %.17g != <w, dW> %.17g (tol %g) case %s", l1, l3,
              tol, line);
        /* bias: <b, dB> == sum_{n,c,o} b[c] dy[n,c,o] */
        int64_t sp = 1;
        for (int i = 0; i < p.dims; ++i) sp *= p.o[i];
        double lb = 0, sb = 0;
        for (int64_t n = 0; n < p.n; ++n)
            for (int64_t ch = 0; ch < p.c_out; ++ch)
                for (int64_t s = 0; s < sp; ++s) {
                    lb += b[ch] * dy[(n * p.c_out + ch) * sp + s];
                    sb += fabs(b[ch] * dy[(n * p.c_out + ch) * sp + s]);
                }
        const double lb2 = dot(b, db, p.c_out);
        const double tolb = dyadic ? 0.0 : 2.0 * gamma_n((double)ndy + p.c_out, U_FP64) * sb;
        CHECK(fabs(lb - lb2) <= tolb, "<b, dB> %.17g != %.17g case %s", lb2, lb, line);
        if (p.transposed) {
            /* the scatter convT and the gather backward-data of the same geometry
             * compute the same numbers (exact with dyadic data) */
            ref_geom g;
            ref_problem_geom(&p, &g);
            double *y2 = dalloc(ndy);
            ref_conv_backward_data(&g, x, w, y2);
            for (int64_t i = 0; dyadic && i < ndy; ++i)
                CHECK(y2[i] == y[i], "convT scatter vs gather differ at %" PRId64 " case %s", i,
                      line);
            free(y2);
            ++n_t;
        } else {
            ++n_nt;
        }
        free(x), free(w), free(dy), free(b), free(y), free(dx), free(dw), free(db);
        free(ax), free(aw), free(ady), free(ay);
    }
    printf("adjoint identities: %d problems (%d transposed), seed %" PRIu64 "\n", n_t + n_nt, n_t,
           seed);
}

/* Central differences of L(x, w) = <forward(x, w), dy>, which is linear in
 * each argument: (L(v + h e) - L(v - h e)) / 2h equals the gradient exactly in
 * exact arithmetic, for any h. Dyadic data and h = 1/2 keep every value
 * exact, so the comparison is exact; real data get the double-rounding bound
 * of the two L evaluations (each within gamma_T * S of the exact value) and
 * of the gradient element itself, divided by 2h. */
static void test_finite_differences(uint64_t seed, int count)
{
    test_rng r;
    rng_seed(&r, seed ^ 0x5eedull);
    conv_gen_opts o;
    conv_gen_default_opts(&o);
    o.allow_empty = 0;
    int checked = 0;
    for (int c = 0; c < count; ++c) {
        ref_problem p;
        conv_gen_problem(&r, &o, &p);
        const int dyadic = c % 2 == 1;
        const double h = dyadic ? 0.5 : 1e-3;
        char line[512];
        ref_problem_format(&p, line, sizeof line);
        const int64_t ndy = ref_problem_numel(&p, REF_T_DY), nx = ref_problem_numel(&p, REF_T_X),
                      nw = ref_problem_numel(&p, REF_T_W);
        double *x = dalloc(nx), *w = dalloc(nw), *dy = dalloc(ndy), *y = dalloc(ndy);
        double *dx = dalloc(nx), *dw = dalloc(nw);
        double *ax = dalloc(nx), *aw = dalloc(nw), *ady = dalloc(ndy);
        fill_data(&r, x, nx, dyadic);
        fill_data(&r, w, nw, dyadic);
        fill_data(&r, dy, ndy, dyadic);
        ref_problem_gradients(&p, dy, x, w, dx, dw, NULL);
        abs_copy(dy, ady, ndy);
        const double T = (double)ndy * (double)(nx + nw + 1);
        for (int rep = 0; rep < 6; ++rep) {
            const int on_w = rep % 2;
            double *v = on_w ? w : x, *grad = on_w ? dw : dx;
            const int64_t nv = on_w ? nw : nx;
            const int64_t e = rng_range(&r, 0, nv - 1);
            const double keep = v[e];
            v[e] = keep + h;
            problem_forward(&p, x, w, y);
            const double lp = dot(y, dy, ndy);
            v[e] = keep - h;
            problem_forward(&p, x, w, y);
            const double lm = dot(y, dy, ndy);
            v[e] = keep;
            const double fd = (lp - lm) / (2.0 * h);
            /* bound: S of the perturbed evaluations <= S with |v_e| + h */
            abs_copy(x, ax, nx), abs_copy(w, aw, nw);
            (on_w ? aw : ax)[e] += h;
            problem_forward(&p, ax, aw, y);
            const double S = dot(y, ady, ndy);
            const double tol =
                dyadic ? 0.0 : 2.0 * gamma_n(T, U_FP64) * S / (2.0 * h) + gamma_n(T, U_FP64) * S;
            CHECK(fabs(fd - grad[e]) <= tol, "finite difference d/d%s[%" PRId64 "] = %.17g, "
                  "gradient %.17g (tol %g) case %s", on_w ? "w" : "x", e, fd, grad[e], tol, line);
            ++checked;
        }
        free(x), free(w), free(dy), free(y), free(dx), free(dw), free(ax), free(aw), free(ady);
    }
    printf("finite differences: %d elements of %d problems\n", checked, count);
}

static int problems_equal(const ref_problem *a, const ref_problem *b)
{
    if (a->dims != b->dims || a->n != b->n || a->c_in != b->c_in || a->c_out != b->c_out ||
        a->groups != b->groups || a->transposed != b->transposed || a->pad4 != b->pad4 ||
        a->cube_math != b->cube_math || a->mask != b->mask || a->seed != b->seed ||
        a->int_data != b->int_data || strcmp(a->name, b->name) != 0)
        return 0;
    for (int i = 0; i < a->dims; ++i)
        if (a->in[i] != b->in[i] || a->k[i] != b->k[i] || a->o[i] != b->o[i] ||
            a->s[i] != b->s[i] || a->ph[i] != b->ph[i] || a->pt[i] != b->pt[i] ||
            a->d[i] != b->d[i] || a->op[i] != b->op[i])
            return 0;
    for (int t = 0; t < REF_T_COUNT; ++t)
        if (a->dt[t] != b->dt[t] || a->view[t] != b->view[t]) return 0;
    return 1;
}

static void test_format(uint64_t seed)
{
    test_rng r;
    rng_seed(&r, seed + 99);
    conv_gen_opts o;
    conv_gen_default_opts(&o);
    for (int c = 0; c < 1000; ++c) {
        ref_problem p, q;
        conv_gen_problem(&r, &o, &p);
        if (c % 3 == 0) snprintf(p.name, sizeof p.name, "case_%d", c);
        char line[512], err[256];
        ref_problem_format(&p, line, sizeof line);
        int rc = ref_problem_parse(line, &q, err, sizeof err);
        CHECK(rc == 0, "parse of own format failed: %s: %s", line, err);
        CHECK(rc != 0 || problems_equal(&p, &q), "round trip changed the problem: %s", line);
    }
    /* o derived when absent; transposed from op */
    ref_problem p;
    char err[256];
    CHECK(ref_problem_parse("dims=2 n=1 c=3:8 in=9x9 k=3x3 s=2x2 p=1x1 d=1x1 g=1", &p, err,
                            sizeof err) == 0 && p.o[0] == 5 && p.o[1] == 5,
          "derived o");
    CHECK(ref_problem_parse("in=4 k=3 s=2 p=1 t=1 op=1", &p, err, sizeof err) == 0 && p.dims == 1 &&
              p.o[0] == 8 && ref_problem_check(&p, NULL, 0) == 0,
          "derived transposed o = (4-1)*2 - 2 + 2 + 1 + 1 = 8, got %" PRId64, p.o[0]);
    CHECK(ref_problem_parse("dims=2 in=4x4 k=1x1 p=1:2x0:3 dt=f16,bf16,f32,f32,f16,bf16 cmt=2 mask=010",
                            &p, err, sizeof err) == 0 && p.pad4 && p.ph[0] == 1 && p.pt[0] == 2 &&
              p.pt[1] == 3 && p.dt[1] == ACL_BF16 && p.mask == REF_MASK_DW && p.o[0] == 7,
          "pad4 / dtype / mask parse");
    /* bad lines are rejected with a reason */
    const char *bad[] = {"dims=4 in=1 k=1", "dims=2 in=3 k=3x3", "dims=1 in=3 k=1 zz=1",
                         "dims=1 in=3 k=1 mask=12", "dims=1 in=3 k=1 dt=f32", "dims=1 in=3 k=1 c=3",
                         "dims=1 in=3 k=1 p=1:0", "dims=1 in=3 k=1 data=x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK(ref_problem_parse(bad[i], &p, err, sizeof err) != 0, "accepted bad line '%s'", bad[i]);
    /* inconsistent shapes are rejected by check */
    CHECK(ref_problem_parse("dims=1 in=5 k=2 o=3", &p, err, sizeof err) == 0 &&
              ref_problem_check(&p, err, sizeof err) != 0,
          "check accepted gradOutput 3 for in 5 k 2");
    CHECK(ref_problem_parse("dims=1 c=3:4 g=2 in=5 k=2", &p, err, sizeof err) == 0 &&
              ref_problem_check(&p, err, sizeof err) != 0,
          "check accepted channels not divisible by groups");
}

int main(int argc, char **argv)
{
    uint64_t seed = 20240601;
    int count = 300;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc) count = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--seed S] [--count N]\n", argv[0]);
            return 2;
        }
    }
    printf("test_reference seed %" PRIu64 " count %d\n", seed, count);
    test_hand_cases();
    test_format(seed);
    test_identities(seed, count);
    test_finite_differences(seed, count / 3 + 1);
    if (g_failures) {
        printf("test_reference: %d FAILURES (seed %" PRIu64 ")\n", g_failures, seed);
        return 1;
    }
    printf("test_reference: OK\n");
    return 0;
}
