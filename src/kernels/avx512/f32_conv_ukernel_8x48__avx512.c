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

/* 1 when the call's two taps read x one position apart in ascending order,
 * -1 in descending order, else 0 */
static inline int conv_pair_shift(size_t nt, const ptrdiff_t *toff)
{
    if (nt != 2) return 0;
    return toff[1] - toff[0] == 1 ? 1 : toff[0] - toff[1] == 1 ? -1 : 0;
}

/* conv_body's `rounds`: x read as it is; each vector rounded for kind
 * xround as it is loaded; or two taps one position apart (ascending,
 * descending: conv_pair_shift) with x rounded for HF32 or FLOAT16, each
 * vector once (conv_pair_body) */
enum {
    ROUNDS_NONE,
    ROUNDS_EACH,
    ROUNDS_PAIR_UP_HF32,
    ROUNDS_PAIR_DOWN_HF32,
    ROUNDS_PAIR_UP_F16,
    ROUNDS_PAIR_DOWN_F16
};
/* Rows of the pair form at most: with more, its vectors and the
 * accumulators do not fit the 32 registers. */
#define PAIR_MAX_ROWS 5

/* One channel of a call whose two taps read x one position apart: the
 * tap vectors at the lower offset t0 loaded and rounded once, the other
 * tap's formed from them by valignd (for 3 vectors 4 roundings, not 6:
 * conv1d_wav_k10s5's phase rows, 15 multiply-adds a tap, where HF32's
 * six integer operations a rounding had made the kernel +40% over mode 0
 * from memory on Zen 4, and -12% with this form); up: tap 0 is the lower.
 * The sums are the same: the same rounded values, the same terms in the
 * same order. The element after the last vector (lane 0 of the shift's
 * last source) comes from a broadcast: a masked one-lane load there (its
 * other lanes in the next line) made the kernel twice as slow on Zen 4. */
static inline __attribute__((always_inline)) void conv_pair_body(const int nv, const int rows,
                                                                 const int up, const int kind,
                                                                 const float *xc, const float *w,
                                                                 __m512 acc[][3])
{
    __m512 u[4], s[3];
    for (int v = 0; v < nv; ++v)
        u[v] = f32x16_round(_mm512_loadu_ps(xc + v * VL), kind);
    u[nv] = f32x16_round(_mm512_set1_ps(xc[nv * VL]), kind);
    for (int v = 0; v < nv; ++v)
        s[v] = _mm512_castsi512_ps(
            _mm512_alignr_epi32(_mm512_castps_si512(u[v + 1]), _mm512_castps_si512(u[v]), 1));
    for (int m = 0; m < rows; ++m) { /* tap 0 */
        const __m512 wv = _mm512_set1_ps(w[m]);
        for (int v = 0; v < nv; ++v)
            acc[m][v] = _mm512_fmadd_ps(wv, up ? u[v] : s[v], acc[m][v]);
    }
    for (int m = 0; m < rows; ++m) { /* tap 1 */
        const __m512 wv = _mm512_set1_ps(w[MR + m]);
        for (int v = 0; v < nv; ++v)
            acc[m][v] = _mm512_fmadd_ps(wv, up ? s[v] : u[v], acc[m][v]);
    }
}

/* rounds: a constant (ROUNDS_*) */
static inline __attribute__((always_inline)) void
conv_body(const int nv, const int rows, const int rounds, size_t nr, size_t nc, size_t nt,
          const float *w, const float *x, size_t cs, const ptrdiff_t *toff, float *y, size_t ldy,
          int accumulate, int xround)
{
    __m512 acc[MR][3];
    const int pair = rounds >= ROUNDS_PAIR_UP_HF32 && rows <= PAIR_MAX_ROWS;
    const int up = rounds == ROUNDS_PAIR_UP_HF32 || rounds == ROUNDS_PAIR_UP_F16;
    const int pkind = rounds >= ROUNDS_PAIR_UP_F16 ? F32_ROUND_F16 : F32_ROUND_HF32;
    const ptrdiff_t t0 = pair ? (up ? toff[0] : toff[1]) : 0;
    const __mmask16 last = (__mmask16)((1u << (nr - (size_t)(nv - 1) * VL)) - 1u);
    for (int m = 0; m < rows; ++m)
        for (int v = 0; v < nv; ++v)
            acc[m][v] = _mm512_setzero_ps();
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
        if (pair) {
            conv_pair_body(nv, rows, up, pkind, xc + t0, w, acc);
            w += 2 * MR;
            continue;
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
                for (int v = 0; v < nv; ++v)
                    acc[m][v] = _mm512_fmadd_ps(wv, xv[v], acc[m][v]);
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

/* the rows the tile has, as a constant, up to max rows (the pair form's
 * instances stop at PAIR_MAX_ROWS): an edge tile (mr < MR) does no
 * multiply-add for the rows it drops */
#define CONV_ROWS_UPTO(rounds, max)                                                                \
    do {                                                                                           \
        switch (mr) {                                                                              \
        case 1: CONV_COLUMNS(1, rounds); break;                                                    \
        case 2: CONV_COLUMNS(2, rounds); break;                                                    \
        case 3: CONV_COLUMNS(3, rounds); break;                                                    \
        case 4: CONV_COLUMNS(4, rounds); break;                                                    \
        case 5: CONV_COLUMNS(5, rounds); break;                                                    \
        case 6:                                                                                    \
            if ((max) >= 6) CONV_COLUMNS(6, rounds);                                               \
            break;                                                                                 \
        case 7:                                                                                    \
            if ((max) >= 7) CONV_COLUMNS(7, rounds);                                               \
            break;                                                                                 \
        case 8:                                                                                    \
            if ((max) >= 8) CONV_COLUMNS(8, rounds);                                               \
            break;                                                                                 \
        default: break;                                                                            \
        }                                                                                          \
    } while (0)
#define CONV_ROWS(rounds) CONV_ROWS_UPTO(rounds, MR)
#define CONV_PAIR_ROWS(rounds) CONV_ROWS_UPTO(rounds, PAIR_MAX_ROWS)

/* The instance for xround and the taps: the pair form where it applies. */
#define CONV_DISPATCH()                                                                            \
    do {                                                                                           \
        const int pair = mr <= PAIR_MAX_ROWS ? conv_pair_shift(nt, toff) : 0;                      \
        /* (each `rounds` a constant: chosen at run time inside an instance,                       \
         * the form and kind kept its vectors on the stack) */                                     \
        const int hf32 = xround == F32_ROUND_HF32, f16 = xround == F32_ROUND_F16;                  \
        if (xround == F32_ROUND_NONE)                                                              \
            CONV_ROWS(ROUNDS_NONE);                                                                \
        else if (pair > 0 && hf32)                                                                 \
            CONV_PAIR_ROWS(ROUNDS_PAIR_UP_HF32);                                                   \
        else if (pair < 0 && hf32)                                                                 \
            CONV_PAIR_ROWS(ROUNDS_PAIR_DOWN_HF32);                                                 \
        else if (pair > 0 && f16)                                                                  \
            CONV_PAIR_ROWS(ROUNDS_PAIR_UP_F16);                                                    \
        else if (pair < 0 && f16)                                                                  \
            CONV_PAIR_ROWS(ROUNDS_PAIR_DOWN_F16);                                                  \
        else                                                                                       \
            CONV_ROWS(ROUNDS_EACH);                                                                \
    } while (0)

void f32_conv_ukernel_8x48__avx512(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                   const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                   size_t ldy, int accumulate, int xround)
{
    accumulate = accumulate ? CONV_ACCUMULATE : CONV_STORE;
    CONV_DISPATCH();
}

void f32_conv_ukernel_8x48_nt__avx512(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                      const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                      size_t ldy, int accumulate, int xround)
{
    (void)accumulate; /* (0 by its contract) */
    accumulate = CONV_STREAM;
    CONV_DISPATCH();
}
