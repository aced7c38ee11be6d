/*
 * Memory: "device" memory is host memory aligned to ACLCONV_ALIGN, so every
 * copy kind is a host copy. These functions need no runtime state and work
 * before aclInit and after aclFinalize (CANN programs free on their error
 * paths after finalizing); only aclrtMemcpyAsync needs a stream.
 */
#include "runtime/runtime.h"

#include <string.h>

#include "common/alloc.h"
#include "common/log.h"
#include "runtime/rt_internal.h"

/* Flag bits a policy may carry on top of its base value (0..7). */
#define POLICY_FLAG_BITS                                                                           \
    ((unsigned)ACL_MEM_TYPE_LOW_BAND_WIDTH | (unsigned)ACL_MEM_TYPE_HIGH_BAND_WIDTH |              \
     (unsigned)ACL_MEM_ACCESS_USER_SPACE_READONLY)

static bool policy_is_valid(aclrtMemMallocPolicy policy)
{
    unsigned base = (unsigned)policy & ~POLICY_FLAG_BITS;
    return base <= (unsigned)ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

static aclError alloc_aligned(const char *fn, void **ptr, size_t size)
{
    if (ptr == NULL) {
        aclconv_set_error("%s: the output pointer is NULL", fn);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (size == 0) {
        aclconv_set_error("%s: size is 0", fn);
        return ACL_ERROR_INVALID_PARAM;
    }
    void *p = aclconv_aligned_alloc(size);
    if (p == NULL) {
        aclconv_set_error("%s: cannot allocate %zu bytes", fn, size);
        return ACL_ERROR_BAD_ALLOC;
    }
    *ptr = p;
    return ACL_SUCCESS;
}

static aclError free_aligned(const char *fn, void *p)
{
    if (p == NULL) {
        aclconv_set_error("%s: the pointer is NULL", fn);
        return ACL_ERROR_INVALID_PARAM;
    }
    aclconv_free(p);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    if (!policy_is_valid(policy)) {
        aclconv_set_error("aclrtMalloc: unknown policy 0x%x", (unsigned)policy);
        return ACL_ERROR_INVALID_PARAM;
    }
    return alloc_aligned("aclrtMalloc", devPtr, size);
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr)
{
    return free_aligned("aclrtFree", devPtr);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    return alloc_aligned("aclrtMallocHost", hostPtr, size);
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr)
{
    return free_aligned("aclrtFreeHost", hostPtr);
}

/* The checks shared by aclrtMemcpy and aclrtMemcpyAsync. */
static aclError check_memcpy(const char *fn, const void *dst, size_t destMax, const void *src,
                             size_t count, aclrtMemcpyKind kind)
{
    if ((int)kind < ACL_MEMCPY_HOST_TO_HOST || (int)kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE) {
        aclconv_set_error("%s: unknown kind %d", fn, (int)kind);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (count > 0 && (dst == NULL || src == NULL)) {
        aclconv_set_error("%s: %s is NULL with count %zu", fn, dst == NULL ? "dst" : "src", count);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (count > destMax) {
        aclconv_set_error("%s: count %zu exceeds destMax %zu", fn, count, destMax);
        return ACL_ERROR_INVALID_PARAM;
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind)
{
    aclError st = check_memcpy("aclrtMemcpy", dst, destMax, src, count, kind);
    /* memmove: CANN does not forbid overlap, and the cost is the same */
    if (st == ACL_SUCCESS && count > 0) memmove(dst, src, count);
    return st;
}

typedef struct copy_task {
    void *dst;
    const void *src;
    size_t count;
} copy_task;

static int run_copy(void *arg)
{
    copy_task *c = arg;
    if (c->count > 0) memmove(c->dst, c->src, c->count);
    return 0;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src,
                                              size_t count, aclrtMemcpyKind kind,
                                              aclrtStream stream)
{
    static const char fn[] = "aclrtMemcpyAsync";
    aclError st = check_memcpy(fn, dst, destMax, src, count, kind);
    if (st != ACL_SUCCESS) return st;
    copy_task *c = aclconv_malloc(sizeof *c);
    if (c == NULL) {
        aclconv_set_error("%s: out of memory", fn);
        return ACL_ERROR_BAD_ALLOC;
    }
    *c = (copy_task){.dst = dst, .src = src, .count = count};
    /* even an empty copy is queued: the stream handle still gets checked */
    return stream_submit_as(fn, stream, run_copy, c, aclconv_free);
}

ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
    if (count > 0 && devPtr == NULL) {
        aclconv_set_error("aclrtMemset: devPtr is NULL with count %zu", count);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (count > maxCount) {
        aclconv_set_error("aclrtMemset: count %zu exceeds maxCount %zu", count, maxCount);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (count > 0) memset(devPtr, (unsigned char)value, count);
    return ACL_SUCCESS;
}
