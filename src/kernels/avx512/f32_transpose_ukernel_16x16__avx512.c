/* AVX-512 transpose: 16 x 16 blocks in registers (unpack, shuffle within
 * 128-bit lanes, then two rounds of 128-bit lane shuffles). Tails are masked:
 * exactly the elements named are read and written. */
#include <immintrin.h>

#include "kernels/avx512/transpose16__avx512.h"
#include "kernels/conv_ukernels.h"

typedef struct rows {
    const float *src;
    size_t lds;
} rows;

static inline __attribute__((always_inline)) __m512 load_row(void *ctx, size_t i, size_t j0,
                                                             __mmask16 cols)
{
    const rows *s = ctx;
    return _mm512_maskz_loadu_ps(cols, s->src + i * s->lds + j0);
}

void f32_transpose_ukernel_16x16__avx512(size_t m, size_t n, const float *src, size_t lds, float *dst,
                                         size_t ldd)
{
    rows s = {src, lds};
    transpose16_blocks(m, n, dst, ldd, load_row, &s);
}
