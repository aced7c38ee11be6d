/*
 * Every microkernel of every ISA the CPU has, against a plain loop: every
 * edge tile (each mr in 1..MR times each nr in 1..NR), overwrite and
 * accumulate, with small-integer data so every sum is exact and the
 * comparison is bitwise. Guard values around the output tile must survive
 * (a kernel writes exactly mr x nr elements). ISAs the CPU lacks: SKIP.
 */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/cpu.h"
#include "common/dtype.h"
#include "engine/conv_fast_convert.h"
#include "engine/conv_views.h"
#include "kernels/conv_ukernels.h"
#include "kernels/ukernel_prefetch.h"
#include "test_rng.h"

#define GUARD (-12345.0f)

static int g_fail;

static float small_int(test_rng *r) { return (float)rng_range(r, -4, 4); }

/* conv: y[m][j] = (acc ? y : 0) + sum_c sum_t w[(c*nt+t)*MR+m] * x[c*cs + toff[t] + j];
 * convcv (cvfn != NULL): the same at y[m*ldy + j*ystep], over taps [ta, ta + nt)
 * of a panel of ntw >= nt taps a channel, without the terms its random edge
 * flags (every other call) leave out */
static int check_conv(const conv_ukernels *k, int MR, int NR, f32_conv_ukernel_fn fn,
                      f32_convcv_ukernel_fn cvfn, size_t ystep, test_rng *r)
{
    int bad = 0;
    for (int mr = 1; mr <= MR; ++mr)
        for (int nr = 1; nr <= NR; ++nr)
            for (int accumulate = 0; accumulate < 2; ++accumulate) {
                const size_t nc = (size_t)rng_range(r, 1, 5), nt = (size_t)rng_range(r, 1, 4);
                const size_t ntw = nt + (cvfn ? (size_t)rng_range(r, 0, 2) : 0),
                             ta = (size_t)rng_range(r, 0, (int)(ntw - nt));
                const size_t cs = (size_t)NR + (size_t)rng_range(r, 8, 40);
                ptrdiff_t toff[4];
                uint8_t tedge[4] = {0};
                const bool edges = cvfn && rng_chance(r, 1, 2);
                for (size_t t = 0; t < nt; ++t) {
                    toff[t] = (ptrdiff_t)rng_range(r, 0, 7);
                    if (edges) tedge[t] = (uint8_t)rng_range(r, 0, 3);
                }
                const size_t xn = nc * cs + 8 + CONV_UKERNEL_SLACK;
                const size_t ldy = (size_t)(NR - 1) * ystep + 4, yn = (size_t)(MR + 1) * ldy;
                float *x = malloc(xn * sizeof(float));
                float *w = malloc(nc * ntw * (size_t)MR * sizeof(float));
                float *y = malloc(yn * sizeof(float));
                float *want = malloc(yn * sizeof(float));
                for (size_t i = 0; i < xn; ++i) x[i] = small_int(r);
                for (size_t i = 0; i < nc * ntw * (size_t)MR; ++i) w[i] = small_int(r);
                for (size_t i = 0; i < yn; ++i)
                    y[i] = want[i] = GUARD;
                for (int m = 0; m < mr; ++m)
                    for (int j = 0; j < nr; ++j)
                        y[m * ldy + j * ystep] = want[m * ldy + j * ystep] = small_int(r);
                for (int m = 0; m < mr; ++m)
                    for (int j = 0; j < nr; ++j) {
                        float s = accumulate ? want[m * ldy + j * ystep] : 0.0f;
                        for (size_t c = 0; c < nc; ++c)
                            for (size_t t = 0; t < nt; ++t) {
                                if ((j == 0 && (tedge[t] & CONVCV_SKIP_FIRST)) ||
                                    (j == nr - 1 && (tedge[t] & CONVCV_SKIP_LAST)))
                                    continue;
                                s += w[(c * ntw + ta + t) * MR + m] * x[c * cs + toff[t] + j];
                            }
                        want[m * ldy + j * ystep] = s;
                    }
                if (cvfn)
                    cvfn((size_t)mr, (size_t)nr, nc, nt, ntw, w + ta * (size_t)MR, x, cs, toff,
                         edges ? tedge : NULL, y, ldy, ystep, accumulate, CONVCV_Y_F32);
                else
                    fn((size_t)mr, (size_t)nr, nc, nt, w, x, cs, toff, y, ldy, accumulate,
                       F32_ROUND_NONE);
                for (size_t i = 0; i < yn; ++i)
                    if (y[i] != want[i]) {
                        if (bad++ < 3)
                            printf("FAIL %s %dx%d %s step %zu mr=%d nr=%d acc=%d nc=%zu nt=%zu: "
                                   "y[%zu][%zu] = %g, "
                                   "want %g\n",
                                   cvfn ? "convcv" : "conv", MR, NR, cpu_isa_name(k->isa), ystep,
                                   mr, nr, accumulate, nc, nt, i / ldy, i % ldy, y[i], want[i]);
                        break;
                    }
                free(x);
                free(w);
                free(y);
                free(want);
            }
    return bad;
}

/* conv_nt against conv: the same bits in every element the tile names and
 * nothing else written, with y and its pitch on 64-byte boundaries (full
 * vectors streamed) and one float off (no vector can stream), x rounded or
 * not. */
static int check_conv_nt(const conv_ukernels *k, test_rng *r)
{
    if (!k->conv_nt) return 0;
    int bad = 0;
    const int MR = k->conv_mr, NR = k->conv_nr;
    for (int mr = 1; mr <= MR; ++mr)
        for (int nr = 1; nr <= NR; ++nr)
            for (int off = 0; off < 2; ++off) {
                const size_t nc = (size_t)rng_range(r, 1, 5), nt = (size_t)rng_range(r, 1, 3);
                const size_t cs = (size_t)NR + (size_t)rng_range(r, 8, 40);
                const int xround = rng_chance(r, 1, 3) ? F32_ROUND_HF32 : F32_ROUND_NONE;
                ptrdiff_t toff[3];
                for (size_t t = 0; t < nt; ++t) toff[t] = (ptrdiff_t)rng_range(r, 0, 7);
                const size_t xn = nc * cs + 8 + CONV_UKERNEL_SLACK;
                const size_t ldy = ((size_t)NR + 31) / 16 * 16; /* (64-byte rows) */
                const size_t yn = (size_t)(MR + 1) * ldy + 16;
                float *x = malloc(xn * sizeof(float));
                float *w = malloc(nc * nt * (size_t)MR * sizeof(float));
                float *yb = aclconv_aligned_alloc(yn * sizeof(float));
                float *want = malloc(yn * sizeof(float));
                for (size_t i = 0; i < xn; ++i) x[i] = (float)rng_unit(r) * 2.0f - 1.0f;
                for (size_t i = 0; i < nc * nt * (size_t)MR; ++i)
                    w[i] = (float)rng_unit(r) - 0.5f;
                for (size_t i = 0; i < yn; ++i) yb[i] = want[i] = GUARD;
                k->conv((size_t)mr, (size_t)nr, nc, nt, w, x, cs, toff, want + off, ldy, 0,
                        xround);
                k->conv_nt((size_t)mr, (size_t)nr, nc, nt, w, x, cs, toff, yb + off, ldy, 0,
                           xround);
                k->store_fence();
                for (size_t i = 0; i < yn; ++i)
                    if (f32_bits(yb[i]) != f32_bits(want[i])) {
                        if (bad++ < 3)
                            printf("FAIL conv_nt %dx%d %s mr=%d nr=%d off=%d xround=%d: "
                                   "y[%zu] = %g, conv wrote %g\n",
                                   MR, NR, cpu_isa_name(k->isa), mr, nr, off, xround, i, yb[i],
                                   want[i]);
                        break;
                    }
                free(x);
                free(w);
                aclconv_free(yb);
                free(want);
            }
    return bad;
}

/* An x value for the rounding checks: ordinary, halfway between two HF32 /
 * fp16 / bf16 values, tiny, huge, or not finite. */
static float rounding_value(test_rng *r)
{
    switch (rng_range(r, 0, 9)) {
    case 0: return f32_from_bits(0x3f800800u + ((uint32_t)rng_range(r, 0, 1) << 12)); /* HF32 ties */
    case 1: return f32_from_bits(0x3f801000u + ((uint32_t)rng_range(r, 0, 1) << 13)); /* fp16 ties */
    case 2: return f32_from_bits(0x40008000u + ((uint32_t)rng_range(r, 0, 1) << 16)); /* bf16 ties */
    case 3: return (float)(rng_unit(r) * 1e-6); /* fp16 subnormal or zero */
    case 4: return 70000.0f * (rng_range(r, 0, 1) ? 1.0f : -1.0f); /* fp16 overflow */
    case 5: return rng_range(r, 0, 1) ? INFINITY : f32_from_bits(0x7f800123u); /* inf, NaN */
    default: return (float)rng_unit(r) * 2.0f - 1.0f;
    }
}

/* conv with xround == kind: bitwise the kernel over x rounded first by the
 * ISA's f32_round (the rounding a packed slab gets), for every kind */
static int check_conv_xround(const conv_ukernels *k, int MR, int NR, f32_conv_ukernel_fn fn,
                             test_rng *r)
{
    int bad = 0;
    for (int kind = F32_ROUND_HF32; kind <= F32_ROUND_BF16; ++kind)
        for (int trial = 0; trial < 48; ++trial) {
            /* half the trials two taps a position apart, in either order
             * (the AVX-512 kernel's pair form for up to 5 rows) */
            const bool pair = trial % 4 < 2;
            const size_t mr = (size_t)rng_range(r, 1, MR), nr = (size_t)rng_range(r, 1, NR);
            const size_t nc = (size_t)rng_range(r, 1, 5),
                         nt = pair ? 2 : (size_t)rng_range(r, 1, 4);
            const size_t cs = (size_t)NR + (size_t)rng_range(r, 8, 40), ldy = (size_t)NR + 3;
            const int accumulate = trial & 1;
            ptrdiff_t toff[4];
            for (size_t t = 0; t < nt; ++t) toff[t] = (ptrdiff_t)rng_range(r, 1, 7);
            if (pair) toff[1] = toff[0] + (trial % 4 == 0 ? 1 : -1);
            const size_t xn = nc * cs + 8 + CONV_UKERNEL_SLACK, yn = (size_t)MR * ldy;
            float *x = malloc(xn * sizeof(float)), *xr = malloc(xn * sizeof(float));
            float *w = malloc(nc * nt * (size_t)MR * sizeof(float));
            float *y = malloc(yn * sizeof(float)), *want = malloc(yn * sizeof(float));
            for (size_t i = 0; i < xn; ++i) x[i] = rounding_value(r);
            for (size_t i = 0; i < nc * nt * (size_t)MR; ++i) w[i] = (float)rng_unit(r) * 2.0f - 1.0f;
            for (size_t i = 0; i < yn; ++i) y[i] = want[i] = (float)rng_unit(r);
            k->f32_round(xn, x, xr, kind);
            fn(mr, nr, nc, nt, w, xr, cs, toff, want, ldy, accumulate, F32_ROUND_NONE);
            fn(mr, nr, nc, nt, w, x, cs, toff, y, ldy, accumulate, kind);
            if (memcmp(y, want, yn * sizeof(float)) != 0 && bad++ < 3)
                printf("FAIL conv %dx%d %s xround %d mr=%zu nr=%zu acc=%d: bits differ from a "
                       "rounded x\n",
                       MR, NR, cpu_isa_name(k->isa), kind, mr, nr, accumulate);
            free(x);
            free(xr);
            free(w);
            free(y);
            free(want);
        }
    return bad;
}

/* convcv against conv on random fp32 data: the contract promises the same
 * bits (same terms, same order, one FMA each), not only the same value.
 * Trials from 64 on are one-tap full tiles over up to 160 channels (the
 * AVX-512 kernel's 1x1 loop, whose stretches depend on the channel count).
 * Most calls take a tap range [ta, ta + nt) of a panel of ntw taps a
 * channel; conv gets those taps packed as a panel of their own. */
static int check_convcv_bits(const conv_ukernels *k, test_rng *r)
{
    const int MR = k->convcv_mr, NR = k->convcv_nr, MS = k->conv_mr;
    int bad = 0;
    for (int trial = 0; trial < 96; ++trial) {
        const bool one_tap = trial >= 64;
        const size_t mr = (size_t)rng_range(r, one_tap ? MR / 2 + 1 : 1, MR),
                     nr = one_tap ? (size_t)NR : (size_t)rng_range(r, 1, NR);
        const size_t nc = (size_t)rng_range(r, 1, one_tap ? 160 : 40),
                     nt = one_tap ? 1 : (size_t)rng_range(r, 1, 9);
        const size_t ntw = nt + (size_t)(trial % 3 ? rng_range(r, 1, 3) : 0),
                     ta = (size_t)rng_range(r, 0, (int)(ntw - nt));
        const size_t cs = (size_t)NR + (size_t)rng_range(r, 8, 40), ldy = (size_t)NR + 5;
        const int accumulate = trial & 1;
        ptrdiff_t toff[9];
        for (size_t t = 0; t < nt; ++t)
            toff[t] = (ptrdiff_t)rng_range(r, 0, 7);
        const size_t xn = nc * cs + 8 + CONV_UKERNEL_SLACK, nb = ((size_t)MR + MS - 1) / MS;
        float *x = malloc(xn * sizeof(float)), *w = malloc(nc * ntw * (size_t)MR * sizeof(float));
        float *ws = calloc(nb * nc * nt * (size_t)MS, sizeof(float));
        float *y = malloc((size_t)MR * ldy * sizeof(float)),
              *want = malloc((size_t)MR * ldy * sizeof(float));
        for (size_t i = 0; i < xn; ++i)
            x[i] = (float)rng_unit(r) * 2.0f - 1.0f;
        for (size_t i = 0; i < nc * ntw * (size_t)MR; ++i)
            w[i] = (float)rng_unit(r) * 2.0f - 1.0f;
        for (size_t i = 0; i < (size_t)MR * ldy; ++i)
            y[i] = want[i] = (float)rng_unit(r);
        /* the range's weights as MS-row panels for conv: row q = c*nt + t
         * is the full panel's row c*ntw + ta + t */
        for (size_t b = 0; b < nb; ++b)
            for (size_t q = 0; q < nc * nt; ++q)
                for (int m = 0; m < MS && b * (size_t)MS + (size_t)m < (size_t)MR; ++m)
                    ws[(b * nc * nt + q) * (size_t)MS + (size_t)m] =
                        w[(q / nt * ntw + ta + q % nt) * (size_t)MR + b * (size_t)MS + (size_t)m];
        for (size_t b = 0; b * (size_t)MS < mr; ++b) {
            const size_t rows = mr - b * (size_t)MS < (size_t)MS ? mr - b * (size_t)MS : (size_t)MS;
            for (size_t j0 = 0; j0 < nr; j0 += (size_t)k->conv_nr) {
                const size_t cols = nr - j0 < (size_t)k->conv_nr ? nr - j0 : (size_t)k->conv_nr;
                k->conv(rows, cols, nc, nt, ws + b * nc * nt * (size_t)MS, x + j0, cs, toff,
                        want + b * (size_t)MS * ldy + j0, ldy, accumulate, F32_ROUND_NONE);
            }
        }
        k->convcv(mr, nr, nc, nt, ntw, w + ta * (size_t)MR, x, cs, toff, NULL, y, ldy, 1,
                  accumulate, CONVCV_Y_F32);
        if (memcmp(y, want, (size_t)MR * ldy * sizeof(float)) != 0 && bad++ < 3)
            printf("FAIL convcv %dx%d %s mr=%zu nr=%zu acc=%d nc=%zu nt=%zu of %zu from %zu: bits "
                   "differ from conv\n",
                   MR, NR, cpu_isa_name(k->isa), mr, nr, accumulate, nc, nt, ntw, ta);
        free(x);
        free(w);
        free(ws);
        free(y);
        free(want);
    }
    return bad;
}

/* convcv into a 16-bit y (bf16 or fp16): each element f32_narrow's bits of
 * the float result, at steps 1 to 3, the elements between and around left
 * alone; sums spread over fp16's whole range and past it (subnormal,
 * overflowing), infinities and NaNs among them. */
static int check_convcv_y16(const conv_ukernels *k, test_rng *r)
{
    const int MR = k->convcv_mr, NR = k->convcv_nr;
    enum { G16 = 0xbeef };
    int bad = 0;
    for (int trial = 0; trial < 120; ++trial) {
        const int y16 = trial % 2 ? CONVCV_Y_F16 : CONVCV_Y_BF16;
        const bool full = trial % 4 < 2; /* the full-tile instances: 14 positions, both halves */
        const size_t ystep = (size_t)1 + (size_t)(trial / 4) % 3;
        const size_t mr = (size_t)rng_range(r, full ? MR / 2 + 1 : 1, MR),
                     nr = full ? (size_t)NR : (size_t)rng_range(r, 1, NR);
        const size_t nc = (size_t)rng_range(r, 1, 40), nt = (size_t)rng_range(r, 1, 3);
        const size_t cs = (size_t)NR + (size_t)rng_range(r, 8, 40);
        const size_t ldy = (nr - 1) * ystep + (size_t)rng_range(r, 1, 5),
                     yn = ((size_t)MR + 1) * ldy;
        ptrdiff_t toff[3];
        for (size_t t = 0; t < nt; ++t)
            toff[t] = (ptrdiff_t)rng_range(r, 0, 7);
        const size_t xn = nc * cs + 8 + CONV_UKERNEL_SLACK;
        float *x = malloc(xn * sizeof(float)), *w = malloc(nc * nt * (size_t)MR * sizeof(float));
        float *yf = malloc((size_t)MR * ldy * sizeof(float));
        uint16_t *y = malloc(yn * sizeof(uint16_t));
        const float scale = ldexpf(1.0f, rng_range(r, -30, 14)); /* fp16: subnormal .. overflow */
        for (size_t i = 0; i < xn; ++i)
            x[i] = ((float)rng_unit(r) * 2.0f - 1.0f) * scale;
        for (size_t i = 0; i < nc * nt * (size_t)MR; ++i)
            w[i] = (float)rng_unit(r) * 2.0f - 1.0f;
        if (trial % 5 == 0) { /* infinities, and NaNs where they meet */
            x[rng_range(r, 0, (int)xn - 1)] = INFINITY;
            x[rng_range(r, 0, (int)xn - 1)] = -INFINITY;
        }
        for (size_t i = 0; i < yn; ++i)
            y[i] = G16;
        /* (edge flags on half the calls: the edge instances narrow alike) */
        uint8_t tedge[3];
        for (size_t t = 0; t < nt; ++t) tedge[t] = (uint8_t)rng_range(r, 0, 3);
        const uint8_t *te = trial % 8 < 4 ? tedge : NULL;
        k->convcv(mr, nr, nc, nt, nt, w, x, cs, toff, te, yf, ldy, 1, 0, CONVCV_Y_F32);
        k->convcv(mr, nr, nc, nt, nt, w, x, cs, toff, te, y, ldy, ystep, 0, y16);
        int ok = 1;
        for (size_t i = 0; i < yn; ++i) {
            const size_t m = i / ldy, q = i % ldy, j = q / ystep;
            const bool named = m < mr && q % ystep == 0 && j < nr;
            const float v = named ? yf[m * ldy + j] : 0.0f;
            const uint16_t want = !named                 ? G16
                                  : y16 == CONVCV_Y_BF16 ? f32_to_bf16(v)
                                                         : f32_to_f16(v);
            ok &= y[i] == want;
        }
        if (!ok && bad++ < 3)
            printf("FAIL convcv y16=%d %dx%d %s step %zu mr=%zu nr=%zu nc=%zu nt=%zu: narrowed "
                   "results differ\n",
                   y16, MR, NR, cpu_isa_name(k->isa), ystep, mr, nr, nc, nt);
        free(x);
        free(w);
        free(yf);
        free(y);
    }
    return bad;
}

/* convwt: c[m][o] = (acc ? c : 0) + sum_r sum_j a[m][r*ars + j] * b[(r*len + j)*ldb + o] */
static int check_convwt(const conv_ukernels *k, test_rng *r)
{
    const int MR = k->convwt_mr, NR = k->convwt_nr;
    int bad = 0;
    for (int mr = 1; mr <= MR; ++mr)
        for (int nr = 1; nr <= NR; ++nr)
            for (int accumulate = 0; accumulate < 2; ++accumulate) {
                const size_t nrows = (size_t)rng_range(r, 0, 3), len = (size_t)rng_range(r, 1, 9);
                const size_t ars = len + (size_t)rng_range(r, 0, 5);
                const size_t ldb = ((size_t)nr + 15) / 16 * 16 + (size_t)rng_range(r, 0, 1) * 16;
                const size_t an = (size_t)MR * nrows * ars;
                const size_t bn = nrows * len * ldb + CONV_UKERNEL_SLACK;
                const size_t ldc = (size_t)NR + 5;
                float *a = malloc(an * sizeof(float));
                float *b = malloc(bn * sizeof(float));
                float *c = malloc((size_t)(MR + 1) * ldc * sizeof(float));
                float *want = malloc((size_t)(MR + 1) * ldc * sizeof(float));
                const float *rows[CONV_UKERNEL_MAX_MR];
                float *crow[CONV_UKERNEL_MAX_MR]; /* result rows in a shuffled order too */
                for (int m = 0; m < MR; ++m) crow[m] = c + (size_t)((m * 5 + 1) % MR) * ldc;
                for (size_t i = 0; i < an; ++i) a[i] = small_int(r);
                for (size_t i = 0; i < bn; ++i) b[i] = small_int(r);
                for (int m = 0; m < MR; ++m) /* rows in a shuffled order */
                    rows[m] = a + (size_t)((m * 5 + 3) % MR) * nrows * ars;
                for (size_t i = 0; i < (size_t)(MR + 1) * ldc; ++i) c[i] = want[i] = GUARD;
                for (int m = 0; m < mr; ++m)
                    for (int o = 0; o < nr; ++o) crow[m][o] = want[(crow[m] - c) + o] = small_int(r);
                for (int m = 0; m < mr; ++m)
                    for (int o = 0; o < nr; ++o) {
                        float s = accumulate ? want[(crow[m] - c) + o] : 0.0f;
                        for (size_t rr = 0; rr < nrows; ++rr)
                            for (size_t j = 0; j < len; ++j)
                                s += rows[m][rr * ars + j] * b[(rr * len + j) * ldb + o];
                        want[(crow[m] - c) + o] = s;
                    }
                k->convwt((size_t)mr, (size_t)nr, nrows, len, rows, ars, b, ldb, crow, accumulate);
                for (size_t i = 0; i < (size_t)(MR + 1) * ldc; ++i)
                    if (c[i] != want[i]) {
                        if (bad++ < 3)
                            printf("FAIL convwt %s mr=%d nr=%d acc=%d rows=%zu len=%zu: c[%zu][%zu] = %g, want %g\n",
                                   cpu_isa_name(k->isa), mr, nr, accumulate, nrows, len, i / ldc,
                                   i % ldc, c[i], want[i]);
                        break;
                    }
                free(a);
                free(b);
                free(c);
                free(want);
            }
    return bad;
}

/* A bf16 value: random sign and mantissa, exponent field in [elo, ehi]. */
static uint16_t bf16_random(test_rng *r, int elo, int ehi)
{
    return (uint16_t)((rng_range(r, 0, 1) << 15) | (rng_range(r, elo, ehi) << 7) |
                      rng_range(r, 0, 127));
}

static float bf16_val(uint32_t h)
{
    uint32_t u = (h & 0xffffu) << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* bf16 convwt against its contract: per pair the high position's product
 * first, one fused multiply-add each. tiny: exponents down to 0 (subnormals,
 * sums below 2^-126), where only the fused multiply-add variant must agree;
 * else exponents whose sums keep every partial sum normal, where the
 * vdpbf16ps variant (dot, when the CPU has it) must give the same bits. */
static int check_bf16_convwt(const conv_ukernels *k, bf16_convwt_ukernel_fn fn, const char *name,
                             int tiny, test_rng *r)
{
    const int MR = k->bf16_convwt_mr, NR = k->bf16_convwt_nr;
    /* [71, 130] + [71, 130] >= 142; wide enough that sums round */
    const int elo = tiny ? 0 : 71, ehi = tiny ? 140 : 130;
    int bad = 0;
    for (int mr = 1; mr <= MR; ++mr)
        for (int nr = 1; nr <= NR; ++nr)
            for (int accumulate = 0; accumulate < 2; ++accumulate) {
                const size_t nrows = (size_t)rng_range(r, 0, 3), len = (size_t)rng_range(r, 1, 9);
                const size_t lenp = (len + 1) / 2, ars = len + (size_t)rng_range(r, 0, 5);
                const size_t ldb = ((size_t)nr + 15) / 16 * 16 + (size_t)rng_range(r, 0, 1) * 16;
                const size_t an = (size_t)MR * nrows * ars, bn = nrows * lenp * ldb;
                const size_t ldc = (size_t)NR + 5;
                /* rows end exactly at their allocation: a read past len faults under ASan */
                uint16_t *a = malloc(an * sizeof(uint16_t));
                uint32_t *b = malloc(bn * sizeof(uint32_t));
                float *c = malloc((size_t)(MR + 1) * ldc * sizeof(float));
                float *want = malloc((size_t)(MR + 1) * ldc * sizeof(float));
                const uint16_t *rows[CONV_UKERNEL_MAX_MR];
                float *crow[CONV_UKERNEL_MAX_MR]; /* result rows in a shuffled order */
                for (int m = 0; m < MR; ++m) crow[m] = c + (size_t)((m * 5 + 1) % MR) * ldc;
                for (size_t i = 0; i < an; ++i)
                    a[i] = bf16_random(r, elo, ehi);
                for (size_t rr = 0; rr < nrows; ++rr)
                    for (size_t q = 0; q < lenp; ++q)
                        for (size_t o = 0; o < ldb; ++o) {
                            const uint32_t hi = 2 * q + 1 < len ? bf16_random(r, elo, ehi) : 0;
                            b[(rr * lenp + q) * ldb + o] = hi << 16 | bf16_random(r, elo, ehi);
                        }
                for (int m = 0; m < MR; ++m)
                    rows[m] = a + (size_t)((m * 5 + 3) % MR) * nrows * ars;
                for (size_t i = 0; i < (size_t)(MR + 1) * ldc; ++i)
                    c[i] = want[i] = GUARD;
                for (int m = 0; m < mr; ++m)
                    for (int o = 0; o < nr; ++o)
                        crow[m][o] = want[(crow[m] - c) + o] =
                            accumulate ? bf16_val(bf16_random(r, 120, 134)) : GUARD;
                for (int m = 0; m < mr; ++m)
                    for (int o = 0; o < nr; ++o) {
                        float s = accumulate ? want[(crow[m] - c) + o] : 0.0f;
                        for (size_t rr = 0; rr < nrows; ++rr)
                            for (size_t q = 0; q < lenp; ++q) {
                                const uint32_t p = b[(rr * lenp + q) * ldb + o];
                                const float ahi = 2 * q + 1 < len
                                                      ? bf16_val(rows[m][rr * ars + 2 * q + 1])
                                                      : 0.0f;
                                s = fmaf(ahi, bf16_val(p >> 16), s);
                                s = fmaf(bf16_val(rows[m][rr * ars + 2 * q]), bf16_val(p), s);
                            }
                        want[(crow[m] - c) + o] = s;
                    }
                fn((size_t)mr, (size_t)nr, nrows, len, rows, ars, b, ldb, crow, accumulate);
                for (size_t i = 0; i < (size_t)(MR + 1) * ldc; ++i)
                    if (f32_bits(c[i]) != f32_bits(want[i])) {
                        if (bad++ < 3)
                            printf("FAIL %s%s mr=%d nr=%d acc=%d rows=%zu len=%zu: c[%zu][%zu] = "
                                   "%a, want %a\n",
                                   name, tiny ? " (tiny operands)" : "", mr, nr, accumulate, nrows,
                                   len, i / ldc, i % ldc, c[i], want[i]);
                        break;
                    }
                free(a);
                free(b);
                free(c);
                free(want);
            }
    return bad;
}

/* bf16 convcv against its contract (tiny: as check_bf16_convwt), every
 * mr, nr and position step 1..3, odd channel counts (the last pair's high
 * halves +0). */
static int check_bf16_convcv(const conv_ukernels *k, bf16_convcv_ukernel_fn fn, const char *name,
                             int tiny, test_rng *r)
{
    const int MR = k->bf16_convcv_mr, NR = k->bf16_convcv_nr;
    const int elo = tiny ? 0 : 71, ehi = tiny ? 140 : 130;
    int bad = 0;
    /* past MR x NR: one-tap full tiles over up to 160 channels (the 1x1
     * loop, whose stretches depend on the pair count) */
    for (int mr = 1; mr <= MR; ++mr)
        for (int ni = 1; ni <= NR + 1; ++ni) {
            const bool one_tap = ni > NR;
            const int nr = one_tap ? NR : ni;
            if (one_tap && mr <= MR / 2) continue;
            /* ybf16: results narrowed to a bf16 y (only without accumulate) */
            const int accumulate = (int)rng_range(r, 0, 1),
                      ybf16 = !accumulate && rng_chance(r, 1, 2);
            const size_t ystep = (size_t)rng_range(r, 1, 3),
                         nt = one_tap ? 1 : (size_t)rng_range(r, 1, 4);
            /* taps [ta, ta + nt) of a panel of ntw a pair */
            const size_t ntw = nt + (size_t)rng_range(r, 0, 2),
                         ta = (size_t)rng_range(r, 0, (int)(ntw - nt));
            const size_t nc = (size_t)rng_range(r, 1, one_tap ? 160 : 5), ncp = (nc + 1) / 2;
            ptrdiff_t toff[4];
            uint8_t tedge[4] = {0}; /* edge flags on half the calls */
            const bool edges = rng_chance(r, 1, 2);
            for (size_t t = 0; t < nt; ++t) {
                toff[t] = (ptrdiff_t)(t * 3 + (size_t)rng_range(r, 0, 2));
                if (edges) tedge[t] = (uint8_t)rng_range(r, 0, 3);
            }
            const size_t cs = (size_t)NR + 12, xn = ncp * cs;
            const size_t ldy = (size_t)NR * ystep + 3, yn = (size_t)(MR + 1) * ldy;
            uint32_t *x = malloc(xn * sizeof(uint32_t));
            uint32_t *w = malloc(ncp * ntw * (size_t)MR * sizeof(uint32_t));
            float *y = malloc(yn * sizeof(float)), *want = malloc(yn * sizeof(float));
            uint16_t *y16 = malloc(yn * sizeof(uint16_t)), *want16 = malloc(yn * sizeof(uint16_t));
            for (size_t p = 0; p < ncp; ++p) {
                const int has_hi = 2 * p + 1 < nc;
                for (size_t i = 0; i < cs; ++i)
                    x[p * cs + i] = (has_hi ? (uint32_t)bf16_random(r, elo, ehi) << 16 : 0) |
                                    bf16_random(r, elo, ehi);
                for (size_t i = 0; i < ntw * (size_t)MR; ++i)
                    w[p * ntw * MR + i] = (has_hi ? (uint32_t)bf16_random(r, elo, ehi) << 16 : 0) |
                                          bf16_random(r, elo, ehi);
            }
            for (size_t i = 0; i < yn; ++i) {
                y[i] = want[i] = GUARD;
                y16[i] = want16[i] = 0xbeef;
            }
            for (int m = 0; m < mr; ++m)
                for (int j = 0; j < nr; ++j) {
                    const size_t at = (size_t)m * ldy + (size_t)j * ystep;
                    float s = accumulate ? bf16_val(bf16_random(r, 120, 134)) : 0.0f;
                    y[at] = s;
                    for (size_t p = 0; p < ncp; ++p)
                        for (size_t t = 0; t < nt; ++t) {
                            if ((j == 0 && (tedge[t] & CONVCV_SKIP_FIRST)) ||
                                (j == nr - 1 && (tedge[t] & CONVCV_SKIP_LAST)))
                                continue;
                            const uint32_t wv = w[(p * ntw + ta + t) * MR + (size_t)m];
                            const uint32_t xv = x[p * cs + (size_t)toff[t] + (size_t)j];
                            s = fmaf(bf16_val(wv >> 16), bf16_val(xv >> 16), s);
                            s = fmaf(bf16_val(wv), bf16_val(xv), s);
                        }
                    want[at] = s;
                    want16[at] = f32_to_bf16(s);
                }
            fn((size_t)mr, (size_t)nr, ncp, nt, ntw, w + ta * (size_t)MR, x, cs, toff,
               edges ? tedge : NULL, ybf16 ? (void *)y16 : (void *)y, ldy, ystep, accumulate,
               ybf16);
            for (size_t i = 0; i < yn; ++i) {
                const int ok = ybf16 ? y16[i] == want16[i] : f32_bits(y[i]) == f32_bits(want[i]);
                if (!ok) {
                    if (bad++ < 3)
                        printf("FAIL %s%s mr=%d nr=%d acc=%d bf16 y=%d step=%zu nc=%zu nt=%zu: "
                               "y[%zu] = %a / 0x%04x, "
                               "want %a / 0x%04x\n",
                               name, tiny ? " (tiny operands)" : "", mr, nr, accumulate, ybf16,
                               ystep, nc, nt, i, y[i], y16[i], want[i], want16[i]);
                    break;
                }
            }
            free(x);
            free(w);
            free(y);
            free(want);
            free(y16);
            free(want16);
        }
    return bad;
}

/* bf16_minexp: the smallest exponent field of the nonzero values (and the
 * copy), every length 0..100 at 3 offsets, values drawn among zeros, -0,
 * subnormals, normals, infinities and NaNs; 16-bit guards after dst. */
static int check_bf16_minexp(const conv_ukernels *k, test_rng *r)
{
    enum { MAX_N = 100, G16 = 0xbeef };
    uint16_t src[MAX_N + 3], dst[MAX_N + 3 + 8];
    int bad = 0;
    for (size_t off = 0; off < 3; ++off)
        for (size_t n = 0; n <= MAX_N; ++n) {
            int want = 255;
            for (size_t i = 0; i < n; ++i) {
                const int kind = (int)rng_range(r, 0, 9);
                const uint16_t h = kind == 0   ? 0
                                   : kind == 1 ? 0x8000
                                   : kind == 2 ? (uint16_t)rng_range(r, 1, 0x7f)
                                   : kind == 3 ? (uint16_t)(0x7f80 | rng_range(r, 0, 0x7f))
                                               : bf16_random(r, 1, 254);
                src[off + i] = (uint16_t)(h | (rng_range(r, 0, 1) << 15));
                const int e = (src[off + i] & 0x7fff) == 0 ? 255 : (src[off + i] >> 7) & 0xff;
                want = e < want ? e : want;
            }
            const int emin = (int)rng_range(r, 0, 255); /* (the contract's range) */
            want = emin < want ? emin : want;
            for (size_t i = 0; i < MAX_N + 3 + 8; ++i)
                dst[i] = G16;
            const int got_scan = k->bf16_minexp(n, src + off, NULL, emin);
            const int got_copy = k->bf16_minexp(n, src + off, dst + off, emin);
            int copy_ok = 1;
            for (size_t i = 0; i < MAX_N + 3 + 8; ++i)
                copy_ok &= dst[i] == (i >= off && i < off + n ? src[i] : G16);
            if ((got_scan != want || got_copy != want || !copy_ok) && bad++ < 3)
                printf("FAIL bf16_minexp %s n=%zu off=%zu: %d / %d, want %d, copy %s\n",
                       cpu_isa_name(k->isa), n, off, got_scan, got_copy, want,
                       copy_ok ? "ok" : "wrong");
        }
    return bad;
}

/* bf16_zip: pairs lo | hi << 16 (hi NULL: +0) and the exponent scan of
 * every element read, 1-3 rows of every length 0..100 at 2 offsets with
 * source and destination pitches of n + 0..3, 32-bit guards elsewhere. */
static int check_bf16_zip(const conv_ukernels *k, test_rng *r)
{
    enum { MAX_N = 100, MAX_ROWS = 3, PITCH = MAX_N + 3, LEN = MAX_ROWS * PITCH + 2 + 8 };
    uint16_t lo[LEN], hi[LEN];
    uint32_t dst[LEN];
    int bad = 0;
    for (size_t off = 0; off < 2; ++off)
        for (size_t n = 0; n <= MAX_N; ++n)
            for (int with_hi = 0; with_hi < 2; ++with_hi) {
                const size_t rows = (size_t)rng_range(r, 1, MAX_ROWS);
                const size_t ss = n + (size_t)rng_range(r, 0, 3),
                             ds = n + (size_t)rng_range(r, 0, 3);
                int want = 255;
                for (size_t i = 0; i < LEN; ++i) {
                    lo[i] = 0x3f80; /* exponent 127 outside the rows: never the minimum read */
                    hi[i] = 0x3f80;
                }
                for (size_t q = 0; q < rows; ++q)
                    for (size_t i = 0; i < n; ++i) {
                        const size_t at = off + q * ss + i;
                        lo[at] = rng_chance(r, 1, 8) ? 0 : bf16_random(r, 0, 255);
                        hi[at] = rng_chance(r, 1, 8) ? 0x8000 : bf16_random(r, 0, 255);
                        const int el = (lo[at] & 0x7fff) == 0 ? 255 : (lo[at] >> 7) & 0xff;
                        const int eh = (hi[at] & 0x7fff) == 0 ? 255 : (hi[at] >> 7) & 0xff;
                        want = el < want ? el : want;
                        if (with_hi) want = eh < want ? eh : want;
                    }
                for (size_t i = 0; i < LEN; ++i)
                    dst[i] = 0xdeadbeefu;
                const int got = k->bf16_zip(rows, n, lo + off, with_hi ? hi + off : NULL, ss,
                                            dst + off, ds, 255);
                int ok = got == want;
                for (size_t i = 0; i < LEN; ++i) {
                    const size_t q = i >= off ? (i - off) / (ds ? ds : 1) : 0,
                                 j = i >= off ? (i - off) - q * ds : 0;
                    const bool in = i >= off && q < rows && j < n;
                    const size_t at = off + q * ss + j;
                    const uint32_t w =
                        in ? (uint32_t)lo[at] | (with_hi ? (uint32_t)hi[at] << 16 : 0u)
                           : 0xdeadbeefu;
                    ok &= dst[i] == w;
                }
                if (!ok && bad++ < 3)
                    printf("FAIL bf16_zip %s rows=%zu n=%zu ss=%zu ds=%zu off=%zu hi=%d: exponent "
                           "%d (want %d) or pairs wrong\n",
                           cpu_isa_name(k->isa), rows, n, ss, ds, off, with_hi, got, want);
            }
    return bad;
}

/* bf16_pairt: the transpose of 32-bit pair words and the exponent scan of
 * exactly the values named (the rest of src holds exponent 1 values); row
 * strides of either parity (odd: pairs off a 4-byte boundary). */
static int check_bf16_pairt(const conv_ukernels *k, test_rng *r)
{
    int bad = 0;
    for (size_t m = 0; m <= 35; ++m)
        for (size_t n = 0; n <= 35; n += (n < 18 ? 1 : 7)) {
            const size_t lds = 2 * n + (size_t)rng_range(r, n ? 0 : 1, 9),
                         ldd = m + (size_t)rng_range(r, m ? 0 : 1, 5);
            const size_t sn = (m + 1) * lds + 2, dn = (n + 1) * ldd + 1;
            uint16_t *src = malloc(sn * sizeof(uint16_t));
            uint32_t *dst = malloc(dn * sizeof(uint32_t));
            for (size_t i = 0; i < sn; ++i)
                src[i] = 0x0080; /* exponent 1 outside the block */
            int want = 255;
            for (size_t c = 0; c < m; ++c)
                for (size_t j = 0; j < n; ++j) {
                    const uint16_t a = rng_chance(r, 1, 6) ? 0 : bf16_random(r, 2, 255);
                    const uint16_t b = rng_chance(r, 1, 6) ? 0x8000 : bf16_random(r, 2, 255);
                    src[c * lds + 2 * j] = a;
                    src[c * lds + 2 * j + 1] = b;
                    const int ea = (a & 0x7fff) ? (a >> 7) & 0xff : 255,
                              eb = (b & 0x7fff) ? (b >> 7) & 0xff : 255;
                    want = ea < want ? ea : want;
                    want = eb < want ? eb : want;
                }
            for (size_t i = 0; i < dn; ++i)
                dst[i] = 0xdeadbeefu;
            /* from src + 1 at times: every row then starts off a 4-byte boundary too */
            const size_t off = rng_chance(r, 1, 2);
            if (off) memmove(src + 1, src, (sn - 1) * sizeof(uint16_t));
            const int got = k->bf16_pairt(m, n, src + off, lds, dst, ldd, 255);
            int ok = got == want;
            for (size_t i = 0; i < dn; ++i) {
                const size_t j = i / ldd, c = i % ldd;
                uint32_t word = 0xdeadbeefu;
                if (j < n && c < m) {
                    const uint16_t *e = src + off + c * lds + 2 * j;
                    word = (uint32_t)e[0] | (uint32_t)e[1] << 16;
                }
                ok &= dst[i] == word;
            }
            if (!ok && bad++ < 3)
                printf("FAIL bf16_pairt %s m=%zu n=%zu lds=%zu off=%zu: exponent %d (want %d) or "
                       "words wrong\n",
                       cpu_isa_name(k->isa), m, n, lds, off, got, want);
            free(src);
            free(dst);
        }
    return bad;
}

/* h16_transpose: every element the ISA's widening kernel's bits for the
 * same quiet, transposed; halves of every class (NaNs both kinds, infinities,
 * subnormals, zeros) from random bits; guards around dst untouched. */
static int check_h16_transpose(const conv_ukernels *k, test_rng *r)
{
    int bad = 0;
    for (int trial = 0; trial < 160; ++trial) {
        const int bf16 = trial & 1, quiet = (trial >> 1) & 1;
        const size_t m = (size_t)rng_range(r, 0, 35), n = (size_t)rng_range(r, 0, 35);
        const size_t lds = n + (size_t)rng_range(r, n ? 0 : 1, 7),
                     ldd = m + (size_t)rng_range(r, m ? 0 : 1, 5);
        const size_t sn = (m + 1) * lds + 1, dn = (n + 1) * ldd + 1;
        uint16_t *src = malloc(sn * sizeof(uint16_t));
        float *dst = malloc(dn * sizeof(float)), *row = malloc((n + 1) * sizeof(float));
        for (size_t i = 0; i < sn; ++i)
            src[i] = (uint16_t)rng_range(r, 0, 0xffff);
        const float guard = -12345.0f;
        for (size_t i = 0; i < dn; ++i)
            dst[i] = guard;
        k->h16_transpose(m, n, src, lds, dst, ldd, bf16, quiet);
        int ok = 1;
        for (size_t i = 0; i < m; ++i) {
            (bf16 ? k->bf16_f32_cvt : k->f16_f32_cvt)(n, src + i * lds, row, quiet);
            for (size_t j = 0; j < n; ++j)
                ok &= memcmp(&dst[j * ldd + i], &row[j], sizeof(float)) == 0;
        }
        for (size_t i = 0; i < dn; ++i)
            if (i / ldd >= n || i % ldd >= m) ok &= dst[i] == guard;
        if (!ok && bad++ < 3)
            printf("FAIL h16_transpose %s bf16=%d quiet=%d m=%zu n=%zu lds=%zu ldd=%zu\n",
                   cpu_isa_name(k->isa), bf16, quiet, m, n, lds, ldd);
        free(src);
        free(dst);
        free(row);
    }
    return bad;
}

/* bf16_split2: even / odd positions and the exponent scan, every length
 * 0..150 at 2 offsets, 16-bit guards after both outputs. */
static int check_bf16_split2(const conv_ukernels *k, test_rng *r)
{
    enum { MAX_N = 150, G16 = 0xbeef };
    uint16_t src[MAX_N + 2], even[MAX_N / 2 + 10], odd[MAX_N / 2 + 10];
    int bad = 0;
    for (size_t off = 0; off < 2; ++off)
        for (size_t n = 0; n <= MAX_N; ++n) {
            int want = 255;
            for (size_t i = 0; i < n; ++i) {
                src[off + i] = rng_chance(r, 1, 8) ? 0 : bf16_random(r, 0, 255);
                const int e = (src[off + i] & 0x7fff) ? (src[off + i] >> 7) & 0xff : 255;
                want = e < want ? e : want;
            }
            for (size_t i = 0; i < MAX_N / 2 + 10; ++i)
                even[i] = odd[i] = G16;
            const int got = k->bf16_split2(n, src + off, even, odd, 255);
            int ok = got == want;
            for (size_t i = 0; i < MAX_N / 2 + 10; ++i) {
                ok &= even[i] == (2 * i < n ? src[off + 2 * i] : G16);
                ok &= odd[i] == (2 * i + 1 < n ? src[off + 2 * i + 1] : G16);
            }
            if (!ok && bad++ < 3)
                printf("FAIL bf16_split2 %s n=%zu off=%zu: exponent %d (want %d) or values wrong\n",
                       cpu_isa_name(k->isa), n, off, got, want);
        }
    return bad;
}

/* bf16_zip_split2: even / odd words of two rows (hi NULL: +0 high halves)
 * and the exponent scan of exactly the values named (the values after them
 * have exponent 1), every length 0..150 at 2 offsets, 32-bit guards after
 * both outputs. */
static int check_bf16_zip_split2(const conv_ukernels *k, test_rng *r)
{
    enum { MAX_N = 150, LEN = MAX_N + 2 + 8, OUT = MAX_N / 2 + 10 };
    uint16_t lo[LEN], hi[LEN];
    uint32_t even[OUT], odd[OUT];
    int bad = 0;
    for (size_t off = 0; off < 2; ++off)
        for (size_t n = 0; n <= MAX_N; ++n)
            for (int with_hi = 0; with_hi < 2; ++with_hi) {
                int want = 255;
                for (size_t i = 0; i < LEN; ++i)
                    lo[i] = hi[i] = 0x0080; /* exponent 1: found if read */
                for (size_t i = 0; i < n; ++i) {
                    lo[off + i] = rng_chance(r, 1, 8) ? 0 : bf16_random(r, 2, 255);
                    hi[off + i] = rng_chance(r, 1, 8) ? 0x8000 : bf16_random(r, 2, 255);
                    const int el = (lo[off + i] & 0x7fff) ? (lo[off + i] >> 7) & 0xff : 255;
                    const int eh = (hi[off + i] & 0x7fff) ? (hi[off + i] >> 7) & 0xff : 255;
                    want = el < want ? el : want;
                    if (with_hi) want = eh < want ? eh : want;
                }
                for (size_t i = 0; i < OUT; ++i)
                    even[i] = odd[i] = 0xdeadbeefu;
                const int got =
                    k->bf16_zip_split2(n, lo + off, with_hi ? hi + off : NULL, even, odd, 255);
                int ok = got == want;
                for (size_t i = 0; i < OUT; ++i)
                    for (size_t ph = 0; ph < 2; ++ph) {
                        const size_t at = off + 2 * i + ph;
                        const uint32_t w =
                            2 * i + ph < n
                                ? (uint32_t)lo[at] | (with_hi ? (uint32_t)hi[at] << 16 : 0u)
                                : 0xdeadbeefu;
                        ok &= (ph ? odd : even)[i] == w;
                    }
                if (!ok && bad++ < 3)
                    printf("FAIL bf16_zip_split2 %s n=%zu off=%zu hi=%d: exponent %d (want %d) or "
                           "words wrong\n",
                           cpu_isa_name(k->isa), n, off, with_hi, got, want);
            }
    return bad;
}

/* bf16_zipt: words lo | hi << 16 (hi NULL: +0) of m rows transposed, and
 * the exponent scan of exactly the values named (the rest of both sources
 * has exponent 1); guards around dst untouched. */
static int check_bf16_zipt(const conv_ukernels *k, test_rng *r)
{
    int bad = 0;
    for (size_t m = 0; m <= 35; ++m)
        for (size_t n = 0; n <= 35; n += (n < 18 ? 1 : 7)) {
            const int with_hi = rng_chance(r, 1, 2);
            const size_t ss = n + (size_t)rng_range(r, n ? 0 : 1, 9),
                         ldd = m + (size_t)rng_range(r, m ? 0 : 1, 5);
            const size_t sn = (m + 1) * ss + 1, dn = (n + 1) * ldd + 1;
            uint16_t *lo = malloc(sn * sizeof(uint16_t)), *hi = malloc(sn * sizeof(uint16_t));
            uint32_t *dst = malloc(dn * sizeof(uint32_t));
            for (size_t i = 0; i < sn; ++i)
                lo[i] = hi[i] = 0x0080; /* exponent 1 outside the block */
            int want = 255;
            for (size_t i = 0; i < m; ++i)
                for (size_t j = 0; j < n; ++j) {
                    const uint16_t a = rng_chance(r, 1, 6) ? 0 : bf16_random(r, 2, 255);
                    const uint16_t b = rng_chance(r, 1, 6) ? 0x8000 : bf16_random(r, 2, 255);
                    lo[i * ss + j] = a;
                    hi[i * ss + j] = b;
                    const int ea = (a & 0x7fff) ? (a >> 7) & 0xff : 255,
                              eb = (b & 0x7fff) ? (b >> 7) & 0xff : 255;
                    want = ea < want ? ea : want;
                    if (with_hi) want = eb < want ? eb : want;
                }
            for (size_t i = 0; i < dn; ++i)
                dst[i] = 0xdeadbeefu;
            const int got = k->bf16_zipt(m, n, lo, with_hi ? hi : NULL, ss, dst, ldd, 255);
            int ok = got == want;
            for (size_t i = 0; i < dn; ++i) {
                const size_t j = i / ldd, c = i % ldd;
                uint32_t word = 0xdeadbeefu;
                if (j < n && c < m)
                    word =
                        (uint32_t)lo[c * ss + j] | (with_hi ? (uint32_t)hi[c * ss + j] << 16 : 0u);
                ok &= dst[i] == word;
            }
            if (!ok && bad++ < 3)
                printf("FAIL bf16_zipt %s m=%zu n=%zu ss=%zu ldd=%zu hi=%d: exponent %d (want %d) "
                       "or words wrong\n",
                       cpu_isa_name(k->isa), m, n, ss, ldd, with_hi, got, want);
            free(lo);
            free(hi);
            free(dst);
        }
    return bad;
}

/* convrv: c[m*ldm + n*ldn] = (acc ? c : 0) + sum_r sum_j a[m][r*ars + j] * b[n][r*brs + j];
 * len covers every remainder of the vector width and several full vectors. */
static int check_convrv(const conv_ukernels *k, int MR, int NR, f32_convrv_ukernel_fn fn, test_rng *r)
{
    int bad = 0;
    for (int mr = 1; mr <= MR; ++mr)
        for (int nr = 1; nr <= NR; ++nr)
            for (size_t len = 1; len <= 40; len += (len < 17 ? 1 : 7))
                for (int accumulate = 0; accumulate < 2; ++accumulate) {
                    const size_t nrows = (size_t)rng_range(r, 1, 3);
                    const size_t ars = len + (size_t)rng_range(r, 0, 3), brs = len + (size_t)rng_range(r, 0, 3);
                    /* rows exactly as long as read: a masked-load bug overreads into the guard */
                    const size_t an = (size_t)MR * nrows * ars, bn = (size_t)NR * nrows * brs;
                    float *a = malloc(an * sizeof(float)), *b = malloc(bn * sizeof(float));
                    const size_t ldn = (size_t)MR + 2, cn = (size_t)(NR + 1) * ldn;
                    float *c = malloc(cn * sizeof(float)), *want = malloc(cn * sizeof(float));
                    const float *ar[CONV_UKERNEL_MAX_MR], *br[CONV_UKERNEL_MAX_MR];
                    for (size_t i = 0; i < an; ++i) a[i] = small_int(r);
                    for (size_t i = 0; i < bn; ++i) b[i] = small_int(r);
                    for (int m = 0; m < CONV_UKERNEL_MAX_MR; ++m) ar[m] = a + (size_t)((m * 3 + 1) % MR) * nrows * ars;
                    for (int n = 0; n < CONV_UKERNEL_MAX_MR; ++n) br[n] = b + (size_t)((n * 5 + 2) % NR) * nrows * brs;
                    for (size_t i = 0; i < cn; ++i) c[i] = want[i] = GUARD;
                    for (int m = 0; m < mr; ++m)
                        for (int n = 0; n < nr; ++n) {
                            const float init = small_int(r);
                            c[m + n * ldn] = init;
                            float s = accumulate ? init : 0.0f;
                            for (size_t rr = 0; rr < nrows; ++rr)
                                for (size_t j = 0; j < len; ++j) s += ar[m][rr * ars + j] * br[n][rr * brs + j];
                            want[m + n * ldn] = s;
                        }
                    fn((size_t)mr, (size_t)nr, nrows, len, ar, ars, br, brs, c, 1, ldn, accumulate);
                    for (size_t i = 0; i < cn; ++i)
                        if (c[i] != want[i]) {
                            if (bad++ < 3)
                                printf("FAIL convrv %s mr=%d nr=%d len=%zu acc=%d: c[%zu] = %g, want %g\n",
                                       cpu_isa_name(k->isa), mr, nr, len, accumulate, i, c[i], want[i]);
                            break;
                        }
                    free(a);
                    free(b);
                    free(c);
                    free(want);
                }
    return bad;
}

/* The engine's inline fp16 conversions against the library's, bit for bit:
 * every half, and floats of every class (random bits, near the fp16 range
 * and subnormal limits, ties). */
/* transpose: dst[j*ldd + i] = src[i*lds + j]; every m, n up to two blocks
 * and a tail, guards around both buffers (exactly the elements named are
 * read: the source guards are NaN-free but never copied). */
static int check_transpose(const conv_ukernels *k, test_rng *r)
{
    int bad = 0;
    for (size_t m = 0; m <= 35; ++m)
        for (size_t n = 0; n <= 35; n += (n < 18 ? 1 : 7)) {
            const size_t lds = n + (size_t)rng_range(r, n ? 0 : 1, 5), ldd = m + (size_t)rng_range(r, m ? 0 : 1, 5);
            const size_t sn = (m + 1) * lds + 1, dn = (n + 1) * ldd + 1;
            float *src = malloc(sn * sizeof(float)), *dst = malloc(dn * sizeof(float));
            for (size_t i = 0; i < sn; ++i) src[i] = small_int(r);
            for (size_t i = 0; i < dn; ++i) dst[i] = GUARD;
            k->transpose(m, n, src, lds, dst, ldd);
            for (size_t i = 0; i < dn; ++i) {
                const size_t j = i / ldd, c = i % ldd;
                const float want = j < n && c < m ? src[c * lds + j] : GUARD;
                if (dst[i] != want) {
                    if (bad++ < 3)
                        printf("FAIL transpose %s m=%zu n=%zu: dst[%zu][%zu] = %g, want %g\n",
                               cpu_isa_name(k->isa), m, n, j, c, dst[i], want);
                    break;
                }
            }
            free(src);
            free(dst);
        }
    return bad;
}

/* f16_f32_cvt: every half (signalling NaNs included) gives f16_to_f32's bits
 * (quiet = 0) or f32_round_f16 of them (quiet = 1: FLOAT16 mode's operand
 * rounding, which only quiets NaNs here); then every length 0..70 at every
 * start offset 0..3, with guards after dst[n). */
static float f16_cvt_want(uint16_t h, int quiet)
{
    return quiet ? f32_round_f16(f16_to_f32(h)) : f16_to_f32(h);
}

static int check_f16_cvt(const conv_ukernels *k)
{
    int bad = 0;
    uint16_t *src = malloc(65536 * sizeof(uint16_t) + 16);
    float *dst = malloc((65536 + 8) * sizeof(float));
    for (int quiet = 0; quiet < 2; ++quiet) {
        for (uint32_t h = 0; h < 65536; ++h) src[h] = (uint16_t)h;
        k->f16_f32_cvt(65536, src, dst, quiet);
        for (uint32_t h = 0; h < 65536; ++h)
            if (f32_bits(dst[h]) != f32_bits(f16_cvt_want((uint16_t)h, quiet)) && bad++ < 3)
                printf("FAIL %s f16_f32_cvt(0x%04x, quiet %d): 0x%08x, want 0x%08x\n", cpu_isa_name(k->isa),
                       (unsigned)h, quiet, (unsigned)f32_bits(dst[h]),
                       (unsigned)f32_bits(f16_cvt_want((uint16_t)h, quiet)));
        for (size_t off = 0; off < 4; ++off)
            for (size_t n = 0; n <= 70; ++n) {
                for (size_t i = 0; i < n + 4; ++i) src[off + i] = (uint16_t)(0x7c01u + 977u * (i + off + n));
                for (size_t i = 0; i < n + 8; ++i) dst[i] = GUARD;
                k->f16_f32_cvt(n, src + off, dst, quiet);
                for (size_t i = 0; i < n + 8; ++i) {
                    const uint32_t want = i < n ? f32_bits(f16_cvt_want(src[off + i], quiet)) : f32_bits(GUARD);
                    if (f32_bits(dst[i]) != want && bad++ < 6)
                        printf("FAIL %s f16_f32_cvt n=%zu off=%zu at %zu\n", cpu_isa_name(k->isa), n, off, i);
                }
            }
    }
    free(src);
    free(dst);
    return bad;
}

/* h16_f32_split2: every fp16 / bf16 value at an even and at an odd position,
 * NaNs kept or quieted, against the scalar widening (f16_cvt_want,
 * bf16_to_f32 and f32_round_bf16); then every length 0..70 at offsets 0..3
 * with guards after both outputs. */
static float split2_want(uint16_t h, int bf16, int quiet)
{
    if (!bf16) return f16_cvt_want(h, quiet);
    return quiet ? f32_round_bf16(bf16_to_f32(h)) : bf16_to_f32(h);
}

static int check_split2(const conv_ukernels *k)
{
    int bad = 0;
    uint16_t *src = malloc(2 * 65536 * sizeof(uint16_t) + 16);
    float *even = malloc((65536 + 8) * sizeof(float)), *odd = malloc((65536 + 8) * sizeof(float));
    for (int bf16 = 0; bf16 < 2; ++bf16)
        for (int quiet = 0; quiet < 2; ++quiet) {
            for (uint32_t h = 0; h < 65536; ++h) {
                src[2 * h] = (uint16_t)h;
                src[2 * h + 1] = (uint16_t)(h * 40503u); /* every value too (odd multiplier) */
            }
            k->h16_f32_split2(2 * 65536, src, even, odd, bf16, quiet);
            for (uint32_t h = 0; h < 65536; ++h) {
                const float we = split2_want(src[2 * h], bf16, quiet), wo = split2_want(src[2 * h + 1], bf16, quiet);
                if ((f32_bits(even[h]) != f32_bits(we) || f32_bits(odd[h]) != f32_bits(wo)) && bad++ < 3)
                    printf("FAIL %s h16_f32_split2(bf16 %d, quiet %d) pair %u: 0x%08x 0x%08x, want 0x%08x 0x%08x\n",
                           cpu_isa_name(k->isa), bf16, quiet, (unsigned)h, (unsigned)f32_bits(even[h]),
                           (unsigned)f32_bits(odd[h]), (unsigned)f32_bits(we), (unsigned)f32_bits(wo));
            }
            for (size_t off = 0; off < 4; ++off)
                for (size_t n = 0; n <= 70; ++n) {
                    for (size_t i = 0; i < n + 4; ++i) src[off + i] = (uint16_t)(0x7c01u + 977u * (i + off + n));
                    for (size_t i = 0; i < n / 2 + 9; ++i) even[i] = odd[i] = GUARD;
                    k->h16_f32_split2(n, src + off, even, odd, bf16, quiet);
                    for (size_t i = 0; i < n / 2 + 9; ++i) {
                        const float we = 2 * i < n ? split2_want(src[off + 2 * i], bf16, quiet) : GUARD;
                        const float wo = 2 * i + 1 < n ? split2_want(src[off + 2 * i + 1], bf16, quiet) : GUARD;
                        if ((f32_bits(even[i]) != f32_bits(we) || f32_bits(odd[i]) != f32_bits(wo)) && bad++ < 6)
                            printf("FAIL %s h16_f32_split2(bf16 %d, quiet %d) n=%zu off=%zu at %zu\n",
                                   cpu_isa_name(k->isa), bf16, quiet, n, off, i);
                    }
                }
        }
    free(src);
    free(even);
    free(odd);
    return bad;
}

/* bf16_f32_cvt: every bf16 value, NaNs kept (quiet = 0: bf16_to_f32) or
 * quieted (quiet = 1: f32_round_bf16 of it, BF16 mode's operand rounding);
 * then every length 0..70 at offsets 0..3 with guards after dst[n). */
static int check_bf16_cvt(const conv_ukernels *k)
{
    int bad = 0;
    uint16_t *src = malloc(65536 * sizeof(uint16_t) + 16);
    float *dst = malloc((65536 + 8) * sizeof(float));
    for (int quiet = 0; quiet < 2; ++quiet) {
        for (uint32_t h = 0; h < 65536; ++h) src[h] = (uint16_t)h;
        k->bf16_f32_cvt(65536, src, dst, quiet);
        for (uint32_t h = 0; h < 65536; ++h) {
            const float w = quiet ? f32_round_bf16(bf16_to_f32((uint16_t)h)) : bf16_to_f32((uint16_t)h);
            if (f32_bits(dst[h]) != f32_bits(w) && bad++ < 3)
                printf("FAIL %s bf16_f32_cvt(0x%04x, quiet %d): 0x%08x, want 0x%08x\n", cpu_isa_name(k->isa),
                       (unsigned)h, quiet, (unsigned)f32_bits(dst[h]), (unsigned)f32_bits(w));
        }
        for (size_t off = 0; off < 4; ++off)
            for (size_t n = 0; n <= 70; ++n) {
                for (size_t i = 0; i < n + 4; ++i) src[off + i] = (uint16_t)(0x7f81u + 977u * (i + off + n));
                for (size_t i = 0; i < n + 8; ++i) dst[i] = GUARD;
                k->bf16_f32_cvt(n, src + off, dst, quiet);
                for (size_t i = 0; i < n + 8; ++i) {
                    const float w = i >= n ? GUARD
                                    : quiet ? f32_round_bf16(bf16_to_f32(src[off + i]))
                                            : bf16_to_f32(src[off + i]);
                    if (f32_bits(dst[i]) != f32_bits(w) && bad++ < 6)
                        printf("FAIL %s bf16_f32_cvt n=%zu off=%zu at %zu\n", cpu_isa_name(k->isa), n, off, i);
                }
            }
    }
    free(src);
    free(dst);
    return bad;
}

/* f32_round: each kind against the scalar helper, bit for bit, on random
 * bits, on every float near the thresholds (subnormal / normal, overflow,
 * inf, NaN), out of place and in place; every length 0..70 with guards, at
 * every offset of the source from a 64-byte boundary. */
static float round_ref(float f, int kind)
{
    if (kind == F32_ROUND_NONE) return f;
    return kind == F32_ROUND_HF32 ? f32_round_hf32(f) : kind == F32_ROUND_F16 ? f32_round_f16(f) : f32_round_bf16(f);
}

static int check_f32_round(const conv_ukernels *k, test_rng *r)
{
    enum { N = 1 << 16 };
    static const uint32_t edges[] = {0x00000000u, 0x33000000u, 0x38800000u, 0x477fe000u, 0x477ff000u,
                                      0x7f7f8000u, 0x7f800000u, 0x7fc00000u, 0x00800000u};
    int bad = 0;
    float *src = malloc((N + 8) * sizeof(float)), *dst = malloc((N + 8) * sizeof(float));
    for (int kind = F32_ROUND_NONE; kind <= F32_ROUND_BF16; ++kind)
        for (int round = 0; round < 40; ++round) {
            for (size_t i = 0; i < N; ++i) {
                uint32_t u = (uint32_t)rng_next(r);
                if (round % 2 == 1) /* near a threshold: a few thousand floats each side */
                    u = edges[round / 2 % (sizeof edges / sizeof edges[0])] + (uint32_t)rng_range(r, -4096, 4096);
                if (i & 1) u |= 0x80000000u;
                src[i] = f32_from_bits(u);
            }
            const bool in_place = round % 4 == 3;
            if (in_place) memcpy(dst, src, N * sizeof(float));
            k->f32_round(N, in_place ? dst : src, dst, kind);
            for (size_t i = 0; i < N; ++i)
                if (f32_bits(dst[i]) != f32_bits(round_ref(src[i], kind)) && bad++ < 6)
                    printf("FAIL %s f32_round kind %d (0x%08x): 0x%08x, want 0x%08x\n", cpu_isa_name(k->isa), kind,
                           (unsigned)f32_bits(src[i]), (unsigned)f32_bits(dst[i]),
                           (unsigned)f32_bits(round_ref(src[i], kind)));
        }
    /* every offset of the source from a 64-byte boundary (a kernel may
     * load a misaligned source differently: session 29 tried aligned loads
     * and a permute), out of place with the destination off its own
     * boundary, and in place */
    float *in = aligned_alloc(64, 128 * sizeof(float)),
          *out = aligned_alloc(64, 128 * sizeof(float));
    for (int kind = F32_ROUND_NONE; kind <= F32_ROUND_BF16; ++kind)
        for (size_t off = 0; off < 17; ++off)
            for (int in_place = 0; in_place < 2; ++in_place)
                for (size_t n = 0; n <= 70; ++n) {
                    float *s = in + off, *d = in_place ? s : out + (off * 7 + 3) % 17;
                    for (size_t i = 0; i < 128; ++i)
                        in[i] = out[i] = GUARD;
                    for (size_t i = 0; i < n; ++i)
                        s[i] = f32_from_bits(0x3f800fffu + 4097u * (uint32_t)i);
                    float want[128];
                    for (size_t i = 0; i < 128; ++i)
                        want[i] = (in_place ? in : out)[i];
                    for (size_t i = 0; i < n; ++i)
                        want[d - (in_place ? in : out) + i] = round_ref(s[i], kind);
                    k->f32_round(n, s, d, kind);
                    for (size_t i = 0; i < 128; ++i)
                        if (f32_bits((in_place ? in : out)[i]) != f32_bits(want[i]) && bad++ < 6)
                            printf("FAIL %s f32_round kind %d n=%zu offset %zu%s at %zu\n",
                                   cpu_isa_name(k->isa), kind, n, off, in_place ? " in place" : "",
                                   i);
                }
    free(in);
    free(out);
    free(src);
    free(dst);
    return bad;
}

/* n inputs for the rounding kernels' round r: random bits (even r) or floats
 * around one of the thresholds (odd r: NaN, infinity, fp16 / bf16 limits and
 * ties), every third one negative. */
static void fill_round_inputs(float *dst, size_t n, test_rng *r, int round)
{
    static const uint32_t edges[] = {0x33000000u, 0x38800000u, 0x477fe000u,
                                     0x7f7f8000u, 0x7f800000u, 0x7fc00000u};
    for (size_t i = 0; i < n; ++i) {
        uint32_t u = (uint32_t)rng_next(r);
        if (round % 2 == 1)
            u = edges[round / 2 % (sizeof edges / sizeof edges[0])] +
                (uint32_t)rng_range(r, -4096, 4096);
        if (i % 3 == 1) u |= 0x80000000u;
        dst[i] = f32_from_bits(u);
    }
}

/* f32_split2: random bits and values near the roundings' thresholds
 * (NaNs, infinities, ties) split and rounded for every kind, F32_ROUND_NONE
 * included, against round_ref; then every length 0..70 at offsets 0..3 with
 * guards after both phases. */
static int check_f32_split2(const conv_ukernels *k, test_rng *r)
{
    enum { N = 1 << 14 };
    int bad = 0;
    float *src = malloc((2 * N + 8) * sizeof(float));
    float *even = malloc((N + 40) * sizeof(float)), *odd = malloc((N + 40) * sizeof(float));
    for (int kind = F32_ROUND_NONE; kind <= F32_ROUND_BF16; ++kind)
        for (int round = 0; round < 12; ++round) {
            fill_round_inputs(src, 2 * N, r, round);
            k->f32_split2(2 * N, src, even, odd, kind);
            for (size_t i = 0; i < N; ++i) {
                const float we = round_ref(src[2 * i], kind), wo = round_ref(src[2 * i + 1], kind);
                if ((f32_bits(even[i]) != f32_bits(we) || f32_bits(odd[i]) != f32_bits(wo)) &&
                    bad++ < 6)
                    printf("FAIL %s f32_split2 kind %d pair %zu (0x%08x 0x%08x): 0x%08x 0x%08x, "
                           "want 0x%08x 0x%08x\n",
                           cpu_isa_name(k->isa), kind, i, (unsigned)f32_bits(src[2 * i]),
                           (unsigned)f32_bits(src[2 * i + 1]), (unsigned)f32_bits(even[i]),
                           (unsigned)f32_bits(odd[i]), (unsigned)f32_bits(we),
                           (unsigned)f32_bits(wo));
            }
        }
    for (int kind = F32_ROUND_NONE; kind <= F32_ROUND_BF16; ++kind)
        for (size_t off = 0; off < 4; ++off)
            for (size_t n = 0; n <= 70; ++n) {
                for (size_t i = 0; i < n + 4; ++i)
                    src[off + i] = f32_from_bits(0x3f800fffu + 4097u * (uint32_t)(i + n));
                for (size_t i = 0; i < n / 2 + 9; ++i)
                    even[i] = odd[i] = GUARD;
                k->f32_split2(n, src + off, even, odd, kind);
                for (size_t i = 0; i < n / 2 + 9; ++i) {
                    const float we = 2 * i < n ? round_ref(src[off + 2 * i], kind) : GUARD;
                    const float wo = 2 * i + 1 < n ? round_ref(src[off + 2 * i + 1], kind) : GUARD;
                    if ((f32_bits(even[i]) != f32_bits(we) || f32_bits(odd[i]) != f32_bits(wo)) &&
                        bad++ < 6)
                        printf("FAIL %s f32_split2 kind %d n=%zu off=%zu at %zu\n",
                               cpu_isa_name(k->isa), kind, n, off, i);
                }
            }
    free(src);
    free(even);
    free(odd);
    return bad;
}

/* f32_copy_nt: every length 0..100 at destination offsets 0..16 floats from
 * a 64-byte boundary (every head and tail shape), guards on both sides. */
static int check_f32_copy_nt(f32_copy_ukernel_fn copy, const char *isa)
{
    enum { MAXN = 100, OFF = 17, PAD = 20 };
    int bad = 0;
    float *src = aligned_alloc(64, 256 * sizeof(float)), *dst = aligned_alloc(64, 256 * sizeof(float));
    for (size_t i = 0; i < 256; ++i) src[i] = (float)i + 0.25f;
    for (size_t off = 0; off < OFF; ++off)
        for (size_t n = 0; n <= MAXN; ++n) {
            for (size_t i = 0; i < 256; ++i) dst[i] = GUARD;
            copy(n, src + 3, dst + PAD + off);
            store_fence__avx2();
            for (size_t i = 0; i < 256; ++i) {
                const bool in = i >= PAD + off && i < PAD + off + n;
                const float want = in ? src[3 + i - PAD - off] : GUARD;
                if (f32_bits(dst[i]) != f32_bits(want) && bad++ < 6)
                    printf("FAIL %s f32_copy_nt n=%zu off=%zu at %zu\n", isa, n, off, i);
            }
        }
    free(src);
    free(dst);
    return bad;
}

/* f32_round_nt: the bits of the ISA's f32_round (itself checked against the
 * scalar rounding) for the three kinds on random bits, every length 0..100
 * at destination offsets 0..16 floats from a 64-byte boundary, guards on
 * both sides. */
static int check_f32_round_nt(const conv_ukernels *k, test_rng *r)
{
    enum { MAXN = 100, OFF = 17, PAD = 20 };
    static const int kinds[] = {F32_ROUND_HF32, F32_ROUND_F16, F32_ROUND_BF16, F32_ROUND_NONE};
    int bad = 0;
    float *src = aligned_alloc(64, 256 * sizeof(float)),
          *dst = aligned_alloc(64, 256 * sizeof(float)),
          *want = aligned_alloc(64, 256 * sizeof(float));
    for (size_t q = 0; q < sizeof kinds / sizeof kinds[0]; ++q)
        for (size_t off = 0; off < OFF; ++off)
            for (size_t n = 0; n <= MAXN; ++n) {
                for (size_t i = 0; i < 256; ++i)
                    src[i] = f32_from_bits((uint32_t)rng_next(r));
                for (size_t i = 0; i < 256; ++i)
                    dst[i] = want[i] = GUARD;
                k->f32_round(n, src + 3, want + PAD + off, kinds[q]);
                k->f32_round_nt(n, src + 3, dst + PAD + off, kinds[q]);
                store_fence__avx2();
                for (size_t i = 0; i < 256; ++i)
                    if (f32_bits(dst[i]) != f32_bits(want[i]) && bad++ < 6)
                        printf("FAIL %s f32_round_nt kind %d n=%zu off=%zu at %zu\n",
                               cpu_isa_name(k->isa), kinds[q], n, off, i);
            }
    free(src);
    free(dst);
    free(want);
    return bad;
}

/* f32_load_step2 / f32_store_step2: every length 0..70 at offsets 0..3,
 * against the strided loops; the load writes nothing past dst[n - 1], the
 * store nothing but the even elements below 2n (guards checked). */
static int check_f32_step2(const conv_ukernels *k)
{
    enum { MAXN = 70, PAD = 8 };
    int bad = 0;
    float *src = malloc((2 * MAXN + 3 + PAD) * sizeof(float)),
          *dst = malloc((2 * MAXN + 3 + PAD) * sizeof(float));
    for (size_t off = 0; off < 4; ++off)
        for (size_t n = 0; n <= MAXN; ++n) {
            for (size_t i = 0; i < 2 * MAXN + 3 + PAD; ++i)
                src[i] = (float)i + 0.5f;
            for (size_t i = 0; i < n + PAD; ++i)
                dst[off + i] = GUARD;
            k->f32_load_step2(n, src + off, dst + off);
            for (size_t i = 0; i < n + PAD; ++i) {
                const float want = i < n ? src[off + 2 * i] : GUARD;
                if (f32_bits(dst[off + i]) != f32_bits(want) && bad++ < 6)
                    printf("FAIL %s f32_load_step2 n=%zu off=%zu at %zu\n", cpu_isa_name(k->isa), n,
                           off, i);
            }
            for (size_t i = 0; i < 2 * n + PAD; ++i)
                dst[off + i] = GUARD;
            k->f32_store_step2(n, src + off, dst + off);
            for (size_t i = 0; i < 2 * n + PAD; ++i) {
                const float want = i % 2 == 0 && i / 2 < n ? src[off + i / 2] : GUARD;
                if (f32_bits(dst[off + i]) != f32_bits(want) && bad++ < 6)
                    printf("FAIL %s f32_store_step2 n=%zu off=%zu at %zu\n", cpu_isa_name(k->isa),
                           n, off, i);
            }
        }
    /* the load never reads past src[2(n - 1)]: the row ends at a page that
     * may not be read (a fault fails the test) */
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map != MAP_FAILED && mprotect(map + page, page, PROT_NONE) == 0) {
        for (size_t n = 1; n <= MAXN; ++n) {
            float *end = (float *)(map + page), *row = end - (2 * n - 1);
            for (size_t i = 0; i < 2 * n - 1; ++i)
                row[i] = (float)i;
            k->f32_load_step2(n, row, dst);
            for (size_t i = 0; i < n; ++i)
                if (dst[i] != (float)(2 * i) && bad++ < 6)
                    printf("FAIL %s f32_load_step2 at a page end n=%zu at %zu\n",
                           cpu_isa_name(k->isa), n, i);
        }
    }
    if (map != MAP_FAILED) munmap(map, 2 * page);
    free(src);
    free(dst);
    return bad;
}

/* One bf16 value for the padded-rows check: zeros, -0, subnormals, infinities,
 * NaNs and normals, either sign (check_bf16_minexp's mix). */
static uint16_t bf16_any(test_rng *r)
{
    const int kind = (int)rng_range(r, 0, 9);
    const uint16_t h = kind == 0   ? 0
                       : kind == 1 ? 0x8000
                       : kind == 2 ? (uint16_t)rng_range(r, 1, 0x7f)
                       : kind == 3 ? (uint16_t)(0x7f80 | rng_range(r, 0, 0x7f))
                                   : bf16_random(r, 1, 254);
    return (uint16_t)(h | (rng_range(r, 0, 1) << 15));
}

/* f32_padrows and bf16_padrows: 1-3 rows of every padded width 0..80 with
 * several (lo, hi) each (empty, whole, random), source and destination
 * pitches past the row, guards around and between the rows; then one row
 * whose values end at, or start at, a page that may not be read (a fault
 * fails the test: nothing before src or past its hi - lo values is read). */
static int check_padrows(const conv_ukernels *k, test_rng *r)
{
    enum { MAXW = 80, MAXR = 3, PITCH = MAXW + 4, LEN = MAXR * PITCH + 16 };
    float src[LEN], dst[LEN];
    uint16_t hsrc[LEN], hdst[LEN];
    int bad = 0;
    for (size_t wp = 0; wp <= MAXW; ++wp)
        for (int trial = 0; trial < 8; ++trial) {
            size_t lo = (size_t)rng_range(r, 0, (int64_t)wp),
                   hi = (size_t)rng_range(r, (int64_t)lo, (int64_t)wp);
            if (trial == 0) lo = hi = 0;
            if (trial == 1) lo = 0, hi = wp;
            if (trial == 2) lo = hi = wp;
            const size_t rows = (size_t)rng_range(r, 1, MAXR), n = hi - lo;
            const size_t lds = n + (size_t)rng_range(r, 0, 3),
                         ldd = wp + (size_t)rng_range(r, 0, 3);
            const int kind = (int)rng_range(r, F32_ROUND_NONE, F32_ROUND_BF16);
            fill_round_inputs(src, LEN, r, trial);
            for (size_t i = 0; i < LEN; ++i) {
                hsrc[i] = bf16_any(r);
                dst[i] = GUARD;
                hdst[i] = 0xbeef;
            }
            int want_e = (int)rng_range(r, 0, 255);
            const int emin = want_e;
            for (size_t q = 0; q < rows; ++q)
                for (size_t j = 0; j < n; ++j) {
                    const uint16_t h = hsrc[q * lds + j];
                    const int e = (h & 0x7fff) == 0 ? 255 : (h >> 7) & 0xff;
                    want_e = e < want_e ? e : want_e;
                }
            k->f32_padrows(rows, wp, lo, hi, src, lds, dst, ldd, kind);
            const int got_e = k->bf16_padrows(rows, wp, lo, hi, hsrc, lds, hdst, ldd, emin);
            int fbad = 0, hbad = got_e != want_e;
            for (size_t i = 0; i < LEN; ++i) {
                const size_t q = ldd ? i / ldd : rows, j = ldd ? i % ldd : 0; /* (wp 0: none) */
                const bool in = q < rows && j < wp, val = in && j >= lo && j < hi;
                const float fw = val ? round_ref(src[q * lds + j - lo], kind) : in ? 0.0f : GUARD;
                const uint16_t hw = val ? hsrc[q * lds + j - lo] : in ? 0 : 0xbeef;
                fbad |= f32_bits(dst[i]) != f32_bits(fw);
                hbad |= hdst[i] != hw;
            }
            if (fbad && bad++ < 6)
                printf("FAIL %s f32_padrows rows=%zu wp=%zu lo=%zu hi=%zu kind %d\n",
                       cpu_isa_name(k->isa), rows, wp, lo, hi, kind);
            if (hbad && bad++ < 6)
                printf("FAIL %s bf16_padrows rows=%zu wp=%zu lo=%zu hi=%zu: emin %d, want %d\n",
                       cpu_isa_name(k->isa), rows, wp, lo, hi, got_e, want_e);
        }
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *map = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map != MAP_FAILED && mprotect(map, page, PROT_NONE) == 0 &&
        mprotect(map + 2 * page, page, PROT_NONE) == 0) {
        char *start = map + page, *end = map + 2 * page;
        memset(start, 0, page);
        for (size_t wp = 1; wp <= MAXW; ++wp)
            for (size_t lo = 0; lo <= wp; lo += 3)
                for (size_t hi = lo; hi <= wp; hi += 5) {
                    const size_t n = hi - lo;
                    k->f32_padrows(1, wp, lo, hi, (const float *)(void *)start, n, dst, wp,
                                   F32_ROUND_NONE);
                    k->f32_padrows(1, wp, lo, hi, (const float *)(void *)end - n, n, dst, wp,
                                   F32_ROUND_HF32);
                    (void)k->bf16_padrows(1, wp, lo, hi, (const uint16_t *)(void *)start, n, hdst,
                                          wp, 255);
                    (void)k->bf16_padrows(1, wp, lo, hi, (const uint16_t *)(void *)end - n, n, hdst,
                                          wp, 255);
                }
    }
    if (map != MAP_FAILED) munmap(map, 3 * page);
    return bad;
}

/* f32_narrow (and f32_narrow_nt, name "f32_narrow_nt"): fp16 and bf16 bits
 * against f32_to_f16 / f32_to_bf16 on random bits and every float near the
 * thresholds; every length 0..70 with guards, from a 64-byte boundary and
 * 1, 8, 16 elements past it (streamed vectors, all or none). */
static int check_f32_narrow(const conv_ukernels *k, test_rng *r, f32_narrow_ukernel_fn fn, const char *name)
{
    enum { N = 1 << 16, MAX_OFF = 16 };
    static const uint32_t edges[] = {0x00000000u, 0x33000000u, 0x38800000u, 0x477fe000u,
                                      0x477ff000u, 0x7f7f8000u, 0x7f800000u, 0x7fc00000u};
    static const size_t offs[] = {0, 1, 8, MAX_OFF};
    int bad = 0;
    float *src = malloc(N * sizeof(float));
    uint16_t *dst = aligned_alloc(64, (N + 64) * sizeof(uint16_t));
    for (int bf16 = 0; bf16 < 2; ++bf16)
        for (int round = 0; round < 32; ++round) {
            for (size_t i = 0; i < N; ++i) {
                uint32_t u = (uint32_t)rng_next(r);
                if (round % 2 == 1) u = edges[round / 2 % 8] + (uint32_t)rng_range(r, -4096, 4096);
                if (i & 1) u |= 0x80000000u;
                src[i] = f32_from_bits(u);
            }
            fn(N, src, dst, bf16);
            for (size_t i = 0; i < N; ++i) {
                const uint16_t want = bf16 ? f32_to_bf16(src[i]) : f32_to_f16(src[i]);
                if (dst[i] != want && bad++ < 6)
                    printf("FAIL %s %s bf16 %d (0x%08x): 0x%04x, want 0x%04x\n", cpu_isa_name(k->isa), name, bf16,
                           (unsigned)f32_bits(src[i]), (unsigned)dst[i], (unsigned)want);
            }
        }
    for (int bf16 = 0; bf16 < 2; ++bf16)
        for (size_t o = 0; o < sizeof offs / sizeof offs[0]; ++o)
            for (size_t n = 0; n <= 70; ++n) {
                for (size_t i = 0; i < n; ++i) src[i] = f32_from_bits(0x3f800fffu + 4097u * (uint32_t)i);
                for (size_t i = 0; i < n + MAX_OFF + 8; ++i) dst[i] = 0xdead;
                fn(n, src, dst + offs[o], bf16);
                for (size_t i = 0; i < n + MAX_OFF + 8; ++i) {
                    const size_t j = i - offs[o]; /* wraps below the offset */
                    const uint16_t want = j >= n ? 0xdead : bf16 ? f32_to_bf16(src[j]) : f32_to_f16(src[j]);
                    if (dst[i] != want && bad++ < 6)
                        printf("FAIL %s %s bf16 %d n=%zu offset %zu at %zu\n", cpu_isa_name(k->isa), name, bf16,
                               n, offs[o], j);
                }
            }
    free(src);
    free(dst);
    return bad;
}

/* f32_narrow_step2: the even elements as f32_to_f16 / f32_to_bf16 on random
 * bits (NaNs and infinities among them), the odd ones and everything past
 * the last untouched; every length 0..70 at 0..3 elements from a 64-byte
 * boundary. */
static int check_f32_narrow_step2(const conv_ukernels *k, test_rng *r)
{
    enum { MAX_N = 70, GUARD16 = 0xbeef };
    int bad = 0;
    float src[MAX_N];
    uint16_t *buf = aligned_alloc(64, 256 * sizeof(uint16_t));
    for (int bf16 = 0; bf16 < 2; ++bf16)
        for (size_t off = 0; off < 4; ++off)
            for (size_t n = 0; n <= MAX_N; ++n) {
                for (size_t i = 0; i < n; ++i)
                    src[i] = f32_from_bits((uint32_t)rng_next(r));
                for (size_t i = 0; i < 256; ++i)
                    buf[i] = GUARD16;
                k->f32_narrow_step2(n, src, buf + off, bf16);
                for (size_t i = 0; i < 256; ++i) {
                    const size_t j = i - off; /* wraps below the offset */
                    const uint16_t want = j < 2 * n && j % 2 == 0 ? (bf16 ? f32_to_bf16(src[j / 2])
                                                                          : f32_to_f16(src[j / 2]))
                                                                  : GUARD16;
                    if (buf[i] != want && bad++ < 6)
                        printf("FAIL %s f32_narrow_step2 bf16 %d n=%zu offset %zu at %zu: 0x%04x, "
                               "want 0x%04x\n",
                               cpu_isa_name(k->isa), bf16, n, off, i, (unsigned)buf[i],
                               (unsigned)want);
                }
            }
    free(buf);
    return bad;
}

/* lanes16: 1 to 6 rows (the SIMD kernels' groups of rows and the rest), every
 * length 0..70, rows with gaps between them, from lanes holding -0 and
 * values, against the plain loop bit for bit; the lanes no element reaches
 * keep their bits (-0 too); nothing past the last row's n elements is read
 * (ASan: an exact allocation). */
static int check_lanes16(const conv_ukernels *k, test_rng *r)
{
    int bad = 0;
    for (size_t m = 1; m <= 6; ++m)
        for (size_t n = 0; n <= 70; ++n) {
            const size_t ldx = n + (m % 3) * 5, total = (m - 1) * ldx + n;
            float *x = malloc((total ? total : 1) * sizeof(float));
            float acc[6 * 16], want[6 * 16];
            for (size_t i = 0; i < total; ++i) x[i] = (float)rng_range(r, -1000, 1000) / 7.0f;
            for (size_t l = 0; l < m * 16; ++l)
                acc[l] = want[l] = l % 3 == 0 ? -0.0f : (float)((int)l % 16 - 8) / 3.0f;
            for (size_t row = 0; row < m; ++row)
                for (size_t i = 0; i < n; ++i) want[row * 16 + i % 16] += x[row * ldx + i];
            k->lanes16(m, n, x, ldx, acc);
            for (size_t l = 0; l < m * 16; ++l)
                if (f32_bits(acc[l]) != f32_bits(want[l]) && bad++ < 6)
                    printf("FAIL %s lanes16 m=%zu n=%zu row %zu lane %zu: 0x%08x, want 0x%08x\n",
                           cpu_isa_name(k->isa), m, n, l / 16, l % 16, (unsigned)f32_bits(acc[l]),
                           (unsigned)f32_bits(want[l]));
            free(x);
        }
    return bad;
}

/* conv_store_results: runs of 1-300 results (past several of its
 * 128-element chunks) at steps 1, 2 and 3, into fp32 gradInput in the
 * FLOAT16 / BF16 modes and into fp16 / bf16 gradInput in every mode; every
 * element the bits of conv_round_result then the store to the dtype, the
 * elements between the steps and past the run untouched. */
static int check_store_results(const conv_ukernels *k, test_rng *r)
{
    int bad = 0;
    const int64_t counts[] = {1, 17, 127, 128, 129, 255, 300};
    const struct {
        aclDataType dt;
        conv_mode mode;
    } kinds[] = {{ACL_FLOAT, CONV_MODE_F16},   {ACL_FLOAT, CONV_MODE_BF16},
                 {ACL_FLOAT16, CONV_MODE_F32}, {ACL_FLOAT16, CONV_MODE_F16},
                 {ACL_BF16, CONV_MODE_F32},    {ACL_BF16, CONV_MODE_BF16},
                 {ACL_BF16, CONV_MODE_F16},    {ACL_FLOAT16, CONV_MODE_BF16}};
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ++ci)
        for (int sw = 1; sw <= 3; ++sw)
            for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ++ki) {
                const aclDataType dt = kinds[ki].dt;
                const conv_mode mode = kinds[ki].mode;
                const int64_t count = counts[ci], len = count * sw + 8;
                const size_t es = dt == ACL_FLOAT ? 4 : 2;
                float *src = malloc((size_t)count * sizeof(float));
                char *out = malloc((size_t)len * es), *want = malloc((size_t)len * es);
                for (int64_t i = 0; i < count; ++i)
                    src[i] = (float)rng_range(r, -100000, 100000) / 37.0f;
                for (int64_t i = 0; i < len; ++i) {
                    store_from_f32(out, dt, i, -7.5f);
                    store_from_f32(want, dt, i, -7.5f);
                }
                for (int64_t j = 0; j < count; ++j)
                    store_from_f32(want, dt, 3 + j * sw, conv_round_result(src[j], mode));
                conv_view v = {out, dt, {1, 1, 1, 1, len}, {len, len, len, len, 1}};
                conv_store_results(&v, mode, k, false, 3, sw, count, src);
                for (int64_t i = 0; i < len; ++i)
                    if (memcmp(out + i * es, want + i * es, es) != 0 && bad++ < 6)
                        printf("FAIL %s conv_store_results dtype %d mode %d count %lld step %d "
                               "element %lld\n",
                               cpu_isa_name(k->isa), (int)dt, (int)mode, (long long)count, sw,
                               (long long)i);
                free(src);
                free(out);
                free(want);
            }
    return bad;
}

/* conv_load_row: rows of 1-300 elements at steps 1, 2 and 3 of every dtype
 * in every mode (a 16-bit dtype the mode does not keep: bf16 in FLOAT16,
 * fp16 in BF16), values from fp16's subnormals to bf16's and fp32's
 * overflow, infinities and NaNs; every element the bits of
 * conv_round_operand of the value (any NaN for a NaN). */
static int check_load_row(const conv_ukernels *k, test_rng *r)
{
    int bad = 0;
    const int64_t counts[] = {1, 17, 128, 300};
    const aclDataType dts[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ++ci)
        for (int64_t sw = 1; sw <= 3; ++sw)
            for (size_t di = 0; di < 3; ++di)
                for (int m = CONV_MODE_F32; m <= CONV_MODE_BF16; ++m) {
                    const aclDataType dt = dts[di];
                    const conv_mode mode = (conv_mode)m;
                    const int64_t count = counts[ci], len = count * sw;
                    const size_t es = dt == ACL_FLOAT ? 4 : 2;
                    char *in = malloc((size_t)len * es);
                    float *dst = malloc((size_t)count * sizeof(float));
                    for (int64_t i = 0; i < len; ++i) {
                        const int what = (int)rng_range(r, 0, 15);
                        const float v =
                            what == 0   ? INFINITY
                            : what == 1 ? NAN
                            : (float)(rng_range(r, -1000, 1000) / 999.0) *
                                  ldexpf(1.0f, (int)rng_range(r, -30, 30));
                        store_from_f32(in, dt, i, v);
                    }
                    conv_view v = {in, dt, {1, 1, 1, 1, len}, {len, len, len, len, 1}};
                    conv_load_row(&v, 0, 0, 0, 0, 0, sw, count, mode, k, dst);
                    for (int64_t j = 0; j < count; ++j) {
                        const float want = conv_round_operand(load_as_f32(in, dt, j * sw), mode);
                        if (f32_bits(dst[j]) != f32_bits(want) && !(isnan(dst[j]) && isnan(want)) &&
                            bad++ < 6)
                            printf("FAIL %s conv_load_row dtype %d mode %d count %lld step %lld "
                                   "element %lld: 0x%08x, want 0x%08x\n",
                                   cpu_isa_name(k->isa), (int)dt, m, (long long)count,
                                   (long long)sw, (long long)j, (unsigned)f32_bits(dst[j]),
                                   (unsigned)f32_bits(want));
                    }
                    free(in);
                    free(dst);
                }
    return bad;
}

/* The AVX-512 reduction-vector kernels' tree over 16 lane sums: (l, l+8),
 * (l, l+4), (l, l+2), (l, l+1). */
static float lanes16_tree(const float lane[16])
{
    float s8[8], s4[4], s2[2];
    for (int l = 0; l < 8; ++l)
        s8[l] = lane[l + 8] + lane[l];
    for (int l = 0; l < 4; ++l)
        s4[l] = s8[l + 4] + s8[l];
    for (int l = 0; l < 2; ++l)
        s2[l] = s4[l] + s4[l + 2];
    return s2[0] + s2[1];
}

/* One convrv result in the order conv_ukernels.h documents, for an ISA with
 * vl lanes: lane l sums the terms j = l (mod vl), rows ascending then j
 * ascending, with a fused multiply-add per vector step (the SIMD kernels:
 * masked lanes of the last step add 0 * 0) or a product then a sum (scalar,
 * vl = 1); then the ISA's tree over the lanes. */
static float convrv_expect(int vl, size_t nrows, size_t len, const float *a, size_t ars,
                           const float *b, size_t brs)
{
    float lane[16] = {0.0f};
    for (size_t r = 0; r < nrows; ++r)
        for (size_t j0 = 0; j0 < len; j0 += (size_t)vl)
            for (int l = 0; l < vl; ++l) {
                const size_t j = j0 + (size_t)l;
                const float av = j < len ? a[r * ars + j] : 0.0f,
                            bv = j < len ? b[r * brs + j] : 0.0f;
                if (vl == 1) {
                    const float p = av * bv;
                    lane[l] = lane[l] + p;
                } else {
                    lane[l] = fmaf(av, bv, lane[l]);
                }
            }
    if (vl == 1) return lane[0];
    if (vl == 8) { /* (l, l+4), (l, l+2), (l, l+1) */
        float s[4], t[2];
        for (int l = 0; l < 4; ++l)
            s[l] = lane[l] + lane[l + 4];
        for (int l = 0; l < 2; ++l)
            t[l] = s[l] + s[l + 2];
        return t[0] + t[1];
    }
    return lanes16_tree(lane);
}

/* convrv's sum order, bit for bit, on values whose sums round (check_convrv
 * uses small integers, exact in any order): every tile shape, lengths
 * around the vector width, one to three rows. */
static int check_convrv_order(const conv_ukernels *k, int MR, int NR, f32_convrv_ukernel_fn fn,
                              test_rng *r)
{
    const int vl = k->isa == ACLCONV_ISA_AVX512 ? 16 : k->isa == ACLCONV_ISA_AVX2 ? 8 : 1;
    enum { LEN = 70, ROWS = 3 };
    static float a[CONV_UKERNEL_MAX_MR][ROWS * LEN], b[CONV_UKERNEL_MAX_MR][ROWS * LEN];
    for (int m = 0; m < CONV_UKERNEL_MAX_MR; ++m)
        for (int i = 0; i < ROWS * LEN; ++i) {
            a[m][i] = (float)(rng_unit(r) * 2.0 - 1.0);
            b[m][i] = (float)(rng_unit(r) * 2.0 - 1.0);
        }
    const float *ar[CONV_UKERNEL_MAX_MR], *br[CONV_UKERNEL_MAX_MR];
    for (int m = 0; m < CONV_UKERNEL_MAX_MR; ++m) {
        ar[m] = a[m];
        br[m] = b[m];
    }
    int bad = 0;
    for (int mr = 1; mr <= MR; ++mr)
        for (int nr = 1; nr <= NR; ++nr)
            for (size_t len = 1; len <= LEN; len += len < 40 ? 1 : 13)
                for (int accumulate = 0; accumulate < 2; ++accumulate) {
                    const size_t nrows = (size_t)rng_range(r, 1, ROWS);
                    float c[CONV_UKERNEL_MAX_MR * CONV_UKERNEL_MAX_MR];
                    for (int i = 0; i < MR * NR; ++i)
                        c[i] = 0.25f;
                    fn((size_t)mr, (size_t)nr, nrows, len, ar, LEN, br, LEN, c, 1, (size_t)MR,
                       accumulate);
                    for (int m = 0; m < mr; ++m)
                        for (int n = 0; n < nr; ++n) {
                            const float e = convrv_expect(vl, nrows, len, a[m], LEN, b[n], LEN);
                            const float want = accumulate ? 0.25f + e : e;
                            const float got = c[m + n * MR];
                            if (memcmp(&got, &want, sizeof got) != 0 && bad++ < 3)
                                printf(
                                    "FAIL convrv order %s %dx%d len=%zu rows=%zu acc=%d (%d,%d): "
                                    "%a, want %a\n",
                                    cpu_isa_name(k->isa), mr, nr, len, nrows, accumulate, m, n,
                                    (double)got, (double)want);
                        }
                }
    return bad;
}

/* bf16 convrv against its contract (tiny: as check_bf16_convwt): pair q of a
 * row in lane q mod 16, its high position's product first, positions past
 * len +0, the 16-lane tree, then c. Lengths around the 32 positions of a
 * step, rows ending exactly at their allocation (a read past len faults
 * under ASan). */
static int check_bf16_convrv(const conv_ukernels *k, bf16_convrv_ukernel_fn fn, const char *name,
                             int tiny, test_rng *r)
{
    const int MR = k->bf16_convrv_mr, NR = k->bf16_convrv_nr;
    const int elo = tiny ? 0 : 71, ehi = tiny ? 140 : 130;
    enum { LDN = CONV_UKERNEL_MAX_MR + 3 };
    int bad = 0;
    for (int mr = 1; mr <= MR; ++mr)
        for (int nr = 1; nr <= NR; ++nr)
            for (int accumulate = 0; accumulate < 2; ++accumulate) {
                const size_t nrows = (size_t)rng_range(r, 1, 3);
                const size_t len =
                    (size_t)(rng_range(r, 0, 3) == 0 ? rng_range(r, 1, 100) : rng_range(r, 28, 36));
                const size_t ars = len + (size_t)rng_range(r, 0, 5),
                             brs = len + (size_t)rng_range(r, 0, 5);
                /* row m of a, n of b: (nrows - 1) strides then len elements */
                const size_t an = (nrows - 1) * ars + len, bn = (nrows - 1) * brs + len;
                uint16_t *ar[CONV_UKERNEL_MAX_MR], *br[CONV_UKERNEL_MAX_MR];
                for (int m = 0; m < MR; ++m) {
                    ar[m] = malloc(an * sizeof(uint16_t));
                    for (size_t i = 0; i < an; ++i)
                        ar[m][i] = bf16_random(r, elo, ehi);
                }
                for (int n = 0; n < NR; ++n) {
                    br[n] = malloc(bn * sizeof(uint16_t));
                    for (size_t i = 0; i < bn; ++i)
                        br[n][i] = bf16_random(r, elo, ehi);
                }
                float c[CONV_UKERNEL_MAX_MR * LDN], want[CONV_UKERNEL_MAX_MR * LDN];
                for (int i = 0; i < CONV_UKERNEL_MAX_MR * LDN; ++i)
                    c[i] = want[i] = GUARD;
                for (int m = 0; m < mr; ++m)
                    for (int n = 0; n < nr; ++n) {
                        const float c0 = bf16_val(bf16_random(r, 120, 134));
                        c[m + n * LDN] = accumulate ? c0 : GUARD;
                        float lane[16] = {0.0f};
                        const size_t steps = (len + 31) / 32;
                        for (size_t rr = 0; rr < nrows; ++rr)
                            for (size_t q = 0; q < 16 * steps; ++q) {
                                const uint16_t *a = ar[m] + rr * ars, *b = br[n] + rr * brs;
                                const size_t j = 2 * q;
                                const float ahi = j + 1 < len ? bf16_val(a[j + 1]) : 0.0f,
                                            bhi = j + 1 < len ? bf16_val(b[j + 1]) : 0.0f,
                                            alo = j < len ? bf16_val(a[j]) : 0.0f,
                                            blo = j < len ? bf16_val(b[j]) : 0.0f;
                                lane[q % 16] = fmaf(ahi, bhi, lane[q % 16]);
                                lane[q % 16] = fmaf(alo, blo, lane[q % 16]);
                            }
                        const float sum = lanes16_tree(lane);
                        want[m + n * LDN] = accumulate ? c0 + sum : sum;
                    }
                fn((size_t)mr, (size_t)nr, nrows, len, (const uint16_t *const *)ar, ars,
                   (const uint16_t *const *)br, brs, c, 1, LDN, accumulate);
                for (int i = 0; i < CONV_UKERNEL_MAX_MR * LDN; ++i)
                    if (f32_bits(c[i]) != f32_bits(want[i])) {
                        if (bad++ < 3)
                            printf("FAIL %s%s mr=%d nr=%d acc=%d rows=%zu len=%zu: c[m=%d][n=%d] "
                                   "= %a, want %a\n",
                                   name, tiny ? " (tiny operands)" : "", mr, nr, accumulate, nrows,
                                   len, i % LDN, i / LDN, c[i], want[i]);
                        break;
                    }
                for (int m = 0; m < MR; ++m)
                    free(ar[m]);
                for (int n = 0; n < NR; ++n)
                    free(br[n]);
            }
    return bad;
}

/* ukernel_prefetch_part: the parts of a stream, in order, are its lines,
 * each once (an engine splits a plane's lines over its kernel calls), at the
 * level ukernel_prefetch_level chose. */
static int check_prefetch_parts(void)
{
    static char buf[200 * UKERNEL_CACHE_LINE];
    const size_t lines[] = {0, 1, 5, 49, 98, 200};
    const size_t ks[] = {1, 2, 3, 7, 28, 300};
    int bad = 0;
    for (size_t a = 0; a < sizeof lines / sizeof *lines; ++a)
        for (size_t b = 0; b < sizeof ks / sizeof *ks; ++b) {
            ukernel_prefetch pf = {{buf, buf + UKERNEL_CACHE_LINE}, {lines[a], lines[a] / 2}, 0};
            /* the level: into L2 past 64 lines a call, and every part keeps it */
            ukernel_prefetch_level(&pf, ks[b]);
            if (pf.l2 != (lines[a] + lines[a] / 2 > UKERNEL_L1_LINES_PER_CALL * ks[b])) ++bad;
            for (size_t i = 0; i < ks[b]; ++i)
                if (ukernel_prefetch_part(&pf, i, ks[b]).l2 != pf.l2) ++bad;
            for (int s = 0; s < 2; ++s) {
                const char *next = pf.at[s];
                size_t seen = 0;
                for (size_t i = 0; i < ks[b]; ++i) {
                    const ukernel_prefetch q = ukernel_prefetch_part(&pf, i, ks[b]);
                    if (q.lines[s] == 0) continue; /* an empty part names no line */
                    if (q.at[s] != next) ++bad;
                    next = q.at[s] + q.lines[s] * UKERNEL_CACHE_LINE;
                    seen += q.lines[s];
                }
                if (seen != pf.lines[s]) ++bad;
                /* the division-free walk: after step i, lines * (i + 1) / k in all */
                size_t rem = 0, total = 0;
                for (size_t i = 0; i < ks[b]; ++i) {
                    total += ukernel_walk_count(pf.lines[s], ks[b], &rem);
                    if (total != pf.lines[s] * (i + 1) / ks[b]) ++bad;
                }
            }
            if (bad) {
                printf("FAIL ukernel_prefetch_part lines %zu parts %zu\n", lines[a], ks[b]);
                return bad;
            }
        }
    return 0;
}

static int check_conversions(void)
{
    int bad = 0;
    for (uint32_t h = 0; h < 65536; ++h)
        if (f32_bits(f16_to_f32_inl((uint16_t)h)) != f32_bits(f16_to_f32((uint16_t)h)) && bad++ < 3)
            printf("FAIL f16_to_f32_inl(0x%04x)\n", (unsigned)h);
    test_rng r;
    rng_seed(&r, 12345);
    for (int i = 0; i < 4000000; ++i) {
        uint32_t u = (uint32_t)rng_next(&r);
        if (i & 1) u = (u & 0x80001fffu) | ((uint32_t)rng_range(&r, 0x30, 0x48) << 23) |
                       ((uint32_t)rng_range(&r, 0, 1023) << 13); /* fp16 range, ties */
        const float f = f32_from_bits(u);
        if (f32_to_f16_inl(f) != f32_to_f16(f) && bad++ < 6) printf("FAIL f32_to_f16_inl(0x%08x)\n", (unsigned)u);
        if (f32_bits(f32_round_f16_inl(f)) != f32_bits(f32_round_f16(f)) && bad++ < 6)
            printf("FAIL f32_round_f16_inl(0x%08x)\n", (unsigned)u);
    }
    /* f32_round_f16_inl around every threshold: subnormal / normal, overflow, inf, NaN */
    static const uint32_t edges[] = {0x00000000u, 0x33000000u, 0x38800000u, 0x477fe000u, 0x477ff000u, 0x7f800000u};
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; ++e)
        for (int64_t d = -70000; d <= 70000; ++d) {
            const uint32_t u = (uint32_t)((int64_t)edges[e] + d) | (d & 1 ? 0x80000000u : 0u);
            const float f = f32_from_bits(u);
            if (f32_bits(f32_round_f16_inl(f)) != f32_bits(f32_round_f16(f)) && bad++ < 6)
                printf("FAIL f32_round_f16_inl(0x%08x)\n", (unsigned)u);
            if (f32_to_f16_inl(f) != f32_to_f16(f) && bad++ < 6) printf("FAIL f32_to_f16_inl(0x%08x)\n", (unsigned)u);
        }
    return bad;
}

int main(void)
{
    const uint64_t seed = 0x6b65726e656c73ull;
    printf("test_kernels: seed %" PRIu64 "\n", seed);
    const aclconvIsa have = cpu_detected_isa();
    for (int isa = ACLCONV_ISA_SCALAR; isa <= ACLCONV_ISA_AVX512; ++isa) {
        if (isa > (int)have) {
            printf("SKIP %s: not supported by this CPU\n", cpu_isa_name((aclconvIsa)isa));
            continue;
        }
        const conv_ukernels *k = conv_ukernels_for((aclconvIsa)isa);
        if ((int)k->isa != isa) {
            printf("FAIL table of %s has isa %s\n", cpu_isa_name((aclconvIsa)isa), cpu_isa_name(k->isa));
            ++g_fail;
            continue;
        }
        test_rng r;
        rng_seed(&r, seed + (uint64_t)isa);
        int bad_conv = check_conv(k, k->conv_mr, k->conv_nr, k->conv, NULL, 1, &r) +
                       check_conv_xround(k, k->conv_mr, k->conv_nr, k->conv, &r) +
                       check_conv_nt(k, &r);
        int bad_conv1 = check_conv(k, 1, k->conv1_nr, k->conv1, NULL, 1, &r) +
                        check_conv_xround(k, 1, k->conv1_nr, k->conv1, &r);
        int bad_wt = check_convwt(k, &r);
        int bad_rv = check_convrv(k, k->convrv_mr, k->convrv_nr, k->convrv, &r);
        int bad_rv1 = check_convrv(k, 1, k->convrv1_nr, k->convrv1, &r);
        const int bad_rvo = check_convrv_order(k, k->convrv_mr, k->convrv_nr, k->convrv, &r) +
                            check_convrv_order(k, 1, k->convrv1_nr, k->convrv1, &r);
        printf("%s: convrv sum order %s\n", cpu_isa_name(k->isa), bad_rvo ? "FAIL" : "ok");
        bad_rv += bad_rvo;
        printf("%s: conv %dx%d %s, convwt %dx%d %s, convrv %dx%d %s\n", cpu_isa_name(k->isa),
               k->conv_mr, k->conv_nr, bad_conv ? "FAIL" : "ok", k->convwt_mr, k->convwt_nr,
               bad_wt ? "FAIL" : "ok", k->convrv_mr, k->convrv_nr, bad_rv ? "FAIL" : "ok");
        printf("%s: conv 1x%d %s, convrv 1x%d %s\n", cpu_isa_name(k->isa), k->conv1_nr,
               bad_conv1 ? "FAIL" : "ok", k->convrv1_nr, bad_rv1 ? "FAIL" : "ok");
        if (k->convcv) {
            int bad_ccv = check_convcv_bits(k, &r) + check_convcv_y16(k, &r);
            for (size_t step = 1; step <= 3;
                 ++step) /* 2: stride-2 output phases; 3: the generic store */
                bad_ccv += check_conv(k, k->convcv_mr, k->convcv_nr, NULL, k->convcv, step, &r);
            printf("%s: convcv %dx%d %s\n", cpu_isa_name(k->isa), k->convcv_mr, k->convcv_nr,
                   bad_ccv ? "FAIL" : "ok");
            g_fail += bad_ccv;
        }
        if (k->bf16_convwt) {
            int bad_bf = check_bf16_convwt(k, k->bf16_convwt, "bf16 convwt (fma)", 0, &r) +
                         check_bf16_convwt(k, k->bf16_convwt, "bf16 convwt (fma)", 1, &r);
            const bf16_convwt_ukernel_fn dot = conv_bf16_dot_convwt(k->isa);
            if (dot) bad_bf += check_bf16_convwt(k, dot, "bf16 convwt (vdpbf16ps)", 0, &r);
            bad_bf += check_bf16_convcv(k, k->bf16_convcv, "bf16 convcv (fma)", 0, &r) +
                      check_bf16_convcv(k, k->bf16_convcv, "bf16 convcv (fma)", 1, &r);
            const bf16_convcv_ukernel_fn dotcv = conv_bf16_dot_convcv(k->isa);
            if (dotcv) bad_bf += check_bf16_convcv(k, dotcv, "bf16 convcv (vdpbf16ps)", 0, &r);
            bad_bf += check_bf16_convrv(k, k->bf16_convrv, "bf16 convrv (fma)", 0, &r) +
                      check_bf16_convrv(k, k->bf16_convrv, "bf16 convrv (fma)", 1, &r);
            const bf16_convrv_ukernel_fn dotrv = conv_bf16_dot_convrv(k->isa);
            if (dotrv) bad_bf += check_bf16_convrv(k, dotrv, "bf16 convrv (vdpbf16ps)", 0, &r);
            printf("%s: bf16 convwt %dx%d, convcv %dx%d, convrv %dx%d %s%s\n", cpu_isa_name(k->isa),
                   k->bf16_convwt_mr, k->bf16_convwt_nr, k->bf16_convcv_mr, k->bf16_convcv_nr,
                   k->bf16_convrv_mr, k->bf16_convrv_nr, bad_bf ? "FAIL" : "ok",
                   dot ? ", its vdpbf16ps variant too" : " (no vdpbf16ps on this CPU)");
            g_fail += bad_bf;
        }
        const int bad_me = check_bf16_minexp(k, &r) + check_bf16_zip(k, &r) +
                           check_bf16_pairt(k, &r) + check_bf16_split2(k, &r) +
                           check_bf16_zip_split2(k, &r) + check_bf16_zipt(k, &r);
        printf(
            "%s: bf16_minexp, bf16_zip, bf16_pairt, bf16_split2, bf16_zip_split2, bf16_zipt %s\n",
            cpu_isa_name(k->isa), bad_me ? "FAIL" : "ok");
        g_fail += bad_me;
        const int bad_tr = check_transpose(k, &r);
        printf("%s: transpose %s\n", cpu_isa_name(k->isa), bad_tr ? "FAIL" : "ok");
        g_fail += bad_tr;
        if (k->h16_transpose) {
            const int bad_ht = check_h16_transpose(k, &r);
            printf("%s: h16_transpose %s\n", cpu_isa_name(k->isa), bad_ht ? "FAIL" : "ok");
            g_fail += bad_ht;
        }
        const int bad_cv = check_f16_cvt(k);
        printf("%s: f16_f32_cvt %s\n", cpu_isa_name(k->isa), bad_cv ? "FAIL" : "ok");
        g_fail += bad_cv;
        const int bad_bf = check_bf16_cvt(k);
        printf("%s: bf16_f32_cvt %s\n", cpu_isa_name(k->isa), bad_bf ? "FAIL" : "ok");
        g_fail += bad_bf;
        const int bad_sp = check_split2(k);
        printf("%s: h16_f32_split2 %s\n", cpu_isa_name(k->isa), bad_sp ? "FAIL" : "ok");
        g_fail += bad_sp;
        const int bad_pr = check_padrows(k, &r);
        printf("%s: f32_padrows, bf16_padrows %s\n", cpu_isa_name(k->isa), bad_pr ? "FAIL" : "ok");
        g_fail += bad_pr;
        const int bad_rd = check_f32_round(k, &r);
        printf("%s: f32_round %s\n", cpu_isa_name(k->isa), bad_rd ? "FAIL" : "ok");
        g_fail += bad_rd;
        const int bad_sp2 = check_f32_split2(k, &r);
        printf("%s: f32_split2 %s\n", cpu_isa_name(k->isa), bad_sp2 ? "FAIL" : "ok");
        g_fail += bad_sp2;
        const int bad_s2 = check_f32_step2(k);
        printf("%s: f32_load_step2 / f32_store_step2 %s\n", cpu_isa_name(k->isa),
               bad_s2 ? "FAIL" : "ok");
        g_fail += bad_s2;
        const int bad_nw = check_f32_narrow(k, &r, k->f32_narrow, "f32_narrow");
        printf("%s: f32_narrow %s\n", cpu_isa_name(k->isa), bad_nw ? "FAIL" : "ok");
        g_fail += bad_nw;
        if (k->f32_narrow_step2) {
            const int bad_n2 = check_f32_narrow_step2(k, &r);
            printf("%s: f32_narrow_step2 %s\n", cpu_isa_name(k->isa), bad_n2 ? "FAIL" : "ok");
            g_fail += bad_n2;
        }
        /* the streamed stores of results (the scalar ISA: none) */
        if (k->f32_narrow_nt) {
            const int bad_nt = check_f32_narrow(k, &r, k->f32_narrow_nt, "f32_narrow_nt");
            printf("%s: f32_narrow_nt %s\n", cpu_isa_name(k->isa), bad_nt ? "FAIL" : "ok");
            g_fail += bad_nt;
        }
        if (k->f32_round_nt) {
            const int bad_rnt = check_f32_round_nt(k, &r);
            printf("%s: f32_round_nt %s\n", cpu_isa_name(k->isa), bad_rnt ? "FAIL" : "ok");
            g_fail += bad_rnt;
        }
        /* the depthwise data pass's streamed planes (the scalar ISA: none) */
        const f32_copy_ukernel_fn cnt = isa == ACLCONV_ISA_AVX512 ? f32_copy_nt_ukernel__avx512
                                        : isa == ACLCONV_ISA_AVX2 ? f32_copy_nt_ukernel__avx2
                                                                  : NULL;
        if (cnt) {
            const int bad_cnt = check_f32_copy_nt(cnt, cpu_isa_name(k->isa));
            printf("%s: f32_copy_nt %s\n", cpu_isa_name(k->isa), bad_cnt ? "FAIL" : "ok");
            g_fail += bad_cnt;
        }
        const int bad_l16 = check_lanes16(k, &r);
        printf("%s: lanes16 %s\n", cpu_isa_name(k->isa), bad_l16 ? "FAIL" : "ok");
        const int bad_store = check_store_results(k, &r);
        printf("%s: conv_store_results %s\n", cpu_isa_name(k->isa), bad_store ? "FAIL" : "ok");
        g_fail += bad_store;
        const int bad_load = check_load_row(k, &r);
        printf("%s: conv_load_row %s\n", cpu_isa_name(k->isa), bad_load ? "FAIL" : "ok");
        g_fail += bad_load;
        g_fail += bad_conv + bad_wt + bad_rv + bad_conv1 + bad_rv1 + bad_tr + bad_cv + bad_l16;
    }
    const int bad_pf = check_prefetch_parts();
    printf("ukernel_prefetch_part: %s\n", bad_pf ? "FAIL" : "ok");
    g_fail += bad_pf;
    const int bad_cvt = check_conversions();
    printf("inline fp16 conversions: %s\n", bad_cvt ? "FAIL" : "ok");
    g_fail += bad_cvt;
    printf("test_kernels: %s\n", g_fail ? "FAILED" : "OK");
    return g_fail ? 1 : 0;
}
