/* AVX-512 transpose of BF16 pairs with the guard's exponent scan: the
 * 16 x 16 blocks of f32_transpose_ukernel_16x16__avx512 (transpose16_blocks),
 * each loaded row scanned while in a register (contract:
 * kernels/conv_ukernels.h). */
#include <immintrin.h>

#include "kernels/avx512/bf16_minexp__avx512.h"
#include "kernels/avx512/transpose16__avx512.h"
#include "kernels/conv_ukernels.h"

typedef struct rows {
    const uint16_t *src;
    size_t lds;
    __m512i mins;
} rows;

/* a row of pairs at any 2-byte offset (odd lds), scanned: zeros do not count */
static inline __attribute__((always_inline)) __m512 load_pairs(void *ctx, size_t i, size_t j0,
                                                               __mmask16 cols)
{
    rows *s = ctx;
    const __m512i v = _mm512_maskz_loadu_epi32(cols, s->src + i * s->lds + 2 * j0);
    s->mins = bf16_minexp_step(v, s->mins);
    return _mm512_castsi512_ps(v);
}

int bf16_pairt_ukernel_16x16__avx512(size_t m, size_t n, const uint16_t *src, size_t lds,
                                     uint32_t *dst, size_t ldd, int emin)
{
    rows s = {src, lds, _mm512_set1_epi16(255)};
    transpose16_blocks(m, n, (float *)(void *)dst, ldd, load_pairs, &s);
    const int e = bf16_minexp_reduce(s.mins);
    return e < emin ? e : emin;
}
