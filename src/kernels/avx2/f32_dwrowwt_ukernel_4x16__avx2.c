/* AVX2+FMA in-place depthwise weight-gradient dot products: 4 taps x 16
 * partial sums (two ymm per tap: the even and the odd 8-wide column blocks of
 * a row), so 8 independent FMA chains, the dy vectors of a block loaded once
 * per group of 4 taps, the x rows read where they lie with masked loads
 * (padding and the columns past ow read as zeros, never touched). 3x3 taps
 * with column shifts -1, 0, +1 over rows of at most 32 columns take a 3x3
 * path (g33): each x row loaded once per shift and row block, its masks
 * computed once per call. */
#include <immintrin.h>

#include "kernels/avx2/dw_g33__avx2.h"
#include "kernels/dw_ukernels.h"

#define VL 8
#define TG 4

/* Taps t0 .. t0 + ng - 1 over the whole plane; m: all taps' masks, nb per tap. */
static inline __attribute__((always_inline)) void
sweep(const int ng, size_t t0, size_t rows, size_t ow, size_t nb, const f32_dwrow_src *s,
      const unsigned char *m, const float *dy, size_t dyrs, float *acc)
{
    __m256 a0[TG], a1[TG];
#pragma GCC unroll 16
    for (int g = 0; g < ng; ++g) {
        a0[g] = _mm256_loadu_ps(acc + (t0 + (size_t)g) * DW_ACC_LANES);
        a1[g] = _mm256_loadu_ps(acc + (t0 + (size_t)g) * DW_ACC_LANES + VL);
    }
    const unsigned char *mt = m + t0 * nb;
    for (size_t r = 0; r < rows; ++r) {
        if (t0 == 0) ukernel_prefetch_steps(&s->pf, r, r + 1, rows);
        const float *dr = dy + r * dyrs;
        const float *xp[TG];
        unsigned keep[TG]; /* all lanes, or none for a row outside the source */
#pragma GCC unroll 16
        for (int g = 0; g < ng; ++g) {
            const size_t t = t0 + (size_t)g;
            const ptrdiff_t i = (ptrdiff_t)r + s->dh[t];
            const bool in = s->x[t] != NULL && i >= 0 && (size_t)i < s->ih;
            xp[g] = in ? s->x[t] + (size_t)i * s->rs + s->dw[t] : dr;
            keep[g] = in ? 0xffu : 0u;
        }
        size_t b = 0;
        for (; b + 2 <= nb; b += 2) {
            const size_t j = b * VL;
            const __m256 d0 = _mm256_loadu_ps(dr + j);
            const __m256 d1 =
                _mm256_maskload_ps(dr + j + VL, dw8_vmask(dw8_lanes(0, (ptrdiff_t)(ow - j) - VL)));
#pragma GCC unroll 16
            for (int g = 0; g < ng; ++g) {
                const __m256 v0 =
                    _mm256_maskload_ps(xp[g] + j, dw8_vmask(mt[g * nb + b] & keep[g]));
                const __m256 v1 =
                    _mm256_maskload_ps(xp[g] + j + VL, dw8_vmask(mt[g * nb + b + 1] & keep[g]));
                a0[g] = _mm256_fmadd_ps(v0, d0, a0[g]);
                a1[g] = _mm256_fmadd_ps(v1, d1, a1[g]);
            }
        }
        if (b < nb) { /* an even block, the last */
            const size_t j = b * VL;
            const __m256 d0 =
                _mm256_maskload_ps(dr + j, dw8_vmask(dw8_lanes(0, (ptrdiff_t)(ow - j))));
#pragma GCC unroll 16
            for (int g = 0; g < ng; ++g) {
                const __m256 v0 =
                    _mm256_maskload_ps(xp[g] + j, dw8_vmask(mt[g * nb + b] & keep[g]));
                a0[g] = _mm256_fmadd_ps(v0, d0, a0[g]);
            }
        }
    }
#pragma GCC unroll 16
    for (int g = 0; g < ng; ++g) {
        _mm256_storeu_ps(acc + (t0 + (size_t)g) * DW_ACC_LANES, a0[g]);
        _mm256_storeu_ps(acc + (t0 + (size_t)g) * DW_ACC_LANES + VL, a1[g]);
    }
}

/* ---- 3x3 taps on one source plane, rows of at most 32 columns ----------
 * Tap (kh, kw) = t = 3*kh + kw reads source row r + dh0 + kh at column
 * shift kw - 1 (dw_window_taps, any ow <= 32). The lanes of column blocks
 * h and h + 2 (h = 0, 1) are one group of 9 accumulators (8 lanes each): a
 * group's pass goes over the rows in blocks of 2, both its blocks' dy
 * vectors of those rows in registers, and each x row of the block's 4 is
 * loaded once per shift and column block and meets the dy rows of every
 * tap row that uses it (the generic sweep loads each tap's rows and builds
 * each mask from its bits per use). A lane sees its
 * rows in ascending order and, within a row, block h before block h + 2:
 * the dwwt lane order. Only the first block's -1 shift and the last block
 * load with masks (g33_masked). */

#define G33_ROWS 2

/* Rows r .. r + nr - 1 of group h's blocks into a. edge: some x row may be
 * outside (its terms then multiply zeros, nothing is read). */
static inline __attribute__((always_inline)) void
g33_block(const int nb, const int h, const int nr, const bool edge, size_t r, const g33_geom *g,
          const float *dy, size_t dyrs, __m256 *a)
{
    const int nv = nb > h + 2 ? 2 : 1;
    __m256 d[G33_ROWS][2];
#pragma GCC unroll 4
    for (int o = 0; o < nr; ++o)
#pragma GCC unroll 2
        for (int k = 0; k < nv; ++k) {
            const int v = h + 2 * k;
            const float *p = dy + (r + (size_t)o) * dyrs + v * VL;
            d[o][k] = v == nb - 1 ? _mm256_maskload_ps(p, g->oml) : _mm256_loadu_ps(p);
        }
#pragma GCC unroll 8
    for (int sr = 0; sr < nr + 2; ++sr) {
        const ptrdiff_t i = (ptrdiff_t)r + g->dh0 + sr;
        const bool in = !edge || (i >= 0 && (size_t)i < g->ih);
        const float *xr = in ? g->x + i * (ptrdiff_t)g->rs : g->x;
#pragma GCC unroll 3
        for (int kw = 0; kw < 3; ++kw)
#pragma GCC unroll 2
            for (int k = 0; k < nv; ++k) {
                const int v = h + 2 * k;
                const float *p = xr + (kw - 1) + v * VL;
                const bool masked = g33_masked(nb, v, kw == 0);
                const __m256 xv = !in      ? _mm256_setzero_ps()
                                  : masked ? _mm256_maskload_ps(p, g33_mask(g, (size_t)v, kw))
                                           : _mm256_loadu_ps(p);
#pragma GCC unroll 3
                for (int kh = 0; kh < 3; ++kh) {
                    const int o = sr - kh;
                    if (o < 0 || o >= nr) continue;
                    a[3 * kh + kw] = _mm256_fmadd_ps(xv, d[o][k], a[3 * kh + kw]);
                }
            }
    }
}

/* Group h's pass over the plane. */
static inline __attribute__((always_inline)) void g33_group(const int nb, const int h, size_t rows,
                                                            const g33_geom *g,
                                                            const ukernel_prefetch *pf,
                                                            const float *dy, size_t dyrs,
                                                            float *acc)
{
    __m256 a[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t)
        a[t] = _mm256_loadu_ps(acc + (size_t)t * DW_ACC_LANES + (size_t)h * VL);
    /* row blocks whose x rows are all inside: [r0, r1) */
    const ptrdiff_t r0 = g->dh0 < 0 ? -g->dh0 : 0, r1 = (ptrdiff_t)g->ih - g->dh0 - 2;
    size_t r = 0;
    for (; r + G33_ROWS <= rows; r += G33_ROWS) {
        ukernel_prefetch_steps(pf, r, r + G33_ROWS, rows);
        if ((ptrdiff_t)r >= r0 && (ptrdiff_t)r + G33_ROWS <= r1)
            g33_block(nb, h, G33_ROWS, false, r, g, dy, dyrs, a);
        else
            g33_block(nb, h, G33_ROWS, true, r, g, dy, dyrs, a);
    }
    for (; r < rows; ++r) {
        ukernel_prefetch_steps(pf, r, r + 1, rows);
        g33_block(nb, h, 1, true, r, g, dy, dyrs, a);
    }
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t)
        _mm256_storeu_ps(acc + (size_t)t * DW_ACC_LANES + (size_t)h * VL, a[t]);
}

static inline __attribute__((always_inline)) void g33(const int nb, size_t rows, const g33_geom *gp,
                                                      const ukernel_prefetch *pf, const float *dy,
                                                      size_t dyrs, float *acc)
{
    /* a local copy, its fields in registers whatever the stores alias */
    const g33_geom g = *gp;
    const ukernel_prefetch none = UKERNEL_PREFETCH_NONE;
    g33_group(nb, 0, rows, &g, pf, dy, dyrs, acc); /* it asks for the next operands */
    if (nb > 1) g33_group(nb, 1, rows, &g, &none, dy, dyrs, acc);
}

typedef void (*g33_fn)(size_t rows, const g33_geom *g, const ukernel_prefetch *pf, const float *dy,
                       size_t dyrs, float *acc);
#define DW_G33(nb, name)                                                                           \
    static __attribute__((noinline)) void name(size_t rows, const g33_geom *g,                     \
                                               const ukernel_prefetch *pf, const float *dy,        \
                                               size_t dyrs, float *acc)                            \
    {                                                                                              \
        g33(nb, rows, g, pf, dy, dyrs, acc);                                                       \
    }
DW_G33(1, g33_1)
DW_G33(2, g33_2)
DW_G33(3, g33_3)
DW_G33(4, g33_4)
#undef DW_G33

/* ---- 3x3 taps over rows of more than 4 column blocks ----------------------
 * Group h (the lanes of blocks h, h + 2, ...) a row at a time: its blocks
 * in ascending order, each block's dy vector next to the 9 accumulators and
 * the x vectors of its 3 source rows and shifts (with 16 registers a block
 * of rows would hold too many dy vectors). A lane still sees its rows in
 * ascending order and, within a row, its blocks in ascending order: the
 * dwwt lane order. first / last: block 0 (its -1 shift masked) / the last
 * block (every load masked). */
static inline __attribute__((always_inline)) void
g33w_block(const bool first, const bool last, size_t v, const float *const xr[3],
           const bool in[3], const g33_geom *g, const float *dyr, __m256 *a)
{
    const float *p = dyr + v * VL;
    const __m256 d = last ? _mm256_maskload_ps(p, g->oml) : _mm256_loadu_ps(p);
#pragma GCC unroll 3
    for (int kh = 0; kh < 3; ++kh)
#pragma GCC unroll 3
        for (int kw = 0; kw < 3; ++kw) {
            const float *q = xr[kh] + (kw - 1) + v * VL;
            const __m256 xv = !in[kh]              ? _mm256_setzero_ps()
                              : last               ? _mm256_maskload_ps(q, g->mkl[kw])
                              : first && kw == 0   ? _mm256_maskload_ps(q, g->mk0)
                                                   : _mm256_loadu_ps(q);
            a[3 * kh + kw] = _mm256_fmadd_ps(xv, d, a[3 * kh + kw]);
        }
}

static void g33w_group(size_t h, size_t rows, const g33_geom *gp, const ukernel_prefetch *pf,
                       const float *dy, size_t dyrs, float *acc)
{
    const g33_geom g = *gp; /* in registers whatever the stores alias */
    __m256 a[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t)
        a[t] = _mm256_loadu_ps(acc + (size_t)t * DW_ACC_LANES + h * VL);
    for (size_t r = 0; r < rows; ++r) {
        ukernel_prefetch_steps(pf, r, r + 1, rows);
        const float *xr[3];
        bool in[3];
        for (int kh = 0; kh < 3; ++kh) {
            const ptrdiff_t i = (ptrdiff_t)r + g.dh0 + kh;
            in[kh] = i >= 0 && (size_t)i < g.ih;
            xr[kh] = in[kh] ? g.x + i * (ptrdiff_t)g.rs : g.x;
        }
        const float *dyr = dy + r * dyrs;
        size_t v = h;
        if (v == 0) {
            g33w_block(true, false, 0, xr, in, &g, dyr, a);
            v = 2;
        }
        for (; v + 1 < g.nb; v += 2)
            g33w_block(false, false, v, xr, in, &g, dyr, a);
        if (v == g.nb - 1) g33w_block(false, true, v, xr, in, &g, dyr, a);
    }
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t)
        _mm256_storeu_ps(acc + (size_t)t * DW_ACC_LANES + h * VL, a[t]);
}

void f32_dwrowwt_ukernel_4x16__avx2(size_t rows, size_t ow, const f32_dwrow_src *s, const float *dy,
                                    size_t dyrs, float *acc)
{
    const size_t nb = (ow + VL - 1) / VL, nt = s->nt;
    unsigned char m[DW_ROW_MASKS];
    if (nb >= 1 && nb <= 4 && dw_window_taps(s, true) != 0) {
        g33_geom g;
        if (g33_setup(s, 1, ow, nb, &g)) {
            static const g33_fn fns[4] = {g33_1, g33_2, g33_3, g33_4};
            fns[nb - 1](rows, &g, &s->pf, dy, dyrs, acc);
            return;
        }
    }
    if (nb > 4 && nb <= G33_MAX_NB && dw_window_taps(s, true) != 0) {
        g33_geom g;
        if (g33_setup(s, 1, ow, nb, &g)) {
            const ukernel_prefetch none = UKERNEL_PREFETCH_NONE;
            g33w_group(0, rows, &g, &s->pf, dy, dyrs, acc); /* it asks for the next operands */
            g33w_group(1, rows, &g, &none, dy, dyrs, acc);
            return;
        }
    }
    dw8_col_masks(s, ow, nb, nt, m);
    size_t t = 0;
    for (; t + TG <= nt; t += TG)
        sweep(TG, t, rows, ow, nb, s, m, dy, dyrs, acc);
    if (t + 2 <= nt) {
        sweep(2, t, rows, ow, nb, s, m, dy, dyrs, acc);
        t += 2;
    }
    if (t < nt) sweep(1, t, rows, ow, nb, s, m, dy, dyrs, acc);
}
