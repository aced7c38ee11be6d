/*
 * aclconv_amx_probe: what TDPBF16PS (AMX-BF16) computes on this CPU, and how
 * fast, before any engine path uses it (docs/performance.md, "Session 51").
 *
 * Order: random normal bf16 tiles A (16 x 32) and B (16 pair rows x 16
 * pairs) and fp32 C, one instruction, each of the 256 results compared bit
 * for bit with models written with fmaf:
 *   pairs      per pair k: c += a0*b0, then c += a1*b1 (vdpbf16ps' order
 *              with the positions swapped; docs/kernels.md, "BF16 pairs")
 *   pairs-odd  the same, a1*b1 first (vdpbf16ps' order)
 *   chains     two chains from +0: e += a0*b0 and o += a1*b1 over k in
 *              order, then c + (e + o) (the SDM's current pseudo-code)
 *   once       c + the exact sum of the 32 products, rounded once
 * Spreads of the exponents (0, 3, 10, 20 binades) keep partial sums normal.
 * Rate: tiles in registers (four C tiles, two A, two B: 2 x 2 blocking), in
 * fp32-equivalent GFLOP/s of one thread (2 flops a product).
 *
 * Needs a compiler with -mamx-tile -mamx-bf16 (bench/CMakeLists.txt builds
 * it only then) and Linux's permission for the tile data (arch_prctl
 * ARCH_REQ_XCOMP_PERM); exits 77 where the CPU or the OS has no AMX.
 */
#include <cpuid.h>
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/dtype.h"

#define ARCH_REQ_XCOMP_PERM 0x1023
#define XFEATURE_XTILEDATA 18
/* CPUID.(7,0):EDX */
#define CPUID7_EDX_AMX_BF16 (1u << 22)
#define CPUID7_EDX_AMX_TILE (1u << 24)

typedef struct {
    uint8_t palette, start_row, reserved[14];
    uint16_t colsb[16];
    uint8_t rows[16];
} tile_config;

static uint64_t g_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_u64(void)
{
    g_state ^= g_state << 13;
    g_state ^= g_state >> 7;
    g_state ^= g_state << 17;
    return g_state;
}

/* a random sign, exponent within spread binades of 1 and fraction */
static uint32_t random_bits(int spread, int fraction_bits)
{
    const int e = 127 + (int)(next_u64() % (uint64_t)(2 * spread + 1)) - spread;
    const uint32_t frac = (uint32_t)next_u64() & ((1u << fraction_bits) - 1);
    return (uint32_t)(next_u64() & 1) << 31 | (uint32_t)e << 23 | frac << (23 - fraction_bits);
}

static int has_amx(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, NULL) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    const unsigned need = CPUID7_EDX_AMX_BF16 | CPUID7_EDX_AMX_TILE;
    if ((d & need) != need) return 0;
    return syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) == 0;
}

static void configure(int tiles)
{
    tile_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.palette = 1;
    for (int t = 0; t < tiles; ++t) {
        cfg.rows[t] = 16;
        cfg.colsb[t] = 64;
    }
    _tile_loadconfig(&cfg);
}

enum { MODEL_PAIRS, MODEL_PAIRS_ODD, MODEL_CHAINS, MODEL_ONCE, MODELS };
static const char *const k_models[MODELS] = {"pairs", "pairs-odd", "chains", "once"};

static void check_order(int spread, int trials)
{
    static uint16_t A[16][32], B[16][32];
    static float C[16][16], R[16][16];
    long equal[MODELS] = {0}, total = 0;
    for (int t = 0; t < trials; ++t) {
        for (int m = 0; m < 16; ++m)
            for (int k = 0; k < 32; ++k)
                A[m][k] = (uint16_t)(random_bits(spread, 7) >> 16);
        for (int k = 0; k < 16; ++k)
            for (int n = 0; n < 32; ++n)
                B[k][n] = (uint16_t)(random_bits(spread, 7) >> 16);
        for (int m = 0; m < 16; ++m)
            for (int n = 0; n < 16; ++n)
                C[m][n] = f32_from_bits(random_bits(spread, 23));
        _tile_loadd(0, C, 64);
        _tile_loadd(1, A, 64);
        _tile_loadd(2, B, 64);
        _tile_dpbf16ps(0, 1, 2);
        _tile_stored(0, R, 64);
        for (int m = 0; m < 16; ++m)
            for (int n = 0; n < 16; ++n) {
                float pe = C[m][n], po = C[m][n], e = 0.0f, o = 0.0f;
                /* x87's 64-bit significand: exact while the products
                 * span fewer bits (not at spread 20) */
                long double exact = 0.0L;
                for (int k = 0; k < 16; ++k) {
                    const float a0 = bf16_to_f32(A[m][2 * k]), a1 = bf16_to_f32(A[m][2 * k + 1]);
                    const float b0 = bf16_to_f32(B[k][2 * n]), b1 = bf16_to_f32(B[k][2 * n + 1]);
                    pe = fmaf(a1, b1, fmaf(a0, b0, pe));
                    po = fmaf(a0, b0, fmaf(a1, b1, po));
                    e = fmaf(a0, b0, e);
                    o = fmaf(a1, b1, o);
                    exact += (long double)a0 * b0 + (long double)a1 * b1;
                }
                const float model[MODELS] = {pe, po, C[m][n] + (e + o),
                                             (float)(exact + (long double)C[m][n])};
                for (int i = 0; i < MODELS; ++i)
                    equal[i] += f32_bits(model[i]) == f32_bits(R[m][n]);
                ++total;
            }
    }
    printf("order, exponents within %2d binades, %ld results:", spread, total);
    for (int i = 0; i < MODELS; ++i)
        printf("  %s %.4f", k_models[i], (double)equal[i] / (double)total);
    printf("\n");
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void measure_rate(long iterations)
{
    static uint16_t A[2][16][32], B[2][16][32];
    static float C[4][16][16];
    memset(A, 0, sizeof A);
    memset(B, 0, sizeof B);
    memset(C, 0, sizeof C);
    /* (tile numbers are immediates) */
    _tile_loadd(0, C[0], 64);
    _tile_loadd(1, C[1], 64);
    _tile_loadd(2, C[2], 64);
    _tile_loadd(3, C[3], 64);
    _tile_loadd(4, A[0], 64);
    _tile_loadd(5, A[1], 64);
    _tile_loadd(6, B[0], 64);
    _tile_loadd(7, B[1], 64);
    const double t0 = now_seconds();
    for (long i = 0; i < iterations; ++i) {
        _tile_dpbf16ps(0, 4, 6);
        _tile_dpbf16ps(1, 4, 7);
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
    }
    _tile_stored(0, C[0], 64); /* (keeps the loop's results live) */
    _tile_stored(1, C[1], 64);
    _tile_stored(2, C[2], 64);
    _tile_stored(3, C[3], 64);
    const double s = now_seconds() - t0;
    const double flops = 4.0 * (double)iterations * 16 * 16 * 32 * 2;
    printf("rate, tiles in registers (2 x 2 blocking, one thread): %.0f GFLOP/s, %.2f ns per "
           "instruction\n",
           flops / s * 1e-9, s * 1e9 / (4.0 * (double)iterations));
}

int main(void)
{
    if (!has_amx()) {
        printf("SKIP: no AMX-BF16 (CPU or OS)\n");
        return 77;
    }
    configure(8);
    const int spreads[] = {0, 3, 10, 20};
    for (size_t i = 0; i < sizeof spreads / sizeof spreads[0]; ++i)
        check_order(spreads[i], 4000);
    measure_rate(20 * 1000 * 1000);
    _tile_release();
    return 0;
}
