/* AVX-512 single-row convolution kernel: 1 channel x 128 lanes (8 zmm
 * accumulators): depthwise and very few output channels. */
#include <immintrin.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/conv_dispatch.h"
#include "kernels/conv_ukernels.h"

#define VL 16

/* rounds: a constant, whether x is rounded (for kind xround) */
static inline __attribute__((always_inline)) void conv1_body(const int nv, const int rounds, size_t nr,
                                                             size_t nc, size_t nt, const float *w,
                                                             const float *x, size_t cs,
                                                             const ptrdiff_t *toff, float *y,
                                                             int accumulate, int xround)
{
    __m512 acc[8];
    const __mmask16 last = (__mmask16)((1u << (nr - (size_t)(nv - 1) * VL)) - 1u);
    for (int v = 0; v < nv; ++v)
        acc[v] = accumulate ? _mm512_maskz_loadu_ps(v == nv - 1 ? last : (__mmask16)0xffff, y + v * VL)
                            : _mm512_setzero_ps();
    for (size_t c = 0; c < nc; ++c) {
        const float *xc = x + c * cs;
        for (size_t t = 0; t < nt; ++t) {
            const float *xt = xc + toff[t];
            const __m512 wv = _mm512_set1_ps(*w++);
            __m512 xv[8];
            for (int v = 0; v < nv; ++v) {
                xv[v] = _mm512_loadu_ps(xt + v * VL);
                if (rounds) xv[v] = f32x16_round(xv[v], xround);
            }
            for (int v = 0; v < nv; ++v) acc[v] = _mm512_fmadd_ps(wv, xv[v], acc[v]);
        }
    }
    for (int v = 0; v < nv; ++v)
        _mm512_mask_storeu_ps(y + v * VL, v == nv - 1 ? last : (__mmask16)0xffff, acc[v]);
}

void f32_conv_ukernel_1x128__avx512(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
    const float *x, size_t cs, const ptrdiff_t *toff, float *y,
    size_t ldy, int accumulate, int xround)
{
    if (xround == F32_ROUND_NONE)
        CONV1_VECTORS(0);
    else
        CONV1_VECTORS(1);
}
