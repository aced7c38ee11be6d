/* AVX2+FMA in-place depthwise correlation: blocks of 4 output rows x 16
 * columns (8 independent accumulators), the taps' source rows read where
 * they lie with masked loads (padding columns and rows read as zeros without
 * touching memory). Rows whose taps all fall inside the source take the 4-row
 * blocks; the others one row at a time. 3x3 taps on one plane with column
 * shifts -1, 0, +1 over rows of at most 32 columns take a 3x3 path (g33):
 * each source row loaded once per shift and row block, its masks computed
 * once per call. */
#include <immintrin.h>

#include "kernels/avx2/dw_g33__avx2.h"
#include "kernels/dw_ukernels.h"

#define VL 8
#define RB 4

static inline __attribute__((always_inline)) void block(const int nr, const int nv, size_t r,
                                                        size_t b, size_t nb, const f32_dwrow_src *s,
                                                        const float *w, const unsigned char *m,
                                                        float *y, size_t yrs, size_t ow)
{
    __m256 a[RB][2];
#pragma GCC unroll 16
    for (int i = 0; i < nr; ++i)
#pragma GCC unroll 16
        for (int v = 0; v < nv; ++v)
            a[i][v] = _mm256_setzero_ps();
    const size_t j = b * VL;
    for (size_t t = 0; t < s->nt; ++t) {
        const __m256 wv = _mm256_set1_ps(w[t]);
        const ptrdiff_t i0 = (ptrdiff_t)r + s->dh[t];
        if (nr == RB) { /* every row inside the source (the caller checked) */
            const __m256i m0 = dw8_vmask(m[t * nb + b]);
            const __m256i m1 = dw8_vmask(nv == 2 ? m[t * nb + b + 1] : 0);
            const float *p = s->x[t] + (size_t)i0 * s->rs + j + s->dw[t];
#pragma GCC unroll 16
            for (int i = 0; i < RB; ++i) {
                a[i][0] = _mm256_fmadd_ps(wv, _mm256_maskload_ps(p + i * s->rs, m0), a[i][0]);
                if (nv == 2)
                    a[i][1] =
                        _mm256_fmadd_ps(wv, _mm256_maskload_ps(p + i * s->rs + VL, m1), a[i][1]);
            }
        } else {
            const bool in = s->x[t] != NULL && i0 >= 0 && (size_t)i0 < s->ih;
            /* outside: all lanes masked, nothing is read */
            const __m256i m0 = dw8_vmask(in ? m[t * nb + b] : 0);
            const __m256i m1 = dw8_vmask(in && nv == 2 ? m[t * nb + b + 1] : 0);
            const float *p = in ? s->x[t] + (size_t)i0 * s->rs + j + s->dw[t] : w;
            a[0][0] = _mm256_fmadd_ps(wv, _mm256_maskload_ps(p, m0), a[0][0]);
            if (nv == 2)
                a[0][1] = _mm256_fmadd_ps(wv, _mm256_maskload_ps(in ? p + VL : w, m1), a[0][1]);
        }
    }
#pragma GCC unroll 16
    for (int i = 0; i < nr; ++i) {
        float *yr = y + (r + (size_t)i) * yrs + j;
        avx2_store_n(yr, (ptrdiff_t)(ow - j), a[i][0]);
        if (nv == 2) avx2_store_n(yr + VL, (ptrdiff_t)(ow - j) - VL, a[i][1]);
    }
}

static inline __attribute__((always_inline)) void row_blocks(const int nr, size_t r, size_t nb,
                                                             const f32_dwrow_src *s, const float *w,
                                                             const unsigned char *m, float *y,
                                                             size_t yrs, size_t ow)
{
    size_t b = 0;
    for (; b + 2 <= nb; b += 2)
        block(nr, 2, r, b, nb, s, w, m, y, yrs, ow);
    if (b < nb) block(nr, 1, r, b, nb, s, w, m, y, yrs, ow);
}

/* ---- 3x3 taps on one source plane ---------------------------------------
 * Tap (kh, kw) = t = 3*kh + kw reads source row r + dh0 + step*kh (step +1
 * or -1) at column shift step*(kw - 1) (dw_window_taps, rows of at most
 * DW_AVX2_G33_MAX_OW columns). Output rows go in blocks of 4, column blocks
 * in pairs (8 accumulators; the 9 weights mostly in registers next to
 * them), the pairs of a row one after another (each output sums its own
 * taps: their order changes no bits): each source row is loaded once per
 * shift and column block and feeds every output row that uses it, where
 * the generic blocks load each tap's rows (and build each mask from its
 * bits) per use. Only the first block's -1 shift and the last block load
 * with masks (g33_masked). Source rows are visited in the order that gives
 * each output element its taps in ascending t: the dwconv order, so the
 * generic path's bits. All 4 column blocks of a 32-column row at once in
 * blocks of 3 rows (12 accumulators) ran ~30% slower in cache: gcc kept
 * the weights in registers and spilled the accumulators. */

/* Rows r .. r + nr - 1 of column blocks v0 .. v0 + nv - 1: first, v0 is
 * block 0; last, v0 + nv - 1 is the row's last block. edge: some source row
 * may be outside (its terms then multiply zeros, nothing is read). */
static inline __attribute__((always_inline)) void
g33_block(const int nr, const int nv, const bool first, const bool last, const int step,
          const bool edge, size_t r, size_t v0, const g33_geom *g, const __m256 *wv, float *y,
          size_t yrs)
{
    __m256 a[4][2];
#pragma GCC unroll 16
    for (int o = 0; o < nr; ++o)
#pragma GCC unroll 2
        for (int k = 0; k < nv; ++k)
            a[o][k] = _mm256_setzero_ps();
#pragma GCC unroll 16
    for (int u = 0; u < nr + 2; ++u) {
        /* step +1: source row r + dh0 + u serves (o, kh = u - o);
         * step -1: source row r + dh0 + (nr - 1) - u serves (o, kh = u + o - (nr - 1)) */
        const ptrdiff_t i = (ptrdiff_t)r + g->dh0 + (step > 0 ? u : nr - 1 - u);
        const bool in = !edge || (i >= 0 && (size_t)i < g->ih);
        const float *xr = in ? g->x + i * (ptrdiff_t)g->rs : g->x;
#pragma GCC unroll 3
        for (int kw = 0; kw < 3; ++kw)
#pragma GCC unroll 2
            for (int k = 0; k < nv; ++k) {
                const bool lastb = last && k == nv - 1, minus = step * (kw - 1) < 0;
                const float *p = xr + step * (kw - 1) + (v0 + (size_t)k) * VL;
                const __m256 xv = !in                        ? _mm256_setzero_ps()
                                  : lastb                    ? _mm256_maskload_ps(p, g->mkl[kw])
                                  : first && k == 0 && minus ? _mm256_maskload_ps(p, g->mk0)
                                                             : _mm256_loadu_ps(p);
#pragma GCC unroll 16
                for (int o = 0; o < nr; ++o) {
                    const int kh = step > 0 ? u - o : u + o - (nr - 1);
                    if (kh < 0 || kh > 2) continue;
                    a[o][k] = _mm256_fmadd_ps(wv[3 * kh + kw], xv, a[o][k]);
                }
            }
    }
#pragma GCC unroll 16
    for (int o = 0; o < nr; ++o)
#pragma GCC unroll 2
        for (int k = 0; k < nv; ++k) {
            float *yp = y + (r + (size_t)o) * yrs + (v0 + (size_t)k) * VL;
            if (last && k == nv - 1)
                avx2_store_n(yp, g->onl, a[o][k]);
            else
                _mm256_storeu_ps(yp, a[o][k]);
        }
}

/* All rows of column blocks v0 .. v0 + nv - 1. */
static inline __attribute__((always_inline)) void
g33_cols(const int nv, const bool first, const bool last, const int step, size_t rows, size_t v0,
         const g33_geom *g, const ukernel_prefetch *pf, const __m256 *wv, float *y, size_t yrs)
{
    /* a block reads source rows r + lo .. r + lo + RB + 1 */
    const ptrdiff_t lo = step > 0 ? g->dh0 : g->dh0 - 2;
    size_t r = 0;
    for (; r + RB <= rows; r += RB) {
        ukernel_prefetch_steps(pf, r, r + RB, rows);
        const ptrdiff_t f = (ptrdiff_t)r + lo;
        if (f >= 0 && f + RB + 1 < (ptrdiff_t)g->ih)
            g33_block(RB, nv, first, last, step, false, r, v0, g, wv, y, yrs);
        else
            g33_block(RB, nv, first, last, step, true, r, v0, g, wv, y, yrs);
    }
    for (; r < rows; ++r) {
        ukernel_prefetch_steps(pf, r, r + 1, rows);
        g33_block(1, nv, first, last, step, true, r, v0, g, wv, y, yrs);
    }
}

/* nb: the call's column blocks when 1-4 (a constant), else 0 (any). */
static inline __attribute__((always_inline)) void g33(const int nb, const int step, size_t rows,
                                                      const g33_geom *gp,
                                                      const ukernel_prefetch *pf, const float *w,
                                                      float *y, size_t yrs)
{
    /* a local copy: y's stores cannot change it, so its fields stay in
     * registers (through gp, gcc reloaded them after every store) */
    const g33_geom g = *gp;
    __m256 wv[9];
    for (int t = 0; t < 9; ++t)
        wv[t] = _mm256_set1_ps(w[t]);
    /* the prefetch requests go with the first pair's rows */
    const ukernel_prefetch none = UKERNEL_PREFETCH_NONE;
    if (nb == 1) {
        g33_cols(1, true, true, step, rows, 0, &g, pf, wv, y, yrs);
        return;
    }
    g33_cols(2, true, nb == 2, step, rows, 0, &g, pf, wv, y, yrs);
    if (nb == 2) return;
    size_t v0 = 2;
    for (; nb == 0 && v0 + 2 < g.nb; v0 += 2)
        g33_cols(2, false, false, step, rows, v0, &g, &none, wv, y, yrs);
    if (nb == 3 || (nb == 0 && v0 + 1 == g.nb))
        g33_cols(1, false, true, step, rows, v0, &g, &none, wv, y, yrs);
    else
        g33_cols(2, false, true, step, rows, v0, &g, &none, wv, y, yrs);
}

typedef void (*g33_fn)(size_t rows, const g33_geom *g, const ukernel_prefetch *pf, const float *w,
                       float *y, size_t yrs);
#define DW_G33(nb, step, name)                                                                     \
    static __attribute__((noinline)) void name(size_t rows, const g33_geom *g,                     \
                                               const ukernel_prefetch *pf, const float *w,         \
                                               float *y, size_t yrs)                               \
    {                                                                                              \
        g33(nb, step, rows, g, pf, w, y, yrs);                                                     \
    }
DW_G33(1, 1, g33_1_up)
DW_G33(2, 1, g33_2_up)
DW_G33(3, 1, g33_3_up)
DW_G33(4, 1, g33_4_up)
DW_G33(0, 1, g33_wide_up)
DW_G33(1, -1, g33_1_down)
DW_G33(2, -1, g33_2_down)
DW_G33(3, -1, g33_3_down)
DW_G33(4, -1, g33_4_down)
DW_G33(0, -1, g33_wide_down)
#undef DW_G33

void f32_dwrow_ukernel_4x16__avx2(size_t rows, size_t ow, const f32_dwrow_src *s, const float *w,
                                  float *y, size_t yrs)
{
    const size_t nb = (ow + VL - 1) / VL, nt = s->nt;
    unsigned char m[DW_ROW_MASKS];
    ptrdiff_t r0 = 0, r1 = (ptrdiff_t)rows;
    const int step = nb >= 1 && nb <= G33_MAX_NB ? dw_window_taps(s, false) : 0;
    if (step != 0) {
        g33_geom g;
        if (g33_setup(s, step, ow, nb, &g)) {
            static const g33_fn fns[2][5] = {
                {g33_wide_down, g33_1_down, g33_2_down, g33_3_down, g33_4_down},
                {g33_wide_up, g33_1_up, g33_2_up, g33_3_up, g33_4_up}};
            fns[step > 0][nb <= 4 ? nb : 0](rows, &g, &s->pf, w, y, yrs);
            return;
        }
    }
    dw8_col_masks(s, ow, nb, nt, m);
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
