#include "common/dtype.h"

#include "common/common.h"

static const struct {
    aclDataType dt;
    const char *name;
    size_t size;
} k_dtypes[] = {
    {ACL_DT_UNDEFINED, "UNDEFINED", 0},  {ACL_FLOAT, "FLOAT", 4},
    {ACL_FLOAT16, "FLOAT16", 2},         {ACL_INT8, "INT8", 1},
    {ACL_INT32, "INT32", 4},             {ACL_UINT8, "UINT8", 1},
    {ACL_INT16, "INT16", 2},             {ACL_UINT16, "UINT16", 2},
    {ACL_UINT32, "UINT32", 4},           {ACL_INT64, "INT64", 8},
    {ACL_UINT64, "UINT64", 8},           {ACL_DOUBLE, "DOUBLE", 8},
    {ACL_BOOL, "BOOL", 1},               {ACL_STRING, "STRING", 0},
    {ACL_COMPLEX64, "COMPLEX64", 8},     {ACL_COMPLEX128, "COMPLEX128", 16},
    {ACL_BF16, "BFLOAT16", 2},           {ACL_INT4, "INT4", 0},
    {ACL_UINT1, "UINT1", 0},             {ACL_COMPLEX32, "COMPLEX32", 4},
    {ACL_HIFLOAT8, "HIFLOAT8", 1},       {ACL_FLOAT8_E5M2, "FLOAT8_E5M2", 1},
    {ACL_FLOAT8_E4M3FN, "FLOAT8_E4M3FN", 1}, {ACL_FLOAT8_E8M0, "FLOAT8_E8M0", 1},
    {ACL_FLOAT6_E3M2, "FLOAT6_E3M2", 0}, {ACL_FLOAT6_E2M3, "FLOAT6_E2M3", 0},
    {ACL_FLOAT4_E2M1, "FLOAT4_E2M1", 0}, {ACL_FLOAT4_E1M2, "FLOAT4_E1M2", 0},
};

const char *dtype_name(aclDataType dt)
{
    for (size_t i = 0; i < ACLCONV_ARRAY_SIZE(k_dtypes); ++i)
        if (k_dtypes[i].dt == dt) return k_dtypes[i].name;
    return "UNKNOWN";
}

int dtype_is_known(aclDataType dt)
{
    for (size_t i = 0; i < ACLCONV_ARRAY_SIZE(k_dtypes); ++i)
        if (k_dtypes[i].dt == dt) return 1;
    return 0;
}

ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType)
{
    for (size_t i = 0; i < ACLCONV_ARRAY_SIZE(k_dtypes); ++i)
        if (k_dtypes[i].dt == dataType) return k_dtypes[i].size;
    return 0;
}

float f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1fu) return f32_from_bits(sign | 0x7f800000u | (man << 13)); /* inf / nan */
    if (exp == 0) {
        if (man == 0) return f32_from_bits(sign);
        /* subnormal: value = man * 2^-24, exact in fp32 */
        float v = (float)man * 0x1p-24f;
        return sign ? -v : v;
    }
    return f32_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
}

uint16_t f32_to_f16(float f)
{
    uint32_t u = f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu)); /* NaN */
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* rounds to >= 65520: inf */
    if (a < 0x38800000u) {
        /* result is subnormal (or zero): round a * 2^24 to an integer, ties to even */
        if (a < 0x33000000u) return sign; /* below half the smallest subnormal */
        uint32_t exp = a >> 23;
        uint32_t man = (a & 0x7fffffu) | 0x800000u;
        uint32_t shift = 126u - exp; /* 14..24 */
        uint32_t q = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1);
        uint32_t half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1u))) ++q;
        return (uint16_t)(sign | q);
    }
    /* normal: rebias exponent, round 23 -> 10 mantissa bits (carry is correct) */
    uint32_t r = a - 0x38000000u; /* exponent - 112 */
    r += 0xfffu + ((r >> 13) & 1u);
    return (uint16_t)(sign | (r >> 13));
}

ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value) { return f16_to_f32(value); }
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value) { return f32_to_f16(value); }
