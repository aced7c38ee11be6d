/* AVX2+FMA channel-vector convolution kernel: 16 output channels (two ymm)
 * x 6 positions (12 accumulators; x broadcast once for both channel
 * halves). Per channel and tap: 2 weight loads and 6 broadcasts for 12 FMAs
 * (8x12: 13 loads for 12 FMAs; AVX2 has no broadcast operand of the FMA, so
 * every broadcast is a load of its own). The tile is transposed in
 * registers at the end, an 8 x 8 block per channel half, so the kernel
 * reads and writes the same [channel][position] layout as the
 * spatial-vector 'conv' kernel. */
#include <immintrin.h>

#include "common/dtype.h"
#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/avx2/transpose8__avx2.h"
#include "kernels/conv_ukernels.h"

#define MR 16
#define NR 6
#define VL 8

/* y[m*ldy + j*ystep] for m < rows, j < n into r, transposed: r[j] holds
 * position j of 8 channels (rows m >= rows are 0) */
static inline __attribute__((always_inline)) void
load_block(__m256 r[VL], int n, size_t rows, const float *y, size_t ldy, size_t ystep)
{
    const __m256i cols = avx2_lane_mask(n);
#pragma GCC unroll 8
    for (int m = 0; m < VL; ++m) {
        r[m] = _mm256_setzero_ps();
        if ((size_t)m < rows && ystep == 1) r[m] = _mm256_maskload_ps(y + (size_t)m * ldy, cols);
        if ((size_t)m < rows && ystep != 1) {
            float v[VL] = {0};
            for (int j = 0; j < n; ++j)
                v[j] = y[(size_t)m * ldy + (size_t)j * ystep];
            r[m] = _mm256_loadu_ps(v);
        }
    }
    transpose8(r);
}

/* the inverse: r[j] for j < n back to y[m*ldy + j*ystep], only m < rows,
 * j < n (a step other than 1, rare on this ISA, is stored lane by lane) */
static inline __attribute__((always_inline)) void store_block(__m256 r[VL], int n, size_t rows,
                                                              float *y, size_t ldy, size_t ystep)
{
#pragma GCC unroll 8
    for (int j = n; j < VL; ++j)
        r[j] = _mm256_setzero_ps();
    transpose8(r);
#pragma GCC unroll 8
    for (int m = 0; m < VL; ++m) {
        if ((size_t)m >= rows) continue;
        if (ystep == 1) {
            avx2_store_n(y + (size_t)m * ldy, n, r[m]);
        } else {
            float v[VL];
            _mm256_storeu_ps(v, r[m]);
            for (int j = 0; j < n; ++j)
                y[(size_t)m * ldy + (size_t)j * ystep] = v[j];
        }
    }
}

/* halves: 1 when mr <= 8 (the second channel half is neither computed nor
 * stored), else 2; edges (a constant): the taps' flags tedge apply */
static inline __attribute__((always_inline)) void
convcv_body(const int nr, const int halves, size_t mr, size_t nc, size_t nt, size_t ntw,
            const float *w, const float *x, size_t cs, const ptrdiff_t *toff, const uint8_t *tedge,
            const int edges, float *y, size_t ldy, size_t ystep, int accumulate)
{
    /* channels [0, 8) in lo, [8, 16) in hi; r arrays of VL for the transposes */
    __m256 lo[VL], hi[VL];
    const size_t mr1 = mr > VL ? mr - VL : 0;
    if (accumulate) {
        /* the running sums start from y, transposed like the result */
        load_block(lo, nr, mr < VL ? mr : VL, y, ldy, ystep);
        if (halves > 1) load_block(hi, nr, mr1, y + VL * ldy, ldy, ystep);
    } else {
#pragma GCC unroll 8
        for (int j = 0; j < nr; ++j) {
            lo[j] = _mm256_setzero_ps();
            if (halves > 1) hi[j] = _mm256_setzero_ps();
        }
    }
    /* 1x1 (one tap a channel): channels in pairs, no tap loop (its
     * branches and pointer steps next to 12 FMAs were a third of the
     * instructions) */
    size_t c = 0;
    if (!edges && nt == 1 && ntw == 1) {
        const float *xt = x + toff[0];
        for (; c + 2 <= nc; c += 2) {
            if (ystep == 1 && c < 2 * mr) {
                _mm_prefetch((const char *)(y + (c >> 1) * ldy), _MM_HINT_T0);
                _mm_prefetch((const char *)(y + (c >> 1) * ldy + (nr - 1)), _MM_HINT_T0);
            }
#pragma GCC unroll 2
            for (int u = 0; u < 2; ++u) {
                const __m256 w0 = _mm256_loadu_ps(w);
                const __m256 w1 = halves > 1 ? _mm256_loadu_ps(w + VL) : w0;
#pragma GCC unroll 8
                for (int j = 0; j < nr; ++j) {
                    const __m256 xv = _mm256_broadcast_ss(xt + j);
                    lo[j] = _mm256_fmadd_ps(w0, xv, lo[j]);
                    if (halves > 1) hi[j] = _mm256_fmadd_ps(w1, xv, hi[j]);
                }
                w += MR;
                xt += cs;
            }
        }
    }
    for (; c < nc; ++c) {
        const float *xc = x + c * cs;
        /* the result lines, spread over the loop (conv_ukernels.h) */
        if (ystep == 1 && c < 2 * mr)
            _mm_prefetch((const char *)(y + (c >> 1) * ldy + (c & 1) * (nr - 1)), _MM_HINT_T0);
        for (size_t t = 0; t < nt; ++t) {
            const float *xt = xc + toff[t];
            const unsigned e = edges ? tedge[t] : 0u;
            /* loaded into variables, then used by every FMA (docs/kernels.md) */
            const __m256 w0 = _mm256_loadu_ps(w);
            const __m256 w1 = halves > 1 ? _mm256_loadu_ps(w + VL) : w0;
#pragma GCC unroll 8
            for (int j = 0; j < nr; ++j) {
                if ((j == 0 && (e & CONVCV_SKIP_FIRST)) || (j == nr - 1 && (e & CONVCV_SKIP_LAST)))
                    continue;
                const __m256 xv = _mm256_broadcast_ss(xt + j);
                lo[j] = _mm256_fmadd_ps(w0, xv, lo[j]);
                if (halves > 1) hi[j] = _mm256_fmadd_ps(w1, xv, hi[j]);
            }
            w += MR;
        }
        w += (ntw - nt) * MR; /* the taps outside the call's range */
    }
    store_block(lo, nr, mr < VL ? mr : VL, y, ldy, ystep);
    if (halves > 1) store_block(hi, nr, mr1, y + VL * ldy, ldy, ystep);
}

#define CONVCV_HALVES(n, edges)                                                                    \
    if (mr > VL)                                                                                   \
        convcv_body(n, 2, mr, nc, nt, ntw, w, x, cs, toff, tedge, edges, y, ldy, ystep,            \
                    accumulate);                                                                   \
    else                                                                                           \
        convcv_body(n, 1, mr, nc, nt, ntw, w, x, cs, toff, tedge, edges, y, ldy, ystep,            \
                    accumulate);
#define CONVCV(n)                                                                                  \
    case n:                                                                                        \
        if (tedge) {                                                                               \
            CONVCV_HALVES(n, 1)                                                                    \
        } else {                                                                                   \
            CONVCV_HALVES(n, 0)                                                                    \
        }                                                                                          \
        break

void f32_convcv_ukernel_16x6__avx2(size_t mr, size_t nr, size_t nc, size_t nt, size_t ntw,
                                   const float *w, const float *x, size_t cs, const ptrdiff_t *toff,
                                   const uint8_t *tedge, void *yv, size_t ldy, size_t ystep,
                                   int accumulate, int y16)
{
    if (y16 != CONVCV_Y_F32) {
        /* 16-bit results through a tile, narrowed one by one (this ISA's
         * table leaves convcv_y16 unset: the engine's tile path narrows
         * whole runs) */
        float t[MR * NR];
        f32_convcv_ukernel_16x6__avx2(mr, nr, nc, nt, ntw, w, x, cs, toff, tedge, t, NR, 1, 0,
                                      CONVCV_Y_F32);
        uint16_t *y = yv;
        for (size_t m = 0; m < mr; ++m)
            for (size_t j = 0; j < nr; ++j)
                y[m * ldy + j * ystep] =
                    y16 == CONVCV_Y_BF16 ? f32_to_bf16(t[m * NR + j]) : f32_to_f16(t[m * NR + j]);
        return;
    }
    float *y = yv;
    /* the positions of the tile and the channel halves as constants: the
     * loop is unrolled for exactly those */
    switch (nr) {
        CONVCV(1);
        CONVCV(2);
        CONVCV(3);
        CONVCV(4);
        CONVCV(5);
        CONVCV(6);
    default: break;
    }
}
