#define _POSIX_C_SOURCE 200809L
/*
 * The fast implementation against the direct one, through conv_plan on
 * canonical problems built here (both data directions, the weights pass,
 * ranks 1-3, groups, padding incl. asymmetric tails, dilation, all dtypes and
 * precision modes, strided views with gaps, every ISA the CPU has, 1 / 2 / 3
 * threads).
 *
 * - Small-integer data (up to 24 in the FLOAT16 / BF16 modes, whose result
 *   rounding then shows): every partial sum is an exact fp32 integer, so any
 *   summation order gives the same fp32 sum and the same rounding to the
 *   output dtype: fast and direct must agree bitwise, in every mode/dtype.
 *   In HF32 / FLOAT16 mode fp32 operands are such integers times 1 + 2^-13
 *   (it_mark_rounding): a path that misses an operand's rounding shows.
 * - Real data (fp32 operands and outputs, modes FLOAT / HF32): the two sum the
 *   same terms in different orders (and fast uses FMA), so each differs from
 *   the exact sum by at most about n * 2^-24 * sum|terms| (n = terms per
 *   output). We allow 2 * (n + 2) * 2^-24 * sum|terms| with sum|terms|
 *   computed by the direct implementation on |operands|.
 * - The fast results must be bitwise equal for 1, 2 and 3 threads, and
 *   gradWeight must have the same bits when gradInput is not requested (the
 *   streamed weights pass computes both in one sweep when both are).
 * - Elements of the output buffer outside the view keep their sentinel.
 * - On an ISA with a channel-vector data kernel, every case runs with each
 *   data kernel family (ACLCONV_FAST_CV=0 / 1).
 * - fast takes every problem generated here except D with more than 16 output
 *   phases (stride product > 16), which must be planned with direct.
 * - The data slabs of an L2 of 2 MB (ACLCONV_FAST_SLAB_BUDGET) keep the bits
 *   of the fixed budget's (slab_budget_case).
 * Every failure prints the problem and the seed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclconv/aclconv.h"
#include "common/cpu.h"
#include "engine/conv_fast.h"
#include "engine/conv_fast_internal.h"
#include "impl_test.h"
#include "kernels/conv_ukernels.h"
#include "test_rng.h"

static int g_cases, g_fast_data, g_fast_wt, g_tile_panels, g_cv_runs;

typedef struct gen_opts {
    int stride_max;
    int int_data;
    int dtypes;
    int isa;
    int long1d;    /* 1-D rows long enough for column blocks */
    int wide;      /* many channels: several weight sweeps, output / o blocks */
    int groups;    /* 2-D, 5-12 images of small planes, the weights pass's GEMM path:
                      its groups of images (ACLCONV_FAST_WT_IMAGES, set by the caller) */
    int pointwise; /* 1x1, stride 1, no padding, planes of a few hundred positions:
                      whole images per weights-pass call, several of them per unit,
                      slabs read in place (whole rows); 2: 17-20 images of 7-9 x 7-9
                      with 540-600 output channels, where a dy^T block of every output
                      channel would hold too few positions (FAST_WT_FLAT_MIN_POSITIONS)
                      and the flat path takes blocks of 256 (FAST_WT_FLAT_OBLOCK), the
                      last one part full; 3: one or two images of 65-150 output channels,
                      each unit's output channels split among tasks */
    int stream;    /* the streamed weights pass (the big operand read once for both
                      passes): D of 1-D / 2-D layers with few channels, or transposed
                      layers with strides (k = s, or s + 1 in W), N >= 4 */
    int phase_w;   /* D of 1-D layers with stride 2 and few gradInput channels in the
                      FLOAT16 / BF16 modes with fp32 gradInput: W output phases of
                      150-350 results, rounded and spread at step 2 a kernel tile at a
                      time (test_kernels checks runs longer than a rounding chunk) */
    int wav;       /* with stream: D of 1-D layers shaped like conv1d_wav_k10s5 (one or two
                      gradInput channels, 40-64 dy channels, k = 2s, rows of thousands) in
                      the HF32 / FLOAT16 modes: the data kernel rounds dy read in place,
                      the weights pass rounds each kernel row block's dy rows */
    int bigstride; /* 1-D strides of 17-32 (patchify layers: k up to s + 3): F and the
                      weights pass's phase split of x; D has too many output phases */
} gen_opts;

/* --part K/N: only every N-th case from the K-th (counted over all calls, so
 * the N parts together run exactly the cases of the whole program) */
static int g_part, g_parts = 1, g_calls;

static void one_case(uint64_t seed, const gen_opts *go)
{
    if (g_calls++ % g_parts != g_part) return;
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    memset(&p, 0, sizeof p);
    /* the streamed pass's F form */
    const bool sfwd = go->stream && !go->wav && rng_chance(&r, 1, 2);
    p.rank = sfwd                                         ? (int)rng_range(&r, 1, 3)
             : go->long1d || go->phase_w || go->bigstride ? 1
             : go->wide || go->groups                     ? 2
             : go->pointwise ? (go->pointwise == 2 ? 2 : (int)rng_range(&r, 2, 3))
             : go->stream    ? (int)rng_range(&r, 1, 2)
                             : (int)rng_range(&r, 1, 3);
    /* pointwise: N >= 9 gives units of several images (wt_flat_images) */
    p.n = go->pointwise ? rng_range(&r, 1, 20)
          : go->stream  ? rng_range(&r, 4, 6)
          : go->groups  ? rng_range(&r, 5, 12)
                        : rng_range(&r, 1, 3);
    p.g = rng_chance(&r, 1, 3) ? rng_range(&r, 2, 3) : 1;
    const int64_t cmax = p.rank == 3 ? 6 : go->long1d ? 24 : 11;
    p.cg = go->wide ? rng_range(&r, 60, 160) : rng_range(&r, 1, cmax);
    p.og = go->wide ? rng_range(&r, 60, 160) : rng_range(&r, 1, cmax);
    if (go->wide) p.g = 1;
    if (go->long1d && rng_chance(&r, 1, 3)) {
        /* the weights pass's GEMM path (OG >= 32) over rows longer than its
         * position blocks: several column blocks per row */
        p.n = p.g = 1;
        p.cg = rng_range(&r, 8, 40);
        p.og = rng_range(&r, 32, 48);
    }
    if (go->groups) {
        p.g = rng_chance(&r, 1, 4) ? 2 : 1;
        p.cg = rng_range(&r, 4, 40);
        p.og = rng_range(&r, 32, 72);
    }
    if (go->pointwise) {
        p.cg = rng_range(&r, 20, 90);
        p.og = rng_range(&r, 28, 90);
    }
    if (go->pointwise == 3) { /* one or two images: their output channels split among tasks */
        p.n = rng_range(&r, 1, 2);
        p.og = rng_range(&r, 65, 150);
    }
    if (go->pointwise == 2) {
        p.n = rng_range(&r, 17, 20);
        p.cg = rng_range(&r, 24, 40); /* (fewer: the reduction-vector path) */
        p.og = rng_range(&r, 540, 600);
    }
    if (go->stream) {
        p.cg = sfwd ? rng_range(&r, 12, 24) : rng_range(&r, 1, 4);
        p.og = sfwd ? rng_range(&r, 32, 64) : rng_range(&r, 1, 64);
    }
    if (go->phase_w) {
        p.g = 1;
        p.cg = rng_range(&r, 1, 3);
        p.og = rng_range(&r, 2, 8);
    }
    if (go->wav) {
        p.rank = 1;
        p.g = 1;
        p.n = rng_range(&r, 2, 4);
        p.cg = rng_range(&r, 1, 2);
        p.og = rng_range(&r, 40, 64);
    }
    p.data_dir = go->stream             ? (sfwd ? CONV_DIR_FWD : CONV_DIR_BWD_DATA)
                 : go->phase_w          ? CONV_DIR_BWD_DATA
                 : rng_chance(&r, 1, 2) ? CONV_DIR_FWD
                                        : CONV_DIR_BWD_DATA;
    p.transposed = p.data_dir == CONV_DIR_FWD;
    for (int i = 0; i < 3; ++i) {
        const bool used = i >= 3 - p.rank;
        if (!used) {
            p.xs[i] = p.ys[i] = p.ks[i] = p.stride[i] = p.dil[i] = 1;
            p.pad[i] = 0;
            continue;
        }
        /* streamed 1-D: rows long enough for several data column blocks */
        const bool long_row = go->stream && !sfwd && p.rank == 1 && rng_chance(&r, 1, 2);
        const int64_t maxs = go->wav       ? 3000
                             : long_row    ? 9000
                             : go->long1d  ? 12000
                             : go->wide    ? 6
                             : go->groups  ? 10
                             : p.rank == 1 ? 70
                             : p.rank == 2 ? 17
                                           : 7;
        p.ks[i] = rng_range(&r, 1, p.rank == 3 || go->wide ? 3 : 5);
        p.dil[i] = rng_chance(&r, 1, 4) ? 2 : 1;
        p.stride[i] = rng_chance(&r, 1, 3) ? rng_range(&r, 1, go->stride_max) : 1;
        if (sfwd) { /* strided, each x element read by one tap (two in W at times) */
            p.stride[i] = rng_range(&r, 2, 3);
            p.ks[i] = p.stride[i] + (i == 2 && rng_chance(&r, 1, 3));
            p.dil[i] = 1;
        }
        if (go->phase_w) {
            p.stride[i] = 2;
            p.dil[i] = 1;
        }
        if (go->bigstride) {
            p.stride[i] = rng_range(&r, 17, FAST_MAX_STRIDE);
            p.ks[i] = rng_range(&r, 1, p.stride[i] + 3 < FAST_MAX_K ? p.stride[i] + 3 : FAST_MAX_K);
            p.dil[i] = 1;
        }
        if (go->wav) {
            p.stride[i] = rng_range(&r, 2, 5);
            p.ks[i] = 2 * p.stride[i];
            p.dil[i] = 1;
        }
        it_draw_extent(&p, i,
                       go->long1d || go->wav ? 6000
                       : long_row            ? 2000
                       : go->phase_w         ? 300
                                             : 0,
                       go->phase_w     ? 700
                       : go->bigstride ? 300
                                       : maxs,
                       &r);
        if (go->pointwise) {
            /* after the draws above, so the pointwise seeds keep drawing the
             * rest of their problem from the same random numbers */
            p.ks[i] = p.stride[i] = p.dil[i] = 1;
            p.pad[i] = 0;
            p.xs[i] = p.ys[i] = i == 0               ? rng_range(&r, 1, 3)
                                : go->pointwise == 2 ? rng_range(&r, 7, 9)
                                                     : rng_range(&r, 8, 24);
        }
    }
    /* the streamed pass wants few (c, tap) rows: C * taps < 24 */
    while (go->stream && !sfwd && p.cg * p.ks[1] * p.ks[2] >= 24) {
        const int i = p.ks[1] >= p.ks[2] ? 1 : 2;
        p.ks[i] -= 1;
        it_draw_extent(&p, i, 0, p.rank == 1 ? 70 : 17, &r);
    }
    p.mode = go->dtypes ? (conv_mode)rng_range(&r, 0, 3)
                        : (go->int_data ? (conv_mode)rng_range(&r, 0, 1) : CONV_MODE_F32);
    if (!go->int_data && rng_chance(&r, 1, 2)) p.mode = CONV_MODE_HF32;
    if (go->phase_w) p.mode = rng_chance(&r, 1, 2) ? CONV_MODE_F16 : CONV_MODE_BF16;
    if (go->wav) p.mode = rng_chance(&r, 1, 2) ? CONV_MODE_HF32 : CONV_MODE_F16;
    it_operands o;
    const int views = rng_chance(&r, 1, 3);
    it_operands_make(&o, &p, go->dtypes, views, &r);
    /* FLOAT16 / BF16 modes round results: integers up to 24 make sums above
     * 256 and 2048 common, so that rounding shows (still exact in fp32: at
     * most ~1000 terms of 24 x 24 here) */
    const int64_t imax =
        (go->dtypes || go->phase_w) && (p.mode == CONV_MODE_F16 || p.mode == CONV_MODE_BF16) ? 24
                                                                                             : 0;
    it_fill(&o.x, go->int_data, imax, &r);
    it_fill(&o.y, go->int_data, imax, &r);
    it_fill(&o.w, go->int_data, imax, &r);
    if (go->int_data) it_mark_operands(&o, p.mode);
    it_operands_attach(&p, &o);
    char desc[512];
    it_describe(&p, desc, sizeof desc);
    const char *isa = cpu_isa_name((aclconvIsa)go->isa);
    ++g_cases;

    /* the reference and the tolerances are computed under the ISA tested */
    aclconvSetMaxIsa((aclconvIsa)go->isa);
    aclconvSetNumThreads(2);
    it_tensor ref[2];
    it_run_reference(&p, &o, ref);
    float *tol[2] = {NULL, NULL}; /* NULL: bitwise (small-integer data) */
    if (!go->int_data) it_tolerances(&p, &o, tol);

    it_tensor first[2];
    char names[2][16];
    for (int threads = 1; threads <= 3; ++threads) {
        it_reset_sentinel(&o.gi);
        it_reset_sentinel(&o.gw);
        aclconvSetNumThreads(threads);
        it_run_plan(&p, "fast", names); /* forced: other implementations may come first */
        for (int k = 0; k < 2; ++k) {
            /* fast takes every stride (phase split of x for F and W, output
             * phases for D, at most 16) and depthwise */
            const bool expect_fast = !(k == 0 && p.data_dir == CONV_DIR_BWD_DATA &&
                                       p.stride[0] * p.stride[1] * p.stride[2] > 16);
            if ((strcmp(names[k], "fast") == 0) != expect_fast) {
                printf("FAIL seed %" PRIu64 " isa %s: pass %d planned with %s (expected %s): %s\n",
                       seed, isa, k, names[k], expect_fast ? "fast" : "direct", desc);
                it_fail();
            }
        }
        if (threads == 1) {
            g_fast_data += strcmp(names[0], "fast") == 0;
            g_fast_wt += strcmp(names[1], "fast") == 0;
            data_state ds;
            uint64_t bytes;
            g_tile_panels += strcmp(names[0], "fast") == 0 &&
                             data_plan(&p, (aclconvIsa)go->isa, &ds, &bytes) && ds.tile_panels;
        }
        it_check_outputs(&o, ref, tol, names, seed, isa, threads, desc);
        it_check_threads(first, &o, threads, seed, isa, desc);
    }
    /* gradWeight alone: the same bits as with gradInput */
    if (p.grad_input.data != NULL && p.grad_weight.data != NULL) {
        conv_problem q = p;
        q.grad_input.data = NULL;
        aclconvSetNumThreads(2);
        it_reset_sentinel(&o.gw);
        it_run_plan(&q, "fast", names);
        if (!it_same_bits(&first[1], &o.gw)) {
            printf("FAIL seed %" PRIu64
                   " isa %s: gradWeight alone differs from gradWeight with gradInput: %s\n",
                   seed, isa, desc);
            it_fail();
        }
    }
    aclconvSetNumThreads(2);
    for (int k = 0; k < 2; ++k) {
        it_tensor_free(&first[k]);
        it_tensor_free(&ref[k]);
        free(tol[k]);
    }
    it_operands_free(&o);
}

/* A budget above FAST_SLAB_FLOATS (data_slab_budget on an L2 of 2 MB or
 * more) gives a 1-D layer with many weights longer data slabs (data_layout):
 * blocking only, so gradInput must have the bits of the fixed budget's plan
 * (real data: another order of the sums would show; the fixed budget's
 * layouts are the ones the other cases check against the reference), and
 * the slabs must differ (else the case would test nothing). Eight images of 480-800 positions: two
 * column blocks under the fixed budget, one under the larger, either way FAST_MIN_TASKS tasks or
 * more. No reference here: it was most of the time of a shard under the sanitizers (ASan: +30-60
 * s). */
static void slab_budget_case(uint64_t seed, int isa)
{
    if (g_calls++ % g_parts != g_part) return;
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    memset(&p, 0, sizeof p);
    p.rank = 1;
    p.n = 8; /* (fewer images: too few tasks for longer blocks) */
    p.g = 1;
    p.cg = rng_range(&r, 300, 320); /* weights of FAST_SLAB_SWEPT blocks or more */
    p.og = rng_range(&r, 300, 320);
    p.data_dir = CONV_DIR_BWD_DATA;
    p.mode = CONV_MODE_F32;
    for (int i = 0; i < 2; ++i) {
        p.xs[i] = p.ys[i] = p.ks[i] = p.stride[i] = p.dil[i] = 1;
        p.pad[i] = 0;
    }
    p.ks[2] = 3;
    p.stride[2] = p.dil[2] = 1;
    p.pad[2] = 1;
    p.xs[2] = p.ys[2] = rng_range(&r, 480, 800);
    it_operands o;
    it_operands_make(&o, &p, 0, 0, &r);
    it_fill(&o.x, 0, 0, &r);
    it_fill(&o.y, 0, 0, &r);
    it_fill(&o.w, 0, 0, &r);
    it_operands_attach(&p, &o);
    p.grad_weight.data = NULL; /* the data pass alone */
    char desc[512];
    it_describe(&p, desc, sizeof desc);
    const char *name = cpu_isa_name((aclconvIsa)isa);
    ++g_cases;
    aclconvSetMaxIsa((aclconvIsa)isa);
    aclconvSetNumThreads(2);
    static const char *const budgets[2] = {"131072", "262144"};
    int64_t slab[2] = {0, 0};
    it_tensor first;
    for (int b = 0; b < 2; ++b) {
        setenv("ACLCONV_FAST_SLAB_BUDGET", budgets[b], 1);
        data_state ds;
        memset(&ds, 0, sizeof ds); /* (data_plan's sums start from its zeros) */
        uint64_t bytes;
        if (data_plan(&p, (aclconvIsa)isa, &ds, &bytes)) slab[b] = ds.slab_floats;
        it_reset_sentinel(&o.gi);
        char names[2][16];
        it_run_plan(&p, "fast", names);
        if (strcmp(names[0], "fast") != 0) {
            printf("FAIL seed %" PRIu64 " isa %s: gradInput planned with %s: %s\n", seed, name,
                   names[0], desc);
            it_fail();
        }
        if (b == 0) {
            it_clone(&first, &o.gi);
        } else if (!it_same_bits(&first, &o.gi)) {
            printf("FAIL seed %" PRIu64
                   " isa %s: gradInput with slab budget %s differs from %s: %s\n",
                   seed, name, budgets[1], budgets[0], desc);
            it_fail();
        }
    }
    unsetenv("ACLCONV_FAST_SLAB_BUDGET");
    if (slab[1] <= slab[0]) {
        printf("FAIL seed %" PRIu64 " isa %s: slab budget %s planned slabs of %" PRId64
               " floats, %s %" PRId64 ": %s\n",
               seed, name, budgets[1], slab[1], budgets[0], slab[0], desc);
        it_fail();
    }
    it_tensor_free(&first);
    it_operands_free(&o);
}

int main(int argc, char **argv)
{
    uint64_t seed = 0x66617374ull;
    int count = 300;
    /* --isa NAME [--family F] [--part K/N]: one ISA's share, one data kernel
     * family's, one part of its cases (ctest runs the program in shards:
     * under ThreadSanitizer one ISA and family took up to the 600 s timeout) */
    int only = -1, family = -1;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--isa") && i + 1 < argc) {
            const char *name = argv[++i];
            for (int isa = ACLCONV_ISA_SCALAR; isa <= ACLCONV_ISA_AVX512; ++isa)
                if (!strcmp(name, cpu_isa_name((aclconvIsa)isa))) only = isa;
            if (only < 0) {
                fprintf(stderr, "test_fast_impl: unknown ISA '%s'\n", name);
                return 2;
            }
        } else if (!strcmp(argv[i], "--family") && i + 1 < argc)
            family = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--part") && i + 1 < argc) {
            if (sscanf(argv[++i], "%d/%d", &g_part, &g_parts) != 2 || g_parts < 1 ||
                g_part < 0 || g_part >= g_parts) {
                fprintf(stderr, "test_fast_impl: --part wants K/N with 0 <= K < N\n");
                return 2;
            }
        }
    }
    printf("test_fast_impl: seed %" PRIu64 ", %d cases per ISA and data kind\n", seed, count);
    const aclconvIsa have = cpu_detected_isa();
    if (only > (int)have) {
        printf("SKIP %s: not supported by this CPU\n", cpu_isa_name((aclconvIsa)only));
        return 77; /* ctest's SKIP_RETURN_CODE */
    }
    int ran = 0;
    for (int isa = ACLCONV_ISA_SCALAR; isa <= ACLCONV_ISA_AVX512; ++isa) {
        if (only >= 0 && isa != only) continue;
        if (isa > (int)have) {
            printf("SKIP %s: not supported by this CPU\n", cpu_isa_name((aclconvIsa)isa));
            continue;
        }
        const int before = it_failures();
        /* the data pass's two kernel families where the ISA has both: every
         * case once with the spatial-vector kernel, once with the
         * channel-vector one (ACLCONV_FAST_CV, read at plan time) */
        const int variants = conv_ukernels_for((aclconvIsa)isa)->convcv ? 2 : 1;
        if (family >= variants) {
            printf("SKIP %s: no kernel family %d\n", cpu_isa_name((aclconvIsa)isa), family);
            continue;
        }
        ++ran;
        for (int cv = 0; cv < variants; ++cv) {
            if (family >= 0 && cv != family) continue;
            if (variants > 1) setenv("ACLCONV_FAST_CV", cv ? "1" : "0", 1);
            g_cv_runs += cv;
            for (int kind = 0; kind < 3; ++kind) {
                gen_opts go = {
                    .stride_max = 4, .int_data = kind != 2, .dtypes = kind == 1, .isa = isa};
                for (int i = 0; i < count; ++i) {
                    /* every other case streams its results where it can
                     * (the spatial-vector kernel's twin, any size), its
                     * tensors' views on 64-byte boundaries so that the
                     * planes of 16k positions do; one in three copies its
                     * one-tap tiles into panels on any ISA, one in three
                     * never (else the ISA's default) */
                    if (i % 2) {
                        setenv("ACLCONV_FAST_NT", "1", 1);
                        it_view_offset = 0;
                    }
                    if (i % 3) setenv("ACLCONV_TILE_PANELS", i % 3 == 1 ? "1" : "0", 1);
                    one_case(seed + (uint64_t)i * 7919u + (uint64_t)kind * 1000003u +
                                 (uint64_t)isa * 7777777u,
                             &go);
                    unsetenv("ACLCONV_FAST_NT");
                    unsetenv("ACLCONV_TILE_PANELS");
                    it_view_offset = 3;
                }
            }
            /* long stride-2 W phases of rounded fp32 results (phase_w) */
            gen_opts gph = {.stride_max = 2, .int_data = 1, .dtypes = 0, .isa = isa, .phase_w = 1};
            for (int i = 0; i < count / 30 + 1; ++i)
                one_case(seed + 314159u * (uint64_t)(i + 1) + (uint64_t)isa, &gph);
            /* long 1-D rows: the column blocks of the fast layout */
            gen_opts go = {.stride_max = 5, .int_data = 1, .dtypes = 0, .isa = isa, .long1d = 1};
            for (int i = 0; i < count / 30 + 1; ++i)
                one_case(seed + 99991u * (uint64_t)(i + 1) + (uint64_t)isa, &go);
            /* the streamed weights pass, with and without gradInput, every
             * dtype and mode; 16-bit dy widened by the blocks or, every
             * other case, into a copy of the image (the vendor picks one) */
            for (int kind = 0; kind < 3; ++kind) {
                gen_opts gs = {.stride_max = 5,
                               .int_data = kind != 2,
                               .dtypes = kind == 1,
                               .isa = isa,
                               .stream = 1};
                for (int i = 0; i < count / 20 + 1; ++i) {
                    setenv("ACLCONV_FAST_STREAM_COPY", i % 2 ? "1" : "0", 1);
                    one_case(seed + 524287u * (uint64_t)(i + 1) + (uint64_t)isa +
                                 (uint64_t)kind * 11u,
                             &gs);
                }
                unsetenv("ACLCONV_FAST_STREAM_COPY");
            }
            /* strides above 16 (bigstride), every dtype */
            for (int kind = 0; kind < 3; ++kind) {
                gen_opts gb = {.stride_max = 1,
                               .int_data = kind != 2,
                               .dtypes = kind == 1,
                               .isa = isa,
                               .bigstride = 1};
                for (int i = 0; i < count / 60 + 1; ++i)
                    one_case(seed + 1009u * (uint64_t)(i + 1) + (uint64_t)isa +
                                 (uint64_t)kind * 19u,
                             &gb);
            }
            /* conv1d_wav-like layers in the rounding modes (wav) */
            gen_opts gwv = {.stride_max = 5, .int_data = 1, .isa = isa, .stream = 1, .wav = 1};
            for (int i = 0; i < count / 60 + 1; ++i)
                one_case(seed + 8191u * (uint64_t)(i + 1) + (uint64_t)isa, &gwv);
            /* the larger data slabs of an L2 of 2 MB (data_slab_budget) */
            for (int i = 0; i < 2; ++i)
                slab_budget_case(seed + 131071u * (uint64_t)(i + 1) + (uint64_t)isa, isa);
            /* many channels: several sweeps of the weights, many o / (c, tap) tiles */
            gen_opts gw = {.stride_max = 3, .int_data = 1, .dtypes = 0, .isa = isa, .wide = 1};
            for (int i = 0; i < count / 60 + 1; ++i)
                one_case(seed + 65537u * (uint64_t)(i + 1) + (uint64_t)isa, &gw);
            /* the weights pass's partial rows split among tasks by input
             * channel (partials of FAST_WT_SPLIT_FLOATS and more: lowered
             * here so that every GEMM-path case takes it), every dtype */
            setenv("ACLCONV_FAST_WT_SPLIT", "1", 1);
            for (int kind = 0; kind < 3; ++kind)
                for (int i = 0; i < count / 20 + 1; ++i) {
                    gen_opts gq = {.stride_max = 3,
                                   .int_data = kind != 2,
                                   .dtypes = kind == 1,
                                   .isa = isa,
                                   .wide = i % 2};
                    one_case(seed + 4099u * (uint64_t)(i + 1) + (uint64_t)isa +
                                 (uint64_t)kind * 13u,
                             &gq);
                }
            unsetenv("ACLCONV_FAST_WT_SPLIT");
            /* the GEMM weights pass's groups of images: the planned count,
             * and counts that leave a short group at a chunk's end */
            for (int kind = 0; kind < 3; ++kind)
                for (int i = 0; i < count / 30 + 1; ++i) {
                    static const char *const images[4] = {NULL, "2", "3", "5"};
                    if (images[i % 4])
                        setenv("ACLCONV_FAST_WT_IMAGES", images[i % 4], 1);
                    gen_opts gg = {.stride_max = 3,
                                   .int_data = kind != 2,
                                   .dtypes = kind == 1,
                                   .isa = isa,
                                   .groups = 1};
                    one_case(seed + 6661u * (uint64_t)(i + 1) + (uint64_t)isa +
                                 (uint64_t)kind * 17u,
                             &gg);
                    unsetenv("ACLCONV_FAST_WT_IMAGES");
                }
            /* 1x1 layers: whole images per call, several images per reduction
             * unit; x read in place (fp32, FLOAT) or converted a unit at a
             * time (16-bit dtypes, the rounded modes: real data shows HF32's
             * operand rounding, small integers pass it unchanged) */
            for (int kind = 0; kind < 3; ++kind) {
                gen_opts gp = {.stride_max = 1,
                               .int_data = kind != 2,
                               .dtypes = kind == 1,
                               .isa = isa,
                               .pointwise = 1};
                for (int i = 0; i < count / 40 + 1; ++i) {
                    /* (tile panels on any ISA, then its default) */
                    if (i % 2 == 0) setenv("ACLCONV_TILE_PANELS", "1", 1);
                    one_case(seed + 131071u * (uint64_t)(i + 1) + (uint64_t)isa +
                                 (uint64_t)kind * 7u,
                             &gp);
                    unsetenv("ACLCONV_TILE_PANELS");
                }
                gp.pointwise = 2;
                for (int i = 0; i < count / 80 + 1; ++i)
                    one_case(seed + 524287u * (uint64_t)(i + 1) + (uint64_t)isa +
                                 (uint64_t)kind * 5u,
                             &gp);
                gp.pointwise = 3;
                for (int i = 0; i < count / 80 + 1; ++i)
                    one_case(seed + 786433u * (uint64_t)(i + 1) + (uint64_t)isa +
                                 (uint64_t)kind * 3u,
                             &gp);
            }
        }
        unsetenv("ACLCONV_FAST_CV");
        printf("%s: %s\n", cpu_isa_name((aclconvIsa)isa), it_failures() == before ? "ok" : "FAIL");
    }
    aclconvSetMaxIsa(ACLCONV_ISA_AVX512);
    if (ran == 0) return 77; /* nothing this CPU has was asked for */
    printf("cases %d, fast data pass %d (tile panels %d), fast weights pass %d\n", g_cases,
           g_fast_data, g_tile_panels, g_fast_wt);
    if (g_cv_runs > 0 && count >= 100 && g_tile_panels == 0) {
        printf("FAIL: no case of the channel-vector kernel ran with tile panels\n");
        it_fail();
    }
    printf("test_fast_impl: %s\n", it_failures() ? "FAILED" : "OK");
    return it_failures() ? 1 : 0;
}
