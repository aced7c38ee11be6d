/*
 * aclconv_bench: aclnnConvolutionBackward (aclconv) against oneDNN, side by
 * side, case by case. See docs/benchmarks.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclconv/aclconv.h"
#include "bench_case.h"
#include "bench_peak.h"
#include "bench_run.h"

#ifndef BENCH_SUITE_DIR
#define BENCH_SUITE_DIR "bench/suites"
#endif

#define MIB (1024.0 * 1024.0)
/* Short trials, best one: the machine is shared, a quiet window wins. */
#define PEAK_TRIALS 10
/* Most --rounds. */
#define MAX_ROUNDS 32

#ifndef ACLCONV_HAVE_DNNL
int dnnl_bench_available(void)
{
    return 0;
}
const char *dnnl_bench_describe(void)
{
    return "oneDNN not built in (libdnnl-dev not found)";
}
void dnnl_bench_set_threads(int threads)
{
    (void)threads;
}
int dnnl_bench_case(const bench_case *c, const bench_opts *o, dnnl_result *r)
{
    (void)c;
    (void)o;
    memset(r, 0, sizeof *r);
    return -1;
}
#endif

typedef struct case_result {
    bench_case c;
    acl_result acl;
    dnnl_result dnnl;
    int have_dnnl;
    /* --vs-mode0 / --vs-fp32: aclconv on the case's baseline (base_case) */
    acl_result base;
    int have_base;
} case_result;

/* The baseline each case is also timed against, in turns with it: the
 * issue's goals for the rounded modes (at most +10% over mode 0) and for
 * bf16 / fp16 (at most 1.15x fp32's time). */
typedef struct base_spec {
    const char *what;           /* "mode 0", "fp32" */
    const char *col_ms, *col_r; /* summary columns */
    double goal;                /* largest ratio the goal allows */
    const char *banner;         /* the run's header line */
} base_spec;

static const base_spec base_mode0 = {
    "mode 0", "mode0_ms", "r_mode0", 1.10,
    "--vs-mode0: cases with cubeMathType 1-3 also timed in mode 0, in turns with them"};
static const base_spec base_fp32 = {
    "fp32", "fp32_ms", "r_fp32", 1.15,
    "--vs-fp32: bf16 / fp16 cases also timed in fp32 (cubeMathType 0), in turns with them"};

/* The baseline of c (*out), or 0 when c has none: mode 0 for a rounded mode
 * (cubeMathType 1..3), fp32 in mode 0 for bf16 / fp16. */
static int base_case(const base_spec *b, const bench_case *c, bench_case *out)
{
    *out = *c;
    if (b == &base_mode0) {
        out->cube = 0;
        return c->cube != 0;
    }
    out->dtype = ACL_FLOAT;
    out->cube = 0;
    return c->dtype != ACL_FLOAT;
}

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: aclconv_bench [options]\n"
        "  --suite FILE          suite file (default %s/default.suite)\n"
        "  --case \"k=v ...\"      one case in suite syntax instead of a suite\n"
        "  --filter SUBSTR       only cases whose name contains SUBSTR\n"
        "  --threads N           threads of aclconv (aclconvSetNumThreads) and oneDNN\n"
        "                        (default: aclconvGetNumThreads(), i.e. ACLCONV_NUM_THREADS or "
        "cores)\n"
        "  --reps N              at most N timed runs per measurement (default 100)\n"
        "  --min-time S          stop once the timed runs add up to S seconds (default 1)\n"
        "  --max-case-seconds S  stop repeating a measurement after S seconds (default 20)\n"
        "  --rounds N            measure each case N times, aclconv and oneDNN taking turns;\n"
        "                        report the median of the rounds' medians (default 1, at most %d)\n"
        "  --plan-reps N         GetWorkspaceSize calls timed, median (default 5)\n"
        "  --dtype fp32|bf16|fp16  --mask data|weight|all  --cube 0..3   case defaults\n"
        "  --vs-mode0            with --cube 1..3, also time each case in mode 0 (cubeMathType\n"
        "                        0), taking turns, and print the rounded mode's time over it\n"
        "  --vs-fp32             with --dtype bf16|fp16, also time each case in fp32 (mode 0),\n"
        "                        taking turns, and print the 16-bit time over it\n"
        "  --no-dnnl             skip oneDNN\n"
        "  --markdown            also print the summary as a Markdown table\n"
        "  --check               verify aclconv against the double reference; exit 1 on mismatch\n"
        "  --check-samples N     elements per output compared in big cases (default 512)\n"
        "  --check-mode M        auto (every element when small, else samples) | full | sampled\n"
        "  --ws-bound X          flag workspaces above X times the call's tensor bytes (default "
        "1)\n"
        "  --peak-seconds S      duration of one peak trial (default 0.1; 0 skips)\n"
        "  --seed N              data seed (default 1)\n"
        "  -v                    verbose\n",
        BENCH_SUITE_DIR, MAX_ROUNDS);
}

static int read_cases(const char *path, const char *single, const bench_case_defaults *def,
                      const char *filter, bench_case **out, int *count)
{
    int cap = 16, n = 0;
    bench_case *cases = malloc((size_t)cap * sizeof *cases);
    if (cases == NULL) return -1;
    FILE *f = NULL;
    if (single == NULL) {
        f = fopen(path, "r");
        if (f == NULL) {
            fprintf(stderr, "aclconv_bench: cannot open suite %s\n", path);
            free(cases);
            return -1;
        }
    }
    char line[1024], err[256];
    int lineno = 0;
    for (;;) {
        if (single != NULL) {
            if (lineno > 0) break;
            snprintf(line, sizeof line, "%s", single);
        } else if (fgets(line, sizeof line, f) == NULL) {
            break;
        }
        ++lineno;
        bench_case c;
        int rc = bench_case_parse(line, def, &c, err, sizeof err);
        if (rc < 0) {
            fprintf(stderr, "aclconv_bench: %s:%d: %s\n", single ? "--case" : path, lineno, err);
            if (f) fclose(f);
            free(cases);
            return -1;
        }
        if (rc == 0) continue;
        if (filter != NULL && strstr(c.name, filter) == NULL) continue;
        if (n == cap) {
            cap *= 2;
            bench_case *grown = realloc(cases, (size_t)cap * sizeof *cases);
            if (grown == NULL) {
                if (f) fclose(f);
                free(cases);
                return -1;
            }
            cases = grown;
        }
        cases[n++] = c;
    }
    if (f) fclose(f);
    *out = cases;
    *count = n;
    return 0;
}

static const char *fmt_bytes(uint64_t b, char *buf, size_t len)
{
    if (b < 1024)
        snprintf(buf, len, "%llu B", (unsigned long long)b);
    else if (b < 1024 * 1024)
        snprintf(buf, len, "%.1f KiB", (double)b / 1024.0);
    else
        snprintf(buf, len, "%.1f MiB", (double)b / MIB);
    return buf;
}

static double gflops(const bench_case *c, double ms)
{
    return ms > 0 ? bench_case_flops(c) / (ms * 1e6) : 0;
}

static void print_timing(const bench_timing *t)
{
    printf("%10.3f ms (median of %d, min %.3f)%s", t->median_ms, t->reps, t->min_ms,
           t->capped ? " [capped]" : "");
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Folds the timings of several rounds into one: the median of the rounds'
 * medians (the lower middle one for an even count), the smallest minimum,
 * all the runs, capped when any round was. */
static void merge_rounds(bench_timing *into, const bench_timing *t, int rounds)
{
    double med[MAX_ROUNDS];
    bench_timing m = t[0];
    for (int i = 0; i < rounds; ++i) {
        med[i] = t[i].median_ms;
        if (i > 0) {
            m.min_ms = t[i].min_ms < m.min_ms ? t[i].min_ms : m.min_ms;
            m.reps += t[i].reps;
            m.capped |= t[i].capped;
        }
    }
    qsort(med, (size_t)rounds, sizeof med[0], cmp_double);
    m.median_ms = med[(rounds - 1) / 2];
    *into = m;
}

static void print_case(int i, int count, const case_result *r, const bench_peak *peak,
                       const bench_opts *o, const base_spec *base)
{
    const bench_case *c = &r->c;
    char line[512], b1[32], b2[32];
    printf("\n[%d/%d] %s\n", i + 1, count, bench_case_format(c, line, sizeof line));
    printf("  %.3f GFLOP per call (%s)\n", bench_case_flops(c) * 1e-9,
           c->mask == BENCH_MASK_DATA     ? "gradInput"
           : c->mask == BENCH_MASK_WEIGHT ? "gradWeight, +gradBias uncounted"
                                          : "gradInput + gradWeight, +gradBias uncounted");
    const acl_result *a = &r->acl;
    if (!a->ok) {
        printf("  aclconv   FAILED: %s\n", a->err);
        return;
    }
    const double g = gflops(c, a->exec.median_ms);
    printf("  aclconv   plan %.1f us  exec", a->plan_ms * 1e3);
    print_timing(&a->exec);
    printf("  %.1f GFLOP/s", g);
    if (peak->gflops > 0) printf("  %.1f%% of peak", 100.0 * g / peak->gflops);
    printf("\n            impl gradInput=%s gradWeight=%s\n", a->impl[0], a->impl[1]);
    const double bound = o->ws_bound * (double)a->tensor_bytes;
    printf("            workspace %s, bound %s (%.2g x %s of tensors): %s\n",
           fmt_bytes(a->workspace, b1, sizeof b1), fmt_bytes((uint64_t)bound, b2, sizeof b2),
           o->ws_bound, fmt_bytes(a->tensor_bytes, line, sizeof line),
           (double)a->workspace <= bound ? "within" : "OVER");
    if (r->have_base) {
        printf("  %-9s exec", base->what);
        if (r->base.ok) {
            print_timing(&r->base.exec);
            if (base == &base_mode0)
                printf("  cubeMathType %d / mode 0: %.3f\n", c->cube,
                       a->exec.median_ms / r->base.exec.median_ms);
            else
                printf("  %s / fp32: %.3f\n", bench_dtype_name(c->dtype),
                       a->exec.median_ms / r->base.exec.median_ms);
        } else {
            printf(" FAILED: %s\n", r->base.err);
        }
    }
    if (r->have_dnnl) {
        const dnnl_variant *v[2] = {&r->dnnl.plain, &r->dnnl.blocked};
        const char *names[2] = {"plain  ", "blocked"};
        for (int k = 0; k < 2; ++k) {
            printf("  oneDNN %s", names[k]);
            if (!v[k]->ok) {
                printf(" n/a: %s\n", v[k]->err);
                continue;
            }
            print_timing(&v[k]->exec);
            printf("  %.1f GFLOP/s  aclconv speedup %.3f\n", gflops(c, v[k]->exec.median_ms),
                   v[k]->exec.median_ms / a->exec.median_ms);
            printf("            impl data=%s weights=%s\n",
                   v[k]->impl_data[0] ? v[k]->impl_data : "-",
                   v[k]->impl_weights[0] ? v[k]->impl_weights : "-");
        }
    }
    if (a->checked) {
        printf("  check     %s: max err %.3g of the terms' magnitude (tolerance %.3g%s), max rel "
               "err %.3g, %s\n",
               a->check_ok ? "ok" : "MISMATCH", a->check_err, a->check_tol,
               a->check_tol_out ? " + the output dtype's rounding of the reference" : "",
               a->check_rel,
               a->check_full ? "every element (shared reference)" : "sampled elements");
        if (a->check_msg[0]) printf("            %s\n", a->check_msg);
        if (!a->check_ok)
            printf("            problem: %s seed=%llu\n", bench_case_format(c, line, sizeof line),
                   (unsigned long long)o->seed);
    }
    fflush(stdout);
}

/* Decimals for a time in ms in the Markdown table: three significant digits
 * (%.3g's precision) without its exponent form above 999. */
static int ms_decimals(double ms)
{
    return ms >= 100.0 ? 0 : ms >= 10.0 ? 1 : ms >= 1.0 ? 2 : 3;
}

/* Time of a case over its baseline's (--vs-mode0 / --vs-fp32), 0 when not
 * measured. */
static double base_ratio(const case_result *r)
{
    return r->have_base && r->acl.ok && r->base.ok && r->base.exec.median_ms > 0
               ? r->acl.exec.median_ms / r->base.exec.median_ms
               : 0.0;
}

static void print_summary(const case_result *res, int count, const bench_peak *peak, int with_dnnl,
                          const base_spec *base, int check)
{
    printf("\n== summary (times: median ms; ratio = oneDNN time / aclconv time, >1: aclconv "
           "faster)\n");
    printf("%-20s %-4s %-6s %9s %11s %8s %6s %-23s %9s", "case", "dt", "mask", "plan_us", "exec_ms",
           "GFLOP/s", "%peak", "impl dx/dw", "ws_MiB");
    if (with_dnnl) printf(" %11s %11s %8s %8s", "dnnl_plain", "dnnl_blk", "r_plain", "r_blk");
    if (base) printf(" %10s %8s", base->col_ms, base->col_r);
    if (check) printf("  check");
    printf("\n");
    double log_plain = 0, log_blk = 0;
    int n_plain = 0, n_blk = 0;
    for (int i = 0; i < count; ++i) {
        const case_result *r = &res[i];
        const acl_result *a = &r->acl;
        char impl[64];
        snprintf(impl, sizeof impl, "%s/%s", a->impl[0], a->impl[1]);
        printf("%-20.20s %-4s %-6s", r->c.name, bench_dtype_name(r->c.dtype),
               bench_mask_name(r->c.mask));
        if (!a->ok) {
            printf(" FAILED: %.80s\n", a->err);
            continue;
        }
        const double g = gflops(&r->c, a->exec.median_ms);
        printf(" %9.1f %10.3f%s %8.1f %6.1f %-23.23s %9.1f", a->plan_ms * 1e3, a->exec.median_ms,
               a->exec.capped ? "*" : " ", g, peak->gflops > 0 ? 100.0 * g / peak->gflops : 0.0,
               impl, (double)a->workspace / MIB);
        if (with_dnnl) {
            const dnnl_variant *v[2] = {&r->dnnl.plain, &r->dnnl.blocked};
            for (int k = 0; k < 2; ++k) {
                if (v[k]->ok)
                    printf(" %10.3f%s", v[k]->exec.median_ms, v[k]->exec.capped ? "*" : " ");
                else
                    printf(" %11s", "n/a");
            }
            for (int k = 0; k < 2; ++k) {
                if (v[k]->ok) {
                    const double ratio = v[k]->exec.median_ms / a->exec.median_ms;
                    printf(" %8.3f", ratio);
                    if (k == 0)
                        log_plain += log(ratio), ++n_plain;
                    else
                        log_blk += log(ratio), ++n_blk;
                } else {
                    printf(" %8s", "-");
                }
            }
        }
        if (base) {
            const double m = base_ratio(r);
            if (m > 0)
                printf(" %10.3f %8.3f", r->base.exec.median_ms, m);
            else
                printf(" %10s %8s", "-", "-");
        }
        if (check) printf("  %s", !a->checked ? "-" : a->check_ok ? "ok" : "MISMATCH");
        printf("\n");
    }
    if (with_dnnl) {
        printf("geometric mean of oneDNN-plain / aclconv time:   ");
        if (n_plain)
            printf("%.3f over %d cases\n", exp(log_plain / n_plain), n_plain);
        else
            printf("-\n");
        printf("geometric mean of oneDNN-blocked / aclconv time: ");
        if (n_blk)
            printf("%.3f over %d cases\n", exp(log_blk / n_blk), n_blk);
        else
            printf("-\n");
    }
    if (base) {
        /* the goal: at most base->goal times the baseline's time */
        int over = 0, n = 0;
        for (int i = 0; i < count; ++i) {
            const double m = base_ratio(&res[i]);
            if (m <= 0) continue;
            ++n;
            if (m > base->goal) {
                if (!over) printf("over %.2fx %s's time:", base->goal, base->what);
                printf("%s %s (%.3f)", over ? "," : "", res[i].c.name, m);
                ++over;
            }
        }
        if (over)
            printf("; %d of %d cases\n", over, n);
        else if (n)
            printf("every case within %.2fx %s's time (%d cases)\n", base->goal, base->what, n);
    }
    printf("(* = stopped by --max-case-seconds)\n");
}

/* The summary as a Markdown table (README's performance section). */
static void print_markdown(const case_result *res, int count, const bench_peak *peak, int with_dnnl,
                           const base_spec *base)
{
    printf("\n| case | aclconv ms | GFLOP/s | %% of peak | impl dx/dw | workspace MiB |%s",
           with_dnnl ? " oneDNN plain ms | oneDNN blocked ms | vs plain | vs blocked |" : "");
    if (base) printf(" %s ms | over %s |", base->what, base->what);
    printf("\n|---|---|---|---|---|---|%s%s\n", with_dnnl ? "---|---|---|---|" : "",
           base ? "---|---|" : "");
    double log_r[2] = {0, 0};
    int n_r[2] = {0, 0};
    for (int i = 0; i < count; ++i) {
        const case_result *r = &res[i];
        const acl_result *a = &r->acl;
        if (!a->ok) {
            printf("| %s | failed |\n", r->c.name);
            continue;
        }
        const double g = gflops(&r->c, a->exec.median_ms);
        printf("| %s | %.*f | %.1f | %.0f | %s/%s | %.1f |", r->c.name,
               ms_decimals(a->exec.median_ms), a->exec.median_ms, g,
               peak->gflops > 0 ? 100.0 * g / peak->gflops : 0.0, a->impl[0], a->impl[1],
               (double)a->workspace / MIB);
        if (with_dnnl) {
            const dnnl_variant *v[2] = {&r->dnnl.plain, &r->dnnl.blocked};
            for (int k = 0; k < 2; ++k) {
                if (v[k]->ok)
                    printf(" %.*f |", ms_decimals(v[k]->exec.median_ms), v[k]->exec.median_ms);
                else
                    printf(" n/a |");
            }
            for (int k = 0; k < 2; ++k) {
                if (!v[k]->ok) {
                    printf(" - |");
                    continue;
                }
                const double ratio = v[k]->exec.median_ms / a->exec.median_ms;
                printf(" %.2f |", ratio);
                log_r[k] += log(ratio);
                ++n_r[k];
            }
        }
        if (base) {
            const double m = base_ratio(r);
            if (m > 0)
                printf(" %.*f | %.2f |", ms_decimals(r->base.exec.median_ms),
                       r->base.exec.median_ms, m);
            else
                printf(" - | - |");
        }
        printf("\n");
    }
    if (with_dnnl && n_r[0] && n_r[1])
        printf("| **geometric mean** | | | | | | | | **%.2f** | **%.2f** |%s\n",
               exp(log_r[0] / n_r[0]), exp(log_r[1] / n_r[1]), base ? " | |" : "");
}

static int need_arg(int i, int argc, const char *opt)
{
    if (i + 1 >= argc) {
        fprintf(stderr, "aclconv_bench: %s needs a value\n", opt);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    bench_opts o = {.threads = 0,
                    .max_reps = 100,
                    .min_time = 1.0,
                    .max_case_seconds = 20.0,
                    .plan_reps = 5,
                    .check = 0,
                    .check_samples = 512,
                    .check_mode = BENCH_CHECK_AUTO,
                    .ws_bound = 1.0,
                    .seed = 1,
                    .verbose = 0};
    bench_case_defaults def = {ACL_FLOAT, BENCH_MASK_ALL, 0};
    const char *suite = BENCH_SUITE_DIR "/default.suite", *single = NULL, *filter = NULL;
    int use_dnnl = 1, markdown = 0, rounds = 1;
    const base_spec *base = NULL; /* --vs-mode0 / --vs-fp32 */
    double peak_seconds = 0.1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
#define VAL (need_arg(i, argc, a) ? argv[++i] : (exit(2), ""))
        if (strcmp(a, "--suite") == 0)
            suite = VAL;
        else if (strcmp(a, "--case") == 0)
            single = VAL;
        else if (strcmp(a, "--filter") == 0)
            filter = VAL;
        else if (strcmp(a, "--threads") == 0)
            o.threads = atoi(VAL);
        else if (strcmp(a, "--reps") == 0)
            o.max_reps = atoi(VAL);
        else if (strcmp(a, "--min-time") == 0)
            o.min_time = atof(VAL);
        else if (strcmp(a, "--max-case-seconds") == 0)
            o.max_case_seconds = atof(VAL);
        else if (strcmp(a, "--rounds") == 0)
            rounds = atoi(VAL);
        else if (strcmp(a, "--plan-reps") == 0)
            o.plan_reps = atoi(VAL);
        else if (strcmp(a, "--check-samples") == 0)
            o.check_samples = atoi(VAL);
        else if (strcmp(a, "--check-mode") == 0) {
            const char *m = VAL;
            if (strcmp(m, "auto") == 0)
                o.check_mode = BENCH_CHECK_AUTO;
            else if (strcmp(m, "full") == 0)
                o.check_mode = BENCH_CHECK_FULL;
            else if (strcmp(m, "sampled") == 0)
                o.check_mode = BENCH_CHECK_SAMPLED;
            else {
                fprintf(stderr, "aclconv_bench: --check-mode auto|full|sampled\n");
                return 2;
            }
        } else if (strcmp(a, "--ws-bound") == 0)
            o.ws_bound = atof(VAL);
        else if (strcmp(a, "--peak-seconds") == 0)
            peak_seconds = atof(VAL);
        else if (strcmp(a, "--seed") == 0)
            o.seed = strtoull(VAL, NULL, 0);
        else if (strcmp(a, "--no-dnnl") == 0)
            use_dnnl = 0;
        else if (strcmp(a, "--vs-mode0") == 0 || strcmp(a, "--vs-fp32") == 0) {
            const base_spec *b = strcmp(a, "--vs-mode0") == 0 ? &base_mode0 : &base_fp32;
            if (base != NULL && base != b) {
                fprintf(stderr, "aclconv_bench: --vs-mode0 and --vs-fp32 exclude each other\n");
                return 2;
            }
            base = b;
        } else if (strcmp(a, "--check") == 0)
            o.check = 1;
        else if (strcmp(a, "--markdown") == 0)
            markdown = 1;
        else if (strcmp(a, "-v") == 0)
            o.verbose = 1;
        else if (strcmp(a, "--dtype") == 0) {
            if (bench_dtype_parse(VAL, &def.dtype) != 0) {
                fprintf(stderr, "aclconv_bench: --dtype fp32|bf16|fp16\n");
                return 2;
            }
        } else if (strcmp(a, "--mask") == 0) {
            if (bench_mask_parse(VAL, &def.mask) != 0) {
                fprintf(stderr, "aclconv_bench: --mask data|weight|all\n");
                return 2;
            }
        } else if (strcmp(a, "--cube") == 0) {
            def.cube = atoi(VAL);
            if (def.cube < 0 || def.cube > 3) {
                fprintf(stderr, "aclconv_bench: --cube 0..3\n");
                return 2;
            }
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "aclconv_bench: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
#undef VAL
    }
    if (o.threads < 0 || o.max_reps < 1 || o.min_time < 0 || o.max_case_seconds <= 0 || rounds < 1 ||
        rounds > MAX_ROUNDS) {
        fprintf(stderr, "aclconv_bench: invalid --threads/--reps/--min-time/--max-case-seconds/--rounds\n");
        return 2;
    }

#ifdef ACLCONV_HAVE_DNNL
    /* libgomp reads OMP_WAIT_POLICY when it is loaded, before main: restart
     * once with it set. With the default (spin a while, then sleep) oneDNN's
     * runs on a loaded machine were bimodal, up to 300x slower when a worker
     * had to be woken (tick-sized stalls); "active" keeps workers spinning
     * between primitives and steals the cores from aclconv's runs. */
    if (use_dnnl && getenv("OMP_WAIT_POLICY") == NULL) {
        setenv("OMP_WAIT_POLICY", "passive", 1);
        execv("/proc/self/exe", argv);
        /* exec failed: go on with the default policy */
    }
#endif
    bench_case *cases = NULL;
    int count = 0;
    if (read_cases(suite, single, &def, filter, &cases, &count) != 0) return 2;
    if (count == 0) {
        fprintf(stderr, "aclconv_bench: no case to run\n");
        free(cases);
        return 2;
    }

    aclrtStream stream = NULL;
    aclError e = aclInit(NULL);
    if (e == ACL_SUCCESS) e = aclrtSetDevice(0);
    if (e == ACL_SUCCESS) e = aclrtCreateStream(&stream);
    if (e != ACL_SUCCESS) {
        fprintf(stderr, "aclconv_bench: runtime set-up failed (%d): %s\n", e, aclGetRecentErrMsg());
        return 2;
    }
    if (o.threads > 0 && aclconvSetNumThreads(o.threads) != ACL_SUCCESS) {
        fprintf(stderr, "aclconv_bench: aclconvSetNumThreads(%d): %s\n", o.threads,
                aclGetRecentErrMsg());
        return 2;
    }
    o.threads = aclconvGetNumThreads();
    const int with_dnnl = use_dnnl && dnnl_bench_available();
    if (with_dnnl) dnnl_bench_set_threads(o.threads);

    static const char *const isa_names[] = {"scalar", "avx2", "avx512"};
    const aclconvIsa isa = aclconvGetIsa();
    printf("aclconv %s, kernels ISA %s, %d threads\n", aclconvVersion(),
           (int)isa >= 0 && isa <= ACLCONV_ISA_AVX512 ? isa_names[isa] : "?", o.threads);
    if (with_dnnl) {
        const char *policy = getenv("OMP_WAIT_POLICY");
        printf("%s, OMP_WAIT_POLICY=%s\n", dnnl_bench_describe(), policy ? policy : "(default)");
    } else {
        printf("%s\n", use_dnnl ? dnnl_bench_describe() : "oneDNN skipped (--no-dnnl)");
    }
    bench_peak peak = {0.0, "skipped", o.threads};
    if (peak_seconds > 0) {
        fprintf(stderr, "measuring the FMA peak...\n");
        peak = bench_measure_peak(isa, o.threads, peak_seconds, PEAK_TRIALS);
    }
    printf("peak: %.1f GFLOP/s fp32 (%s FMA loop, %d threads, best of %d)\n", peak.gflops, peak.isa,
           peak.threads, PEAK_TRIALS);
    printf(
        "timing: warm-up, then up to %d runs or %.2g s (median); at most %.3g s per measurement\n",
        o.max_reps, o.min_time, o.max_case_seconds);
    if (rounds > 1)
        printf("rounds: %d per case, aclconv and oneDNN taking turns; the median of the rounds' "
               "medians\n",
               rounds);
    if (base) printf("%s\n", base->banner);
    fflush(stdout);

    case_result *res = calloc((size_t)count, sizeof *res);
    if (res == NULL) return 2;
    int failures = 0, mismatches = 0;
    for (int i = 0; i < count; ++i) {
        case_result *r = &res[i];
        r->c = cases[i];
        bench_timing acl_t[MAX_ROUNDS], plain_t[MAX_ROUNDS], blocked_t[MAX_ROUNDS],
            base_t[MAX_ROUNDS];
        int plain_ok = 1, blocked_ok = 1, base_ok = 1;
        bench_case cb; /* the case's baseline */
        r->have_base = base != NULL && base_case(base, &r->c, &cb);
        int ran = 0; /* rounds timed in full, the first ones */
        for (int round = 0; round < rounds; ++round) {
            /* round 0 fills the results (and checks); later rounds only time */
            bench_opts ro = o;
            ro.check = round == 0 ? o.check : 0;
            acl_result a;
            dnnl_result d;
            acl_result *ar = round == 0 ? &r->acl : &a;
            dnnl_result *dr = round == 0 ? &r->dnnl : &d;
            fprintf(stderr, "[%d/%d] %-20s", i + 1, count, r->c.name);
            if (rounds > 1) fprintf(stderr, " round %d/%d", round + 1, rounds);
            fprintf(stderr, " aclconv...");
            fflush(stderr);
            const int failed = acl_bench_case(&r->c, &ro, stream, ar) != 0;
            if (round == 0) {
                failures += failed;
                if (r->acl.checked && !r->acl.check_ok) ++mismatches;
            }
            if (ar->ok) fprintf(stderr, " %.3f ms", ar->exec.median_ms);
            acl_t[round] = ar->exec;
            if (r->have_base && ar->ok) {
                bench_opts bo = ro;
                bo.check = 0;
                acl_result m;
                acl_result *br = round == 0 ? &r->base : &m;
                fprintf(stderr, ", %s...", base->what);
                fflush(stderr);
                acl_bench_case(&cb, &bo, stream, br);
                if (br->ok) fprintf(stderr, " %.3f ms", br->exec.median_ms);
                base_ok &= br->ok;
                base_t[round] = br->exec;
            }
            if (with_dnnl) {
                fprintf(stderr, ", oneDNN...");
                fflush(stderr);
                dnnl_bench_case(&r->c, &ro, dr);
                r->have_dnnl = 1;
                if (dr->plain.ok) fprintf(stderr, " plain %.3f ms", dr->plain.exec.median_ms);
                if (dr->blocked.ok) fprintf(stderr, " blocked %.3f ms", dr->blocked.exec.median_ms);
                plain_ok &= dr->plain.ok;
                blocked_ok &= dr->blocked.ok;
                plain_t[round] = dr->plain.exec;
                blocked_t[round] = dr->blocked.exec;
            }
            fprintf(stderr, "\n");
            if (failed || !ar->ok) break; /* nothing more to time */
            ++ran;
        }
        if (ran > 1) { /* (a round that failed after the first is left out) */
            merge_rounds(&r->acl.exec, acl_t, ran);
            if (with_dnnl && plain_ok) merge_rounds(&r->dnnl.plain.exec, plain_t, ran);
            if (with_dnnl && blocked_ok) merge_rounds(&r->dnnl.blocked.exec, blocked_t, ran);
            if (r->have_base && base_ok) merge_rounds(&r->base.exec, base_t, ran);
        }
        print_case(i, count, r, &peak, &o, base);
    }
    if (peak_seconds > 0) {
        /* The machine is shared: the start-up value may have caught a busy
         * moment. Measure again and let the summary use the higher one. */
        fprintf(stderr, "measuring the FMA peak again...\n");
        bench_peak end = bench_measure_peak(isa, o.threads, peak_seconds, PEAK_TRIALS);
        printf("\npeak measured again at the end: %.1f GFLOP/s (start %.1f); the summary's %%peak "
               "uses the higher\n",
               end.gflops, peak.gflops);
        if (end.gflops > peak.gflops) peak.gflops = end.gflops;
    }
    print_summary(res, count, &peak, with_dnnl, base, o.check);
    if (markdown) print_markdown(res, count, &peak, with_dnnl, base);
    if (o.check)
        printf("check: %d of %d cases mismatch, %d failed to run\n", mismatches, count, failures);

    free(res);
    free(cases);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return (failures || mismatches) ? 1 : 0;
}
