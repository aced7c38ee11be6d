/* Implementations of the two passes of a convolution-backward plan.
 *
 * The engine keeps an ordered list of implementations, fastest first and the
 * direct one (correct for everything) last. For each pass the planner takes
 * the first whose why_not() returns NULL and that does not yield() it to a
 * later one. ACLCONV_IMPL=<name> forces one (when it applies: its yield()
 * is not asked), ACLCONV_VERBOSE=1 prints every rejection reason. */
#ifndef ACLCONV_CONV_IMPL_H_
#define ACLCONV_CONV_IMPL_H_

#include "aclconv/aclconv.h"
#include "planning/conv_problem.h"

typedef enum {
    CONV_PASS_DATA,    /* gradInput: D, or F for a transposed call (p->data_dir) */
    CONV_PASS_WEIGHTS, /* gradWeight */
    CONV_PASS_COUNT
} conv_pass;

/* Room for an implementation's private plan (tiling, partition, offsets). */
#define CONV_IMPL_STATE_BYTES 4096

typedef struct conv_impl {
    const char *name;
    /* NULL when this implementation computes pass of p with isa, else a short
     * reason (a string literal). */
    const char *(*why_not)(const conv_problem *p, conv_pass pass, aclconvIsa isa);
    /* Optional (NULL: never). A reason to leave a pass this implementation
     * computes to one later in the list (a preference by speed, not a
     * limit), else NULL. */
    const char *(*yield)(const conv_problem *p, conv_pass pass, aclconvIsa isa);
    /* Plans pass into state (CONV_IMPL_STATE_BYTES, zeroed, 64-byte aligned)
     * and the workspace bytes the run needs. The partition of the work must
     * depend on the problem only (never on the thread count), so results are
     * bitwise identical for any number of threads. false: sizes overflow. */
    bool (*plan)(const conv_problem *p, conv_pass pass, aclconvIsa isa, void *state,
                 uint64_t *workspace_bytes);
    /* Computes pass and writes its output view. workspace holds the planned
     * bytes (64-byte aligned, arbitrary content). Uses the pool inside. */
    void (*run)(const conv_problem *p, conv_pass pass, const void *state, void *workspace);
    /* Optional (NULL: never). Whether the weights pass planned in state also
     * writes gradBias (conv_bias.h: block sums while it streams gradOutput,
     * then conv_bias_store_sums); the plan then runs no separate bias pass. */
    bool (*fuses_bias)(const void *state);
    /* Optional (NULL: never). Called when both passes are planned with this
     * implementation: true when the run of the weights pass planned in
     * wt_state also computes gradInput (one sweep of gradOutput for both);
     * the plan then skips the data pass's run. *workspace_bytes: in, what the
     * weights pass planned; out, what its run then needs. No result bit may
     * change. */
    bool (*fuse_data)(const conv_problem *p, const void *data_state, void *wt_state,
                      uint64_t *workspace_bytes);
} conv_impl;

/* The ordered list, NULL-terminated; the direct implementation is last. */
extern const conv_impl *const conv_impl_list[];

extern const conv_impl conv_impl_direct;

#endif /* ACLCONV_CONV_IMPL_H_ */
