/* AVX-512 in-place depthwise correlation: blocks of 4 output rows x 32
 * columns (8 independent accumulators, so the FMA latency is hidden), the
 * taps' source rows read where they lie with masked loads (padding columns
 * and rows read as zeros without touching memory). Rows whose taps all fall
 * inside the source take the 4-row blocks; the others (the top and bottom
 * padding) one row at a time. 3x3 taps take a 3x3 path, over rows of at
 * most 32 columns with shifts -1, 0, +1 the row-window form (blocks of 4
 * rows, each source row loaded once and shifted in registers; the only form
 * that converts a 16-bit or rounded source as it loads it). */
#include <immintrin.h>

#include "kernels/avx512/dw_window__avx512.h"
#include "kernels/dw_ukernels.h"

#define VL 16
#define RB 4
/* row-window form: rows per block, the rest of a plane one block of 1-3
 * rows. 8 accumulators: 4 rows ran faster than 7 (14 accumulators; each
 * source row then feeds more of them, but the block's 9 weights, the
 * window and its shifts no longer fit the registers next to them): dw_3x3's
 * plane in L1, fp32 56 -> 66% of the peak, bf16 52 -> 59% (2, 3, 5, 6 and 8
 * rows: 50-57%) */
#define WR 4

/* Rows r .. r + nr - 1 (nr = RB, or 1 for a row with taps outside the
 * source), column blocks b and b + 1 (nv = 2) or b (nv = 1). */
static inline __attribute__((always_inline)) void block(const int nr, const int nv, size_t r,
                                                        size_t b, size_t nb, const f32_dwrow_src *s,
                                                        const float *w, const __mmask16 *m,
                                                        float *y, size_t yrs, size_t ow)
{
    __m512 a[RB][2];
#pragma GCC unroll 16
    for (int i = 0; i < nr; ++i)
#pragma GCC unroll 16
        for (int v = 0; v < nv; ++v)
            a[i][v] = _mm512_setzero_ps();
    const size_t j = b * VL;
    for (size_t t = 0; t < s->nt; ++t) {
        const __m512 wv = _mm512_set1_ps(w[t]);
        const __mmask16 m0 = m[t * nb + b], m1 = nv == 2 ? m[t * nb + b + 1] : 0;
        const ptrdiff_t i0 = (ptrdiff_t)r + s->dh[t];
        if (nr == RB) { /* every row inside the source (the caller checked) */
            const float *p = s->x[t] + (size_t)i0 * s->rs + j + s->dw[t];
#pragma GCC unroll 16
            for (int i = 0; i < RB; ++i) {
                a[i][0] = _mm512_fmadd_ps(wv, _mm512_maskz_loadu_ps(m0, p + i * s->rs), a[i][0]);
                if (nv == 2)
                    a[i][1] =
                        _mm512_fmadd_ps(wv, _mm512_maskz_loadu_ps(m1, p + i * s->rs + VL), a[i][1]);
            }
        } else {
            const bool in = s->x[t] != NULL && i0 >= 0 && (size_t)i0 < s->ih;
            /* outside: all lanes masked, nothing is read */
            const float *p = in ? s->x[t] + (size_t)i0 * s->rs + j + s->dw[t] : w;
            a[0][0] = _mm512_fmadd_ps(wv, _mm512_maskz_loadu_ps(in ? m0 : 0, p), a[0][0]);
            if (nv == 2)
                a[0][1] = _mm512_fmadd_ps(wv, _mm512_maskz_loadu_ps(in ? m1 : 0, in ? p + VL : w),
                                          a[0][1]);
        }
    }
    const __mmask16 o0 = dw_lanes(0, (ptrdiff_t)(ow - j)), o1 = dw_lanes(0, (ptrdiff_t)(ow - j) - VL);
#pragma GCC unroll 16
    for (int i = 0; i < nr; ++i) {
        float *yr = y + (r + (size_t)i) * yrs + j;
        _mm512_mask_storeu_ps(yr, o0, a[i][0]);
        if (nv == 2) _mm512_mask_storeu_ps(yr + VL, o1, a[i][1]);
    }
}

static inline __attribute__((always_inline)) void row_blocks(const int nr, size_t r, size_t nb,
                                                             const f32_dwrow_src *s, const float *w,
                                                             const __mmask16 *m, float *y,
                                                             size_t yrs, size_t ow)
{
    size_t b = 0;
    for (; b + 2 <= nb; b += 2)
        block(nr, 2, r, b, nb, s, w, m, y, yrs, ow);
    if (b < nb) block(nr, 1, r, b, nb, s, w, m, y, yrs, ow);
}

/* ---- 3x3 taps on one source plane, rows of at most 32 columns ----------
 * Tap (kh, kw) = t = 3*kh + kw reads source row r + dh0 + step*kh (step +1
 * for F, -1 for D) at column shift dw[kw]. Output rows go in blocks of R:
 * each of the R + 2 source rows is loaded once per shift and block (6
 * masked loads, mostly cache-line splits) and feeds every output row that
 * uses it, ~2.5x fewer loads than per-tap rows. Source rows are visited in
 * the order that gives each output element its taps in ascending t (kh
 * ascending, then kw): the dwconv order. */
static inline __attribute__((always_inline)) void
g33_block(const int nr, const int nv, const int step, const bool edge, size_t r, const float *x,
          ptrdiff_t dh0, const ptrdiff_t *dws, size_t ih, size_t rs, const __mmask16 mk[3][2],
          const __m512 *wv, const float *dummy, __m512 a[4][2])
{
#pragma GCC unroll 16
    for (int o = 0; o < nr; ++o)
#pragma GCC unroll 16
        for (int v = 0; v < nv; ++v)
            a[o][v] = _mm512_setzero_ps();
#pragma GCC unroll 16
    for (int u = 0; u < nr + 2; ++u) {
        /* step +1: source row r + dh0 + u serves (o, kh = u - o);
         * step -1: source row r + dh0 + (nr - 1) - u serves (o, kh = u + o - (nr - 1)) */
        const ptrdiff_t i = (ptrdiff_t)r + dh0 + (step > 0 ? u : nr - 1 - u);
        const bool in = !edge || (i >= 0 && (size_t)i < ih);
        /* a row outside the source: every lane masked (zeros), nothing read */
        const float *xr = in ? x + (size_t)i * rs : dummy;
#pragma GCC unroll 16
        for (int kw = 0; kw < 3; ++kw)
#pragma GCC unroll 16
            for (int v = 0; v < nv; ++v) {
                const __mmask16 k = in ? mk[kw][v] : 0;
                const __m512 xv = _mm512_maskz_loadu_ps(k, in ? xr + dws[kw] + v * VL : dummy);
#pragma GCC unroll 16
                for (int o = 0; o < nr; ++o) {
                    const int kh = step > 0 ? u - o : u + o - (nr - 1);
                    if (kh < 0 || kh > 2) continue;
                    a[o][v] = _mm512_fmadd_ps(wv[3 * kh + kw], xv, a[o][v]);
                }
            }
    }
}

/* g33_block, both column blocks, in the row-window form (dw_row_window:
 * column shifts step*(kw - 1), rows of at most 32 columns): each source row
 * is loaded once (kind: its dtype) and its shifts formed in registers. The
 * same values meet the same accumulators in the same order as g33_block's:
 * the same bits. A bf16 source stays in column phases (dw_phases_load): a
 * block's results are then the even and the odd columns (a[o][0], a[o][1]),
 * merged as they are stored (g33_store_win); in cache 60 -> 63-65% of the
 * peak. */
static inline __attribute__((always_inline)) void
g33_block_win(const int kind, const int nv, const int nr, const int step, const bool edge, size_t r,
              const f32_dwrow_src *s, const dw_window_mask *m, const __m512 *wv, __m512 a[WR][2])
{
#pragma GCC unroll 16
    for (int o = 0; o < nr; ++o)
#pragma GCC unroll 16
        for (int v = 0; v < nv; ++v)
            a[o][v] = _mm512_setzero_ps();
#pragma GCC unroll 16
    for (int u = 0; u < nr + 2; ++u) {
        const ptrdiff_t i = (ptrdiff_t)r + s->dh[0] + (step > 0 ? u : nr - 1 - u);
        const bool in = !edge || (i >= 0 && (size_t)i < s->ih);
        __m512 lo, hi;
        if (kind == DW_SRC_BF16)
            dw_phases_load(in ? s->x16 + i * (ptrdiff_t)s->rs : s->x16, in ? m->h16 : 0, &lo, &hi);
        else
            dw_window_load(kind, nv, in, s, i, m, &lo, &hi);
#pragma GCC unroll 16
        for (int kw = 0; kw < 3; ++kw)
#pragma GCC unroll 16
            for (int v = 0; v < nv; ++v) {
                /* lanes past ow are not stored: no mask */
                const __m512 xv = kind == DW_SRC_BF16
                                      ? dw_phase_shift(step * (kw - 1), v, 0xffff, lo, hi)
                                      : dw_window_shift(step * (kw - 1), v, 0xffff, lo, hi);
#pragma GCC unroll 16
                for (int o = 0; o < nr; ++o) {
                    const int kh = step > 0 ? u - o : u + o - (nr - 1);
                    if (kh < 0 || kh > 2) continue;
                    a[o][v] = _mm512_fmadd_ps(wv[3 * kh + kw], xv, a[o][v]);
                }
            }
    }
}

static inline __attribute__((always_inline)) void g33_store(const int nr, const int nv, size_t r,
                                                            const __m512 (*a)[2],
                                                            const __mmask16 om[2], float *y,
                                                            size_t yrs)
{
#pragma GCC unroll 16
    for (int o = 0; o < nr; ++o)
#pragma GCC unroll 16
        for (int v = 0; v < nv; ++v)
            _mm512_mask_storeu_ps(y + (r + (size_t)o) * yrs + (size_t)v * VL, om[v], a[o][v]);
}

/* Column strip q (columns [32q, 32q + 32)) of a row block: its blocks'
 * masks, its nv (1 for a last strip of one block) and its results' lanes. */
typedef struct g33_strip {
    __mmask16 mk[3][2], om[2];
    int nv;
} g33_strip;

static inline __attribute__((always_inline)) g33_strip strip_at(size_t q, size_t ow,
                                                                const __mmask16 *m, size_t nb)
{
    g33_strip st;
    for (int kw = 0; kw < 3; ++kw)
        for (size_t v = 0; v < 2; ++v)
            st.mk[kw][v] = 2 * q + v < nb ? m[(size_t)kw * nb + 2 * q + v] : 0;
    st.om[0] = dw_lanes(0, (ptrdiff_t)ow - (ptrdiff_t)(32 * q));
    st.om[1] = dw_lanes(0, (ptrdiff_t)ow - (ptrdiff_t)(32 * q) - VL);
    st.nv = 2 * q + 1 < nb ? 2 : 1;
    return st;
}

/* nv: 1 or 2, rows of one strip of nv blocks; 0: any nb, the strips of a
 * row block one after another (each output element sums its own taps, so
 * the strips' order changes no bits). */
static inline __attribute__((always_inline)) void g33(const int nv, const int step, size_t rows,
                                                      size_t ow, const f32_dwrow_src *s,
                                                      const __mmask16 *m, size_t nb, const float *w,
                                                      float *y, size_t yrs)
{
    __m512 wv[9];
    for (int t = 0; t < 9; ++t)
        wv[t] = _mm512_set1_ps(w[t]);
    const size_t ns = nv != 0 ? 1 : (nb + 1) / 2;
    const ptrdiff_t dws[3] = {s->dw[0], s->dw[1], s->dw[2]};
    const float *x = s->x[0];
    const ptrdiff_t dh0 = s->dh[0];
    /* a block of 4 rows reads source rows r + lo .. r + lo + 5 */
    const ptrdiff_t lo = step > 0 ? dh0 : dh0 - 2;
    /* a block's results are stored after the next block's loads: stored
     * right away, they stood between those loads and the source rows at
     * addresses that look alike in their low bits (gradInput and dy planes
     * at the same offsets), and the loads waited on them (in cache: 48 -> 75
     * GFLOP/s, depending on where gradInput lies against dy) */
    __m512 a[4][2], prev[4][2];
    /* set so that gcc sees them set before the first store (r > 0); a strip
     * of one block leaves a[.][1] zero, stored under an empty mask */
#pragma GCC unroll 16
    for (int o = 0; o < 4; ++o)
#pragma GCC unroll 16
        for (int v = 0; v < 2; ++v)
            a[o][v] = prev[o][v] = _mm512_setzero_ps();
    g33_strip pst = strip_at(0, ow, m, nb);
    size_t pj = 0; /* prev's first row and column */
    bool pending = false;
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        ukernel_prefetch_steps(&s->pf, r, r + 4, rows);
        const ptrdiff_t first = (ptrdiff_t)r + lo;
        const bool inner = first >= 0 && first + 5 < (ptrdiff_t)s->ih;
        for (size_t q = 0; q < ns; ++q) {
            const g33_strip st = strip_at(q, ow, m, nb);
            const float *xq = x + 32 * q;
            if (nv == 1 || (nv == 0 && st.nv == 1)) {
                if (inner)
                    g33_block(4, 1, step, false, r, xq, dh0, dws, s->ih, s->rs, st.mk, wv, w, a);
                else
                    g33_block(4, 1, step, true, r, xq, dh0, dws, s->ih, s->rs, st.mk, wv, w, a);
            } else {
                if (inner)
                    g33_block(4, 2, step, false, r, xq, dh0, dws, s->ih, s->rs, st.mk, wv, w, a);
                else
                    g33_block(4, 2, step, true, r, xq, dh0, dws, s->ih, s->rs, st.mk, wv, w, a);
            }
            if (pending) g33_store(4, nv == 1 ? 1 : 2, 0, prev, pst.om, y + pj, yrs);
#pragma GCC unroll 16
            for (int o = 0; o < 4; ++o)
#pragma GCC unroll 16
                for (int v = 0; v < 2; ++v)
                    prev[o][v] = a[o][v];
            pst = st;
            pj = r * yrs + 32 * q;
            pending = true;
        }
    }
    if (pending) g33_store(4, nv == 1 ? 1 : 2, 0, prev, pst.om, y + pj, yrs);
    for (; r < rows; ++r) {
        ukernel_prefetch_steps(&s->pf, r, r + 1, rows);
        for (size_t q = 0; q < ns; ++q) {
            const g33_strip st = strip_at(q, ow, m, nb);
            const float *xq = x + 32 * q;
            if (nv == 1 || (nv == 0 && st.nv == 1))
                g33_block(1, 1, step, true, r, xq, dh0, dws, s->ih, s->rs, st.mk, wv, w, a);
            else
                g33_block(1, 2, step, true, r, xq, dh0, dws, s->ih, s->rs, st.mk, wv, w, a);
            g33_store(1, nv == 1 ? 1 : 2, r, a, st.om, y + 32 * q, yrs);
        }
    }
}

/* g33_store of a g33_block_win block (kind: its source's; bf16: the
 * results in column phases, merged first). */
static inline __attribute__((always_inline)) void g33_store_win(const int kind, const int nv,
                                                                const int nr, size_t r,
                                                                __m512 (*a)[2],
                                                                const __mmask16 om[2], float *y,
                                                                size_t yrs)
{
    if (kind == DW_SRC_BF16)
#pragma GCC unroll 16
        for (int o = 0; o < nr; ++o)
            dw_phases_merge(a[o][0], a[o][1], &a[o][0], &a[o][1]);
    g33_store(nr, nv, r, (const __m512(*)[2])a, om, y, yrs);
}

/* A last block of nr < WR rows (rows r .. r + nr - 1) of g33_win. */
static inline __attribute__((always_inline)) void
g33_win_tail(const int kind, const int nv, const int nr, const int step, size_t r, size_t rows,
             const f32_dwrow_src *s, const dw_window_mask *m, const __m512 *wv,
             const __mmask16 om[2], float *y, size_t yrs)
{
    __m512 a[WR][2];
    ukernel_prefetch_steps(&s->pf, r, r + (size_t)nr, rows);
    g33_block_win(kind, nv, nr, step, true, r, s, m, wv, a);
    g33_store_win(kind, nv, nr, r, a, om, y, yrs);
}

/* g33 in the row-window form (g33_block_win), blocks of WR rows stored
 * right after their loads; nv == 1: ow <= 16 and iw <= 16, one vector a
 * row (a bf16 source keeps both column phases: nv 2) */
static inline __attribute__((always_inline)) void g33_win(const int kind, const int nv,
                                                          const int step, size_t rows, size_t ow,
                                                          const f32_dwrow_src *s, const float *w,
                                                          float *y, size_t yrs)
{
    __m512 wv[9];
    for (int t = 0; t < 9; ++t)
        wv[t] = _mm512_set1_ps(w[t]);
    const __mmask16 om[2] = {dw_lanes(0, (ptrdiff_t)ow), dw_lanes(0, (ptrdiff_t)ow - VL)};
    const dw_window_mask m = dw_window_mask_for(s->iw);
    const ptrdiff_t lo = step > 0 ? s->dh[0] : s->dh[0] - 2;
    __m512 a[WR][2];
    size_t r = 0;
    for (; r + WR <= rows; r += WR) {
        ukernel_prefetch_steps(&s->pf, r, r + WR, rows);
        const ptrdiff_t first = (ptrdiff_t)r + lo;
        if (first >= 0 && first + WR + 1 < (ptrdiff_t)s->ih)
            g33_block_win(kind, nv, WR, step, false, r, s, &m, wv, a);
        else
            g33_block_win(kind, nv, WR, step, true, r, s, &m, wv, a);
        g33_store_win(kind, nv, WR, r, a, om, y, yrs);
    }
    _Static_assert(WR == 4, "the tail blocks below take 1 to 3 rows");
    switch (rows - r) {
    case 3: g33_win_tail(kind, nv, 3, step, r, rows, s, &m, wv, om, y, yrs); break;
    case 2: g33_win_tail(kind, nv, 2, step, r, rows, s, &m, wv, om, y, yrs); break;
    case 1: g33_win_tail(kind, nv, 1, step, r, rows, s, &m, wv, om, y, yrs); break;
    default: break;
    }
}

typedef void (*g33_win_fn)(size_t rows, size_t ow, const f32_dwrow_src *s, const float *w, float *y,
                           size_t yrs);
#define DW_G33_WIN(kind, step, name)                                                               \
    static __attribute__((noinline)) void name(size_t rows, size_t ow, const f32_dwrow_src *s,     \
                                               const float *w, float *y, size_t yrs)               \
    {                                                                                              \
        if (kind != DW_SRC_BF16 && ow <= VL && s->iw <= VL)                                        \
            g33_win(kind, 1, step, rows, ow, s, w, y, yrs);                                        \
        else                                                                                       \
            g33_win(kind, 2, step, rows, ow, s, w, y, yrs);                                        \
    }
DW_G33_WIN(DW_SRC_F32, 1, g33_win_up)
DW_G33_WIN(DW_SRC_F32, -1, g33_win_down)
DW_G33_WIN(DW_SRC_BF16, 1, g33_win_up_bf16)
DW_G33_WIN(DW_SRC_BF16, -1, g33_win_down_bf16)
DW_G33_WIN(DW_SRC_F16, 1, g33_win_up_f16)
DW_G33_WIN(DW_SRC_F16, -1, g33_win_down_f16)
DW_G33_WIN(DW_SRC_F32_F16, 1, g33_win_up_round)
DW_G33_WIN(DW_SRC_F32_F16, -1, g33_win_down_round)
DW_G33_WIN(DW_SRC_F32_HF32, 1, g33_win_up_hf32)
DW_G33_WIN(DW_SRC_F32_HF32, -1, g33_win_down_hf32)
#undef DW_G33_WIN

#define DW_G33(nv, step, name)                                                                     \
    static __attribute__((noinline)) void name(size_t rows, size_t ow, const f32_dwrow_src *s,     \
                                               const __mmask16 *m, size_t nb, const float *w,      \
                                               float *y, size_t yrs)                               \
    {                                                                                              \
        g33(nv, step, rows, ow, s, m, nb, w, y, yrs);                                              \
    }
DW_G33(2, 1, g33_nv2_up)
DW_G33(1, 1, g33_nv1_up)
DW_G33(0, 1, g33_wide_up)
DW_G33(2, -1, g33_nv2_down)
DW_G33(1, -1, g33_nv1_down)
DW_G33(0, -1, g33_wide_down)
#undef DW_G33
typedef void (*g33_fn)(size_t rows, size_t ow, const f32_dwrow_src *s, const __mmask16 *m,
                       size_t nb, const float *w, float *y, size_t yrs);

/* +1 / -1 when the taps are a 3x3 grid on one plane (t = 3*kh + kw at row
 * offset dh[0] + step*kh, column offset dw[kw]), else 0. */
static int grid33(const f32_dwrow_src *s)
{
    if (s->nt != 9 || s->x[0] == NULL) return 0;
    const ptrdiff_t step = s->dh[3] - s->dh[0];
    if (step != 1 && step != -1) return 0;
    for (size_t t = 0; t < 9; ++t)
        if (s->x[t] != s->x[0] || s->dh[t] != s->dh[0] + step * (ptrdiff_t)(t / 3) ||
            s->dw[t] != s->dw[t % 3])
            return 0;
    return (int)step;
}

void f32_dwrow_ukernel_4x32__avx512(size_t rows, size_t ow, const f32_dwrow_src *s, const float *w,
                                    float *y, size_t yrs)
{
    const size_t nb = (ow + VL - 1) / VL, nt = s->nt;
    __mmask16 m[DW_ROW_MASKS];
    /* the row-window form, which needs no masks (the only one for a
     * source converted as it is loaded) */
    const int win = dw_row_window(s, ow, false);
    if (win != 0) {
        static const g33_win_fn fns[DW_SRC_KINDS][2] = {{g33_win_down, g33_win_up},
                                                        {g33_win_down_bf16, g33_win_up_bf16},
                                                        {g33_win_down_f16, g33_win_up_f16},
                                                        {g33_win_down_round, g33_win_up_round},
                                                        {g33_win_down_hf32, g33_win_up_hf32}};
        fns[s->src_kind][win > 0](rows, ow, s, w, y, yrs);
        return;
    }
    const int step = grid33(s);
    if (step != 0) { /* the 3x3 path uses the masks of taps 0..2 (kh = 0) */
        static const g33_fn fns[2][3] = {{g33_wide_down, g33_nv1_down, g33_nv2_down},
                                         {g33_wide_up, g33_nv1_up, g33_nv2_up}};
        dw_col_masks(s, ow, nb, 3, m);
        fns[step > 0][nb <= 2 ? nb : 0](rows, ow, s, m, nb, w, y, yrs);
        return;
    }
    dw_col_masks(s, ow, nb, nt, m);
    /* rows r with r + dh[t] inside the source for every tap: [r0, r1) */
    ptrdiff_t r0 = 0, r1 = (ptrdiff_t)rows;
    for (size_t t = 0; t < nt; ++t) {
        if (s->x[t] == NULL) r1 = 0;
        if (-s->dh[t] > r0) r0 = -s->dh[t];
        if ((ptrdiff_t)s->ih - s->dh[t] < r1) r1 = (ptrdiff_t)s->ih - s->dh[t];
    }
    size_t r = 0;
    while (r < rows) {
        if ((ptrdiff_t)r >= r0 && (ptrdiff_t)r + RB <= r1) {
            ukernel_prefetch_steps(&s->pf, r, r + RB, rows);
            row_blocks(RB, r, nb, s, w, m, y, yrs, ow);
            r += RB;
        } else {
            ukernel_prefetch_steps(&s->pf, r, r + 1, rows);
            row_blocks(1, r, nb, s, w, m, y, yrs, ow);
            r += 1;
        }
    }
}
