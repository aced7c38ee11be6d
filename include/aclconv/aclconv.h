/*
 * aclconv/aclconv.h: what aclconv offers beyond the CANN API.
 */
#ifndef ACLCONV_ACLCONV_H_
#define ACLCONV_ACLCONV_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACLCONV_VERSION_MAJOR 0
#define ACLCONV_VERSION_MINOR 1
#define ACLCONV_VERSION_PATCH 0

/* "major.minor.patch" of the library actually linked. */
ACL_FUNC_VISIBILITY const char *aclconvVersion(void);

/* Instruction sets of the compute kernels, in increasing order. */
typedef enum { ACLCONV_ISA_SCALAR = 0, ACLCONV_ISA_AVX2 = 1, ACLCONV_ISA_AVX512 = 2 } aclconvIsa;

/* The ISA the kernels use: the best the CPU and OS support, capped by the
 * environment variable ACLCONV_ISA=scalar|avx2|avx512 or aclconvSetMaxIsa. */
ACL_FUNC_VISIBILITY aclconvIsa aclconvGetIsa(void);
/* Caps the ISA for plans made afterwards; returns the ISA now in effect. */
ACL_FUNC_VISIBILITY aclconvIsa aclconvSetMaxIsa(aclconvIsa isa);

/* Worker threads of the compute pool: ACLCONV_NUM_THREADS, default the number
 * of online cores. Results do not depend on it (bitwise). */
ACL_FUNC_VISIBILITY int aclconvGetNumThreads(void);
/* Sets the number of threads (>= 1) for runs started afterwards. */
ACL_FUNC_VISIBILITY aclError aclconvSetNumThreads(int numThreads);

#ifdef __cplusplus
}
#endif

#endif /* ACLCONV_ACLCONV_H_ */
