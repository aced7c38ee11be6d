/* AVX-512 in-place depthwise weight-gradient dot products: up to 12 taps x
 * 32 partial sums held in registers for a whole plane (two zmm per tap: the
 * even and the odd 16-wide column blocks of a row; a 3x3 kernel is one group
 * of 9, 18 accumulators), the dy vectors of a block loaded once per group,
 * the x rows read where they lie with masked loads (padding and the columns
 * past ow read as zeros, never touched). 3x3 taps on one plane take a 3x3
 * path (rows of up to 8 vectors; longer ones the generic sweep), over rows
 * of at most ow <= 32 columns with shifts -1, 0, +1 the row-window form
 * (each x row loaded once and shifted in registers; the only form that
 * converts a 16-bit or rounded x and dy as it loads them). */
#include <immintrin.h>

#include "kernels/avx512/dw_window__avx512.h"
#include "kernels/dw_ukernels.h"

#define VL 16
#define TG 12 /* taps per group: 24 accumulators, 2 dy vectors, room to load */
#define WR 4  /* row-window form: rows per block (8 dy vectors next to 18 accumulators) */

/* Row r of taps t0 .. t0 + ng - 1 into a0 / a1. edge: some tap's source row
 * may be outside the source (all its lanes masked then). */
static inline __attribute__((always_inline)) void row(const int ng, const bool edge, size_t t0,
                                                      size_t r, size_t ow, size_t nb,
                                                      const f32_dwrow_src *s, const __mmask16 *mt,
                                                      const float *dr, __m512 *a0, __m512 *a1)
{
    const float *xp[TG];
    __mmask16 keep[TG];
#pragma GCC unroll 16
    for (int g = 0; g < ng; ++g) {
        const size_t t = t0 + (size_t)g;
        const ptrdiff_t i = (ptrdiff_t)r + s->dh[t];
        const bool in = !edge || (s->x[t] != NULL && i >= 0 && (size_t)i < s->ih);
        /* outside: every lane masked, nothing is read */
        xp[g] = in ? s->x[t] + (size_t)i * s->rs + s->dw[t] : dr;
        keep[g] = in ? (__mmask16)0xffff : 0;
    }
    size_t b = 0;
    for (; b + 2 <= nb; b += 2) {
        const size_t j = b * VL;
        const __mmask16 o1 = dw_lanes(0, (ptrdiff_t)(ow - j) - VL);
        const __m512 d0 = _mm512_loadu_ps(dr + j), d1 = _mm512_maskz_loadu_ps(o1, dr + j + VL);
#pragma GCC unroll 16
        for (int g = 0; g < ng; ++g) {
            const __mmask16 m0 = edge ? mt[g * nb + b] & keep[g] : mt[g * nb + b];
            const __mmask16 m1 = edge ? mt[g * nb + b + 1] & keep[g] : mt[g * nb + b + 1];
            a0[g] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m0, xp[g] + j), d0, a0[g]);
            a1[g] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m1, xp[g] + j + VL), d1, a1[g]);
        }
    }
    if (b < nb) { /* an even block, the last */
        const size_t j = b * VL;
        const __m512 d0 = _mm512_maskz_loadu_ps(dw_lanes(0, (ptrdiff_t)(ow - j)), dr + j);
#pragma GCC unroll 16
        for (int g = 0; g < ng; ++g) {
            const __mmask16 m0 = edge ? mt[g * nb + b] & keep[g] : mt[g * nb + b];
            a0[g] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m0, xp[g] + j), d0, a0[g]);
        }
    }
}

/* Taps t0 .. t0 + ng - 1 over the whole plane; m: all taps' masks, nb per tap. */
static inline __attribute__((always_inline)) void sweep(const int ng, size_t t0, size_t rows,
                                                        size_t ow, size_t nb,
                                                        const f32_dwrow_src *s, const __mmask16 *m,
                                                        const float *dy, size_t dyrs, float *acc)
{
    __m512 a0[TG], a1[TG];
    /* rows whose every tap's source row is inside the source: [r0, r1) */
    ptrdiff_t r0 = 0, r1 = (ptrdiff_t)rows;
#pragma GCC unroll 16
    for (int g = 0; g < ng; ++g) {
        const size_t t = t0 + (size_t)g;
        a0[g] = _mm512_loadu_ps(acc + t * DW_ACC_LANES);
        a1[g] = _mm512_loadu_ps(acc + t * DW_ACC_LANES + VL);
        if (s->x[t] == NULL) r1 = 0;
        if (-s->dh[t] > r0) r0 = -s->dh[t];
        if ((ptrdiff_t)s->ih - s->dh[t] < r1) r1 = (ptrdiff_t)s->ih - s->dh[t];
    }
    if (r1 < r0) r1 = r0;
    if (r0 > (ptrdiff_t)rows) r0 = r1 = (ptrdiff_t)rows;
    const __mmask16 *mt = m + t0 * nb;
    size_t r = 0;
    /* the first group's rows ask for the caller's next operands */
    const ukernel_prefetch none = UKERNEL_PREFETCH_NONE, *pf = t0 == 0 ? &s->pf : &none;
    for (; r < (size_t)r0; ++r) {
        ukernel_prefetch_steps(pf, r, r + 1, rows);
        row(ng, true, t0, r, ow, nb, s, mt, dy + r * dyrs, a0, a1);
    }
    for (; r < (size_t)r1; ++r) {
        ukernel_prefetch_steps(pf, r, r + 1, rows);
        row(ng, false, t0, r, ow, nb, s, mt, dy + r * dyrs, a0, a1);
    }
    for (; r < rows; ++r) {
        ukernel_prefetch_steps(pf, r, r + 1, rows);
        row(ng, true, t0, r, ow, nb, s, mt, dy + r * dyrs, a0, a1);
    }
#pragma GCC unroll 16
    for (int g = 0; g < ng; ++g) {
        _mm512_storeu_ps(acc + (t0 + (size_t)g) * DW_ACC_LANES, a0[g]);
        _mm512_storeu_ps(acc + (t0 + (size_t)g) * DW_ACC_LANES + VL, a1[g]);
    }
}

/* ---- 3x3 taps on one source plane, rows of at most G33_MAX_NB vectors ----
 * Tap (kh, kw) = t = 3*kh + kw reads source row r + dh0 + kh at column shift
 * dw[kw]. Output rows go in blocks of nr: each of the nr + 2 source rows is
 * loaded once per shift, column block and row block (masked loads) and meets
 * the dy rows of every tap row that uses it, so a row costs ~11 loads per
 * 9 FMAs instead of 20 (the loads are mostly cache-line splits: they bound
 * the generic sweep, which also keeps its pointers and masks in memory: ~4x
 * slower on 56-column rows). Column block b = 2q + v goes to accumulator v
 * (the acc lanes' (j / VL) % 2); a row's blocks of one v are visited q
 * ascending after its previous row's, so each tap still sees its lanes' terms
 * r ascending, then j ascending: the dwwt lane order. */
#define G33_MAX_NB 8

/* Rows per block for nb column blocks: nr * ceil(nb / 2) dy vectors (at
 * most 8) are live next to the 18 accumulators. */
#define G33_ROWS(nb) ((nb) <= 4 ? 4 : 2)

static inline __attribute__((always_inline)) void
g33_block(const int nr, const int nb, const bool edge, size_t r, const float *x, ptrdiff_t dh0,
          const ptrdiff_t *dws, size_t ih, size_t rs, const __mmask16 mk[3][G33_MAX_NB],
          const __mmask16 *om, const float *dy, size_t dyrs, __m512 *a0, __m512 *a1)
{
    /* one v at a time: its dy vectors, not both v's, are live next to the
     * 18 accumulators (with both, gcc spilled ~30 vectors per 72 FMAs) */
#pragma GCC unroll 2
    for (int v = 0; v < 2 && v < nb; ++v) {
        __m512 *a = v == 0 ? a0 : a1;
        const int nq = (nb - v + 1) / 2; /* blocks 2q + v < nb */
        __m512 d[4][4];
#pragma GCC unroll 16
        for (int o = 0; o < nr; ++o)
#pragma GCC unroll 4
            for (int q = 0; q < nq; ++q) {
                const int b = 2 * q + v;
                const float *p = dy + (r + (size_t)o) * dyrs + (size_t)b * VL;
                d[o][q] = _mm512_maskz_loadu_ps(om[b], p);
            }
#pragma GCC unroll 16
        for (int sr = 0; sr < nr + 2; ++sr) {
            const ptrdiff_t i = (ptrdiff_t)r + dh0 + sr;
            const bool in = !edge || (i >= 0 && (size_t)i < ih);
            /* a row outside the source: every lane masked (zeros), nothing read */
            const float *xr = in ? x + (size_t)i * rs : dy;
#pragma GCC unroll 4
            for (int q = 0; q < nq; ++q) {
                const int b = 2 * q + v;
#pragma GCC unroll 16
                for (int kw = 0; kw < 3; ++kw) {
                    const __mmask16 k = in ? mk[kw][b] : 0;
                    const __m512 xv = _mm512_maskz_loadu_ps(k, in ? xr + dws[kw] + b * VL : dy);
#pragma GCC unroll 16
                    for (int kh = 0; kh < 3; ++kh) {
                        const int o = sr - kh;
                        if (o < 0 || o >= nr) continue;
                        a[3 * kh + kw] = _mm512_fmadd_ps(xv, d[o][q], a[3 * kh + kw]);
                    }
                }
            }
        }
    }
}

static inline __attribute__((always_inline)) void g33(const int nb, size_t rows, size_t ow,
                                                      const f32_dwrow_src *s, const __mmask16 *m,
                                                      const float *dy, size_t dyrs, float *acc)
{
    __m512 a0[9], a1[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t) {
        a0[t] = _mm512_loadu_ps(acc + (size_t)t * DW_ACC_LANES);
        a1[t] = _mm512_loadu_ps(acc + (size_t)t * DW_ACC_LANES + VL);
    }
    __mmask16 mk[3][G33_MAX_NB], om[G33_MAX_NB];
    const ptrdiff_t dws[3] = {s->dw[0], s->dw[1], s->dw[2]};
    for (int b = 0; b < nb; ++b) {
        for (int kw = 0; kw < 3; ++kw) mk[kw][b] = m[(size_t)(kw * nb + b)];
        om[b] = dw_lanes(0, (ptrdiff_t)ow - b * VL);
    }
    const float *x = s->x[0];
    const ptrdiff_t dh0 = s->dh[0];
    const int nr = G33_ROWS(nb);
    /* row blocks whose source rows are all inside: [r0, r1) */
    const ptrdiff_t r0 = dh0 < 0 ? -dh0 : 0, r1 = (ptrdiff_t)s->ih - dh0 - 2;
    size_t r = 0;
    while (r + (size_t)nr <= rows) {
        ukernel_prefetch_steps(&s->pf, r, r + (size_t)nr, rows);
        if ((ptrdiff_t)r >= r0 && (ptrdiff_t)r + nr <= r1)
            g33_block(nr, nb, false, r, x, dh0, dws, s->ih, s->rs, mk, om, dy, dyrs, a0, a1);
        else
            g33_block(nr, nb, true, r, x, dh0, dws, s->ih, s->rs, mk, om, dy, dyrs, a0, a1);
        r += (size_t)nr;
    }
    for (; r < rows; ++r) {
        ukernel_prefetch_steps(&s->pf, r, r + 1, rows);
        g33_block(1, nb, true, r, x, dh0, dws, s->ih, s->rs, mk, om, dy, dyrs, a0, a1);
    }
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t) {
        _mm512_storeu_ps(acc + (size_t)t * DW_ACC_LANES, a0[t]);
        _mm512_storeu_ps(acc + (size_t)t * DW_ACC_LANES + VL, a1[t]);
    }
}

/* g33_block, both column blocks, in the row-window form (dw_row_window:
 * column shifts -1, 0, +1, rows of at most ow <= 32 columns): each source
 * row is loaded once (kind: its dtype) and its shifts formed in registers,
 * zeroed past ow (om; only the -1 shift reaches a source column there). The
 * same values meet the same accumulators in the same order as g33_block's:
 * the same bits. */
static inline __attribute__((always_inline)) void
g33_block_win(const int kind, const int dkind, const int nv, const int nr, const bool edge,
              size_t r, const f32_dwrow_src *s, const dw_window_mask *m, const __mmask16 om[2],
              const float *dy, size_t dyrs, __m512 *a0, __m512 *a1)
{
    __m512 d[WR][2];
#pragma GCC unroll 16
    for (int o = 0; o < nr; ++o) {
        if (dw_src_16bit(dkind)) { /* a 16-bit row of ow values, widened */
            dw_window_load16(dkind, nv, s->dy16 + (r + (size_t)o) * dyrs,
                             (__mmask32)om[0] | (__mmask32)om[1] << 16, &d[o][0], &d[o][1]);
            continue;
        }
#pragma GCC unroll 2
        for (int v = 0; v < nv; ++v) {
            d[o][v] = _mm512_maskz_loadu_ps(om[v], dy + (r + (size_t)o) * dyrs + (size_t)v * VL);
            d[o][v] = f32x16_round(d[o][v], dw_src_round_kind(dkind));
        }
    }
#pragma GCC unroll 16
    for (int sr = 0; sr < nr + 2; ++sr) {
        const ptrdiff_t i = (ptrdiff_t)r + s->dh[0] + sr;
        const bool in = !edge || (i >= 0 && (size_t)i < s->ih);
        __m512 lo, hi;
        dw_window_load(kind, nv, in, s, i, m, &lo, &hi);
#pragma GCC unroll 16
        for (int kw = 0; kw < 3; ++kw)
#pragma GCC unroll 2
            for (int v = 0; v < nv; ++v) {
                __m512 *a = v == 0 ? a0 : a1;
                const __m512 xv = dw_window_shift(kw - 1, v, om[v], lo, hi);
#pragma GCC unroll 16
                for (int kh = 0; kh < 3; ++kh) {
                    const int o = sr - kh;
                    if (o < 0 || o >= nr) continue;
                    a[3 * kh + kw] = _mm512_fmadd_ps(xv, d[o][v], a[3 * kh + kw]);
                }
            }
    }
}

/* nv == 1: ow <= 16 (so iw <= 16), the lanes of a1 untouched */
static inline __attribute__((always_inline)) void g33_win(const int kind, const int dkind,
                                                          const int nv, size_t rows, size_t ow,
                                                          const f32_dwrow_src *s, const float *dy,
                                                          size_t dyrs, float *acc)
{
    __m512 a0[9], a1[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t) {
        a0[t] = _mm512_loadu_ps(acc + (size_t)t * DW_ACC_LANES);
        a1[t] = nv == 2 ? _mm512_loadu_ps(acc + (size_t)t * DW_ACC_LANES + VL) : a0[t];
    }
    const __mmask16 om[2] = {dw_lanes(0, (ptrdiff_t)ow), dw_lanes(0, (ptrdiff_t)ow - VL)};
    const dw_window_mask m = dw_window_mask_for(s->iw);
    const ptrdiff_t dh0 = s->dh[0];
    const ptrdiff_t r0 = dh0 < 0 ? -dh0 : 0, r1 = (ptrdiff_t)s->ih - dh0 - 2;
    size_t r = 0;
    for (; r + WR <= rows; r += WR) {
        ukernel_prefetch_steps(&s->pf, r, r + WR, rows);
        if ((ptrdiff_t)r >= r0 && (ptrdiff_t)r + WR <= r1)
            g33_block_win(kind, dkind, nv, WR, false, r, s, &m, om, dy, dyrs, a0, a1);
        else
            g33_block_win(kind, dkind, nv, WR, true, r, s, &m, om, dy, dyrs, a0, a1);
    }
    /* the last 1-3 rows one block: each of their source rows loaded once
     * (row by row, a 7x7 plane's last 3 rows loaded 9 source rows, not 5) */
    ukernel_prefetch_steps(&s->pf, r, rows, rows);
    _Static_assert(WR == 4, "the tail blocks below take 1 to 3 rows");
    switch (rows - r) {
    case 3: g33_block_win(kind, dkind, nv, 3, true, r, s, &m, om, dy, dyrs, a0, a1); break;
    case 2: g33_block_win(kind, dkind, nv, 2, true, r, s, &m, om, dy, dyrs, a0, a1); break;
    case 1: g33_block_win(kind, dkind, nv, 1, true, r, s, &m, om, dy, dyrs, a0, a1); break;
    default: break;
    }
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t) {
        _mm512_storeu_ps(acc + (size_t)t * DW_ACC_LANES, a0[t]);
        if (nv == 2) _mm512_storeu_ps(acc + (size_t)t * DW_ACC_LANES + VL, a1[t]);
    }
}

/* The row-window form for bf16 x and dy in column phases
 * (dw_window__avx512.h): the sums of the even and of the odd columns are
 * two vectors per tap, no widening shuffle, one valignd per x row each way;
 * permuted between acc's column order and the phases once per call. Every
 * lane meets the values of its column in the same order as in
 * g33_block_win (x zeroed where that one's is), so the same bits. */
static inline __attribute__((always_inline)) void
g33_block_eo(const int nr, const bool edge, size_t r, const f32_dwrow_src *s, size_t dyrs,
             __mmask32 xm, __mmask32 dm, const __mmask16 keep[2], __m512 *ae, __m512 *ao)
{
    __m512 d[WR][2];
#pragma GCC unroll 16
    for (int o = 0; o < nr; ++o)
        dw_phases_load(s->dy16 + (r + (size_t)o) * dyrs, dm, &d[o][0], &d[o][1]);
#pragma GCC unroll 16
    for (int sr = 0; sr < nr + 2; ++sr) {
        const ptrdiff_t i = (ptrdiff_t)r + s->dh[0] + sr;
        const bool in = !edge || (i >= 0 && (size_t)i < s->ih);
        __m512 xe, xo;
        dw_phases_load(in ? s->x16 + i * (ptrdiff_t)s->rs : s->x16, in ? xm : 0, &xe, &xo);
#pragma GCC unroll 16
        for (int kw = 0; kw < 3; ++kw)
#pragma GCC unroll 2
            for (int ph = 0; ph < 2; ++ph) {
                __m512 *a = ph == 0 ? ae : ao;
                const __m512 xv = dw_phase_shift(kw - 1, ph, keep[ph], xe, xo);
#pragma GCC unroll 16
                for (int kh = 0; kh < 3; ++kh) {
                    const int o = sr - kh;
                    if (o < 0 || o >= nr) continue;
                    a[3 * kh + kw] = _mm512_fmadd_ps(xv, d[o][ph], a[3 * kh + kw]);
                }
            }
    }
}

static __attribute__((noinline)) void g33_win_eo(size_t rows, size_t ow, const f32_dwrow_src *s,
                                                 const float *dy, size_t dyrs, float *acc)
{
    (void)dy; /* dy is s->dy16, rows dyrs apart (dw_ukernels.h) */
    __m512 ae[9], ao[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t)
        dw_phases_split(_mm512_loadu_ps(acc + (size_t)t * DW_ACC_LANES),
                        _mm512_loadu_ps(acc + (size_t)t * DW_ACC_LANES + VL), &ae[t], &ao[t]);
    const __mmask32 xm = dw_window_mask_for(s->iw).h16;
    const __mmask32 dm = (__mmask32)(ow >= 32 ? 0xffffffffu : (1u << ow) - 1u);
    /* lanes l of the even / odd phase whose column (2l, 2l + 1) is below ow */
    const __mmask16 keep[2] = {dw_lanes(0, ((ptrdiff_t)ow + 1) / 2),
                               dw_lanes(0, (ptrdiff_t)ow / 2)};
    const ptrdiff_t dh0 = s->dh[0];
    const ptrdiff_t r0 = dh0 < 0 ? -dh0 : 0, r1 = (ptrdiff_t)s->ih - dh0 - 2;
    size_t r = 0;
    for (; r + WR <= rows; r += WR) {
        ukernel_prefetch_steps(&s->pf, r, r + WR, rows);
        if ((ptrdiff_t)r >= r0 && (ptrdiff_t)r + WR <= r1)
            g33_block_eo(WR, false, r, s, dyrs, xm, dm, keep, ae, ao);
        else
            g33_block_eo(WR, true, r, s, dyrs, xm, dm, keep, ae, ao);
    }
    for (; r < rows; ++r) {
        ukernel_prefetch_steps(&s->pf, r, r + 1, rows);
        g33_block_eo(1, true, r, s, dyrs, xm, dm, keep, ae, ao);
    }
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t) {
        __m512 c0, c1;
        dw_phases_merge(ae[t], ao[t], &c0, &c1);
        _mm512_storeu_ps(acc + (size_t)t * DW_ACC_LANES, c0);
        _mm512_storeu_ps(acc + (size_t)t * DW_ACC_LANES + VL, c1);
    }
}

typedef void (*g33_win_fn)(size_t rows, size_t ow, const f32_dwrow_src *s, const float *dy,
                           size_t dyrs, float *acc);
#define DW_G33_WIN(kind, dkind, name)                                                              \
    static __attribute__((noinline)) void name(size_t rows, size_t ow, const f32_dwrow_src *s,     \
                                               const float *dy, size_t dyrs, float *acc)           \
    {                                                                                              \
        if (ow <= VL)                                                                              \
            g33_win(kind, dkind, 1, rows, ow, s, dy, dyrs, acc);                                   \
        else                                                                                       \
            g33_win(kind, dkind, 2, rows, ow, s, dy, dyrs, acc);                                   \
    }
DW_G33_WIN(DW_SRC_F32, DW_SRC_F32, g33_win_f32)
DW_G33_WIN(DW_SRC_BF16, DW_SRC_F32, g33_win_bf16)
DW_G33_WIN(DW_SRC_F16, DW_SRC_F32, g33_win_f16)
DW_G33_WIN(DW_SRC_F16, DW_SRC_F16, g33_win_f16_dy16)
DW_G33_WIN(DW_SRC_F32_F16, DW_SRC_F32, g33_win_round)
DW_G33_WIN(DW_SRC_F32_F16, DW_SRC_F32_F16, g33_win_round_dy)
DW_G33_WIN(DW_SRC_F32_HF32, DW_SRC_F32, g33_win_hf32)
DW_G33_WIN(DW_SRC_F32_HF32, DW_SRC_F32_HF32, g33_win_hf32_dy)
#undef DW_G33_WIN

typedef void (*g33_fn)(size_t rows, size_t ow, const f32_dwrow_src *s, const __mmask16 *m,
                       const float *dy, size_t dyrs, float *acc);
#define DW_G33(nb)                                                                                 \
    static __attribute__((noinline)) void g33_nb##nb(size_t rows, size_t ow,                     \
                                                     const f32_dwrow_src *s, const __mmask16 *m,  \
                                                     const float *dy, size_t dyrs, float *acc)    \
    {                                                                                              \
        g33(nb, rows, ow, s, m, dy, dyrs, acc);                                                    \
    }
DW_G33(1)
DW_G33(2)
DW_G33(3)
DW_G33(4)
DW_G33(5)
DW_G33(6)
DW_G33(7)
DW_G33(8)
#undef DW_G33

/* Whether the taps are a 3x3 grid on one plane: t = 3*kh + kw at row offset
 * dh[0] + kh and column offset dw[kw]. */
static bool grid33(const f32_dwrow_src *s)
{
    if (s->nt != 9 || s->x[0] == NULL) return false;
    for (size_t t = 0; t < 9; ++t)
        if (s->x[t] != s->x[0] || s->dh[t] != s->dh[0] + (ptrdiff_t)(t / 3) ||
            s->dw[t] != s->dw[t % 3])
            return false;
    return true;
}

void f32_dwrowwt_ukernel_12x32__avx512(size_t rows, size_t ow, const f32_dwrow_src *s,
                                       const float *dy, size_t dyrs, float *acc)
{
    const size_t nb = (ow + VL - 1) / VL, nt = s->nt;
    __mmask16 m[DW_ROW_MASKS];
    /* the row-window form, which needs no masks (the only one for a
     * source converted as it is loaded) */
    if (dw_row_window(s, ow, true) != 0) {
        /* dy converted only with x converted alike (dw_ukernels.h) */
        static const g33_win_fn fns[DW_SRC_KINDS][2] = {{g33_win_f32, NULL},
                                                        {g33_win_bf16, g33_win_eo},
                                                        {g33_win_f16, g33_win_f16_dy16},
                                                        {g33_win_round, g33_win_round_dy},
                                                        {g33_win_hf32, g33_win_hf32_dy}};
        fns[s->src_kind][s->dy_kind != DW_SRC_F32](rows, ow, s, dy, dyrs, acc);
        return;
    }
    if (nb <= G33_MAX_NB && grid33(s)) { /* the 3x3 path uses the masks of taps 0..2 (kh = 0) */
        static const g33_fn fns[G33_MAX_NB] = {g33_nb1, g33_nb2, g33_nb3, g33_nb4,
                                               g33_nb5, g33_nb6, g33_nb7, g33_nb8};
        dw_col_masks(s, ow, nb, 3, m);
        fns[nb - 1](rows, ow, s, m, dy, dyrs, acc);
        return;
    }
    dw_col_masks(s, ow, nb, nt, m);
    size_t t = 0;
    for (; t + TG <= nt; t += TG)
        sweep(TG, t, rows, ow, nb, s, m, dy, dyrs, acc);
    switch (nt - t) {
#define DW_TAIL(k)                                                                                 \
    case k: sweep(k, t, rows, ow, nb, s, m, dy, dyrs, acc); break;
        DW_TAIL(1)
        DW_TAIL(2) DW_TAIL(3) DW_TAIL(4) DW_TAIL(5) DW_TAIL(6) DW_TAIL(7) DW_TAIL(8) DW_TAIL(9)
            DW_TAIL(10) DW_TAIL(11)
#undef DW_TAIL
                default : break;
    }
}
