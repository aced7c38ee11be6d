/* AVX-512 in-place depthwise correlation: blocks of 4 output rows x 32
 * columns (8 independent accumulators, so the FMA latency is hidden), the
 * taps' source rows read where they lie with masked loads (padding columns
 * and rows read as zeros without touching memory). Rows whose taps all fall
 * inside the source take the 4-row blocks; the others (the top and bottom
 * padding) one row at a time. */
#include <immintrin.h>

#include "kernels/dw_ukernels.h"

#define VL 16
#define RB 4

/* Lanes l with lo <= l < hi. */
static inline __mmask16 lanes(ptrdiff_t lo, ptrdiff_t hi)
{
    if (lo < 0) lo = 0;
    if (hi > VL) hi = VL;
    if (hi <= lo) return 0;
    return (__mmask16)(((1u << hi) - 1u) & ~((1u << lo) - 1u));
}

/* Rows r .. r + nr - 1 (nr = RB, or 1 for a row with taps outside the
 * source), column blocks b and b + 1 (nv = 2) or b (nv = 1). */
static inline __attribute__((always_inline)) void block(const int nr, const int nv, size_t r,
                                                        size_t b, size_t nb,
                                                        const f32_dwrow_src *s, const float *w,
                                                        const __mmask16 *m, float *y, size_t yrs,
                                                        size_t ow)
{
    __m512 a[RB][2];
    _Pragma("GCC unroll 16")
    for (int i = 0; i < nr; ++i)
        _Pragma("GCC unroll 16")
        for (int v = 0; v < nv; ++v) a[i][v] = _mm512_setzero_ps();
    const size_t j = b * VL;
    for (size_t t = 0; t < s->nt; ++t) {
        const __m512 wv = _mm512_set1_ps(w[t]);
        const __mmask16 m0 = m[t * nb + b], m1 = nv == 2 ? m[t * nb + b + 1] : 0;
        const ptrdiff_t i0 = (ptrdiff_t)r + s->dh[t];
        if (nr == RB) { /* every row inside the source (the caller checked) */
            const float *p = s->x[t] + (size_t)i0 * s->rs + j + s->dw[t];
            _Pragma("GCC unroll 16")
            for (int i = 0; i < RB; ++i) {
                a[i][0] = _mm512_fmadd_ps(wv, _mm512_maskz_loadu_ps(m0, p + i * s->rs), a[i][0]);
                if (nv == 2)
                    a[i][1] = _mm512_fmadd_ps(wv, _mm512_maskz_loadu_ps(m1, p + i * s->rs + VL),
                                              a[i][1]);
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
    const __mmask16 o0 = lanes(0, (ptrdiff_t)(ow - j)), o1 = lanes(0, (ptrdiff_t)(ow - j) - VL);
    _Pragma("GCC unroll 16")
    for (int i = 0; i < nr; ++i) {
        float *yr = y + (r + (size_t)i) * yrs + j;
        _mm512_mask_storeu_ps(yr, o0, a[i][0]);
        if (nv == 2) _mm512_mask_storeu_ps(yr + VL, o1, a[i][1]);
    }
}

static inline __attribute__((always_inline)) void row_blocks(const int nr, size_t r, size_t nb,
                                                             const f32_dwrow_src *s,
                                                             const float *w, const __mmask16 *m,
                                                             float *y, size_t yrs, size_t ow)
{
    size_t b = 0;
    for (; b + 2 <= nb; b += 2) block(nr, 2, r, b, nb, s, w, m, y, yrs, ow);
    if (b < nb) block(nr, 1, r, b, nb, s, w, m, y, yrs, ow);
}

void f32_dwrow_ukernel_4x32__avx512(size_t rows, size_t ow, const f32_dwrow_src *s,
                                    const float *w, float *y, size_t yrs)
{
    const size_t nb = (ow + VL - 1) / VL, nt = s->nt;
    __mmask16 m[DW_ROW_MASKS];
    /* rows r with r + dh[t] inside the source for every tap: [r0, r1) */
    ptrdiff_t r0 = 0, r1 = (ptrdiff_t)rows;
    for (size_t t = 0; t < nt; ++t) {
        for (size_t b = 0; b < nb; ++b) {
            const ptrdiff_t j = (ptrdiff_t)(b * VL), c = j + s->dw[t];
            const ptrdiff_t hi = (ptrdiff_t)ow - j < (ptrdiff_t)s->iw - c ? (ptrdiff_t)ow - j
                                                                          : (ptrdiff_t)s->iw - c;
            m[t * nb + b] = lanes(-c, hi);
        }
        if (s->x[t] == NULL) r1 = 0;
        if (-s->dh[t] > r0) r0 = -s->dh[t];
        if ((ptrdiff_t)s->ih - s->dh[t] < r1) r1 = (ptrdiff_t)s->ih - s->dh[t];
    }
    size_t r = 0;
    while (r < rows) {
        if ((ptrdiff_t)r >= r0 && (ptrdiff_t)r + RB <= r1) {
            row_blocks(RB, r, nb, s, w, m, y, yrs, ow);
            r += RB;
        } else {
            row_blocks(1, r, nb, s, w, m, y, yrs, ow);
            r += 1;
        }
    }
}
