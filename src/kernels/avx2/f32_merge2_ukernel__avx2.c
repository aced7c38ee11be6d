/* AVX2 fp32 W phases merged and rounded: 16 outputs a step (a load per
 * phase; unpacks interleave within each 128-bit half, a lane permute puts the
 * halves in order), the tail through a local buffer. */
#include <immintrin.h>
#include <string.h>

#include "kernels/avx2/f32_round__avx2.h"
#include "kernels/cvt_ukernels.h"

static inline __m256 maybe_round(__m256 v, int kind)
{
    return kind == F32_ROUND_NONE ? v : f32x8_round(v, kind);
}

/* 8 even and 8 odd values -> dst[0..16), in order */
static inline void merge16(const float *even, const float *odd, int kind, float *dst)
{
    const __m256 e = maybe_round(_mm256_loadu_ps(even), kind);
    const __m256 o = maybe_round(_mm256_loadu_ps(odd), kind);
    /* e0 o0 e1 o1 | e4 o4 e5 o5 and e2 o2 e3 o3 | e6 o6 e7 o7 */
    const __m256 a = _mm256_unpacklo_ps(e, o), b = _mm256_unpackhi_ps(e, o);
    _mm256_storeu_ps(dst, _mm256_permute2f128_ps(a, b, 0x20));
    _mm256_storeu_ps(dst + 8, _mm256_permute2f128_ps(a, b, 0x31));
}

void f32_merge2_ukernel__avx2(size_t n, const float *even, const float *odd, float *dst, int kind)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) merge16(even + i / 2, odd + i / 2, kind, dst + i);
    if (i < n) {
        const size_t r = n - i; /* 1..15 */
        float be[8] = {0}, bo[8] = {0}, buf[16];
        memcpy(be, even + i / 2, (r + 1) / 2 * sizeof(float));
        memcpy(bo, odd + i / 2, r / 2 * sizeof(float));
        merge16(be, bo, kind, buf);
        memcpy(dst + i, buf, r * sizeof(float));
    }
}
