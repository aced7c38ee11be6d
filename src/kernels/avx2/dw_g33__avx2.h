/* What the AVX2 in-place depthwise kernels share (dwrow, dwrowwt): lane
 * masks of 8-float column blocks, built from bits once per call, and the
 * geometry of their 3x3 paths (dw_window_taps in kernels/dw_ukernels.h, rows
 * of at most DW_AVX2_G33_MAX_OW columns). Include only from AVX2 kernel
 * files. */
#ifndef ACLCONV_DW_G33_AVX2_H_
#define ACLCONV_DW_G33_AVX2_H_

#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>

#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/dw_ukernels.h"

/* Lanes l of an 8-float block with lo <= l < hi, as bits. */
static inline unsigned dw8_lanes(ptrdiff_t lo, ptrdiff_t hi)
{
    if (lo < 0) lo = 0;
    if (hi > 8) hi = 8;
    if (hi <= lo) return 0;
    return ((1u << hi) - 1u) & ~((1u << lo) - 1u);
}

/* The vmaskmovps mask of those bits. */
static inline __m256i dw8_vmask(unsigned bits)
{
    const __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)bits), sel), sel);
}

/* m[t*nb + b], t < nt: the lanes of column block b that tap t of s reads
 * inside the source row and below ow. */
static inline void dw8_col_masks(const f32_dwrow_src *s, size_t ow, size_t nb, size_t nt,
                                 unsigned char *m)
{
    for (size_t t = 0; t < nt; ++t)
        for (size_t b = 0; b < nb; ++b) {
            const ptrdiff_t j = (ptrdiff_t)(b * 8), c = j + s->dw[t];
            const ptrdiff_t hi =
                (ptrdiff_t)ow - j < (ptrdiff_t)s->iw - c ? (ptrdiff_t)ow - j : (ptrdiff_t)s->iw - c;
            m[t * nb + b] = (unsigned char)dw8_lanes(-c, hi);
        }
}

/* Whether column block v (of nb) loads a shift with a mask: the first
 * block's -1 shift (minus: column -1) and the last block (columns past ow
 * or iw); the other loads read inside the source row and below ow
 * (g33_setup checks it). */
static inline bool g33_masked(const int nb, const int v, const bool minus)
{
    return (v == 0 && minus) || v == nb - 1;
}

/* Column blocks of a 3x3 path's rows: at most DW_AVX2_G33_MAX_OW columns. */
#define G33_MAX_NB (DW_AVX2_G33_MAX_OW / 8)

/* A 3x3 path's call: tap (kh, kw) reads source row r + dh0 + step*kh at
 * column shift step*(kw - 1), over nb column blocks. Only the loads
 * g33_masked names take masks, so only theirs are kept. */
typedef struct g33_geom {
    const float *x;
    ptrdiff_t dh0;
    size_t ih, rs, nb;
    __m256i mk0;    /* block 0, the -1 shift (step * (kw - 1) < 0), when nb > 1 */
    __m256i mkl[3]; /* the last block, shift kw */
    __m256i oml;    /* the last block's lanes below ow */
    ptrdiff_t onl;  /* their count (a store: avx2_store_n) */
} g33_geom;

/* The geometry of a call over 1 <= nb <= G33_MAX_NB column blocks with the
 * taps of dw_window_taps(s) = step; false when a load g33_masked leaves
 * plain would need a mask (a source row much narrower than ow). */
static inline bool g33_setup(const f32_dwrow_src *s, int step, size_t ow, size_t nb, g33_geom *g)
{
    if (nb < 1 || nb > G33_MAX_NB) return false;
    unsigned char m[3 * G33_MAX_NB];
    dw8_col_masks(s, ow, nb, 3, m); /* taps 0..2: kh = 0 */
    for (int kw = 0; kw < 3; ++kw)
        for (size_t v = 0; v < nb; ++v)
            if (!g33_masked((int)nb, (int)v, step * (kw - 1) < 0) &&
                m[(size_t)kw * nb + v] != 0xffu)
                return false;
    g->x = s->x[0];
    g->dh0 = s->dh[0];
    g->ih = s->ih;
    g->rs = s->rs;
    g->nb = nb;
    g->mk0 = dw8_vmask(m[step > 0 ? 0 : 2 * nb]);
    for (int kw = 0; kw < 3; ++kw)
        g->mkl[kw] = dw8_vmask(m[(size_t)kw * nb + nb - 1]);
    g->onl = (ptrdiff_t)ow - (ptrdiff_t)((nb - 1) * 8);
    g->oml = dw8_vmask(dw8_lanes(0, g->onl));
    return true;
}

/* The mask of a load g33_masked names: block v (of nb) at shift kw. */
static inline __m256i g33_mask(const g33_geom *g, size_t v, int kw)
{
    return v == g->nb - 1 ? g->mkl[kw] : g->mk0;
}

#endif /* ACLCONV_DW_G33_AVX2_H_ */
