/* fp32 FMA and vdpbf16ps peak loops. Compiled for the baseline; the loops
 * carry their ISA as a function attribute and run only when cpuid and XGETBV
 * say so. */
#include "bench_peak.h"

#include <immintrin.h>
#include <pthread.h>
#include <stdint.h>

#include "bench_timer.h"
#include "common/cpu.h"

/* Independent accumulator chains: 12 covers FMA latency x throughput
 * (4 cycles x 2 pipes) with margin. Named variables, so they stay in
 * registers (an array of vectors was kept in memory by gcc). */
#define PEAK_CHAINS 12
/* Inner-loop iterations, for the calibration minimum. */
#define PEAK_BLOCK 4096

#define PEAK_BODY(FMA)                                                                             \
    a0 = FMA(a0, m, b);                                                                            \
    a1 = FMA(a1, m, b);                                                                            \
    a2 = FMA(a2, m, b);                                                                            \
    a3 = FMA(a3, m, b);                                                                            \
    a4 = FMA(a4, m, b);                                                                            \
    a5 = FMA(a5, m, b);                                                                            \
    a6 = FMA(a6, m, b);                                                                            \
    a7 = FMA(a7, m, b);                                                                            \
    a8 = FMA(a8, m, b);                                                                            \
    a9 = FMA(a9, m, b);                                                                            \
    a10 = FMA(a10, m, b);                                                                          \
    a11 = FMA(a11, m, b)

__attribute__((target("avx512f"))) static double peak_loop_avx512(uint64_t iters)
{
    __m512 a0 = _mm512_set1_ps(0.0f), a1 = _mm512_set1_ps(0.1f), a2 = _mm512_set1_ps(0.2f),
           a3 = _mm512_set1_ps(0.3f), a4 = _mm512_set1_ps(0.4f), a5 = _mm512_set1_ps(0.5f),
           a6 = _mm512_set1_ps(0.6f), a7 = _mm512_set1_ps(0.7f), a8 = _mm512_set1_ps(0.8f),
           a9 = _mm512_set1_ps(0.9f), a10 = _mm512_set1_ps(1.0f), a11 = _mm512_set1_ps(1.1f);
    const __m512 m = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
    for (uint64_t it = 0; it < iters; ++it) {
        PEAK_BODY(_mm512_fmadd_ps);
    }
    __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)),
                             _mm512_add_ps(_mm512_add_ps(a4, a5), _mm512_add_ps(a6, a7)));
    s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(a8, a9), _mm512_add_ps(a10, a11)));
    float out[16];
    _mm512_storeu_ps(out, s);
    return out[0];
}

__attribute__((target("avx2,fma"))) static double peak_loop_avx2(uint64_t iters)
{
    __m256 a0 = _mm256_set1_ps(0.0f), a1 = _mm256_set1_ps(0.1f), a2 = _mm256_set1_ps(0.2f),
           a3 = _mm256_set1_ps(0.3f), a4 = _mm256_set1_ps(0.4f), a5 = _mm256_set1_ps(0.5f),
           a6 = _mm256_set1_ps(0.6f), a7 = _mm256_set1_ps(0.7f), a8 = _mm256_set1_ps(0.8f),
           a9 = _mm256_set1_ps(0.9f), a10 = _mm256_set1_ps(1.0f), a11 = _mm256_set1_ps(1.1f);
    const __m256 m = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
    for (uint64_t it = 0; it < iters; ++it) {
        PEAK_BODY(_mm256_fmadd_ps);
    }
    __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                             _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
    s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11)));
    float out[8];
    _mm256_storeu_ps(out, s);
    return out[0];
}

/* Independent vdpbf16ps chains: its latency is longer than the FMA's (12
 * chains measured 421 GFLOP/s a core where the BF16 kernel's own step loop
 * ran at 440). */
#define DOT_CHAINS 24

/* DOT_CHAINS chains of vdpbf16ps on constant pairs (bf16 1.0 and 2^-24:
 * the sums stay finite and normal) */
__attribute__((target("avx512f,avx512bf16"))) static double peak_loop_dot(uint64_t iters)
{
    /* named variables, not an array: gcc kept an array in memory */
    __m512 d0 = _mm512_set1_ps(0.0f), d1 = _mm512_set1_ps(0.1f), d2 = _mm512_set1_ps(0.2f),
           d3 = _mm512_set1_ps(0.3f), d4 = _mm512_set1_ps(0.4f), d5 = _mm512_set1_ps(0.5f),
           d6 = _mm512_set1_ps(0.6f), d7 = _mm512_set1_ps(0.7f), d8 = _mm512_set1_ps(0.8f),
           d9 = _mm512_set1_ps(0.9f), d10 = _mm512_set1_ps(1.0f), d11 = _mm512_set1_ps(1.1f),
           d12 = _mm512_set1_ps(1.2f), d13 = _mm512_set1_ps(1.3f), d14 = _mm512_set1_ps(1.4f),
           d15 = _mm512_set1_ps(1.5f), d16 = _mm512_set1_ps(1.6f), d17 = _mm512_set1_ps(1.7f),
           d18 = _mm512_set1_ps(1.8f), d19 = _mm512_set1_ps(1.9f), d20 = _mm512_set1_ps(2.0f),
           d21 = _mm512_set1_ps(2.1f), d22 = _mm512_set1_ps(2.2f), d23 = _mm512_set1_ps(2.3f);
    const __m512bh m = (__m512bh)_mm512_set1_epi32(0x3f803f80), /* (1.0, 1.0) */
        b = (__m512bh)_mm512_set1_epi32(0x33803380);            /* (2^-24, 2^-24) */
    for (uint64_t it = 0; it < iters; ++it) {
        d0 = _mm512_dpbf16_ps(d0, m, b);
        d1 = _mm512_dpbf16_ps(d1, m, b);
        d2 = _mm512_dpbf16_ps(d2, m, b);
        d3 = _mm512_dpbf16_ps(d3, m, b);
        d4 = _mm512_dpbf16_ps(d4, m, b);
        d5 = _mm512_dpbf16_ps(d5, m, b);
        d6 = _mm512_dpbf16_ps(d6, m, b);
        d7 = _mm512_dpbf16_ps(d7, m, b);
        d8 = _mm512_dpbf16_ps(d8, m, b);
        d9 = _mm512_dpbf16_ps(d9, m, b);
        d10 = _mm512_dpbf16_ps(d10, m, b);
        d11 = _mm512_dpbf16_ps(d11, m, b);
        d12 = _mm512_dpbf16_ps(d12, m, b);
        d13 = _mm512_dpbf16_ps(d13, m, b);
        d14 = _mm512_dpbf16_ps(d14, m, b);
        d15 = _mm512_dpbf16_ps(d15, m, b);
        d16 = _mm512_dpbf16_ps(d16, m, b);
        d17 = _mm512_dpbf16_ps(d17, m, b);
        d18 = _mm512_dpbf16_ps(d18, m, b);
        d19 = _mm512_dpbf16_ps(d19, m, b);
        d20 = _mm512_dpbf16_ps(d20, m, b);
        d21 = _mm512_dpbf16_ps(d21, m, b);
        d22 = _mm512_dpbf16_ps(d22, m, b);
        d23 = _mm512_dpbf16_ps(d23, m, b);
    }
    const __m512 s[DOT_CHAINS] = {d0,  d1,  d2,  d3,  d4,  d5,  d6,  d7,  d8,  d9,  d10, d11,
                                  d12, d13, d14, d15, d16, d17, d18, d19, d20, d21, d22, d23};
    __m512 t = s[0];
    for (int i = 1; i < DOT_CHAINS; ++i)
        t = _mm512_add_ps(t, s[i]);
    float out[16];
    _mm512_storeu_ps(out, t);
    return out[0];
}

typedef enum { LOOP_AVX2, LOOP_AVX512, LOOP_DOT } peak_kind;

typedef struct peak_job {
    peak_kind kind;
    uint64_t iters;
    volatile double sink;
    pthread_barrier_t *start;
} peak_job;

static void *peak_thread(void *arg)
{
    peak_job *j = arg;
    pthread_barrier_wait(j->start);
    j->sink = j->kind == LOOP_DOT      ? peak_loop_dot(j->iters)
              : j->kind == LOOP_AVX512 ? peak_loop_avx512(j->iters)
                                       : peak_loop_avx2(j->iters);
    return NULL;
}

/* FLOPs of one iteration of the loop on one thread. */
static double flops_per_iter(peak_kind kind)
{
    return kind == LOOP_DOT ? 4.0 * DOT_CHAINS * 16
                            : 2.0 * PEAK_CHAINS * (kind == LOOP_AVX2 ? 8 : 16);
}

/* Runs iters on every thread; returns the wall time of the slowest. */
static double run_threads(peak_kind kind, int threads, uint64_t iters)
{
    enum { MAX_THREADS = 256 };
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    pthread_t tid[MAX_THREADS];
    peak_job job[MAX_THREADS];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
    int started = 0;
    for (int t = 0; t < threads; ++t) {
        job[t] = (peak_job){kind, iters, 0.0, &start};
        if (pthread_create(&tid[t], NULL, peak_thread, &job[t]) != 0) break;
        ++started;
    }
    if (started < threads) {
        /* cannot happen in practice; run what we have on this thread's share */
        threads = started;
    }
    double t0 = bench_now();
    pthread_barrier_wait(&start);
    for (int t = 0; t < started; ++t)
        pthread_join(tid[t], NULL);
    double t1 = bench_now();
    pthread_barrier_destroy(&start);
    return t1 - t0;
}

static bench_peak measure(peak_kind kind, int threads, double seconds_per_trial, int trials)
{
    bench_peak r = {0.0,
                    kind == LOOP_DOT      ? "avx512bf16"
                    : kind == LOOP_AVX512 ? "avx512"
                                          : "avx2",
                    threads};
    /* calibrate on one thread */
    uint64_t iters = 1u << 16;
    double t = 0.0;
    for (;;) {
        t = run_threads(kind, 1, iters);
        if (t > 0.02 || iters > (1ull << 40)) break;
        iters *= 4;
    }
    uint64_t target = (uint64_t)((double)iters * seconds_per_trial / t);
    if (target < PEAK_BLOCK) target = PEAK_BLOCK;
    for (int i = 0; i < trials; ++i) {
        double w = run_threads(kind, threads, target);
        double g = flops_per_iter(kind) * (double)target * threads / w * 1e-9;
        if (g > r.gflops) r.gflops = g;
    }
    return r;
}

bench_peak bench_measure_peak(aclconvIsa isa, int threads, double seconds_per_trial, int trials)
{
    /* the library's detection (cpuid and XGETBV) bounds the loop */
    const aclconvIsa have = cpu_detected_isa();
    if (isa < ACLCONV_ISA_AVX2 || isa > have) isa = have;
    if (isa < ACLCONV_ISA_AVX2) return (bench_peak){0.0, "none", threads};
    return measure(isa >= ACLCONV_ISA_AVX512 ? LOOP_AVX512 : LOOP_AVX2, threads, seconds_per_trial,
                   trials);
}

bench_peak bench_measure_dot_peak(int threads, double seconds_per_trial, int trials)
{
    if (!cpu_has_bf16_dot(cpu_detected_isa())) return (bench_peak){0.0, "none", threads};
    return measure(LOOP_DOT, threads, seconds_per_trial, trials);
}
