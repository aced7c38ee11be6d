/*
 * The in-place depthwise kernels (dwrow, dwrowwt; src/kernels/dw_ukernels.h)
 * of AVX2 and AVX-512 against their contracts written as plain loops with
 * fmaf, in the contracts' order: the comparison is bitwise (NaN against NaN
 * of any payload). Random planes cover every path of the kernels: 3x3 grids
 * of taps with column shifts -1, 0, +1 over rows of at most 32 columns (the
 * AVX-512 row-window form), other shifts and widths (the masked 3x3 path),
 * general taps (the tap sweep), rows in and out of the source at both edges.
 * What the kernels must not read holds NaN (row pitch gaps, dy past ow), what
 * they must not write a guard; in half the trials the source holds
 * infinities, past ow and here and there (a weights lane past ow that took
 * one, against its zero dy, would turn NaN). 16-bit sources (and dy) hold
 * signalling NaNs here and there. h16_dwsum is checked against f32_dwsum.
 * test_dw_impl checks the same kernels through the engine against the
 * packed path.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/dtype.h" /* f32_bits */
#include "kernels/cvt_ukernels.h" /* F32_ROUND_* */
#include "kernels/dw_ukernels.h"
#include "test_rng.h"

#define GUARD (-12345.0f)

static int g_src16, g_dy16; /* trials with a converted source; dwrowwt trials with a converted dy */
#define MAXT 12

typedef struct isa_kernels {
    aclconvIsa isa;
    const char *name;
    f32_dwrow_ukernel_fn row;
    f32_dwrowwt_ukernel_fn rowwt;
    int vl, nv; /* the weights lanes: acc[t*DW_ACC_LANES + ((j / vl) % nv)*vl + j % vl] */
} isa_kernels;

static const isa_kernels k_isas[] = {
    {ACLCONV_ISA_AVX2, "avx2", f32_dwrow_ukernel_4x16__avx2, f32_dwrowwt_ukernel_4x16__avx2, 8, 2},
    {ACLCONV_ISA_AVX512, "avx512", f32_dwrow_ukernel_4x32__avx512,
     f32_dwrowwt_ukernel_12x32__avx512, 16, 2},
};

static float real_val(test_rng *r)
{
    return (float)(rng_unit(r) * 2.0 - 1.0);
}

static bool same_bits(float a, float b)
{
    return f32_bits(a) == f32_bits(b) || (isnan(a) && isnan(b));
}

/* X_t(i, k) of the contract. */
static float src_at(const f32_dwrow_src *s, size_t t, ptrdiff_t i, ptrdiff_t k)
{
    if (s->x[t] == NULL || i < 0 || i >= (ptrdiff_t)s->ih || k < 0 || k >= (ptrdiff_t)s->iw)
        return 0.0f;
    return s->x[t][(size_t)i * s->rs + (size_t)k];
}

typedef struct trial {
    size_t rows, ow, ih, iw, rs, nt;
    const float *x[MAXT];
    ptrdiff_t dh[MAXT], dw[MAXT];
    int kind; /* 0: window-form 3x3, 1: other 3x3, 2: general taps */
} trial;

/* Taps: a 3x3 grid on one plane at row step `step` (+1 or -1), column
 * shifts -step, 0, +step (kind 0) or any in [-2, 2] (kind 1); or nt general
 * taps, some on no plane (kind 2). */
static void draw_taps(trial *tr, const float *plane, int step, test_rng *r)
{
    if (tr->kind == 2) {
        tr->nt = (size_t)rng_range(r, 1, MAXT);
        for (size_t t = 0; t < tr->nt; ++t) {
            tr->x[t] = rng_chance(r, 1, 8) ? NULL : plane;
            tr->dh[t] = (ptrdiff_t)rng_range(r, -3, 3);
            tr->dw[t] = (ptrdiff_t)rng_range(r, -3, 3);
        }
        return;
    }
    tr->nt = 9;
    const ptrdiff_t dh0 = (ptrdiff_t)rng_range(r, -4, 4);
    ptrdiff_t dws[3];
    for (int kw = 0; kw < 3; ++kw)
        dws[kw] = tr->kind == 0 ? step * (kw - 1) : (ptrdiff_t)rng_range(r, -2, 2);
    for (size_t t = 0; t < 9; ++t) {
        tr->x[t] = plane;
        tr->dh[t] = dh0 + step * (ptrdiff_t)(t / 3);
        tr->dw[t] = dws[t % 3];
    }
}

/* A source plane of ih rows of iw values at pitch rs: the gaps NaN; when
 * `inf`, the columns past ow and a few others infinities. */
static float *draw_plane(const trial *tr, bool inf, test_rng *r)
{
    float *x = malloc(tr->ih * tr->rs * sizeof(float) + 1);
    for (size_t i = 0; i < tr->ih; ++i)
        for (size_t k = 0; k < tr->rs; ++k)
            x[i * tr->rs + k] = k >= tr->iw                                    ? NAN
                                : inf && (k >= tr->ow || rng_chance(r, 1, 32)) ? INFINITY
                                                                               : real_val(r);
    return x;
}

/* The rounding of an fp32 source kind the kernels round as they load it. */
static float round_src(int kind, float v)
{
    return kind == DW_SRC_F32_F16 ? f32_round_f16(v) : f32_round_hf32(v);
}

/* A source the row-window form converts as it loads it (AVX-512, one trial
 * in two where the taps take it): the plane narrowed to bf16 or fp16 (its
 * NaN gaps a signalling NaN), or fp32 to be rounded to fp16 or HF32
 * (*kplane: the values the kernel reads); s set for it, and `plane`
 * overwritten with the values the kernel must convert them to (NaNs compare
 * as NaNs). Returns the buffer to free, NULL for none. */
static void *draw_src_conv(const isa_kernels *k, const trial *tr, float *plane, f32_dwrow_src *s,
                           bool wt, const float **kplane, test_rng *r)
{
    *kplane = plane;
    if (k->isa != ACLCONV_ISA_AVX512 || dw_row_window(s, tr->ow, wt) == 0 || rng_chance(r, 1, 2))
        return NULL;
    const size_t n = tr->ih * tr->rs;
    ++g_src16;
    if (rng_chance(r, 1, 3)) {
        float *orig = malloc(n * sizeof(float) + 1);
        memcpy(orig, plane, n * sizeof(float));
        s->src_kind = rng_chance(r, 1, 2) ? DW_SRC_F32_F16 : DW_SRC_F32_HF32;
        for (size_t i = 0; i < n; ++i)
            if (i % tr->rs < tr->iw) plane[i] = round_src(s->src_kind, plane[i]);
        *kplane = orig;
        return orig;
    }
    const bool bf16 = rng_chance(r, 1, 2);
    uint16_t *h = malloc(n * sizeof(uint16_t) + 1);
    s->src_kind = bf16 ? DW_SRC_BF16 : DW_SRC_F16;
    s->x16 = h;
    for (size_t i = 0; i < n; ++i) {
        const bool gap = i % tr->rs >= tr->iw;
        const bool snan = gap || rng_chance(r, 1, 64);
        h[i] = snan   ? (bf16 ? 0x7f81u : 0x7c01u)
               : bf16 ? f32_to_bf16(plane[i])
                      : f32_to_f16(plane[i]);
        float v = bf16 ? bf16_to_f32(h[i]) : f16_to_f32(h[i]);
        plane[i] = gap ? NAN : v;
    }
    return h;
}

/* The kernel's view of s: its taps on kplane (the unrounded values of a
 * rounded fp32 source). */
static f32_dwrow_src kernel_src(const f32_dwrow_src *s, const float *kplane, const float **kx)
{
    f32_dwrow_src ks = *s;
    for (size_t t = 0; t < s->nt; ++t)
        kx[t] = s->x[t] ? kplane : NULL;
    ks.x = kx;
    return ks;
}

static void draw_shape(trial *tr, test_rng *r)
{
    tr->kind = (int)rng_range(r, 0, 2);
    tr->rows = (size_t)rng_range(r, 1, 40);
    /* kind 0: the row-window form's widths (17-32) and some narrower; all
     * kinds also wide rows (the 3x3 paths' column strips: AVX-512 up to 8
     * vectors a row, AVX2 up to 16 blocks, then the generic kernels) */
    tr->ow = (size_t)(tr->kind == 0 && rng_chance(r, 3, 4) ? rng_range(r, 17, 32)
                      : rng_chance(r, 1, 4)                 ? rng_range(r, 33, 140)
                                                            : rng_range(r, 1, 40));
    tr->iw = (size_t)rng_range(r, tr->ow > 2 ? (int64_t)tr->ow - 2 : 1, (int64_t)tr->ow + 2);
    tr->ih = (size_t)rng_range(r, tr->rows > 2 ? (int64_t)tr->rows - 2 : 1, (int64_t)tr->rows + 2);
    tr->rs = tr->iw + (size_t)rng_range(r, 0, 5);
}

static int check_row(const isa_kernels *k, test_rng *r, uint64_t trial_no)
{
    trial tr;
    draw_shape(&tr, r);
    const bool inf = rng_chance(r, 1, 2);
    float *plane = draw_plane(&tr, inf, r);
    draw_taps(&tr, plane, rng_chance(r, 1, 2) ? 1 : -1, r);
    f32_dwrow_src s = {
        .x = tr.x, .dh = tr.dh, .dw = tr.dw, .nt = tr.nt, .ih = tr.ih, .iw = tr.iw, .rs = tr.rs};
    const float *kplane, *kx[MAXT];
    void *h16 = draw_src_conv(k, &tr, plane, &s, false, &kplane, r);
    const f32_dwrow_src ks = kernel_src(&s, kplane, kx);
    float w[MAXT];
    for (size_t t = 0; t < tr.nt; ++t)
        w[t] = real_val(r);
    const size_t yrs = tr.ow + (size_t)rng_range(r, 0, 3);
    float *y = malloc((tr.rows * yrs + 1) * sizeof(float));
    for (size_t i = 0; i < tr.rows * yrs + 1; ++i)
        y[i] = GUARD;
    k->row(tr.rows, tr.ow, &ks, w, y, yrs);
    int bad = 0;
    for (size_t i = 0; i < tr.rows && !bad; ++i)
        for (size_t j = 0; j < yrs && !bad; ++j) {
            float want = GUARD;
            if (j < tr.ow) {
                want = 0.0f;
                for (size_t t = 0; t < tr.nt; ++t)
                    want =
                        fmaf(w[t], src_at(&s, t, (ptrdiff_t)i + tr.dh[t], (ptrdiff_t)j + tr.dw[t]),
                             want);
            }
            const float got = y[i * yrs + j];
            if (!same_bits(got, want)) {
                printf("FAIL %s dwrow trial %" PRIu64
                       " (src16 %d, kind %d, rows %zu ow %zu ih %zu iw %zu rs %zu "
                       "nt %zu dh0 %td dw %td %td %td): y[%zu][%zu] = %a, want %a\n",
                       k->name, trial_no, s.src_kind, tr.kind, tr.rows, tr.ow, tr.ih, tr.iw, tr.rs,
                       tr.nt, tr.dh[0], tr.dw[0], tr.nt > 1 ? tr.dw[1] : 0,
                       tr.nt > 2 ? tr.dw[2] : 0, i, j, (double)got, (double)want);
                bad = 1;
            }
        }
    if (!bad && y[tr.rows * yrs] != GUARD) {
        printf("FAIL %s dwrow trial %" PRIu64 ": wrote past the last row\n", k->name, trial_no);
        bad = 1;
    }
    free(y);
    free(plane);
    free(h16);
    return bad;
}

static int check_rowwt(const isa_kernels *k, test_rng *r, uint64_t trial_no)
{
    trial tr;
    draw_shape(&tr, r);
    const bool inf = rng_chance(r, 1, 2);
    float *plane = draw_plane(&tr, inf, r);
    draw_taps(&tr, plane, 1, r);
    f32_dwrow_src s = {
        .x = tr.x, .dh = tr.dh, .dw = tr.dw, .nt = tr.nt, .ih = tr.ih, .iw = tr.iw, .rs = tr.rs};
    const float *kplane, *kx[MAXT];
    void *h16 = draw_src_conv(k, &tr, plane, &s, true, &kplane, r);
    const size_t dyrs = tr.ow + (size_t)rng_range(r, 0, 3);
    float *dy = malloc((tr.rows * dyrs + 1) * sizeof(float));
    for (size_t i = 0; i < tr.rows * dyrs; ++i)
        dy[i] = i % dyrs < tr.ow ? real_val(r) : NAN;
    /* with a 16-bit x, half the time a 16-bit dy of its dtype: dy then holds
     * the values the kernel must widen it to */
    uint16_t *dy16 = h16 && dw_src_16bit(s.src_kind) && rng_chance(r, 1, 2)
                         ? malloc(tr.rows * dyrs * sizeof(uint16_t) + 1)
                         : NULL;
    /* an fp32 source rounded: half the time dy rounded too (the kernel
     * reads kdy, dy holds the rounded values) */
    float *kdy = dy;
    if (h16 && dw_src_rounded(s.src_kind) && rng_chance(r, 1, 2)) {
        kdy = malloc((tr.rows * dyrs + 1) * sizeof(float));
        memcpy(kdy, dy, tr.rows * dyrs * sizeof(float));
        s.dy_kind = s.src_kind;
        for (size_t i = 0; i < tr.rows * dyrs; ++i)
            if (i % dyrs < tr.ow) dy[i] = round_src(s.src_kind, dy[i]);
        ++g_dy16;
    }
    if (dy16) {
        const bool bf16 = s.src_kind == DW_SRC_BF16;
        s.dy_kind = s.src_kind;
        s.dy16 = dy16;
        for (size_t i = 0; i < tr.rows * dyrs; ++i) {
            const bool gap = i % dyrs >= tr.ow, snan = gap || rng_chance(r, 1, 64);
            dy16[i] = snan   ? (bf16 ? 0x7f81u : 0x7c01u)
                      : bf16 ? f32_to_bf16(dy[i])
                             : f32_to_f16(dy[i]);
            float v = bf16 ? bf16_to_f32(dy16[i]) : f16_to_f32(dy16[i]);
            dy[i] = gap ? NAN : v;
        }
    }
    const size_t lanes = tr.nt * DW_ACC_LANES;
    float acc[MAXT * DW_ACC_LANES], want[MAXT * DW_ACC_LANES];
    for (size_t l = 0; l < lanes; ++l)
        acc[l] = want[l] = real_val(r);
    const f32_dwrow_src ks = kernel_src(&s, kplane, kx);
    k->rowwt(tr.rows, tr.ow, &ks, dy16 ? NULL : kdy, dyrs, acc);
    g_dy16 += dy16 != NULL;
    for (size_t i = 0; i < tr.rows; ++i)
        for (size_t j = 0; j < tr.ow; ++j)
            for (size_t t = 0; t < tr.nt; ++t) {
                const size_t l = t * DW_ACC_LANES +
                                 (j / (size_t)k->vl) % (size_t)k->nv * (size_t)k->vl +
                                 j % (size_t)k->vl;
                want[l] = fmaf(src_at(&s, t, (ptrdiff_t)i + tr.dh[t], (ptrdiff_t)j + tr.dw[t]),
                               dy[i * dyrs + j], want[l]);
            }
    int bad = 0;
    for (size_t l = 0; l < lanes && !bad; ++l)
        if (!same_bits(acc[l], want[l])) {
            printf("FAIL %s dwrowwt trial %" PRIu64
                   " (src16 %d, kind %d, rows %zu ow %zu ih %zu iw %zu rs %zu "
                   "nt %zu dh0 %td dw %td %td %td): lane %zu = %a, want %a\n",
                   k->name, trial_no, s.src_kind, tr.kind, tr.rows, tr.ow, tr.ih, tr.iw, tr.rs,
                   tr.nt, tr.dh[0], tr.dw[0], tr.nt > 1 ? tr.dw[1] : 0, tr.nt > 2 ? tr.dw[2] : 0, l,
                   (double)acc[l], (double)want[l]);
            bad = 1;
        }
    if (kdy != dy) free(kdy);
    free(dy);
    free(dy16);
    free(plane);
    free(h16);
    return bad;
}

/* h16_dwsum against f32_dwsum over the widened runs, NaNs quieted first:
 * the same bits (the adds quiet them anyway), NaN against NaN of any
 * payload: with two NaNs in a lane the payload kept depends on the operand
 * order gcc picks for each commutative add (it differed in the
 * ThreadSanitizer build). */
static int check_dwsum16(test_rng *r)
{
    int bad = 0;
    for (int trial = 0; trial < 500 && !bad; ++trial) {
        const size_t nch = (size_t)rng_range(r, 1, 7), len = (size_t)rng_range(r, 1, 100);
        const bool bf16 = rng_chance(r, 1, 2);
        uint16_t *h[8];
        float *f[8];
        for (size_t c = 0; c < nch; ++c) {
            h[c] = malloc(len * sizeof(uint16_t) + 1);
            f[c] = malloc(len * sizeof(float) + 1);
            for (size_t i = 0; i < len; ++i) {
                const int64_t kind = rng_range(r, 0, 40);
                h[c][i] = kind == 0   ? (bf16 ? 0x7f81u : 0x7c01u)
                          : kind == 1 ? (bf16 ? 0xffc3u : 0xfe03u)
                          : kind == 2 ? (bf16 ? 0x7f80u : 0x7c00u)
                          : bf16      ? f32_to_bf16(real_val(r))
                                      : f32_to_f16(real_val(r));
                float v = bf16 ? bf16_to_f32(h[c][i]) : f16_to_f32(h[c][i]);
                f[c][i] = isnan(v) ? f32_from_bits(f32_bits(v) | 0x400000u) : v;
            }
        }
        float got[8 * DW_SUM_LANES], want[8 * DW_SUM_LANES];
        for (size_t l = 0; l < nch * DW_SUM_LANES; ++l)
            got[l] = want[l] = real_val(r);
        h16_dwsum_ukernel_4x16__avx512(nch, len, (const uint16_t *const *)h, bf16, got);
        f32_dwsum_ukernel_4x16__avx512(nch, len, (const float *const *)f, want);
        for (size_t l = 0; l < nch * DW_SUM_LANES && !bad; ++l)
            if (!same_bits(got[l], want[l])) {
                printf("FAIL h16_dwsum trial %d (nch %zu len %zu bf16 %d): lane %zu = 0x%08x, "
                       "want 0x%08x\n",
                       trial, nch, len, bf16, l, f32_bits(got[l]), f32_bits(want[l]));
                bad = 1;
            }
        for (size_t c = 0; c < nch; ++c) {
            free(h[c]);
            free(f[c]);
        }
    }
    return bad;
}

/* dwch_pack + dwchwt (AVX-512) against dwrowwt per channel: 16 channels
 * (some absent) of planes of rows x ow, x of ih x iw (iw <= ow, its row 0
 * at tap row dh0), sums from the same start values: the same bits per
 * (channel, tap, column), over two images in a row. Non-finite values here
 * and there (the kernels meet them in the same operations). */
static int check_dwchwt(test_rng *r)
{
    int bad = 0;
    for (int trial = 0; trial < 400 && !bad; ++trial) {
        const size_t rows = (size_t)rng_range(r, 1, 20), ow = (size_t)rng_range(r, 1, 16);
        const size_t iw = (size_t)rng_range(r, 1, (int64_t)ow);
        const size_t ih = (size_t)rng_range(r, 1, (int64_t)rows + 3);
        const ptrdiff_t dh0 = (ptrdiff_t)rng_range(r, -2, 1);
        const size_t rs = iw + (size_t)rng_range(r, 0, 3), dyrs = ow + (size_t)rng_range(r, 0, 3);
        const size_t nch = (size_t)rng_range(r, 1, 16), xp = ow + 2;
        const size_t dp = ow + (size_t)rng_range(r, 0, 2); /* dyt's row pitch */
        float *x = malloc(16 * ih * rs * sizeof(float));
        float *dy = malloc(16 * rows * dyrs * sizeof(float));
        float *xt = calloc((rows + 2) * xp * 16, sizeof(float));
        float *dyt = malloc(rows * dp * 16 * sizeof(float));
        float *sums = malloc(ow * 9 * 16 * sizeof(float));
        float *acc = malloc(16 * 9 * DW_ACC_LANES * sizeof(float));
        for (size_t c = 0; c < 16; ++c)
            for (size_t t = 0; t < 9; ++t)
                for (size_t j = 0; j < DW_ACC_LANES; ++j) {
                    const float v = real_val(r);
                    acc[(c * 9 + t) * DW_ACC_LANES + j] = v;
                    if (j < ow) sums[(j * 9 + t) * 16 + c] = v;
                }
        const size_t i0 = dh0 > 0 ? (size_t)dh0 : 0;
        const ptrdiff_t iend = dh0 + (ptrdiff_t)rows + 2; /* > 0: dh0 >= -2 */
        const size_t i1 = (ptrdiff_t)ih < iend ? ih : (size_t)iend;
        for (int img = 0; img < 2 && !bad; ++img) {
            for (size_t i = 0; i < 16 * ih * rs; ++i)
                x[i] = i % rs >= iw ? NAN : rng_chance(r, 1, 200) ? INFINITY : real_val(r);
            for (size_t i = 0; i < 16 * rows * dyrs; ++i)
                dy[i] = i % dyrs >= ow ? NAN : real_val(r);
            const float *xs[16], *ds[16];
            for (size_t c = 0; c < 16; ++c) {
                xs[c] = c < nch ? x + c * ih * rs + i0 * rs : NULL;
                ds[c] = c < nch ? dy + c * rows * dyrs : NULL;
            }
            const ukernel_prefetch none = UKERNEL_PREFETCH_NONE;
            if (i1 > i0)
                f32_dwch_pack_16__avx512(xs, rs, i1 - i0, iw,
                                         xt + (((ptrdiff_t)i0 - dh0) * (ptrdiff_t)xp + 1) * 16, xp,
                                         F32_ROUND_NONE, NULL, &none);
            for (size_t i = 0; i < rows * dp * 16; ++i) dyt[i] = NAN; /* the pitch's gaps */
            f32_dwch_pack_16__avx512(ds, dyrs, rows, ow, dyt, dp, F32_ROUND_NONE, NULL, &none);
            f32_dwchwt_ukernel_16x2__avx512(rows, ow, xt, xp, dyt, dp, sums, &none);
            for (size_t c = 0; c < nch; ++c) {
                const float *tx[9];
                ptrdiff_t tdh[9], tdw[9];
                for (int t = 0; t < 9; ++t) {
                    tx[t] = x + c * ih * rs;
                    tdh[t] = dh0 + t / 3;
                    tdw[t] = t % 3 - 1;
                }
                const f32_dwrow_src src = {.x = tx, .dh = tdh, .dw = tdw, .nt = 9, .ih = ih,
                                           .iw = iw, .rs = rs};
                f32_dwrowwt_ukernel_12x32__avx512(rows, ow, &src, dy + c * rows * dyrs, dyrs,
                                                  acc + c * 9 * DW_ACC_LANES);
            }
            for (size_t c = 0; c < nch && !bad; ++c)
                for (size_t t = 0; t < 9 && !bad; ++t)
                    for (size_t j = 0; j < ow && !bad; ++j) {
                        const float got = sums[(j * 9 + t) * 16 + c];
                        const float want = acc[(c * 9 + t) * DW_ACC_LANES + j];
                        if (!same_bits(got, want)) {
                            printf("FAIL dwchwt trial %d image %d (rows %zu ow %zu ih %zu iw %zu "
                                   "dh0 %td nch %zu): channel %zu tap %zu column %zu = 0x%08x, "
                                   "dwrowwt 0x%08x\n",
                                   trial, img, rows, ow, ih, iw, dh0, nch, c, t, j,
                                   f32_bits(got), f32_bits(want));
                            bad = 1;
                        }
                    }
        }
        free(x);
        free(dy);
        free(xt);
        free(dyt);
        free(sums);
        free(acc);
    }
    return bad;
}

/* dwch_pack (AVX-512) of fp32, bf16 and fp16 planes with each rounding kind
 * against the scalar widening and roundings of common/dtype.h, element by
 * element (16-bit: only the rounding to the other 16-bit format applies): values near
 * rounding ties, tiny and huge ones, infinities, NaNs (any NaN for a NaN).
 * Rows of contiguous and of gapped planes (the flattened and the row walk),
 * absent channels zero, nothing written between the rows; where the rows
 * are contiguous, gradBias's block sums of the unrounded values. */
static int check_dwchpack(test_rng *r)
{
    static const int kinds[4] = {F32_ROUND_NONE, F32_ROUND_HF32, F32_ROUND_F16, F32_ROUND_BF16};
    int bad = 0;
    for (int trial = 0; trial < 400 && !bad; ++trial) {
        const int kind = kinds[rng_range(r, 0, 3)];
        const int dt = (int)rng_range(r, 0, 2); /* fp32, bf16, fp16 */
        const size_t rows = (size_t)rng_range(r, 1, 12), cols = (size_t)rng_range(r, 1, 20);
        const size_t rs = cols + (size_t)rng_range(r, 0, 2), dp = cols + (size_t)rng_range(r, 0, 2);
        float *x = malloc(16 * rows * rs * sizeof(float));
        uint16_t *x16 = malloc(16 * rows * rs * sizeof(uint16_t));
        float *dst = malloc((rows * dp + 1) * 16 * sizeof(float));
        for (size_t i = 0; i < 16 * rows * rs; ++i) {
            const int what = (int)rng_range(r, 0, 9);
            const float v = real_val(r) * ldexpf(1.0f, (int)rng_range(r, -30, 30));
            /* a value on a tie of the kind's rounding now and then */
            x[i] = what == 0   ? f32_from_bits((f32_bits(v) & ~0xfffu) | 0x800u)
                   : what == 1 ? f32_from_bits((f32_bits(v) & ~0x1fffu) | 0x1000u)
                   : what == 2 ? (rng_chance(r, 1, 2) ? INFINITY : NAN)
                   : what == 3 ? ldexpf(real_val(r), (int)rng_range(r, -140, 127))
                               : v;
            if (dt == 1) x16[i] = f32_to_bf16(x[i]); /* x: the value the pack reads */
            if (dt == 2) x16[i] = f32_to_f16(x[i]);
            if (dt == 1) x[i] = bf16_to_f32(x16[i]);
            if (dt == 2) x[i] = f16_to_f32(x16[i]);
        }
        for (size_t i = 0; i < (rows * dp + 1) * 16; ++i) dst[i] = GUARD;
        const size_t nch = (size_t)rng_range(r, 1, 16);
        const float *xs[16];
        const uint16_t *hs[16];
        for (size_t c = 0; c < 16; ++c) {
            xs[c] = c < nch ? x + c * rows * rs : NULL;
            hs[c] = c < nch ? x16 + c * rows * rs : NULL;
        }
        const ukernel_prefetch none = UKERNEL_PREFETCH_NONE;
        float sums[16];
        const int summed =
            dt == 0 ? f32_dwch_pack_16__avx512(xs, rs, rows, cols, dst, dp, kind, sums, &none)
                    : h16_dwch_pack_16__avx512(hs, dt == 1, rs, rows, cols, dst, dp, kind, sums,
                                               &none);
        /* 16-bit: only the rounding to the other 16-bit format */
        const int rk = dt == 0 || (dt == 1 && kind == F32_ROUND_F16) ||
                               (dt == 2 && kind == F32_ROUND_BF16)
                           ? kind
                           : F32_ROUND_NONE;
        for (size_t i = 0; i < rows && !bad; ++i)
            for (size_t j = 0; j < dp && !bad; ++j)
                for (size_t c = 0; c < 16 && !bad; ++c) {
                    const float got = dst[(i * dp + j) * 16 + c];
                    float want = GUARD;
                    if (j < cols && c >= nch) want = 0.0f;
                    if (j < cols && c < nch) {
                        const float v = x[c * rows * rs + i * rs + j];
                        want = rk == F32_ROUND_HF32   ? f32_round_hf32(v)
                               : rk == F32_ROUND_F16  ? f32_round_f16(v)
                               : rk == F32_ROUND_BF16 ? f32_round_bf16(v)
                                                      : v;
                    }
                    if (!same_bits(got, want)) {
                        printf("FAIL dwch_pack trial %d (dtype %d kind %d, rows %zu cols %zu rs "
                               "%zu dp %zu): row %zu column %zu channel %zu = 0x%08x, want "
                               "0x%08x\n",
                               trial, dt, kind, rows, cols, rs, dp, i, j, c, f32_bits(got),
                               f32_bits(want));
                        bad = 1;
                    }
                }
        /* the sums of the values as read, where the rows are contiguous */
        const int flat = rs == cols && cols < 16;
        if (summed != flat) {
            printf("FAIL dwch_pack trial %d (rows %zu cols %zu rs %zu): summed %d\n", trial, rows,
                   cols, rs, summed);
            bad = 1;
        }
        for (size_t c = 0; c < 16 && flat && !bad; ++c) {
            float lane[16] = {0};
            for (size_t i = 0; i < rows * cols && c < nch; ++i)
                lane[i % 16] += x[c * rows * rs + i];
            for (int width = 8; width > 0; width /= 2)
                for (int l = 0; l < width; ++l) lane[l] += lane[l + width];
            if (!same_bits(sums[c], lane[0])) {
                printf("FAIL dwch_pack trial %d (rows %zu cols %zu): channel %zu sum 0x%08x, "
                       "want 0x%08x\n",
                       trial, rows, cols, c, f32_bits(sums[c]), f32_bits(lane[0]));
                bad = 1;
            }
        }
        free(x);
        free(x16);
        free(dst);
    }
    return bad;
}

/* dwch_pack + dwchconv (AVX-512) against dwrow per channel: the row
 * window's taps at step +1 or -1 over 16 channels (some absent), the same
 * weights: the same bits per output, nothing written past ow or into an
 * absent channel's plane. */
static int check_dwchconv(test_rng *r)
{
    int bad = 0;
    for (int trial = 0; trial < 400 && !bad; ++trial) {
        const size_t rows = (size_t)rng_range(r, 1, 20), ow = (size_t)rng_range(r, 1, 16);
        const size_t iw = (size_t)rng_range(r, 1, (int64_t)ow + 3);
        const size_t ih = (size_t)rng_range(r, 1, (int64_t)rows + 3);
        const ptrdiff_t step = rng_chance(r, 1, 2) ? 1 : -1, dh0 = (ptrdiff_t)rng_range(r, -2, 2);
        const size_t rs = iw + (size_t)rng_range(r, 0, 3), yrs = ow + (size_t)rng_range(r, 0, 3);
        const size_t nch = (size_t)rng_range(r, 1, 16), sp = ow + 2;
        float *x = malloc(16 * ih * rs * sizeof(float));
        float *got = malloc(16 * rows * yrs * sizeof(float));
        float *want = malloc(16 * rows * yrs * sizeof(float));
        float *grid = calloc((rows + 2) * sp * 16, sizeof(float));
        float w[16 * 9], w16[9 * 16];
        for (size_t i = 0; i < 16 * ih * rs; ++i)
            x[i] = i % rs >= iw ? NAN : rng_chance(r, 1, 200) ? -INFINITY : real_val(r);
        for (size_t i = 0; i < 16 * rows * yrs; ++i)
            got[i] = want[i] = 12345.0f;
        for (size_t c = 0; c < 16; ++c)
            for (size_t t = 0; t < 9; ++t)
                w16[t * 16 + c] = w[c * 9 + t] = real_val(r);
        ptrdiff_t tdh[9], tdw[9];
        for (int t = 0; t < 9; ++t) {
            tdh[t] = dh0 + step * (t / 3);
            tdw[t] = step * (t % 3 - 1);
        }
        const ptrdiff_t rmin = tdh[0] < tdh[6] ? tdh[0] : tdh[6];
        /* the source rows the grid holds: [i0, i1), maybe none */
        const ptrdiff_t iend = rmin + (ptrdiff_t)rows + 2;
        const size_t i0 = rmin > 0 ? (size_t)rmin : 0;
        const size_t i1 = iend <= 0 ? 0 : (ptrdiff_t)ih < iend ? ih : (size_t)iend;
        const float *xs[16];
        float *ys[16];
        for (size_t c = 0; c < 16; ++c) {
            xs[c] = c < nch ? x + c * ih * rs + i0 * rs : NULL;
            ys[c] = c < nch ? got + c * rows * yrs : NULL;
        }
        const ukernel_prefetch none = UKERNEL_PREFETCH_NONE;
        const size_t cols = iw < ow + 1 ? iw : ow + 1;
        if (i1 > i0)
            f32_dwch_pack_16__avx512(xs, rs, i1 - i0, cols,
                                     grid + (((ptrdiff_t)i0 - rmin) * (ptrdiff_t)sp + 1) * 16, sp,
                                     F32_ROUND_NONE, NULL, &none);
        ptrdiff_t toff[9];
        for (int t = 0; t < 9; ++t)
            toff[t] = (tdh[t] - rmin) * (ptrdiff_t)sp + tdw[t] + 1;
        f32_dwchconv_ukernel_16__avx512(rows, ow, grid, sp, toff, w16, 16, ys, yrs);
        for (size_t c = 0; c < nch; ++c) {
            const float *tx[9];
            for (int t = 0; t < 9; ++t)
                tx[t] = x + c * ih * rs;
            const f32_dwrow_src src = {.x = tx, .dh = tdh, .dw = tdw, .nt = 9, .ih = ih,
                                       .iw = iw, .rs = rs};
            f32_dwrow_ukernel_4x32__avx512(rows, ow, &src, w + c * 9, want + c * rows * yrs, yrs);
        }
        for (size_t i = 0; i < 16 * rows * yrs && !bad; ++i)
            if (!same_bits(got[i], want[i])) {
                printf("FAIL dwchconv trial %d (rows %zu ow %zu ih %zu iw %zu step %td dh0 %td "
                       "nch %zu): element %zu = 0x%08x, dwrow 0x%08x\n",
                       trial, rows, ow, ih, iw, step, dh0, nch, i, f32_bits(got[i]),
                       f32_bits(want[i]));
                bad = 1;
            }
        free(x);
        free(got);
        free(want);
        free(grid);
    }
    return bad;
}

int main(void)
{
    const uint64_t seed = 0x64776b65726e6cull;
    const int trials = 3000;
    printf("test_dw_kernels: seed %" PRIu64 ", %d trials per kernel\n", seed, trials);
    int fail = 0;
    const aclconvIsa have = cpu_detected_isa();
    for (size_t i = 0; i < sizeof k_isas / sizeof k_isas[0]; ++i) {
        const isa_kernels *k = &k_isas[i];
        if (k->isa > have) {
            printf("SKIP %s: not supported by this CPU\n", k->name);
            continue;
        }
        test_rng r;
        rng_seed(&r, seed + (uint64_t)k->isa);
        int bad_row = 0, bad_wt = 0;
        for (int t = 0; t < trials; ++t) {
            bad_row += check_row(k, &r, (uint64_t)t);
            bad_wt += check_rowwt(k, &r, (uint64_t)t);
        }
        printf("%s: dwrow %s, dwrowwt %s (%d trials with a converted source, %d with a converted "
               "dy)\n",
               k->name, bad_row ? "FAIL" : "ok", bad_wt ? "FAIL" : "ok", g_src16, g_dy16);
        fail += bad_row + bad_wt;
    }
    if (have >= ACLCONV_ISA_AVX512) {
        test_rng r;
        rng_seed(&r, seed ^ 0x5555u);
        const int bad = check_dwsum16(&r);
        printf("avx512: h16_dwsum %s\n", bad ? "FAIL" : "ok");
        fail += bad;
        const int bad_ch = check_dwchwt(&r);
        printf("avx512: dwch_pack + dwchwt %s\n", bad_ch ? "FAIL" : "ok");
        fail += bad_ch;
        const int bad_cc = check_dwchconv(&r);
        printf("avx512: dwch_pack + dwchconv %s\n", bad_cc ? "FAIL" : "ok");
        fail += bad_cc;
        const int bad_cp = check_dwchpack(&r);
        printf("avx512: dwch_pack's roundings %s\n", bad_cp ? "FAIL" : "ok");
        fail += bad_cp;
    }
    printf("test_dw_kernels: %s\n", fail ? "FAILED" : "OK");
    return fail ? 1 : 0;
}
