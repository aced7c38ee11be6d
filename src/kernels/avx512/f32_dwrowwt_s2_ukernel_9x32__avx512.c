/* AVX-512 in-place depthwise weight-gradient dot products of a 3x3 kernel at
 * stride 2 (dwrowwt_s2): the x rows read where they lie, every other column
 * gathered from two masked loads by one permute, instead of a packed copy
 * of the plane's four phases (the packing was ~3x the kernel's time in
 * dw_3x3_s2's weights pass). 18 accumulators (9 taps x the two 16-wide
 * column blocks of a row of at most 32 outputs) for a whole plane. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/dw_ukernels.h"

#define VL 16
#define R 4 /* output rows a block: each of its 2R + 1 source rows is loaded once */

/* The source lanes of a step-2 vector whose output lanes are m: output lane l
 * reads source lane 2l of the pair of vectors (lo: l < 8, hi: l >= 8). */
static void spread(__mmask16 m, __mmask16 *lo, __mmask16 *hi)
{
    unsigned a = 0, b = 0;
    for (int l = 0; l < 8; ++l) {
        a |= ((m >> l) & 1u) << (2 * l);
        b |= ((m >> (l + 8)) & 1u) << (2 * l);
    }
    *lo = (__mmask16)a;
    *hi = (__mmask16)b;
}

/* Source row xr at columns 2j + dw for the 16 outputs of a block: the even
 * lanes of two masked loads (masked lanes are zeros and are not read). */
static inline __attribute__((always_inline)) __m512 load_step2(const float *p, __mmask16 lo,
                                                               __mmask16 hi, __m512i even)
{
    return _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(lo, p), even,
                                  _mm512_maskz_loadu_ps(hi, p + VL));
}

/* Output rows [r, r + nr) of every tap into a0 / a1 (column blocks 0 / 1).
 * Source row sr of the block (i = 2r + dh0 + sr) meets dy row o of tap row
 * kh = sr - 2o, so every tap's lanes still see the rows in ascending order. */
static inline __attribute__((always_inline)) void
block(const int nr, const int nv, const bool edge, size_t r, const f32_dwrow_src *s, size_t ih,
      const __mmask16 mk[3][2][2], const __mmask16 om[2], __m512i even, const float *dy,
      size_t dyrs, __m512 *a0, __m512 *a1)
{
#pragma GCC unroll 2
    for (int v = 0; v < nv; ++v) {
        __m512 *a = v == 0 ? a0 : a1;
        __m512 d[R];
#pragma GCC unroll 4
        for (int o = 0; o < nr; ++o)
            d[o] = _mm512_maskz_loadu_ps(om[v], dy + (r + (size_t)o) * dyrs + (size_t)v * VL);
#pragma GCC unroll 16
        for (int sr = 0; sr < 2 * nr + 1; ++sr) {
            const ptrdiff_t i = 2 * (ptrdiff_t)r + s->dh[0] + sr;
            const bool in = !edge || (i >= 0 && (size_t)i < ih);
            const float *xr = in ? s->x[0] + (size_t)i * s->rs + 2 * (size_t)v * VL : dy;
#pragma GCC unroll 3
            for (int kw = 0; kw < 3; ++kw) {
                const __m512 xv = load_step2(in ? xr + s->dw[kw] : dy, in ? mk[kw][v][0] : 0,
                                             in ? mk[kw][v][1] : 0, even);
#pragma GCC unroll 3
                for (int kh = 0; kh < 3; ++kh) {
                    const int o2 = sr - kh;
                    if (o2 < 0 || o2 % 2 != 0 || o2 / 2 >= nr) continue;
                    a[3 * kh + kw] = _mm512_fmadd_ps(xv, d[o2 / 2], a[3 * kh + kw]);
                }
            }
        }
    }
}

static inline __attribute__((always_inline)) void plane(const int nv, size_t rows, size_t ow,
                                                        const f32_dwrow_src *s, const float *dy,
                                                        size_t dyrs, float *acc)
{
    __m512 a0[9], a1[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t) {
        a0[t] = _mm512_loadu_ps(acc + (size_t)t * DW_ACC_LANES);
        a1[t] = _mm512_loadu_ps(acc + (size_t)t * DW_ACC_LANES + VL);
    }
    /* lanes of output column j = 16v + l: j < ow, source column 2j + dw
     * inside the row */
    __mmask16 mk[3][2][2], om[2];
    for (int v = 0; v < 2; ++v) {
        om[v] = 0;
        for (int l = 0; l < VL; ++l)
            if ((size_t)(v * VL + l) < ow) om[v] |= (__mmask16)(1u << l);
        for (int kw = 0; kw < 3; ++kw) {
            __mmask16 m = 0;
            for (int l = 0; l < VL; ++l) {
                const ptrdiff_t c = 2 * (ptrdiff_t)(v * VL + l) + s->dw[kw];
                if ((size_t)(v * VL + l) < ow && c >= 0 && c < (ptrdiff_t)s->iw)
                    m |= (__mmask16)(1u << l);
            }
            spread(m, &mk[kw][v][0], &mk[kw][v][1]);
        }
    }
    const __m512i even =
        _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    /* row blocks whose source rows are all inside: 2r + dh0 >= 0 and
     * 2(r + R - 1) + dh0 + 2 < ih */
    const ptrdiff_t dh0 = s->dh[0];
    /* no source plane (a depth tap in the padding): every row outside, its
     * zero terms still added (the packed path adds them) */
    const size_t ih = s->x[0] != NULL ? s->ih : 0;
    size_t r = 0;
    while (r + R <= rows) {
        ukernel_prefetch_steps(&s->pf, r, r + R, rows);
        const ptrdiff_t lo = 2 * (ptrdiff_t)r + dh0, hi = lo + 2 * R;
        if (lo >= 0 && hi < (ptrdiff_t)ih)
            block(R, nv, false, r, s, ih, mk, om, even, dy, dyrs, a0, a1);
        else
            block(R, nv, true, r, s, ih, mk, om, even, dy, dyrs, a0, a1);
        r += R;
    }
    for (; r < rows; ++r) {
        ukernel_prefetch_steps(&s->pf, r, r + 1, rows);
        block(1, nv, true, r, s, ih, mk, om, even, dy, dyrs, a0, a1);
    }
#pragma GCC unroll 9
    for (int t = 0; t < 9; ++t) {
        _mm512_storeu_ps(acc + (size_t)t * DW_ACC_LANES, a0[t]);
        _mm512_storeu_ps(acc + (size_t)t * DW_ACC_LANES + VL, a1[t]);
    }
}

static __attribute__((noinline)) void plane_nv2(size_t rows, size_t ow, const f32_dwrow_src *s,
                                                const float *dy, size_t dyrs, float *acc)
{
    plane(2, rows, ow, s, dy, dyrs, acc);
}

static __attribute__((noinline)) void plane_nv1(size_t rows, size_t ow, const f32_dwrow_src *s,
                                                const float *dy, size_t dyrs, float *acc)
{
    plane(1, rows, ow, s, dy, dyrs, acc);
}

void f32_dwrowwt_s2_ukernel_9x32__avx512(size_t rows, size_t ow, const f32_dwrow_src *s,
                                         const float *dy, size_t dyrs, float *acc)
{
    if (ow > VL)
        plane_nv2(rows, ow, s, dy, dyrs, acc);
    else
        plane_nv1(rows, ow, s, dy, dyrs, acc);
}
