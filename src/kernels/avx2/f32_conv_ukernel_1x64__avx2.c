/* AVX2+FMA single-row convolution kernel: 1 channel x 64 lanes (8 ymm
 * accumulators): depthwise and very few output channels. */
#include <immintrin.h>

#include "kernels/avx2/f32_round__avx2.h"
#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/conv_dispatch.h"
#include "kernels/conv_ukernels.h"

#define VL 8

/* rounds: a constant, whether x is rounded (for kind xround) */
static inline __attribute__((always_inline)) void conv1_body(const int nv, const int rounds, size_t nr,
                                                             size_t nc, size_t nt, const float *w,
                                                             const float *x, size_t cs,
                                                             const ptrdiff_t *toff, float *y,
                                                             int accumulate, int xround)
{
    __m256 acc[8];
    const ptrdiff_t tail = (ptrdiff_t)nr - (nv - 1) * VL; /* lanes of the last vector */
#pragma GCC unroll 8
    for (int v = 0; v < nv; ++v)
        acc[v] =
            accumulate ? avx2_load_n(y + v * VL, v == nv - 1 ? tail : VL) : _mm256_setzero_ps();
    for (size_t c = 0; c < nc; ++c) {
        const float *xc = x + c * cs;
        for (size_t t = 0; t < nt; ++t) {
            const float *xt = xc + toff[t];
            const __m256 wv = _mm256_broadcast_ss(w++);
            __m256 xv[8];
#pragma GCC unroll 8
            for (int v = 0; v < nv; ++v) {
                xv[v] = _mm256_loadu_ps(xt + v * VL);
                if (rounds) xv[v] = f32x8_round(xv[v], xround);
            }
#pragma GCC unroll 8
            for (int v = 0; v < nv; ++v) acc[v] = _mm256_fmadd_ps(wv, xv[v], acc[v]);
        }
    }
#pragma GCC unroll 8
    for (int v = 0; v < nv; ++v)
        avx2_store_n(y + v * VL, v == nv - 1 ? tail : VL, acc[v]);
}

void f32_conv_ukernel_1x64__avx2(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
    const float *x, size_t cs, const ptrdiff_t *toff, float *y,
    size_t ldy, int accumulate, int xround)
{
    if (xround == F32_ROUND_NONE)
        CONV1_VECTORS(0);
    else
        CONV1_VECTORS(1);
}
