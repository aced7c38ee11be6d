/* AVX2 fp16 / bf16 pairs split and widened: 16 values a step (one load), the
 * tail through local buffers. A bf16 pair is one 32-bit word: the even value
 * is the word shifted up 16, the odd one the word with its low half cleared;
 * fp16 halves are packed down to 8 before vcvtph2ps. */
#include <immintrin.h>
#include <string.h>

#include "kernels/avx2/h16_widen__avx2.h"
#include "kernels/cvt_ukernels.h"

/* The low halves of w's 8 words, in order (packus keeps 128-bit lanes). */
static inline __m128i low_halves(__m256i w)
{
    const __m256i p = _mm256_packus_epi32(w, w); /* words 0-3 0-3 | 4-7 4-7 */
    return _mm256_castsi256_si128(_mm256_permute4x64_epi64(p, 0x08));
}

static inline void split16(__m256i w, int bf16, int quiet, __m256 *even, __m256 *odd)
{
    if (bf16) {
        *even = bf16x8_quiet(_mm256_slli_epi32(w, 16), quiet);
        *odd = bf16x8_quiet(_mm256_and_si256(w, _mm256_set1_epi32((int)0xffff0000u)), quiet);
        return;
    }
    *even = f16x8_widen(low_halves(_mm256_and_si256(w, _mm256_set1_epi32(0xffff))), quiet);
    *odd = f16x8_widen(low_halves(_mm256_srli_epi32(w, 16)), quiet);
}

void h16_f32_split2_ukernel__avx2(size_t n, const uint16_t *src, float *even, float *odd, int bf16, int quiet)
{
    size_t i = 0;
    __m256 e, o;
    for (; i + 16 <= n; i += 16) {
        split16(_mm256_loadu_si256((const __m256i *)(src + i)), bf16, quiet, &e, &o);
        _mm256_storeu_ps(even + i / 2, e);
        _mm256_storeu_ps(odd + i / 2, o);
    }
    if (i < n) { /* exactly n - i values read, (n - i + 1) / 2 and (n - i) / 2 written */
        uint16_t hs[16] = {0};
        float fe[8], fo[8];
        memcpy(hs, src + i, (n - i) * sizeof(uint16_t));
        split16(_mm256_loadu_si256((const __m256i *)hs), bf16, quiet, &e, &o);
        _mm256_storeu_ps(fe, e);
        _mm256_storeu_ps(fo, o);
        memcpy(even + i / 2, fe, (n - i + 1) / 2 * sizeof(float));
        memcpy(odd + i / 2, fo, (n - i) / 2 * sizeof(float));
    }
}
