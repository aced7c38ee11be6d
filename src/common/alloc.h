/* Every heap allocation of the library goes through here, so tests can make
 * the Nth one fail (fault injection) and check that each failure becomes a
 * status without a leak. */
#ifndef ACLCONV_ALLOC_H_
#define ACLCONV_ALLOC_H_

#include <stddef.h>

void *aclconv_malloc(size_t size);
void *aclconv_calloc(size_t count, size_t size);
/* size bytes aligned to ACLCONV_ALIGN; release with aclconv_free. */
void *aclconv_aligned_alloc(size_t size);
void aclconv_free(void *p);

/* Test hook: the allocation numbered fail_at (1-based, counted from this
 * call) and every later one until the next call fail; 0 disables. Returns
 * the number of allocations made since the previous call. Hidden like every
 * internal symbol: the tests link the static library, and a program linking
 * the shared one cannot switch allocations off. */
long aclconvTestFailAllocAt(long fail_at);

#endif /* ACLCONV_ALLOC_H_ */
