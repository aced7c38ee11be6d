/* Element types: sizes, names, and the exact conversions between fp32 and the
 * narrow float formats. Every narrowing rounds to nearest, ties to even, and
 * keeps NaN a NaN. */
#ifndef ACLCONV_DTYPE_H_
#define ACLCONV_DTYPE_H_

#include <stdint.h>
#include <string.h>

#include "acl/acl_base.h"

/* Mantissa bits kept by HF32, the Ascend cube's reduced fp32 (fp32 keeps 23). */
#define HF32_MANTISSA_BITS 11

const char *dtype_name(aclDataType dt);
/* true for the values of the aclDataType enum (including ACL_DT_UNDEFINED). */
int dtype_is_known(aclDataType dt);

static inline uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Rounds an fp32 value to its top 23-drop mantissa bits (nearest even). */
static inline float f32_round_mantissa(float f, int keep_bits)
{
    uint32_t u = f32_bits(f);
    if ((u & 0x7f800000u) == 0x7f800000u) return f; /* inf, nan unchanged */
    int drop = 23 - keep_bits;
    uint32_t half = 1u << (drop - 1);
    uint32_t lsb = (u >> drop) & 1u;
    u += half - 1 + lsb; /* may carry into the exponent: correct rounding up */
    u &= ~((1u << drop) - 1);
    return f32_from_bits(u);
}

static inline float f32_round_hf32(float f) { return f32_round_mantissa(f, HF32_MANTISSA_BITS); }

static inline uint16_t f32_to_bf16(float f)
{
    uint32_t u = f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u); /* quiet NaN */
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}
static inline float bf16_to_f32(uint16_t h) { return f32_from_bits((uint32_t)h << 16); }

float f16_to_f32(uint16_t h);
uint16_t f32_to_f16(float f);

/* Round trips through the narrow formats, as the NPU's casts do. */
static inline float f32_round_bf16(float f) { return bf16_to_f32(f32_to_bf16(f)); }
static inline float f32_round_f16(float f) { return f16_to_f32(f32_to_f16(f)); }

/* Reads element i of an array of dtype dt as fp32 (dt: FLOAT, FLOAT16, BF16). */
static inline float load_as_f32(const void *base, aclDataType dt, int64_t i)
{
    switch (dt) {
    case ACL_FLOAT16: return f16_to_f32(((const uint16_t *)base)[i]);
    case ACL_BF16: return bf16_to_f32(((const uint16_t *)base)[i]);
    default: return ((const float *)base)[i];
    }
}
/* Writes v, rounded to dt, as element i. */
static inline void store_from_f32(void *base, aclDataType dt, int64_t i, float v)
{
    switch (dt) {
    case ACL_FLOAT16: ((uint16_t *)base)[i] = f32_to_f16(v); break;
    case ACL_BF16: ((uint16_t *)base)[i] = f32_to_bf16(v); break;
    default: ((float *)base)[i] = v; break;
    }
}

#endif /* ACLCONV_DTYPE_H_ */
