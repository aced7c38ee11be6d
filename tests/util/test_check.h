/* Assertion macros shared by the test programs: count failures in
 * g_test_failures, print file:line and the expression, never abort. */
#ifndef ACLCONV_TEST_CHECK_H_
#define ACLCONV_TEST_CHECK_H_

#include <stdio.h>

#include "acl/acl.h"

/* Failures counted so far by CHECK / CHECK_ST (one counter per program). */
static int g_test_failures;

/* cond must hold; on failure prints the condition, a printf message and the
 * calling thread's recent aclconv error. */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            ++g_test_failures;                                                                     \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                 \
            printf(__VA_ARGS__);                                                                   \
            printf(" (recent error: %s)\n", aclGetRecentErrMsg());                                 \
        }                                                                                          \
    } while (0)

/* expr must return status want; on failure prints both and the recent error. */
#define CHECK_ST(expr, want)                                                                       \
    do {                                                                                           \
        long got_ = (long)(expr);                                                                  \
        long want_ = (long)(want);                                                                 \
        if (got_ != want_) {                                                                       \
            ++g_test_failures;                                                                     \
            printf("FAIL %s:%d: %s returned %ld, want %ld (msg: %s)\n", __FILE__, __LINE__, #expr, \
                   got_, want_, aclGetRecentErrMsg());                                             \
        }                                                                                          \
    } while (0)

#endif /* ACLCONV_TEST_CHECK_H_ */
