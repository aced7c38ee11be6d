/*
 * The grouped data kernel for a W stride of 2 (grpconv_s2) of every ISA the
 * CPU has, and the instances its selector picks, against a plain loop: edge
 * tiles (mr 1..MR, nr 1..NR, an odd last column), 1-3 row taps, 1-9 source
 * channels, the phase shapes of stride-2 kernels of width 1-5 (dilation 1
 * and 2) with the shifts at an offset, every result rounding kind. Integer
 * data wide enough that a result rounding shows and every sum is exact in
 * fp32 (compared bitwise); with real data the selected instances must give
 * the bits of the ISA's kernel, whose order of sums they keep. Guards around
 * the tile must survive. ISAs the CPU lacks: SKIP.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/dtype.h"
#include "kernels/cvt_ukernels.h"
#include "kernels/grp_ukernels.h"
#include "test_rng.h"

#define GUARD (-12345.0f)

static int g_fail;

typedef struct s2_isa {
    aclconvIsa isa;
    f32_grpconv_s2_ukernel_fn fn;
    f32_grpconv_s2_select_fn select; /* NULL: the ISA has no instances */
    int mr, nr;
} s2_isa;

/* A phase shape: taps per phase and their W shifts before the offset. */
typedef struct s2_shape {
    size_t nk[2];
    ptrdiff_t sh[2][3];
    int special; /* the selectors have an instance for it */
} s2_shape;

static const s2_shape k_shapes[] = {
    {{1, 2}, {{0}, {1, 0}}, 1},       /* 3x3, padding 1 */
    {{2, 1}, {{1, 0}, {1}}, 1},       /* 3x3, padding 0 */
    {{1, 1}, {{0}, {0}}, 1},          /* 2x2 */
    {{2, 2}, {{1, 0}, {2, 1}}, 1},    /* 4x4, padding 1 */
    {{1, 0}, {{0}, {0}}, 1},          /* 1x1 */
    {{3, 2}, {{2, 1, 0}, {2, 1}}, 0}, /* 5x5, padding 2 */
    {{1, 2}, {{1}, {3, 0}}, 0},       /* 3x3, dilation 3 */
    {{3, 0}, {{2, 1, 0}, {0}}, 0},    /* 3x3, dilation 2: one phase */
    {{0, 2}, {{0}, {1, 0}}, 0},       /* no tap in phase 0 */
};

static float round_ref(float f, int kind)
{
    if (kind == F32_ROUND_NONE) return f;
    return kind == F32_ROUND_HF32  ? f32_round_hf32(f)
           : kind == F32_ROUND_F16 ? f32_round_f16(f)
                                   : f32_round_bf16(f);
}

/* One call of fn (and of ref, when not NULL, on the same operands) checked
 * against the plain loop (integer data) or against ref's bits (real data). */
static int check_call(const s2_isa *k, f32_grpconv_s2_ukernel_fn fn, f32_grpconv_s2_ukernel_fn ref,
                      const s2_shape *s, int mr, int nr, test_rng *r, int real, const char *what)
{
    const size_t nc = (size_t)rng_range(r, 1, 9), nrt = (size_t)rng_range(r, 1, 3);
    const size_t ncol = (size_t)(2 * nr - (rng_chance(r, 1, 2) ? 1 : 0));
    const ptrdiff_t off = (ptrdiff_t)rng_range(r, 0, 5);
    const int yround = (int)rng_range(r, F32_ROUND_NONE, F32_ROUND_BF16);
    ptrdiff_t shu[2][3], roff[3];
    for (int u = 0; u < 2; ++u)
        for (size_t t = 0; t < s->nk[u]; ++t) shu[u][t] = s->sh[u][t] + off;
    const ptrdiff_t *const sh[2] = {shu[0], shu[1]};
    const size_t cs = (size_t)k->nr + 8 + (size_t)rng_range(r, 0, 40);
    for (size_t t = 0; t < nrt; ++t)
        roff[t] = (ptrdiff_t)(t * cs * nc) + (ptrdiff_t)rng_range(r, 0, 9);
    const size_t xn = (nrt + 1) * cs * nc + 64;
    float *x = malloc(xn * sizeof(float));
    for (size_t i = 0; i < xn; ++i)
        x[i] = real ? (float)rng_unit(r) * 2.0f - 1.0f : (float)rng_range(r, -40, 40);
    float *w[2];
    for (int u = 0; u < 2; ++u) {
        const size_t wn = nrt * (s->nk[u] ? s->nk[u] : 1) * nc * (size_t)k->mr;
        w[u] = malloc(wn * sizeof(float));
        for (size_t i = 0; i < wn; ++i)
            w[u][i] = real ? (float)rng_unit(r) - 0.5f : (float)rng_range(r, -40, 40);
    }
    const float *const wc[2] = {w[0], w[1]};
    const size_t ldy = ncol + (size_t)rng_range(r, 0, 20), yn = (size_t)(k->mr + 1) * ldy;
    float *y = malloc(yn * sizeof(float)), *want = malloc(yn * sizeof(float));
    for (size_t i = 0; i < yn; ++i) y[i] = want[i] = GUARD;
    fn((size_t)mr, (size_t)nr, ncol, nc, nrt, s->nk, wc, x, cs, roff, sh, y, ldy, yround);
    if (ref)
        ref((size_t)mr, (size_t)nr, ncol, nc, nrt, s->nk, wc, x, cs, roff, sh, want, ldy, yround);
    else
        for (int m = 0; m < mr; ++m)
            for (size_t i = 0; i < ncol; ++i) {
                const size_t u = i % 2, j = i / 2;
                float sum = 0; /* exact: integers below 2^24 */
                for (size_t rt = 0; rt < nrt; ++rt)
                    for (size_t c = 0; c < nc; ++c)
                        for (size_t t = 0; t < s->nk[u]; ++t) {
                            const size_t wi = ((rt * s->nk[u] + t) * nc + c) * (size_t)k->mr;
                            sum += w[u][wi + (size_t)m] *
                                   x[c * cs + (size_t)roff[rt] + (size_t)sh[u][t] + j];
                        }
                want[(size_t)m * ldy + i] = round_ref(sum, yround);
            }
    int bad = 0;
    for (size_t i = 0; i < yn; ++i)
        if (f32_bits(y[i]) != f32_bits(want[i])) {
            printf("FAIL grpconv_s2 %s %s: nk {%zu, %zu} off %td mr=%d nr=%d ncol=%zu nc=%zu "
                   "nrt=%zu yround=%d: y[%zu] = %g, want %g\n",
                   cpu_isa_name(k->isa), what, s->nk[0], s->nk[1], off, mr, nr, ncol, nc, nrt,
                   yround, i, y[i], want[i]);
            bad = 1;
            break;
        }
    free(x);
    free(w[0]);
    free(w[1]);
    free(y);
    free(want);
    return bad;
}

static int check_isa(const s2_isa *k, test_rng *r)
{
    int bad = 0, selected = 0;
    for (size_t si = 0; si < sizeof k_shapes / sizeof k_shapes[0]; ++si) {
        const s2_shape *s = &k_shapes[si];
        const ptrdiff_t *const sh[2] = {s->sh[0], s->sh[1]};
        const f32_grpconv_s2_ukernel_fn sel = k->select ? k->select(s->nk, sh) : k->fn;
        if (k->select && (sel != k->fn) != (s->special != 0)) {
            printf("FAIL grpconv_s2 %s: the selector %s an instance for nk {%zu, %zu}\n",
                   cpu_isa_name(k->isa), s->special ? "has no" : "picks", s->nk[0], s->nk[1]);
            ++bad;
        }
        selected += sel != k->fn;
        for (int mr = 1; mr <= k->mr; ++mr)
            for (int nr = 1; nr <= k->nr; ++nr) {
                bad += check_call(k, k->fn, NULL, s, mr, nr, r, 0, "kernel");
                if (sel == k->fn) continue;
                bad += check_call(k, sel, NULL, s, mr, nr, r, 0, "instance");
                bad += check_call(k, sel, k->fn, s, mr, nr, r, 1, "instance, real data");
            }
    }
    printf("%s: grpconv_s2 %dx%d %s (%d shapes by a specialized instance)\n", cpu_isa_name(k->isa),
           k->mr, 2 * k->nr, bad ? "FAIL" : "ok", selected);
    return bad;
}

int main(void)
{
    const uint64_t seed = 0x67727073326b72ull;
    printf("test_grp_kernels: seed %" PRIu64 "\n", seed);
    const s2_isa isas[] = {
        {ACLCONV_ISA_SCALAR, f32_grpconv_s2_ukernel_2x8__scalar, NULL, 2, 4},
        {ACLCONV_ISA_AVX2, f32_grpconv_s2_ukernel_3x32__avx2, f32_grpconv_s2_select__avx2, 3, 16},
        {ACLCONV_ISA_AVX512, f32_grpconv_s2_ukernel_4x64__avx512, f32_grpconv_s2_select__avx512,
         4, 32},
    };
    const aclconvIsa have = cpu_detected_isa();
    for (size_t i = 0; i < sizeof isas / sizeof isas[0]; ++i) {
        if (isas[i].isa > have) {
            printf("SKIP %s: not supported by this CPU\n", cpu_isa_name(isas[i].isa));
            continue;
        }
        test_rng r;
        rng_seed(&r, seed + (uint64_t)isas[i].isa);
        g_fail += check_isa(&isas[i], &r);
    }
    printf("test_grp_kernels: %s\n", g_fail ? "FAILED" : "OK");
    return g_fail ? 1 : 0;
}
