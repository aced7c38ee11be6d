/* The machine's fp32 FMA peak, measured: every thread runs a loop of
 * independent vector FMAs of the ISA the kernels run (AVX-512 or AVX2+FMA). */
#ifndef ACLCONV_BENCH_PEAK_H_
#define ACLCONV_BENCH_PEAK_H_

#include "aclconv/aclconv.h"

typedef struct bench_peak {
    double gflops;   /* all threads together; 0 when no FMA ISA */
    const char *isa; /* "avx512", "avx2" or "none" */
    int threads;
} bench_peak;

/* Runs about seconds_per_trial on `threads` threads, best of `trials`, with
 * the FMA loop of `isa` (capped by what the CPU has: an AVX2 run's kernels
 * against AVX2's peak, half of AVX-512's on a full-width AVX-512 core); the
 * scalar ISA gets the CPU's own vector peak, its kernels' ceiling. */
bench_peak bench_measure_peak(aclconvIsa isa, int threads, double seconds_per_trial, int trials);

/* The same for vdpbf16ps (two bf16 products and their sum a lane: 4 FLOPs),
 * the BF16 pair kernels' instruction; isa "avx512bf16", or gflops 0 and
 * isa "none" where the CPU lacks it. */
bench_peak bench_measure_dot_peak(int threads, double seconds_per_trial, int trials);

#endif /* ACLCONV_BENCH_PEAK_H_ */
