#include "common/alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"

static atomic_long g_alloc_count;
static atomic_long g_fail_at; /* 0: never fail */

static int should_fail(void)
{
    long n = atomic_fetch_add(&g_alloc_count, 1) + 1;
    long f = atomic_load(&g_fail_at);
    return f > 0 && n >= f;
}

void *aclconv_malloc(size_t size)
{
    if (should_fail()) return NULL;
    return malloc(size ? size : 1);
}

void *aclconv_calloc(size_t count, size_t size)
{
    if (should_fail()) return NULL;
    return calloc(count ? count : 1, size ? size : 1);
}

void *aclconv_aligned_alloc(size_t size)
{
    if (should_fail()) return NULL;
    size_t rounded = aclconv_round_up(size ? size : 1, ACLCONV_ALIGN);
    if (rounded < size) return NULL;
    return aligned_alloc(ACLCONV_ALIGN, rounded);
}

void aclconv_free(void *p) { free(p); }

long aclconvTestFailAllocAt(long fail_at)
{
    long made = atomic_exchange(&g_alloc_count, 0);
    atomic_store(&g_fail_at, fail_at);
    return made;
}
