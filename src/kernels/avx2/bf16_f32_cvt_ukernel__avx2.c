/* AVX2 bf16 -> fp32 row widening, 8 a step, the tail through the scalar
 * loop; NaN lanes quieted on request. */
#include <immintrin.h>
#include <string.h>

#include "kernels/avx2/h16_widen__avx2.h"
#include "kernels/cvt_ukernels.h"

void bf16_f32_cvt_ukernel__avx2(size_t n, const uint16_t *src, float *dst, int quiet)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i u = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(src + i))), 16);
        _mm256_storeu_ps(dst + i, bf16x8_quiet(u, quiet));
    }
    for (; i < n; ++i) {
        uint32_t u = (uint32_t)src[i] << 16;
        if (quiet && (u & 0x7fffffffu) > 0x7f800000u) u |= 0x400000u;
        memcpy(dst + i, &u, sizeof u);
    }
}
