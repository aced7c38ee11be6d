/* The AVX-512 fp32 -> fp16 / bf16 narrowing loop shared by f32_narrow
 * (plain stores) and f32_narrow_nt (non-temporal stores): 16 a step, the tail
 * masked; vcvtps2ph (ties to even; NaNs quieted with the top 10 payload bits,
 * as f32_to_f16) or the integer rounding of f32_to_bf16. Include only from
 * AVX-512 kernel files. */
#ifndef ACLCONV_F32_NARROW_AVX512_H_
#define ACLCONV_F32_NARROW_AVX512_H_

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

/* f32_to_bf16's bits of x in the high word of each dword: the low word
 * rounded off to nearest even (a carry into the exponent gives the right
 * neighbour, infinity included), NaNs quieted (bit 22 set, the top payload
 * bits kept: (u >> 16) | 0x40 in the high word). */
static inline __m512i bf16_high_words(__m512 x)
{
    const __m512i u = _mm512_castps_si512(x);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i r = _mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), lsb);
    const __mmask16 nan = _mm512_fpclass_ps_mask(x, 0x81); /* quiet or signalling NaN */
    return _mm512_mask_or_epi32(r, nan, u, _mm512_set1_epi32(0x00400000));
}

static inline __m256i narrow16(__m512 x, int bf16)
{
    if (!bf16) return _mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    return _mm512_cvtepi32_epi16(_mm512_srli_epi32(bf16_high_words(x), 16));
}

/* 32 bf16 values of x0 | x1: the high words of both, one vpermt2w. */
static inline __m512i narrow32_bf16(__m512 x0, __m512 x1)
{
    const __m512i odd =
        _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29, 27,
                         25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    return _mm512_permutex2var_epi16(bf16_high_words(x0), odd, bf16_high_words(x1));
}

/* 16 values at i, streamed when they land on a 32-byte boundary. */
static inline void narrow_step16(const float *src, uint16_t *dst, size_t i, int bf16, int stream)
{
    const __m256i h = narrow16(_mm512_loadu_ps(src + i), bf16);
    if (stream && ((uintptr_t)(dst + i) & 31) == 0)
        _mm256_stream_si256((__m256i *)(dst + i), h);
    else
        _mm256_storeu_si256((__m256i *)(dst + i), h);
}

/* stream: full vectors landing on a 32-byte boundary are stored
 * non-temporally (a row that starts aligned is then streamed whole). bf16
 * goes 32 values a step (one pack for two vectors), after one step of 16
 * when that reaches a 64-byte boundary. */
static inline void narrow_row16(size_t n, const float *src, uint16_t *dst, int bf16, int stream)
{
    size_t i = 0;
    if (bf16) {
        if (n >= 16 && ((uintptr_t)dst & 63) == 32) {
            narrow_step16(src, dst, 0, bf16, stream);
            i = 16;
        }
        for (; i + 32 <= n; i += 32) {
            const __m512i h =
                narrow32_bf16(_mm512_loadu_ps(src + i), _mm512_loadu_ps(src + i + 16));
            if (stream && ((uintptr_t)(dst + i) & 63) == 0)
                _mm512_stream_si512((__m512i *)(dst + i), h);
            else
                _mm512_storeu_si512(dst + i, h);
        }
    }
    for (; i + 16 <= n; i += 16)
        narrow_step16(src, dst, i, bf16, stream);
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        _mm256_mask_storeu_epi16(dst + i, m, narrow16(_mm512_maskz_loadu_ps(m, src + i), bf16));
    }
}

#endif /* ACLCONV_F32_NARROW_AVX512_H_ */
