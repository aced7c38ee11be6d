/* AVX-512 grouped weight-gradient dot products over one unpadded copy of x:
 * grpwt's 4x6 tile (24 zmm of partial sums held over the call) with each b
 * row's lanes masked by its W tap's row mask (a 16-bit word per vector, one
 * kmov per b vector): the lanes that leave their row are zeros and are not
 * read. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/grp_ukernels.h"

#define VL 16
#define NR 6

static inline __attribute__((always_inline)) void body(const int M, const int shared, size_t nr,
                                                       size_t len, const float *const *a,
                                                       const float *const *b,
                                                       const uint16_t *const *bm, float *acc,
                                                       size_t ldm, const ukernel_prefetch *pf)
{
    __m512 c[4][NR];
    const float *bp[NR];
    const uint16_t *mp[NR];
    _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
        bp[n] = b[(size_t)n < nr ? (size_t)n : nr - 1];
        mp[n] = bm[(size_t)n < nr ? (size_t)n : nr - 1];
    }
    /* shared: rows n and n + 3 have one mask (a 3-wide kernel row's W taps
     * repeat every 3 rows): 3 mask words a step instead of 6, and 3 fewer
     * pointers competing for the general registers */
    const int nm = shared ? 3 : NR;
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            c[m][n] = (size_t)n < nr ? _mm512_loadu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES)
                                     : _mm512_setzero_ps();
    const size_t full = len / VL;
    const ukernel_prefetch q = ukernel_prefetch_or_none(pf);
    for (size_t s = 0; s < full; ++s) {
        ukernel_prefetch_line(&q, s);
        __m512 av[4];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm512_loadu_ps(a[m] + s * VL);
        __mmask16 k[NR];
        _Pragma("GCC unroll 8") for (int n = 0; n < nm; ++n) k[n] = (__mmask16)mp[n][s];
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
            const __m512 bv = _mm512_maskz_loadu_ps(k[n % nm], bp[n] + s * VL);
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm512_fmadd_ps(av[m], bv, c[m][n]);
        }
    }
    ukernel_prefetch_from(&q, full);
    if (len > full * VL) {
        const __mmask16 tm = (__mmask16)((1u << (len - full * VL)) - 1u);
        __m512 av[4];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm512_maskz_loadu_ps(tm, a[m] + full * VL);
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
            const __m512 bv = _mm512_maskz_loadu_ps(tm & (__mmask16)mp[n][full], bp[n] + full * VL);
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm512_fmadd_ps(av[m], bv, c[m][n]);
        }
    }
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            if ((size_t)n < nr) _mm512_storeu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES, c[m][n]);
}

void f32_grpwtm_ukernel_4x6__avx512(size_t mr, size_t nr, size_t len, const float *const *a,
                                    const float *const *b, const uint16_t *const *bm, float *acc,
                                    size_t ldm, const ukernel_prefetch *pf)
{
    const int shared = nr == NR && bm[3] == bm[0] && bm[4] == bm[1] && bm[5] == bm[2];
    switch (mr * 2 + (size_t)shared) {
    case 2: body(1, 0, nr, len, a, b, bm, acc, ldm, pf); break;
    case 3: body(1, 1, nr, len, a, b, bm, acc, ldm, pf); break;
    case 4: body(2, 0, nr, len, a, b, bm, acc, ldm, pf); break;
    case 5: body(2, 1, nr, len, a, b, bm, acc, ldm, pf); break;
    case 6: body(3, 0, nr, len, a, b, bm, acc, ldm, pf); break;
    case 7: body(3, 1, nr, len, a, b, bm, acc, ldm, pf); break;
    case 9: body(4, 1, nr, len, a, b, bm, acc, ldm, pf); break;
    default: body(4, 0, nr, len, a, b, bm, acc, ldm, pf); break;
    }
}
