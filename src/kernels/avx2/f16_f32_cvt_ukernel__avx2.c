/* F16C fp16 -> fp32 row widening, 16 halves a step, the tail through a local
 * vector. */
#include <immintrin.h>
#include <string.h>

#include "kernels/avx2/h16_widen__avx2.h"
#include "kernels/cvt_ukernels.h"

void f16_f32_cvt_ukernel__avx2(size_t n, const uint16_t *src, float *dst, int quiet)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 a = f16x8_widen(_mm_loadu_si128((const __m128i *)(src + i)), quiet);
        const __m256 b = f16x8_widen(_mm_loadu_si128((const __m128i *)(src + i + 8)), quiet);
        _mm256_storeu_ps(dst + i, a);
        _mm256_storeu_ps(dst + i + 8, b);
    }
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i, f16x8_widen(_mm_loadu_si128((const __m128i *)(src + i)), quiet));
    if (i < n) { /* tail: through a local vector, exactly n - i elements read and written */
        uint16_t hs[8] = {0};
        float fs[8];
        memcpy(hs, src + i, (n - i) * sizeof(uint16_t));
        _mm256_storeu_ps(fs, f16x8_widen(_mm_loadu_si128((const __m128i *)hs), quiet));
        memcpy(dst + i, fs, (n - i) * sizeof(float));
    }
}
