/* AVX2 fp32 operand / result rounding (f32_round__avx2.h), 8 a step, the
 * tail through a local vector. */
#include <immintrin.h>
#include <string.h>

#include "kernels/avx2/f32_round__avx2.h"
#include "kernels/cvt_ukernels.h"

void f32_round_ukernel__avx2(size_t n, const float *src, float *dst, int kind)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i, f32x8_round(_mm256_loadu_ps(src + i), kind));
    if (i < n) {
        float buf[8] = {0};
        memcpy(buf, src + i, (n - i) * sizeof(float));
        _mm256_storeu_ps(buf, f32x8_round(_mm256_loadu_ps(buf), kind));
        memcpy(dst + i, buf, (n - i) * sizeof(float));
    }
}
