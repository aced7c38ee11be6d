/* Error messages: each thread keeps its last one for aclGetRecentErrMsg(). */
#ifndef ACLCONV_LOG_H_
#define ACLCONV_LOG_H_

#if defined(__GNUC__)
#define ACLCONV_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ACLCONV_PRINTF(f, a)
#endif

/* Records a message (printf format) as the calling thread's recent error.
 * If ACLCONV_LOG is set in the environment it is also printed to stderr. */
void aclconv_set_error(const char *fmt, ...) ACLCONV_PRINTF(1, 2);
/* Forgets the calling thread's recent error (a successful call leaves it). */
void aclconv_clear_error(void);

#endif /* ACLCONV_LOG_H_ */
