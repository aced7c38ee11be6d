/* What the benchmark measures and how: options, timing loop, results. */
#ifndef ACLCONV_BENCH_RUN_H_
#define ACLCONV_BENCH_RUN_H_

#include <stdint.h>

#include "bench_case.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    BENCH_CHECK_AUTO,   /* every element of small cases, samples of big ones */
    BENCH_CHECK_FULL,   /* every element (shared reference), whatever the size */
    BENCH_CHECK_SAMPLED /* samples only */
};

typedef struct bench_opts {
    int threads;             /* aclconv pool and oneDNN */
    int max_reps;            /* timed runs at most (--reps) */
    double min_time;         /* stop timing once the timed runs add up to this (--min-time, s) */
    double max_case_seconds; /* per measured variant: stop adding runs after this (s) */
    int plan_reps;           /* GetWorkspaceSize calls timed (median) */
    int check;               /* --check */
    int check_samples;       /* sampled elements per output for big cases */
    int check_mode;          /* BENCH_CHECK_*: which elements --check compares */
    double ws_bound;         /* workspace bound, as a multiple of the call's tensor bytes */
    uint64_t seed;
    int verbose;
} bench_opts;

/* Result of timing one callable. */
typedef struct bench_timing {
    double median_ms, min_ms;
    int reps;   /* timed runs (the warm-up run when capped before any) */
    int capped; /* --max-case-seconds stopped the repetitions */
} bench_timing;

/* Runs fn once to warm up, then repeatedly (see bench_opts) and returns the
 * median. fn returns 0 on success; a failure stops timing and is returned. */
int bench_time(int (*fn)(void *), void *arg, const bench_opts *o, bench_timing *t);

/* ---- aclconv ------------------------------------------------------------- */

typedef struct acl_result {
    int ok;
    char err[512];
    double plan_ms;
    bench_timing exec;
    uint64_t workspace;
    uint64_t tensor_bytes; /* operands + requested outputs of the call */
    char impl[2][48];      /* gradInput, gradWeight ("-": not computed) */
    /* --check */
    int checked; /* 1 when the check ran */
    int check_ok;
    int check_full;   /* 1: every element compared, 0: sampled */
    double check_err; /* max |got - ref| / sum|terms| over the compared elements */
    double check_tol; /* the tolerance that err is held to */
    int check_tol_out; /* ... plus, per element, the output dtype's rounding of |reference| */
    double check_rel; /* max |got - ref| / max |ref| of the tensor */
    char check_msg[256];
} acl_result;

/* Benchmarks c with aclconv through the public API (stream already set up). */
int acl_bench_case(const bench_case *c, const bench_opts *o, void *stream, acl_result *r);

/* ---- oneDNN -------------------------------------------------------------- */

typedef struct dnnl_variant {
    int ok;
    char err[256];
    bench_timing exec;  /* backward data + backward weights (+bias), per mask */
    char impl_data[64]; /* impl_info_str of the primitives */
    char impl_weights[64];
} dnnl_variant;

typedef struct dnnl_result {
    dnnl_variant plain;   /* plain layouts (ncdhw / oidhw ...) as aclnn has them */
    dnnl_variant blocked; /* format_tag::any: the primitive's own layouts, reorders excluded */
} dnnl_result;

/* 1 when the benchmark was built with oneDNN. */
int dnnl_bench_available(void);
/* Version and CPU runtime, e.g. "oneDNN 2.6.3 (cpu runtime OpenMP)". */
const char *dnnl_bench_describe(void);
/* Sets oneDNN's thread count (OpenMP: omp_set_num_threads). */
void dnnl_bench_set_threads(int threads);
int dnnl_bench_case(const bench_case *c, const bench_opts *o, dnnl_result *r);

#ifdef __cplusplus
}
#endif

#endif /* ACLCONV_BENCH_RUN_H_ */
