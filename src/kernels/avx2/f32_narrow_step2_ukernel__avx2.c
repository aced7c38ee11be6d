/* AVX2 fp32 -> fp16 / bf16 narrowing into every other element: the results
 * of one W output phase of a stride-2 gradInput, whose other elements belong
 * to the other phase (and may be another task's). AVX2 has no 16-bit masked
 * store, so each narrowed value goes out with its own 16-bit store (vpextrw);
 * the odd elements are never read or written. It replaced narrowing a chunk
 * into a buffer spread by a scalar loop (a call and a memcpy'd tail per row
 * of 28): r50_c3_3x3s2's bf16 dx 57.2 -> 51.9 ms on Zen 3, one thread
 * (docs/performance.md, session 50). */
#include <immintrin.h>

#include "kernels/avx2/f32_narrow__avx2.h"
#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/cvt_ukernels.h"

#define SPREAD(j) dst[2 * (i + (j))] = (uint16_t)_mm_extract_epi16(h, j)

void f32_narrow_step2_ukernel__avx2(size_t n, const float *src, uint16_t *dst, int bf16)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = narrow8(_mm256_loadu_ps(src + i), bf16);
        SPREAD(0);
        SPREAD(1);
        SPREAD(2);
        SPREAD(3);
        SPREAD(4);
        SPREAD(5);
        SPREAD(6);
        SPREAD(7);
    }
    if (i < n) {
        uint16_t t[8];
        _mm_storeu_si128((__m128i *)(void *)t,
                         narrow8(avx2_load_n(src + i, (ptrdiff_t)(n - i)), bf16));
        for (size_t j = 0; i + j < n; ++j)
            dst[2 * (i + j)] = t[j];
    }
}
