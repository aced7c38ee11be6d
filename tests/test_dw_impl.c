#define _POSIX_C_SOURCE 200809L
/*
 * The depthwise implementation ("dw", src/engine/conv_dw.c) against the
 * direct one, through conv_plan on canonical depthwise problems built here
 * (CG == OG == 1): both data directions (D = regular call, F = transposed call
 * after the role swap) and the weights pass, ranks 1-3, strides 1-3 (stride >
 * kernel too, so some output phases have no tap), dilation 1-2, head padding
 * with an independent tail (the canonical form of 4-element asymmetric 2-D
 * padding), all dtypes and precision modes, strided views with gaps, every ISA
 * the CPU has (ACLCONV_ISA), 1 / 2 / 3 threads.
 *
 * - Small-integer data: every partial sum is an exact fp32 integer, so any
 *   summation order gives the same fp32 sum and the same rounding to the
 *   output dtype: dw and direct must agree bitwise, in every mode/dtype.
 * - Real data (fp32, modes FLOAT / HF32): both sum the same terms in different
 *   orders (dw with FMA), each within n * 2^-24 * sum|terms| of the exact sum
 *   (n = terms per output); we allow 2 * (n + 2) * 2^-24 * sum|terms|, with
 *   sum|terms| computed by the direct implementation on |operands|.
 * - dw results are bitwise equal for 1, 2 and 3 threads.
 * - In the FLOAT16 / BF16 modes every fp32 gradInput element is a value of
 *   the mode's dtype (real data in any dtype, mode and stride: the packed
 *   path's merged stride-2 stores round as they write).
 * - In-place kinds (ACLCONV_DW_INPLACE=1, unit strides, and 3x3 weights
 *   passes at stride 2 on AVX-512, the dwrowwt_s2 kernel) in every dtype and
 *   mode: the in-place path, reading fp16 / bf16 / rounded planes widened into
 *   its workspace (or, in the AVX-512 kernels' row-window form, the views
 *   themselves, widened or rounded by the kernels as they load them:
 *   counted, both passes must reach it) and storing rounded
 *   gradInput from there, must give the
 *   bits of the packed path (ACLCONV_DW_INPLACE=0), also with real data and
 *   with infinities and NaNs (signalling ones too), and of itself on copies
 *   with W step 2 (rows widened one by one). HF32 takes each of dw's two
 *   plans in one case of two (ACLCONV_DW_HF32: rounded in the kernels'
 *   window, or once into copies; counted: AVX-512 must reach both). Dense
 *   16-bit gradInput planes
 *   are stored by the narrowing kernel (counted: the kinds must reach them),
 *   in groups of planes of whole lines where channels are adjacent
 *   (counted: AVX2 and AVX-512 must reach them), dense fp32 planes of whole lines streamed out
 *   from the workspace (counted: AVX2 and AVX-512 must reach them). Fused gradBias must equal
 *   conv_bias_run's bits (16-bit dy: summed from its widened planes, or
 *   from the view by the 16-bit dwsum).
 * - Where the weights run computes gradInput too (both passes are wanted in
 *   every case here; one of them in place), the passes run apart
 *   (ACLCONV_DW_FUSE=0) give the same bits (counted: every ISA must reach
 *   it).
 * - Elements of the output buffers outside the views keep their sentinel; the
 *   workspace is filled with 0xA5 and must not be overrun.
 * - dw must be chosen for every depthwise pass and decline every problem with
 *   more than one channel per group.
 * Every failure prints the problem and the seed; --seed S / --count N change
 * the run (the default seed is fixed, so ctest is reproducible).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclconv/aclconv.h"
#include "common/alloc.h"
#include "common/cpu.h"
#include "common/dtype.h" /* f32_bits */
#include "engine/conv_bias.h"
#include "engine/conv_dw.h"
#include "engine/conv_views.h" /* conv_mode_keeps */
#include "impl_test.h"
#include "test_rng.h"

static int g_cases, g_dw_data, g_dw_wt, g_inplace, g_widened, g_bias_fused, g_whole;
static int g_inplace_s2[3]; /* per ISA: weights passes through the stride-2 in-place kernel */
static int g_chan[3][2];    /* per ISA: data, weights passes with the channels in the vector */
static int g_chan16[3][2];  /* of those data / weights passes, 16-bit sources */
static int g_chan_round[3]; /* passes with the channels in the vector rounding fp32 as packed */
static int g_chan_fused[3][2]; /* runs of both gradients, dwchconv into gradInput, streamed */
/* runs of both gradients whose data pass alone has the channels in the
 * vector and whose weights pass has not (the data pass planned without) */
static int g_chan_mixed[3];
/* per ISA and pass (data, weights): in-place passes whose kernels convert
 * the source (16-bit, or fp32 rounded) as they read it; per ISA: weights
 * passes whose kernels convert dy too */
static int g_src16[3][2], g_dy16[3];
/* per ISA: stride-2 data passes by the merged kernel (dwconv_s2), of them
 * with the mode's result rounding, and with a 16-bit gradInput (the merged
 * plane narrowed whole) */
static int g_merged[3], g_merged_round[3], g_merged16[3];
/* per ISA: cases whose weights run computes gradInput too (compared with
 * the passes run apart) */
static int g_fused[3];
/* per ISA: fused FLOAT16 runs rounding x in the weights kernels' window, dy
 * from the data pass's rounded copy */
static int g_fused_xwin[3];
/* per ISA: passes whose kernels round fp32 to HF32 as they read it, and
 * passes of the same kind that read copies rounded once instead (the two
 * plans of dw's hf32_in_window, one case in two each) */
static int g_hf32win[3], g_hf32copy[3];
/* per ISA: in-place data passes that stream whole fp32 gradInput planes out */
static int g_streamed[3];
/* per ISA: in-place data passes that store 16-bit gradInput planes a group
 * of several at a time (whole lines, streamed) */
static int g_grouped[3];

typedef struct gen_opts {
    int int_data;
    int dtypes;
    int isa;
    int wide;    /* many channels, small planes (channel blocks of the weights pass) */
    int inplace; /* unit strides, ACLCONV_DW_INPLACE=1: the in-place path */
    int round_win; /* with inplace: fp32 in mode FLOAT16 or HF32 (one case in two), the
                    * row-window form (x rounded in the kernels' window) */
    int narrow;    /* with inplace: 2-D, the row-window form over rows of at most 8
                    * columns (AVX-512's passes with the channels in the vector), mode
                    * FLOAT in half the cases, else any (fp32 rounded as packed) */
    int large;     /* large kernels: 1-D sides 33-64, 2-D 17-31 (up to 961 taps,
                    * RepLKNet's 31 x 31: more than the 512 of DW_MAX_TAPS before
                    * session 47) */
} gen_opts;

static const char *const k_isa_env[3] = {"scalar", "avx2", "avx512"};

/* A random canonical depthwise problem (views not yet attached). */
static void gen_problem(conv_problem *p, test_rng *r, const gen_opts *go)
{
    memset(p, 0, sizeof *p);
    p->rank = go->narrow      ? 2
              : go->round_win ? (int)rng_range(r, 2, 3)
              : go->large     ? (int)rng_range(r, 1, 2)
                              : (int)rng_range(r, 1, 3);
    p->n = rng_range(r, 1, 4);
    /* in-place, half the cases: >= 16 channels, so one image chunk per
     * channel and the weights pass sums gradBias too */
    p->g = go->wide || (go->inplace && rng_chance(r, 1, 2)) ? rng_range(r, 16, 40)
                                                            : rng_range(r, 1, 9);
    /* and sometimes 64-96: 4-6 channels per weights task, the dwsum kernels'
     * groups of 4 and their remainders */
    if (go->inplace && p->g >= 16 && rng_chance(r, 1, 4)) p->g = rng_range(r, 64, 96);
    p->cg = p->og = 1;
    p->data_dir = rng_chance(r, 1, 2) ? CONV_DIR_FWD : CONV_DIR_BWD_DATA;
    p->transposed = p->data_dir == CONV_DIR_FWD;
    /* in-place, half the cases: 3x3 in (H, W) (the kernels' 3x3 paths when
     * the H dilation is 1 and the rows are at most 32 wide), depth 1 or 3 */
    const bool k33 =
        go->inplace && p->rank >= 2 && (go->round_win || go->narrow || rng_chance(r, 1, 2));
    /* and a third of those at stride 2 in H and W, H dilation 1: the
     * weights pass's stride-2 in-place kernel (AVX-512, <= 32 columns) */
    const bool s2 = k33 && !go->round_win && !go->narrow && rng_chance(r, 1, 3);
    /* and two thirds of the others in the kernels' row-window form (shifts
     * -1, 0, +1: W padding 1 in front, unit W dilation, at most 32 columns
     * on both sides, one depth tap), the only one whose kernels convert a
     * source as they read it */
    const bool win = k33 && !s2 && (go->round_win || go->narrow || rng_chance(r, 2, 3));
    for (int i = 0; i < 3; ++i) {
        const bool used = i >= 3 - p->rank;
        if (!used) {
            p->xs[i] = p->ys[i] = p->ks[i] = p->stride[i] = p->dil[i] = 1;
            p->pad[i] = 0;
            continue;
        }
        /* in-place: W widths around 8, 16, 32, 48 and 64 (the vector blocks) */
        const int64_t maxs = go->wide ? 4
                             : go->inplace ? (i == 2 ? 70 : p->rank == 3 ? 6 : 12)
                             : p->rank == 1 ? 60 : p->rank == 2 ? 19 : 7;
        p->ks[i] = rng_range(r, 1, p->rank == 3 ? 3 : 5);
        if (k33) p->ks[i] = i == 0 ? (rng_chance(r, 1, 2) ? 1 : 3) : 3;
        p->dil[i] = rng_chance(r, 1, 4) ? 2 : 1;
        p->stride[i] = !go->inplace && rng_chance(r, 1, 2) ? rng_range(r, 2, 3) : 1;
        if (go->large) {
            p->ks[i] = p->rank == 1 ? rng_range(r, 33, 64) : rng_range(r, 17, 31);
            p->dil[i] = 1;
        }
        if (s2 && i > 0) p->stride[i] = 2;
        if (s2 && i == 1) p->dil[i] = 1;
        if (win && i == 0) p->ks[i] = 1;
        if (win && i == 2) {
            const int64_t tail = rng_range(r, go->narrow ? 1 : 0, 2);
            p->dil[i] = 1;
            p->pad[i] = 1;
            if (go->narrow) {
                p->xs[i] = rng_range(r, 2, 7);
                p->ys[i] = p->xs[i] + tail - 1;
                continue;
            }
            /* a third of them narrow: one vector a row (at most 8 columns:
             * AVX-512's weights pass with the channels in the vector) */
            p->xs[i] = rng_chance(r, 1, 3) ? rng_range(r, 2, 16) : rng_range(r, 17, 31);
            p->ys[i] = p->xs[i] + 1 + tail - p->ks[i] + 1;
            continue;
        }
        it_draw_extent(p, i, 0, maxs, r);
    }
    p->mode = go->dtypes ? (conv_mode)rng_range(r, 0, 3)
                         : (go->int_data ? (conv_mode)rng_range(r, 0, 1) : CONV_MODE_F32);
    if (!go->int_data && !go->inplace && rng_chance(r, 1, 2)) p->mode = CONV_MODE_HF32;
    if (go->round_win) p->mode = rng_chance(r, 1, 2) ? CONV_MODE_F16 : CONV_MODE_HF32;
    if (go->narrow) p->mode = rng_chance(r, 1, 2) ? CONV_MODE_F32 : (conv_mode)rng_range(r, 0, 3);
}

/* Whether dw's pass takes the in-place path when forced: unit strides (the
 * conditions of conv_dw.c's inplace_applies, but the mask-table and plane
 * bounds, far above these sizes). */
static bool inplace_expected(const conv_problem *p)
{
    for (int i = 0; i < 3; ++i)
        if (p->stride[i] != 1) return false;
    return true;
}

/* Whether an in-place pass reads or writes a view through a plane in the
 * workspace: anything but fp32 with unit W stride in mode FLOAT (any mode
 * for gradInput, whose rows are rounded in place). */
static bool widened_expected(const conv_problem *p, int pass)
{
    const bool f32 = p->mode == CONV_MODE_F32;
    const conv_view *src = pass == 0 && p->data_dir == CONV_DIR_BWD_DATA ? &p->y : &p->x;
    const conv_view *other = pass == 0 ? &p->grad_input : &p->y;
    const bool other_direct =
        other->dtype == ACL_FLOAT && other->stride[4] == 1 && (f32 || pass == 0);
    return !(src->dtype == ACL_FLOAT && src->stride[4] == 1 && f32) || !other_direct;
}

/* Whether the in-place weights pass sums gradBias (conv_dw.c's
 * bias_fusable): dense dy planes, fp32 or a 16-bit dtype the mode keeps. */
static bool bias_fused_expected(const conv_problem *p)
{
    const conv_view *y = &p->y;
    return inplace_expected(p) && y->stride[4] == 1 && y->stride[3] == y->dim[4] &&
           y->stride[2] == y->dim[3] * y->dim[4] &&
           (y->dtype == ACL_FLOAT || conv_mode_keeps(y->dtype, p->mode));
}

/* Whether the in-place data pass stores gradInput a dense 16-bit plane at a
 * time with the narrowing kernel: dense planes, a mode whose result rounding
 * the dtype keeps. */
static bool whole_expected(const conv_problem *p)
{
    const conv_view *v = &p->grad_input;
    return inplace_expected(p) && v->dtype != ACL_FLOAT && v->stride[4] == 1 &&
           (v->dim[3] == 1 || v->stride[3] == v->dim[4]) &&
           (v->dim[2] == 1 || v->stride[2] == v->dim[3] * v->dim[4]) &&
           conv_mode_keeps(v->dtype, p->mode);
}

/* A copy of src with W step 2 (and the other strides dense over it), the
 * same values: dw packs it instead of reading it in place. */
static void copy_w_step2(it_tensor *dst, const it_tensor *src)
{
    memset(dst, 0, sizeof *dst);
    dst->v.dtype = src->v.dtype;
    int64_t st = 2;
    for (int i = 4; i >= 0; --i) {
        dst->v.dim[i] = src->v.dim[i];
        dst->v.stride[i] = st;
        st *= src->v.dim[i];
    }
    dst->buf_elems = st + 8;
    dst->buf = aclconv_aligned_alloc((size_t)dst->buf_elems * it_dt_size(dst->v.dtype));
    it_reset_sentinel(dst);
    dst->v.data = (char *)dst->buf + 3 * it_dt_size(dst->v.dtype);
    const size_t es = it_dt_size(src->v.dtype);
    for (int64_t e = 0; e < it_numel(&src->v); ++e)
        memcpy(dst->v.data + it_offset_of(&dst->v, e) * (int64_t)es,
               src->v.data + it_offset_of(&src->v, e) * (int64_t)es, es);
}

/* specials: the data holds infinities of both signs and NaNs, so a sum may
 * meet the NaN of inf - inf and a data NaN, whose payload the adds' operand
 * order picks (docs/numerics.md, section 4): NaN matches NaN there. */
static void check_bias(const it_tensor *gb, const it_tensor *ref, bool specials, uint64_t seed,
                       const char *isa, int threads, const char *desc)
{
    if (specials ? it_same_bits_nan(gb, ref) : it_same_bits(gb, ref)) return;
    printf("FAIL seed %" PRIu64 " isa %s threads %d: gradBias differs from conv_bias_run's: %s\n",
           seed, isa, threads, desc);
    it_fail();
}

/* Reruns p (2 threads) with the packed path (ACLCONV_DW_INPLACE=0), then
 * in place with x and dy copied to W step 2 views (their rows widened one
 * by one into the workspace), and requires o's gradInput / gradWeight bits,
 * which hold the in-place run on the original views, and gradBias's of
 * gb_ref each time. */
static void check_packed_same(conv_problem *p, it_operands *o, it_tensor *gb,
                              const it_tensor *gb_ref, bool specials, uint64_t seed,
                              const char *isa, const char *desc)
{
    it_tensor got[2], x2, y2;
    it_clone(&got[0], &o->gi);
    it_clone(&got[1], &o->gw);
    copy_w_step2(&x2, &o->x);
    copy_w_step2(&y2, &o->y);
    const conv_view x = p->x, y = p->y, b = p->bias_src;
    static const char *const runs[2] = {"the packed path", "in place on W step 2 copies"};
    for (int run = 0; run < 2; ++run) {
        setenv("ACLCONV_DW_INPLACE", run == 0 ? "0" : "1", 1);
        if (run == 1) {
            p->x = x2.v;
            p->y = y2.v;
            p->bias_src = y2.v;
        }
        it_reset_sentinel(&o->gi);
        it_reset_sentinel(&o->gw);
        it_reset_sentinel(gb);
        char names[2][16];
        it_run_plan(p, NULL, names);
        const it_tensor *now[2] = {&o->gi, &o->gw};
        /* with specials, any NaN for a NaN (docs/numerics.md, section 4:
         * an inf - inf meeting a data NaN keeps the payload of the add's
         * first operand, which the paths' adds do not pin) */
        for (int k = 0; k < 2; ++k)
            if (!(specials ? it_same_bits_nan(now[k], &got[k]) : it_same_bits(now[k], &got[k]))) {
                printf("FAIL seed %" PRIu64 " isa %s: %s of %s differs from the in-place run: %s\n",
                       seed, isa, k ? "gradWeight" : "gradInput", runs[run], desc);
                it_fail();
            }
        check_bias(gb, gb_ref, specials, seed, isa, 2, desc);
    }
    setenv("ACLCONV_DW_INPLACE", "1", 1);
    p->x = x;
    p->y = y;
    p->bias_src = b;
    for (int k = 0; k < 2; ++k) it_tensor_free(&got[k]);
    it_tensor_free(&x2);
    it_tensor_free(&y2);
}

/* Reruns p (2 threads) with the passes apart (ACLCONV_DW_FUSE=0: a data run,
 * then a weights run) and requires the bits of the run that computed both in
 * the weights run (first: its 1-thread results). */
static void check_apart_same(const conv_problem *p, it_operands *o, it_tensor *gb,
                             const it_tensor *gb_ref, bool specials, it_tensor first[2],
                             uint64_t seed, const char *isa, const char *desc)
{
    setenv("ACLCONV_DW_FUSE", "0", 1);
    it_reset_sentinel(&o->gi);
    it_reset_sentinel(&o->gw);
    it_reset_sentinel(gb);
    char names[2][16];
    it_run_plan(p, NULL, names);
    unsetenv("ACLCONV_DW_FUSE");
    const it_tensor *now[2] = {&o->gi, &o->gw};
    for (int k = 0; k < 2; ++k)
        if (!it_same_bits(now[k], &first[k])) {
            printf("FAIL seed %" PRIu64 " isa %s: %s with the passes apart differs from the run "
                   "of both: %s\n",
                   seed, isa, k ? "gradWeight" : "gradInput", desc);
            it_fail();
        }
    check_bias(gb, gb_ref, specials, seed, isa, 2, desc);
}

/* In the modes that round results (FLOAT16, BF16) every fp32 gradInput
 * element is a value of the mode's dtype: real data in those modes, which no
 * tolerance against the reference bounds, still shows a missing rounding. */
static void check_results_rounded(const conv_problem *p, const it_tensor *gi, uint64_t seed,
                                  const char *isa, const char *desc)
{
    if (gi->v.dtype != ACL_FLOAT || (p->mode != CONV_MODE_F16 && p->mode != CONV_MODE_BF16)) return;
    const conv_view *v = &gi->v;
    for (int64_t n = 0; n < v->dim[0]; ++n)
        for (int64_t c = 0; c < v->dim[1]; ++c)
            for (int64_t d = 0; d < v->dim[2]; ++d)
                for (int64_t h = 0; h < v->dim[3]; ++h)
                    for (int64_t w = 0; w < v->dim[4]; ++w) {
                        const float x = ((const float *)v->data)[conv_view_index(v, n, c, d, h, w)];
                        if (f32_bits(conv_round_result(x, p->mode)) == f32_bits(x)) continue;
                        printf("FAIL seed %" PRIu64 " isa %s: gradInput (%" PRId64 ", %" PRId64
                               ", %" PRId64 ", %" PRId64 ", %" PRId64 ") = 0x%08x not rounded "
                               "for mode %d: %s\n",
                               seed, isa, n, c, d, h, w, (unsigned)f32_bits(x), (int)p->mode, desc);
                        it_fail();
                        return;
                    }
}

/* Sets a few elements of t's view to +-inf, a quiet or a signalling NaN.
 * All NaNs quiet to one fp32 NaN, 0x7fc10000, whatever the dtype: where two
 * NaNs meet in a sum the result is the one of the first operand, an order
 * the paths need not share (nor gradBias's row kernels). */
static void sprinkle_specials(it_tensor *t, test_rng *r)
{
    static const uint32_t f32[4] = {0x7f800000u, 0xff800000u, 0x7fc10000u, 0x7f810000u};
    static const uint16_t f16[4] = {0x7c00u, 0xfc00u, 0x7e08u, 0x7c08u};
    static const uint16_t bf16[4] = {0x7f80u, 0xff80u, 0x7fc1u, 0x7f81u};
    const int64_t n = it_numel(&t->v);
    for (int k = 0; k < 3; ++k) {
        const int64_t off = it_offset_of(&t->v, rng_range(r, 0, n - 1));
        const int64_t v = rng_range(r, 0, 3);
        if (t->v.dtype == ACL_FLOAT)
            memcpy((float *)t->v.data + off, &f32[v], 4);
        else
            ((uint16_t *)t->v.data)[off] = t->v.dtype == ACL_BF16 ? bf16[v] : f16[v];
    }
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
    /* in-place with dtypes, half the cases: dy of x's dtype (a weights pass
     * can then convert both as it reads them) */
    if (go->inplace && go->dtypes && o.y.v.dtype != o.x.v.dtype && rng_chance(&r, 1, 2)) {
        const int64_t yd[5] = {p.n, p.g * p.og, p.ys[0], p.ys[1], p.ys[2]};
        it_tensor_free(&o.y);
        it_tensor_make(&o.y, o.x.v.dtype, yd, views, &r);
    }
    /* narrow, dense operands, a third of them: gradInput with gaps between
     * rows or planes, unit W stride (written in place by a run of both
     * gradients with the channels in the vector, not streamed) */
    if (go->narrow && !views && rng_chance(&r, 1, 3)) {
        const aclDataType dt = o.gi.v.dtype;
        const int64_t d[5] = {o.gi.v.dim[0], o.gi.v.dim[1], o.gi.v.dim[2], o.gi.v.dim[3],
                              o.gi.v.dim[4]};
        do {
            it_tensor_free(&o.gi);
            it_tensor_make(&o.gi, dt, d, 1, &r);
        } while (o.gi.v.stride[4] != 1 ||
                 (o.gi.v.stride[3] == d[4] && o.gi.v.stride[2] == d[3] * d[4]));
    }
    it_fill(&o.x, go->int_data, 0, &r);
    it_fill(&o.y, go->int_data, 0, &r);
    it_fill(&o.w, go->int_data, 0, &r);
    if (go->int_data) /* a missed operand rounding shows (it_mark_rounding) */
        it_mark_operands(&o, p.mode);
    /* in-place, 1 case in 4: non-finite data, compared with the packed path only */
    const bool specials = go->inplace && rng_chance(&r, 1, 4);
    if (specials) {
        sprinkle_specials(&o.x, &r);
        sprinkle_specials(&o.y, &r);
    }
    it_operands_attach(&p, &o);
    /* gradBias too: bitwise what conv_bias_run writes (with any ISA's row
     * kernel), whether the engine's bias pass or dw's weights pass (in place,
     * dense dy) computes it */
    it_tensor gb, gb_ref;
    const int64_t bd[5] = {1, p.g, 1, 1, 1};
    it_tensor_make(&gb, ACL_FLOAT, bd, 0, &r);
    it_clone_layout(&gb_ref, &gb);
    p.grad_bias = gb_ref.v;
    conv_bias_run(&p, ACLCONV_ISA_SCALAR);
    p.grad_bias = gb.v;
    g_bias_fused += go->inplace && bias_fused_expected(&p);
    char desc[512];
    it_describe(&p, desc, sizeof desc);
    const char *isa = k_isa_env[go->isa];
    ++g_cases;

    setenv("ACLCONV_ISA", isa, 1);
    const bool hf32_window = g_cases & 1;
    setenv("ACLCONV_DW_HF32", hf32_window ? "window" : "copy", 1);
    /* the in-place kinds force the in-place path wherever it applies (every
     * ISA, every tap set); the other kinds plan with dw's default choice */
    if (go->inplace)
        setenv("ACLCONV_DW_INPLACE", "1", 1);
    else
        unsetenv("ACLCONV_DW_INPLACE");
    aclconvSetNumThreads(2);
    it_tensor ref[2];
    /* real data in 16-bit dtypes or rounding modes: no tolerance bounds the
     * roundings, so compared with the packed path only */
    const bool vs_ref = !specials && (go->int_data || !go->dtypes);
    if (vs_ref) it_run_reference(&p, &o, ref);
    float *tol[2] = {NULL, NULL}; /* NULL: bitwise (small-integer data) */
    if (!go->int_data && vs_ref) it_tolerances(&p, &o, tol);
    if (go->inplace && conv_dw_weights_inplace_s2(&p, (aclconvIsa)go->isa)) g_inplace_s2[go->isa]++;
    if (go->inplace && conv_dw_chan_vec(&p, CONV_PASS_DATA, (aclconvIsa)go->isa)) {
        g_chan[go->isa][0]++;
        const conv_view *src = p.data_dir == CONV_DIR_BWD_DATA ? &p.y : &p.x;
        if (src->dtype != ACL_FLOAT) g_chan16[go->isa][0]++;
        g_chan_round[go->isa] += src->dtype == ACL_FLOAT && p.mode != CONV_MODE_F32;
    }
    if (go->inplace && conv_dw_chan_vec(&p, CONV_PASS_WEIGHTS, (aclconvIsa)go->isa)) {
        g_chan[go->isa][1]++;
        if (p.x.dtype != ACL_FLOAT) g_chan16[go->isa][1]++;
        g_chan_round[go->isa] += p.x.dtype == ACL_FLOAT && p.mode != CONV_MODE_F32;
    }
    if (go->inplace)
        for (int pass = 0; pass < 2; ++pass) {
            const int reads = conv_dw_kernel_converts(
                &p, pass == 0 ? CONV_PASS_DATA : CONV_PASS_WEIGHTS, (aclconvIsa)go->isa);
            g_src16[go->isa][pass] += (reads & CONV_DW_SRC_CONVERTED) != 0;
            g_dy16[go->isa] += (reads & CONV_DW_DY_CONVERTED) != 0;
            const bool hf32 =
                p.mode == CONV_MODE_HF32 && p.x.dtype == ACL_FLOAT && p.y.dtype == ACL_FLOAT;
            g_hf32win[go->isa] += hf32 && (reads & CONV_DW_SRC_CONVERTED) != 0;
            if (hf32 && !hf32_window && (reads & CONV_DW_SRC_CONVERTED) == 0) {
                setenv("ACLCONV_DW_HF32", "window", 1); /* would the window apply? */
                g_hf32copy[go->isa] +=
                    (conv_dw_kernel_converts(&p, pass == 0 ? CONV_PASS_DATA : CONV_PASS_WEIGHTS,
                                             (aclconvIsa)go->isa) &
                     CONV_DW_SRC_CONVERTED) != 0;
                setenv("ACLCONV_DW_HF32", "copy", 1);
            }
        }
    if (go->inplace) g_streamed[go->isa] += conv_dw_data_streamed(&p, (aclconvIsa)go->isa);
    if (go->inplace) g_grouped[go->isa] += conv_dw_data_group(&p, (aclconvIsa)go->isa) > 1;
    const bool fused = conv_dw_fuses_data(&p, (aclconvIsa)go->isa);
    g_fused[go->isa] += fused;
    const int fchan = conv_dw_fused_chan(&p, (aclconvIsa)go->isa);
    if (fchan > 0) g_chan_fused[go->isa][fchan - 1]++;
    if (fused && conv_dw_chan_vec(&p, CONV_PASS_DATA, (aclconvIsa)go->isa) &&
        !conv_dw_chan_vec(&p, CONV_PASS_WEIGHTS, (aclconvIsa)go->isa)) {
        g_chan_mixed[go->isa]++;
        if (fchan != 0) {
            printf("FAIL: a run of both gradients keeps the channels in the vector in its data "
                   "pass only\n");
            it_fail();
        }
    }
    g_fused_xwin[go->isa] += fused && conv_dw_fused_x_in_window(&p, (aclconvIsa)go->isa);
    if (conv_dw_data_merged(&p, (aclconvIsa)go->isa)) {
        g_merged[go->isa]++;
        g_merged_round[go->isa] += conv_result_round_kind(p.mode) != F32_ROUND_NONE;
        g_merged16[go->isa] += p.grad_input.dtype != ACL_FLOAT;
    }
    if (go->inplace && inplace_expected(&p)) {
        g_inplace += 2;
        g_widened += widened_expected(&p, 0) + widened_expected(&p, 1);
        g_whole += whole_expected(&p);
    }

    it_tensor first[2];
    char names[2][16];
    for (int threads = 1; threads <= 3; ++threads) {
        it_reset_sentinel(&o.gi);
        it_reset_sentinel(&o.gw);
        it_reset_sentinel(&gb);
        aclconvSetNumThreads(threads);
        it_run_plan(&p, NULL, names);
        check_bias(&gb, &gb_ref, specials, seed, isa, threads, desc);
        for (int k = 0; k < 2; ++k)
            if (strcmp(names[k], "dw") != 0) {
                printf("FAIL seed %" PRIu64 " isa %s: pass %d planned with %s, not dw: %s\n", seed,
                       isa, k, names[k], desc);
                it_fail();
            }
        if (threads == 1) {
            g_dw_data += strcmp(names[0], "dw") == 0;
            g_dw_wt += strcmp(names[1], "dw") == 0;
        }
        if (vs_ref) it_check_outputs(&o, ref, tol, names, seed, isa, threads, desc);
        check_results_rounded(&p, &o.gi, seed, isa, desc);
        it_check_threads(first, &o, threads, seed, isa, desc);
    }
    aclconvSetNumThreads(2);
    if (fused) check_apart_same(&p, &o, &gb, &gb_ref, specials, first, seed, isa, desc);
    if (go->inplace) check_packed_same(&p, &o, &gb, &gb_ref, specials, seed, isa, desc);
    it_tensor_free(&gb);
    it_tensor_free(&gb_ref);
    for (int k = 0; k < 2; ++k) {
        it_tensor_free(&first[k]);
        if (vs_ref) it_tensor_free(&ref[k]);
        free(tol[k]);
    }
    it_operands_free(&o);
}

/* Problems with more than one channel per group: dw must decline both passes
 * (the planner then picks another implementation), even when forced. */
static void decline_case(uint64_t seed)
{
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    gen_opts go = {.int_data = 1};
    gen_problem(&p, &r, &go);
    if (rng_chance(&r, 1, 2))
        p.cg = rng_range(&r, 2, 3);
    else
        p.og = rng_range(&r, 2, 3);
    it_operands o;
    it_operands_make(&o, &p, 0, 0, &r); /* fp32, dense */
    it_fill(&o.x, 1, 0, &r);
    it_fill(&o.y, 1, 0, &r);
    it_fill(&o.w, 1, 0, &r);
    it_operands_attach(&p, &o);
    char names[2][16], desc[512];
    it_describe(&p, desc, sizeof desc);
    it_run_plan(&p, "dw", names);
    for (int k = 0; k < 2; ++k)
        if (strcmp(names[k], "dw") == 0) {
            printf("FAIL seed %" PRIu64 ": dw accepted pass %d of a non-depthwise problem: %s\n",
                   seed, k, desc);
            it_fail();
        }
    it_operands_free(&o);
}

/* A depthwise problem with an empty dimension (the API returns before
 * planning on those; a problem built directly must be declined, not
 * divided by its zero plane). */
static void empty_case(uint64_t seed)
{
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    gen_opts go = {.int_data = 1, .inplace = (int)(seed & 1)};
    gen_problem(&p, &r, &go);
    const int what = (int)rng_range(&r, 0, 3);
    if (what == 0) p.n = 0;
    if (what == 1) p.g = 0;
    if (what == 2) p.ys[rng_range(&r, 0, 2)] = 0;
    if (what == 3) p.xs[rng_range(&r, 0, 2)] = 0;
    for (int pass = 0; pass < 2; ++pass)
        if (conv_impl_dw.why_not(&p, pass == 0 ? CONV_PASS_DATA : CONV_PASS_WEIGHTS,
                                 ACLCONV_ISA_SCALAR) == NULL) {
            printf("FAIL seed %" PRIu64 ": dw accepted pass %d of a problem with an empty "
                   "dimension (%d)\n",
                   seed, pass, what);
            it_fail();
        }
}

int main(int argc, char **argv)
{
    uint64_t seed = 0x64776477ull;
    int count = 300;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc) count = atoi(argv[++i]);
    }
    printf("test_dw_impl: seed %" PRIu64 ", %d cases per ISA and data kind\n", seed, count);
    const aclconvIsa have = cpu_detected_isa();
    for (int isa = ACLCONV_ISA_SCALAR; isa <= ACLCONV_ISA_AVX512; ++isa) {
        if (isa > (int)have) {
            printf("SKIP %s: not supported by this CPU\n", cpu_isa_name((aclconvIsa)isa));
            continue;
        }
        const int before = it_failures();
        for (int kind = 0; kind < 9; ++kind) {
            /* 0: int fp32, 1: int any dtype/mode, 2: real, 3: many channels,
             * 4: in-place int, 5: in-place real, 6: in-place int any
             * dtype/mode, 7: in-place real any dtype/mode, 8: real any
             * dtype/mode, any strides (threads and result rounding checked) */
            gen_opts go = {.int_data = kind != 2 && kind != 5 && kind != 7 && kind != 8,
                           .dtypes = kind == 1 || kind >= 6, .isa = isa, .wide = kind == 3,
                           .inplace = kind >= 4 && kind <= 7};
            const int n = kind == 3 ? count / 4 + 1 : kind >= 4 ? count / 2 : count;
            for (int i = 0; i < n; ++i)
                one_case(seed + (uint64_t)i * 7919u + (uint64_t)kind * 1000003u + (uint64_t)isa * 7777777u, &go);
        }
        /* large kernels (integers, any dtype / mode) */
        for (int kind = 0; kind < 2; ++kind) {
            const gen_opts gl = {.int_data = 1, .dtypes = kind, .isa = isa, .large = 1};
            for (int i = 0; i < count / 16 + 1; ++i)
                one_case(seed + (uint64_t)i * 15731u + (uint64_t)kind * 789221u +
                             (uint64_t)isa * 7777777u,
                         &gl);
        }
        /* fp32 in mode FLOAT16 or HF32 in the row-window form: the run of
         * both gradients rounds x in the weights kernels' window (AVX-512;
         * HF32's dy too). Real data too: small integers pass every rounding
         * unchanged, so only real values tell the roundings apart (compared
         * with the packed path's) */
        for (int real = 0; real < 2; ++real) {
            const gen_opts gf = {.int_data = !real, .isa = isa, .inplace = 1, .round_win = 1};
            for (int i = 0; i < count / 8 + 1; ++i)
                one_case(seed + (uint64_t)i * 104729u + (uint64_t)real * 15485863u +
                             (uint64_t)isa * 7777777u,
                         &gf);
        }
        /* the stride-2 in-place weights kernel: AVX-512's only */
        if ((isa == ACLCONV_ISA_AVX512) != (g_inplace_s2[isa] > 0)) {
            printf("FAIL %s: %d weights passes through the stride-2 in-place kernel\n",
                   cpu_isa_name((aclconvIsa)isa), g_inplace_s2[isa]);
            it_fail();
        }
        /* narrow rows in mode FLOAT: integers, real values, integers in any
         * dtypes (compared with the packed path's bits) */
        for (int kind = 0; kind < 3; ++kind) {
            const gen_opts gn = {
                .int_data = kind != 1, .dtypes = kind == 2, .isa = isa, .inplace = 1, .narrow = 1};
            for (int i = 0; i < count / 8 + 1; ++i)
                one_case(seed + (uint64_t)i * 130363u + (uint64_t)kind * 179424673u +
                             (uint64_t)isa * 7777777u,
                         &gn);
        }
        /* both passes with the channels in the vector, the fused run's
         * gradInput written in place and streamed: AVX-512's only */
        const int *fc = g_chan_fused[isa];
        if ((isa == ACLCONV_ISA_AVX512) != (g_chan[isa][0] > 0 && g_chan[isa][1] > 0 &&
                                             g_chan16[isa][0] > 0 && g_chan16[isa][1] > 0 &&
                                             g_chan_round[isa] > 0 && fc[0] > 0 && fc[1] > 0 &&
                                             g_chan_mixed[isa] > 0) ||
            (isa != ACLCONV_ISA_AVX512 && g_chan[isa][0] + g_chan[isa][1] + fc[0] + fc[1] > 0)) {
            printf("FAIL %s: %d data and %d weights passes (%d and %d 16-bit, %d rounding fp32) "
                   "with the channels in the vector, %d + %d runs of both (gradInput in place + "
                   "streamed), %d with them in the data pass alone\n",
                   cpu_isa_name((aclconvIsa)isa), g_chan[isa][0], g_chan[isa][1],
                   g_chan16[isa][0], g_chan16[isa][1], g_chan_round[isa], fc[0], fc[1],
                   g_chan_mixed[isa]);
            it_fail();
        }
        /* sources converted by the kernels in both passes: AVX-512's only */
        if ((isa == ACLCONV_ISA_AVX512) !=
                (g_src16[isa][0] > 0 && g_src16[isa][1] > 0 && g_dy16[isa] > 0) ||
            (isa != ACLCONV_ISA_AVX512 && g_src16[isa][0] + g_src16[isa][1] + g_dy16[isa] > 0)) {
            printf("FAIL %s: %d data and %d weights passes convert their source in the kernels, "
                   "%d weights passes dy\n",
                   cpu_isa_name((aclconvIsa)isa), g_src16[isa][0], g_src16[isa][1], g_dy16[isa]);
            it_fail();
        }
        /* both gradients in one run (the in-place kinds force the in-place
         * path on every ISA) */
        if (g_fused[isa] == 0) {
            printf("FAIL %s: no case computed gradInput in the weights run\n",
                   cpu_isa_name((aclconvIsa)isa));
            it_fail();
        }
        /* FLOAT16's x rounded in the window next to the shared dy: the
         * row-window form is AVX-512's */
        if ((isa == ACLCONV_ISA_AVX512) != (g_fused_xwin[isa] > 0)) {
            printf("FAIL %s: %d fused FLOAT16 runs round x in the weights kernels' window\n",
                   cpu_isa_name((aclconvIsa)isa), g_fused_xwin[isa]);
            it_fail();
        }
        /* HF32's rounding in the kernels' window: AVX-512's only; there,
         * the copies rounded once where the window would apply too */
        if ((isa == ACLCONV_ISA_AVX512) != (g_hf32win[isa] > 0) ||
            (isa == ACLCONV_ISA_AVX512) != (g_hf32copy[isa] > 0)) {
            printf("FAIL %s: %d passes round fp32 to HF32 in the kernels' window, %d into copies "
                   "in its stead\n",
                   cpu_isa_name((aclconvIsa)isa), g_hf32win[isa], g_hf32copy[isa]);
            it_fail();
        }
        /* streamed gradInput planes: the ISAs with a streaming copy */
        if ((isa != ACLCONV_ISA_SCALAR) != (g_streamed[isa] > 0)) {
            printf("FAIL %s: %d in-place data passes stream their gradInput planes\n",
                   cpu_isa_name((aclconvIsa)isa), g_streamed[isa]);
            it_fail();
        }
        /* 16-bit gradInput planes stored in groups: the ISAs with a
         * streaming narrowing */
        if ((isa != ACLCONV_ISA_SCALAR) != (g_grouped[isa] > 0)) {
            printf("FAIL %s: %d in-place data passes store 16-bit gradInput planes in groups\n",
                   cpu_isa_name((aclconvIsa)isa), g_grouped[isa]);
            it_fail();
        }
        /* the merged stride-2 data kernel, its rounding too: every ISA */
        if (g_merged[isa] == 0 || g_merged_round[isa] == 0 || g_merged16[isa] == 0) {
            printf("FAIL %s: %d data passes through the merged stride-2 kernel (%d rounding, %d "
                   "16-bit)\n",
                   cpu_isa_name((aclconvIsa)isa), g_merged[isa], g_merged_round[isa],
                   g_merged16[isa]);
            it_fail();
        }
        printf("%s: channels in the vector: %d data, %d weights passes (%d and %d 16-bit, %d "
               "rounding fp32), %d + %d runs of both (gradInput in place + streamed), %d runs "
               "of both with them in the data pass alone\n",
               cpu_isa_name((aclconvIsa)isa), g_chan[isa][0], g_chan[isa][1], g_chan16[isa][0],
               g_chan16[isa][1], g_chan_round[isa], g_chan_fused[isa][0], g_chan_fused[isa][1],
               g_chan_mixed[isa]);
        printf("%s: %s (stride-2 in-place weights passes: %d; merged stride-2 data passes: %d, "
               "%d rounding, %d 16-bit; sources converted by the kernels: %d data, %d weights "
               "passes, dy of "
               "%d, HF32 %d (copies instead: %d); gradInput in the weights run: %d (FLOAT16 x "
               "in the window: %d), streamed: %d, 16-bit planes in groups: %d)\n",
               cpu_isa_name((aclconvIsa)isa), it_failures() == before ? "ok" : "FAIL",
               g_inplace_s2[isa], g_merged[isa], g_merged_round[isa], g_merged16[isa],
               g_src16[isa][0], g_src16[isa][1], g_dy16[isa], g_hf32win[isa], g_hf32copy[isa],
               g_fused[isa], g_fused_xwin[isa], g_streamed[isa], g_grouped[isa]);
    }
    unsetenv("ACLCONV_ISA");
    unsetenv("ACLCONV_DW_INPLACE");
    unsetenv("ACLCONV_DW_HF32");
    for (int i = 0; i < 40; ++i) decline_case(seed + 31337u * (uint64_t)(i + 1));
    for (int i = 0; i < 40; ++i) empty_case(seed + 7331u * (uint64_t)(i + 1));
    printf("cases %d, dw data pass %d, dw weights pass %d, in-place passes %d (%d through "
           "workspace planes)\n",
           g_cases, g_dw_data, g_dw_wt, g_inplace, g_widened);
    printf(
        "gradBias summed by the weights pass: %d cases; 16-bit gradInput planes stored whole: %d "
        "cases\n",
        g_bias_fused, g_whole);
    /* the in-place kinds must reach the path, through workspace planes too,
     * and the whole-plane gradInput stores */
    if (g_inplace < count / 2 || g_widened < count / 4 || g_bias_fused < count / 16 ||
        g_whole < count / 16) {
        printf("FAIL: only %d in-place passes, %d through workspace planes, %d fused gradBias, "
               "%d whole gradInput planes\n",
               g_inplace, g_widened, g_bias_fused, g_whole);
        it_fail();
    }
    printf("test_dw_impl: %s\n", it_failures() ? "FAILED" : "OK");
    return it_failures() ? 1 : 0;
}
