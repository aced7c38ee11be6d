/* aclconv_dw_plane_bench: dw_3x3's fused depthwise run (both gradients) as
 * its kernels see it, plane after plane, with the planes in L1, L2, L3 or
 * memory: per plane the data kernel (gradInput into a slot), the slot
 * streamed out (f32_copy_nt), the weights kernel (x and dy), the planes two
 * ahead asked for into L2 by the weights calls, as conv_dw.c's fused loop
 * does. Each thread runs its own planes at the same time as the others (on
 * two threads the planes from memory compete for bandwidth as in the pass).
 * Prints wall-clock nanoseconds per plane (the slowest thread, the fastest
 * of the trials) for mode 0 and the fp32 rounded kinds (HF32, FLOAT16) side
 * by side: what the rounding costs once memory is in the picture, which the
 * in-cache kernel benchmark does not show (docs/performance.md, "Session
 * 28"). Both kernels round in their windows here, as HF32's fused pass does;
 * FLOAT16's fused pass rounds dy into a copy for both first (conv_dw.c,
 * dw_fuse_data). AVX-512 only; never part of `make test`.
 *
 *   aclconv_dw_plane_bench [--threads T] [--trials N] [--planes-per-trial M] [--no-stream]
 *
 * gradInput's streamed lines go to memory whichever level the planes are
 * read from; --no-stream leaves each plane in the slot (no writes to memory).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_timer.h"
#include "common/cpu.h"
#include "kernels/cvt_ukernels.h"
#include "kernels/dw_ukernels.h"

enum { H = 28, W = 28, PLANE = H * W };

typedef struct plane_job {
    size_t planes; /* planes cycled through: where they live */
    int kind;      /* DW_SRC_F32, DW_SRC_F32_HF32 or DW_SRC_F32_F16 */
    size_t visits; /* planes computed per trial */
    bool stream;   /* gradInput streamed out; else left in the slot */
    float *x, *dy, *gi, *slot, *acc;
    double seconds;
    pthread_barrier_t *start;
} plane_job;

static void *xalloc(size_t bytes)
{
    void *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* A 28x28 plane's source for the kernels, kind its, with the taps of a
 * 3x3 kernel at padding 1 (stored in tp): step +1 (the weights kernel's x)
 * or -1 (the data kernel's dy, gradInput's taps). */
typedef struct plane_taps {
    const float *x[9];
    ptrdiff_t dh[9], dw[9];
} plane_taps;

static f32_dwrow_src plane_src(int step, const float *plane, int kind, plane_taps *tp)
{
    for (int t = 0; t < 9; ++t) {
        tp->x[t] = plane;
        tp->dh[t] = step > 0 ? t / 3 - 1 : 1 - t / 3;
        tp->dw[t] = step > 0 ? t % 3 - 1 : 1 - t % 3;
    }
    return (f32_dwrow_src){.x = tp->x,
                           .dh = tp->dh,
                           .dw = tp->dw,
                           .nt = 9,
                           .ih = H,
                           .iw = W,
                           .rs = W,
                           .src_kind = kind,
                           .dy_kind = kind};
}

static void *run_job(void *arg)
{
    plane_job *j = arg;
    static const float wk[9] = {0.1f, -0.2f, 0.3f, 0.05f, 0.5f, -0.25f, 0.125f, 0.75f, -0.5f};
    plane_taps dt, wt;
    pthread_barrier_wait(j->start);
    const double t0 = bench_now();
    for (size_t i = 0; i < j->visits; ++i) {
        const size_t p = i % j->planes, q = (i + 2) % j->planes;
        const float *xp = j->x + p * PLANE, *dp = j->dy + p * PLANE;
        const f32_dwrow_src d = plane_src(-1, dp, j->kind, &dt);
        f32_dwrow_src s = plane_src(1, xp, j->kind, &wt);
        /* x's and dy's planes two ahead, into L2 (wt_planes_ahead) */
        s.pf = (ukernel_prefetch){
            {(const char *)(j->x + q * PLANE), (const char *)(j->dy + q * PLANE)},
            {ukernel_lines(PLANE * sizeof(float)), ukernel_lines(PLANE * sizeof(float))},
            1};
        f32_dwrow_ukernel_4x32__avx512(H, W, &d, wk, j->slot, W);
        if (j->stream) f32_copy_nt_ukernel__avx512(PLANE, j->slot, j->gi + p * PLANE);
        f32_dwrowwt_ukernel_12x32__avx512(H, W, &s, dp, W, j->acc);
    }
    store_fence__avx2(); /* an sfence, whatever the ISA */
    j->seconds = bench_now() - t0;
    return NULL;
}

static const struct {
    int kind;
    const char *name;
} kinds[] = {{DW_SRC_F32, "mode 0"}, {DW_SRC_F32_HF32, "HF32"}, {DW_SRC_F32_F16, "FLOAT16"}};

/* one plane: L1; 32 planes (x, dy, gradInput: ~300 KB): L2; 512 (~5 MB):
 * L3; 16384 (~150 MB a thread): memory */
static const struct {
    size_t planes;
    const char *where;
} sources[] = {{1, "L1"}, {32, "L2"}, {512, "L3"}, {16384, "memory"}};

enum {
    KINDS = sizeof kinds / sizeof kinds[0],
    SOURCES = sizeof sources / sizeof sources[0],
    MAX_THREADS = 16
};

static void job_init(plane_job *j, size_t planes, size_t visits, bool stream,
                     pthread_barrier_t *start)
{
    *j = (plane_job){.planes = planes, .visits = visits, .stream = stream, .start = start};
    j->x = xalloc(planes * PLANE * sizeof(float));
    j->dy = xalloc(planes * PLANE * sizeof(float));
    j->gi = xalloc(planes * PLANE * sizeof(float));
    j->slot = xalloc((PLANE + DW_ACC_LANES) * sizeof(float));
    j->acc = xalloc(9 * DW_ACC_LANES * sizeof(float));
    for (size_t i = 0; i < planes * PLANE; ++i) {
        j->x[i] = 1e-3f * (float)(i % 97) - 0.04f;
        j->dy[i] = 1e-3f * (float)(i % 89) - 0.05f;
        j->gi[i] = 0.0f;
    }
    memset(j->acc, 0, 9 * DW_ACC_LANES * sizeof(float));
}

static void job_free(plane_job *j)
{
    free(j->x);
    free(j->dy);
    free(j->gi);
    free(j->slot);
    free(j->acc);
}

/* Seconds of the slowest of `threads` jobs run at once, kind given. */
static double run_once(plane_job *jobs, int threads, int kind, pthread_barrier_t *start)
{
    pthread_t tid[MAX_THREADS];
    pthread_barrier_init(start, NULL, (unsigned)threads);
    for (int t = 0; t < threads; ++t) {
        jobs[t].kind = kind;
        if (pthread_create(&tid[t], NULL, run_job, &jobs[t]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            exit(1);
        }
    }
    double slowest = 0;
    for (int t = 0; t < threads; ++t) {
        pthread_join(tid[t], NULL);
        if (jobs[t].seconds > slowest) slowest = jobs[t].seconds;
    }
    pthread_barrier_destroy(start);
    return slowest;
}

int main(int argc, char **argv)
{
    int threads = 2, trials = 7;
    size_t visits = 100000;
    bool stream = true;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--trials") && i + 1 < argc)
            trials = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-stream"))
            stream = false;
        else if (!strcmp(argv[i], "--planes-per-trial") && i + 1 < argc)
            visits = (size_t)atoll(argv[++i]);
        else {
            fprintf(stderr,
                    "usage: %s [--threads T] [--trials N] [--planes-per-trial M] [--no-stream]\n",
                    argv[0]);
            return 2;
        }
    }
    if (threads < 1 || threads > MAX_THREADS || trials < 1 || visits < 1) {
        fprintf(stderr, "threads 1-16, trials and planes at least 1\n");
        return 2;
    }
    if (cpu_detected_isa() != ACLCONV_ISA_AVX512) {
        fprintf(stderr, "needs AVX-512 (the row-window kernels)\n");
        return 0;
    }
    /* every trial runs every (source, kind) in turn: a slow stretch of a
     * shared host hits them alike, and the fastest trial of each is kept */
    static plane_job jobs[SOURCES][MAX_THREADS];
    pthread_barrier_t start;
    for (size_t s = 0; s < SOURCES; ++s)
        for (int t = 0; t < threads; ++t)
            job_init(&jobs[s][t], sources[s].planes, visits, stream, &start);
    double ns[SOURCES][KINDS];
    for (int trial = 0; trial < trials; ++trial)
        for (size_t s = 0; s < SOURCES; ++s)
            for (size_t k = 0; k < KINDS; ++k) {
                const double v =
                    run_once(jobs[s], threads, kinds[k].kind, &start) / (double)visits * 1e9;
                if (trial == 0 || v < ns[s][k]) ns[s][k] = v;
            }
    printf("dw_3x3's fused run per 28x28 plane (data kernel, %s, weights kernel), %d thread(s) "
           "at once, ns per plane (the fastest of %d trials)\n",
           stream ? "gradInput streamed out" : "gradInput left in the slot", threads, trials);
    printf("%-8s", "planes");
    for (size_t k = 0; k < KINDS; ++k)
        printf(" %10s", kinds[k].name);
    printf("   rounded / mode 0\n");
    for (size_t s = 0; s < SOURCES; ++s) {
        printf("%-8s", sources[s].where);
        for (size_t k = 0; k < KINDS; ++k)
            printf(" %10.1f", ns[s][k]);
        printf("   %.2f %.2f\n", ns[s][1] / ns[s][0], ns[s][2] / ns[s][0]);
        for (int t = 0; t < threads; ++t)
            job_free(&jobs[s][t]);
    }
    return 0;
}
