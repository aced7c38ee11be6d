/* The weight-gradient kernels' 6 x 64 tile (f32_convwt / bf16_convwt 6x64):
 * 6 rows of nv vectors of 16 partial sums, the last vector masked to nr's
 * remainder; started from zeros or loaded from c, stored back to c. Loops
 * over all 6 rows with a guard, not up to mr: with a runtime trip count the
 * accumulators went through the stack on entry and exit of every call (3-5%
 * of a call reducing over 392 positions). Shared by the kernels that
 * include it (compiled with AVX-512 flags). */
#ifndef ACLCONV_CONVWT_TILE_AVX512_H_
#define ACLCONV_CONVWT_TILE_AVX512_H_

#include <immintrin.h>
#include <stddef.h>

#define CONVWT_MR 6

static inline __attribute__((always_inline)) __mmask16 convwt_last(int nv, size_t nr)
{
    return (__mmask16)((1u << (nr - (size_t)(nv - 1) * 16)) - 1u);
}

static inline __attribute__((always_inline)) void convwt_load(__m512 acc[CONVWT_MR][4], int nv,
                                                              size_t mr, size_t nr, const float *c,
                                                              size_t ldc, int accumulate)
{
    const __mmask16 last = convwt_last(nv, nr);
#pragma GCC unroll 8
    for (int m = 0; m < CONVWT_MR; ++m)
#pragma GCC unroll 4
        for (int v = 0; v < nv; ++v)
            acc[m][v] = _mm512_setzero_ps();
    if (accumulate)
#pragma GCC unroll 8
        for (int m = 0; m < CONVWT_MR; ++m)
#pragma GCC unroll 4
            for (int v = 0; v < nv; ++v)
                if ((size_t)m < mr)
                    acc[m][v] = _mm512_maskz_loadu_ps(v == nv - 1 ? last : (__mmask16)0xffff,
                                                      c + (size_t)m * ldc + (size_t)v * 16);
}

static inline __attribute__((always_inline)) void
convwt_store(__m512 acc[CONVWT_MR][4], int nv, size_t mr, size_t nr, float *c, size_t ldc)
{
    const __mmask16 last = convwt_last(nv, nr);
#pragma GCC unroll 8
    for (int m = 0; m < CONVWT_MR; ++m)
#pragma GCC unroll 4
        for (int v = 0; v < nv; ++v)
            if ((size_t)m < mr)
                _mm512_mask_storeu_ps(c + (size_t)m * ldc + (size_t)v * 16,
                                      v == nv - 1 ? last : (__mmask16)0xffff, acc[m][v]);
}

#endif /* ACLCONV_CONVWT_TILE_AVX512_H_ */
