#define _POSIX_C_SOURCE 200809L
/*
 * The grouped implementation ("grouped", src/engine/conv_grouped.c) against
 * the direct one, through conv_plan on canonical grouped problems built here
 * (2 <= G <= 64, CG and OG 1..16, not both 1): both data directions (D =
 * regular call, F = transposed call after the role swap) and the weights pass,
 * ranks 1-3, strides 1-3 (stride > kernel too, so some output phases have no
 * tap), dilation 1-2, head padding with an independent tail (the canonical
 * form of 4-element asymmetric 2-D padding), all dtypes and precision modes,
 * strided views with gaps, every ISA the CPU has (ACLCONV_ISA), 1 / 2 / 3
 * threads.
 *
 * - Small-integer data: every partial sum is an exact fp32 integer, so any
 *   summation order gives the same fp32 sum and the same rounding to the
 *   output dtype: grouped and direct must agree bitwise, in every mode/dtype.
 *   Half of the mixed-dtype cases draw weights in [-300, 300], so data
 *   gradients exceed what fp16 / bf16 hold exactly and the mode's result
 *   rounding shows.
 * - Real data (fp32, modes FLOAT / HF32): both sum the same terms in different
 *   orders (grouped with FMA and lane partial sums), each within
 *   n * 2^-24 * sum|terms| of the exact sum (n = terms per output); we allow
 *   2 * (n + 2) * 2^-24 * sum|terms|, with sum|terms| computed by the direct
 *   implementation on |operands|.
 * - grouped results are bitwise equal for 1, 2 and 3 threads.
 * - gradBias requested with gradWeight (real data, any dtype and mode,
 *   sometimes a NaN in dy): equal bitwise to conv_bias_run, whether the
 *   grouped weights pass sums it or conv_bias does; each fused path (fp32 dy
 *   in place, fp32 dy rounded by the mode, fp16 / bf16 dy, a NaN in 16-bit
 *   dy) must be taken on every ISA.
 * - Dense 16-bit sources and gradInput in the masked layout (planes widened
 *   and stored a plane per call) must be run on every ISA, and so must an
 *   fp32 gradInput written in place in the FLOAT16 mode, masked (the kernel
 *   rounds as it stores) and shifted copies (rounded after the kernel).
 * - Elements of the output buffers outside the views keep their sentinel; the
 *   workspace is filled with 0xA5 and must not be overrun.
 * - Every source layout (data pass: masked single copies, KW shifted
 *   copies, whole packed planes; weights pass: masked single copies, KW
 *   shifted copies; conv_grouped_layout) is run on every ISA.
 * - grouped must be chosen for every pass of these problems and decline
 *   depthwise problems, G == 1 and more than 16 channels per group.
 * Every failure prints the problem and the seed; --seed S / --count N change
 * the run (the default seed is fixed, so ctest is reproducible).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclconv/aclconv.h"
#include "common/cpu.h"
#include "engine/conv_bias.h"
#include "engine/conv_grouped.h"
#include "impl_test.h"
#include "test_rng.h"

static int g_cases, g_grp_data, g_grp_wt;
/* layouts planned per ISA: data masked, copies, planes; weights masked,
 * copies; data merged (W stride 2, the grpconv_s2 kernel) */
static int g_layout[3][6];
/* per ISA, cases with dense 16-bit x / dy in the masked layout of a pass
 * (whole source planes widened in one call), and with a dense 16-bit
 * gradInput (stored a plane at a time) */
static int g_run16[3], g_store16[3];
/* per ISA: merged data passes (W stride 2) with a 16-bit gradInput */
static int g_merged16[3];
/* per ISA, data passes storing gradInput in place with the mode's result
 * rounding: masked (by the kernel), shifted copies (after it), merged (by
 * the kernel) */
static int g_round_in_place[3][3];

typedef struct gen_opts {
    int int_data;
    int dtypes;
    int isa;
    int wide; /* many groups, small planes */
    int same; /* 1-D / 2-D, stride 1, W output = W input (ResNeXt's shape of problem) */
} gen_opts;

static const char *const k_isa_env[3] = {"scalar", "avx2", "avx512"};

/* A random canonical grouped problem (views not yet attached). */
static void gen_problem(conv_problem *p, test_rng *r, const gen_opts *go)
{
    memset(p, 0, sizeof *p);
    p->rank = (int)rng_range(r, 1, go->same ? 2 : 3);
    p->n = rng_range(r, 1, 4);
    p->g = go->wide ? rng_range(r, 16, 64) : rng_range(r, 2, 6);
    const int64_t maxc = go->wide ? 3 : rng_chance(r, 1, 4) ? 16 : 8;
    do {
        p->cg = rng_range(r, 1, maxc);
        p->og = rng_range(r, 1, maxc);
    } while (p->cg == 1 && p->og == 1);
    p->data_dir = rng_chance(r, 1, 2) ? CONV_DIR_FWD : CONV_DIR_BWD_DATA;
    p->transposed = p->data_dir == CONV_DIR_FWD;
    for (int i = 0; i < 3; ++i) {
        const bool used = i >= 3 - p->rank;
        if (!used) {
            p->xs[i] = p->ys[i] = p->ks[i] = p->stride[i] = p->dil[i] = 1;
            p->pad[i] = 0;
            continue;
        }
        const int64_t maxs = go->wide ? 4 : p->rank == 1 ? 40 : p->rank == 2 ? 13 : 5;
        p->ks[i] = rng_range(r, 1, p->rank == 3 ? 3 : 5);
        p->dil[i] = rng_chance(r, 1, 4) ? 2 : 1;
        p->stride[i] = rng_chance(r, 1, 2) ? rng_range(r, 2, 3) : 1;
        if (go->same) p->stride[i] = 1;
        it_draw_extent(p, i, 0, maxs, r);
        if (go->same && i == 2) { /* head + tail padding = the kernel's extent - 1 */
            const int64_t ext = p->dil[i] * (p->ks[i] - 1) + 1;
            if (p->pad[i] > ext - 1) p->pad[i] = ext - 1;
            p->ys[i] = p->xs[i];
        }
    }
    p->mode = go->dtypes ? (conv_mode)rng_range(r, 0, 3)
                         : (go->int_data ? (conv_mode)rng_range(r, 0, 1) : CONV_MODE_F32);
    if (!go->int_data && rng_chance(r, 1, 2)) p->mode = CONV_MODE_HF32;
}

static void one_case(uint64_t seed, const gen_opts *go)
{
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    gen_problem(&p, &r, go);
    it_operands o;
    const int views = rng_chance(&r, 1, 3);
    it_operands_make(&o, &p, go->dtypes, views, &r);
    it_fill(&o.x, go->int_data, 0, &r);
    it_fill(&o.y, go->int_data, 0, &r);
    /* wide integer weights (still integers in every dtype and after every
     * operand rounding, sums still exact in fp32): data gradients beyond what
     * fp16 / bf16 hold, so the mode's result rounding shows */
    it_fill(&o.w, go->int_data, go->dtypes && rng_chance(&r, 1, 2) ? 300 : 0, &r);
    if (go->int_data) /* a missed operand rounding shows (it_mark_rounding) */
        it_mark_operands(&o, p.mode);
    it_operands_attach(&p, &o);
    char desc[512];
    it_describe(&p, desc, sizeof desc);
    const char *isa = k_isa_env[go->isa];
    ++g_cases;
    const char *layout = conv_grouped_layout(&p, CONV_PASS_DATA, (aclconvIsa)go->isa);
    if (layout)
        g_layout[go->isa][!strcmp(layout, "masked")   ? 0
                          : !strcmp(layout, "copies") ? 1
                          : !strcmp(layout, "merged") ? 5
                                                      : 2]++;
    const bool masked_data = layout && !strcmp(layout, "masked");
    const bool merged_data = layout && !strcmp(layout, "merged");
    if (conv_grouped_rounds_in_place(&p, (aclconvIsa)go->isa))
        g_round_in_place[go->isa][masked_data ? 0 : merged_data ? 2 : 1]++;
    layout = conv_grouped_layout(&p, CONV_PASS_WEIGHTS, (aclconvIsa)go->isa);
    if (layout) g_layout[go->isa][!strcmp(layout, "masked") ? 3 : 4]++;
    if (!views && layout && !strcmp(layout, "masked") && (p.x.dtype != ACL_FLOAT || p.y.dtype != ACL_FLOAT))
        g_run16[go->isa]++;
    if (!views && masked_data && p.grad_input.dtype != ACL_FLOAT) g_store16[go->isa]++;
    if (merged_data && p.grad_input.dtype != ACL_FLOAT) g_merged16[go->isa]++;

    setenv("ACLCONV_ISA", isa, 1);
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
        it_run_plan(&p, NULL, names);
        for (int k = 0; k < 2; ++k)
            if (strcmp(names[k], "grouped") != 0) {
                printf("FAIL seed %" PRIu64 " isa %s: pass %d planned with %s, not grouped: %s\n",
                       seed, isa, k, names[k], desc);
                it_fail();
            }
        if (threads == 1) {
            g_grp_data += strcmp(names[0], "grouped") == 0;
            g_grp_wt += strcmp(names[1], "grouped") == 0;
        }
        it_check_outputs(&o, ref, tol, names, seed, isa, threads, desc);
        it_check_threads(first, &o, threads, seed, isa, desc);
    }
    aclconvSetNumThreads(2);
    for (int k = 0; k < 2; ++k) {
        it_tensor_free(&first[k]);
        it_tensor_free(&ref[k]);
        free(tol[k]);
    }
    it_operands_free(&o);
}

/* Kinds of fused gradBias cases counted per ISA: fp32 dy read in place
 * (mode FLOAT), fp32 dy rounded by the mode (summed from the view), fp16 /
 * bf16 dy (summed from the widened planes), and a NaN in 16-bit dy (summed
 * again from the view). */
enum { FUSED_IN_PLACE, FUSED_F32_ROUNDED, FUSED_F16, FUSED_BF16, FUSED_NAN16, FUSED_KINDS };

/* A NaN at a random element of t's view, signalling or quiet, with a
 * payload: its bits must reach gradBias as conv_bias_run sums them. */
static void put_nan(it_tensor *t, test_rng *r)
{
    const int64_t at = it_offset_of(&t->v, rng_range(r, 0, it_numel(&t->v) - 1));
    const uint32_t payload = (uint32_t)rng_range(r, 1, 63), quiet = rng_chance(r, 1, 2);
    if (t->v.dtype == ACL_FLOAT) {
        const uint32_t b = 0x7f800000u | quiet << 22 | payload;
        memcpy((float *)t->v.data + at, &b, sizeof b);
    } else if (t->v.dtype == ACL_BF16) {
        ((uint16_t *)t->v.data)[at] = (uint16_t)(0x7f80u | quiet << 6 | payload);
    } else {
        ((uint16_t *)t->v.data)[at] = (uint16_t)(0x7c00u | quiet << 9 | payload);
    }
}

/* gradBias requested with gradWeight, real data in any dtype and mode (so the
 * summation order shows), sometimes a NaN in dy: whether the grouped weights
 * pass sums it (fused) or conv_bias does, the bits must be conv_bias_run's
 * (the original dy values, unrounded), for 1, 2 and 3 threads. Counts the
 * fused cases per kind in fused. */
static void bias_case(uint64_t seed, int isa, int fused[FUSED_KINDS])
{
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    gen_opts go = {.int_data = 0, .isa = isa, .wide = rng_chance(&r, 1, 2)};
    gen_problem(&p, &r, &go);
    /* a third of the cases fp32 in mode FLOAT: dy read in place */
    const bool any_dtype = rng_chance(&r, 2, 3);
    p.mode = any_dtype ? (conv_mode)rng_range(&r, 0, 3) : CONV_MODE_F32;
    it_operands o;
    it_operands_make(&o, &p, any_dtype, rng_chance(&r, 1, 4), &r);
    it_fill(&o.x, 0, 0, &r);
    it_fill(&o.y, 0, 0, &r);
    it_fill(&o.w, 0, 0, &r);
    const bool nan = rng_chance(&r, 1, 2);
    if (nan) put_nan(&o.y, &r);
    it_operands_attach(&p, &o);
    const int64_t bd[5] = {1, p.g * p.og, 1, 1, 1};
    it_tensor gb, ref;
    it_tensor_make(&gb, rng_chance(&r, 1, 3) ? ACL_BF16 : ACL_FLOAT, bd, 0, &r);
    it_clone_layout(&ref, &gb);
    conv_problem q = p;
    q.grad_bias = ref.v;
    conv_bias_run(&q, ACLCONV_ISA_SCALAR); /* any ISA's row kernel: the same bits */
    p.grad_bias = gb.v;
    char desc[512], names[2][16], msg[256];
    it_describe(&p, desc, sizeof desc);
    setenv("ACLCONV_ISA", k_isa_env[isa], 1);
    _Alignas(64) unsigned char state[CONV_IMPL_STATE_BYTES] = {0};
    uint64_t bytes;
    aclconvSetNumThreads(1);
    if (conv_impl_grouped.plan(&p, CONV_PASS_WEIGHTS, (aclconvIsa)isa, state, &bytes) &&
        conv_impl_grouped.fuses_bias(state)) {
        const aclDataType dt = p.y.dtype;
        ++fused[dt == ACL_FLOAT ? (p.mode == CONV_MODE_F32 ? FUSED_IN_PLACE : FUSED_F32_ROUNDED)
                                : dt == ACL_FLOAT16 ? FUSED_F16 : FUSED_BF16];
        if (nan && dt != ACL_FLOAT) ++fused[FUSED_NAN16];
    }
    for (int threads = 1; threads <= 3; ++threads) {
        it_reset_sentinel(&gb);
        aclconvSetNumThreads(threads);
        it_run_plan(&p, NULL, names);
        if (strcmp(names[1], "grouped") != 0 || it_compare(&gb, &ref, NULL, msg, sizeof msg) != 0) {
            printf("FAIL seed %" PRIu64 " isa %s threads %d: gradBias with %s: %s: %s\n", seed,
                   k_isa_env[isa], threads, names[1], strcmp(names[1], "grouped") ? "not grouped" : msg,
                   desc);
            it_fail();
        }
    }
    aclconvSetNumThreads(2);
    it_tensor_free(&gb);
    it_tensor_free(&ref);
    it_operands_free(&o);
}

/* Problems grouped does not take (depthwise, one group, more than 16
 * channels per group): it must decline both passes, even when forced. */
static void decline_case(uint64_t seed)
{
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    gen_opts go = {.int_data = 1};
    gen_problem(&p, &r, &go);
    switch (rng_range(&r, 0, 3)) {
    case 0: p.cg = p.og = 1; break;
    case 1: p.g = 1; break;
    case 2: p.cg = rng_range(&r, 17, 20); break;
    default: p.og = rng_range(&r, 17, 20); break;
    }
    it_operands o;
    it_operands_make(&o, &p, 0, 0, &r); /* fp32, dense */
    it_fill(&o.x, 1, 0, &r);
    it_fill(&o.y, 1, 0, &r);
    it_fill(&o.w, 1, 0, &r);
    it_operands_attach(&p, &o);
    char names[2][16], desc[512];
    it_describe(&p, desc, sizeof desc);
    it_run_plan(&p, "grouped", names);
    for (int k = 0; k < 2; ++k)
        if (strcmp(names[k], "grouped") == 0) {
            printf("FAIL seed %" PRIu64 ": grouped accepted pass %d of a problem it must decline: "
                   "%s\n",
                   seed, k, desc);
            it_fail();
        }
    it_operands_free(&o);
}

/* why_not on problems never run here: ResNeXt's layer is taken, a group
 * whose planes (with their shifted copies) exceed 2^22 floats is declined. */
static void size_checks(void)
{
    conv_problem p;
    memset(&p, 0, sizeof p);
    p.rank = 2;
    p.n = 32;
    p.g = 32;
    p.cg = p.og = 8;
    p.data_dir = CONV_DIR_BWD_DATA;
    for (int i = 0; i < 3; ++i) {
        p.xs[i] = p.ys[i] = i ? 28 : 1;
        p.ks[i] = i ? 3 : 1;
        p.stride[i] = p.dil[i] = 1;
        p.pad[i] = i ? 1 : 0;
    }
    for (int pass = 0; pass < CONV_PASS_COUNT; ++pass)
        if (conv_impl_grouped.why_not(&p, (conv_pass)pass, ACLCONV_ISA_SCALAR) != NULL) {
            printf("FAIL grouped declines pass %d of resnext_g32: %s\n", pass,
                   conv_impl_grouped.why_not(&p, (conv_pass)pass, ACLCONV_ISA_SCALAR));
            it_fail();
        }
    p.rank = 1;
    p.cg = p.og = 16;
    p.xs[1] = p.ys[1] = p.ks[1] = 1;
    p.pad[1] = 0;
    p.xs[2] = p.ys[2] = 100000; /* 16 channels x 3 copies x 100002 floats > 2^22 */
    for (int pass = 0; pass < CONV_PASS_COUNT; ++pass)
        if (conv_impl_grouped.why_not(&p, (conv_pass)pass, ACLCONV_ISA_SCALAR) == NULL) {
            printf("FAIL grouped accepts pass %d with planes beyond 2^22 floats\n", pass);
            it_fail();
        }
}

int main(int argc, char **argv)
{
    uint64_t seed = 0x67727075ull;
    int count = 400;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc) count = atoi(argv[++i]);
    }
    printf("test_grouped_impl: seed %" PRIu64 ", %d cases per ISA and data kind\n", seed, count);
    const aclconvIsa have = cpu_detected_isa();
    for (int isa = ACLCONV_ISA_SCALAR; isa <= ACLCONV_ISA_AVX512; ++isa) {
        if (isa > (int)have) {
            printf("SKIP %s: not supported by this CPU\n", cpu_isa_name((aclconvIsa)isa));
            continue;
        }
        const int before = it_failures();
        for (int kind = 0; kind < 6; ++kind) {
            /* 0: int fp32, 1: int any dtype/mode, 2: real, 3: many groups,
             * 4: int fp32, stride 1 and the same W (masked layouts, in place),
             * 5: as 4 in any dtype/mode (16-bit planes loaded and stored whole) */
            gen_opts go = {.int_data = kind != 2, .dtypes = kind == 1 || kind == 5, .isa = isa,
                           .wide = kind == 3, .same = kind >= 4};
            const int n = kind >= 3 ? count / 4 + 1 : count;
            for (int i = 0; i < n; ++i)
                one_case(seed + (uint64_t)i * 7919u + (uint64_t)kind * 1000003u + (uint64_t)isa * 7777777u, &go);
        }
        int fused[FUSED_KINDS] = {0};
        const int nbias = count / 4 + 1;
        for (int i = 0; i < nbias; ++i) bias_case(seed + 424242u * (uint64_t)(i + 1) + (uint64_t)isa, isa, fused);
        static const char *const fused_names[FUSED_KINDS] = {
            "fp32 dy in place", "fp32 dy rounded by the mode", "fp16 dy", "bf16 dy", "a NaN in 16-bit dy"};
        for (int k = 0; k < FUSED_KINDS; ++k)
            if (fused[k] == 0) {
                printf("FAIL %s: the weights pass never summed gradBias itself with %s\n",
                       cpu_isa_name((aclconvIsa)isa), fused_names[k]);
                it_fail();
            }
        if (g_merged16[isa] == 0) {
            printf("FAIL %s: no merged data pass with a 16-bit gradInput\n",
                   cpu_isa_name((aclconvIsa)isa));
            it_fail();
        }
        if (g_run16[isa] == 0 || g_store16[isa] == 0) {
            printf("FAIL %s: no case with dense 16-bit sources (%d) or gradInput (%d) in the masked layout\n",
                   cpu_isa_name((aclconvIsa)isa), g_run16[isa], g_store16[isa]);
            it_fail();
        }
        /* every layout of both passes must have been run on this ISA */
        static const char *const names[6] = {"data masked",    "data copies",    "data planes",
                                             "weights masked", "weights copies", "data merged"};
        for (int l = 0; l < 6; ++l)
            if (g_layout[isa][l] == 0) {
                printf("FAIL %s: no case planned the %s layout\n", cpu_isa_name((aclconvIsa)isa),
                       names[l]);
                it_fail();
            }
        static const char *const rnames[3] = {"masked", "copies", "merged"};
        for (int l = 0; l < 3; ++l)
            if (g_round_in_place[isa][l] == 0) {
                printf("FAIL %s: no %s data pass rounded gradInput in place\n",
                       cpu_isa_name((aclconvIsa)isa), rnames[l]);
                it_fail();
            }
        printf(
            "%s: %s (data layouts: masked %d, copies %d, planes %d, merged %d; weights: masked %d, "
            "copies %d; dense 16-bit masked: sources %d, gradInput %d; merged 16-bit %d; rounded "
            "in place: masked "
            "%d, copies %d, merged %d; fused gradBias of %d: fp32 in place %d, "
            "fp32 rounded %d, fp16 %d, bf16 %d, NaN %d)\n",
            cpu_isa_name((aclconvIsa)isa), it_failures() == before ? "ok" : "FAIL",
            g_layout[isa][0], g_layout[isa][1], g_layout[isa][2], g_layout[isa][5],
            g_layout[isa][3], g_layout[isa][4], g_run16[isa], g_store16[isa], g_merged16[isa],
            g_round_in_place[isa][0], g_round_in_place[isa][1], g_round_in_place[isa][2], nbias,
            fused[FUSED_IN_PLACE], fused[FUSED_F32_ROUNDED], fused[FUSED_F16], fused[FUSED_BF16],
            fused[FUSED_NAN16]);
    }
    unsetenv("ACLCONV_ISA");
    for (int i = 0; i < 40; ++i) decline_case(seed + 31337u * (uint64_t)(i + 1));
    size_checks();
    printf("cases %d, grouped data pass %d, grouped weights pass %d\n", g_cases, g_grp_data, g_grp_wt);
    printf("test_grouped_impl: %s\n", it_failures() ? "FAILED" : "OK");
    return it_failures() ? 1 : 0;
}
