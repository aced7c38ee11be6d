/* AVX-512 bf16 rows zipped into pairs and transposed, with the guard's
 * exponent scan: the 16 x 16 blocks of f32_transpose_ukernel_16x16__avx512
 * (transpose16_blocks), each row's 16 pairs formed by widening its two
 * halves' runs (contract: kernels/conv_ukernels.h). */
#include <immintrin.h>

#include "kernels/avx512/bf16_minexp__avx512.h"
#include "kernels/avx512/transpose16__avx512.h"
#include "kernels/conv_ukernels.h"

typedef struct rows {
    const uint16_t *lo, *hi;
    size_t ss;
    __m512i mins;
} rows;

static inline __attribute__((always_inline)) __m512 load_zipped(void *ctx, size_t i, size_t j0,
                                                                __mmask16 cols)
{
    rows *s = ctx;
    __m512i v = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(cols, s->lo + i * s->ss + j0));
    if (s->hi) {
        const __m256i b = _mm256_maskz_loadu_epi16(cols, s->hi + i * s->ss + j0);
        v = _mm512_or_si512(v, _mm512_slli_epi32(_mm512_cvtepu16_epi32(b), 16));
    }
    s->mins = bf16_minexp_step(v, s->mins); /* masked lanes are +0: they do not count */
    return _mm512_castsi512_ps(v);
}

int bf16_zipt_ukernel_16x16__avx512(size_t m, size_t n, const uint16_t *lo, const uint16_t *hi,
                                    size_t ss, uint32_t *dst, size_t ldd, int emin)
{
    rows s = {lo, hi, ss, _mm512_set1_epi16(255)};
    transpose16_blocks(m, n, (float *)(void *)dst, ldd, load_zipped, &s);
    const int e = bf16_minexp_reduce(s.mins);
    return e < emin ? e : emin;
}
