/* AVX-512 widening transpose of fp16 / bf16 rows: each 16 x 16 block's rows
 * loaded as halves, widened in registers as f16_f32_cvt / bf16_f32_cvt do
 * (h16_widen__avx512.h), then f32_transpose's walk and register transpose
 * (transpose16_blocks). One pass over a 16-bit dy where a widening copy and
 * a transpose of the copy took two (contract: kernels/conv_ukernels.h). */
#include <immintrin.h>

#include "kernels/avx512/h16_widen__avx512.h"
#include "kernels/avx512/transpose16__avx512.h"
#include "kernels/conv_ukernels.h"

typedef struct rows {
    const uint16_t *src;
    size_t lds;
    int quiet;
} rows;

static inline __attribute__((always_inline)) __m512 load_f16(void *ctx, size_t i, size_t j0,
                                                             __mmask16 cols)
{
    const rows *s = ctx;
    return f16x16_widen(_mm256_maskz_loadu_epi16(cols, s->src + i * s->lds + j0), s->quiet);
}

static inline __attribute__((always_inline)) __m512 load_bf16(void *ctx, size_t i, size_t j0,
                                                              __mmask16 cols)
{
    const rows *s = ctx;
    return bf16x16_widen(_mm256_maskz_loadu_epi16(cols, s->src + i * s->lds + j0), s->quiet);
}

void h16_transpose_ukernel_16x16__avx512(size_t m, size_t n, const uint16_t *src, size_t lds,
                                         float *dst, size_t ldd, int bf16, int quiet)
{
    rows s = {src, lds, quiet};
    if (bf16)
        transpose16_blocks(m, n, dst, ldd, load_bf16, &s);
    else
        transpose16_blocks(m, n, dst, ldd, load_f16, &s);
}
