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

/* f16_to_f32(f32_to_f16(f)) (the FLOAT16 operand / result rounding) without
 * branches, so loops over it vectorize: normal halves round the f32 mantissa
 * to 10 bits (RNE), subnormal ones to a multiple of 2^-24 by adding and
 * removing 0.75 (whose ulp is 2^-24), overflow gives inf, a NaN keeps the top
 * 9 payload bits, quieted. Checked against the pair of conversions for all
 * 2^32 floats once, and in tests/test_kernels.c on millions of them. */
static inline float f32_round_f16_inl(float f)
{
    const uint32_t u = f32_bits(f), sign = u & 0x80000000u, a = u & 0x7fffffffu;
    const uint32_t rn = (a + 0xfffu + ((a >> 13) & 1u)) & ~0x1fffu;
    const uint32_t sub = f32_bits((f32_from_bits(a) + 0.75f) - 0.75f);
    const uint32_t nan = 0x7fc00000u | (a & 0x7fe000u);
    /* selects as masks (a < 2^31: signed compares, which SSE2 has) */
    const int32_t ai = (int32_t)a;
    const uint32_t m_nan = (uint32_t)-(int32_t)(ai > 0x7f800000), m_inf = (uint32_t)-(int32_t)(ai >= 0x477ff000);
    const uint32_t m_norm = (uint32_t)-(int32_t)(ai >= 0x38800000);
    const uint32_t r = (sub & ~m_norm) | (rn & m_norm & ~m_inf) | (0x7f800000u & m_inf & ~m_nan) | (nan & m_nan);
    return f32_from_bits(sign | r);
}

/* f32_to_f16 without branches (vectorizes): the rounded value's bits, rebiased
 * for normal halves, times 2^24 for subnormal ones (an exact integer <= 1024),
 * 0x7c00 | payload for inf / NaN. Same bits as f32_to_f16 for all 2^32 floats
 * (checked once exhaustively; tests/test_kernels.c checks millions). */
static inline uint16_t f32_to_f16_inl(float f)
{
    const uint32_t r = f32_bits(f32_round_f16_inl(f)), a = r & 0x7fffffffu;
    const int32_t ai = (int32_t)a;
    const uint32_t m_sp = (uint32_t)-(int32_t)(ai >= 0x7f800000), m_norm = (uint32_t)-(int32_t)(ai >= 0x38800000);
    const uint32_t normal = (a - 0x38000000u) >> 13;
    /* only subnormal magnitudes (<= 2^-14) are converted: the int conversion stays in range */
    const uint32_t sub = (uint32_t)(int32_t)(f32_from_bits(a & ~m_norm) * 0x1p24f);
    const uint32_t special = 0x7c00u | ((a >> 13) & 0x3ffu);
    const uint32_t h = (special & m_sp) | (normal & m_norm & ~m_sp) | (sub & ~m_norm);
    return (uint16_t)(((r >> 16) & 0x8000u) | h);
}

/* Sets the quiet bit of every NaN of x[0..n): f32_round_f16 / f32_round_bf16
 * of a value widened from fp16 / bf16 (its low bits are zero already), without
 * branches (the loop vectorizes). */
static inline void f32_quiet_nans(float *x, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) {
        const uint32_t u = f32_bits(x[i]);
        const uint32_t nan = (uint32_t) - (int32_t)((int32_t)(u & 0x7fffffffu) > 0x7f800000);
        x[i] = f32_from_bits(u | (nan & 0x400000u));
    }
}

#endif /* ACLCONV_CONV_FAST_CONVERT_H_ */
