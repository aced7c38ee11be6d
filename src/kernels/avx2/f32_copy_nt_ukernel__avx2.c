/* AVX2 fp32 row copy with non-temporal stores: the destination's lines
 * written whole are not read for ownership. Plain stores up to a 32-byte
 * boundary, whole vectors stream, plain stores end the row. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/cvt_ukernels.h"

void f32_copy_nt_ukernel__avx2(size_t n, const float *src, float *dst)
{
    size_t i = 0;
    if ((uintptr_t)dst % sizeof(float) != 0) /* no vector can stream */
        for (; i < n; ++i) dst[i] = src[i];
    for (; i < n && (uintptr_t)(dst + i) % 32 != 0; ++i) dst[i] = src[i];
    for (; i + 8 <= n; i += 8) _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
    for (; i < n; ++i) dst[i] = src[i];
}
