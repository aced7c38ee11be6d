/* AVX2+FMA spatial-vector convolution kernel: 4 channels x 24 lanes
 * (12 ymm accumulators, 3 input vectors, 1 broadcast). */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx2/f32_round__avx2.h"
#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/conv_dispatch.h"
#include "kernels/conv_ukernels.h"

#define MR 4
#define VL 8

/* rounds: a constant, whether x is rounded (for kind xround) */
static inline __attribute__((always_inline)) void conv_body(const int nv, const int rows,
                                                            const int rounds, size_t nr, size_t nc,
                                                            size_t nt, const float *w,
                                                            const float *x, size_t cs,
                                                            const ptrdiff_t *toff, float *y,
                                                            size_t ldy, int accumulate, int xround)
{
    __m256 acc[MR][3];
    const ptrdiff_t tail = (ptrdiff_t)nr - (nv - 1) * VL; /* lanes of the last vector */
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m)
#pragma GCC unroll 8
        for (int v = 0; v < nv; ++v) acc[m][v] = _mm256_setzero_ps();
    if (accumulate)
#pragma GCC unroll 8
        for (int m = 0; m < rows; ++m) /* rows == mr, a constant: acc stays in registers */
#pragma GCC unroll 8
            for (int v = 0; v < nv; ++v)
                acc[m][v] =
                    avx2_load_n(y + (size_t)m * ldy + (size_t)v * VL, v == nv - 1 ? tail : VL);
    for (size_t c = 0; c < nc; ++c) {
        const float *xc = x + c * cs;
        /* as in the AVX-512 kernel's tiles of few rows: at most 4 rows do
         * too little work per input vector to hide its L2 latency, so the
         * lines of the channel four ahead go to L1 (conv1d_wav_k10s5's phase
         * rows: dx -11% CPU time with ACLCONV_ISA=avx2; r50_c2_3x3's dx with
         * this kernel unchanged) */
        {
            /* integer arithmetic: the address may lie past the slab (a prefetch
             * does not fault, a pointer past the object is undefined) */
            const uintptr_t pf = (uintptr_t)(xc + toff[0]) + 4 * cs * sizeof(float);
            for (int v = 0; v <= (nv * VL + 15) / 16; ++v)
                _mm_prefetch((const char *)(pf + 64 * (uintptr_t)v), _MM_HINT_T0);
        }
        for (size_t t = 0; t < nt; ++t) {
            const float *xt = xc + toff[t];
            __m256 xv[3];
#pragma GCC unroll 8
            for (int v = 0; v < nv; ++v) {
                xv[v] = _mm256_loadu_ps(xt + v * VL);
                if (rounds) xv[v] = f32x8_round(xv[v], xround);
            }
#pragma GCC unroll 8
            for (int m = 0; m < rows; ++m) {
                const __m256 wv = _mm256_broadcast_ss(w + m);
#pragma GCC unroll 8
                for (int v = 0; v < nv; ++v) acc[m][v] = _mm256_fmadd_ps(wv, xv[v], acc[m][v]);
            }
            w += MR;
        }
    }
#pragma GCC unroll 8
    for (int m = 0; m < rows; ++m)
#pragma GCC unroll 8
        for (int v = 0; v < nv; ++v)
            avx2_store_n(y + (size_t)m * ldy + (size_t)v * VL, v == nv - 1 ? tail : VL, acc[m][v]);
}

/* the rows the tile has, as a constant: an edge tile (mr < MR) does no
 * multiply-add for the rows it drops */
#define CONV_ROWS(rounds)                                                                          \
    do {                                                                                           \
        switch (mr) {                                                                              \
        case 1: CONV_COLUMNS(1, rounds); break;                                                    \
        case 2: CONV_COLUMNS(2, rounds); break;                                                    \
        case 3: CONV_COLUMNS(3, rounds); break;                                                    \
        case 4: CONV_COLUMNS(4, rounds); break;                                                    \
        default: break;                                                                            \
        }                                                                                          \
    } while (0)

void f32_conv_ukernel_4x24__avx2(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                 const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                 size_t ldy, int accumulate, int xround)
{
    if (xround == F32_ROUND_NONE)
        CONV_ROWS(0);
    else
        CONV_ROWS(1);
}
