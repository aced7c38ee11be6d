/*
 * Tests of the fp32 <-> fp16 / bf16 / hf32 conversions (src/common/dtype.h,
 * aclFloatToFloat16 / aclFloat16ToFloat) against independent references:
 * gcc's _Float16 conversions for fp16, and rounding in double arithmetic
 * (rint: ties to even) for bf16 and hf32.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "test_check.h"
#include "common/dtype.h"

/* Prints at most a few failures per check family, counts all. */
static int report(int *shown, const char *fmt_what, uint32_t in, uint32_t got, uint32_t want)
{
    ++g_test_failures;
    if ((*shown)++ < 5)
        printf("FAIL %s: input 0x%08x: got 0x%08x, want 0x%08x\n", fmt_what, in, got, want);
    return 0;
}

static uint64_t g_rng = 0x243F6A8885A308D3ull; /* fixed seed, printed in main */
static uint64_t next_random(void)
{
    uint64_t z = (g_rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int is_nan_f32(uint32_t u)
{
    return (u & 0x7fffffffu) > 0x7f800000u;
}
static int is_nan_f16(uint16_t h)
{
    return (h & 0x7fffu) > 0x7c00u;
}

/* ---- fp16 --------------------------------------------------------------------- */

static uint16_t ref_f32_to_f16(float f)
{
    _Float16 h = (_Float16)f; /* gcc: libgcc's __truncsfhf2, round to nearest even */
    uint16_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}

static float ref_f16_to_f32(uint16_t u)
{
    _Float16 h;
    memcpy(&h, &u, sizeof h);
    return (float)h;
}

static int g_f16_shown;

/* f32_to_f16(f) against the reference; NaN must stay a NaN of the same sign. */
static void check_f16(uint32_t in)
{
    float f = f32_from_bits(in);
    uint16_t got = f32_to_f16(f), want = ref_f32_to_f16(f);
    if (is_nan_f32(in)) {
        if (!is_nan_f16(got) || (got & 0x8000u) != ((in >> 16) & 0x8000u))
            report(&g_f16_shown, "f32_to_f16 NaN", in, got, want);
        return;
    }
    if (got != want) report(&g_f16_shown, "f32_to_f16", in, got, want);
    if (aclFloatToFloat16(f) != got)
        report(&g_f16_shown, "aclFloatToFloat16", in, aclFloatToFloat16(f), got);
}

static void test_f16_all_halfs(void)
{
    int shown = 0;
    for (uint32_t h = 0; h <= 0xffffu; ++h) {
        uint32_t got = f32_bits(f16_to_f32((uint16_t)h));
        uint32_t want = f32_bits(ref_f16_to_f32((uint16_t)h));
        if (is_nan_f16((uint16_t)h)) {
            if (!is_nan_f32(got) || (got >> 31) != (h >> 15))
                report(&shown, "f16_to_f32 NaN", h, got, want);
            if (!is_nan_f16(f32_to_f16(f32_from_bits(got))))
                report(&shown, "f16 NaN round trip", h, f32_to_f16(f32_from_bits(got)), h);
            continue;
        }
        if (got != want) report(&shown, "f16_to_f32", h, got, want);
        if (f32_bits(aclFloat16ToFloat((uint16_t)h)) != got)
            report(&shown, "aclFloat16ToFloat", h, f32_bits(aclFloat16ToFloat((uint16_t)h)), got);
        uint16_t back = f32_to_f16(f32_from_bits(got));
        if (back != h) report(&shown, "f16 round trip", h, back, h);
    }
}

/* Around every finite half: the value, the midpoints to both neighbours (ties)
 * and one float ulp either side of each. */
static void test_f16_neighbourhoods(void)
{
    for (uint32_t h = 0; h <= 0xffffu; ++h) {
        if ((h & 0x7c00u) == 0x7c00u) continue; /* inf, NaN */
        double v = (double)f16_to_f32((uint16_t)h);
        uint32_t hn = (h & 0x7fffu) == 0x7bffu ? h : h + 1; /* next in magnitude */
        double vn =
            (h & 0x7fffu) == 0x7bffu ? copysign(65536.0, v) : (double)f16_to_f32((uint16_t)hn);
        if (h == 0x8000u) vn = -(double)f16_to_f32(1); /* -0 -> smallest negative */
        float mid = (float)((v + vn) / 2);             /* exact: halfs have few bits */
        uint32_t pts[] = {f32_bits((float)v), f32_bits(mid)};
        for (int k = 0; k < 2; ++k)
            for (int d = -2; d <= 2; ++d)
                check_f16(pts[k] + (uint32_t)d);
    }
}

static void test_f16_edges(void)
{
    static const uint32_t edges[] = {
        0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u, /* zeros, f32 subnormals */
        0x33000000u, 0x33000001u, 0x32ffffffu, 0xb3000000u, /* half of the smallest f16 subnormal */
        0x33800000u, 0x33c00000u, 0x34000000u, 0x34400000u, /* subnormal ties */
        0x387fc000u, 0x387fe000u, 0x387ff000u, 0x38800000u, /* largest subnormal -> smallest normal
                                                             */
        0x477fe000u, 0x477fefffu, 0x477ff000u, 0x477ff001u, 0x47800000u, /* overflow edge */
        0xc77ff000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, /* large, inf */
        0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fbfffffu, 0xff800001u, 0x7fffffffu, /* NaN */
        0x3f800000u, 0x3f801000u, 0x3f803000u, 0x3f802000u, 0x3f806000u, /* 1.0 and its ties */
    };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; ++i)
        check_f16(edges[i]);
    CHECK(f32_to_f16(65520.0f) == 0x7c00u, "65520 -> 0x%04x", f32_to_f16(65520.0f));
    CHECK(f32_to_f16(65519.996f) == 0x7bffu, "65519.996 -> 0x%04x", f32_to_f16(65519.996f));
    CHECK(f32_to_f16(0x1p-25f) == 0, "2^-25 (tie) -> 0x%04x", f32_to_f16(0x1p-25f));
    CHECK(f32_to_f16(0x1.8p-24f) == 2, "1.5*2^-24 (tie) -> 0x%04x", f32_to_f16(0x1.8p-24f));
    CHECK(f32_to_f16(-INFINITY) == 0xfc00u, "-inf");
}

static void test_f16_sweep_and_random(void)
{
    /* every float exponent and sign, sparsely */
    for (uint64_t u = 0; u <= 0xffffffffull; u += 4093)
        check_f16((uint32_t)u);
    /* random bit patterns, and random values in and around the f16 range */
    for (int i = 0; i < 2000000; ++i) {
        uint64_t r = next_random();
        check_f16((uint32_t)r);
        uint32_t exp = 100u + (uint32_t)((r >> 32) % 45u); /* 2^-27 .. 2^17 */
        check_f16((uint32_t)((r >> 40) & 0x807fffffu) | (exp << 23));
    }
}

/* ---- bf16 and hf32: rounding in double ------------------------------------------- */

/*
 * Rounds finite f to keep_bits mantissa bits, ties to even, computed in
 * double: q = f / ulp is exact (f has at most 24 significant bits), rint
 * rounds it to an integer with ties to even. Values that round past the
 * largest float become infinity, as IEEE overflow does.
 */
static float ref_round(float f, int keep_bits)
{
    uint32_t u = f32_bits(f);
    int biased = (int)((u >> 23) & 0xffu);
    int e = biased == 0 ? 1 : biased; /* subnormals share the smallest exponent */
    double ulp = ldexp(1.0, e - 127 - keep_bits);
    double r = rint((double)f / ulp) * ulp;
    if (fabs(r) >= 0x1p128) return copysignf(INFINITY, f);
    return (float)r;
}

static int g_bf16_shown, g_hf32_shown;

static void check_bf16(uint32_t in)
{
    float f = f32_from_bits(in);
    uint16_t h = f32_to_bf16(f);
    uint32_t got = f32_bits(bf16_to_f32(h));
    if (is_nan_f32(in)) {
        if (!is_nan_f32(got) || (got >> 31) != (in >> 31))
            report(&g_bf16_shown, "f32_to_bf16 NaN", in, got, in);
        return;
    }
    if (in == 0x7f800000u || in == 0xff800000u) {
        if (got != in) report(&g_bf16_shown, "f32_to_bf16 inf", in, got, in);
        return;
    }
    uint32_t want = f32_bits(ref_round(f, 7));
    if (got != want) report(&g_bf16_shown, "f32_to_bf16", in, got, want);
    if (f32_bits(f32_round_bf16(f)) != got)
        report(&g_bf16_shown, "f32_round_bf16", in, f32_bits(f32_round_bf16(f)), got);
}

static void check_hf32(uint32_t in)
{
    float f = f32_from_bits(in);
    uint32_t got = f32_bits(f32_round_hf32(f));
    if (is_nan_f32(in) || (in & 0x7fffffffu) == 0x7f800000u) {
        if (got != in) report(&g_hf32_shown, "f32_round_hf32 inf/NaN", in, got, in);
        return;
    }
    uint32_t want = f32_bits(ref_round(f, HF32_MANTISSA_BITS));
    if (got != want) report(&g_hf32_shown, "f32_round_hf32", in, got, want);
}

static void test_bf16(void)
{
    int shown = 0;
    /* every bf16 survives the round trip unchanged (NaN stays NaN) */
    for (uint32_t h = 0; h <= 0xffffu; ++h) {
        float f = bf16_to_f32((uint16_t)h);
        CHECK(f32_bits(f) == h << 16, "bf16_to_f32(0x%04x)", h);
        uint16_t back = f32_to_bf16(f);
        if (is_nan_f32(h << 16) ? !is_nan_f32((uint32_t)back << 16) : back != h)
            report(&shown, "bf16 round trip", h, back, h);
        /* ties between h and the next value, and one ulp either side */
        uint32_t tie = (h << 16) | 0x8000u;
        check_bf16(tie - 1);
        check_bf16(tie);
        check_bf16(tie + 1);
    }
    static const uint32_t edges[] = {0x7f7fffffu, 0x7f7f8000u, 0x7f7f7fffu, 0xff7f8000u,
                                     0x00008000u, 0x00018000u, 0x80008000u, 0x7fc00001u,
                                     0x7f800001u, 0xffffffffu, 0x7f800000u, 0xff800000u};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; ++i)
        check_bf16(edges[i]);
    CHECK(f32_to_bf16(f32_from_bits(0x7f7f8000u)) == 0x7f80u, "max tie rounds to inf");
    CHECK(f32_to_bf16(f32_from_bits(0x3f808000u)) == 0x3f80u, "tie to even (down)");
    CHECK(f32_to_bf16(f32_from_bits(0x3f818000u)) == 0x3f82u, "tie to even (up)");
    for (uint64_t u = 0; u <= 0xffffffffull; u += 4093)
        check_bf16((uint32_t)u);
    for (int i = 0; i < 2000000; ++i)
        check_bf16((uint32_t)next_random());
}

static void test_hf32(void)
{
    /* 1.0 + m * 2^-11 + (tie | below | above): ties go to the even m */
    for (uint32_t m = 0; m < 2048; ++m) {
        uint32_t base = 0x3f800000u | (m << 12);
        uint32_t even_up = (m & 1u) ? base + 0x1000u : base;
        uint32_t got = f32_bits(f32_round_hf32(f32_from_bits(base | 0x800u)));
        CHECK(got == even_up, "tie 0x%08x -> 0x%08x, want 0x%08x", base | 0x800u, got, even_up);
        got = f32_bits(f32_round_hf32(f32_from_bits(base | 0x7ffu)));
        CHECK(got == base, "below tie 0x%08x -> 0x%08x", base | 0x7ffu, got);
        got = f32_bits(f32_round_hf32(f32_from_bits(base | 0x801u)));
        CHECK(got == base + 0x1000u, "above tie 0x%08x -> 0x%08x", base | 0x801u, got);
        got = f32_bits(f32_round_hf32(f32_from_bits(base | 0x80000000u | 0x800u)));
        CHECK(got == (even_up | 0x80000000u), "negative tie 0x%08x", base | 0x800u);
    }
    CHECK(f32_round_hf32(f32_from_bits(0x3fffffffu)) == 2.0f, "carry into the exponent");
    CHECK(f32_bits(f32_round_hf32(f32_from_bits(0x7f7fffffu))) == 0x7f800000u, "overflow to inf");
    CHECK(f32_round_hf32(1.0f + 0x1p-11f) == 1.0f + 0x1p-11f, "kept bit lost");
    CHECK(f32_round_hf32(1.0f + 0x1p-12f) == 1.0f, "tie at 1.0 not to even");
    CHECK(f32_round_hf32(1.0f + 0x1p-12f + 0x1p-11f) == 1.0f + 0x1p-10f, "tie at odd not up");
    static const uint32_t edges[] = {0x00000001u, 0x00000800u, 0x00000801u, 0x00001800u,
                                     0x007fffffu, 0x80000800u, 0x7fc00000u, 0xff800001u,
                                     0x7f800000u, 0xff800000u, 0x00000000u, 0x80000000u};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; ++i)
        check_hf32(edges[i]);
    for (uint64_t u = 0; u <= 0xffffffffull; u += 4093)
        check_hf32((uint32_t)u);
    for (int i = 0; i < 2000000; ++i)
        check_hf32((uint32_t)next_random());
}

/* The checker must be able to fail: a deliberately wrong rounding is caught. */
static void test_reference_catches_errors(void)
{
    float f = f32_from_bits(0x3f801000u); /* 1 + 2^-11: a tie between two fp16 values */
    CHECK(ref_f32_to_f16(f) == 0x3c00u, "gcc reference: tie to even gave 0x%04x",
          ref_f32_to_f16(f));
    CHECK(f32_bits(ref_round(f32_from_bits(0x3f808000u), 7)) == 0x3f800000u,
          "double reference: bf16 tie");
    CHECK(f32_bits(ref_round(f32_from_bits(0x3f818000u), 7)) == 0x3f820000u,
          "double reference: bf16 tie up");
}

int main(void)
{
    printf("test_dtype: random seed 0x%016llx\n", (unsigned long long)g_rng);
    test_reference_catches_errors();
    test_f16_all_halfs();
    test_f16_neighbourhoods();
    test_f16_edges();
    test_f16_sweep_and_random();
    test_bf16();
    test_hf32();
    if (g_test_failures) {
        printf("test_dtype: %d check(s) failed\n", g_test_failures);
        return 1;
    }
    printf("test_dtype: all checks passed\n");
    return 0;
}
