/*
 * CPU feature detection. An ISA is usable only if the CPU has the instructions
 * (cpuid) AND the OS saves the register state they use across context
 * switches (XGETBV): a kernel using YMM/ZMM registers the OS does not save
 * would be silently corrupted by preemption, or fault.
 */
#include "common/cpu.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define ACLCONV_X86 1
#endif

#define STR2(x) #x
#define STR(x) STR2(x)

ACL_FUNC_VISIBILITY const char *aclconvVersion(void)
{
    return STR(ACLCONV_VERSION_MAJOR) "." STR(ACLCONV_VERSION_MINOR) "." STR(ACLCONV_VERSION_PATCH);
}

#ifdef ACLCONV_X86
/* CPUID.1:ECX */
#define CPUID1_ECX_FMA (1u << 12)
#define CPUID1_ECX_OSXSAVE (1u << 27)
#define CPUID1_ECX_AVX (1u << 28)
#define CPUID1_ECX_F16C (1u << 29)
/* CPUID.(7,0):EBX */
#define CPUID7_EBX_AVX2 (1u << 5)
#define CPUID7_EBX_AVX512F (1u << 16)
#define CPUID7_EBX_AVX512DQ (1u << 17)
#define CPUID7_EBX_AVX512BW (1u << 30)
#define CPUID7_EBX_AVX512VL (1u << 31)
/* CPUID.(7,1):EAX */
#define CPUID71_EAX_AVX512_BF16 (1u << 5)
/* XCR0: state components the OS saves */
#define XCR0_SSE (1u << 1)
#define XCR0_YMM (1u << 2)
#define XCR0_OPMASK (1u << 5)
#define XCR0_ZMM_HI256 (1u << 6)
#define XCR0_HI16_ZMM (1u << 7)
#define XCR0_AVX_STATE (XCR0_SSE | XCR0_YMM)
#define XCR0_AVX512_STATE (XCR0_AVX_STATE | XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM)

static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    /* the xgetbv instruction by its encoding: no -mxsave needed for baseline C */
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static aclconvIsa detect(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return ACLCONV_ISA_SCALAR;
    unsigned ecx1 = c;
    /* OSXSAVE must be checked before XGETBV: without it the instruction faults */
    if (!(ecx1 & CPUID1_ECX_OSXSAVE) || !(ecx1 & CPUID1_ECX_AVX)) return ACLCONV_ISA_SCALAR;
    uint64_t xcr0 = read_xcr0();
    if ((xcr0 & XCR0_AVX_STATE) != XCR0_AVX_STATE) return ACLCONV_ISA_SCALAR;
    if (__get_cpuid_max(0, NULL) < 7) return ACLCONV_ISA_SCALAR;
    __cpuid_count(7, 0, a, b, c, d);
    unsigned ebx7 = b;

    /* the AVX2 kernels are built with -mavx2 -mfma -mf16c */
    const unsigned avx2_ecx1 = CPUID1_ECX_FMA | CPUID1_ECX_F16C;
    if ((ecx1 & avx2_ecx1) != avx2_ecx1 || !(ebx7 & CPUID7_EBX_AVX2)) return ACLCONV_ISA_SCALAR;

    const unsigned avx512_ebx7 =
        CPUID7_EBX_AVX512F | CPUID7_EBX_AVX512DQ | CPUID7_EBX_AVX512BW | CPUID7_EBX_AVX512VL;
    if ((ebx7 & avx512_ebx7) != avx512_ebx7) return ACLCONV_ISA_AVX2;
    if ((xcr0 & XCR0_AVX512_STATE) != XCR0_AVX512_STATE) return ACLCONV_ISA_AVX2;
    return ACLCONV_ISA_AVX512;
}

/* vdpbf16ps, on top of detect()'s AVX-512 */
static bool detect_bf16_dot(void)
{
    unsigned a, b, c, d;
    if (detect() != ACLCONV_ISA_AVX512) return false;
    __cpuid_count(7, 0, a, b, c, d);
    if (a < 1) return false;
    __cpuid_count(7, 1, a, b, c, d);
    return (a & CPUID71_EAX_AVX512_BF16) != 0;
}

/* The family of an AMD CPU from the vendor string and leaf 1 (extended
 * family included); 0 for any other vendor */
static unsigned amd_family(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
    /* "AuthenticAMD" in ebx, edx, ecx */
    if (b != 0x68747541u || d != 0x69746e65u || c != 0x444d4163u) return 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned family = (a >> 8) & 0xfu;
    return family == 0xfu ? family + ((a >> 20) & 0xffu) : family;
}

/* Leaf 0x80000006's ECX[31:16], the L2 size of a core in KB (AMD and Intel
 * alike); 0 where the leaf is missing */
static int64_t detect_l2_bytes(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid_max(0x80000000u, NULL) < 0x80000006u) return 0;
    __cpuid(0x80000006u, a, b, c, d);
    return (int64_t)(c >> 16) * 1024;
}
#else
static aclconvIsa detect(void)
{
    return ACLCONV_ISA_SCALAR;
}

static int64_t detect_l2_bytes(void)
{
    return 0;
}

static bool detect_bf16_dot(void)
{
    return false;
}

static unsigned amd_family(void)
{
    return 0;
}
#endif

static pthread_once_t g_detect_once = PTHREAD_ONCE_INIT;
static aclconvIsa g_detected;
/* The cap set by aclconvSetMaxIsa; no cap until it is called. */
static atomic_int g_api_cap = ACLCONV_ISA_AVX512;

static bool g_bf16_dot, g_bf16_dot_fast, g_wide_alus;
static unsigned g_amd_family;
static int64_t g_l2_bytes;

static void detect_once(void)
{
    g_detected = detect();
    g_bf16_dot = detect_bf16_dot();
    g_amd_family = amd_family();
    /* four full-width 512-bit pipes: AMD family 0x1A and later (Zen 5) */
    g_wide_alus = g_amd_family >= 0x1au;
    /* vdpbf16ps at twice the multiply-adds of an fp32 FMA in the same time:
     * AMD's (Zen 4 and Zen 5, measured). Intel's server cores run it at
     * about one FMA's rate (the host: half the fp32 peak in
     * products; a Xeon with AMX, session 51: r50_c2_3x3 bf16 35.6 ms with
     * the pairs, 23.9 ms widened to fp32), so there the pairs cost time. */
    g_bf16_dot_fast = g_bf16_dot && g_amd_family >= 0x19u;
    g_l2_bytes = detect_l2_bytes();
}

aclconvIsa cpu_detected_isa(void)
{
    pthread_once(&g_detect_once, detect_once);
    return g_detected;
}

int cpu_has_bf16_dot(aclconvIsa isa)
{
    pthread_once(&g_detect_once, detect_once);
    return isa == ACLCONV_ISA_AVX512 && g_bf16_dot;
}

int cpu_wide_vector_alus(void)
{
    pthread_once(&g_detect_once, detect_once);
    return g_wide_alus;
}

unsigned cpu_amd_family(void)
{
    pthread_once(&g_detect_once, detect_once);
    return g_amd_family;
}

int64_t cpu_l2_bytes(void)
{
    pthread_once(&g_detect_once, detect_once);
    return g_l2_bytes;
}

cpu_bf16_dot_use cpu_bf16_dot(aclconvIsa isa)
{
    const char *env = getenv("ACLCONV_BF16_DOT");
    if (env != NULL && strcmp(env, "0") == 0) return CPU_BF16_DOT_OFF;
    if (env != NULL && strcmp(env, "exact") == 0)
        return isa == ACLCONV_ISA_AVX512 ? CPU_BF16_DOT_EXACT : CPU_BF16_DOT_OFF;
    if (!cpu_has_bf16_dot(isa)) return CPU_BF16_DOT_OFF;
    if (env != NULL && strcmp(env, "1") == 0) return CPU_BF16_DOT_ON;
    return g_bf16_dot_fast ? CPU_BF16_DOT_ON : CPU_BF16_DOT_OFF;
}

static const char *const k_isa_names[] = {"scalar", "avx2", "avx512"};

const char *cpu_isa_name(aclconvIsa isa)
{
    if ((int)isa < 0 || (size_t)isa >= ACLCONV_ARRAY_SIZE(k_isa_names)) return "unknown";
    return k_isa_names[isa];
}

/* The cap from ACLCONV_ISA; an unset or unknown value caps nothing. */
static aclconvIsa env_cap(void)
{
    const char *env = getenv("ACLCONV_ISA");
    if (env != NULL)
        for (size_t i = 0; i < ACLCONV_ARRAY_SIZE(k_isa_names); ++i)
            if (strcmp(env, k_isa_names[i]) == 0) return (aclconvIsa)i;
    return ACLCONV_ISA_AVX512;
}

aclconvIsa cpu_isa(void)
{
    aclconvIsa isa = cpu_detected_isa();
    isa = ACLCONV_MIN(isa, env_cap());
    return ACLCONV_MIN(isa, (aclconvIsa)atomic_load(&g_api_cap));
}

ACL_FUNC_VISIBILITY aclconvIsa aclconvGetIsa(void)
{
    return cpu_isa();
}

ACL_FUNC_VISIBILITY aclconvIsa aclconvSetMaxIsa(aclconvIsa isa)
{
    /* an out-of-range value is clamped: below scalar is scalar, above is no cap */
    int cap = (int)isa;
    if (cap < ACLCONV_ISA_SCALAR) cap = ACLCONV_ISA_SCALAR;
    if (cap > ACLCONV_ISA_AVX512) cap = ACLCONV_ISA_AVX512;
    atomic_store(&g_api_cap, cap);
    return cpu_isa();
}
