/* AVX2+FMA channel-vector convolution kernel: 8 output channels (one ymm)
 * x 12 positions (12 accumulators, one per position; x broadcast). 12
 * accumulators, the weight vector and the broadcasts fit the 16 ymm without
 * spills. The tile is transposed in registers at the end, in 8 x 8 blocks,
 * so the kernel reads and writes the same [channel][position] layout as the
 * spatial-vector 'conv' kernel. */
#include <immintrin.h>

#include "kernels/avx2/transpose8__avx2.h"
#include "kernels/conv_ukernels.h"

#define MR 8
#define NR 12
#define VL 8

static inline __m256i lane_mask(int n)
{
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), idx);
}

/* y[m*ldy + j] for m < mr, j < n (n <= 8) into r, transposed: r[j] holds
 * position j of the 8 channels (rows m >= mr are 0) */
static inline __attribute__((always_inline)) void load_block(__m256 r[VL], int n, size_t mr,
                                                             const float *y, size_t ldy)
{
    const __m256i cols = lane_mask(n);
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m)
        r[m] = (size_t)m < mr ? _mm256_maskload_ps(y + (size_t)m * ldy, cols) : _mm256_setzero_ps();
    transpose8(r);
}

/* the inverse: r[j] for j < n back to y[m*ldy + j], only m < mr, j < n */
static inline __attribute__((always_inline)) void store_block(__m256 r[VL], int n, size_t mr,
                                                              float *y, size_t ldy)
{
    const __m256i cols = lane_mask(n);
#pragma GCC unroll 8
    for (int j = n; j < VL; ++j)
        r[j] = _mm256_setzero_ps();
    transpose8(r);
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m)
        if ((size_t)m < mr) _mm256_maskstore_ps(y + (size_t)m * ldy, cols, r[m]);
}

static inline __attribute__((always_inline)) void
convcv_body(const int nr, size_t mr, size_t nc, size_t nt, const float *w, const float *x,
            size_t cs, const ptrdiff_t *toff, float *y, size_t ldy, int accumulate)
{
    /* positions [0, n0) in lo, [VL, nr) in hi: one 8 x 8 transpose block
     * each; every index is a constant after unrolling, so both stay in
     * registers */
    const int n0 = nr < VL ? nr : VL;
    __m256 lo[VL], hi[VL];
    if (accumulate) {
        /* the running sums start from y, transposed like the result */
        load_block(lo, n0, mr, y, ldy);
        if (nr > VL) load_block(hi, nr - VL, mr, y + VL, ldy);
    } else {
#pragma GCC unroll 8
        for (int j = 0; j < n0; ++j)
            lo[j] = _mm256_setzero_ps();
#pragma GCC unroll 8
        for (int j = VL; j < nr; ++j)
            hi[j - VL] = _mm256_setzero_ps();
    }
    for (size_t c = 0; c < nc; ++c) {
        const float *xc = x + c * cs;
        for (size_t t = 0; t < nt; ++t) {
            const float *xt = xc + toff[t];
            /* loaded into a variable, then used by every FMA (docs/kernels.md) */
            const __m256 wv = _mm256_loadu_ps(w);
#pragma GCC unroll 8
            for (int j = 0; j < n0; ++j)
                lo[j] = _mm256_fmadd_ps(wv, _mm256_broadcast_ss(xt + j), lo[j]);
#pragma GCC unroll 8
            for (int j = VL; j < nr; ++j)
                hi[j - VL] = _mm256_fmadd_ps(wv, _mm256_broadcast_ss(xt + j), hi[j - VL]);
            w += MR;
        }
    }
    store_block(lo, n0, mr, y, ldy);
    if (nr > VL) store_block(hi, nr - VL, mr, y + VL, ldy);
}

#define CONVCV(n)                                                                                  \
    case n: convcv_body(n, mr, nc, nt, w, x, cs, toff, y, ldy, accumulate); break

void f32_convcv_ukernel_8x12__avx2(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                   const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                   size_t ldy, int accumulate)
{
    /* the positions of the tile as a constant: the broadcasts and
     * accumulators of the loop are unrolled for exactly that many */
    switch (nr) {
        CONVCV(1);
        CONVCV(2);
        CONVCV(3);
        CONVCV(4);
        CONVCV(5);
        CONVCV(6);
        CONVCV(7);
        CONVCV(8);
        CONVCV(9);
        CONVCV(10);
        CONVCV(11);
        CONVCV(12);
    default: break;
    }
}
