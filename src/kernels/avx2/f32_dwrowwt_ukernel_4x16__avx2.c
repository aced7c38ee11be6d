/* AVX2+FMA in-place depthwise weight-gradient dot products: 4 taps x 16
 * partial sums (two ymm per tap: the even and the odd 8-wide column blocks of
 * a row), so 8 independent FMA chains, the dy vectors of a block loaded once
 * per group of 4 taps, the x rows read where they lie with masked loads
 * (padding and the columns past ow read as zeros, never touched). */
#include <immintrin.h>

#include "kernels/dw_ukernels.h"

#define VL 8
#define TG 4

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
                _mm256_maskload_ps(dr + j + VL, vmask(lanes(0, (ptrdiff_t)(ow - j) - VL)));
#pragma GCC unroll 16
            for (int g = 0; g < ng; ++g) {
                const __m256 v0 = _mm256_maskload_ps(xp[g] + j, vmask(mt[g * nb + b] & keep[g]));
                const __m256 v1 =
                    _mm256_maskload_ps(xp[g] + j + VL, vmask(mt[g * nb + b + 1] & keep[g]));
                a0[g] = _mm256_fmadd_ps(v0, d0, a0[g]);
                a1[g] = _mm256_fmadd_ps(v1, d1, a1[g]);
            }
        }
        if (b < nb) { /* an even block, the last */
            const size_t j = b * VL;
            const __m256 d0 = _mm256_maskload_ps(dr + j, vmask(lanes(0, (ptrdiff_t)(ow - j))));
#pragma GCC unroll 16
            for (int g = 0; g < ng; ++g) {
                const __m256 v0 = _mm256_maskload_ps(xp[g] + j, vmask(mt[g * nb + b] & keep[g]));
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

void f32_dwrowwt_ukernel_4x16__avx2(size_t rows, size_t ow, const f32_dwrow_src *s, const float *dy,
                                    size_t dyrs, float *acc)
{
    const size_t nb = (ow + VL - 1) / VL, nt = s->nt;
    unsigned char m[DW_ROW_MASKS];
    for (size_t t = 0; t < nt; ++t)
        for (size_t b = 0; b < nb; ++b) {
            const ptrdiff_t j = (ptrdiff_t)(b * VL), c = j + s->dw[t];
            const ptrdiff_t hi =
                (ptrdiff_t)ow - j < (ptrdiff_t)s->iw - c ? (ptrdiff_t)ow - j : (ptrdiff_t)s->iw - c;
            m[t * nb + b] = (unsigned char)lanes(-c, hi);
        }
    size_t t = 0;
    for (; t + TG <= nt; t += TG)
        sweep(TG, t, rows, ow, nb, s, m, dy, dyrs, acc);
    if (t + 2 <= nt) {
        sweep(2, t, rows, ow, nb, s, m, dy, dyrs, acc);
        t += 2;
    }
    if (t < nt) sweep(1, t, rows, ow, nb, s, m, dy, dyrs, acc);
}
