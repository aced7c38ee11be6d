/* The machine's fp32 FMA peak, measured: every thread runs a loop of
 * independent vector FMAs (AVX-512 if the CPU and OS have it, else AVX2+FMA). */
#ifndef ACLCONV_BENCH_PEAK_H_
#define ACLCONV_BENCH_PEAK_H_

typedef struct bench_peak {
    double gflops;   /* all threads together; 0 when no FMA ISA */
    const char *isa; /* "avx512", "avx2" or "none" */
    int threads;
} bench_peak;

/* Runs about seconds_per_trial on `threads` threads, best of `trials`. */
bench_peak bench_measure_peak(int threads, double seconds_per_trial, int trials);

/* The same for vdpbf16ps (two bf16 products and their sum a lane: 4 FLOPs),
 * the BF16 pair kernels' instruction; isa "avx512bf16", or gflops 0 and
 * isa "none" where the CPU lacks it. */
bench_peak bench_measure_dot_peak(int threads, double seconds_per_trial, int trials);

#endif /* ACLCONV_BENCH_PEAK_H_ */
