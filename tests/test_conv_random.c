/*
 * Randomized differential test: the library (through the public API, with
 * hostile buffers: tests/util/conv_harness) against the plain reference
 * (src/reference) under the numeric contract of docs/numerics.md
 * (tests/util/conv_expect).
 *
 * Cases (tests/util/conv_gen): 1-D/2-D/3-D, strides incl. stride > kernel,
 * symmetric and 4-element asymmetric 2-D padding, dilation with padding,
 * groups incl. depthwise and channel multipliers, transposed with
 * outputPadding < stride, prime sizes, channels not multiple of 16, all 8
 * output masks (masked-off outputs passed as NULL or as tensors that must stay
 * untouched), strided views with offsets on inputs and outputs, empty tensors,
 * FLOAT / FLOAT16 / BF16 and mixed dtypes, cubeMathType 0..3. Every 20th
 * case is larger (up to 36x36 2-D, 9..40 channels) to reach tiling edges of
 * the optimized engines.
 *
 * Comparison: every output element must lie in [lo, hi] = the reference's
 * sum pushed through the library's roundings, widened by the worst-case fp32
 * accumulation error gamma_L * sum|terms| (see conv_expect.h for the
 * derivation). Small-integer cases (data=int) have a zero error budget: the
 * comparison is exact (bitwise) in every dtype and mode. Each output must
 * also be "discriminating": when the reference is not all zero, at least one
 * element must have 0 outside [lo, hi], so an all-zero result cannot pass.
 * Every 4th case also runs with 1, 2 and 3 threads and requires bitwise
 * identical outputs. Every 10th case is planned with the direct
 * implementation forced (ACLCONV_IMPL=direct): the fallback every other
 * implementation's test compares with is itself checked here, against the
 * plain reference, on every feature.
 *
 * Usage:
 *   test_conv_random [--seed S|time] [--count N] [--soak] [--case "<line>"] [--verbose]
 * ACLCONV_SOAK=1 in the environment is the same as --soak (20000 cases).
 * Every failure prints the case line and the seed; --case replays one line.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aclconv/aclconv.h"
#include "conv_expect.h"
#include "conv_gen.h"
#include "conv_harness.h"
#include "reference/ref_conv.h"
#include "test_rng.h"

#define DEFAULT_SEED 20260601ull
#define DEFAULT_COUNT 1000
#define SOAK_COUNT 20000
/* every BIG_CASE_EVERY-th case has larger shapes (conv_gen_big_opts) */
#define BIG_CASE_EVERY 20
/* every THREAD_CHECK_EVERY-th case is also run with each thread count below */
#define THREAD_CHECK_EVERY 4
static const int k_thread_counts[] = {1, 2, 3};
/* every DIRECT_EVERY-th case (from the 6th) forces the direct implementation */
#define DIRECT_EVERY 10

typedef struct stats {
    int cases, failed, exact, tolerance, transposed, empty, views, thread_checked, direct;
    int dims[4], cmt[4], masks[8], kind[4];
    int64_t compared, discriminating;
} stats;

static uint64_t g_seed;
static int g_verbose;
static int g_default_threads;

static void report(const char *line, const char *what)
{
    printf("FAIL: %s\n  case: %s\n  replay: test_conv_random --seed %" PRIu64 " --case \"%s\"\n",
           what, line, g_seed, line);
}

static int is_empty(const ref_problem *p)
{
    return ref_problem_numel(p, REF_T_DY) == 0 || ref_problem_numel(p, REF_T_X) == 0 ||
           ref_problem_numel(p, REF_T_W) == 0;
}

/* Compares one requested output; returns 0 when it matches. */
static int check_output(const char *line, const char *what, const float *got, const float *lo,
                        const float *hi, const double *ref, int64_t n, stats *st)
{
    char msg[512];
    int64_t disc = 0;
    if (!got) {
        report(line, "an output was requested but not read back");
        return -1;
    }
    const int64_t bad = conv_compare(what, got, lo, hi, ref, n, &disc, msg, sizeof msg);
    st->compared += n;
    st->discriminating += disc;
    if (bad) {
        char full[700];
        snprintf(full, sizeof full, "%s (%" PRId64 " of %" PRId64 " elements outside)", msg, bad, n);
        report(line, full);
        return -1;
    }
    int nonzero = 0;
    for (int64_t i = 0; i < n && !nonzero; ++i) nonzero = ref[i] != 0.0;
    if (nonzero && disc == 0) {
        char full[256];
        snprintf(full, sizeof full,
                 "%s: the comparison cannot tell the result from zero (no element has 0 outside "
                 "its tolerance)",
                 what);
        report(line, full);
        return -1;
    }
    return 0;
}

static int outputs_equal(const ref_problem *p, const th_outputs *a, const th_outputs *b,
                         const conv_expect *e)
{
    if ((p->mask & REF_MASK_DX) && memcmp(a->dx, b->dx, (size_t)e->n_dx * sizeof(float))) return 0;
    if ((p->mask & REF_MASK_DW) && memcmp(a->dw, b->dw, (size_t)e->n_dw * sizeof(float))) return 0;
    if ((p->mask & REF_MASK_DB) && memcmp(a->db, b->db, (size_t)e->n_db * sizeof(float))) return 0;
    return 1;
}

/* Runs one case; returns 0 when it passed. */
static int run_case_inner(const ref_problem *p, int thread_check, stats *st)
{
    char line[512], msg[1024];
    ref_problem_format(p, line, sizeof line);
    if (g_verbose) printf("case %d: %s\n", st->cases, line);
    ++st->cases;
    ++st->dims[p->dims];
    ++st->cmt[p->cube_math & 3];
    /* index in the order of the mask=abc string: gradInput gradWeight gradBias */
    ++st->masks[((p->mask & REF_MASK_DX) ? 4 : 0) | ((p->mask & REF_MASK_DW) ? 2 : 0) |
                ((p->mask & REF_MASK_DB) ? 1 : 0)];
    st->transposed += p->transposed;
    st->empty += is_empty(p);
    for (int t = 0; t < REF_T_COUNT; ++t)
        if (p->view[t]) {
            ++st->views;
            break;
        }
    const conv_compute_kind ck = conv_compute_kind_of(p);
    ++st->kind[ck];
    if (p->int_data) ++st->exact;
    else ++st->tolerance;

    char why[256];
    if (ref_problem_check(p, why, sizeof why) != 0) {
        report(line, why);
        return -1;
    }
    conv_data d;
    conv_expect e;
    if (conv_data_make(p, &d) != 0) {
        report(line, "out of memory (data)");
        return -1;
    }
    if (conv_expect_make(p, &d, &e) != 0) {
        conv_data_free(&d);
        report(line, "out of memory (expectations)");
        return -1;
    }
    int rc = 0;
    th_outputs o;
    if (th_run(p, &d, g_default_threads, &o, msg, sizeof msg) != 0) {
        report(line, msg);
        rc = -1;
    } else {
        if ((p->mask & REF_MASK_DX) &&
            check_output(line, "gradInput", o.dx, e.dx_lo, e.dx_hi, e.dx_ref, e.n_dx, st))
            rc = -1;
        if ((p->mask & REF_MASK_DW) &&
            check_output(line, "gradWeight", o.dw, e.dw_lo, e.dw_hi, e.dw_ref, e.n_dw, st))
            rc = -1;
        if ((p->mask & REF_MASK_DB) &&
            check_output(line, "gradBias", o.db, e.db_lo, e.db_hi, e.db_ref, e.n_db, st))
            rc = -1;
    }
    if (rc == 0 && thread_check) {
        ++st->thread_checked;
        for (size_t i = 0; i < sizeof k_thread_counts / sizeof k_thread_counts[0]; ++i) {
            th_outputs o2;
            if (th_run(p, &d, k_thread_counts[i], &o2, msg, sizeof msg) != 0) {
                char full[1200];
                snprintf(full, sizeof full, "with %d threads: %s", k_thread_counts[i], msg);
                report(line, full);
                rc = -1;
            } else if (!outputs_equal(p, &o, &o2, &e)) {
                char full[200];
                snprintf(full, sizeof full,
                         "results with %d threads differ bitwise from the default (%d threads)",
                         k_thread_counts[i], g_default_threads);
                report(line, full);
                rc = -1;
            }
            th_outputs_free(&o2);
        }
        aclconvSetNumThreads(g_default_threads);
    }
    th_outputs_free(&o);
    conv_expect_free(&e);
    conv_data_free(&d);
    return rc;
}

static int run_case(const ref_problem *p, int thread_check, stats *st)
{
    const int rc = run_case_inner(p, thread_check, st);
    if (rc) ++st->failed;
    return rc;
}

static void print_stats(const stats *st, double secs)
{
    printf("cases %d (failed %d): exact %d, tolerance %d; 1-D %d, 2-D %d, 3-D %d; transposed %d; "
           "empty %d; with views %d; thread-checked %d; direct forced %d\n",
           st->cases, st->failed, st->exact, st->tolerance, st->dims[1], st->dims[2], st->dims[3],
           st->transposed, st->empty, st->views, st->thread_checked, st->direct);
    printf("cubeMathType 0/1/2/3: %d/%d/%d/%d; compute FLOAT/HF32/FLOAT16/BFLOAT16: %d/%d/%d/%d\n",
           st->cmt[0], st->cmt[1], st->cmt[2], st->cmt[3], st->kind[CK_FP32], st->kind[CK_HF32],
           st->kind[CK_FP16], st->kind[CK_BF16]);
    printf("masks 000..111:");
    for (int m = 0; m < 8; ++m) printf(" %d", st->masks[m]);
    printf("\nelements compared %" PRId64 " (%" PRId64 " discriminating from zero); %.2f s\n",
           st->compared, st->discriminating, secs);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    g_seed = DEFAULT_SEED;
    int count = DEFAULT_COUNT;
    const char *one_case = NULL;
    const char *soak = getenv("ACLCONV_SOAK");
    if (soak && soak[0] && strcmp(soak, "0") != 0) count = SOAK_COUNT;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            ++i;
            g_seed = !strcmp(argv[i], "time") ? (uint64_t)time(NULL) : strtoull(argv[i], NULL, 10);
        } else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
            count = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--soak")) {
            count = SOAK_COUNT;
        } else if (!strcmp(argv[i], "--case") && i + 1 < argc) {
            one_case = argv[++i];
        } else if (!strcmp(argv[i], "--verbose")) {
            g_verbose = 1;
        } else {
            fprintf(stderr,
                    "usage: %s [--seed S|time] [--count N] [--soak] [--case \"<line>\"] "
                    "[--verbose]\n",
                    argv[0]);
            return 2;
        }
    }
    if (th_init() != 0) return 1;
    g_default_threads = aclconvGetNumThreads();
    stats st;
    memset(&st, 0, sizeof st);
    const double t0 = now_s();
    if (one_case) {
        ref_problem p;
        char err[256];
        if (ref_problem_parse(one_case, &p, err, sizeof err) != 0) {
            fprintf(stderr, "bad --case line: %s\n", err);
            return 2;
        }
        g_verbose = 1;
        run_case(&p, 1, &st);
    } else {
        printf("test_conv_random: seed %" PRIu64 ", %d cases, %d threads by default\n", g_seed,
               count, g_default_threads);
        test_rng r;
        rng_seed(&r, g_seed);
        conv_gen_opts o, big;
        conv_gen_default_opts(&o);
        conv_gen_big_opts(&big);
        for (int c = 0; c < count; ++c) {
            ref_problem p;
            conv_gen_problem(&r, c % BIG_CASE_EVERY == BIG_CASE_EVERY - 1 ? &big : &o, &p);
            snprintf(p.name, sizeof p.name, "r%d", c);
            const bool direct = c % DIRECT_EVERY == 5;
            if (direct) setenv("ACLCONV_IMPL", "direct", 1);
            st.direct += direct;
            run_case(&p, c % THREAD_CHECK_EVERY == 0, &st);
            unsetenv("ACLCONV_IMPL");
        }
    }
    print_stats(&st, now_s() - t0);
    th_finish();
    if (st.failed) {
        printf("test_conv_random: %d of %d cases FAILED (seed %" PRIu64 ")\n", st.failed, st.cases,
               g_seed);
        return 1;
    }
    printf("test_conv_random: OK\n");
    return 0;
}
