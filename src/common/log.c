#include "common/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/common.h"

enum { ERR_MSG_CAPACITY = 1024 };

static _Thread_local char g_recent_error[ERR_MSG_CAPACITY];

void aclconv_set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_recent_error, sizeof g_recent_error, fmt, ap);
    va_end(ap);
    if (getenv("ACLCONV_LOG") != NULL) {
        fprintf(stderr, "[aclconv] %s\n", g_recent_error);
    }
}

void aclconv_clear_error(void) { g_recent_error[0] = '\0'; }

ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void) { return g_recent_error; }
