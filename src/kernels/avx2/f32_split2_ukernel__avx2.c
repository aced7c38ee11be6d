/* AVX2 fp32 pairs split and rounded: 16 values a step (two loads; a
 * shuffle per phase picks its lanes within each 128-bit half, a 64-bit
 * permute puts the halves in order), the tail through a local buffer. */
#include <immintrin.h>
#include <string.h>

#include "kernels/avx2/f32_round__avx2.h"
#include "kernels/cvt_ukernels.h"

static inline __m256 maybe_round(__m256 v, int kind)
{
    return kind == F32_ROUND_NONE ? v : f32x8_round(v, kind);
}

/* src[0..16) -> the 8 even and the 8 odd values, in order */
static inline void split16(const float *src, int kind, __m256 *e, __m256 *o)
{
    const __m256 a = _mm256_loadu_ps(src), b = _mm256_loadu_ps(src + 8);
    /* per 128-bit half: a0 a2 b0 b2 | a4 a6 b4 b6 -> a0 a2 a4 a6 b0 b2 b4 b6 */
    const __m256 ev = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    const __m256 od = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
    *e = maybe_round(_mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(ev), 0xd8)), kind);
    *o = maybe_round(_mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(od), 0xd8)), kind);
}

void f32_split2_ukernel__avx2(size_t n, const float *src, float *even, float *odd, int kind)
{
    size_t i = 0;
    __m256 e, o;
    for (; i + 16 <= n; i += 16) {
        split16(src + i, kind, &e, &o);
        _mm256_storeu_ps(even + i / 2, e);
        _mm256_storeu_ps(odd + i / 2, o);
    }
    if (i < n) {
        const size_t r = n - i; /* 1..15 */
        float buf[16] = {0}, be[8], bo[8];
        memcpy(buf, src + i, r * sizeof(float));
        split16(buf, kind, &e, &o);
        _mm256_storeu_ps(be, e);
        _mm256_storeu_ps(bo, o);
        memcpy(even + i / 2, be, (r + 1) / 2 * sizeof(float));
        memcpy(odd + i / 2, bo, r / 2 * sizeof(float));
    }
}
