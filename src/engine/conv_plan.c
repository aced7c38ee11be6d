/* The plan of a convolution-backward call and its replay on execute. */
#include "engine/conv_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/cpu.h"
#include "common/log.h"
#include "engine/conv_bias.h"
#include "engine/conv_impl.h"
#include "engine/conv_views.h"

typedef struct conv_plan {
    /* first: keeps every implementation's state 64-byte aligned */
    _Alignas(ACLCONV_ALIGN) unsigned char state[CONV_PASS_COUNT][CONV_IMPL_STATE_BYTES];
    conv_problem p;
    const conv_impl *impl[CONV_PASS_COUNT]; /* NULL: pass not requested */
    bool want_bias; /* gradBias by its own pass (not fused into the weights pass) */
    bool data_fused; /* gradInput computed by the weights pass's run */
    aclconvIsa isa;
    uint64_t workspace_size; /* passes run one after the other: the max */
} conv_plan;

static const char *pass_name(conv_pass pass)
{
    return pass == CONV_PASS_WEIGHTS ? "gradWeight" : "gradInput";
}

/* The first implementation of the list that applies (or the forced one). */
static const conv_impl *choose_impl(const conv_problem *p, conv_pass pass, aclconvIsa isa)
{
    const char *forced = getenv("ACLCONV_IMPL");
    const bool verbose = getenv("ACLCONV_VERBOSE") != NULL;
    for (const conv_impl *const *it = conv_impl_list; *it != NULL; ++it) {
        const conv_impl *impl = *it;
        /* a forced choice must not even ask the others (their checks are
         * what a test forcing direct wants to bypass) */
        const char *why = forced != NULL && strcmp(forced, impl->name) != 0
                              ? "not the implementation forced by ACLCONV_IMPL"
                              : impl->why_not(p, pass, isa);
        if (why == NULL && forced == NULL && impl->yield != NULL) why = impl->yield(p, pass, isa);
        if (why == NULL) return impl;
        if (verbose) fprintf(stderr, "[aclconv] %s: %s skipped: %s\n", pass_name(pass), impl->name, why);
    }
    return &conv_impl_direct; /* applies to everything, even when another was forced */
}

aclnnStatus conv_plan_create(const conv_problem *p, void **out, uint64_t *workspace_size)
{
    conv_plan *pl = aclconv_aligned_alloc(sizeof *pl);
    if (pl == NULL) {
        aclconv_set_error("aclnnConvolutionBackward: out of memory while planning");
        return ACLNN_ERR_INNER_NULLPTR;
    }
    memset(pl, 0, sizeof *pl);
    pl->p = *p;
    const conv_view *outputs[CONV_PASS_COUNT] = {&p->grad_input, &p->grad_weight};
    pl->want_bias = conv_bias_wanted(p);
    const aclconvIsa isa = cpu_isa();
    pl->isa = isa;
    if (getenv("ACLCONV_VERBOSE") != NULL) {
        char desc[512];
        conv_problem_describe(p, desc, sizeof desc);
        fprintf(stderr, "[aclconv] plan (isa %s): %s\n", cpu_isa_name(isa), desc);
    }
    uint64_t pass_bytes[CONV_PASS_COUNT] = {0, 0};
    for (int pass = 0; pass < CONV_PASS_COUNT; ++pass) {
        const conv_view *o = outputs[pass];
        if (o->data == NULL || conv_view_numel(o) == 0 || p->empty) continue;
        const conv_impl *impl = choose_impl(p, (conv_pass)pass, isa);
        uint64_t bytes = 0;
        if (!impl->plan(p, (conv_pass)pass, isa, pl->state[pass], &bytes)) {
            aclconv_free(pl);
            aclconv_set_error("aclnnConvolutionBackward: the workspace size of %s overflows",
                              pass_name((conv_pass)pass));
            return ACLNN_ERR_PARAM_INVALID;
        }
        pl->impl[pass] = impl;
        pass_bytes[pass] = bytes;
        if (bytes > pl->workspace_size) pl->workspace_size = bytes;
    }
    const conv_impl *wt = pl->impl[CONV_PASS_WEIGHTS];
    if (wt != NULL && pl->impl[CONV_PASS_DATA] == wt && wt->fuse_data != NULL) {
        uint64_t bytes = pass_bytes[CONV_PASS_WEIGHTS];
        pl->data_fused =
            wt->fuse_data(p, pl->state[CONV_PASS_DATA], pl->state[CONV_PASS_WEIGHTS], &bytes);
        if (pl->data_fused && bytes > pl->workspace_size) pl->workspace_size = bytes;
    }
    if (getenv("ACLCONV_VERBOSE") != NULL && pl->data_fused)
        fprintf(stderr, "[aclconv] gradInput: computed by the weights pass\n");
    if (pl->want_bias && wt != NULL && wt->fuses_bias != NULL && wt->fuses_bias(pl->state[CONV_PASS_WEIGHTS]))
        pl->want_bias = false;
    if (getenv("ACLCONV_VERBOSE") != NULL && conv_bias_wanted(p) && !p->empty)
        fprintf(stderr, "[aclconv] gradBias: %s\n",
                pl->want_bias ? "own pass" : "block sums in the weights pass");
    /* Implementations get a 64-byte aligned workspace whatever the caller's
     * alignment: plan room to move the base up. */
    if (pl->workspace_size > 0) pl->workspace_size += ACLCONV_ALIGN;
    *out = pl;
    *workspace_size = pl->workspace_size;
    return ACLNN_SUCCESS;
}

const char *conv_plan_impl_name(const void *plan, int pass)
{
    const conv_plan *pl = plan;
    return pl->impl[pass] ? pl->impl[pass]->name : "-";
}

static aclnnStatus conv_plan_run(void *plan, void *workspace)
{
    const conv_plan *pl = plan;
    const conv_problem *p = &pl->p;
    if (p->empty) {
        /* nothing to sum: every requested gradient with elements is zero */
        const conv_view *outputs[3] = {&p->grad_input, &p->grad_weight, &p->grad_bias};
        for (int i = 0; i < 3; ++i)
            if (outputs[i]->data != NULL) conv_view_zero(outputs[i]);
        return ACLNN_SUCCESS;
    }
    uintptr_t base = (uintptr_t)workspace;
    workspace = (void *)((base + ACLCONV_ALIGN - 1) / ACLCONV_ALIGN * ACLCONV_ALIGN);
    for (int pass = 0; pass < CONV_PASS_COUNT; ++pass)
        if (pl->impl[pass] != NULL && !(pass == CONV_PASS_DATA && pl->data_fused))
            pl->impl[pass]->run(p, (conv_pass)pass, pl->state[pass], workspace);
    if (pl->want_bias) conv_bias_run(p, pl->isa);
    return ACLNN_SUCCESS;
}

static void conv_plan_destroy(void *plan) { aclconv_free(plan); }

const exec_ops conv_plan_ops = {conv_plan_run, conv_plan_destroy};
