/* The fast implementations: stride-1 convolutions over flattened padded rows
 * with the SIMD microkernels of src/kernels (docs/kernels.md).
 *
 * "fast_sv" (data pass): gradInput as a forward convolution. F directly; D as
 * F on dy padded by dil*(k-1) - pad with the weights transposed (O <-> C) and
 * flipped. One task = (n, group, output plane, block of output rows): it packs
 * the input slab it reads (padding materialized, rows padded to wp, operands
 * rounded to the mode) into its slot's buffer, then runs the 'conv' kernel
 * over the padded-width grid and stores the valid columns.
 *
 * "fast_wt" (weights pass): dW^T[(c,tap)][o] = sum x_slab[c][j+off(tap)] *
 * dyT[j][o] with the 'convwt' kernel. Reduction units (n, output plane, block
 * of rows) are split into a problem-fixed number of chunks; each chunk sums
 * into its own fp32 buffer; the buffers are added in chunk order at the end.
 *
 * Every partition and summation order depends on the problem (and the ISA the
 * plan was made for) only, never on the number of threads.
 *
 * This file is the entry (conv_impl_fast); conv_fast_internal.h lists the
 * files of the passes. */
#include "engine/conv_fast.h"

#include "engine/conv_fast_internal.h"

static const char *fast_why_not(const conv_problem *p, conv_pass pass, aclconvIsa isa)
{
    return pass == CONV_PASS_DATA ? data_why_not(p, isa) : wt_why_not(p, isa);
}

static bool fast_plan(const conv_problem *p, conv_pass pass, aclconvIsa isa, void *state,
                      uint64_t *workspace_bytes)
{
    return pass == CONV_PASS_DATA ? data_plan(p, isa, state, workspace_bytes)
                                  : wt_plan(p, isa, state, workspace_bytes);
}

static void fast_run(const conv_problem *p, conv_pass pass, const void *state, void *workspace)
{
    if (pass == CONV_PASS_DATA)
        data_run_pass(p, state, workspace);
    else
        wt_run_pass(p, state, workspace);
}

static bool fast_fuses_bias(const void *state)
{
    return ((const wt_state *)state)->bias;
}

static bool fast_fuse_data(const conv_problem *p, const void *dstate, void *wstate,
                           uint64_t *workspace_bytes)
{
    wt_state *st = wstate;
    (void)p;
    (void)workspace_bytes; /* the streamed weights pass planned the data slabs it shares */
    (void)dstate; /* st->ds is the same plan (data_plan of the same problem and ISA) */
    st->with_data = st->streamed;
    if (st->with_data) st->ds.kernel_rounds = st->data_kernel_rounds;
    return st->with_data;
}

const conv_impl conv_impl_fast = {
    .name = "fast",
    .why_not = fast_why_not,
    .plan = fast_plan,
    .run = fast_run,
    .fuses_bias = fast_fuses_bias,
    .fuse_data = fast_fuse_data,
};
