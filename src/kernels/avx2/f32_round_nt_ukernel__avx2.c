/* AVX2 fp32 rounding (f32_round__avx2.h) into a destination not read again
 * soon: the plain kernel up to a 32-byte boundary, whole vectors stream (no
 * read for ownership of the lines they cover), the plain kernel ends the
 * row. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx2/f32_round__avx2.h"
#include "kernels/cvt_ukernels.h"

void f32_round_nt_ukernel__avx2(size_t n, const float *src, float *dst, int kind)
{
    size_t head = (size_t)((32 - (uintptr_t)dst % 32) % 32) / sizeof(float);
    if ((uintptr_t)dst % sizeof(float) != 0 || head > n) head = n; /* no vector can stream */
    f32_round_ukernel__avx2(head, src, dst, kind);
    size_t i = head;
    for (; i + 8 <= n; i += 8)
        _mm256_stream_ps(dst + i, f32x8_round(_mm256_loadu_ps(src + i), kind));
    f32_round_ukernel__avx2(n - i, src + i, dst + i, kind);
}
