/* AVX-512 spatial-vector convolution kernel: 8 channels x 48 lanes
 * (24 zmm accumulators, 3 input vectors, 1 broadcast). */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/conv_dispatch.h"
#include "kernels/conv_ukernels.h"

#define MR 8
#define VL 16
/* conv_body's `accumulate`: the tile starts from zero and is stored, starts
 * from y, or starts from zero and its full vectors are streamed out
 * (f32_conv_ukernel_8x48_nt__avx512) */
enum { CONV_STORE = 0, CONV_ACCUMULATE = 1, CONV_STREAM = 2 };

/* rounds: a constant, whether x is rounded (for kind xround) */
static inline __attribute__((always_inline)) void conv_body(const int nv, const int rows,
                                                            const int rounds, size_t nr, size_t nc,
                                                            size_t nt, const float *w,
                                                            const float *x, size_t cs,
                                                            const ptrdiff_t *toff, float *y,
                                                            size_t ldy, int accumulate, int xround)
{
    __m512 acc[MR][3];
    const __mmask16 last = (__mmask16)((1u << (nr - (size_t)(nv - 1) * VL)) - 1u);
    for (int m = 0; m < rows; ++m)
        for (int v = 0; v < nv; ++v) acc[m][v] = _mm512_setzero_ps();
    if (accumulate == CONV_ACCUMULATE)
        for (int m = 0; m < rows; ++m) /* rows == mr, a constant: acc stays in registers */
            for (int v = 0; v < nv; ++v)
                acc[m][v] = _mm512_maskz_loadu_ps(v == nv - 1 ? last : (__mmask16)0xffff,
                                                  y + (size_t)m * ldy + (size_t)v * VL);
    for (size_t c = 0; c < nc; ++c) {
        const float *xc = x + c * cs;
        /* few rows do too little work per input vector to hide its L2
         * latency (the slab's channels are far apart): the lines of the
         * channel four ahead go to L1 (conv1d_wav_k10s5's 5 phase rows: dx
         * -20% CPU time; full tiles of dense layers reach 85-95% of the
         * peak without it), and this channel's lines of the next tile to
         * L2: read in place, the x of such a pass comes from memory, 512
         * rows 12.8 KB apart that no hardware prefetcher follows
         * (conv1d_wav_k10s5's dx on Zen 5: 2.3 -> 1.5 ms, 2 threads) */
        if (rows <= 5) {
            /* integer arithmetic: the address may lie past the slab (a prefetch
             * does not fault, a pointer past the object is undefined) */
            const uintptr_t pf = (uintptr_t)(xc + toff[0]) + 4 * cs * sizeof(float);
            for (int v = 0; v <= nv; ++v)
                _mm_prefetch((const char *)(pf + 64 * (uintptr_t)v), _MM_HINT_T0);
            const uintptr_t nx = (uintptr_t)(xc + toff[0]) + 3 * VL * sizeof(float);
            for (int v = 0; v <= nv; ++v)
                _mm_prefetch((const char *)(nx + 64 * (uintptr_t)v), _MM_HINT_T1);
        }
        for (size_t t = 0; t < nt; ++t) {
            const float *xt = xc + toff[t];
            __m512 xv[3];
            for (int v = 0; v < nv; ++v) {
                xv[v] = _mm512_loadu_ps(xt + v * VL);
                if (rounds) xv[v] = f32x16_round(xv[v], xround);
            }
            for (int m = 0; m < rows; ++m) {
                const __m512 wv = _mm512_set1_ps(w[m]);
                for (int v = 0; v < nv; ++v) acc[m][v] = _mm512_fmadd_ps(wv, xv[v], acc[m][v]);
            }
            w += MR;
        }
    }
    /* (non-temporal stores need 64-byte-aligned vectors: every row's when
     * y and the row pitch are) */
    const int stream = accumulate == CONV_STREAM && (uintptr_t)y % 64 == 0 && ldy % VL == 0;
    for (int m = 0; m < rows; ++m)
        for (int v = 0; v < nv; ++v) {
            float *at = y + (size_t)m * ldy + (size_t)v * VL;
            if (stream && (v < nv - 1 || last == (__mmask16)0xffff))
                _mm512_stream_ps(at, acc[m][v]);
            else
                _mm512_mask_storeu_ps(at, v == nv - 1 ? last : (__mmask16)0xffff, acc[m][v]);
        }
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
        case 5: CONV_COLUMNS(5, rounds); break;                                                    \
        case 6: CONV_COLUMNS(6, rounds); break;                                                    \
        case 7: CONV_COLUMNS(7, rounds); break;                                                    \
        case 8: CONV_COLUMNS(8, rounds); break;                                                    \
        default: break;                                                                            \
        }                                                                                          \
    } while (0)

void f32_conv_ukernel_8x48__avx512(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                   const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                   size_t ldy, int accumulate, int xround)
{
    accumulate = accumulate ? CONV_ACCUMULATE : CONV_STORE;
    if (xround == F32_ROUND_NONE)
        CONV_ROWS(0);
    else
        CONV_ROWS(1);
}

void f32_conv_ukernel_8x48_nt__avx512(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                      const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                      size_t ldy, int accumulate, int xround)
{
    (void)accumulate; /* (0 by its contract) */
    accumulate = CONV_STREAM;
    if (xround == F32_ROUND_NONE)
        CONV_ROWS(0);
    else
        CONV_ROWS(1);
}
