/* The row window of the AVX-512 in-place depthwise kernels' 3x3 form
 * (dw_row_window in kernels/dw_ukernels.h): a source row's columns [0, 32)
 * in two vectors, zeros past the source's, loaded once (fp32, rounded for
 * the mode, or bf16 / fp16 widened as loaded) and shifted in registers.
 * Include only from AVX-512 kernel files. */
#ifndef ACLCONV_DW_WINDOW_AVX512_H_
#define ACLCONV_DW_WINDOW_AVX512_H_

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/dw_ukernels.h"

/* Lanes l with lo <= l < hi of a 16-lane vector. */
static inline __mmask16 dw_lanes(ptrdiff_t lo, ptrdiff_t hi)
{
    if (lo < 0) lo = 0;
    if (hi > 16) hi = 16;
    if (hi <= lo) return 0;
    return (__mmask16)(((1u << hi) - 1u) & ~((1u << lo) - 1u));
}

/* m[t*nb + b], t < nt: the lanes of column block b (16 columns) that tap t
 * of s reads inside the source row and below ow (the masked 3x3 form). */
static inline void dw_col_masks(const f32_dwrow_src *s, size_t ow, size_t nb, size_t nt,
                                __mmask16 *m)
{
    for (size_t t = 0; t < nt; ++t)
        for (size_t b = 0; b < nb; ++b) {
            const ptrdiff_t j = (ptrdiff_t)(b * 16), c = j + s->dw[t];
            const ptrdiff_t hi =
                (ptrdiff_t)ow - j < (ptrdiff_t)s->iw - c ? (ptrdiff_t)ow - j : (ptrdiff_t)s->iw - c;
            m[t * nb + b] = dw_lanes(-c, hi);
        }
}

/* The masks of a window's loads: columns [0, iw). */
typedef struct dw_window_mask {
    __mmask16 f32[2];
    __mmask32 h16;
} dw_window_mask;

static inline dw_window_mask dw_window_mask_for(size_t iw)
{
    dw_window_mask m;
    m.f32[0] = (__mmask16)(iw >= 16 ? 0xffffu : (1u << iw) - 1u);
    m.f32[1] = (__mmask16)(iw >= 32 ? 0xffffu : iw <= 16 ? 0u : (1u << (iw - 16)) - 1u);
    m.h16 = (__mmask32)(iw >= 32 ? 0xffffffffu : (1u << iw) - 1u);
    return m;
}

/* 32 16-bit values of kind at row (lanes in m, the others zero), widened
 * into lo | hi, NaNs as vcvtph2ps / the bf16 shift leave them (the kernels'
 * fused multiply-adds quiet them: f32_dwrow_src). nv == 1: the first 16
 * only (m within them), hi zero. */
static inline __attribute__((always_inline)) void dw_window_load16(const int kind, const int nv,
                                                                   const uint16_t *row, __mmask32 m,
                                                                   __m512 *lo, __m512 *hi)
{
    if (nv == 1) {
        const __m256i h = _mm256_maskz_loadu_epi16((__mmask16)m, row);
        *lo = kind == DW_SRC_F16
                  ? _mm512_cvtph_ps(h)
                  : _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
        *hi = _mm512_setzero_ps();
        return;
    }
    const __m512i h = _mm512_maskz_loadu_epi16(m, row);
    const __m256i h0 = _mm512_castsi512_si256(h), h1 = _mm512_extracti64x4_epi64(h, 1);
    if (kind == DW_SRC_F16) {
        *lo = _mm512_cvtph_ps(h0);
        *hi = _mm512_cvtph_ps(h1);
    } else {
        /* 128-bit lane L of q: qwords L and L + 4 of h (words 4L.. and
         * 16 + 4L..); unpacking it under zeros puts words 0..15 and 16..31
         * in the top halves of lo's and hi's lanes, in order: three
         * operations where two widenings and two shifts were five */
        const __m512i q = _mm512_permutexvar_epi64(_mm512_set_epi64(7, 3, 6, 2, 5, 1, 4, 0), h);
        const __m512i z = _mm512_setzero_si512();
        *lo = _mm512_castsi512_ps(_mm512_unpacklo_epi16(z, q));
        *hi = _mm512_castsi512_ps(_mm512_unpackhi_epi16(z, q));
    }
}

/* The f32x16_round kind of an fp32 source kind (F32_ROUND_NONE: as it is). */
static inline __attribute__((always_inline)) int dw_src_round_kind(const int kind)
{
    return kind == DW_SRC_F32_F16    ? F32_ROUND_F16
           : kind == DW_SRC_F32_HF32 ? F32_ROUND_HF32
                                     : F32_ROUND_NONE;
}

/* Source row i of plane s (fp32: x[0], rounded for DW_SRC_F32_F16 /
 * DW_SRC_F32_HF32; 16-bit: x16), all zeros when !in (nothing is read then).
 * kind: s->src_kind as a constant; nv == 1: a row of at most 16 columns
 * (iw <= 16), hi zero. */
static inline __attribute__((always_inline)) void
dw_window_load(const int kind, const int nv, bool in, const f32_dwrow_src *s, ptrdiff_t i,
               const dw_window_mask *m, __m512 *lo, __m512 *hi)
{
    if (!dw_src_16bit(kind)) {
        const float *xr = in ? s->x[0] + i * (ptrdiff_t)s->rs : s->x[0];
        *lo = _mm512_maskz_loadu_ps(in ? m->f32[0] : 0, xr);
        *hi = nv == 1 ? _mm512_setzero_ps()
                      : _mm512_maskz_loadu_ps(in ? m->f32[1] : 0, xr + (in ? 16 : 0));
        /* zeros stay zeros; F32_ROUND_NONE returns its argument */
        *lo = f32x16_round(*lo, dw_src_round_kind(kind));
        if (nv == 2) *hi = f32x16_round(*hi, dw_src_round_kind(kind));
        return;
    }
    dw_window_load16(kind, nv, in ? s->x16 + i * (ptrdiff_t)s->rs : s->x16, in ? m->h16 : 0, lo,
                     hi);
}

/* Source columns [d, d + 16) of column block v (d = -1, 0, +1) from the
 * window lo | hi, lanes outside keep zeroed: one valignd where a load at
 * the shifted address mostly splits cache lines. */
static inline __attribute__((always_inline)) __m512
dw_window_shift(const int d, const int v, __mmask16 keep, __m512 lo, __m512 hi)
{
    const __m512i z = _mm512_setzero_si512(), l = _mm512_castps_si512(lo),
                  h = _mm512_castps_si512(hi);
    switch (d) {
    case 1:
        return _mm512_castsi512_ps(v == 0 ? _mm512_maskz_alignr_epi32(keep, h, l, 1)
                                          : _mm512_maskz_alignr_epi32(keep, z, h, 1));
    case -1:
        return _mm512_castsi512_ps(v == 0 ? _mm512_maskz_alignr_epi32(keep, l, z, 15)
                                          : _mm512_maskz_alignr_epi32(keep, h, l, 15));
    default: return v == 0 ? lo : hi;
    }
}

/* ---- bf16 rows in column phases ------------------------------------------
 * A row of 32 bf16 values loaded as one vector is, without a shuffle, its
 * even columns (each dword shifted left 16: lane l holds column 2l) and its
 * odd ones (the low words cleared: column 2l + 1). Kept in that form, the
 * results of the even and of the odd columns are two vectors, and a column
 * shift is at most one valignd: for column 2l the shifts -1, 0, +1 are odd
 * lane l - 1, even lane l, odd lane l; for 2l + 1 even lane l, odd lane l,
 * even lane l + 1. A widened row (dw_window_load16) took three shuffles and
 * its shifts four valignd. */

/* Columns [0, 32) of the bf16 row (lanes in m, the others zero) in phases:
 * e (even columns), o (odd), the bits dw_window_load16 widens them to. */
static inline __attribute__((always_inline)) void dw_phases_load(const uint16_t *row, __mmask32 m,
                                                                 __m512 *e, __m512 *o)
{
    const __m512i h = _mm512_maskz_loadu_epi16(m, row);
    *e = _mm512_castsi512_ps(_mm512_slli_epi32(h, 16));
    *o = _mm512_castsi512_ps(_mm512_and_si512(h, _mm512_set1_epi32((int)0xffff0000u)));
}

/* Phase ph (0 even, 1 odd) of the columns shifted by d (-1, 0, +1) of the
 * row in phases e | o: what dw_window_shift(d, ...) holds for those
 * columns, lanes outside keep zeroed where it zeroes them (d != 0). */
static inline __attribute__((always_inline)) __m512
dw_phase_shift(const int d, const int ph, __mmask16 keep, __m512 e, __m512 o)
{
    const __m512i z = _mm512_setzero_si512(), ei = _mm512_castps_si512(e),
                  oi = _mm512_castps_si512(o);
    if (d == 0) return ph == 0 ? e : o;
    if (ph == 0)
        return d < 0 ? _mm512_castsi512_ps(_mm512_maskz_alignr_epi32(keep, oi, z, 15))
                     : _mm512_maskz_mov_ps(keep, o);
    return d < 0 ? _mm512_maskz_mov_ps(keep, e)
                 : _mm512_castsi512_ps(_mm512_maskz_alignr_epi32(keep, z, ei, 1));
}

/* Columns [0, 16) and [16, 32) (c0, c1) from their phases e | o. */
static inline __attribute__((always_inline)) void dw_phases_merge(__m512 e, __m512 o, __m512 *c0,
                                                                  __m512 *c1)
{
    const __m512i i0 = _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    const __m512i i1 =
        _mm512_set_epi32(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8);
    *c0 = _mm512_permutex2var_ps(e, i0, o);
    *c1 = _mm512_permutex2var_ps(e, i1, o);
}

/* The phases e | o of columns [0, 16) and [16, 32) (c0, c1). */
static inline __attribute__((always_inline)) void dw_phases_split(__m512 c0, __m512 c1, __m512 *e,
                                                                  __m512 *o)
{
    const __m512i ie = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i io = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    *e = _mm512_permutex2var_ps(c0, ie, c1);
    *o = _mm512_permutex2var_ps(c0, io, c1);
}

#endif /* ACLCONV_DW_WINDOW_AVX512_H_ */
