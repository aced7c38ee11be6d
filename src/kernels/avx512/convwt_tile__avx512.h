/* The weight-gradient kernels' 6 x 64 tile (f32_convwt / bf16_convwt 6x64)
 * and the BF16 pair kernels' loops:
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
#include <stdint.h>

#define CONVWT_MR 6

static inline __attribute__((always_inline)) __mmask16 convwt_last(int nv, size_t nr)
{
    return (__mmask16)((1u << (nr - (size_t)(nv - 1) * 16)) - 1u);
}

static inline __attribute__((always_inline)) void convwt_load(__m512 acc[CONVWT_MR][4], int nv,
                                                              size_t mr, size_t nr,
                                                              float *const *c, int accumulate)
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
                                                      c[m] + (size_t)v * 16);
}

static inline __attribute__((always_inline)) void
convwt_store(__m512 acc[CONVWT_MR][4], int nv, size_t mr, size_t nr, float *const *c)
{
    const __mmask16 last = convwt_last(nv, nr);
#pragma GCC unroll 8
    for (int m = 0; m < CONVWT_MR; ++m)
#pragma GCC unroll 4
        for (int v = 0; v < nv; ++v)
            if ((size_t)m < mr)
                _mm512_mask_storeu_ps(c[m] + (size_t)v * 16,
                                      v == nv - 1 ? last : (__mmask16)0xffff, acc[m][v]);
}

/* One step of a BF16 pair kernel (bf16_convwt 6x64): positions j, j + 1 of
 * each row ar[m] (whole == 0: j alone, its partner +0) with the pairs of
 * b at bq into the sums, in vdpbf16ps's order (conv_ukernels.h). */
typedef void (*convwt_pair_step_fn)(int nv, __m512 acc[CONVWT_MR][4], const uint16_t *const *ar,
                                    const uint32_t *bq, size_t j, int whole);

/* The BF16 pair kernels' loops around their step (fused multiply-adds, or
 * vdpbf16ps), nv vectors of sums a row; step is a constant of the caller,
 * inlined like the rest. */
static inline __attribute__((always_inline)) void
convwt_pairs_body(const int nv, size_t mr, size_t nr, size_t nrows, size_t len,
                  const uint16_t *const *a, size_t ars, const uint32_t *b, size_t ldb,
                  float *const *c, int accumulate, convwt_pair_step_fn step)
{
    __m512 acc[CONVWT_MR][4];
    convwt_load(acc, nv, mr, nr, c, accumulate);
    const size_t lenp = (len + 1) / 2, full = len / 2;
    for (size_t r = 0; r < nrows; ++r) {
        const uint16_t *ar[CONVWT_MR];
        for (int m = 0; m < CONVWT_MR; ++m)
            ar[m] = a[m] + r * ars;
        const uint32_t *br = b + r * lenp * ldb;
        for (size_t q = 0; q < full; ++q)
            step(nv, acc, ar, br + q * ldb, 2 * q, 1);
        if (len & 1) step(nv, acc, ar, br + full * ldb, 2 * full, 0);
    }
    convwt_store(acc, nv, mr, nr, c);
}

/* convwt_pairs_body with the vectors nr needs, each count its own instance */
static inline __attribute__((always_inline)) void
convwt_pairs(size_t mr, size_t nr, size_t nrows, size_t len, const uint16_t *const *a, size_t ars,
             const uint32_t *b, size_t ldb, float *const *c, int accumulate,
             convwt_pair_step_fn step)
{
    if (nr > 3 * 16)
        convwt_pairs_body(4, mr, nr, nrows, len, a, ars, b, ldb, c, accumulate, step);
    else if (nr > 2 * 16)
        convwt_pairs_body(3, mr, nr, nrows, len, a, ars, b, ldb, c, accumulate, step);
    else if (nr > 16)
        convwt_pairs_body(2, mr, nr, nrows, len, a, ars, b, ldb, c, accumulate, step);
    else
        convwt_pairs_body(1, mr, nr, nrows, len, a, ars, b, ldb, c, accumulate, step);
}

#endif /* ACLCONV_CONVWT_TILE_AVX512_H_ */
