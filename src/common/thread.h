/* Threads of the library (the compute pool's workers, the streams' workers)
 * with a stack size of their own: the passes keep per-call tables on the
 * stack (the depthwise weights task ~120 KB with DW_MAX_TAPS taps), which
 * the 128 KB default of some C libraries (musl) would not hold. */
#ifndef ACLCONV_COMMON_THREAD_H_
#define ACLCONV_COMMON_THREAD_H_

#include <pthread.h>

#define ACLCONV_THREAD_STACK (4u << 20)

/* pthread_create with ACLCONV_THREAD_STACK bytes of stack (the default where
 * the attribute cannot be set). */
static inline int aclconv_thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return pthread_create(t, NULL, fn, arg);
    pthread_attr_setstacksize(&attr, ACLCONV_THREAD_STACK); /* (on failure: the default) */
    const int rc = pthread_create(t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return rc;
}

#endif /* ACLCONV_COMMON_THREAD_H_ */
