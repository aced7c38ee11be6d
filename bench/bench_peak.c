/* fp32 FMA peak loops. Compiled for the baseline; the two loops carry their
 * ISA as a function attribute and run only when cpuid and XGETBV say so. */
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

typedef struct peak_job {
    int avx512;
    uint64_t iters;
    volatile double sink;
    pthread_barrier_t *start;
} peak_job;

static void *peak_thread(void *arg)
{
    peak_job *j = arg;
    pthread_barrier_wait(j->start);
    j->sink = j->avx512 ? peak_loop_avx512(j->iters) : peak_loop_avx2(j->iters);
    return NULL;
}

/* FLOPs of one iteration of the loop on one thread. */
static double flops_per_iter(int avx512)
{
    return 2.0 * PEAK_CHAINS * (avx512 ? 16 : 8);
}

/* Runs iters on every thread; returns the wall time of the slowest. */
static double run_threads(int avx512, int threads, uint64_t iters)
{
    enum { MAX_THREADS = 256 };
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    pthread_t tid[MAX_THREADS];
    peak_job job[MAX_THREADS];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
    int started = 0;
    for (int t = 0; t < threads; ++t) {
        job[t] = (peak_job){avx512, iters, 0.0, &start};
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

bench_peak bench_measure_peak(int threads, double seconds_per_trial, int trials)
{
    bench_peak r = {0.0, "none", threads};
    /* the library's detection: cpuid and XGETBV, ignoring ACLCONV_ISA caps */
    const aclconvIsa isa = cpu_detected_isa();
    int avx512 = isa >= ACLCONV_ISA_AVX512;
    int avx2 = isa >= ACLCONV_ISA_AVX2;
    if (!avx512 && !avx2) return r;
    r.isa = avx512 ? "avx512" : "avx2";
    /* calibrate on one thread */
    uint64_t iters = 1u << 16;
    double t = 0.0;
    for (;;) {
        t = run_threads(avx512, 1, iters);
        if (t > 0.02 || iters > (1ull << 40)) break;
        iters *= 4;
    }
    uint64_t target = (uint64_t)((double)iters * seconds_per_trial / t);
    if (target < PEAK_BLOCK) target = PEAK_BLOCK;
    for (int i = 0; i < trials; ++i) {
        double w = run_threads(avx512, threads, target);
        double g = flops_per_iter(avx512) * (double)target * threads / w * 1e-9;
        if (g > r.gflops) r.gflops = g;
    }
    return r;
}
