/* AVX-512 padded rows (the contract in cvt_ukernels.h): per row, the values
 * 16 a step from the row's first one (the last step masked), stored at
 * column lo, and the padding on either side as masked stores of zeros; the
 * masks are the call's, not the row's. No call per row and none per padding
 * run. One loop per rounding kind (a constant in each). */
#include <immintrin.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/cvt_ukernels.h"

/* lanes l < n set (n >= 16: all) */
static inline __mmask16 below16(size_t n)
{
    return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
}

/* zeros in d[0, n) */
static inline void zero_run(float *d, size_t n)
{
    for (size_t j = 0; j < n; j += 16)
        _mm512_mask_storeu_ps(d + j, below16(n - j), _mm512_setzero_ps());
}

static inline __attribute__((always_inline)) void pad_rows(size_t rows, size_t wp, size_t lo,
                                                           size_t hi, const float *src, size_t lds,
                                                           float *dst, size_t ldd, const int kind)
{
    const size_t n = hi - lo, full = n / 16 * 16;
    const __mmask16 tail = below16(n - full);
    for (size_t r = 0; r < rows; ++r) {
        const float *s = src + r * lds;
        float *d = dst + r * ldd;
        zero_run(d, lo);
        for (size_t i = 0; i < full; i += 16)
            _mm512_storeu_ps(d + lo + i, f32x16_round(_mm512_loadu_ps(s + i), kind));
        if (tail)
            _mm512_mask_storeu_ps(d + lo + full, tail,
                                  f32x16_round(_mm512_maskz_loadu_ps(tail, s + full), kind));
        zero_run(d + hi, wp - hi);
    }
}

void f32_padrows_ukernel__avx512(size_t rows, size_t wp, size_t lo, size_t hi, const float *src,
                                 size_t lds, float *dst, size_t ldd, int kind)
{
    switch (kind) {
    case F32_ROUND_HF32: pad_rows(rows, wp, lo, hi, src, lds, dst, ldd, F32_ROUND_HF32); break;
    case F32_ROUND_F16: pad_rows(rows, wp, lo, hi, src, lds, dst, ldd, F32_ROUND_F16); break;
    case F32_ROUND_BF16: pad_rows(rows, wp, lo, hi, src, lds, dst, ldd, F32_ROUND_BF16); break;
    default: pad_rows(rows, wp, lo, hi, src, lds, dst, ldd, F32_ROUND_NONE);
    }
}
