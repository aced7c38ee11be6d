/* AVX2+FMA grouped data-gradient kernel: 4 channels x 24 positions (12 ymm
 * accumulators, 3 source vectors, 1 broadcast). AVX2 has no cheap masked
 * load: the source vectors are loaded whole (the engine keeps guard floats
 * around the source) and the lanes whose W tap falls off their row are
 * cleared with a lane mask computed once per call per W tap; a tap none of
 * whose lanes leaves its row loads without it. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/avx2/f32_round__avx2.h"
#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/grp_ukernels.h"

#define MR 4
#define VL 8

static inline __attribute__((always_inline)) void
body(const int nv, size_t mr, size_t nr, size_t nc, size_t nrt, size_t nkw, const float *w,
     const float *x, size_t cs, const ptrdiff_t *roff, const ptrdiff_t *wsh, size_t ow, size_t col0,
     float *y, size_t ldy, int stream, int yround, const ukernel_prefetch *pf)
{
    const __m256i owv = _mm256_set1_epi32((int)ow);
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i ones = _mm256_set1_epi32(-1);
    const __m256i last = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(nr - (size_t)(nv - 1) * VL)), iota);
    __m256i col[3];
    for (int v = 0; v < nv; ++v) {
        __m256i cv = _mm256_add_epi32(_mm256_set1_epi32((int)(col0 + (size_t)v * VL)), iota);
        for (;;) { /* cv >= ow: ow - 1 < cv */
            const __m256i ge = _mm256_cmpgt_epi32(cv, _mm256_sub_epi32(owv, _mm256_set1_epi32(1)));
            if (_mm256_testz_si256(ge, ge)) break;
            cv = _mm256_sub_epi32(cv, _mm256_and_si256(ge, owv));
        }
        col[v] = cv;
    }
    /* plain[k]: no lane < nr of tap k leaves its row (the middle tap of a
     * 3x3, every tap of a tile inside one row): its loads skip the masks,
     * which cost ~20% in cache (one AND per four FMAs); lanes >= nr are
     * never stored */
    __m256 km[GRP_CONV_MAX_KW][3];
    bool plain[GRP_CONV_MAX_KW];
    for (size_t k = 0; k < nkw; ++k) {
        const __m256i s = _mm256_set1_epi32((int)wsh[k]);
        plain[k] = true;
        for (int v = 0; v < nv; ++v) {
            const __m256i need = v == nv - 1 ? last : ones;
            const __m256i c = _mm256_add_epi32(col[v], s);
            const __m256i neg = _mm256_cmpgt_epi32(_mm256_setzero_si256(), c);
            const __m256i lt = _mm256_cmpgt_epi32(owv, c);
            const __m256i ok = _mm256_andnot_si256(neg, _mm256_and_si256(lt, need));
            plain[k] = plain[k] && _mm256_testc_si256(ok, need);
            km[k][v] = _mm256_castsi256_ps(ok);
        }
    }
    __m256 acc[MR][3];
    _Pragma("GCC unroll 4") for (int m = 0; m < MR; ++m)
        _Pragma("GCC unroll 3") for (int v = 0; v < nv; ++v) acc[m][v] = _mm256_setzero_ps();
    const ukernel_prefetch q = ukernel_prefetch_or_none(pf);
    size_t step = 0;
#define GRP_STEP(LOAD)                                                                             \
    for (size_t c = 0; c < nc; ++c) {                                                              \
        const float *xc = xk + c * cs;                                                             \
        __m256 xv[3];                                                                              \
        _Pragma("GCC unroll 3") for (int v = 0; v < nv; ++v) xv[v] = LOAD;                         \
        _Pragma("GCC unroll 4") for (int m = 0; m < MR; ++m) {                                     \
            const __m256 wv = _mm256_broadcast_ss(w + m);                                          \
            _Pragma("GCC unroll 3") for (int v = 0; v < nv; ++v)                                   \
                acc[m][v] = _mm256_fmadd_ps(wv, xv[v], acc[m][v]);                                 \
        }                                                                                          \
        w += MR;                                                                                   \
        ukernel_prefetch_line(&q, step++);                                                         \
    }
    for (size_t r = 0; r < nrt; ++r) {
        const float *xr = x + roff[r];
        for (size_t k = 0; k < nkw; ++k) {
            const float *xk = xr + wsh[k];
            if (plain[k]) {
                GRP_STEP(_mm256_loadu_ps(xc + v * VL))
            } else {
                GRP_STEP(_mm256_and_ps(_mm256_loadu_ps(xc + v * VL), km[k][v]))
            }
        }
    }
#undef GRP_STEP
    ukernel_prefetch_from(&q, step);
    _Pragma("GCC unroll 4") for (int m = 0; m < MR; ++m)
        if ((size_t)m < mr)
        {
            const bool nt = stream && ((uintptr_t)(y + (size_t)m * ldy) & (VL * sizeof(float) - 1)) == 0;
            const bool full_last = nr - (size_t)(nv - 1) * VL == VL;
            _Pragma("GCC unroll 3") for (int v = 0; v < nv; ++v) {
                float *yv = y + (size_t)m * ldy + (size_t)v * VL;
                if (yround != F32_ROUND_NONE) acc[m][v] = f32x8_round(acc[m][v], yround);
                if (nt && (v < nv - 1 || full_last))
                    _mm256_stream_ps(yv, acc[m][v]);
                else if (v < nv - 1)
                    _mm256_storeu_ps(yv, acc[m][v]);
                else
                    avx2_store_n(yv, (ptrdiff_t)nr - (nv - 1) * VL, acc[m][v]);
            }
        }
}

void f32_grpconv_ukernel_4x24__avx2(size_t mr, size_t nr, size_t nc, size_t nrt, size_t nkw,
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
