/* CPU features: which instruction set the compute kernels may use. */
#ifndef ACLCONV_CPU_H_
#define ACLCONV_CPU_H_

#include <stdint.h>

#include "aclconv/aclconv.h"

/* The ISA for kernels chosen now: the best the CPU and the OS support
 * (cpu_detected_isa), capped by ACLCONV_ISA (read on every call, so a test may
 * switch it between plans) and by aclconvSetMaxIsa. */
aclconvIsa cpu_isa(void);

/* The best ISA the CPU and the OS support, ignoring every cap. Detected once. */
aclconvIsa cpu_detected_isa(void);

/* Whether plans for isa run BF16 products as pairs with vdpbf16ps
 * (docs/kernels.md, "BF16 pairs"): ON where isa is AVX-512 and the CPU has
 * the instruction (AVX-512 BF16) and runs it at twice the FMA's products
 * (AMD; on Intel's cores the pairs were slower than widening to fp32).
 * ACLCONV_BF16_DOT=1 turns it ON wherever the instruction is (tests), =0
 * OFF, =exact plans the pairs with the fused multiply-add kernel that
 * computes the same bits without the instruction (EXACT, AVX-512 only).
 * Read on every call: plans keep what it said. */
typedef enum { CPU_BF16_DOT_OFF = 0, CPU_BF16_DOT_ON = 1, CPU_BF16_DOT_EXACT = 2 } cpu_bf16_dot_use;
cpu_bf16_dot_use cpu_bf16_dot(aclconvIsa isa);

/* Whether the CPU has vdpbf16ps and isa is AVX-512 (the instruction alone,
 * whatever ACLCONV_BF16_DOT says). */
int cpu_has_bf16_dot(aclconvIsa isa);

/* Whether the CPU runs 512-bit vector operations on four full-width pipes
 * (AMD family 0x1A, Zen 5), so that integer work among the FMAs of a kernel
 * costs little; elsewhere (Zen 4's pairs of 256-bit halves; Intel's server
 * cores, two 512-bit vector ports, not measured by this name) it takes the
 * FMAs' issue slots. A tuning hint, never a change of results. Detected
 * once. */
int cpu_wide_vector_alus(void);

/* The family of an AMD CPU (0x19 Zen 3 and Zen 4, 0x1A Zen 5), 0 for any
 * other vendor. Detected once; a tuning hint where AMD's and Intel's cores
 * were measured to want different choices, never a change of results. */
unsigned cpu_amd_family(void);

/* The L2 cache of a core in bytes as cpuid reports it (0: unknown).
 * Detected once; a blocking hint for planning, never a change of results
 * (data_slab_budget; docs/kernels.md, "Partition and determinism"). */
int64_t cpu_l2_bytes(void);

/* The name of isa: "scalar", "avx2" or "avx512". */
const char *cpu_isa_name(aclconvIsa isa);

#endif /* ACLCONV_CPU_H_ */
