/* Internal basics shared by every layer of aclconv. */
#ifndef ACLCONV_COMMON_H_
#define ACLCONV_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

/* CANN tensors have at most 8 dims. */
#define ACLCONV_MAX_DIMS 8
/* Alignment of aclrtMalloc memory and of every workspace region. */
#define ACLCONV_ALIGN 64

#define ACLCONV_MIN(a, b) ((a) < (b) ? (a) : (b))
#define ACLCONV_MAX(a, b) ((a) > (b) ? (a) : (b))
#define ACLCONV_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline size_t aclconv_round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

#endif /* ACLCONV_COMMON_H_ */
