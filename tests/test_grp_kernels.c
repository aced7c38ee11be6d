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
 *
 * Likewise the masked-layout kernels: grpconv (rows of ow columns, a run
 * starting at any column, W taps that leave their rows on either side or
 * never, streamed or plain stores, every rounding kind) and grpwtm (rows
 * each with its own mask, rows sharing one, rows whose mask is all set over
 * len or only over len), integer data, bitwise against plain loops.
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

/* The first element whose bits differ, or n. */
static size_t first_mismatch(const float *got, const float *want, size_t n)
{
    size_t i = 0;
    while (i < n && f32_bits(got[i]) == f32_bits(want[i])) ++i;
    return i;
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
    const size_t i = first_mismatch(y, want, yn);
    const int bad = i < yn;
    if (bad)
        printf("FAIL grpconv_s2 %s %s: nk {%zu, %zu} off %td mr=%d nr=%d ncol=%zu nc=%zu "
               "nrt=%zu yround=%d: y[%zu] = %g, want %g\n",
               cpu_isa_name(k->isa), what, s->nk[0], s->nk[1], off, mr, nr, ncol, nc, nrt, yround,
               i, y[i], want[i]);
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

/* ---- the masked layout: grpconv, grpwtm -------------------------------- */

typedef struct masked_isa {
    aclconvIsa isa;
    f32_grpconv_ukernel_fn conv;
    int conv_mr, conv_nr;
    f32_grpwtm_ukernel_fn wtm;
    int wtm_mr, wtm_nr, vl;
} masked_isa;

static int check_grpconv(const masked_isa *k, test_rng *r, int mr, int nr)
{
    const size_t ow = (size_t)rng_range(r, 1, 40), col0 = (size_t)rng_range(r, 0, (int64_t)ow - 1);
    const size_t nc = (size_t)rng_range(r, 1, 9), nrt = (size_t)rng_range(r, 1, 3);
    const size_t nkw = (size_t)rng_range(r, 1, 5);
    const int yround = (int)rng_range(r, F32_ROUND_NONE, F32_ROUND_BF16);
    const int stream = rng_chance(r, 1, 2);
    ptrdiff_t roff[3], wsh[5];
    /* shifts left, right, none, or all inside a run of one row */
    for (size_t t = 0; t < nkw; ++t) wsh[t] = (ptrdiff_t)rng_range(r, -3, 3);
    const size_t cs = 3 * 48 + (size_t)rng_range(r, 0, 40);
    for (size_t t = 0; t < nrt; ++t) roff[t] = (ptrdiff_t)(t * 40) + (ptrdiff_t)rng_range(r, 0, 5);
    const size_t xn = GRP_CONV_GUARD + nc * cs + 64 + 16, wn = nrt * nkw * nc * (size_t)k->conv_mr;
    float *buf = malloc(xn * sizeof(float)), *w = malloc(wn * sizeof(float));
    for (size_t i = 0; i < xn; ++i) buf[i] = (float)rng_range(r, -40, 40);
    for (size_t i = 0; i < wn; ++i) w[i] = (float)rng_range(r, -40, 40);
    const float *x = buf + GRP_CONV_GUARD;
    const size_t ldy = (size_t)nr + (size_t)rng_range(r, 0, 20), yn = (size_t)(k->conv_mr + 1) * ldy;
    float *y = malloc(yn * sizeof(float) + 64), *want = malloc(yn * sizeof(float));
    float *ya = (float *)(((uintptr_t)y + 63) & ~(uintptr_t)63); /* streamed rows can align */
    for (size_t i = 0; i < yn; ++i) ya[i] = want[i] = GUARD;
    k->conv((size_t)mr, (size_t)nr, nc, nrt, nkw, w, x, cs, roff, wsh, ow, col0, ya, ldy, stream,
            yround, NULL);
    for (int m = 0; m < mr; ++m)
        for (size_t j = 0; j < (size_t)nr; ++j) {
            const ptrdiff_t col = (ptrdiff_t)((col0 + j) % ow);
            float sum = 0; /* exact: integers below 2^24 */
            for (size_t rt = 0; rt < nrt; ++rt)
                for (size_t t = 0; t < nkw; ++t)
                    for (size_t c = 0; c < nc; ++c) {
                        const ptrdiff_t cw = col + wsh[t];
                        const float xv = cw < 0 || cw >= (ptrdiff_t)ow
                                             ? 0.0f
                                             : x[(ptrdiff_t)(c * cs) + roff[rt] + wsh[t] +
                                                 (ptrdiff_t)j];
                        sum += w[((rt * nkw + t) * nc + c) * (size_t)k->conv_mr + (size_t)m] * xv;
                    }
            want[(size_t)m * ldy + j] = round_ref(sum, yround);
        }
    const size_t i = first_mismatch(ya, want, yn);
    const int bad = i < yn;
    if (bad)
        printf("FAIL grpconv %s: mr=%d nr=%d ow=%zu col0=%zu nc=%zu nrt=%zu nkw=%zu "
               "stream=%d yround=%d: y[%zu] = %g, want %g\n",
               cpu_isa_name(k->isa), mr, nr, ow, col0, nc, nrt, nkw, stream, yround, i, ya[i],
               want[i]);
    free(buf);
    free(w);
    free(y);
    free(want);
    return bad;
}

/* kind: 0 rows with their own masks, 1 one shared mask, 2 one mask all
 * set, 3 one mask set over len only */
static int check_grpwtm(const masked_isa *k, test_rng *r, int mr, int nr, int kind)
{
    const size_t len = (size_t)rng_range(r, 1, 100), words = len / 16 + 2;
    const size_t rowlen = len + 16 + 8;
    float *a = malloc((size_t)mr * rowlen * sizeof(float));
    float *b = malloc((size_t)nr * rowlen * sizeof(float));
    uint16_t *mt = malloc((size_t)nr * words * sizeof(uint16_t));
    for (size_t i = 0; i < (size_t)mr * rowlen; ++i) a[i] = (float)rng_range(r, -40, 40);
    for (size_t i = 0; i < (size_t)nr * rowlen; ++i) b[i] = (float)rng_range(r, -40, 40);
    for (size_t i = 0; i < (size_t)nr * words; ++i) {
        mt[i] = (uint16_t)rng_range(r, 0, 0xFFFF);
        if (kind >= 2) mt[i] = 0xFFFFu;
        if (kind == 3 && i * 16 >= len) mt[i] = 0;
        if (kind == 3 && i == len / 16) mt[i] = (uint16_t)((1u << (len % 16)) - 1u);
    }
    const float *ap[4], *bp[8];
    const uint16_t *bm[8];
    for (int m = 0; m < mr; ++m) ap[m] = a + (size_t)m * rowlen;
    for (int n = 0; n < nr; ++n) {
        bp[n] = b + (size_t)n * rowlen;
        bm[n] = mt + (kind == 0 ? (size_t)n * words : 0);
    }
    const size_t ldm = (size_t)(k->wtm_nr + 1) * GRP_ACC_LANES, an = (size_t)(mr + 1) * ldm;
    float *acc = malloc(an * sizeof(float)), *want = malloc(an * sizeof(float));
    for (size_t i = 0; i < an; ++i) acc[i] = want[i] = (float)rng_range(r, -40, 40);
    k->wtm((size_t)mr, (size_t)nr, len, ap, bp, bm, acc, ldm, NULL);
    for (int m = 0; m < mr; ++m)
        for (int n = 0; n < nr; ++n)
            for (size_t j = 0; j < len; ++j) {
                const float bv = (bm[n][j / 16] >> (j % 16)) & 1u ? bp[n][j] : 0.0f;
                want[(size_t)m * ldm + (size_t)n * GRP_ACC_LANES + j % (size_t)k->vl] +=
                    ap[m][j] * bv;
            }
    const size_t i = first_mismatch(acc, want, an);
    const int bad = i < an;
    if (bad)
        printf("FAIL grpwtm %s: mr=%d nr=%d len=%zu masks kind %d: acc[%zu] = %g, want %g\n",
               cpu_isa_name(k->isa), mr, nr, len, kind, i, acc[i], want[i]);
    free(a);
    free(b);
    free(mt);
    free(acc);
    free(want);
    return bad;
}

static int check_masked(const masked_isa *k, test_rng *r)
{
    int bad = 0;
    for (int mr = 1; mr <= k->conv_mr; ++mr)
        for (int nr = 1; nr <= k->conv_nr; ++nr)
            for (int rep = 0; rep < 3; ++rep) bad += check_grpconv(k, r, mr, nr);
    for (int mr = 1; mr <= k->wtm_mr; ++mr)
        for (int nr = 1; nr <= k->wtm_nr; ++nr)
            for (int kind = 0; kind < 4; ++kind)
                for (int rep = 0; rep < 4; ++rep) bad += check_grpwtm(k, r, mr, nr, kind);
    printf("%s: grpconv %dx%d, grpwtm %dx%d %s\n", cpu_isa_name(k->isa), k->conv_mr, k->conv_nr,
           k->wtm_mr, k->wtm_nr, bad ? "FAIL" : "ok");
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
    const masked_isa masked[] = {
        {ACLCONV_ISA_SCALAR, f32_grpconv_ukernel_4x16__scalar, 4, 16,
         f32_grpwtm_ukernel_2x2__scalar, 2, 2, 4},
        {ACLCONV_ISA_AVX2, f32_grpconv_ukernel_4x24__avx2, 4, 24, f32_grpwtm_ukernel_3x4__avx2, 3,
         4, 8},
        {ACLCONV_ISA_AVX512, f32_grpconv_ukernel_8x48__avx512, 8, 48,
         f32_grpwtm_ukernel_4x6__avx512, 4, 6, 16},
    };
    for (size_t i = 0; i < sizeof masked / sizeof masked[0]; ++i) {
        if (masked[i].isa > have) continue; /* SKIP printed above */
        test_rng r;
        rng_seed(&r, seed + 101u + (uint64_t)masked[i].isa);
        g_fail += check_masked(&masked[i], &r);
    }
    printf("test_grp_kernels: %s\n", g_fail ? "FAILED" : "OK");
    return g_fail ? 1 : 0;
}
