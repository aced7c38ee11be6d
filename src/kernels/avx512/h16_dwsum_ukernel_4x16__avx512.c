/* AVX-512 lane sums of dense 16-bit runs (gradBias's order over a bf16 or
 * fp16 dy read in place): f32_dwsum 4x16's blocks, each vector widened as it
 * is loaded. NaNs are not quieted first: the add quiets them. */
#include <immintrin.h>

#include "kernels/avx512/h16_widen__avx512.h"
#include "kernels/dw_ukernels.h"

#define CB 4

static inline __attribute__((always_inline)) __m512 widen(const int bf16, __m256i h)
{
    return bf16 ? _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16))
                : f16x16_widen(h, 1);
}

static inline __attribute__((always_inline)) void
sum_block(const int bf16, const int nc, size_t len, const uint16_t *const *x, float *acc)
{
    __m512 a[CB];
#pragma GCC unroll 4
    for (int c = 0; c < nc; ++c)
        a[c] = _mm512_loadu_ps(acc + (size_t)c * DW_SUM_LANES);
    size_t k = 0;
    for (; k + DW_SUM_LANES <= len; k += DW_SUM_LANES)
#pragma GCC unroll 4
        for (int c = 0; c < nc; ++c)
            a[c] =
                _mm512_add_ps(a[c], widen(bf16, _mm256_loadu_si256((const __m256i *)(x[c] + k))));
    if (k < len) {
        const __mmask16 m = (__mmask16)((1u << (len - k)) - 1u);
#pragma GCC unroll 4
        for (int c = 0; c < nc; ++c)
            a[c] = _mm512_mask_add_ps(a[c], m, a[c],
                                      widen(bf16, _mm256_maskz_loadu_epi16(m, x[c] + k)));
    }
#pragma GCC unroll 4
    for (int c = 0; c < nc; ++c)
        _mm512_storeu_ps(acc + (size_t)c * DW_SUM_LANES, a[c]);
}

static inline __attribute__((always_inline)) void sum_all(const int bf16, size_t nch, size_t len,
                                                          const uint16_t *const *x, float *acc)
{
    size_t c = 0;
    for (; c + CB <= nch; c += CB)
        sum_block(bf16, CB, len, x + c, acc + c * DW_SUM_LANES);
    switch (nch - c) {
    case 3: sum_block(bf16, 3, len, x + c, acc + c * DW_SUM_LANES); break;
    case 2: sum_block(bf16, 2, len, x + c, acc + c * DW_SUM_LANES); break;
    case 1: sum_block(bf16, 1, len, x + c, acc + c * DW_SUM_LANES); break;
    default: break;
    }
}

void h16_dwsum_ukernel_4x16__avx512(size_t nch, size_t len, const uint16_t *const *x, int bf16,
                                    float *acc)
{
    if (bf16)
        sum_all(1, nch, len, x, acc);
    else
        sum_all(0, nch, len, x, acc);
}
