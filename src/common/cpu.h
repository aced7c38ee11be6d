/* CPU features: which instruction set the compute kernels may use. */
#ifndef ACLCONV_CPU_H_
#define ACLCONV_CPU_H_

#include "aclconv/aclconv.h"

/* The ISA for kernels chosen now: the best the CPU and the OS support
 * (cpu_detected_isa), capped by ACLCONV_ISA (read on every call, so a test may
 * switch it between plans) and by aclconvSetMaxIsa. */
aclconvIsa cpu_isa(void);

/* The best ISA the CPU and the OS support, ignoring every cap. Detected once. */
aclconvIsa cpu_detected_isa(void);

/* The name of isa: "scalar", "avx2" or "avx512". */
const char *cpu_isa_name(aclconvIsa isa);

#endif /* ACLCONV_CPU_H_ */
