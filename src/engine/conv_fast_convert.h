/* Inline fp16 conversions of the fast engine's packing and store loops,
 * bit-identical to f16_to_f32 / f32_to_f16 (src/common/dtype.c); the widening
 * is branch-free so the loops vectorize. tests/test_kernels.c compares them
 * with the library's conversions (all 65536 halves; floats of every class). */
#ifndef ACLCONV_CONV_FAST_CONVERT_H_
#define ACLCONV_CONV_FAST_CONVERT_H_

#include <stdint.h>

#include "common/dtype.h"

static inline float f16_to_f32_inl(uint16_t h)
{
    /* branch-free, same bits as f16_to_f32: normal numbers rebias the
     * exponent, inf / NaN keep an all-ones exponent, subnormals (and zero) are
     * man * 2^-24 (exact) */
    const int32_t hi = (int32_t)h, em = hi & 0x7fff; /* int32 masks: SSE2 vectorizes */
    const uint32_t sign = (uint32_t)(hi & 0x8000) << 16;
    const int32_t normal = (em << 13) + (112 << 23);
    const int32_t special = (em << 13) | 0x7f800000;
    const int32_t sub = (int32_t)f32_bits((float)em * 0x1p-24f);
    const int32_t m_sp = -(int32_t)(em >= 0x7c00), m_sub = -(int32_t)(em < 0x400);
    const int32_t bits = (special & m_sp) | (sub & m_sub) | (normal & ~(m_sp | m_sub));
    return f32_from_bits(sign | (uint32_t)bits);
}

static inline uint16_t f32_to_f16_inl(float f)
{
    const uint32_t u = f32_bits(f);
    const uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    const uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);
    if (a < 0x38800000u) {
        if (a < 0x33000000u) return sign;
        const uint32_t exp = a >> 23, man = (a & 0x7fffffu) | 0x800000u;
        const uint32_t shift = 126u - exp;
        uint32_t q = man >> shift;
        const uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1u))) ++q;
        return (uint16_t)(sign | q);
    }
    uint32_t r = a - 0x38000000u;
    r += 0xfffu + ((r >> 13) & 1u);
    return (uint16_t)(sign | (r >> 13));
}

#endif /* ACLCONV_CONV_FAST_CONVERT_H_ */
