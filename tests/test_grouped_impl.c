#define _POSIX_C_SOURCE 200809L
/*
 * The grouped implementation ("grouped", src/engine/conv_grouped.c) against
 * the direct one, through conv_plan on canonical grouped problems built here
 * (2 <= G <= 64, CG and OG 1..16, not both 1): both data directions (D =
 * regular call, F = transposed call after the role swap) and the weights pass,
 * ranks 1-3, strides 1-3 (stride > kernel too, so some output phases have no
 * tap), dilation 1-2, head padding with an independent tail (the canonical
 * form of 4-element asymmetric 2-D padding), all dtypes and precision modes,
 * strided views with gaps, every ISA the CPU has (ACLCONV_ISA), 1 / 2 / 3
 * threads.
 *
 * - Small-integer data: every partial sum is an exact fp32 integer, so any
 *   summation order gives the same fp32 sum and the same rounding to the
 *   output dtype: grouped and direct must agree bitwise, in every mode/dtype.
 *   Half of the mixed-dtype cases draw weights in [-300, 300], so data
 *   gradients exceed what fp16 / bf16 hold exactly and the mode's result
 *   rounding shows.
 * - Real data (fp32, modes FLOAT / HF32): both sum the same terms in different
 *   orders (grouped with FMA and lane partial sums), each within
 *   n * 2^-24 * sum|terms| of the exact sum (n = terms per output); we allow
 *   2 * (n + 2) * 2^-24 * sum|terms|, with sum|terms| computed by the direct
 *   implementation on |operands|.
 * - grouped results are bitwise equal for 1, 2 and 3 threads.
 * - Elements of the output buffers outside the views keep their sentinel; the
 *   workspace is filled with 0xA5 and must not be overrun.
 * - grouped must be chosen for every pass of these problems and decline
 *   depthwise problems, G == 1 and more than 16 channels per group.
 * Every failure prints the problem and the seed; --seed S / --count N change
 * the run (the default seed is fixed, so ctest is reproducible).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclconv/aclconv.h"
#include "common/alloc.h"
#include "common/cpu.h"
#include "common/dtype.h"
#include "engine/conv_engine.h"
#include "engine/conv_grouped.h"
#include "engine/conv_views.h"
#include "test_rng.h"

#define SENTINEL_BITS 0x7fc0beefu

static int g_fail, g_cases, g_grp_data, g_grp_wt;

typedef struct tensor {
    conv_view v;
    void *buf;
    int64_t buf_elems;
} tensor;

static size_t dt_size(aclDataType dt) { return dt == ACL_FLOAT ? 4 : 2; }

/* A view with dims d; when strided, gaps between rows / elements (view). */
static void tensor_make(tensor *t, aclDataType dt, const int64_t d[5], int strided, test_rng *r)
{
    memset(t, 0, sizeof *t);
    t->v.dtype = dt;
    int64_t st = 1;
    const int64_t step = strided ? rng_range(r, 1, 2) : 1;
    for (int i = 4; i >= 0; --i) {
        t->v.dim[i] = d[i];
        t->v.stride[i] = (i == 4 ? step : st);
        st = t->v.stride[i] * d[i] + (strided && i >= 3 ? rng_range(r, 0, 2) : 0);
    }
    t->buf_elems = st + 8;
    t->buf = aclconv_aligned_alloc((size_t)t->buf_elems * dt_size(dt));
    for (int64_t i = 0; i < t->buf_elems; ++i) {
        if (dt == ACL_FLOAT)
            ((uint32_t *)t->buf)[i] = SENTINEL_BITS;
        else
            ((uint16_t *)t->buf)[i] = 0x7e5a;
    }
    t->v.data = (char *)t->buf + 3 * dt_size(dt); /* an offset */
}

static void tensor_free(tensor *t) { aclconv_free(t->buf); }

static int64_t numel(const conv_view *v) { return conv_view_numel(v); }

static void elem_index(const conv_view *v, int64_t e, int64_t *idx)
{
    for (int i = 4; i >= 0; --i) {
        idx[i] = e % v->dim[i];
        e /= v->dim[i];
    }
}

static int64_t offset_of(const conv_view *v, int64_t e)
{
    int64_t idx[5];
    elem_index(v, e, idx);
    return conv_view_index(v, idx[0], idx[1], idx[2], idx[3], idx[4]);
}

/* Small integers (in [-3, 3], or [-wide, wide] when wide > 0), or reals in
 * [-1, 1]. */
static void fill(tensor *t, int int_data, int wide, test_rng *r)
{
    for (int64_t e = 0; e < numel(&t->v); ++e) {
        float v = !int_data ? (float)(rng_unit(r) * 2.0 - 1.0)
                            : (float)(wide ? rng_range(r, -wide, wide) : rng_range(r, -3, 3));
        store_from_f32(t->v.data, t->v.dtype, offset_of(&t->v, e), v);
    }
}

/* Copy of src's values into a fresh tensor with |value| (same layout). */
static void abs_copy(tensor *dst, const tensor *src)
{
    *dst = *src;
    dst->buf = aclconv_aligned_alloc((size_t)src->buf_elems * dt_size(src->v.dtype));
    memcpy(dst->buf, src->buf, (size_t)src->buf_elems * dt_size(src->v.dtype));
    dst->v.data = (char *)dst->buf + ((char *)src->v.data - (char *)src->buf);
    for (int64_t e = 0; e < numel(&dst->v); ++e) {
        int64_t o = offset_of(&dst->v, e);
        store_from_f32(dst->v.data, dst->v.dtype, o, fabsf(load_as_f32(dst->v.data, dst->v.dtype, o)));
    }
}

static void describe(const conv_problem *p, char *buf, size_t n)
{
    snprintf(buf, n,
             "rank %d dir %s N%" PRId64 " G%" PRId64 " CG%" PRId64 " OG%" PRId64
             " x %" PRId64 "x%" PRId64 "x%" PRId64 " y %" PRId64 "x%" PRId64 "x%" PRId64
             " k %" PRId64 "x%" PRId64 "x%" PRId64 " s %" PRId64 "x%" PRId64 "x%" PRId64
             " d %" PRId64 "x%" PRId64 "x%" PRId64 " p %" PRId64 "x%" PRId64 "x%" PRId64
             " mode %d dt %d/%d/%d -> %d/%d",
             p->rank, p->data_dir == CONV_DIR_FWD ? "F" : "D", p->n, p->g, p->cg, p->og, p->xs[0],
             p->xs[1], p->xs[2], p->ys[0], p->ys[1], p->ys[2], p->ks[0], p->ks[1], p->ks[2],
             p->stride[0], p->stride[1], p->stride[2], p->dil[0], p->dil[1], p->dil[2], p->pad[0],
             p->pad[1], p->pad[2], (int)p->mode, (int)p->x.dtype, (int)p->y.dtype, (int)p->w.dtype,
             (int)p->grad_input.dtype, (int)p->grad_weight.dtype);
}

/* Plans p with the implementation forced by impl (NULL: the planner's
 * choice; a forced one that does not apply falls back to direct), runs it and
 * returns the chosen names. */
static int run_plan(const conv_problem *p, const char *impl, char names[2][16])
{
    if (impl)
        setenv("ACLCONV_IMPL", impl, 1);
    else
        unsetenv("ACLCONV_IMPL");
    void *plan = NULL;
    uint64_t ws_size = 0;
    if (conv_plan_create(p, &plan, &ws_size) != ACLNN_SUCCESS) return -1;
    unsigned char *ws = aclconv_aligned_alloc(ws_size + 64);
    memset(ws, 0xA5, ws_size + 64); /* hostile workspace */
    conv_plan_ops.run(plan, ws);
    for (int i = 0; i < 2; ++i) snprintf(names[i], 16, "%s", conv_plan_impl_name(plan, i));
    for (uint64_t i = ws_size; i < ws_size + 64; ++i)
        if (ws[i] != 0xA5) {
            printf("FAIL workspace overrun at byte %" PRIu64 " of %" PRIu64 "\n", i, ws_size);
            ++g_fail;
            break;
        }
    aclconv_free(ws);
    conv_plan_ops.destroy(plan);
    unsetenv("ACLCONV_IMPL");
    return 0;
}

/* Compares whole buffers (sentinels included) of a and b: bitwise, or within
 * tol[e] on view elements when tol != NULL. */
static int64_t compare(const tensor *a, const tensor *b, const float *tol, char *msg, size_t len)
{
    const size_t es = dt_size(a->v.dtype);
    const int64_t n = numel(&a->v);
    char *inview = calloc((size_t)a->buf_elems, 1);
    const int64_t base = ((char *)a->v.data - (char *)a->buf) / (int64_t)es;
    int64_t bad = 0;
    for (int64_t e = 0; e < n; ++e) {
        const int64_t o = offset_of(&a->v, e);
        inview[base + o] = 1;
        float x = load_as_f32(a->v.data, a->v.dtype, o), y = load_as_f32(b->v.data, b->v.dtype, o);
        bool ok = tol ? (fabsf(x - y) <= tol[e]) : memcmp((char *)a->v.data + o * (int64_t)es,
                                                          (char *)b->v.data + o * (int64_t)es, es) == 0;
        if (!ok && bad++ == 0) snprintf(msg, len, "element %" PRId64 ": %.9g vs %.9g (tol %g)", e, x, y, tol ? tol[e] : 0.0);
    }
    for (int64_t i = 0; i < a->buf_elems; ++i)
        if (!inview[i] && memcmp((char *)a->buf + i * (int64_t)es, (char *)b->buf + i * (int64_t)es, es) != 0) {
            if (bad++ == 0) snprintf(msg, len, "buffer element %" PRId64 " outside the view changed", i);
        }
    /* outside the view the sentinel must be intact in a */
    for (int64_t i = 0; i < a->buf_elems; ++i) {
        if (inview[i]) continue;
        bool intact = es == 4 ? ((uint32_t *)a->buf)[i] == SENTINEL_BITS : ((uint16_t *)a->buf)[i] == 0x7e5a;
        if (!intact) {
            if (bad++ == 0) snprintf(msg, len, "sentinel at buffer element %" PRId64 " overwritten", i);
            break;
        }
    }
    free(inview);
    return bad;
}

static void reset_sentinel(tensor *t)
{
    for (int64_t i = 0; i < t->buf_elems; ++i) {
        if (t->v.dtype == ACL_FLOAT)
            ((uint32_t *)t->buf)[i] = SENTINEL_BITS;
        else
            ((uint16_t *)t->buf)[i] = 0x7e5a;
    }
}

static void clone_layout(tensor *dst, const tensor *src)
{
    *dst = *src;
    dst->buf = aclconv_aligned_alloc((size_t)src->buf_elems * dt_size(src->v.dtype));
    dst->v.data = (char *)dst->buf + ((char *)src->v.data - (char *)src->buf);
    reset_sentinel(dst);
}

typedef struct gen_opts {
    int int_data;
    int dtypes;
    int isa;
    int wide; /* many groups, small planes */
} gen_opts;

static const char *const k_isa_env[3] = {"scalar", "avx2", "avx512"};

static aclDataType random_dt(test_rng *r, int allow)
{
    if (!allow) return ACL_FLOAT;
    static const aclDataType dts[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    return dts[rng_range(r, 0, 2)];
}

/* A random canonical grouped problem (views not yet attached). */
static void gen_problem(conv_problem *p, test_rng *r, const gen_opts *go)
{
    memset(p, 0, sizeof *p);
    p->rank = (int)rng_range(r, 1, 3);
    p->n = rng_range(r, 1, 4);
    p->g = go->wide ? rng_range(r, 16, 64) : rng_range(r, 2, 6);
    const int64_t maxc = go->wide ? 3 : rng_chance(r, 1, 4) ? 16 : 8;
    do {
        p->cg = rng_range(r, 1, maxc);
        p->og = rng_range(r, 1, maxc);
    } while (p->cg == 1 && p->og == 1);
    p->data_dir = rng_chance(r, 1, 2) ? CONV_DIR_FWD : CONV_DIR_BWD_DATA;
    p->transposed = p->data_dir == CONV_DIR_FWD;
    for (int i = 0; i < 3; ++i) {
        const bool used = i >= 3 - p->rank;
        if (!used) {
            p->xs[i] = p->ys[i] = p->ks[i] = p->stride[i] = p->dil[i] = 1;
            p->pad[i] = 0;
            continue;
        }
        const int64_t maxs = go->wide ? 4 : p->rank == 1 ? 40 : p->rank == 2 ? 13 : 5;
        p->ks[i] = rng_range(r, 1, p->rank == 3 ? 3 : 5);
        p->dil[i] = rng_chance(r, 1, 4) ? 2 : 1;
        p->stride[i] = rng_chance(r, 1, 2) ? rng_range(r, 2, 3) : 1;
        p->pad[i] = rng_range(r, 0, p->dil[i] * (p->ks[i] - 1) + 1);
        const int64_t tail = rng_range(r, 0, p->dil[i] * (p->ks[i] - 1));
        const int64_t ext = p->dil[i] * (p->ks[i] - 1) + 1;
        int64_t lo = ext - p->pad[i] - tail;
        if (lo < 1) lo = 1;
        p->xs[i] = rng_range(r, lo, lo + maxs);
        p->ys[i] = (p->xs[i] + p->pad[i] + tail - ext) / p->stride[i] + 1;
    }
    p->mode = go->dtypes ? (conv_mode)rng_range(r, 0, 3)
                         : (go->int_data ? (conv_mode)rng_range(r, 0, 1) : CONV_MODE_F32);
    if (!go->int_data && rng_chance(r, 1, 2)) p->mode = CONV_MODE_HF32;
}

static void one_case(uint64_t seed, const gen_opts *go)
{
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    gen_problem(&p, &r, go);
    const int64_t xd[5] = {p.n, p.g * p.cg, p.xs[0], p.xs[1], p.xs[2]};
    const int64_t yd[5] = {p.n, p.g * p.og, p.ys[0], p.ys[1], p.ys[2]};
    const int64_t wd[5] = {p.g * p.og, p.cg, p.ks[0], p.ks[1], p.ks[2]};
    tensor x, y, w, gi, gw;
    const int views = rng_chance(&r, 1, 3);
    tensor_make(&x, random_dt(&r, go->dtypes), xd, views, &r);
    tensor_make(&y, random_dt(&r, go->dtypes), yd, views, &r);
    tensor_make(&w, random_dt(&r, go->dtypes), wd, views, &r);
    tensor_make(&gi, random_dt(&r, go->dtypes), p.data_dir == CONV_DIR_FWD ? yd : xd, views, &r);
    tensor_make(&gw, random_dt(&r, go->dtypes), wd, views, &r);
    fill(&x, go->int_data, 0, &r);
    fill(&y, go->int_data, 0, &r);
    /* wide integer weights (still integers in every dtype and after every
     * operand rounding, sums still exact in fp32): data gradients beyond what
     * fp16 / bf16 hold, so the mode's result rounding shows */
    fill(&w, go->int_data, go->dtypes && rng_chance(&r, 1, 2) ? 300 : 0, &r);
    p.x = x.v;
    p.y = y.v;
    p.w = w.v;
    p.bias_src = p.y;
    p.grad_input = gi.v;
    p.grad_weight = gw.v;
    char desc[512];
    describe(&p, desc, sizeof desc);
    const char *isa = k_isa_env[go->isa];
    ++g_cases;

    /* reference: direct */
    tensor gi_ref, gw_ref;
    clone_layout(&gi_ref, &gi);
    clone_layout(&gw_ref, &gw);
    conv_problem q = p;
    q.grad_input = gi_ref.v;
    q.grad_weight = gw_ref.v;
    char names[2][16];
    setenv("ACLCONV_ISA", isa, 1);
    aclconvSetNumThreads(2);
    run_plan(&q, "direct", names);

    /* tolerances for real data: direct on |operands| gives sum |terms| */
    float *tol[2] = {NULL, NULL};
    if (!go->int_data) {
        tensor ax, ay, aw, agi, agw;
        abs_copy(&ax, &x);
        abs_copy(&ay, &y);
        abs_copy(&aw, &w);
        clone_layout(&agi, &gi);
        clone_layout(&agw, &gw);
        conv_problem a = p;
        a.x = ax.v;
        a.y = ay.v;
        a.w = aw.v;
        a.grad_input = agi.v;
        a.grad_weight = agw.v;
        run_plan(&a, "direct", names);
        const tensor *abs_out[2] = {&agi, &agw};
        const int64_t nin = p.data_dir == CONV_DIR_FWD ? p.cg : p.og;
        const int64_t terms[2] = {nin * p.ks[0] * p.ks[1] * p.ks[2], p.n * p.ys[0] * p.ys[1] * p.ys[2]};
        for (int k = 0; k < 2; ++k) {
            const int64_t n = numel(&abs_out[k]->v);
            tol[k] = malloc((size_t)(n ? n : 1) * sizeof(float));
            for (int64_t e = 0; e < n; ++e)
                tol[k][e] = 2.0f * (float)(terms[k] + 2) * 0x1p-24f *
                            load_as_f32(abs_out[k]->v.data, abs_out[k]->v.dtype, offset_of(&abs_out[k]->v, e));
        }
        tensor_free(&ax);
        tensor_free(&ay);
        tensor_free(&aw);
        tensor_free(&agi);
        tensor_free(&agw);
    }

    tensor first_gi = {0}, first_gw = {0};
    int have_first = 0;
    for (int threads = 1; threads <= 3; ++threads) {
        reset_sentinel(&gi);
        reset_sentinel(&gw);
        aclconvSetNumThreads(threads);
        run_plan(&p, NULL, names);
        for (int k = 0; k < 2; ++k)
            if (strcmp(names[k], "grouped") != 0) {
                printf("FAIL seed %" PRIu64 " isa %s: pass %d planned with %s, not grouped: %s\n", seed, isa,
                       k, names[k], desc);
                ++g_fail;
            }
        if (threads == 1) {
            g_grp_data += strcmp(names[0], "grouped") == 0;
            g_grp_wt += strcmp(names[1], "grouped") == 0;
        }
        char msg[256];
        const tensor *got[2] = {&gi, &gw}, *ref[2] = {&gi_ref, &gw_ref};
        for (int k = 0; k < 2; ++k) {
            int64_t bad = compare(got[k], ref[k], go->int_data ? NULL : tol[k], msg, sizeof msg);
            if (bad) {
                printf("FAIL seed %" PRIu64 " isa %s threads %d %s (%s): %" PRId64 " bad, %s: %s\n", seed,
                       isa, threads, k ? "gradWeight" : "gradInput", names[k], bad, msg, desc);
                ++g_fail;
            }
        }
        if (!have_first) {
            clone_layout(&first_gi, &gi);
            clone_layout(&first_gw, &gw);
            memcpy(first_gi.buf, gi.buf, (size_t)gi.buf_elems * dt_size(gi.v.dtype));
            memcpy(first_gw.buf, gw.buf, (size_t)gw.buf_elems * dt_size(gw.v.dtype));
            have_first = 1;
        } else if (memcmp(first_gi.buf, gi.buf, (size_t)gi.buf_elems * dt_size(gi.v.dtype)) ||
                   memcmp(first_gw.buf, gw.buf, (size_t)gw.buf_elems * dt_size(gw.v.dtype))) {
            printf("FAIL seed %" PRIu64 " isa %s: %d threads differ from 1 thread: %s\n", seed, isa, threads,
                   desc);
            ++g_fail;
        }
    }
    aclconvSetNumThreads(2);
    tensor_free(&first_gi);
    tensor_free(&first_gw);
    free(tol[0]);
    free(tol[1]);
    tensor_free(&gi_ref);
    tensor_free(&gw_ref);
    tensor_free(&x);
    tensor_free(&y);
    tensor_free(&w);
    tensor_free(&gi);
    tensor_free(&gw);
}

/* Problems grouped does not take (depthwise, one group, more than 16
 * channels per group): it must decline both passes, even when forced. */
static void decline_case(uint64_t seed)
{
    test_rng r;
    rng_seed(&r, seed);
    conv_problem p;
    gen_opts go = {.int_data = 1};
    gen_problem(&p, &r, &go);
    switch (rng_range(&r, 0, 3)) {
    case 0: p.cg = p.og = 1; break;
    case 1: p.g = 1; break;
    case 2: p.cg = rng_range(&r, 17, 20); break;
    default: p.og = rng_range(&r, 17, 20); break;
    }
    const int64_t xd[5] = {p.n, p.g * p.cg, p.xs[0], p.xs[1], p.xs[2]};
    const int64_t yd[5] = {p.n, p.g * p.og, p.ys[0], p.ys[1], p.ys[2]};
    const int64_t wd[5] = {p.g * p.og, p.cg, p.ks[0], p.ks[1], p.ks[2]};
    tensor x, y, w, gi, gw;
    tensor_make(&x, ACL_FLOAT, xd, 0, &r);
    tensor_make(&y, ACL_FLOAT, yd, 0, &r);
    tensor_make(&w, ACL_FLOAT, wd, 0, &r);
    tensor_make(&gi, ACL_FLOAT, p.data_dir == CONV_DIR_FWD ? yd : xd, 0, &r);
    tensor_make(&gw, ACL_FLOAT, wd, 0, &r);
    fill(&x, 1, 0, &r);
    fill(&y, 1, 0, &r);
    fill(&w, 1, 0, &r);
    p.x = x.v;
    p.y = y.v;
    p.w = w.v;
    p.bias_src = p.y;
    p.grad_input = gi.v;
    p.grad_weight = gw.v;
    char names[2][16], desc[512];
    describe(&p, desc, sizeof desc);
    run_plan(&p, "grouped", names);
    for (int k = 0; k < 2; ++k)
        if (strcmp(names[k], "grouped") == 0) {
            printf("FAIL seed %" PRIu64 ": grouped accepted pass %d of a problem it must decline: %s\n", seed, k, desc);
            ++g_fail;
        }
    tensor_free(&x);
    tensor_free(&y);
    tensor_free(&w);
    tensor_free(&gi);
    tensor_free(&gw);
}

/* why_not on problems never run here: ResNeXt's layer is taken, a group
 * whose planes (with their shifted copies) exceed 2^22 floats is declined. */
static void size_checks(void)
{
    conv_problem p;
    memset(&p, 0, sizeof p);
    p.rank = 2;
    p.n = 32;
    p.g = 32;
    p.cg = p.og = 8;
    p.data_dir = CONV_DIR_BWD_DATA;
    for (int i = 0; i < 3; ++i) {
        p.xs[i] = p.ys[i] = i ? 28 : 1;
        p.ks[i] = i ? 3 : 1;
        p.stride[i] = p.dil[i] = 1;
        p.pad[i] = i ? 1 : 0;
    }
    for (int pass = 0; pass < CONV_PASS_COUNT; ++pass)
        if (conv_impl_grouped.why_not(&p, (conv_pass)pass, ACLCONV_ISA_SCALAR) != NULL) {
            printf("FAIL grouped declines pass %d of resnext_g32: %s\n", pass,
                   conv_impl_grouped.why_not(&p, (conv_pass)pass, ACLCONV_ISA_SCALAR));
            ++g_fail;
        }
    p.rank = 1;
    p.cg = p.og = 16;
    p.xs[1] = p.ys[1] = p.ks[1] = 1;
    p.pad[1] = 0;
    p.xs[2] = p.ys[2] = 100000; /* 16 channels x 3 copies x 100002 floats > 2^22 */
    for (int pass = 0; pass < CONV_PASS_COUNT; ++pass)
        if (conv_impl_grouped.why_not(&p, (conv_pass)pass, ACLCONV_ISA_SCALAR) == NULL) {
            printf("FAIL grouped accepts pass %d with planes beyond 2^22 floats\n", pass);
            ++g_fail;
        }
}

int main(int argc, char **argv)
{
    uint64_t seed = 0x67727075ull;
    int count = 400;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc) count = atoi(argv[++i]);
    }
    printf("test_grouped_impl: seed %" PRIu64 ", %d cases per ISA and data kind\n", seed, count);
    const aclconvIsa have = cpu_detected_isa();
    for (int isa = ACLCONV_ISA_SCALAR; isa <= ACLCONV_ISA_AVX512; ++isa) {
        if (isa > (int)have) {
            printf("SKIP %s: not supported by this CPU\n", cpu_isa_name((aclconvIsa)isa));
            continue;
        }
        const int before = g_fail;
        for (int kind = 0; kind < 4; ++kind) {
            /* 0: int fp32, 1: int any dtype/mode, 2: real, 3: many groups */
            gen_opts go = {.int_data = kind != 2, .dtypes = kind == 1, .isa = isa, .wide = kind == 3};
            const int n = kind == 3 ? count / 4 + 1 : count;
            for (int i = 0; i < n; ++i)
                one_case(seed + (uint64_t)i * 7919u + (uint64_t)kind * 1000003u + (uint64_t)isa * 7777777u, &go);
        }
        printf("%s: %s\n", cpu_isa_name((aclconvIsa)isa), g_fail == before ? "ok" : "FAIL");
    }
    unsetenv("ACLCONV_ISA");
    for (int i = 0; i < 40; ++i) decline_case(seed + 31337u * (uint64_t)(i + 1));
    size_checks();
    printf("cases %d, grouped data pass %d, grouped weights pass %d\n", g_cases, g_grp_data, g_grp_wt);
    printf("test_grouped_impl: %s\n", g_fail ? "FAILED" : "OK");
    return g_fail ? 1 : 0;
}
