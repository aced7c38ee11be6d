/* AVX-512 grouped data-gradient kernel for a W stride of 2: 4 channels x 32
 * columns of each W output phase (16 zmm accumulators, two source vectors
 * per tap, the weights broadcast from memory, each for two FMAs), the two
 * phases interleaved in registers (two vpermt2ps per vector pair) into 64
 * consecutive columns of the output row: a row of up to 32 columns per
 * phase in one call. In cache ~57% of the FMA peak on Zen 5 (8 channels x
 * 16 columns, a broadcast per FMA: ~53%); calls reduce over only 8-32
 * terms, so the zeroing and the interleaving stores weigh. Through grids of
 * each phase merged by a copy (f32_merge2, since removed), the results were
 * written twice and read once more, and a phase with one tap (a 3x3's even
 * columns) stored 24 vectors per 24 FMAs; here a call holds every tap of
 * both phases. */
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

static inline __attribute__((always_inline)) void
body(const int nv, size_t mr, size_t nr, size_t ncol, size_t nc, size_t nrt, const size_t nk[2],
     const float *const w[2], const float *x, size_t cs, const ptrdiff_t *roff,
     const ptrdiff_t *const sh[2], float *y, size_t ldy, int yround)
{
    const uint32_t lanes = (uint32_t)((UINT64_C(1) << nr) - 1u);
    const __mmask16 in[2] = {(__mmask16)lanes, (__mmask16)(lanes >> VL)};
    __m512 e[MR][2], o[MR][2];
    _Pragma("GCC unroll 4") for (int m = 0; m < MR; ++m)
        _Pragma("GCC unroll 2") for (int v = 0; v < nv; ++v)
    {
        e[m][v] = _mm512_setzero_ps();
        o[m][v] = _mm512_setzero_ps();
    }
    /* both phases per channel: 8 or 16 independent sums in flight */
    for (size_t r = 0; r < nrt; ++r) {
        const float *w0 = w[0] + r * nk[0] * nc * MR, *w1 = w[1] + r * nk[1] * nc * MR;
        for (size_t c = 0; c < nc; ++c) {
            const float *xc = x + roff[r] + c * cs;
            phase_taps(nv, e, nk[0], nc, c, w0, xc, sh[0], in);
            phase_taps(nv, o, nk[1], nc, c, w1, xc, sh[1], in);
        }
    }
    /* column 2j + u of the row is phase u's column j */
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
