/* AVX2 grouped data-gradient kernel for a W stride of 2: 3 channels x 16
 * columns of each W output phase (12 ymm accumulators, two source vectors
 * per tap, each broadcast weight for two FMAs), the two phases interleaved
 * in registers (unpacks within the 128-bit halves, then a lane permute)
 * into 32 consecutive columns of the output row. */
#include <immintrin.h>
#include <stdbool.h>

#include "kernels/avx2/f32_round__avx2.h"
#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/grp_ukernels.h"

#define MR 3
#define VL 8

/* Vector v of a row of source columns at p (masked past the row's end). */
static inline __attribute__((always_inline)) __m256 load_src(const float *p, int v,
                                                             const __m256i in[2],
                                                             const bool full[2])
{
    return full[v] ? _mm256_loadu_ps(p + v * VL) : _mm256_maskload_ps(p + v * VL, in[v]);
}

/* The masks and whole-vector flags of avx2_load_n for a row of nr columns,
 * set once a call; the sums from 0. */
static inline __attribute__((always_inline)) void
start(const int nv, size_t nr, __m256i in[2], bool full[2], __m256 e[MR][2], __m256 o[MR][2])
{
    in[0] = avx2_lane_mask(nr < VL ? nr : VL);
    in[1] = avx2_lane_mask(nr > VL ? nr - VL : 0);
    full[0] = nr >= VL;
    full[1] = nr >= 2 * VL;
    _Pragma("GCC unroll 3") for (int m = 0; m < MR; ++m)
        _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v)
    {
        e[m][v] = _mm256_setzero_ps();
        o[m][v] = _mm256_setzero_ps();
    }
}

/* acc[m][v] += the phase's taps of channel c (w: the panel of the row tap,
 * tap k of channel c at (k*nc + c)*MR) */
static inline __attribute__((always_inline)) void
phase_taps(const int nv, __m256 acc[MR][2], size_t nk, size_t nc, size_t c, const float *w,
           const float *xc, const ptrdiff_t *sh, const __m256i in[2], const bool full[2])
{
    for (size_t k = 0; k < nk; ++k) {
        __m256 xv[2];
        _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v) xv[v] =
            load_src(xc + sh[k], v, in, full);
        const float *wk = w + (k * nc + c) * MR;
        _Pragma("GCC unroll 3") for (int m = 0; m < MR; ++m)
        {
            const __m256 wv = _mm256_broadcast_ss(wk + m);
            _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v) acc[m][v] =
                _mm256_fmadd_ps(wv, xv[v], acc[m][v]);
        }
    }
}

/* The interleaving stores of a call: column 2j + u of the row is phase u's
 * column j. */
static inline __attribute__((always_inline)) void
store_kind(const int nv, size_t mr, size_t ncol, __m256 e[MR][2], __m256 o[MR][2], float *y,
           size_t ldy, int yround)
{
    _Pragma("GCC unroll 3") for (int m = 0; m < MR; ++m) if ((size_t)m < mr)
    {
        float *ym = y + (size_t)m * ldy;
        _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v)
        {
            const __m256 em = f32x8_round(e[m][v], yround), om = f32x8_round(o[m][v], yround);
            /* e0 o0 e1 o1 | e4 o4 e5 o5 and e2 o2 e3 o3 | e6 o6 e7 o7 */
            const __m256 a = _mm256_unpacklo_ps(em, om), b = _mm256_unpackhi_ps(em, om);
            const ptrdiff_t c = (ptrdiff_t)ncol - 2 * v * VL; /* columns from the pair's first */
            avx2_store_n(ym + 2 * v * VL, c, _mm256_permute2f128_ps(a, b, 0x20));
            avx2_store_n(ym + (2 * v + 1) * VL, c - VL, _mm256_permute2f128_ps(a, b, 0x31));
        }
    }
}

/* The rounding kind tested once a call, not per vector (the AVX-512
 * kernel's stores lost ~12% in cache to that test). */
static inline __attribute__((always_inline)) void
store_row(const int nv, size_t mr, size_t ncol, __m256 e[MR][2], __m256 o[MR][2], float *y,
          size_t ldy, int yround)
{
    if (yround == F32_ROUND_NONE)
        store_kind(nv, mr, ncol, e, o, y, ldy, F32_ROUND_NONE);
    else
        store_kind(nv, mr, ncol, e, o, y, ldy, yround);
}

static inline __attribute__((always_inline)) void
body(const int nv, size_t mr, size_t nr, size_t ncol, size_t nc, size_t nrt, const size_t nk[2],
     const float *const w[2], const float *x, size_t cs, const ptrdiff_t *roff,
     const ptrdiff_t *const sh[2], float *y, size_t ldy, int yround)
{
    __m256i in[2];
    bool full[2];
    __m256 e[MR][2], o[MR][2];
    start(nv, nr, in, full, e, o);
    for (size_t r = 0; r < nrt; ++r) {
        const float *w0 = w[0] + r * nk[0] * nc * MR, *w1 = w[1] + r * nk[1] * nc * MR;
        for (size_t c = 0; c < nc; ++c) {
            const float *xc = x + roff[r] + c * cs;
            phase_taps(nv, e, nk[0], nc, c, w0, xc, sh[0], in, full);
            phase_taps(nv, o, nk[1], nc, c, w1, xc, sh[1], in, full);
        }
    }
    store_row(nv, mr, ncol, e, o, y, ldy, yround);
}

/* The taps of phase u (N taps at shifts S, S - 1, ...) that read shift t:
 * tap k = S - t. */
static inline __attribute__((always_inline)) void
shift_taps(const int nv, const int N, const int S, const int t, __m256 acc[MR][2], size_t nc,
           size_t c, const float *w, const __m256 xv[2])
{
    const int k = S - t;
    if (k < 0 || k >= N) return;
    const float *wk = w + ((size_t)k * nc + c) * MR;
    _Pragma("GCC unroll 3") for (int m = 0; m < MR; ++m)
    {
        const __m256 wv = _mm256_broadcast_ss(wk + m);
        _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v) acc[m][v] =
            _mm256_fmadd_ps(wv, xv[v], acc[m][v]);
    }
}

/* body for phases of N0 / N1 taps at shifts S0 - k / S1 - k (after the
 * common base), as the AVX-512 instances: each source vector loaded once
 * per (row tap, channel) for both phases. With 16 registers (12 sums) the
 * shifts are walked from the highest down, two source vectors live at a
 * time: each phase still meets its taps in ascending order, so the sums
 * and their order are body's. */
static inline __attribute__((always_inline)) void
body_run(const int nv, const int N0, const int S0, const int N1, const int S1, size_t mr, size_t nr,
         size_t ncol, size_t nc, size_t nrt, const float *const w[2], const float *x, size_t cs,
         const ptrdiff_t *roff, float *y, size_t ldy, int yround)
{
    const int ns = (S0 > S1 ? S0 : S1) + 1;
    __m256i in[2];
    bool full[2];
    __m256 e[MR][2], o[MR][2];
    start(nv, nr, in, full, e, o);
    for (size_t r = 0; r < nrt; ++r) {
        const float *w0 = w[0] + r * (size_t)N0 * nc * MR, *w1 = w[1] + r * (size_t)N1 * nc * MR;
        const float *xr = x + roff[r];
        for (size_t c = 0; c < nc; ++c) {
            const float *xc = xr + c * cs;
            _Pragma("GCC unroll 4") for (int t = ns - 1; t >= 0; --t)
            {
                __m256 xv[2];
                _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v) xv[v] =
                    load_src(xc + t, v, in, full);
                shift_taps(nv, N0, S0, t, e, nc, c, w0, xv);
                shift_taps(nv, N1, S1, t, o, nc, c, w1, xv);
            }
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

void f32_grpconv_s2_ukernel_3x32__avx2(size_t mr, size_t nr, size_t ncol, size_t nc, size_t nrt,
                                       const size_t nk[2], const float *const w[2], const float *x,
                                       size_t cs, const ptrdiff_t *roff,
                                       const ptrdiff_t *const sh[2], float *y, size_t ldy,
                                       int yround)
{
    if (nr > VL)
        body(2, mr, nr, ncol, nc, nrt, nk, w, x, cs, roff, sh, y, ldy, yround);
    else
        body(1, mr, nr, ncol, nc, nrt, nk, w, x, cs, roff, sh, y, ldy, yround);
}

f32_grpconv_s2_ukernel_fn f32_grpconv_s2_select__avx2(const size_t nk[2],
                                                       const ptrdiff_t *const sh[2])
{
#define RUN_PTR(N0, S0, N1, S1) RUN_NAME(N0, S0, N1, S1),
    static const f32_grpconv_s2_ukernel_fn runs[] = {GRP_S2_SHAPES(RUN_PTR)};
#undef RUN_PTR
    const int i = grp_s2_shape(nk, sh);
    return i < 0 ? f32_grpconv_s2_ukernel_3x32__avx2 : runs[i];
}
