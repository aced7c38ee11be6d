/* AVX2 row copy: 8 floats a step, the last vector of a row masked. */
#include <immintrin.h>

#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/grp_ukernels.h"

void f32_grpcopy_ukernel__avx2(size_t rows, size_t len, const float *src, size_t sps, float *dst,
                               size_t dps)
{
    const size_t full = len / 8 * 8;
    const __m256i tm = avx2_lane_mask(len % 8);
    for (size_t r = 0; r < rows; ++r) {
        const float *s = src + r * sps;
        float *d = dst + r * dps;
        size_t j = 0;
        for (; j < full; j += 8) _mm256_storeu_ps(d + j, _mm256_loadu_ps(s + j));
        if (len % 8) avx2_store_n(d + j, (ptrdiff_t)(len % 8), _mm256_maskload_ps(s + j, tm));
    }
}
