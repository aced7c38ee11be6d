/* AVX2+FMA in-place depthwise correlation: blocks of 4 output rows x 16
 * columns (8 independent accumulators), the taps' source rows read where
 * they lie with masked loads (padding columns and rows read as zeros without
 * touching memory). Rows whose taps all fall inside the source take the 4-row
 * blocks; the others one row at a time. */
#include <immintrin.h>

#include "kernels/dw_ukernels.h"

#define VL 8
#define RB 4

/* Lanes l with lo <= l < hi, as bits. */
static inline unsigned lanes(ptrdiff_t lo, ptrdiff_t hi)
{
    if (lo < 0) lo = 0;
    if (hi > VL) hi = VL;
    if (hi <= lo) return 0;
    return ((1u << hi) - 1u) & ~((1u << lo) - 1u);
}

static inline __m256i vmask(unsigned bits)
{
    const __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)bits), sel), sel);
}

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
            const __m256i m0 = vmask(m[t * nb + b]), m1 = vmask(nv == 2 ? m[t * nb + b + 1] : 0);
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
            const __m256i m0 = vmask(in ? m[t * nb + b] : 0);
            const __m256i m1 = vmask(in && nv == 2 ? m[t * nb + b + 1] : 0);
            const float *p = in ? s->x[t] + (size_t)i0 * s->rs + j + s->dw[t] : w;
            a[0][0] = _mm256_fmadd_ps(wv, _mm256_maskload_ps(p, m0), a[0][0]);
            if (nv == 2)
                a[0][1] = _mm256_fmadd_ps(wv, _mm256_maskload_ps(in ? p + VL : w, m1), a[0][1]);
        }
    }
    const __m256i o0 = vmask(lanes(0, (ptrdiff_t)(ow - j)));
    const __m256i o1 = vmask(lanes(0, (ptrdiff_t)(ow - j) - VL));
#pragma GCC unroll 16
    for (int i = 0; i < nr; ++i) {
        float *yr = y + (r + (size_t)i) * yrs + j;
        _mm256_maskstore_ps(yr, o0, a[i][0]);
        if (nv == 2) _mm256_maskstore_ps(yr + VL, o1, a[i][1]);
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

void f32_dwrow_ukernel_4x16__avx2(size_t rows, size_t ow, const f32_dwrow_src *s, const float *w,
                                  float *y, size_t yrs)
{
    const size_t nb = (ow + VL - 1) / VL, nt = s->nt;
    unsigned char m[DW_ROW_MASKS];
    ptrdiff_t r0 = 0, r1 = (ptrdiff_t)rows;
    for (size_t t = 0; t < nt; ++t) {
        for (size_t b = 0; b < nb; ++b) {
            const ptrdiff_t j = (ptrdiff_t)(b * VL), c = j + s->dw[t];
            const ptrdiff_t hi =
                (ptrdiff_t)ow - j < (ptrdiff_t)s->iw - c ? (ptrdiff_t)ow - j : (ptrdiff_t)s->iw - c;
            m[t * nb + b] = (unsigned char)lanes(-c, hi);
        }
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
