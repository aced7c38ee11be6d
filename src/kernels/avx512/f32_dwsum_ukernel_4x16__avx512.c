/* AVX-512 lane sums of dense runs (gradBias's order): 4 channels side by
 * side, one zmm of lanes each (4 independent add chains), masked tail. The
 * same blocks over 16-bit runs read in place (h16_dwsum): each vector widened
 * as it is loaded, NaNs not quieted first (the add quiets them). */
#include <immintrin.h>

#include "kernels/avx512/h16_widen__avx512.h"
#include "kernels/dw_ukernels.h"

#define CB 4

enum { RUN_F32, RUN_BF16, RUN_F16 };

/* DW_SUM_LANES values of run x at k (lanes of m; the others zero). */
static inline __attribute__((always_inline)) __m512 run_load(const int kind, const void *x,
                                                             size_t k, __mmask16 m)
{
    if (kind == RUN_F32) return _mm512_maskz_loadu_ps(m, (const float *)x + k);
    const __m256i h = _mm256_maskz_loadu_epi16(m, (const uint16_t *)x + k);
    return kind == RUN_BF16 ? _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16))
                            : f16x16_widen(h, 1);
}

static inline __attribute__((always_inline)) void
sum_block(const int kind, const int nc, size_t len, const void *const *x, float *acc)
{
    __m512 a[CB];
#pragma GCC unroll 4
    for (int c = 0; c < nc; ++c)
        a[c] = _mm512_loadu_ps(acc + (size_t)c * DW_SUM_LANES);
    size_t k = 0;
    for (; k + DW_SUM_LANES <= len; k += DW_SUM_LANES)
#pragma GCC unroll 4
        for (int c = 0; c < nc; ++c)
            a[c] = _mm512_add_ps(a[c], run_load(kind, x[c], k, 0xffff));
    if (k < len) {
        const __mmask16 m = (__mmask16)((1u << (len - k)) - 1u);
#pragma GCC unroll 4
        for (int c = 0; c < nc; ++c)
            a[c] = _mm512_mask_add_ps(a[c], m, a[c], run_load(kind, x[c], k, m));
    }
#pragma GCC unroll 4
    for (int c = 0; c < nc; ++c)
        _mm512_storeu_ps(acc + (size_t)c * DW_SUM_LANES, a[c]);
}

static inline __attribute__((always_inline)) void sum_all(const int kind, size_t nch, size_t len,
                                                          const void *const *x, float *acc)
{
    size_t c = 0;
    for (; c + CB <= nch; c += CB)
        sum_block(kind, CB, len, x + c, acc + c * DW_SUM_LANES);
    switch (nch - c) {
    case 3: sum_block(kind, 3, len, x + c, acc + c * DW_SUM_LANES); break;
    case 2: sum_block(kind, 2, len, x + c, acc + c * DW_SUM_LANES); break;
    case 1: sum_block(kind, 1, len, x + c, acc + c * DW_SUM_LANES); break;
    default: break;
    }
}

void f32_dwsum_ukernel_4x16__avx512(size_t nch, size_t len, const float *const *x, float *acc)
{
    sum_all(RUN_F32, nch, len, (const void *const *)x, acc);
}

void h16_dwsum_ukernel_4x16__avx512(size_t nch, size_t len, const uint16_t *const *x, int bf16,
                                    float *acc)
{
    if (bf16)
        sum_all(RUN_BF16, nch, len, (const void *const *)x, acc);
    else
        sum_all(RUN_F16, nch, len, (const void *const *)x, acc);
}
