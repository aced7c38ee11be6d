/* AVX2 grouped weight-gradient dot products over one unpadded copy of x:
 * grpwt's 3x4 tile with each b row's lanes cleared by its W tap's row mask
 * (8 bits of a 16-bit word per vector, expanded to a lane mask). The b
 * vectors are loaded whole (the engine keeps guard floats around the copy)
 * and the cleared lanes are exact zeros. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/grp_ukernels.h"

#define VL 8
#define NR 4

static inline __m256 lanes_of(unsigned bits)
{
    const __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i v = _mm256_and_si256(_mm256_set1_epi32((int)bits), sel);
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(v, sel));
}

static inline __attribute__((always_inline)) void body(const int M, size_t nr, size_t len,
                                                       const float *const *a, const float *const *b,
                                                       const uint16_t *const *bm, float *acc,
                                                       size_t ldm, const ukernel_prefetch *pf)
{
    __m256 c[3][NR];
    const float *bp[NR];
    const uint16_t *mp[NR];
    _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
        bp[n] = b[(size_t)n < nr ? (size_t)n : nr - 1];
        mp[n] = bm[(size_t)n < nr ? (size_t)n : nr - 1];
    }
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            c[m][n] = (size_t)n < nr ? _mm256_loadu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES)
                                     : _mm256_setzero_ps();
    const size_t full = len / VL * VL;
    const ukernel_prefetch q = ukernel_prefetch_or_none(pf);
    for (size_t j = 0; j < full; j += VL) {
        ukernel_prefetch_line(&q, j / VL);
        __m256 av[3];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm256_loadu_ps(a[m] + j);
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
            const unsigned bits = (unsigned)(mp[n][j / 16] >> (j % 16)) & 0xffu;
            const __m256 bv = _mm256_and_ps(_mm256_loadu_ps(bp[n] + j), lanes_of(bits));
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm256_fmadd_ps(av[m], bv, c[m][n]);
        }
    }
    ukernel_prefetch_from(&q, full / VL);
    if (len > full) {
        const __m256i tm = avx2_lane_mask(len - full);
        __m256 av[3];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm256_maskload_ps(a[m] + full, tm);
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
            const unsigned bits = (unsigned)(mp[n][full / 16] >> (full % 16)) & 0xffu;
            const __m256 bv = _mm256_and_ps(_mm256_maskload_ps(bp[n] + full, tm), lanes_of(bits));
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm256_fmadd_ps(av[m], bv, c[m][n]);
        }
    }
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            if ((size_t)n < nr) _mm256_storeu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES, c[m][n]);
}

void f32_grpwtm_ukernel_3x4__avx2(size_t mr, size_t nr, size_t len, const float *const *a,
                                  const float *const *b, const uint16_t *const *bm, float *acc,
                                  size_t ldm, const ukernel_prefetch *pf)
{
    switch (mr) {
    case 1: body(1, nr, len, a, b, bm, acc, ldm, pf); break;
    case 2: body(2, nr, len, a, b, bm, acc, ldm, pf); break;
    default: body(3, nr, len, a, b, bm, acc, ldm, pf); break;
    }
}
