/* AVX-512 grouped data-gradient kernel: 8 channels x 48 positions (24 zmm
 * accumulators, 3 source vectors, 1 broadcast). The lanes of a W tap that
 * fall off their row are cleared by the load mask, computed once per call
 * per W tap from the lanes' columns; the accumulators start at zero in
 * registers (no accumulate mode, so gcc keeps them out of memory). Streamed
 * rows (64-byte aligned) skip the read-for-ownership of lines written whole:
 * ~12% of resnext_g32's data pass when writing gradInput in place. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/grp_ukernels.h"

#define MR 8
#define VL 16

static inline __attribute__((always_inline)) void
body(const int nv, size_t mr, size_t nr, size_t nc, size_t nrt, size_t nkw, const float *w,
     const float *x, size_t cs, const ptrdiff_t *roff, const ptrdiff_t *wsh, size_t ow, size_t col0,
     float *y, size_t ldy, int stream, int yround, const ukernel_prefetch *pf)
{
    const __m512i owv = _mm512_set1_epi32((int)ow);
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __mmask16 last = (__mmask16)((1u << (nr - (size_t)(nv - 1) * VL)) - 1u);
    __m512i col[3];
    for (int v = 0; v < nv; ++v) {
        __m512i cv = _mm512_add_epi32(_mm512_set1_epi32((int)(col0 + (size_t)v * VL)), iota);
        for (__mmask16 ge; (ge = _mm512_cmpge_epi32_mask(cv, owv)) != 0;)
            cv = _mm512_mask_sub_epi32(cv, ge, cv, owv);
        col[v] = cv;
    }
    __mmask16 km[GRP_CONV_MAX_KW][3];
    for (size_t k = 0; k < nkw; ++k) {
        const __m512i s = _mm512_set1_epi32((int)wsh[k]);
        for (int v = 0; v < nv; ++v) {
            const __m512i c = _mm512_add_epi32(col[v], s);
            km[k][v] = _mm512_cmpge_epi32_mask(c, _mm512_setzero_si512()) &
                       _mm512_cmplt_epi32_mask(c, owv) & (v == nv - 1 ? last : (__mmask16)0xffff);
        }
    }
    __m512 acc[MR][3];
    _Pragma("GCC unroll 8") for (int m = 0; m < MR; ++m)
        _Pragma("GCC unroll 3") for (int v = 0; v < nv; ++v) acc[m][v] = _mm512_setzero_ps();
    const ukernel_prefetch q = ukernel_prefetch_or_none(pf);
    size_t step = 0;
    for (size_t r = 0; r < nrt; ++r) {
        const float *xr = x + roff[r];
        for (size_t k = 0; k < nkw; ++k) {
            const float *xk = xr + wsh[k];
            __mmask16 mk[3];
            _Pragma("GCC unroll 3") for (int v = 0; v < nv; ++v) mk[v] = km[k][v];
            for (size_t c = 0; c < nc; ++c) {
                const float *xc = xk + c * cs;
                __m512 xv[3];
                _Pragma("GCC unroll 3") for (int v = 0; v < nv; ++v)
                    xv[v] = _mm512_maskz_loadu_ps(mk[v], xc + v * VL);
                _Pragma("GCC unroll 8") for (int m = 0; m < MR; ++m) {
                    const __m512 wv = _mm512_set1_ps(w[m]);
                    _Pragma("GCC unroll 3") for (int v = 0; v < nv; ++v)
                        acc[m][v] = _mm512_fmadd_ps(wv, xv[v], acc[m][v]);
                }
                w += MR;
                ukernel_prefetch_line(&q, step++);
            }
        }
    }
    ukernel_prefetch_from(&q, step);
    _Pragma("GCC unroll 8") for (int m = 0; m < MR; ++m)
        if ((size_t)m < mr) {
            float *ym = y + (size_t)m * ldy;
            const bool nt = stream && ((uintptr_t)ym & (VL * sizeof(float) - 1)) == 0;
            _Pragma("GCC unroll 3") for (int v = 0; v < nv; ++v) {
                if (yround != F32_ROUND_NONE) acc[m][v] = f32x16_round(acc[m][v], yround);
                if (nt && (v < nv - 1 || last == (__mmask16)0xffff))
                    _mm512_stream_ps(ym + (size_t)v * VL, acc[m][v]);
                else
                    _mm512_mask_storeu_ps(ym + (size_t)v * VL, v == nv - 1 ? last : (__mmask16)0xffff,
                                          acc[m][v]);
            }
        }
}

void f32_grpconv_ukernel_8x48__avx512(size_t mr, size_t nr, size_t nc, size_t nrt, size_t nkw,
                                      const float *w, const float *x, size_t cs,
                                      const ptrdiff_t *roff, const ptrdiff_t *wsh, size_t ow,
                                      size_t col0, float *y, size_t ldy, int stream, int yround,
                                      const ukernel_prefetch *pf)
{
    if (nr > 2 * VL)
        body(3, mr, nr, nc, nrt, nkw, w, x, cs, roff, wsh, ow, col0, y, ldy, stream, yround, pf);
    else if (nr > VL)
        body(2, mr, nr, nc, nrt, nkw, w, x, cs, roff, wsh, ow, col0, y, ldy, stream, yround, pf);
    else
        body(1, mr, nr, nc, nrt, nkw, w, x, cs, roff, wsh, ow, col0, y, ldy, stream, yround, pf);
}
