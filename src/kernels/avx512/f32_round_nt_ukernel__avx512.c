/* AVX-512 fp32 rounding (f32_round__avx512.h) into a destination not read
 * again soon: a masked head reaches a 64-byte boundary, whole vectors stream
 * (no read for ownership of the lines they cover), a masked tail ends the
 * row. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/cvt_ukernels.h"

static inline __mmask16 first(size_t k) /* lanes l < k, k <= 16 */
{
    return (__mmask16)((1u << k) - 1u);
}

void f32_round_nt_ukernel__avx512(size_t n, const float *src, float *dst, int kind)
{
    /* floats before the first 64-byte boundary (all of them when dst is not
     * even float-aligned: no vector can stream) */
    size_t head = (size_t)((64 - (uintptr_t)dst % 64) % 64) / sizeof(float);
    if ((uintptr_t)dst % sizeof(float) != 0 || head > n) head = n;
    for (size_t i = 0; i < head; i += 16) {
        const __mmask16 m = first(head - i < 16 ? head - i : 16);
        _mm512_mask_storeu_ps(dst + i, m, f32x16_round(_mm512_maskz_loadu_ps(m, src + i), kind));
    }
    size_t i = head;
    for (; i + 16 <= n; i += 16)
        _mm512_stream_ps(dst + i, f32x16_round(_mm512_loadu_ps(src + i), kind));
    if (i < n)
        _mm512_mask_storeu_ps(dst + i, first(n - i),
                              f32x16_round(_mm512_maskz_loadu_ps(first(n - i), src + i), kind));
}
