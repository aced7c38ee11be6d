/* Monotonic wall clock in seconds. */
#ifndef ACLCONV_BENCH_TIMER_H_
#define ACLCONV_BENCH_TIMER_H_

#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif /* ACLCONV_BENCH_TIMER_H_ */
