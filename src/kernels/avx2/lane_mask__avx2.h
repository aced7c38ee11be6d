/* AVX2 lane masks for _mm256_maskload_ps / _mm256_maskstore_ps: lanes l < n
 * set (0 <= n <= 8). Shared by the kernels that include it (compiled with
 * AVX2 flags). */
#ifndef ACLCONV_LANE_MASK_AVX2_H_
#define ACLCONV_LANE_MASK_AVX2_H_

#include <immintrin.h>
#include <stddef.h>

static inline __m256i avx2_lane_mask(size_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

#endif
