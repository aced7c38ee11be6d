/* AVX-512 spatial-vector convolution kernel: 8 channels x 48 lanes
 * (24 zmm accumulators, 3 input vectors, 1 broadcast). */
#include <immintrin.h>

#include "kernels/conv_ukernels.h"

#define MR 8
#define VL 16

static inline __attribute__((always_inline)) void conv_body(const int nv, size_t mr, size_t nr,
                                                            size_t nc, size_t nt, const float *w,
                                                            const float *x, size_t cs,
                                                            const ptrdiff_t *toff, float *y,
                                                            size_t ldy, int accumulate)
{
    __m512 acc[MR][3];
    const __mmask16 last = (__mmask16)((1u << (nr - (size_t)(nv - 1) * VL)) - 1u);
    for (int m = 0; m < MR; ++m)
        for (int v = 0; v < nv; ++v) acc[m][v] = _mm512_setzero_ps();
    if (accumulate)
        for (size_t m = 0; m < mr; ++m)
            for (int v = 0; v < nv; ++v)
                acc[m][v] = _mm512_maskz_loadu_ps(v == nv - 1 ? last : (__mmask16)0xffff,
                                                  y + m * ldy + (size_t)v * VL);
    for (size_t c = 0; c < nc; ++c) {
        const float *xc = x + c * cs;
        for (size_t t = 0; t < nt; ++t) {
            const float *xt = xc + toff[t];
            __m512 xv[3];
            for (int v = 0; v < nv; ++v) xv[v] = _mm512_loadu_ps(xt + v * VL);
            for (int m = 0; m < MR; ++m) {
                const __m512 wv = _mm512_set1_ps(w[m]);
                for (int v = 0; v < nv; ++v) acc[m][v] = _mm512_fmadd_ps(wv, xv[v], acc[m][v]);
            }
            w += MR;
        }
    }
    for (size_t m = 0; m < mr; ++m)
        for (int v = 0; v < nv; ++v)
            _mm512_mask_storeu_ps(y + m * ldy + (size_t)v * VL,
                                  v == nv - 1 ? last : (__mmask16)0xffff, acc[m][v]);
}

void f32_conv_ukernel_8x48__avx512(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                   const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                   size_t ldy, int accumulate)
{
    if (nr > 2 * VL)
        conv_body(3, mr, nr, nc, nt, w, x, cs, toff, y, ldy, accumulate);
    else if (nr > VL)
        conv_body(2, mr, nr, nc, nt, w, x, cs, toff, y, ldy, accumulate);
    else
        conv_body(1, mr, nr, nc, nt, w, x, cs, toff, y, ldy, accumulate);
}
