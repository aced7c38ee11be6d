/* AVX-512 lane sums of dense runs (gradBias's order): 4 channels side by
 * side, one zmm of lanes each (4 independent add chains), masked tail. */
#include <immintrin.h>

#include "kernels/dw_ukernels.h"

#define CB 4

static inline __attribute__((always_inline)) void sum_block(const int nc, size_t len,
                                                            const float *const *x, float *acc)
{
    __m512 a[CB];
#pragma GCC unroll 4
    for (int c = 0; c < nc; ++c)
        a[c] = _mm512_loadu_ps(acc + (size_t)c * DW_SUM_LANES);
    size_t k = 0;
    for (; k + DW_SUM_LANES <= len; k += DW_SUM_LANES)
#pragma GCC unroll 4
        for (int c = 0; c < nc; ++c)
            a[c] = _mm512_add_ps(a[c], _mm512_loadu_ps(x[c] + k));
    if (k < len) {
        const __mmask16 m = (__mmask16)((1u << (len - k)) - 1u);
#pragma GCC unroll 4
        for (int c = 0; c < nc; ++c)
            a[c] = _mm512_mask_add_ps(a[c], m, a[c], _mm512_maskz_loadu_ps(m, x[c] + k));
    }
#pragma GCC unroll 4
    for (int c = 0; c < nc; ++c)
        _mm512_storeu_ps(acc + (size_t)c * DW_SUM_LANES, a[c]);
}

void f32_dwsum_ukernel_4x16__avx512(size_t nch, size_t len, const float *const *x, float *acc)
{
    size_t c = 0;
    for (; c + CB <= nch; c += CB)
        sum_block(CB, len, x + c, acc + c * DW_SUM_LANES);
    switch (nch - c) {
    case 3: sum_block(3, len, x + c, acc + c * DW_SUM_LANES); break;
    case 2: sum_block(2, len, x + c, acc + c * DW_SUM_LANES); break;
    case 1: sum_block(1, len, x + c, acc + c * DW_SUM_LANES); break;
    default: break;
    }
}
