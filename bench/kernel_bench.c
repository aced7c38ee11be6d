/* aclconv_kernel_bench: the fast engine's microkernels on data in cache, one
 * thread, timed by thread CPU time (robust against other work on a shared
 * machine, which wall-clock medians are not), against the FMA peak measured
 * the same way. What a kernel reaches here is its ceiling; what the engine
 * loses below it is in the memory traffic around the calls
 * (docs/performance.md). Never part of `make test`.
 *
 *   aclconv_kernel_bench [--isa scalar|avx2|avx512] [--seconds S]
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_peak.h"
#include "common/cpu.h"
#include "kernels/conv_ukernels.h"
#include "kernels/dw_ukernels.h"
#include "kernels/grp_ukernels.h"

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static float *filled(size_t n)
{
    float *p = malloc((n + CONV_UKERNEL_SLACK) * sizeof(float));
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n + CONV_UKERNEL_SLACK; ++i)
        p[i] = 1e-3f * (float)(i % 97) - 0.04f;
    return p;
}

/* One case: fn runs `calls` kernel calls and returns their FLOPs. */
typedef double (*case_fn)(const conv_ukernels *k, int calls);

/* The slab of a 3x3 layer with 64 input channels, 4 rows of 58 (56 + padding)
 * per channel: every tile of two output rows, the data pass's order. */
enum { CH = 64, WP = 58, HP = 4, CS = HP * WP, NT = 9, SPAN = 2 * WP };
static ptrdiff_t g_toff[NT];
static float *g_w, *g_x, *g_y;

/* Every tile of the slab, nt of its taps, x rounded as loaded for kind. */
static double conv_tiles(const conv_ukernels *k, int calls, size_t nt, int kind)
{
    double flops = 0;
    for (int c = 0; c < calls; ++c)
        for (int j0 = 0; j0 + k->conv_nr <= SPAN; j0 += k->conv_nr) {
            k->conv((size_t)k->conv_mr, (size_t)k->conv_nr, CH, nt, g_w, g_x + j0, CS, g_toff,
                    g_y + j0, SPAN, 0, kind);
            flops += 2.0 * k->conv_mr * k->conv_nr * CH * (double)nt;
        }
    return flops;
}

static double run_conv(const conv_ukernels *k, int calls)
{
    return conv_tiles(k, calls, NT, F32_ROUND_NONE);
}

/* The same kernel rounding x for HF32 as it loads it (the data pass's
 * kernel_rounds: at most FAST_KERNEL_ROUND_TAPS taps), over two taps: the
 * rounding, not the multiply-adds, then sets the rate (docs/kernels.md,
 * kernel_spills.py). */
static double run_conv_hf32(const conv_ukernels *k, int calls)
{
    return conv_tiles(k, calls, 2, F32_ROUND_HF32);
}

/* rows of 56: tiles of 14 (the engine's), or the kernel's widest if narrower */
static int cv_tile(const conv_ukernels *k)
{
    return k->convcv_nr < 14 ? k->convcv_nr : 14;
}

static double run_convcv(const conv_ukernels *k, int calls)
{
    double flops = 0;
    const int nr = cv_tile(k);
    for (int c = 0; c < calls; ++c)
        for (int j0 = 0; j0 + nr <= SPAN; j0 += nr) {
            k->convcv((size_t)k->convcv_mr, (size_t)nr, CH, NT, NT, g_w, g_x + j0, CS, g_toff, NULL,
                      g_y + j0, SPAN, 1, 0, CONVCV_Y_F32);
            flops += 2.0 * k->convcv_mr * nr * CH * NT;
        }
    return flops;
}

/* r18_c5_3x3's data pass (512 dy channels of 7 x 7, padded rows of 9): a
 * channel block's panel (512 x 9 x MR floats, L2) over the 7 rows of an
 * image, a call a row of 7 (every tap: the bench leaves out no border
 * taps); nr 14 runs the same calls over two rows' span (junk columns: the
 * tile shape's rate, not the pass). */
enum { R18_C = 512, R18_W = 9, R18_CS = R18_W * R18_W };
static float *g_r18w, *g_r18x;
static ptrdiff_t g_r18off[NT];

static double run_convcv_r18(const conv_ukernels *k, int calls, size_t nr)
{
    double flops = 0;
    for (int c = 0; c < calls; ++c)
        for (size_t j0 = 0; j0 + nr <= 7 * R18_W; j0 += nr == 7 ? R18_W : nr) {
            k->convcv((size_t)k->convcv_mr, nr, R18_C, NT, NT, g_r18w, g_r18x + j0, R18_CS,
                      g_r18off, NULL, g_y + j0, 7 * R18_W, 1, 0, CONVCV_Y_F32);
            flops += 2.0 * k->convcv_mr * (double)nr * R18_C * NT;
        }
    return flops;
}

static double run_convcv_r18_7(const conv_ukernels *k, int calls)
{
    return run_convcv_r18(k, calls, 7);
}

/* The pass's panels: 16 channel blocks' panels (9.4 MB, L3) in turn, each
 * over an image's 7 rows, calls of 7 (as fast as one panel in L2: the
 * panels' trips from L3 cost the data pass nothing). */
static float *g_r18all;
static double run_convcv_r18_l3(const conv_ukernels *k, int calls)
{
    double flops = 0;
    const size_t panel = (size_t)R18_C * NT * 32;
    for (int c = 0; c < calls; ++c)
        for (size_t mb = 0; mb < 16; ++mb)
            for (size_t j0 = 0; j0 < 7 * R18_W; j0 += R18_W) {
                k->convcv((size_t)k->convcv_mr, 7, R18_C, NT, NT, g_r18all + mb * panel,
                          g_r18x + j0, R18_CS, g_r18off, NULL, g_y + j0, 7 * R18_W, 1, 0,
                          CONVCV_Y_F32);
                flops += 2.0 * k->convcv_mr * 7.0 * R18_C * NT;
            }
    return flops;
}

static double run_convcv_r18_14(const conv_ukernels *k, int calls)
{
    return run_convcv_r18(k, calls, 14);
}

/* The same over BF16 channel pairs: 32 pairs of the same slab (its fp32
 * bits read as pairs of small normal bf16 values), the same products. */
static bf16_convcv_ukernel_fn g_bf16_cv;

static double run_bf16_convcv(const conv_ukernels *k, int calls)
{
    double flops = 0;
    const int nr = 14;
    for (int c = 0; c < calls; ++c)
        for (int j0 = 0; j0 + nr <= SPAN; j0 += nr) {
            g_bf16_cv((size_t)k->bf16_convcv_mr, (size_t)nr, CH / 2, NT, NT, (const uint32_t *)g_w,
                      (const uint32_t *)g_x + j0, CS, g_toff, NULL, g_y + j0, SPAN, 1, 0, 0);
            flops += 2.0 * k->bf16_convcv_mr * nr * CH * NT;
        }
    return flops;
}

static double run_bf16_convcv_fma(const conv_ukernels *k, int calls)
{
    g_bf16_cv = k->bf16_convcv;
    return run_bf16_convcv(k, calls);
}

static double run_bf16_convcv_dot(const conv_ukernels *k, int calls)
{
    g_bf16_cv = conv_bf16_dot_convcv(k->isa);
    return run_bf16_convcv(k, calls);
}

/* A 1x1 layer's gradInput (r50_c4_1x1: 256 channels of 14x14, the slab
 * 200 KB: L2), one weight panel, the 196 positions in tiles of 14. */
enum { CH1 = 256, CS1 = 196 };
static float *g_x1, *g_y1;

static double run_convcv_1x1(const conv_ukernels *k, int calls)
{
    static const ptrdiff_t toff0[1] = {0};
    double flops = 0;
    const int nr = cv_tile(k);
    for (int c = 0; c < calls; ++c)
        for (int j0 = 0; j0 + nr <= CS1; j0 += nr) {
            k->convcv((size_t)k->convcv_mr, (size_t)nr, CH1, 1, 1, g_w, g_x1 + j0, CS1, toff0, NULL,
                      g_y1 + j0, CS1, 1, 0, CONVCV_Y_F32);
            flops += 2.0 * k->convcv_mr * nr * CH1;
        }
    return flops;
}

/* The 1x1 case over BF16 pairs: 128 pairs of 196 positions (100 KB: L2). */
static double run_bf16_convcv_1x1(const conv_ukernels *k, int calls)
{
    static const ptrdiff_t toff0[1] = {0};
    double flops = 0;
    const bf16_convcv_ukernel_fn fn = conv_bf16_dot_convcv(k->isa);
    for (int c = 0; c < calls; ++c)
        for (int j0 = 0; j0 + 14 <= CS1; j0 += 14) {
            fn((size_t)k->bf16_convcv_mr, 14, CH1 / 2, 1, 1, (const uint32_t *)g_w,
               (const uint32_t *)g_x1 + j0, CS1, toff0, NULL, g_y1 + j0, CS1, 1, 0, 0);
            flops += 2.0 * k->bf16_convcv_mr * 14 * CH1;
        }
    return flops;
}

/* r50_c4_1x1's bf16 gradInput pass in the engine's order, an image per
 * call: 32 weight panels of 32 channels (512 KB: L2) x the 14 tiles of 196
 * positions, results narrowed into the image's bf16 planes (400 KB; 32
 * images in turn, 12.8 MB: their stores miss as the pass's do). */
enum { NP1 = 32, NIMG = 32 };
static float *g_wp1;
static uint16_t *g_yp1;

static double run_bf16_convcv_1x1_pass(const conv_ukernels *k, int calls)
{
    static const ptrdiff_t toff0[1] = {0};
    double flops = 0;
    const bf16_convcv_ukernel_fn fn = conv_bf16_dot_convcv(k->isa);
    const size_t mr = (size_t)k->bf16_convcv_mr, panel = (size_t)CH1 / 2 * mr;
    for (int c = 0; c < calls; ++c)
        for (size_t mb = 0; mb < NP1; ++mb)
            for (int j0 = 0; j0 + 14 <= CS1; j0 += 14) {
                fn(mr, 14, CH1 / 2, 1, 1, (const uint32_t *)g_wp1 + mb * panel,
                   (const uint32_t *)g_x1 + j0, CS1, toff0, NULL,
                   g_yp1 + (size_t)(c % NIMG) * NP1 * 32 * CS1 + mb * mr * CS1 + j0, CS1, 1, 0, 1);
                flops += 2.0 * (double)mr * 14 * CH1;
            }
    return flops;
}

/* r50_c2_3x3's bf16 gradInput pass in the engine's order (data_block): an
 * image's slab of 32 dy pairs x 58 x 58 (430 KB: L2), both weight panels
 * of 32 channels (72 KB together: L2), per output row its 4 tiles of 14,
 * each through both panels, results narrowed into the image's bf16 planes
 * (64 x 56 x 56, 400 KB; 8 images in turn, so their stores miss). */
enum { C2_PAIRS = 32, C2_WP = 58, C2_OW = 56, C2_NP = 2, C2_IMG = 8 };
static float *g_x2, *g_w2;
static uint16_t *g_y2;

static double run_bf16_convcv_3x3_pass(const conv_ukernels *k, int calls)
{
    ptrdiff_t toff[NT];
    for (int t = 0; t < NT; ++t)
        toff[t] = (ptrdiff_t)(t / 3 * C2_WP + t % 3);
    double flops = 0;
    const bf16_convcv_ukernel_fn fn = conv_bf16_dot_convcv(k->isa);
    const size_t mr = (size_t)k->bf16_convcv_mr, panel = (size_t)C2_PAIRS * NT * mr;
    const size_t plane = (size_t)C2_OW * C2_OW, cs = (size_t)C2_WP * C2_WP;
    for (int c = 0; c < calls; ++c) {
        uint16_t *y = g_y2 + (size_t)(c % C2_IMG) * C2_NP * mr * plane;
        for (size_t row = 0; row < C2_OW; ++row)
            for (size_t j0 = 0; j0 < C2_OW; j0 += 14)
                for (size_t mb = 0; mb < C2_NP; ++mb) {
                    fn(mr, 14, C2_PAIRS, NT, NT, (const uint32_t *)g_w2 + mb * panel,
                       (const uint32_t *)g_x2 + row * C2_WP + j0, cs, toff, NULL,
                       y + mb * mr * plane + row * C2_OW + j0, plane, 1, 0, 1);
                    flops += 2.0 * (double)mr * 14 * C2_PAIRS * 2 * NT;
                }
    }
    return flops;
}

/* The weights pass's GEMM form: 2048 positions of dy^T (64 channels, 512 KB:
 * L2) against 6 slab rows per call. */
enum { WLEN = 2048, WROWS = 96 };
static float *g_a, *g_b, *g_c;

static double run_convwt(const conv_ukernels *k, int calls)
{
    double flops = 0;
    const size_t mr = (size_t)k->convwt_mr, nr = (size_t)k->convwt_nr;
    for (int c = 0; c < calls; ++c)
        for (size_t q = 0; q + mr <= WROWS; q += mr) {
            const float *a[CONV_UKERNEL_MAX_MR];
            for (size_t m = 0; m < mr; ++m)
                a[m] = g_a + (q + m) * WLEN;
            float *crow[CONV_UKERNEL_MAX_MR];
            for (size_t m = 0; m < mr; ++m)
                crow[m] = g_c + (q + m) * 64;
            k->convwt(mr, nr, 1, WLEN, a, 0, g_b, 64, crow, 1);
            flops += 2.0 * (double)(mr * nr) * WLEN;
        }
    return flops;
}

/* The same GEMM over BF16 pairs: the same 2048 positions (1024 pairs, 256
 * KB of dy^T), the slab rows as bf16 (the fp32 buffers' bits read as
 * halves: small normal values). */
static bf16_convwt_ukernel_fn g_bf16_wt;

static double run_bf16_convwt(const conv_ukernels *k, int calls)
{
    double flops = 0;
    const size_t mr = (size_t)k->bf16_convwt_mr, nr = (size_t)k->bf16_convwt_nr;
    const uint16_t *a16 = (const uint16_t *)g_a;
    for (int c = 0; c < calls; ++c)
        for (size_t q = 0; q + mr <= WROWS; q += mr) {
            const uint16_t *a[CONV_UKERNEL_MAX_MR];
            for (size_t m = 0; m < mr; ++m)
                a[m] = a16 + (q + m) * WLEN;
            float *crow[CONV_UKERNEL_MAX_MR];
            for (size_t m = 0; m < mr; ++m)
                crow[m] = g_c + (q + m) * 64;
            g_bf16_wt(mr, nr, 1, WLEN, a, 0, (const uint32_t *)g_b, 64, crow, 1);
            flops += 2.0 * (double)(mr * nr) * WLEN;
        }
    return flops;
}

/* vgg_3x3_256's calls: 28 rows of 28 positions (14 pairs) a call, the slab
 * rows 30 apart (its padded row), dy^T of one image's 64 channels (100 KB,
 * L2): the pass's row loop, where the 2048-position row has none. */
enum { WV_ROWS = 28, WV_LEN = 28, WV_ARS = 30 };

static double run_bf16_convwt_vgg(const conv_ukernels *k, int calls)
{
    double flops = 0;
    const bf16_convwt_ukernel_fn fn = conv_bf16_dot_convwt(k->isa);
    const size_t mr = (size_t)k->bf16_convwt_mr, nr = (size_t)k->bf16_convwt_nr;
    const uint16_t *a16 = (const uint16_t *)g_a;
    const size_t arow = WV_ROWS * WV_ARS + 2;
    for (int c = 0; c < calls; ++c)
        for (size_t q = 0; q + mr <= WROWS; q += mr) {
            const uint16_t *a[CONV_UKERNEL_MAX_MR];
            for (size_t m = 0; m < mr; ++m)
                a[m] = a16 + ((q + m) % 16) * arow + (q / mr) % 3;
            float *crow[CONV_UKERNEL_MAX_MR];
            for (size_t m = 0; m < mr; ++m)
                crow[m] = g_c + (q + m) * 64;
            fn(mr, nr, WV_ROWS, WV_LEN, a, WV_ARS, (const uint32_t *)g_b, 64, crow, 1);
            flops += 2.0 * (double)(mr * nr) * WV_ROWS * WV_LEN;
        }
    return flops;
}

static double run_bf16_convwt_fma(const conv_ukernels *k, int calls)
{
    g_bf16_wt = k->bf16_convwt;
    return run_bf16_convwt(k, calls);
}

static double run_bf16_convwt_dot(const conv_ukernels *k, int calls)
{
    g_bf16_wt = conv_bf16_dot_convwt(k->isa);
    return run_bf16_convwt(k, calls);
}

/* The reduction-vector form: dot products of rows of 256 (conv1d_wav_k10s5's
 * blocks), every call ending in its lane reduction. */
enum { RLEN = 256, RROWS = 24 };

static double run_convrv(const conv_ukernels *k, int calls)
{
    double flops = 0;
    const size_t mr = (size_t)k->convrv_mr, nr = (size_t)k->convrv_nr;
    for (int c = 0; c < calls; ++c)
        for (size_t q = 0; q + mr <= RROWS; q += mr) {
            const float *a[CONV_UKERNEL_MAX_MR], *b[CONV_UKERNEL_MAX_MR];
            for (size_t m = 0; m < mr; ++m)
                a[m] = g_a + (q + m) * RLEN;
            for (size_t n = 0; n < nr; ++n)
                b[n] = g_b + n * RLEN;
            k->convrv(mr, nr, 1, RLEN, a, 0, b, 0, g_c + q * 16, 16, 1, 1);
            flops += 2.0 * (double)(mr * nr) * RLEN;
        }
    return flops;
}

/* The grouped data pass at W stride 2 (resnext_g32_s2: 8 dy channels of 28
 * x 28 packed into rows of 29, 8 outputs, 3x3): every output row of a 56 x 56
 * plane, both W phases a call (grpconv_s2; FLOPs counted over the 28 lanes
 * of each phase's row). */
enum { GPW = 29, GPH = 29, GCS = GPW * GPH, GC = 8 };
static double run_grpconv_s2(const conv_ukernels *k, int calls)
{
    (void)k;
    static const ptrdiff_t roff1[1] = {0}, roff2[2] = {0, GPW}, sh0[1] = {0}, sh1[2] = {1, 0};
    const size_t nk[2] = {1, 2};
    const ptrdiff_t *const sh[2] = {sh0, sh1};
    /* the instance the pass runs for a 3x3 */
    const f32_grpconv_s2_ukernel_fn s2 = f32_grpconv_s2_select__avx512(nk, sh);
    double flops = 0;
    for (int c = 0; c < calls; ++c)
        for (int h = 0; h < 56; ++h) {
            const size_t nrt = (size_t)(h % 2 + 1);
            for (int mb = 0; mb < 2; ++mb) {
                const float *const w[2] = {g_w + mb * nrt * 3 * GC * 4,
                                           g_w + (2 + mb) * nrt * 3 * GC * 4};
                s2(4, 28, 56, GC, nrt, nk, w, g_x + h / 2 * GPW, GCS, nrt == 1 ? roff1 : roff2, sh,
                   g_y + mb * 4 * 56, 56, F32_ROUND_NONE);
                flops += 2.0 * 4 * 28 * GC * (double)nrt * 3;
            }
        }
    return flops;
}

/* The grouped data pass's masked layout (resnext_g32: 8 dy channels of 28 x
 * 28, each one copy of rows of 28 with a zero row above and below, 8
 * outputs, 3x3): a depth plane's 784 positions, 48 a call, as data_sub
 * calls the kernel. */
enum { GMW = 28, GMCS = (GMW + 2) * GMW + 16 };
static double run_grpconv(const conv_ukernels *k, int calls)
{
    static const ptrdiff_t roff[3] = {0, GMW, 2 * GMW}, wsh[3] = {-1, 0, 1};
    const bool avx512 = k->isa == ACLCONV_ISA_AVX512;
    const f32_grpconv_ukernel_fn conv =
        avx512 ? f32_grpconv_ukernel_8x48__avx512 : f32_grpconv_ukernel_4x24__avx2;
    const size_t mr = avx512 ? 8 : 4, nr_max = avx512 ? 48 : 24;
    const float *src = g_x + GRP_CONV_GUARD;
    double flops = 0;
    for (int c = 0; c < calls; ++c)
        for (size_t j0 = 0; j0 < GMW * GMW; j0 += nr_max) {
            const size_t nr = GMW * GMW - j0 < nr_max ? GMW * GMW - j0 : nr_max;
            for (size_t mb = 0; mb < 8 / mr; ++mb)
                conv(mr, nr, GC, 3, 3, g_w + mb * 9 * GC * mr, src + j0, GMCS, roff, wsh, GMW,
                     j0 % GMW, g_y + mb * mr * GMW * GMW + j0, GMW * GMW, 0, F32_ROUND_NONE, NULL);
            flops += 2.0 * 8 * (double)nr * GC * 9;
        }
    return flops;
}

/* The grouped weights pass's masked layout (resnext_g32: 8 x channels of 28
 * x 28, one copy each with a zero row above and below, 8 dy channels, 3x3):
 * an image's plane as one run of 784 positions, every (o block, b row
 * block) tile as wt_task calls grpwtm; b rows (c, t) in the order the pass
 * takes for the ISA (AVX2: tap-major, so a tile's rows share one W tap). */
enum { GWQ = GC * 9 };
static double run_grpwtm(const conv_ukernels *k, int calls)
{
    const bool avx512 = k->isa == ACLCONV_ISA_AVX512;
    const f32_grpwtm_ukernel_fn wtm =
        avx512 ? f32_grpwtm_ukernel_4x6__avx512 : f32_grpwtm_ukernel_3x4__avx2;
    const size_t mr_max = avx512 ? 4 : 3, nr_max = avx512 ? 6 : 4, len = GMW * GMW;
    enum { MWORDS = (GMW * GMW + 15) / 16 };
    static uint16_t masks[3][MWORDS];
    static float acc[GC * GWQ * GRP_ACC_LANES];
    static bool built; /* the table once, outside the timed calls that follow */
    for (int kw = 0; kw < 3 && !built; ++kw)
        for (size_t j = 0; j < len; ++j) {
            const int col = (int)(j % GMW) + kw - 1;
            if (col >= 0 && col < GMW) masks[kw][j / 16] |= (uint16_t)(1u << (j % 16));
        }
    built = true;
    const float *src = g_x + GRP_CONV_GUARD + GMW; /* the zero row above */
    double flops = 0;
    for (int it = 0; it < calls; ++it)
        for (size_t o0 = 0; o0 < GC; o0 += mr_max) {
            const size_t mr = GC - o0 < mr_max ? GC - o0 : mr_max;
            const float *a[4];
            for (size_t m = 0; m < mr; ++m) a[m] = g_a + (o0 + m) * len;
            for (size_t q0 = 0; q0 < GWQ; q0 += nr_max) {
                const size_t nr = GWQ - q0 < nr_max ? GWQ - q0 : nr_max;
                const float *b[8];
                const uint16_t *bm[8];
                for (size_t i = 0; i < nr; ++i) {
                    const size_t row = q0 + i, c = avx512 ? row / 9 : row % GC;
                    const size_t t = avx512 ? row % 9 : row / GC;
                    b[i] = src + c * GMCS + (ptrdiff_t)(t / 3) * GMW - GMW + (ptrdiff_t)(t % 3) - 1;
                    bm[i] = masks[t % 3];
                }
                wtm(mr, nr, len, a, b, bm, acc + (o0 * GWQ + q0) * GRP_ACC_LANES,
                    GWQ * GRP_ACC_LANES, NULL);
                flops += 2.0 * (double)(mr * nr * len);
            }
        }
    return flops;
}

/* dw_3x3's planes (28 x 28, padding 1) read in place from L1: a data call
 * (dwrow, dy's taps flipped as the data pass takes them) and a weights call
 * (dwrowwt, 9 taps of x against dy), as the engine makes them per plane;
 * fp32 (as they are, or rounded for HF32 / FLOAT16 as loaded), or bf16
 * planes the kernels widen as they load them (x, and dy for dwrowwt). */
enum { DWH = 28, DWW = 28 };
static float *g_dx, *g_dy, *g_dacc;
static uint16_t g_dx16[DWH * DWW], g_dy16[DWH * DWW];
typedef struct dw_case {
    const float *x[9];
    ptrdiff_t dh[9], dw[9];
    f32_dwrow_src s;
} dw_case;

/* kind: the planes' DW_SRC_* (fp32 kinds read g_dx / g_dy, the 16-bit
 * ones g_dx16 / g_dy16). */
static void dw_setup(int step, int kind, dw_case *d)
{
    for (int t = 0; t < 9; ++t) {
        d->x[t] = g_dx;
        d->dh[t] = step > 0 ? t / 3 - 1 : 1 - t / 3;
        d->dw[t] = step > 0 ? t % 3 - 1 : 1 - t % 3;
    }
    d->s = (f32_dwrow_src){.x = d->x,
                           .dh = d->dh,
                           .dw = d->dw,
                           .nt = 9,
                           .ih = DWH,
                           .iw = DWW,
                           .rs = DWW,
                           .src_kind = kind,
                           .dy_kind = kind};
    if (dw_src_16bit(kind)) {
        d->s.x16 = g_dx16;
        d->s.dy16 = g_dy16;
    }
}

/* The ISA's kernels (fp32 sources only below AVX-512). */
static double dwrow_calls(const conv_ukernels *k, int kind, int calls)
{
    const f32_dwrow_ukernel_fn kern = k->isa == ACLCONV_ISA_AVX512 ? f32_dwrow_ukernel_4x32__avx512
                                                                   : f32_dwrow_ukernel_4x16__avx2;
    dw_case d;
    dw_setup(-1, kind, &d);
    for (int c = 0; c < calls; ++c)
        kern(DWH, DWW, &d.s, g_w, g_dy + (c & 1) * DWH * DWW, DWW);
    return 2.0 * 9 * DWH * DWW * calls;
}

static double dwrowwt_calls(const conv_ukernels *k, int kind, int calls)
{
    const f32_dwrowwt_ukernel_fn kern = k->isa == ACLCONV_ISA_AVX512
                                            ? f32_dwrowwt_ukernel_12x32__avx512
                                            : f32_dwrowwt_ukernel_4x16__avx2;
    dw_case d;
    dw_setup(1, kind, &d);
    for (int c = 0; c < calls; ++c)
        kern(DWH, DWW, &d.s, dw_src_16bit(kind) ? NULL : g_dy, DWW, g_dacc);
    return 2.0 * 9 * DWH * DWW * calls;
}

/* dw_3x3_s2's gradInput plane (56 x 56 from a packed 30 x 30 dy plane):
 * the merged stride-2 kernel's two calls, even output rows (1 + 2 taps)
 * and odd rows (2 + 4), into a plane in L1 (the slot's, streamed out by
 * the pass afterwards). */
enum { S2P = 30, S2W = 56 };
static float g_s2src[S2P * S2P + 64], g_s2out[S2W * S2W];

static double run_dwconv_s2(const conv_ukernels *k, int calls)
{
    const f32_dwconv_s2_ukernel_fn kern = k->isa == ACLCONV_ISA_AVX512
                                              ? f32_dwconv_s2_ukernel_32__avx512
                                              : f32_dwconv_s2_ukernel_16__avx2;
    /* the pass's order: phase 1's taps per row tap at shifts +1, +0 */
    static const ptrdiff_t even0[1] = {S2P + 1}, even1[2] = {S2P + 2, S2P + 1},
                           odd0[2] = {1, S2P + 1}, odd1[4] = {2, 1, S2P + 2, S2P + 1};
    const float w0[4] = {0.5f, 0.25f, -0.5f, 1.0f}, w1[4] = {0.125f, -0.25f, 0.75f, 2.0f};
    const size_t nte[2] = {1, 2}, nto[2] = {2, 4};
    const float *const w[2] = {w0, w1};
    const ptrdiff_t *const te[2] = {even0, even1}, *const to[2] = {odd0, odd1};
    for (int c = 0; c < calls; ++c) {
        kern(S2W / 2, S2W, nte, w, g_s2src, S2P, te, g_s2out, 2 * S2W, F32_ROUND_NONE);
        kern(S2W / 2, S2W, nto, w, g_s2src, S2P, to, g_s2out + S2W, 2 * S2W, F32_ROUND_NONE);
    }
    return 2.0 * 9 * (S2W / 2) * (S2W / 2) * calls;
}

/* The kernel cases of a kind: name(k, calls) runs fn(kind, calls). */
#define DW_CASE(name, fn, kind)                                                                    \
    static double name(const conv_ukernels *k, int calls)                                          \
    {                                                                                              \
        return fn(k, kind, calls);                                                                 \
    }
DW_CASE(run_dwrow, dwrow_calls, DW_SRC_F32)
DW_CASE(run_dwrowwt, dwrowwt_calls, DW_SRC_F32)
DW_CASE(run_dwrow_hf32, dwrow_calls, DW_SRC_F32_HF32)
DW_CASE(run_dwrowwt_hf32, dwrowwt_calls, DW_SRC_F32_HF32)
DW_CASE(run_dwrow_round, dwrow_calls, DW_SRC_F32_F16)
DW_CASE(run_dwrowwt_round, dwrowwt_calls, DW_SRC_F32_F16)
DW_CASE(run_dwrow_bf16, dwrow_calls, DW_SRC_BF16)
DW_CASE(run_dwrowwt_bf16, dwrowwt_calls, DW_SRC_BF16)
DW_CASE(run_dwrow_f16, dwrow_calls, DW_SRC_F16)
DW_CASE(run_dwrowwt_f16, dwrowwt_calls, DW_SRC_F16)
#undef DW_CASE

/* Best GFLOP/s of 5 trials of about `seconds` each. */
static double measure(const conv_ukernels *k, case_fn fn, double seconds)
{
    fn(k, 1); /* warm-up: data into the caches */
    double best = 0;
    for (int trial = 0; trial < 5; ++trial) {
        int calls = 1;
        double flops = 0, t = 0;
        for (;;) {
            const double t0 = cpu_seconds();
            flops = fn(k, calls);
            t = cpu_seconds() - t0;
            if (t >= seconds) break;
            calls *= 2;
        }
        if (flops / t / 1e9 > best) best = flops / t / 1e9;
    }
    return best;
}

int main(int argc, char **argv)
{
    double seconds = 0.05;
    aclconvIsa isa = cpu_detected_isa();
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
            seconds = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--isa") && i + 1 < argc) {
            const char *v = argv[++i];
            isa = !strcmp(v, "scalar") ? ACLCONV_ISA_SCALAR
                  : !strcmp(v, "avx2") ? ACLCONV_ISA_AVX2
                                       : ACLCONV_ISA_AVX512;
        } else {
            fprintf(stderr, "usage: %s [--isa scalar|avx2|avx512] [--seconds S]\n", argv[0]);
            return 2;
        }
    }
    if (isa > cpu_detected_isa()) {
        fprintf(stderr, "this CPU has no %s\n", cpu_isa_name(isa));
        return 2;
    }
    const conv_ukernels *k = conv_ukernels_for(isa);
    const bench_peak peak = bench_measure_peak(k->isa, 1, 0.1, 10);
    printf("kernels %s, 1 thread; FMA peak %.1f GFLOP/s (%s)\n", cpu_isa_name(k->isa), peak.gflops,
           peak.isa);
    /* the vdpbf16ps rows against the instruction's own peak (twice the
     * FMA's work per instruction: their share of the FMA peak says little) */
    const bench_peak dot = conv_bf16_dot_convcv(k->isa) ? bench_measure_dot_peak(1, 0.1, 10)
                                                        : (bench_peak){0.0, "none", 1};
    if (dot.gflops > 0) printf("vdpbf16ps peak %.1f GFLOP/s (rows marked *)\n", dot.gflops);
    for (int t = 0; t < NT; ++t)
        g_toff[t] = (ptrdiff_t)(t / 3 * WP + t % 3);
    /* the widest panel: conv's or convcv's rows, 3x3 x 64 or 1x1 x 256 */
    const size_t rows = (size_t)(k->convcv_mr > k->conv_mr ? k->convcv_mr : k->conv_mr);
    g_w = filled(rows * (CH * NT > CH1 ? CH * NT : CH1));
    g_x1 = filled((size_t)CH1 * CS1);
    g_y1 = filled(rows * CS1);
    g_x = filled((size_t)CH * CS);
    g_r18w = filled((size_t)R18_C * NT * 32);
    g_r18x = filled((size_t)R18_C * R18_CS + 64);
    g_r18all = filled((size_t)16 * R18_C * NT * 32);
    for (int t = 0; t < NT; ++t)
        g_r18off[t] = (ptrdiff_t)(t / 3 * R18_W + t % 3);
    g_y = filled((size_t)16 * SPAN * 4);
    g_a = filled((size_t)WROWS * WLEN > (size_t)RROWS * RLEN ? (size_t)WROWS * WLEN
                                                             : (size_t)RROWS * RLEN);
    g_b = filled((size_t)WLEN * 64);
    g_c = filled((size_t)WROWS * 64);
    /* bf16 pairs of small normal values (the fp32 fill's bits are) */
    g_wp1 = filled((size_t)NP1 * CH1 / 2 * 32);
    g_yp1 = calloc((size_t)NIMG * NP1 * 32 * CS1, sizeof(uint16_t));
    g_x2 = filled((size_t)C2_PAIRS * C2_WP * C2_WP);
    g_w2 = filled((size_t)C2_NP * C2_PAIRS * NT * 32);
    g_y2 = calloc((size_t)C2_IMG * C2_NP * 32 * C2_OW * C2_OW, sizeof(uint16_t));
    g_dx = filled(DWH * DWW);
    g_dy = filled(2 * DWH * DWW);
    g_dacc = filled(9 * DW_ACC_LANES);
    for (int i = 0; i < DWH * DWW; ++i) { /* small normal values as bf16 and as fp16 */
        g_dx16[i] = (uint16_t)(0x3c00u + (unsigned)(i % 97));
        g_dy16[i] = (uint16_t)(0xbc00u + (unsigned)(i % 89));
    }
    struct {
        const char *name;
        case_fn fn;
        int mr, nr;
        const char *what;
        int dot; /* a vdpbf16ps kernel: % of the vdpbf16ps peak */
    } cases[] = {
        {"conv", run_conv, k->conv_mr, k->conv_nr, "3x3, 64 channels, slab in L1/L2", 0},
        {"convcv", k->convcv ? run_convcv : NULL, k->convcv_mr, k->convcv ? cv_tile(k) : 0,
         "the same, channels in the vector", 0},
        {"conv", run_conv_hf32, k->conv_mr, k->conv_nr, "conv's slab, 2 taps, x rounded (HF32)", 0},
        /* tiles wider than the kernel's (AVX2: 6) would time calls that do
         * nothing */
        {"convcv", k->convcv && k->convcv_nr >= 7 ? run_convcv_r18_7 : NULL, k->convcv_mr, 7,
         "r18_c5's rows of 7, 512 ch, panel in L2", 0},
        {"convcv", k->convcv && k->convcv_nr >= 14 ? run_convcv_r18_14 : NULL, k->convcv_mr, 14,
         "the same panel, tiles of 14", 0},
        {"convcv", k->convcv && k->convcv_nr >= 7 ? run_convcv_r18_l3 : NULL, k->convcv_mr, 7,
         "16 panels (L3) in turn, 7 rows each", 0},
        {"bf16cv", k->bf16_convcv ? run_bf16_convcv_fma : NULL, k->bf16_convcv_mr, 14,
         "the 3x3 one, bf16 pairs, fma", 0},
        {"bf16cv", conv_bf16_dot_convcv(k->isa) ? run_bf16_convcv_dot : NULL, k->bf16_convcv_mr, 14,
         "the 3x3 one, bf16 pairs, vdpbf16ps", 1},
        {"convcv", k->convcv ? run_convcv_1x1 : NULL, k->convcv_mr, k->convcv ? cv_tile(k) : 0,
         "1x1, 256 channels of 196, slab in L2", 0},
        {"bf16cv", conv_bf16_dot_convcv(k->isa) ? run_bf16_convcv_1x1 : NULL, k->bf16_convcv_mr, 14,
         "the 1x1 one, bf16 pairs, vdpbf16ps", 1},
        {"bf16cv", conv_bf16_dot_convcv(k->isa) ? run_bf16_convcv_1x1_pass : NULL,
         k->bf16_convcv_mr, 14, "the 1x1 pass: 32 panels, bf16 y", 1},
        {"bf16cv", conv_bf16_dot_convcv(k->isa) ? run_bf16_convcv_3x3_pass : NULL,
         k->bf16_convcv_mr, 14, "r50_c2's 3x3 pass: 2 panels, bf16 y", 1},
        {"convwt", run_convwt, k->convwt_mr, k->convwt_nr, "2048 positions, dy^T in L2", 0},
        {"bf16wt", k->bf16_convwt ? run_bf16_convwt_fma : NULL, k->bf16_convwt_mr,
         k->bf16_convwt_nr, "the same, bf16 pairs, fma", 0},
        {"bf16wt", conv_bf16_dot_convwt(k->isa) ? run_bf16_convwt_dot : NULL, k->bf16_convwt_mr,
         k->bf16_convwt_nr, "the same, bf16 pairs, vdpbf16ps", 1},
        {"bf16wt", conv_bf16_dot_convwt(k->isa) ? run_bf16_convwt_vgg : NULL, k->bf16_convwt_mr,
         k->bf16_convwt_nr, "vgg's calls: 28 rows of 28, vdpbf16ps", 1},
        {"convrv", run_convrv, k->convrv_mr, k->convrv_nr, "rows of 256, in L1", 0},
        {"grpconv", k->isa != ACLCONV_ISA_SCALAR ? run_grpconv : NULL,
         k->isa == ACLCONV_ISA_AVX512 ? 8 : 4, k->isa == ACLCONV_ISA_AVX512 ? 48 : 24,
         "resnext_g32's dx, one plane in L1", 0},
        {"grpwtm", k->isa != ACLCONV_ISA_SCALAR ? run_grpwtm : NULL,
         k->isa == ACLCONV_ISA_AVX512 ? 4 : 3, k->isa == ACLCONV_ISA_AVX512 ? 6 : 4,
         "resnext_g32's dw, one image in L1/L2", 0},
        {"grpconv_s2", k->isa == ACLCONV_ISA_AVX512 ? run_grpconv_s2 : NULL, 4, 64,
         "resnext_g32_s2's dx, one plane", 0},
        {"dwconv_s2", k->isa != ACLCONV_ISA_SCALAR ? run_dwconv_s2 : NULL, 1, 32,
         "dw_3x3_s2's dx plane, packed dy in L1", 0},
        {"dwrow", k->isa != ACLCONV_ISA_SCALAR ? run_dwrow : NULL, 4,
         k->isa == ACLCONV_ISA_AVX512 ? 32 : 16, "dw_3x3's dx, a 28x28 plane in L1", 0},
        {"dwrowwt", k->isa != ACLCONV_ISA_SCALAR ? run_dwrowwt : NULL,
         k->isa == ACLCONV_ISA_AVX512 ? 12 : 4, k->isa == ACLCONV_ISA_AVX512 ? 32 : 16,
         "dw_3x3's dw, the same", 0},
        {"dwrow", k->isa == ACLCONV_ISA_AVX512 ? run_dwrow_hf32 : NULL, 4, 32,
         "the dx one, dy rounded for HF32", 0},
        {"dwrowwt", k->isa == ACLCONV_ISA_AVX512 ? run_dwrowwt_hf32 : NULL, 12, 32,
         "the dw one, x, dy rounded for HF32", 0},
        {"dwrow", k->isa == ACLCONV_ISA_AVX512 ? run_dwrow_round : NULL, 4, 32,
         "the dx one, dy rounded to fp16", 0},
        {"dwrowwt", k->isa == ACLCONV_ISA_AVX512 ? run_dwrowwt_round : NULL, 12, 32,
         "the dw one, x, dy rounded to fp16", 0},
        {"dwrow", k->isa == ACLCONV_ISA_AVX512 ? run_dwrow_bf16 : NULL, 4, 32,
         "the dx one, bf16 dy read in place", 0},
        {"dwrowwt", k->isa == ACLCONV_ISA_AVX512 ? run_dwrowwt_bf16 : NULL, 12, 32,
         "the dw one, bf16 x and dy in place", 0},
        {"dwrow", k->isa == ACLCONV_ISA_AVX512 ? run_dwrow_f16 : NULL, 4, 32,
         "the dx one, fp16 dy read in place", 0},
        {"dwrowwt", k->isa == ACLCONV_ISA_AVX512 ? run_dwrowwt_f16 : NULL, 12, 32,
         "the dw one, fp16 x and dy in place", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if (!cases[i].fn) continue;
        const double g = measure(k, cases[i].fn, seconds);
        const bench_peak *of = cases[i].dot && dot.gflops > 0 ? &dot : &peak;
        printf("%-7s %2dx%-3d %-34s %6.1f GFLOP/s  %5.1f%% of peak%s\n", cases[i].name, cases[i].mr,
               cases[i].nr, cases[i].what, g, of->gflops > 0 ? 100.0 * g / of->gflops : 0.0,
               of == &dot ? " *" : "");
    }
    free(g_w);
    free(g_x1);
    free(g_y1);
    free(g_x);
    free(g_y);
    free(g_a);
    free(g_b);
    free(g_c);
    free(g_wp1);
    free(g_yp1);
    free(g_dx);
    free(g_dy);
    free(g_dacc);
    return 0;
}
