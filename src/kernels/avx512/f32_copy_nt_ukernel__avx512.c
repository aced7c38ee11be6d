/* AVX-512 fp32 row copy with non-temporal stores: the destination's lines
 * written whole are not read for ownership. A masked head reaches a 64-byte
 * boundary, whole vectors stream, a masked tail ends the row. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/cvt_ukernels.h"

static inline __mmask16 first(size_t k) /* lanes l < k, k <= 16 */
{
    return (__mmask16)((1u << k) - 1u);
}

void f32_copy_nt_ukernel__avx512(size_t n, const float *src, float *dst)
{
    /* floats before the first 64-byte boundary (all of them when dst is not
     * even float-aligned: no vector can stream) */
    size_t head = (size_t)((64 - (uintptr_t)dst % 64) % 64) / sizeof(float);
    if ((uintptr_t)dst % sizeof(float) != 0 || head > n) head = n;
    for (size_t i = 0; i < head; i += 16) {
        const __mmask16 m = first(head - i < 16 ? head - i : 16);
        _mm512_mask_storeu_ps(dst + i, m, _mm512_maskz_loadu_ps(m, src + i));
    }
    size_t i = head;
    for (; i + 16 <= n; i += 16) _mm512_stream_ps(dst + i, _mm512_loadu_ps(src + i));
    if (i < n) _mm512_mask_storeu_ps(dst + i, first(n - i), _mm512_maskz_loadu_ps(first(n - i), src + i));
}
