/*
 * Runs one problem through the PUBLIC API, with hostile buffers:
 *  - aclInit once per process, one stream (aclrtCreateStream);
 *  - every tensor lives in its own aclrtMalloc'ed buffer; tensors flagged in
 *    p->view are strided views (permuted dim order, gaps between rows, a
 *    non-zero offset; aclCreateTensor with explicit strides / offset /
 *    storage dims), the others dense;
 *  - output views are pre-filled with NaN, every storage byte outside a view
 *    (gaps, the offset prefix) with a sentinel pattern, and GUARD_BYTES of a
 *    guard pattern follow every buffer (workspace too, which is filled 0xA5);
 *  - outputs whose mask entry is false are passed as NULL or as a prepared
 *    tensor (decided by the seed) and must stay byte-for-byte untouched;
 *  - afterwards: inputs byte-identical (gaps, guards and data), output gaps
 *    and guards untouched, every requested output read back from its view.
 */
#ifndef ACLCONV_TEST_CONV_HARNESS_H_
#define ACLCONV_TEST_CONV_HARNESS_H_

#include <stddef.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "conv_expect.h"
#include "reference/ref_conv.h"

/* aclInit (once) and the stream the harness uses; 0 on success. */
int th_init(void);
aclrtStream th_stream(void);
/* Destroys the stream and calls aclFinalize. */
void th_finish(void);

typedef struct th_outputs {
    /* dense values read back from the requested outputs (NULL when not
     * requested); sizes as in conv_expect */
    float *dx, *dw, *db;
    aclnnStatus ws_status;  /* aclnnConvolutionBackwardGetWorkspaceSize */
    aclnnStatus run_status; /* aclnnConvolutionBackward */
    aclError sync_status;   /* aclrtSynchronizeStream */
    uint64_t workspace_size;
    int memory_ok; /* every untouched / guard check passed */
} th_outputs;

/* Runs p with data d using `threads` compute threads (0: leave the setting).
 * Returns 0 when every call succeeded and every memory check passed; else -1
 * with a description in msg (the outputs are then partially filled). */
int th_run(const ref_problem *p, const conv_data *d, int threads, th_outputs *out, char *msg,
           size_t msg_len);
void th_outputs_free(th_outputs *o);

#endif /* ACLCONV_TEST_CONV_HARNESS_H_ */
