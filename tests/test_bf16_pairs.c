#define _POSIX_C_SOURCE 200809L
/*
 * The BF16 pairs of both passes (docs/kernels.md, "BF16 pairs"): with
 * vdpbf16ps (where the CPU has it) gradInput and gradWeight must have the
 * bits of the same plan run with the fused multiply-add kernels
 * (ACLCONV_BF16_DOT=exact), for any data:
 * - real data in [-1, 1): every block passes the vdpbf16ps guard;
 * - dy, x or w scaled by 2^-120 (products and sums below 2^-126, subnormal):
 *   vdpbf16ps would flush them to zero, so the run must notice and redo the
 *   pass with the exact kernel;
 * - a single subnormal dy or x element among normal ones (the guard of the
 *   blocks holding it).
 * - small integers (every sum exact): the results of the direct
 *   implementation, bit for bit.
 * Problems take the weights pass's GEMM path (OG >= 32) or, a third of them
 * 1x1, its flat path (whole images per call, x read in place), or, a
 * quarter of the others, its reduction-vector path (OG < 32: dy's bf16 rows
 * read in place, or at a W stride through the unpaired kernel); half of them
 * have a multiple of 16 gradInput channels (D), which takes the
 * channel-vector data kernel (as do, in pairs, more than 8; 4 or fewer take
 * the single-row kernel, without pairs); a third of the others are transposed with
 * stride 2 in W (the data pass's input split into W phases). Also: 1 / 2 / 3 threads
 * give the same bits, and the pairs do run (some
 * case differs from the unpaired plan, ACLCONV_BF16_DOT=0, which sums in
 * another order). Skips (77) where the CPU has no AVX-512.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclconv/aclconv.h"
#include "common/cpu.h"
#include "impl_test.h"
#include "test_rng.h"

enum {
    DATA_INT,
    DATA_REAL,
    DATA_TINY_DY,
    DATA_TINY_X,
    DATA_TINY_W,
    DATA_ONE_SUBNORMAL,
    DATA_KINDS
};
static const char *const k_data_names[] = {"integer",    "real",       "dy x 2^-120",
                                           "x x 2^-120", "w x 2^-120", "one subnormal"};

/* per pass: cases whose bits differ from the unpaired plan's; g_rv_paired:
 * such gradWeights of the reduction-vector path */
static int g_cases, g_paired[2], g_rv_paired;
/* ACLCONV_BF16_DOT of the runs checked against the exact ones: "1" (the
 * vdpbf16ps kernels), or where the CPU lacks the instruction "exact" too
 * (the default would plan without pairs there), which still checks the
 * thread counts and the integer cases */
static const char *g_dot_env;

/* every element of t's view times 2^-120 (bf16 bits: the exponent field
 * lowered; values that leave the normal range become subnormal or zero) */
static void scale_tiny(it_tensor *t)
{
    for (int64_t e = 0; e < it_numel(&t->v); ++e) {
        uint16_t *h = (uint16_t *)(void *)t->v.data + it_offset_of(&t->v, e);
        const int ex = (*h >> 7) & 0xff;
        const int sign = *h & 0x8000;
        if (ex == 0) continue;
        const int nx = ex - 120;
        if (nx >= 1) {
            *h = (uint16_t)(sign | nx << 7 | (*h & 0x7f));
        } else {
            /* subnormal: the significand (with its leading 1) shifted right */
            const int shift = 1 - nx;
            const int sig = (0x80 | (*h & 0x7f)) >> (shift < 16 ? shift : 15);
            *h = (uint16_t)(sign | sig);
        }
    }
}

/* gradInput and gradWeight of p under ACLCONV_BF16_DOT=dot (NULL: unset)
 * into out[0] / out[1]. */
static void run(const conv_problem *p, const it_operands *o, const char *dot, int threads,
                it_tensor out[2])
{
    if (dot)
        setenv("ACLCONV_BF16_DOT", dot, 1);
    else
        unsetenv("ACLCONV_BF16_DOT");
    aclconvSetNumThreads(threads);
    it_reset_sentinel((it_tensor *)&o->gi);
    it_reset_sentinel((it_tensor *)&o->gw);
    char names[2][16];
    it_run_plan(p, "fast", names);
    /* fast takes everything here but D with more than 16 output phases */
    const bool phases =
        p->data_dir == CONV_DIR_BWD_DATA && p->stride[0] * p->stride[1] * p->stride[2] > 16;
    for (int k = 0; k < 2; ++k)
        if (strcmp(names[k], "fast") != 0 && !(k == 0 && phases)) {
            printf("FAIL pass %d planned with %s\n", k, names[k]);
            it_fail();
        }
    it_clone(&out[0], &o->gi);
    it_clone(&out[1], &o->gw);
    unsetenv("ACLCONV_BF16_DOT");
}

/* one_tap: a 1x1 gradInput (D) over 70-80 dy channel pairs in rows of 14,
 * with 32 or 48 gradInput channels: whole 14-position tiles of both
 * channel halves, the pair kernel's one-tap loop with all three stretches
 * (kernels/avx512bf16; about half of them: the others' weights pass streams
 * the data slabs, which have no pairs). A wrong strip in its middle
 * stretch fails them. */
static void one_case(uint64_t seed, int kind, bool one_tap)
{
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    memset(&p, 0, sizeof p);
    const bool pointwise = one_tap || rng_chance(&r, 1, 3);
    /* F (transposed) with stride 2 in W and both W phases read: the data
     * pass splits its input into W phases (pack_pair_pairs) */
    const bool fwd_s2 = !pointwise && rng_chance(&r, 1, 3);
    /* OG < 32: the weights pass's reduction-vector kernel */
    const bool few_out = !one_tap && !fwd_s2 && rng_chance(&r, 1, 4);
    p.rank = (int)rng_range(&r, 1, 3);
    p.n = pointwise ? rng_range(&r, 1, 12) : rng_range(&r, 1, 3);
    p.g = rng_chance(&r, 1, 4) ? 2 : 1;
    /* the GEMM paths of the weights pass: OG >= 32, (c, tap) rows >= 24 for
     * most (else the reduction-vector kernel); D's gradInput channels a
     * multiple of 16 for half (the channel-vector kernel's full tiles; F's,
     * og, are >= 64 at times) */
    p.cg = one_tap || rng_chance(&r, 1, 2) ? 16 * rng_range(&r, one_tap ? 2 : 1, 3)
           : pointwise                     ? rng_range(&r, 24, 60)
                                           : rng_range(&r, 4, 20);
    p.og = fwd_s2    ? 16 * rng_range(&r, 2, 4)
           : one_tap ? rng_range(&r, 140, 160)
           : few_out ? rng_range(&r, 1, 31)
                     : rng_range(&r, 32, 80);
    p.data_dir = !one_tap && (fwd_s2 || rng_chance(&r, 1, 2)) ? CONV_DIR_FWD : CONV_DIR_BWD_DATA;
    p.transposed = p.data_dir == CONV_DIR_FWD;
    for (int i = 0; i < 3; ++i) {
        if (i < 3 - p.rank) {
            p.xs[i] = p.ys[i] = p.ks[i] = p.stride[i] = p.dil[i] = 1;
            p.pad[i] = 0;
            continue;
        }
        p.ks[i] = rng_range(&r, 1, p.rank == 3 ? 2 : 3);
        p.dil[i] = rng_chance(&r, 1, 4) ? 2 : 1;
        p.stride[i] = rng_chance(&r, 1, 3) ? 2 : 1;
        if (fwd_s2 && i == 2) {
            p.ks[i] = rng_range(&r, 2, 4);
            p.dil[i] = 1;
            p.stride[i] = 2;
        }
        it_draw_extent(&p, i, 0, p.rank == 1 ? 300 : p.rank == 2 ? 17 : 6, &r);
        if (pointwise) { /* the flat path: whole images per kernel call */
            p.ks[i] = p.stride[i] = p.dil[i] = 1;
            p.pad[i] = 0;
            p.xs[i] = p.ys[i] = i == 0 ? rng_range(&r, 1, 2) : rng_range(&r, 5, 16);
        }
    }
    if (one_tap) p.xs[2] = p.ys[2] = 14;
    p.mode = CONV_MODE_BF16;
    it_operands o;
    it_operands_make(&o, &p, 0, 0, &r);
    /* x, dy and w as BF16 (it_operands_make drew FLOAT), views sometimes strided */
    const int views = rng_chance(&r, 1, 3);
    it_tensor *bf[3] = {&o.x, &o.y, &o.w};
    for (int t = 0; t < 3; ++t) {
        int64_t dims[5];
        memcpy(dims, bf[t]->v.dim, sizeof dims);
        it_tensor_free(bf[t]);
        it_tensor_make(bf[t], ACL_BF16, dims, views, &r);
        it_fill(bf[t], kind == DATA_INT, 24, &r);
    }
    if (rng_chance(&r, 1, 2)) { /* a BF16 gradInput: the data kernel narrows as it stores */
        int64_t dims[5];
        memcpy(dims, o.gi.v.dim, sizeof dims);
        it_tensor_free(&o.gi);
        it_tensor_make(&o.gi, ACL_BF16, dims, views, &r);
    }
    if (kind == DATA_TINY_DY) scale_tiny(&o.y);
    if (kind == DATA_TINY_X) scale_tiny(&o.x);
    if (kind == DATA_TINY_W) scale_tiny(&o.w); /* the data pass's other operand */
    if (kind == DATA_ONE_SUBNORMAL) {
        it_tensor *t = rng_chance(&r, 1, 2) ? &o.x : &o.y;
        const int64_t e = rng_range(&r, 0, it_numel(&t->v) - 1);
        ((uint16_t *)(void *)t->v.data)[it_offset_of(&t->v, e)] = (uint16_t)rng_range(&r, 1, 127);
    }
    it_operands_attach(&p, &o);
    char desc[512];
    it_describe(&p, desc, sizeof desc);
    ++g_cases;

    it_tensor exact[2], dot[2], plain[2];
    run(&p, &o, "exact", 2, exact);
    if (kind == DATA_INT) {
        /* every sum exact: the direct implementation's bits, gradInput's
         * rounding to BF16 included */
        it_tensor ref[2];
        it_run_reference(&p, &o, ref);
        for (int k = 0; k < 2; ++k) {
            char msg[256] = "";
            if (it_compare(&exact[k], &ref[k], NULL, msg, sizeof msg) != 0) {
                printf("FAIL seed %" PRIu64 " (integer data): %s differs from direct: %s: %s\n",
                       seed, k ? "gradWeight" : "gradInput", msg, desc);
                it_fail();
            }
            it_tensor_free(&ref[k]);
        }
    }
    run(&p, &o, "0", 2, plain);
    for (int k = 0; k < 2; ++k)
        g_paired[k] += !it_same_bits(&exact[k], &plain[k]);
    g_rv_paired += few_out && !it_same_bits(&exact[1], &plain[1]);
    for (int threads = 1; threads <= 3; ++threads) {
        run(&p, &o, g_dot_env, threads, dot);
        for (int k = 0; k < 2; ++k)
            if (!it_same_bits(&dot[k], &exact[k])) {
                char msg[256] = "";
                it_compare(&dot[k], &exact[k], NULL, msg, sizeof msg);
                printf("FAIL seed %" PRIu64
                       " (%s data, %d threads): %s of the vdpbf16ps run differs from the "
                       "exact kernels': %s: %s\n",
                       seed, k_data_names[kind], threads, k ? "gradWeight" : "gradInput", msg,
                       desc);
                it_fail();
            }
        for (int k = 0; k < 2; ++k)
            it_tensor_free(&dot[k]);
    }
    for (int k = 0; k < 2; ++k) {
        it_tensor_free(&exact[k]);
        it_tensor_free(&plain[k]);
    }
    it_operands_free(&o);
}

int main(void)
{
    if (cpu_isa() < ACLCONV_ISA_AVX512) { /* the CPU's, or capped by ACLCONV_ISA */
        printf("SKIP: no AVX-512 (the BF16 pairs run there only)\n");
        return 77;
    }
    /* "1": the instruction wherever the CPU has it, also where the default
     * plans without pairs because they would be slower (Intel) */
    const bool dot = cpu_has_bf16_dot(ACLCONV_ISA_AVX512);
    g_dot_env = dot ? "1" : "exact";
    printf("test_bf16_pairs: vdpbf16ps %s\n",
           dot ? "present" : "absent (pairs with the exact kernels only)");
    const uint64_t base = 0x62663136ull;
    for (int kind = 0; kind < DATA_KINDS; ++kind)
        for (uint64_t s = 0; s < (kind == DATA_INT ? 64 : 32); ++s)
            one_case(base + (uint64_t)kind * 1000 + s, kind, false);
    for (uint64_t s = 0; s < 8; ++s) /* real data: the vdpbf16ps kernel's bits */
        one_case(base + 9000 + s, DATA_REAL, true);
    /* the weights pass's partial rows split among tasks (ACLCONV_FAST_WT_SPLIT
     * lowered so that every GEMM-path case takes it): each task's guard,
     * the redo */
    setenv("ACLCONV_FAST_WT_SPLIT", "1", 1);
    for (uint64_t s = 0; s < 16; ++s)
        one_case(base + 12000 + s, s % 2 ? DATA_TINY_X : DATA_REAL, false);
    unsetenv("ACLCONV_FAST_WT_SPLIT");
    for (int k = 0; k < 2; ++k)
        if (g_paired[k] == 0) {
            printf("FAIL no case ran the %s pass's pairs (every result had the unpaired plan's "
                   "bits)\n",
                   k ? "weights" : "data");
            it_fail();
        }
    if (g_rv_paired == 0) {
        printf("FAIL no case ran the weights pass's reduction-vector pairs\n");
        it_fail();
    }
    printf("%d cases; gradInput / gradWeight differ from the unpaired plan's order in %d / %d (%d "
           "of the reduction-vector path); %d failures\n",
           g_cases, g_paired[0], g_paired[1], g_rv_paired, it_failures());
    return it_failures() ? 1 : 0;
}
