#define _POSIX_C_SOURCE 200809L
/*
 * The patch implementation (gradInput where dil * (k - 1) < stride in every
 * dim) against the direct one, through conv_plan on canonical problems built
 * here: ranks 1-3, groups, strides 1-6 with kernels up to the stride, padding
 * incl. asymmetric tails, dilation, all dtypes and precision modes, strided
 * views with gaps, every ISA the CPU has, 1 / 2 / 3 threads; the weights pass
 * runs alongside. As test_fast_impl: small-integer data must
 * match direct bitwise, real data within 2 * (n + 2) * 2^-24 * sum|terms|,
 * and the bits must not depend on the thread count; elements outside the
 * views keep their sentinels.
 * - A third of the problems have overlapping patches (k up to s + 3),
 *   summed from unrounded columns; a quarter are transposed (F: gradInput
 *   is the 1x1 forward pass over x's patches as columns).
 * - Forced, patch takes every problem here whose weights' (c, kd, kh, kw)
 *   dims are one run or, with overlapping patches in the FLOAT16 / BF16
 *   modes, whose weights are not of that dtype (rounded into a dense copy;
 *   gradOutput likewise); else direct does.
 * - Forced, patch takes every gradWeight here (x's patches as columns, a
 *   chunk of images at a time, the chunks' sums added in order).
 * - A case in four runs D's gradInput a block of channels at a time (one
 *   channel, or 2 to CG - 1 with a shorter last block: ACLCONV_PATCH_COLS).
 * - Unforced, the planner takes patch (or grouped, ahead of it) for D with
 *   more than 16 output phases (the fast engine's limit) and such weights,
 *   never direct; patch's count is required. It also takes D's gradInput
 *   of small gradOutput planes where fast's multiply-adds would read
 *   padding 4 to 1 or more (a pair-by-pair count here), and only those.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclconv/aclconv.h"
#include "common/cpu.h"
#include "impl_test.h"
#include "test_rng.h"

static int g_cases, g_patch, g_chosen, g_overlap, g_fwd, g_bigk, g_copies, g_heavy;

/* Whether w's (c, kd, kh, kw) dims are one run with a positive step. */
static bool weight_is_run(const conv_view *w)
{
    int64_t step = 0, span = 1;
    for (int d = 4; d >= 1; --d) {
        if (w->dim[d] == 1) continue;
        if (step == 0)
            step = w->stride[d];
        else if (w->stride[d] != step * span)
            return false;
        span *= w->dim[d];
    }
    return step >= 0;
}

/* bigk: 1-D layers with W kernel sides of 33-40 and strides of 8-40,
 * groups of at most 12 channels in two cases of three (over every engine's
 * side limit but dw's: the planner must not pick grouped, whose W tap tables
 * hold 32) */
static void one_case(uint64_t seed, int isa_i, int int_data, int dtypes, int bigk, int blocks)
{
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    memset(&p, 0, sizeof p);
    p.rank = bigk ? 1 : (int)rng_range(&r, 1, 3);
    p.n = rng_range(&r, 1, 4);
    p.g = rng_chance(&r, bigk ? 2 : 1, 3) ? rng_range(&r, 2, 3) : 1;
    const int64_t cmax = p.rank == 3 ? 5 : 12;
    p.cg = rng_range(&r, 1, cmax);
    p.og = rng_range(&r, 1, rng_chance(&r, 1, 3) ? 40 : cmax);
    /* overlapping patches (k up to s + 3) in a third of the cases */
    const bool overlap = rng_chance(&r, 1, 3);
    /* a quarter transposed: F's gradInput over columns of x */
    const bool fwd = rng_chance(&r, 1, 4);
    p.data_dir = fwd ? CONV_DIR_FWD : CONV_DIR_BWD_DATA;
    p.transposed = fwd;
    int64_t phases = 1;
    for (int i = 0; i < 3; ++i) {
        if (i < 3 - p.rank) {
            p.xs[i] = p.ys[i] = p.ks[i] = p.stride[i] = p.dil[i] = 1;
            p.pad[i] = 0;
            continue;
        }
        p.stride[i] = bigk ? rng_range(&r, 8, 40)
                           : rng_range(&r, 1,
                                       p.rank == 1   ? 20
                                       : p.rank == 2 ? 6
                                                     : 4);
        p.ks[i] = bigk ? rng_range(&r, 33, 40)
                       : rng_range(&r, 1, overlap ? p.stride[i] + 3 : p.stride[i]);
        /* dilation while the patch stays inside the stride, or any */
        p.dil[i] = p.ks[i] > 1 && rng_chance(&r, 1, 4) ? (p.stride[i] - 1) / (p.ks[i] - 1) : 1;
        if (p.dil[i] < 1) p.dil[i] = overlap ? 2 : 1;
        /* long 1-D rows in a quarter: 16-bit rows spread in several blocks */
        const int64_t maxs = p.rank == 1   ? (rng_chance(&r, 1, 4) ? 3000 : 200)
                             : p.rank == 2 ? 30
                                           : 10;
        it_draw_extent(&p, i, 0, maxs, &r);
        phases *= p.stride[i];
    }
    /* blocks: runs of the 1x1 pass over one image and 2 to CG - 1 channels
     * of each group (D's gradInput; ACLCONV_PATCH_COLS, the caller unsets
     * it), a shorter last block where that does not divide CG */
    if (blocks && p.cg > 2) {
        const int64_t chan = p.g * p.ks[0] * p.ks[1] * p.ks[2] * p.ys[0] * p.ys[1] * p.ys[2];
        char v[32];
        snprintf(v, sizeof v, "%" PRId64, chan * rng_range(&r, 2, p.cg - 1));
        setenv("ACLCONV_PATCH_COLS", v, 1);
    }
    p.mode = dtypes ? (conv_mode)rng_range(&r, 0, 3)
                    : (int_data ? (conv_mode)rng_range(&r, 0, 1) : CONV_MODE_F32);
    if (!int_data && rng_chance(&r, 1, 2)) p.mode = CONV_MODE_HF32;
    it_operands o;
    it_operands_make(&o, &p, dtypes, rng_chance(&r, 1, 3), &r);
    const int64_t imax = dtypes && (p.mode == CONV_MODE_F16 || p.mode == CONV_MODE_BF16) ? 24 : 0;
    it_fill(&o.x, int_data, imax, &r);
    it_fill(&o.y, int_data, imax, &r);
    it_fill(&o.w, int_data, imax, &r);
    if (int_data) it_mark_operands(&o, p.mode);
    it_operands_attach(&p, &o);
    char desc[512];
    it_describe(&p, desc, sizeof desc);
    const char *isa = cpu_isa_name((aclconvIsa)isa_i);
    ++g_cases;

    aclconvSetMaxIsa((aclconvIsa)isa_i);
    aclconvSetNumThreads(2);
    it_tensor ref[2];
    it_run_reference(&p, &o, ref);
    float *tol[2] = {NULL, NULL};
    if (!int_data) it_tolerances(&p, &o, tol);

    /* overlapping patches sum unrounded columns: in the FLOAT16 / BF16
     * modes from operands of that dtype, others rounded into fp32 copies
     * first (the weights' copy is dense: any weights then) */
    bool overlaps = false;
    for (int i = 0; i < 3; ++i)
        overlaps = overlaps || p.dil[i] * (p.ks[i] - 1) >= p.stride[i];
    const aclDataType mdt = p.mode == CONV_MODE_F16 ? ACL_FLOAT16 : ACL_BF16;
    const bool rounds = p.mode == CONV_MODE_F16 || p.mode == CONV_MODE_BF16;
    const bool wcopy = !fwd && overlaps && rounds && p.w.dtype != mdt;
    const bool run = weight_is_run(&p.w) || wcopy;
    g_overlap += overlaps && run && !fwd;
    g_copies += overlaps && rounds && !fwd && (wcopy || p.y.dtype != mdt);
    g_fwd += fwd && run;
    it_tensor first[2];
    char names[2][16];
    for (int threads = 1; threads <= 3; ++threads) {
        it_reset_sentinel(&o.gi);
        it_reset_sentinel(&o.gw);
        aclconvSetNumThreads(threads);
        it_run_plan(&p, "patch", names);
        if ((strcmp(names[0], "patch") == 0) != run) {
            printf("FAIL seed %" PRIu64 " isa %s: gradInput planned with %s (patch %s): %s\n", seed,
                   isa, names[0], run ? "expected" : "not expected", desc);
            it_fail();
        }
        if (strcmp(names[1], "patch") != 0) {
            printf("FAIL seed %" PRIu64 " isa %s: gradWeight planned with %s: %s\n", seed, isa,
                   names[1], desc);
            it_fail();
        }
        if (threads == 1) g_patch += strcmp(names[0], "patch") == 0;
        it_check_outputs(&o, ref, tol, names, seed, isa, threads, desc);
        it_check_threads(first, &o, threads, seed, isa, desc);
    }
    /* the planner's own choice: patch where the fast engine has too many
     * output phases */
    if ((phases > 16 && !fwd && run) || bigk) {
        it_reset_sentinel(&o.gi);
        it_reset_sentinel(&o.gw);
        aclconvSetNumThreads(2);
        it_run_plan(&p, NULL, names);
        if ((run && strcmp(names[0], "direct") == 0) ||
            (bigk && (strcmp(names[0], "grouped") == 0 || strcmp(names[1], "grouped") == 0))) {
            printf("FAIL seed %" PRIu64 " isa %s: %" PRId64
                   " output phases planned with %s / %s: %s\n",
                   seed, isa, phases, names[0], names[1], desc);
            it_fail();
        }
        g_bigk += bigk;
        g_chosen += strcmp(names[0], "patch") == 0;
        it_check_outputs(&o, ref, tol, names, seed, isa, 2, desc);
    }
    aclconvSetNumThreads(2);
    for (int k = 0; k < 2; ++k) {
        it_tensor_free(&first[k]);
        it_tensor_free(&ref[k]);
        free(tol[k]);
    }
    it_operands_free(&o);
}

/* The ratio of fast's multiply-adds for D's gradInput (every tap of a
 * position's phase) to those reading a gradOutput element, counted pair by
 * pair per dim (conv_patch.c computes it in closed form). */
static double padding_ratio(const conv_problem *p)
{
    double ratio = 1.0;
    for (int i = 0; i < 3; ++i) {
        int64_t computed = 0, useful = 0;
        for (int64_t x = 0; x < p->xs[i]; ++x)
            for (int64_t k = 0; k < p->ks[i]; ++k) {
                const int64_t v = x + p->pad[i] - k * p->dil[i];
                if (((v % p->stride[i]) + p->stride[i]) % p->stride[i] != 0) continue;
                ++computed;
                useful += v >= 0 && v / p->stride[i] < p->ys[i];
            }
        if (useful == 0) return 0.0;
        ratio *= (double)computed / (double)useful;
    }
    return ratio;
}

/* Unforced D's gradInput of 2-D layers with small gradOutput planes, wide
 * dilated kernels and padding (strides 1-2): the planner takes patch where
 * fast's multiply-adds would read padding 4 to 1 or more (weights as one
 * run), fast otherwise; the results as for every case here. */
static void padding_case(uint64_t seed, int isa_i)
{
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    memset(&p, 0, sizeof p);
    p.rank = 2;
    p.n = rng_range(&r, 1, 3);
    p.g = 1;
    p.cg = rng_range(&r, 1, 12);
    p.og = rng_range(&r, 1, 40);
    p.data_dir = CONV_DIR_BWD_DATA;
    p.xs[0] = p.ys[0] = p.ks[0] = p.stride[0] = p.dil[0] = 1;
    for (int i = 1; i < 3; ++i) {
        p.stride[i] = rng_range(&r, 1, 2);
        p.ks[i] = rng_range(&r, 2, 5);
        p.dil[i] = rng_range(&r, 1, 3);
        it_draw_extent(&p, i, 0, rng_chance(&r, 1, 2) ? 2 : 12, &r);
    }
    p.mode = (conv_mode)rng_range(&r, 0, 1);
    it_operands o;
    it_operands_make(&o, &p, 0, rng_chance(&r, 1, 3), &r);
    it_fill(&o.x, 1, 0, &r);
    it_fill(&o.y, 1, 0, &r);
    it_fill(&o.w, 1, 0, &r);
    it_mark_operands(&o, p.mode);
    it_operands_attach(&p, &o);
    char desc[512];
    it_describe(&p, desc, sizeof desc);
    const char *isa = cpu_isa_name((aclconvIsa)isa_i);
    aclconvSetMaxIsa((aclconvIsa)isa_i);
    aclconvSetNumThreads(2);
    it_tensor ref[2];
    it_run_reference(&p, &o, ref);
    float *tol[2] = {NULL, NULL};
    char names[2][16];
    it_reset_sentinel(&o.gi);
    it_reset_sentinel(&o.gw);
    it_run_plan(&p, NULL, names);
    const bool heavy = padding_ratio(&p) >= 4.0 && weight_is_run(&p.w);
    if ((strcmp(names[0], "patch") == 0) != heavy || strcmp(names[0], "direct") == 0) {
        printf("FAIL seed %" PRIu64 " isa %s: gradInput with padding ratio %.2f planned with %s: "
               "%s\n",
               seed, isa, padding_ratio(&p), names[0], desc);
        it_fail();
    }
    g_heavy += heavy;
    it_check_outputs(&o, ref, tol, names, seed, isa, 2, desc);
    for (int k = 0; k < 2; ++k)
        it_tensor_free(&ref[k]);
    it_operands_free(&o);
}

int main(int argc, char **argv)
{
    uint64_t seed = 0x7061746368ull;
    int count = 120;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count = atoi(argv[++i]);
    }
    printf("test_patch_impl: seed %" PRIu64 ", %d cases per ISA and data kind\n", seed, count);
    const aclconvIsa have = cpu_detected_isa();
    for (int isa = ACLCONV_ISA_SCALAR; isa <= (int)have; ++isa) {
        const int before = it_failures();
        /* small integers (bitwise; fp32 or every dtype), real data (bounds) */
        for (int kind = 0; kind < 3; ++kind)
            for (int i = 0; i < count; ++i) {
                /* a case in four a chunk per image and, for D's gradInput,
                 * a block per channel (ACLCONV_PATCH_COLS=1): the chunks'
                 * columns reused, their gradWeight sums added; another in
                 * four blocks of several channels */
                if (i % 4 == 1) setenv("ACLCONV_PATCH_COLS", "1", 1);
                one_case(seed + 7919u * (uint64_t)i + 104729u * (uint64_t)kind + (uint64_t)isa, isa,
                         kind != 2, kind == 1, 0, i % 4 == 3);
                unsetenv("ACLCONV_PATCH_COLS");
            }
        for (int i = 0; i < count / 10 + 1; ++i)
            one_case(seed + 6151u * (uint64_t)i + (uint64_t)isa, isa, 1, i % 2, 1, 0);
        for (int i = 0; i < count / 2; ++i)
            padding_case(seed + 4099u * (uint64_t)i + (uint64_t)isa, isa);
        printf("%s: %s\n", cpu_isa_name((aclconvIsa)isa), it_failures() == before ? "ok" : "FAIL");
    }
    aclconvSetMaxIsa(ACLCONV_ISA_AVX512);
    printf("cases %d, patch gradInput %d (overlapping %d, from rounded copies %d, transposed %d), "
           "chosen by the planner %d, for padding %d\n",
           g_cases, g_patch, g_overlap, g_copies, g_fwd, g_chosen, g_heavy);
    if (g_patch < g_cases / 2 || g_chosen == 0 || g_overlap == 0 || g_fwd == 0 || g_bigk == 0 ||
        g_copies == 0 || g_heavy == 0) {
        printf("FAIL: too few cases reached patch\n");
        it_fail();
    }
    printf("test_patch_impl: %s\n", it_failures() ? "FAILED" : "OK");
    return it_failures() ? 1 : 0;
}
