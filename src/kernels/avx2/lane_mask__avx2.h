/* AVX2 lane masks for _mm256_maskload_ps: lanes l < n set (0 <= n <= 8),
 * and stores of the first n lanes. Shared by the kernels that include it
 * (compiled with AVX2 flags). */
#ifndef ACLCONV_LANE_MASK_AVX2_H_
#define ACLCONV_LANE_MASK_AVX2_H_

#include <immintrin.h>
#include <stddef.h>

static inline __m256i avx2_lane_mask(size_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/* The first n values at p (any n: none below 1, a whole vector from 8 on;
 * the other lanes zero) and their store: a whole vector loads and stores
 * plainly, AMD runs vmaskmovps slowly (its stores most). */
static inline __m256 avx2_load_n(const float *p, ptrdiff_t n)
{
    if (n >= 8) return _mm256_loadu_ps(p);
    return _mm256_maskload_ps(p, avx2_lane_mask(n > 0 ? (size_t)n : 0));
}

static inline void avx2_store_n(float *p, ptrdiff_t n, __m256 v)
{
    if (n >= 8) {
        _mm256_storeu_ps(p, v);
        return;
    }
    if (n <= 0) return;
    __m128 h = _mm256_castps256_ps128(v);
    if (n & 4) {
        _mm_storeu_ps(p, h);
        h = _mm256_extractf128_ps(v, 1);
        p += 4;
    }
    if (n & 2) {
        _mm_storel_pi((__m64 *)(void *)p, h);
        h = _mm_movehl_ps(h, h);
        p += 2;
    }
    if (n & 1) _mm_store_ss(p, h);
}

#endif
