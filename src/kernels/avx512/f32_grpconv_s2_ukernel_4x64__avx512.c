/* AVX-512 grouped data-gradient kernel for a W stride of 2: 4 channels x 32
 * columns of each W output phase (16 zmm accumulators, the weights
 * broadcast from memory, each for two FMAs), the two phases interleaved in
 * registers (two vpermt2ps per vector pair) into 64 consecutive columns of
 * the output row: a row of up to 32 columns per phase in one call. Through
 * grids of each phase merged by a copy (f32_merge2, since removed), the
 * results were written twice and read once more, and a phase with one tap
 * (a 3x3's even columns) stored 24 vectors per 24 FMAs; here a call holds
 * every tap of both phases. The kernel loads two source vectors per tap
 * and phase (in cache ~57% of the FMA peak on Zen 5, waiting on its
 * loads); the instances its selector picks for the common tap shapes load
 * them once per (row tap, channel) for both phases (~80%). */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/grp_ukernels.h"

#define MR 4
#define VL 16

/* acc[m][v] += the phase's taps of channel c (w: the panel of the row tap,
 * tap k of channel c at (k*nc + c)*MR) */
static inline __attribute__((always_inline)) void
phase_taps(const int nv, __m512 acc[MR][2], size_t nk, size_t nc, size_t c, const float *w,
           const float *xc, const ptrdiff_t *sh, const __mmask16 in[2])
{
    for (size_t k = 0; k < nk; ++k) {
        __m512 xv[2];
        _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v) xv[v] =
            _mm512_maskz_loadu_ps(in[v], xc + sh[k] + v * VL);
        const float *wk = w + (k * nc + c) * MR;
        _Pragma("GCC unroll 4") for (int m = 0; m < MR; ++m)
        {
            const __m512 wv = _mm512_set1_ps(wk[m]);
            _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v) acc[m][v] =
                _mm512_fmadd_ps(wv, xv[v], acc[m][v]);
        }
    }
}

/* The interleaving stores of a call: column 2j + u of the row is phase u's
 * column j. */
static inline __attribute__((always_inline)) void
store_kind(const int nv, size_t mr, size_t ncol, __m512 e[MR][2], __m512 o[MR][2], float *y,
           size_t ldy, int yround)
{
    const __m512i lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i hi =
        _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    const uint64_t cols = ncol == 64 ? ~UINT64_C(0) : (UINT64_C(1) << ncol) - 1u;
    _Pragma("GCC unroll 4") for (int m = 0; m < MR; ++m) if ((size_t)m < mr)
    {
        float *ym = y + (size_t)m * ldy;
        _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v)
        {
            const __m512 em = f32x16_round(e[m][v], yround), om = f32x16_round(o[m][v], yround);
            _mm512_mask_storeu_ps(ym + 2 * v * VL, (__mmask16)(cols >> (2 * v * VL)),
                                  _mm512_permutex2var_ps(em, lo, om));
            _mm512_mask_storeu_ps(ym + (2 * v + 1) * VL, (__mmask16)(cols >> ((2 * v + 1) * VL)),
                                  _mm512_permutex2var_ps(em, hi, om));
        }
    }
}

/* The rounding kind tested once, not per vector: the test inside the
 * stores' loop cost the kernel ~12% in cache (Zen 5). */
static inline __attribute__((always_inline)) void
store_row(const int nv, size_t mr, size_t ncol, __m512 e[MR][2], __m512 o[MR][2], float *y,
          size_t ldy, int yround)
{
    if (yround == F32_ROUND_NONE)
        store_kind(nv, mr, ncol, e, o, y, ldy, F32_ROUND_NONE);
    else
        store_kind(nv, mr, ncol, e, o, y, ldy, yround);
}

/* The lanes of a row of nr columns; the sums from 0. */
static inline __attribute__((always_inline)) void
start(const int nv, size_t nr, __mmask16 in[2], __m512 e[MR][2], __m512 o[MR][2])
{
    const uint32_t lanes = (uint32_t)((UINT64_C(1) << nr) - 1u);
    in[0] = (__mmask16)lanes;
    in[1] = (__mmask16)(lanes >> VL);
    _Pragma("GCC unroll 4") for (int m = 0; m < MR; ++m)
        _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v)
    {
        e[m][v] = _mm512_setzero_ps();
        o[m][v] = _mm512_setzero_ps();
    }
}

static inline __attribute__((always_inline)) void
body(const int nv, size_t mr, size_t nr, size_t ncol, size_t nc, size_t nrt, const size_t nk[2],
     const float *const w[2], const float *x, size_t cs, const ptrdiff_t *roff,
     const ptrdiff_t *const sh[2], float *y, size_t ldy, int yround)
{
    __mmask16 in[2];
    __m512 e[MR][2], o[MR][2];
    start(nv, nr, in, e, o);
    /* both phases per channel: 8 or 16 independent sums in flight */
    for (size_t r = 0; r < nrt; ++r) {
        const float *w0 = w[0] + r * nk[0] * nc * MR, *w1 = w[1] + r * nk[1] * nc * MR;
        for (size_t c = 0; c < nc; ++c) {
            const float *xc = x + roff[r] + c * cs;
            phase_taps(nv, e, nk[0], nc, c, w0, xc, sh[0], in);
            phase_taps(nv, o, nk[1], nc, c, w1, xc, sh[1], in);
        }
    }
    store_row(nv, mr, ncol, e, o, y, ldy, yround);
}

/* phase_taps for taps whose W shifts are S, S - 1, ..., S - N + 1 (the
 * taps of a stride-2 phase, dilation 1): the source vectors xv[s] of every
 * shift s were loaded once for both phases. */
static inline __attribute__((always_inline)) void
phase_run(const int nv, const int N, const int S, __m512 acc[MR][2], size_t nc, size_t c,
          const float *w, __m512 xv[][2])
{
    _Pragma("GCC unroll 4") for (int k = 0; k < N; ++k)
    {
        const float *wk = w + ((size_t)k * nc + c) * MR;
        _Pragma("GCC unroll 4") for (int m = 0; m < MR; ++m)
        {
            const __m512 wv = _mm512_set1_ps(wk[m]);
            _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v) acc[m][v] =
                _mm512_fmadd_ps(wv, xv[S - k][v], acc[m][v]);
        }
    }
}

/* body for phases of N0 / N1 taps at shifts S0 - k / S1 - k (after the
 * common base): each source vector loaded once per (row tap, channel)
 * for both phases. A load per tap and phase (body) made the kernel wait on
 * its loads: 2 source vectors and 4 broadcasts per 8 FMAs; here 3x3's
 * phases share 4 source vectors per 24 FMAs (one plane in L1, Zen 5: ~128
 * -> ~175 GFLOP/s on one thread, the same sums). */
static inline __attribute__((always_inline)) void
body_run(const int nv, const int N0, const int S0, const int N1, const int S1, size_t mr, size_t nr,
         size_t ncol, size_t nc, size_t nrt, const float *const w[2], const float *x, size_t cs,
         const ptrdiff_t *roff, float *y, size_t ldy, int yround)
{
    enum { NSMAX = 4 }; /* shifts of GRP_S2_SHAPES: at most 3 */
    const int ns = (S0 > S1 ? S0 : S1) + 1;
    __mmask16 in[2];
    __m512 e[MR][2], o[MR][2];
    start(nv, nr, in, e, o);
    for (size_t r = 0; r < nrt; ++r) {
        const float *w0 = w[0] + r * (size_t)N0 * nc * MR, *w1 = w[1] + r * (size_t)N1 * nc * MR;
        const float *xr = x + roff[r];
        for (size_t c = 0; c < nc; ++c) {
            const float *xc = xr + c * cs;
            __m512 xv[NSMAX][2];
            _Pragma("GCC unroll 4") for (int t = 0; t < ns; ++t)
                _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v) xv[t][v] =
                    _mm512_maskz_loadu_ps(in[v], xc + t + v * VL);
            phase_run(nv, N0, S0, e, nc, c, w0, xv);
            phase_run(nv, N1, S1, o, nc, c, w1, xv);
        }
    }
    store_row(nv, mr, ncol, e, o, y, ldy, yround);
}

#define RUN_NAME(N0, S0, N1, S1) run_##N0##_##S0##_##N1##_##S1
#define RUN_INSTANCE(N0, S0, N1, S1)                                                               \
    static void RUN_NAME(N0, S0, N1, S1)(                                                          \
        size_t mr, size_t nr, size_t ncol, size_t nc, size_t nrt, const size_t nk[2],              \
        const float *const w[2], const float *x, size_t cs, const ptrdiff_t *roff,                 \
        const ptrdiff_t *const sh[2], float *y, size_t ldy, int yround)                            \
    {                                                                                              \
        (void)nk;                                                                                  \
        const ptrdiff_t base = sh[0][0] - (S0); /* the lowest shift */                             \
        if (nr > VL)                                                                               \
            body_run(2, N0, S0, N1, S1, mr, nr, ncol, nc, nrt, w, x + base, cs, roff, y, ldy,      \
                     yround);                                                                      \
        else                                                                                       \
            body_run(1, N0, S0, N1, S1, mr, nr, ncol, nc, nrt, w, x + base, cs, roff, y, ldy,      \
                     yround);                                                                      \
    }
GRP_S2_SHAPES(RUN_INSTANCE)

void f32_grpconv_s2_ukernel_4x64__avx512(size_t mr, size_t nr, size_t ncol, size_t nc, size_t nrt,
                                         const size_t nk[2], const float *const w[2],
                                         const float *x, size_t cs, const ptrdiff_t *roff,
                                         const ptrdiff_t *const sh[2], float *y, size_t ldy,
                                         int yround)
{
    if (nr > VL)
        body(2, mr, nr, ncol, nc, nrt, nk, w, x, cs, roff, sh, y, ldy, yround);
    else
        body(1, mr, nr, ncol, nc, nrt, nk, w, x, cs, roff, sh, y, ldy, yround);
}

/* Chosen once per run of calls: the test per call cost ~8% of a 3x3's
 * calls in cache. */
f32_grpconv_s2_ukernel_fn f32_grpconv_s2_select__avx512(const size_t nk[2],
                                                         const ptrdiff_t *const sh[2])
{
#define RUN_PTR(N0, S0, N1, S1) RUN_NAME(N0, S0, N1, S1),
    static const f32_grpconv_s2_ukernel_fn runs[] = {GRP_S2_SHAPES(RUN_PTR)};
#undef RUN_PTR
    const int i = grp_s2_shape(nk, sh);
    return i < 0 ? f32_grpconv_s2_ukernel_4x64__avx512 : runs[i];
}
