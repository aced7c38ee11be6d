/* AVX-512 row copy: 16 floats a step, the last vector of a row masked. */
#include <immintrin.h>

#include "kernels/grp_ukernels.h"

void f32_grpcopy_ukernel__avx512(size_t rows, size_t len, const float *src, size_t sps, float *dst,
                                 size_t dps)
{
    const size_t full = len / 16 * 16;
    const __mmask16 tm = (__mmask16)((1u << (len % 16)) - 1u);
    for (size_t r = 0; r < rows; ++r) {
        const float *s = src + r * sps;
        float *d = dst + r * dps;
        size_t j = 0;
        for (; j < full; j += 16) _mm512_storeu_ps(d + j, _mm512_loadu_ps(s + j));
        if (tm) _mm512_mask_storeu_ps(d + j, tm, _mm512_maskz_loadu_ps(tm, s + j));
    }
}
