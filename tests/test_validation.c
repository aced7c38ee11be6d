/*
 * Every argument rule of aclnnConvolutionBackwardGetWorkspaceSize
 * (docs/validation.md), the failing and the passing side of each boundary.
 *
 * Each expectation runs twice: through the internal conv_bwd_validate and
 * through the public entry (which must give the same status; accepted calls
 * get an executor that is made repeatable and destroyed). The message of a
 * rejected call must name the parameter.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "api/objects.h"
#include "validation/conv_bwd_check.h"

enum { GO, IN, W, GI, GW, GB, NT };
static const char *const k_names[NT] = {"gradOutput", "input",      "weight",
                                        "gradInput",  "gradWeight", "gradBias"};

enum { MAXD = 8 };
/* gradInput / gradWeight: the format of input / weight; gradBias: ND. */
#define FMT_AUTO ((aclFormat)-100)

typedef struct tdesc {
    int64_t d[MAXD];
    uint64_t n;
    aclDataType dt;
    aclFormat fmt;
    bool null;
    bool has_strides;
    int64_t strides[MAXD];
    int64_t offset;
    bool has_storage;
    int64_t storage[MAXD];
    uint64_t storage_n;
    int alias;             /* -1, or the tensor whose buffer this one uses */
    int64_t alias_off;     /* byte offset into that buffer */
    bool raw;              /* view dims written after creation (shapes aclCreateTensor rejects) */
    bool null_data;        /* data set to NULL after creation */
} tdesc;

typedef struct arr {
    int64_t v[MAXD];
    uint64_t n;
    bool null;
} arr;

typedef struct prob {
    tdesc t[NT];
    bool sync; /* gradInput = input, gradWeight = weight, gradBias = [C of gradOutput] */
    arr bias, stride, pad, dil, opad;
    bool transposed;
    int groups;
    bool mask[MAXD];
    uint64_t mask_n;
    bool mask_null;
    int8_t cube;
    bool null_ws, null_exec;
} prob;

static int g_pass, g_fail;

/* ---- problem builders ------------------------------------------------------ */

static void set_dims(tdesc *t, uint64_t n, const int64_t *d)
{
    t->n = n;
    for (uint64_t i = 0; i < n; ++i) t->d[i] = d[i];
}
#define DIMS(t, ...)                                                                               \
    set_dims(&(t), sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t), (int64_t[]){__VA_ARGS__})

static void set_arr(arr *a, uint64_t n, const int64_t *v)
{
    a->n = n;
    a->null = false;
    for (uint64_t i = 0; i < n; ++i) a->v[i] = v[i];
}
#define ARR(a, ...)                                                                                \
    set_arr(&(a), sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t), (int64_t[]){__VA_ARGS__})

static aclFormat fmt_for_rank(uint64_t n)
{
    return n == 3 ? ACL_FORMAT_NCL : n == 4 ? ACL_FORMAT_NCHW : n == 5 ? ACL_FORMAT_NCDHW
                                                                       : ACL_FORMAT_ND;
}

static void prob_defaults(prob *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < NT; ++i) {
        p->t[i].dt = ACL_FLOAT;
        p->t[i].alias = -1;
        p->t[i].fmt = FMT_AUTO;
    }
    p->sync = true;
    p->groups = 1;
    p->mask[0] = p->mask[1] = p->mask[2] = true;
    p->mask_n = 3;
    p->cube = 0;
}

/* Formats follow the ranks (call after changing ranks). */
static void fix_formats(prob *p)
{
    for (int i = 0; i < GI; ++i) p->t[i].fmt = fmt_for_rank(p->t[i].n);
}

/* 2-D, normal: input [2,4,8,8], weight [6,2,3,3], groups 2 -> gradOutput [2,6,6,6]. */
static prob base2d(void)
{
    prob p;
    prob_defaults(&p);
    DIMS(p.t[IN], 2, 4, 8, 8);
    DIMS(p.t[W], 6, 2, 3, 3);
    DIMS(p.t[GO], 2, 6, 6, 6);
    p.groups = 2;
    ARR(p.stride, 1, 1);
    ARR(p.pad, 0, 0);
    ARR(p.dil, 1, 1);
    ARR(p.opad, 0, 0);
    ARR(p.bias, 6);
    fix_formats(&p);
    return p;
}

/* 1-D, normal: input [2,4,10], weight [6,4,3], stride 3, pad 1, dilation 2 -> L 3. */
static prob base1d(void)
{
    prob p;
    prob_defaults(&p);
    DIMS(p.t[IN], 2, 4, 10);
    DIMS(p.t[W], 6, 4, 3);
    DIMS(p.t[GO], 2, 6, 3);
    ARR(p.stride, 3);
    ARR(p.pad, 1);
    ARR(p.dil, 2);
    ARR(p.opad, 0);
    ARR(p.bias, 6);
    fix_formats(&p);
    return p;
}

/* 3-D, normal: input [1,2,5,6,7], weight [4,2,2,3,3], stride [1,2,1], pad [0,1,1],
 * dilation [1,1,2] -> gradOutput [1,4,4,3,5]. */
static prob base3d(void)
{
    prob p;
    prob_defaults(&p);
    DIMS(p.t[IN], 1, 2, 5, 6, 7);
    DIMS(p.t[W], 4, 2, 2, 3, 3);
    DIMS(p.t[GO], 1, 4, 4, 3, 5);
    ARR(p.stride, 1, 2, 1);
    ARR(p.pad, 0, 1, 1);
    ARR(p.dil, 1, 1, 2);
    ARR(p.opad, 0, 0, 0);
    ARR(p.bias, 4);
    fix_formats(&p);
    return p;
}

/* 2-D, transposed: input [1,4,5,5], weight [4,3,3,3], groups 1, stride 2, pad 1,
 * outputPadding 1 -> gradOutput [1,3,10,10]. */
static prob base2d_t(void)
{
    prob p;
    prob_defaults(&p);
    p.transposed = true;
    DIMS(p.t[IN], 1, 4, 5, 5);
    DIMS(p.t[W], 4, 3, 3, 3);
    DIMS(p.t[GO], 1, 3, 10, 10);
    ARR(p.stride, 2, 2);
    ARR(p.pad, 1, 1);
    ARR(p.dil, 1, 1);
    ARR(p.opad, 1, 1);
    ARR(p.bias, 3);
    fix_formats(&p);
    return p;
}

/* 3-D, transposed: input [1,4,3,3,3], weight [4,2,3,3,3], stride 2, pad 1,
 * outputPadding 1 -> gradOutput [1,2,6,6,6]. */
static prob base3d_t(void)
{
    prob p;
    prob_defaults(&p);
    p.transposed = true;
    DIMS(p.t[IN], 1, 4, 3, 3, 3);
    DIMS(p.t[W], 4, 2, 3, 3, 3);
    DIMS(p.t[GO], 1, 2, 6, 6, 6);
    ARR(p.stride, 2, 2, 2);
    ARR(p.pad, 1, 1, 1);
    ARR(p.dil, 1, 1, 1);
    ARR(p.opad, 1, 1, 1);
    ARR(p.bias, 2);
    fix_formats(&p);
    return p;
}

/* 2-D with empty input (N = 0): the empty-tensor path on 910B. */
static prob empty2d(void)
{
    prob p = base2d();
    p.t[IN].d[0] = 0;
    p.t[GO].d[0] = 0;
    return p;
}

static void set_all_dtypes(prob *p, aclDataType dt)
{
    for (int i = 0; i < NT; ++i) p->t[i].dt = dt;
}

/* ---- running a problem ------------------------------------------------------- */

static size_t esize(aclDataType dt)
{
    size_t s = aclDataTypeSize(dt);
    return s ? s : 1;
}

/* Elements of the buffer a tensor needs (0 when it is too large to allocate). */
static uint64_t buffer_elems(const tdesc *t)
{
    const int64_t *d = t->has_storage ? t->storage : t->d;
    uint64_t n = t->has_storage ? t->storage_n : t->n, e = 1;
    if (t->raw) return 0;
    for (uint64_t i = 0; i < n; ++i) {
        if (d[i] < 0 || (d[i] > 0 && e > (1u << 24) / (uint64_t)d[i])) return 0;
        e *= (uint64_t)d[i];
    }
    return e;
}

static unsigned char g_dummy[256] __attribute__((aligned(64)));

typedef struct built {
    aclTensor *t[NT];
    void *buf[NT];
    aclIntArray *bias, *stride, *pad, *dil, *opad;
    aclBoolArray *mask;
} built;

static aclIntArray *mk_arr(const arr *a)
{
    return a->null ? NULL : aclCreateIntArray(a->v, a->n);
}

static bool build(prob *p, built *b)
{
    memset(b, 0, sizeof *b);
    if (p->sync) {
        tdesc *gi = &p->t[GI], *gw = &p->t[GW], *gb = &p->t[GB];
        set_dims(gi, p->t[IN].n, p->t[IN].d);
        set_dims(gw, p->t[W].n, p->t[W].d);
        gb->n = 1;
        gb->d[0] = p->t[GO].n > 1 ? p->t[GO].d[1] : 1;
    }
    if (p->t[GI].fmt == FMT_AUTO)
        p->t[GI].fmt = p->sync ? p->t[IN].fmt : fmt_for_rank(p->t[GI].n);
    if (p->t[GW].fmt == FMT_AUTO)
        p->t[GW].fmt = p->sync ? p->t[W].fmt : fmt_for_rank(p->t[GW].n);
    if (p->t[GB].fmt == FMT_AUTO) p->t[GB].fmt = ACL_FORMAT_ND;
    for (int i = 0; i < NT; ++i) {
        const tdesc *t = &p->t[i];
        size_t bytes = (size_t)buffer_elems(t) * esize(t->dt);
        b->buf[i] = calloc(1, 2 * bytes + 4096);
        if (b->buf[i] == NULL) return false;
    }
    for (int i = 0; i < NT; ++i) {
        const tdesc *t = &p->t[i];
        if (t->null) continue;
        /* too large (or raw): never read, as validation rejects it */
        void *data = buffer_elems(t) > 0 ? b->buf[i] : (void *)g_dummy;
        if (t->alias >= 0) data = (unsigned char *)b->buf[t->alias] + t->alias_off;
        int64_t small[MAXD];
        for (int k = 0; k < MAXD; ++k) small[k] = 1;
        b->t[i] = aclCreateTensor(t->raw ? small : t->d, t->n, t->dt,
                                  t->has_strides ? t->strides : NULL, t->offset, t->fmt,
                                  t->raw ? small : t->has_storage ? t->storage : t->d,
                                  t->has_storage ? t->storage_n : t->n, data);
        if (b->t[i] == NULL) {
            fprintf(stderr, "aclCreateTensor failed for %s: %s\n", k_names[i],
                    aclGetRecentErrMsg());
            return false;
        }
        if (t->raw) {
            for (uint64_t k = 0; k < t->n; ++k) b->t[i]->view[k] = t->d[k];
            for (uint64_t k = 0; k < b->t[i]->storage_ndim; ++k)
                b->t[i]->storage[k] = t->has_storage ? t->storage[k] : t->d[k];
        }
        if (t->null_data) b->t[i]->data = NULL;
    }
    b->bias = mk_arr(&p->bias);
    b->stride = mk_arr(&p->stride);
    b->pad = mk_arr(&p->pad);
    b->dil = mk_arr(&p->dil);
    b->opad = mk_arr(&p->opad);
    if (!p->mask_null) b->mask = aclCreateBoolArray(p->mask, p->mask_n);
    return true;
}

static void unbuild(built *b)
{
    for (int i = 0; i < NT; ++i) {
        aclDestroyTensor(b->t[i]);
        free(b->buf[i]);
    }
    aclDestroyIntArray(b->bias);
    aclDestroyIntArray(b->stride);
    aclDestroyIntArray(b->pad);
    aclDestroyIntArray(b->dil);
    aclDestroyIntArray(b->opad);
    aclDestroyBoolArray(b->mask);
}

typedef struct outcome {
    aclnnStatus st;
    bool empty;
    char msg[1024];
} outcome;

static outcome run(prob *p, bool direct)
{
    outcome o = {.st = -1};
    built b;
    if (!build(p, &b)) {
        unbuild(&b);
        snprintf(o.msg, sizeof o.msg, "(test setup failed)");
        return o;
    }
    if (direct) {
        conv_bwd_args a = {b.t[GO], b.t[IN], b.t[W], b.bias, b.stride, b.pad, b.dil,
                           p->transposed, b.opad, p->groups, b.mask, p->cube, b.t[GI], b.t[GW],
                           b.t[GB]};
        o.st = conv_bwd_validate(&a, soc_current(), &o.empty);
    } else {
        uint64_t ws = 0;
        aclOpExecutor *ex = NULL;
        o.st = aclnnConvolutionBackwardGetWorkspaceSize(
            b.t[GO], b.t[IN], b.t[W], b.bias, b.stride, b.pad, b.dil, p->transposed, b.opad,
            p->groups, b.mask, p->cube, b.t[GI], b.t[GW], b.t[GB], p->null_ws ? NULL : &ws,
            p->null_exec ? NULL : &ex);
        if (o.st == ACLNN_SUCCESS && ex != NULL) {
            aclSetAclOpExecutorRepeatable(ex);
            aclDestroyAclOpExecutor(ex);
        }
    }
    snprintf(o.msg, sizeof o.msg, "%s", aclGetRecentErrMsg());
    unbuild(&b);
    return o;
}

/* Checks status (and, when rejected, that the message contains sub) in both
 * modes; for accepted calls in direct mode, the empty flag if want_empty >= 0. */
static void expect_full(int line, const char *what, prob p, aclnnStatus want, const char *sub,
                        int want_empty)
{
    bool public_only = p.null_ws || p.null_exec;
    for (int mode = public_only ? 1 : 0; mode < 2; ++mode) {
        prob q = p;
        outcome o = run(&q, mode == 0);
        bool ok = o.st == want;
        if (ok && want != ACLNN_SUCCESS && sub != NULL && strstr(o.msg, sub) == NULL) ok = false;
        if (ok && want != ACLNN_SUCCESS && strstr(o.msg, "aclnnConvolutionBackward") == NULL)
            ok = false;
        if (ok && want == ACLNN_SUCCESS && mode == 0 && want_empty >= 0 &&
            o.empty != (want_empty != 0))
            ok = false;
        if (ok) {
            ++g_pass;
        } else {
            ++g_fail;
            fprintf(stderr,
                    "FAIL line %d [%s, %s, soc %s]: want %d (msg with \"%s\"), got %d "
                    "(empty %d): %s\n",
                    line, what, mode == 0 ? "conv_bwd_validate" : "public entry",
                    getenv("ACLCONV_SOC") ? getenv("ACLCONV_SOC") : "default", (int)want,
                    sub ? sub : "", (int)o.st, (int)o.empty, o.msg);
        }
    }
}

#define OK_(p) expect_full(__LINE__, #p, (p), ACLNN_SUCCESS, NULL, 0)
#define OK_EMPTY(p) expect_full(__LINE__, #p, (p), ACLNN_SUCCESS, NULL, 1)
#define BAD(p, sub) expect_full(__LINE__, #p, (p), ACLNN_ERR_PARAM_INVALID, (sub), -1)
#define NUL(p, sub) expect_full(__LINE__, #p, (p), ACLNN_ERR_PARAM_NULLPTR, (sub), -1)

static void use_soc(const char *soc) { setenv("ACLCONV_SOC", soc, 1); }

/* ---- step A: null pointers, outputMask -------------------------------------- */

static void test_a_not_null(void)
{
    prob p;
    OK_(base2d());
    OK_(base1d());
    OK_(base3d());
    OK_(base2d_t());
    OK_(base3d_t());
    /* A.1 each required pointer, in order */
    for (int i = 0; i < 3; ++i) {
        p = base2d();
        p.t[i].null = true;
        NUL(p, k_names[i]);
    }
    p = base2d(); p.stride.null = true; NUL(p, "stride");
    p = base2d(); p.pad.null = true; NUL(p, "padding");
    p = base2d(); p.dil.null = true; NUL(p, "dilation");
    p = base2d(); p.opad.null = true; NUL(p, "outputPadding");
    p = base2d(); p.mask_null = true; NUL(p, "outputMask");
    /* the first NULL decides */
    p = base2d(); p.t[W].null = true; p.t[IN].null = true; NUL(p, "input");
    p = base2d(); p.mask_null = true; p.dil.null = true; NUL(p, "dilation");
    p = base2d(); p.opad.null = true; p.t[GO].null = true; NUL(p, "gradOutput");
    /* A.1 before dtype rules */
    p = base2d(); p.t[IN].dt = ACL_INT32; p.stride.null = true; NUL(p, "stride");
    /* A.2 mask length */
    p = base2d(); p.mask_n = 2; NUL(p, "outputMask");
    p = base2d(); p.mask_n = 4; NUL(p, "outputMask");
    p = base2d(); p.mask_n = 0; NUL(p, "outputMask");
    p = base2d(); p.mask_n = 4; p.t[W].dt = ACL_INT8; NUL(p, "outputMask");
    /* A.3 mask true with NULL output */
    for (int i = 0; i < 3; ++i) {
        p = base2d();
        p.t[GI + i].null = true;
        NUL(p, k_names[GI + i]);
    }
    /* mask false with NULL output: accepted */
    for (int i = 0; i < 3; ++i) {
        p = base2d();
        p.t[GI + i].null = true;
        p.mask[i] = false;
        OK_(p);
    }
    p = base2d();
    for (int i = 0; i < 3; ++i) p.t[GI + i].null = true, p.mask[i] = false;
    OK_(p);
    /* A.4: biasSizes is not required on the non-empty path */
    p = base2d(); p.bias.null = true; OK_(p);
    /* workspaceSize / executor (public entry only) */
    p = base2d(); p.null_ws = true; NUL(p, "workspaceSize");
    p = base2d(); p.null_exec = true; NUL(p, "executor");
}

/* ---- step B: dtypes ------------------------------------------------------------- */

static void test_b_dtypes(void)
{
    prob p;
    const aclDataType bad[] = {ACL_INT32, ACL_DOUBLE, ACL_INT8, ACL_HIFLOAT8, ACL_FLOAT8_E4M3FN,
                               ACL_BOOL};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        for (int i = 0; i < NT; ++i) {
            p = base2d();
            p.t[i].dt = bad[k];
            BAD(p, k_names[i]);
        }
    }
    /* non-null outputs are checked whatever the mask */
    p = base2d(); p.mask[1] = false; p.t[GW].dt = ACL_INT32; BAD(p, "gradWeight");
    /* all three float types, uniform */
    p = base2d(); set_all_dtypes(&p, ACL_FLOAT16); OK_(p);
    p = base2d(); set_all_dtypes(&p, ACL_BF16); OK_(p);
    /* B.2: mixed dtypes are accepted on 910B */
    p = base2d();
    p.t[GO].dt = ACL_FLOAT; p.t[IN].dt = ACL_FLOAT16; p.t[W].dt = ACL_BF16;
    p.t[GI].dt = ACL_BF16; p.t[GW].dt = ACL_FLOAT16; p.t[GB].dt = ACL_FLOAT;
    OK_(p);
    p = base2d(); set_all_dtypes(&p, ACL_BF16); p.t[GI].dt = p.t[GW].dt = p.t[GB].dt = ACL_FLOAT;
    OK_(p);
    p = base2d(); p.t[GO].dt = ACL_FLOAT16; p.t[IN].dt = ACL_BF16; OK_(p);
    /* dtype before format */
    p = base2d(); p.t[W].dt = ACL_INT32; p.t[IN].fmt = ACL_FORMAT_NHWC; BAD(p, "dtype");
    /* 910_93 shares 910B's list */
    use_soc("Ascend910_93");
    p = base2d(); set_all_dtypes(&p, ACL_BF16); OK_(p);
    p = base2d(); p.t[IN].dt = ACL_INT32; BAD(p, "input");
    /* 910 / 310P: FLOAT, FLOAT16 only */
    const char *old[] = {"Ascend910", "Ascend310P"};
    for (int s = 0; s < 2; ++s) {
        use_soc(old[s]);
        p = base2d(); set_all_dtypes(&p, ACL_FLOAT16); OK_(p);
        p = base2d(); p.cube = 1; OK_(p); /* FLOAT needs cubeMathType 1 or 2 there */
        p = base2d(); p.t[GO].dt = ACL_FLOAT16; p.cube = 1; OK_(p);
        for (int i = 0; i < NT; ++i) {
            p = base2d();
            set_all_dtypes(&p, ACL_FLOAT16);
            p.t[i].dt = ACL_BF16;
            BAD(p, k_names[i]);
        }
        p = base2d(); set_all_dtypes(&p, ACL_FLOAT16); p.t[GB].dt = ACL_BF16;
        p.mask[2] = false; BAD(p, "gradBias");
    }
    unsetenv("ACLCONV_SOC");
}

/* ---- step C: formats -------------------------------------------------------------- */

static void test_c_formats(void)
{
    prob p;
    /* 3-D: ND or NCL */
    p = base1d(); for (int i = 0; i < GB; ++i) p.t[i].fmt = ACL_FORMAT_ND; OK_(p);
    p = base1d(); p.t[IN].fmt = ACL_FORMAT_NCHW; BAD(p, "input");
    p = base1d(); p.t[W].fmt = ACL_FORMAT_NHWC; BAD(p, "weight");
    /* 4-D: NCHW only */
    for (int i = 0; i < GB; ++i) {
        p = base2d();
        p.t[i].fmt = ACL_FORMAT_NHWC;
        BAD(p, k_names[i]);
        p = base2d();
        p.t[i].fmt = ACL_FORMAT_ND;
        BAD(p, k_names[i]);
    }
    /* 5-D: NCDHW only */
    p = base3d(); p.t[GO].fmt = ACL_FORMAT_NDHWC; BAD(p, "gradOutput");
    p = base3d(); p.t[W].fmt = ACL_FORMAT_NCHW; BAD(p, "weight");
    /* other ranks */
    p = base2d(); DIMS(p.t[IN], 2, 4); p.t[IN].fmt = ACL_FORMAT_ND; BAD(p, "input");
    p = base2d(); DIMS(p.t[W], 6, 2, 3, 3, 1, 1); p.t[W].fmt = ACL_FORMAT_ND; BAD(p, "weight");
    p = base2d(); DIMS(p.t[GO], 12); p.t[GO].fmt = ACL_FORMAT_ND; BAD(p, "gradOutput");
    /* gradBias: ND when not transposed on 910B/910_93 */
    p = base2d(); p.t[GB].fmt = ACL_FORMAT_NCHW; BAD(p, "gradBias");
    p = base2d(); p.t[GB].fmt = ACL_FORMAT_NCL; p.mask[2] = false; BAD(p, "gradBias");
    p = base2d_t(); p.t[GB].fmt = ACL_FORMAT_NCHW; OK_(p);
    use_soc("Ascend910_93");
    p = base2d(); p.t[GB].fmt = ACL_FORMAT_NCHW; BAD(p, "gradBias");
    use_soc("Ascend910");
    p = base2d(); p.cube = 1; p.t[GB].fmt = ACL_FORMAT_NCHW; OK_(p);
    use_soc("Ascend310P");
    p = base2d(); p.cube = 1; p.t[GB].fmt = ACL_FORMAT_NCHW; OK_(p);
    p = base2d(); p.cube = 1; p.t[IN].fmt = ACL_FORMAT_NHWC; BAD(p, "input");
    unsetenv("ACLCONV_SOC");
}

/* ---- step D: attribute values --------------------------------------------------- */

static void test_d_attrs(void)
{
    prob p;
    /* D.1 */
    p = base2d(); p.stride.v[1] = 0; BAD(p, "stride[1] = 0");
    p = base2d(); p.stride.v[0] = -5; BAD(p, "stride[0] = -5");
    p = base2d(); ARR(p.stride, 1, 0, 1); BAD(p, "stride[1] = 0"); /* values before lengths */
    p = base2d(); ARR(p.stride, 2, 2); DIMS(p.t[GO], 2, 6, 3, 3); OK_(p);
    /* D.2 */
    p = base2d(); p.pad.v[0] = -1; BAD(p, "padding[0] = -1");
    p = base2d(); ARR(p.pad, 0, 0, 0, -1); BAD(p, "padding[3] = -1");
    p = base2d(); ARR(p.pad, 1, 1); DIMS(p.t[GO], 2, 6, 8, 8); OK_(p);
    /* D.3 */
    p = base2d(); p.dil.v[1] = 0; BAD(p, "dilation[1] = 0");
    p = base2d(); p.dil.v[0] = INT64_MIN; BAD(p, "dilation[0]");
    p = base2d(); ARR(p.dil, 2, 1); DIMS(p.t[GO], 2, 6, 4, 6); OK_(p);
    /* D.4 transposed: outputPadding >= 0; 5-D: < stride */
    p = base2d_t(); p.opad.v[0] = -1; BAD(p, "outputPadding[0] = -1");
    p = base2d_t(); ARR(p.opad, 0, 0); OK_(p); /* 9 or 10: the floor absorbs it */
    p = base3d_t(); p.opad.v[2] = 2; BAD(p, "outputPadding[2]");
    p = base3d_t(); ARR(p.opad, 0, 0, 0); DIMS(p.t[GO], 1, 2, 5, 5, 5); OK_(p);
    p = base3d_t(); ARR(p.opad, 5, 1); BAD(p, "outputPadding[0]"); /* any length */
    /* 2-D transposed: outputPadding >= stride is not checked (spec D.4) */
    p = base2d_t(); ARR(p.opad, 2, 3); OK_(p);
    /* D.5 not transposed: outputPadding all 0 */
    p = base2d(); p.opad.v[1] = 1; BAD(p, "outputPadding[1] = 1");
    p = base2d(); ARR(p.opad, 0, 0, 0, 0, 0, 7); BAD(p, "outputPadding[5] = 7");
    /* D.6 groups */
    p = base2d(); p.groups = 0; BAD(p, "groups = 0");
    p = base2d(); p.groups = -1; BAD(p, "groups = -1");
    p = base2d(); p.groups = INT32_MIN; BAD(p, "groups");
    /* D before E0 */
    p = base2d(); p.groups = 0; p.cube = 9; BAD(p, "groups");
}

/* ---- step E0: cubeMathType ----------------------------------------------------- */

static void test_e0_cube(void)
{
    prob p;
    const int8_t bad[] = {-1, 4, 5, 127, -128};
    for (size_t i = 0; i < sizeof bad; ++i) {
        p = base2d();
        p.cube = bad[i];
        BAD(p, "cubeMathType");
    }
    for (int c = 0; c <= 3; ++c) {
        p = base2d(); p.cube = (int8_t)c; OK_(p);
        p = base2d(); set_all_dtypes(&p, ACL_BF16); p.cube = (int8_t)c; OK_(p);
        p = base2d(); set_all_dtypes(&p, ACL_FLOAT16); p.cube = (int8_t)c; OK_(p);
    }
    const char *old[] = {"Ascend910", "Ascend310P"};
    for (int s = 0; s < 2; ++s) {
        use_soc(old[s]);
        /* promoted FLOAT: 0 and 3 rejected, 1 and 2 accepted */
        p = base2d(); p.cube = 0; BAD(p, "cubeMathType = 0");
        p = base2d(); p.cube = 3; BAD(p, "cubeMathType = 3");
        p = base2d(); p.cube = 1; OK_(p);
        p = base2d(); p.cube = 2; OK_(p);
        /* mixed FP16 / FLOAT promotes to FLOAT */
        p = base2d(); set_all_dtypes(&p, ACL_FLOAT16); p.t[W].dt = ACL_FLOAT; p.cube = 0;
        BAD(p, "cubeMathType");
        /* output dtypes do not enter the promotion */
        p = base2d(); set_all_dtypes(&p, ACL_FLOAT16); p.t[GW].dt = ACL_FLOAT; p.cube = 0;
        OK_(p);
        /* FLOAT16: all of 0..3 */
        for (int c = 0; c <= 3; ++c) {
            p = base2d(); set_all_dtypes(&p, ACL_FLOAT16); p.cube = (int8_t)c; OK_(p);
        }
        p = base2d(); p.cube = 4; BAD(p, "cubeMathType = 4");
    }
    unsetenv("ACLCONV_SOC");
}

/* ---- E1 / §2: empty tensors ----------------------------------------------------- */

static void test_empty(void)
{
    prob p;
    /* accepted: empty input (N = 0), all masks */
    OK_EMPTY(empty2d());
    p = empty2d(); set_all_dtypes(&p, ACL_BF16); OK_EMPTY(p);
    /* C = 0 of input, mask[0]: gradOutput C stays, weight Cin/groups... */
    p = base2d(); p.t[IN].d[1] = 0; DIMS(p.t[W], 6, 0, 3, 3); p.mask[1] = false; p.t[GW].null = true;
    p.sync = true; OK_EMPTY(p); /* E.4: X.C = 0 and weight[1] = 0: skipped */
    /* empty weight (Cout = 0) with gradInput not wanted (UT #58 variant) */
    p = base2d(); DIMS(p.t[W], 0, 2, 3, 3); DIMS(p.t[GO], 2, 0, 6, 6); ARR(p.bias, 0);
    p.mask[0] = false; OK_EMPTY(p);
    /* ...but with mask[0] the input must have N or C = 0 (E.2, UT #58) */
    p = base2d(); DIMS(p.t[W], 0, 2, 3, 3); DIMS(p.t[GO], 2, 0, 6, 6); ARR(p.bias, 0);
    BAD(p, "input");
    /* E.1 biasSizes */
    p = empty2d(); p.bias.null = true; BAD(p, "biasSizes");
    p = empty2d(); p.bias.null = true; p.mask[2] = false; p.t[GB].null = true; OK_EMPTY(p);
    p = empty2d(); ARR(p.bias, 6, 6); BAD(p, "biasSizes");
    p = empty2d(); p.bias.n = 0; BAD(p, "biasSizes");
    p = empty2d(); ARR(p.bias, 5); BAD(p, "biasSizes[0] = 5");
    p = empty2d(); ARR(p.bias, 5); p.mask[2] = false; OK_EMPTY(p);
    /* E.1 transposed: weight[1] * groups */
    p = base2d_t(); p.t[IN].d[0] = 0; p.t[GO].d[0] = 0; ARR(p.bias, 3); OK_EMPTY(p);
    p = base2d_t(); p.t[IN].d[0] = 0; p.t[GO].d[0] = 0; ARR(p.bias, 4); BAD(p, "biasSizes");
    /* E.2 with a spatial dim 0 */
    p = base2d(); p.t[IN].d[2] = 0; p.pad.v[0] = 2; BAD(p, "input");
    p = base2d(); p.t[IN].d[2] = 0; p.pad.v[0] = 2; p.mask[0] = false; OK_EMPTY(p);
    /* E.6: input_i + 2*pad_i >= (k_i - 1)*dil_i + 1 */
    p = base2d(); p.t[IN].d[2] = 0; p.mask[0] = false; BAD(p, "spatial dim H");
    p = base2d(); p.t[IN].d[2] = 0; ARR(p.pad, 1, 0); p.mask[0] = false; BAD(p, "spatial dim H");
    p = base2d(); p.t[IN].d[3] = 1; p.t[IN].d[0] = 0; p.t[GO].d[0] = 0; ARR(p.pad, 0, 1);
    OK_EMPTY(p); /* 1 + 2 >= 3 */
    p = empty2d(); ARR(p.dil, 1, 4); BAD(p, "spatial dim W"); /* 8 < 9 */
    /* gradOutput's spatial size is not checked on this path (UT #47) */
    p = empty2d(); DIMS(p.t[GO], 0, 6, 1, 1); OK_EMPTY(p);
    /* E.3 lengths */
    p = empty2d(); ARR(p.stride, 1); BAD(p, "stride");
    p = empty2d(); ARR(p.dil, 1, 1, 1); BAD(p, "dilation");
    p = empty2d(); ARR(p.pad, 0, 0, 0, 0); OK_EMPTY(p);
    p = empty2d(); ARR(p.pad, 0, 0, 0); BAD(p, "padding");
    p = empty2d(); ARR(p.opad, 0); BAD(p, "outputPadding");
    /* E.4 groups */
    p = empty2d(); DIMS(p.t[W], 5, 2, 3, 3); DIMS(p.t[GO], 0, 5, 6, 6); ARR(p.bias, 5);
    BAD(p, "groups = 2");
    p = empty2d(); DIMS(p.t[W], 6, 1, 3, 3); BAD(p, "groups");
    p = empty2d(); DIMS(p.t[W], 6, 0, 3, 3); BAD(p, "groups");
    /* transposed with input N = 0: the channel rule is skipped */
    p = base2d_t(); p.t[IN].d[0] = 0; p.t[GO].d[0] = 0; DIMS(p.t[GO], 0, 7, 10, 10);
    p.mask[2] = false; OK_EMPTY(p);
    p = base2d_t(); DIMS(p.t[IN], 1, 0, 5, 5); DIMS(p.t[W], 0, 3, 3, 3);
    DIMS(p.t[GO], 1, 3, 10, 10); ARR(p.bias, 3); BAD(p, "weight.shape[0] = 0"); /* E.4 ok, E.5 */
    /* transposed with input C = 0 and N > 0: the channel rule applies */
    p = base2d_t(); DIMS(p.t[IN], 1, 0, 5, 5); DIMS(p.t[W], 0, 2, 3, 3);
    DIMS(p.t[GO], 1, 3, 10, 10); ARR(p.bias, 2); BAD(p, "groups");
    /* E.5 transposed: weight[0] > 0 and == input C */
    p = base2d_t(); DIMS(p.t[IN], 0, 5, 5, 5); p.t[GO].d[0] = 0; BAD(p, "weight.shape[0] = 4");
    p = base2d_t(); DIMS(p.t[IN], 0, 0, 5, 5); DIMS(p.t[W], 0, 3, 3, 3); p.t[GO].d[0] = 0;
    BAD(p, "weight.shape[0] = 0");
    /* F.2 on 910B: empty gradOutput with non-empty input and weight (UT #57) */
    p = base2d(); p.t[GO].d[2] = 0; BAD(p, "gradOutput");
    /* 3-D and 1-D empty cases */
    p = base3d(); p.t[IN].d[0] = 0; p.t[GO].d[0] = 0; OK_EMPTY(p);
    p = base1d(); p.t[IN].d[0] = 0; p.t[GO].d[0] = 0; OK_EMPTY(p);
    p = base1d(); p.t[IN].d[0] = 0; p.t[GO].d[0] = 0; ARR(p.pad, 0, 0, 0, 0); BAD(p, "padding");
    /* aclconv additions on the empty path: equal ranks, outputs shaped as filled */
    p = empty2d(); DIMS(p.t[W], 6, 2, 3); p.t[W].fmt = ACL_FORMAT_NCL; BAD(p, "dims");
    p = empty2d(); p.sync = false; set_dims(&p.t[GI], 4, p.t[IN].d); DIMS(p.t[GW], 6, 2, 3, 2);
    p.t[GB].n = 1; p.t[GB].d[0] = 6; BAD(p, "gradWeight");
    p = empty2d(); p.sync = false; DIMS(p.t[GI], 1, 4, 8, 8); set_dims(&p.t[GW], 4, p.t[W].d);
    p.t[GB].n = 1; p.t[GB].d[0] = 6; BAD(p, "gradInput");
    p = empty2d(); p.sync = false; set_dims(&p.t[GI], 4, p.t[IN].d); set_dims(&p.t[GW], 4, p.t[W].d);
    p.t[GB].n = 1; p.t[GB].d[0] = 7; BAD(p, "gradBias");
    p = empty2d(); p.sync = false; set_dims(&p.t[GI], 4, p.t[IN].d); set_dims(&p.t[GW], 4, p.t[W].d);
    p.t[GB].n = 1; p.t[GB].d[0] = 7; p.mask[2] = false; OK_EMPTY(p);

    /* 910 / 310P: no early exit; empty weight/gradOutput rejected by F.2 */
    const char *old[] = {"Ascend910", "Ascend310P"};
    for (int s = 0; s < 2; ++s) {
        use_soc(old[s]);
        p = empty2d(); p.cube = 1; BAD(p, "gradOutput");
        p = base2d(); p.cube = 1; DIMS(p.t[W], 0, 2, 3, 3); p.mask[0] = false;
        BAD(p, "weight");
        /* empty input with non-empty gradOutput: rules F-H, then §2 */
        p = base2d(); p.cube = 1; p.t[IN].d[0] = 0; OK_EMPTY(p);
        p = base2d(); p.cube = 1; p.t[IN].d[0] = 0; p.bias.null = true; BAD(p, "biasSizes");
        p = base2d(); p.cube = 1; p.t[IN].d[0] = 0; DIMS(p.t[GO], 2, 6, 5, 6);
        BAD(p, "spatial dim H");
        /* 5-D with only the input empty: §2 runs before the 3-D dispatch (I.2 < I.4) */
        p = base3d(); p.cube = 1; p.t[IN].d[0] = 0; OK_EMPTY(p);
    }
    unsetenv("ACLCONV_SOC");
}

/* ---- step F: ranks and shapes -------------------------------------------------- */

static void test_f_shapes(void)
{
    prob p;
    /* F.1 */
    p = base2d(); DIMS(p.t[GO], 2, 6, 36); p.t[GO].fmt = ACL_FORMAT_ND; p.t[GB].d[0] = 6;
    BAD(p, "dims");
    p = base2d(); DIMS(p.t[W], 6, 2, 3, 3, 1); p.t[W].fmt = ACL_FORMAT_NCDHW; BAD(p, "dims");
    /* F.3 */
    p = base2d(); p.sync = false; DIMS(p.t[GI], 2, 4, 8, 9); set_dims(&p.t[GW], 4, p.t[W].d);
    p.t[GB].n = 1; p.t[GB].d[0] = 6;
    BAD(p, "gradInput");
    p.mask[0] = false; BAD(p, "gradInput"); /* non-null outputs are checked whatever the mask */
    p = base2d(); p.sync = false; set_dims(&p.t[GI], 4, p.t[IN].d); DIMS(p.t[GW], 6, 2, 3, 1);
    p.t[GB].n = 1; p.t[GB].d[0] = 6; p.t[GI].fmt = p.t[GW].fmt = ACL_FORMAT_NCHW;
    BAD(p, "gradWeight");
    /* F.4 gradBias [C of gradOutput], 1-D, both modes */
    p = base2d(); p.sync = false; set_dims(&p.t[GI], 4, p.t[IN].d); set_dims(&p.t[GW], 4, p.t[W].d);
    p.t[GI].fmt = p.t[GW].fmt = ACL_FORMAT_NCHW;
    DIMS(p.t[GB], 5); BAD(p, "gradBias");
    DIMS(p.t[GB], 1, 6); BAD(p, "gradBias");
    DIMS(p.t[GB], 6); OK_(p);
    p = base2d_t(); p.sync = false; set_dims(&p.t[GI], 4, p.t[IN].d); set_dims(&p.t[GW], 4, p.t[W].d);
    p.t[GI].fmt = p.t[GW].fmt = ACL_FORMAT_NCHW;
    DIMS(p.t[GB], 4); BAD(p, "gradBias"); /* weight[0] is not the bias length */
    DIMS(p.t[GB], 3); OK_(p);
    /* F.5 */
    p = base2d(); ARR(p.stride, 1); BAD(p, "stride has 1");
    p = base2d(); ARR(p.stride, 1, 1, 1, 1); BAD(p, "stride");
    p = base2d(); ARR(p.dil, 1, 1, 1); BAD(p, "dilation");
    p = base2d(); p.dil.n = 0; BAD(p, "dilation");
    p = base1d(); ARR(p.stride, 3, 1); BAD(p, "stride");
    /* F.6 */
    p = base2d(); ARR(p.pad, 0, 0, 0, 0); OK_(p);
    p = base2d(); ARR(p.pad, 0); BAD(p, "padding");
    p = base2d(); p.pad.n = 0; BAD(p, "padding");
    p = base2d(); ARR(p.pad, 0, 0, 0); BAD(p, "padding");
    p = base1d(); ARR(p.pad, 1, 1, 1, 1); BAD(p, "padding");
    p = base3d(); ARR(p.pad, 0, 1, 1, 1); BAD(p, "padding");
    p = base2d(); ARR(p.opad, 0, 0, 0, 0); OK_(p);
    p = base2d(); ARR(p.opad, 0); BAD(p, "outputPadding");
    p = base2d_t(); ARR(p.opad, 1, 1, 1, 1); OK_(p);
    p = base3d(); ARR(p.opad, 0, 0); BAD(p, "outputPadding");
    /* F.7 biasSizes not checked */
    p = base2d(); ARR(p.bias, 1); OK_(p);
    p = base2d(); ARR(p.bias, 1, 2, 3); OK_(p);
}

/* ---- step G: channels and groups ------------------------------------------------ */

static void test_g_channels(void)
{
    prob p;
    /* G.1 Y.C == weight[0] */
    p = base2d(); p.t[GO].d[1] = 8; BAD(p, "gradOutput channels = 8");
    p = base2d_t(); p.t[IN].d[1] = 3; BAD(p, "input channels = 3");
    /* G.2 X.C % weight[1] */
    p = base2d(); p.t[IN].d[1] = 5; BAD(p, "input channels = 5");
    p = base2d_t(); DIMS(p.t[W], 4, 2, 3, 3); p.t[GO].d[1] = 3; BAD(p, "gradOutput channels = 3");
    /* G.3 X.C / weight[1] == groups */
    p = base2d(); p.groups = 1; BAD(p, "groups = 1");
    p = base2d(); p.groups = 3; BAD(p, "groups = 3");
    p = base2d(); p.t[IN].d[1] = 8; p.groups = 2; BAD(p, "groups = 2");
    p = base2d(); p.t[IN].d[1] = 8; p.groups = 4; DIMS(p.t[W], 8, 2, 3, 3); p.t[GO].d[1] = 8;
    OK_(p);
    /* UT #53: Cout 17, groups 2, Cin 16, weight Cin 16 */
    p = base2d(); DIMS(p.t[IN], 1, 16, 8, 8); DIMS(p.t[W], 17, 16, 3, 3);
    DIMS(p.t[GO], 1, 17, 6, 6); p.groups = 2; BAD(p, "groups = 2");
    /* transposed: gradOutput C = weight[1] * groups */
    p = base2d_t(); p.t[GO].d[1] = 6; p.groups = 2; OK_(p);
    p = base2d_t(); p.t[GO].d[1] = 6; p.groups = 3; BAD(p, "groups = 3");
    /* G.4 depthwise: X.C == groups needs Y.C % groups == 0 */
    p = base2d(); p.groups = 4; DIMS(p.t[W], 6, 1, 3, 3); BAD(p, "depthwise");
    p = base2d(); p.groups = 4; DIMS(p.t[W], 8, 1, 3, 3); p.t[GO].d[1] = 8; OK_(p);
    p = base2d(); p.groups = 4; DIMS(p.t[W], 4, 1, 3, 3); p.t[GO].d[1] = 4; OK_(p);
    p = base2d(); p.groups = 4; DIMS(p.t[W], 2, 1, 3, 3); p.t[GO].d[1] = 2; BAD(p, "depthwise");
    p = base2d_t(); DIMS(p.t[IN], 1, 6, 5, 5); DIMS(p.t[W], 6, 1, 3, 3); p.t[GO].d[1] = 3;
    p.groups = 3; OK_(p);
    p = base2d_t(); DIMS(p.t[IN], 1, 4, 5, 5); DIMS(p.t[W], 4, 1, 3, 3); p.t[GO].d[1] = 3;
    p.groups = 3; BAD(p, "depthwise");
}

/* ---- step H: spatial consistency -------------------------------------------------- */

static void test_h_spatial(void)
{
    prob p;
    /* 5-D: CANN's rule */
    p = base3d(); p.t[GO].d[2] = 5; BAD(p, "spatial dim D");
    p = base3d(); p.t[GO].d[3] = 4; BAD(p, "spatial dim H");
    p = base3d(); p.t[GO].d[4] = 4; BAD(p, "spatial dim W");
    p = base3d(); p.t[W].d[2] = 6; BAD(p, "spatial dim D"); /* 5 < 6: formula one */
    p = base3d(); p.t[W].d[2] = 5; p.t[GO].d[2] = 1; OK_(p); /* 5 >= 5 */
    p = base3d_t(); p.t[GO].d[3] = 7; BAD(p, "spatial dim H");
    p = base3d_t(); p.t[GO].d[3] = 5; ARR(p.opad, 1, 0, 1); OK_(p);
    /* aclconv: the same rule on 4-D and 3-D tensors */
    p = base2d(); p.t[GO].d[2] = 7; BAD(p, "spatial dim H");
    p = base2d(); p.t[GO].d[3] = 5; BAD(p, "spatial dim W");
    p = base2d(); DIMS(p.t[IN], 2, 4, 2, 8); DIMS(p.t[GO], 2, 6, 0, 6); BAD(p, "gradOutput");
    p = base2d(); DIMS(p.t[IN], 2, 4, 2, 8); DIMS(p.t[GO], 2, 6, 1, 6); BAD(p, "spatial dim H");
    p = base2d(); DIMS(p.t[IN], 2, 4, 2, 8); DIMS(p.t[GO], 2, 6, 2, 8); ARR(p.pad, 1, 1); OK_(p);
    p = base2d(); DIMS(p.t[IN], 2, 4, 3, 8); DIMS(p.t[GO], 2, 6, 1, 6); OK_(p); /* 3 >= 3 */
    /* stride > kernel, trailing rows dropped by the floor */
    p = base2d(); ARR(p.stride, 4, 5); DIMS(p.t[GO], 2, 6, 2, 2); OK_(p);
    p = base2d(); ARR(p.stride, 4, 5); DIMS(p.t[GO], 2, 6, 2, 3); BAD(p, "spatial dim W");
    /* 4-element padding [top, bottom, left, right] */
    p = base2d(); ARR(p.pad, 1, 0, 2, 1); DIMS(p.t[GO], 2, 6, 7, 9); OK_(p);
    p = base2d(); ARR(p.pad, 1, 0, 2, 1); DIMS(p.t[GO], 2, 6, 8, 10); BAD(p, "spatial dim H");
    p = base2d(); ARR(p.pad, 1, 0, 2, 1); DIMS(p.t[GO], 2, 6, 7, 10); BAD(p, "spatial dim W");
    p = base2d(); ARR(p.pad, 0, 0, 0, 0); OK_(p);
    /* 1-D */
    p = base1d(); p.t[GO].d[2] = 4; BAD(p, "spatial dim L");
    p = base1d(); p.t[GO].d[2] = 2; BAD(p, "spatial dim L");
    p = base1d(); p.t[IN].d[2] = 2; ARR(p.pad, 1); DIMS(p.t[GO], 2, 6, 1); BAD(p, "spatial dim L");
    p = base1d(); p.t[IN].d[2] = 3; ARR(p.pad, 1); DIMS(p.t[GO], 2, 6, 1); OK_(p); /* 5 >= 5 */
    /* transposed 2-D with outputPadding: gradOutput 10 (op 1) or 9 (op 0) */
    p = base2d_t(); OK_(p);
    p = base2d_t(); DIMS(p.t[GO], 1, 3, 9, 9); OK_(p);
    p = base2d_t(); DIMS(p.t[GO], 1, 3, 11, 10); BAD(p, "spatial dim H");
    p = base2d_t(); DIMS(p.t[GO], 1, 3, 10, 8); BAD(p, "spatial dim W");
    p = base2d_t(); ARR(p.pad, 1, 1, 0, 2); DIMS(p.t[GO], 1, 3, 10, 9); OK_(p);
    /* overflow-checked arithmetic */
    p = base2d(); DIMS(p.t[IN], 1, 4, 8, INT64_MAX / 4 - 1); DIMS(p.t[GO], 1, 6, 6, 6);
    p.t[IN].raw = p.t[GI].raw = true; ARR(p.pad, 0, INT64_MAX / 2); BAD(p, "overflows");
    p = base2d(); ARR(p.dil, 1, INT64_MAX / 2 + 1); BAD(p, "overflows");
    p = base2d(); ARR(p.pad, INT64_MAX, 0); BAD(p, "overflows");
    p = base2d(); ARR(p.pad, 0, 0, INT64_MAX, 1); BAD(p, "overflows");
    p = base2d(); ARR(p.stride, INT64_MAX, 1); DIMS(p.t[GO], 2, 6, 1, 6); OK_(p);
    p = base2d(); ARR(p.dil, INT64_MAX, 1); BAD(p, "spatial dim H");
}

/* ---- step I ------------------------------------------------------------------------ */

static void test_i_after_params(void)
{
    prob p;
    /* I.4: 3-D rejected on 910 / 310P, after CheckParams */
    const char *old[] = {"Ascend910", "Ascend310P"};
    for (int s = 0; s < 2; ++s) {
        use_soc(old[s]);
        p = base3d(); p.cube = 1; BAD(p, "3-D");
        p = base3d(); p.cube = 1; p.t[GO].d[2] = 9; BAD(p, "spatial dim D"); /* H first */
        p = base1d(); p.cube = 1; OK_(p);
        /* I.1 determinism with grouped 3-D dW */
        p = base3d(); p.cube = 1; DIMS(p.t[IN], 1, 4, 5, 6, 7); p.groups = 2;
        aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1);
        BAD(p, "deterministic");
        p.mask[1] = false; BAD(p, "3-D");
        p.mask[1] = true; p.groups = 1; DIMS(p.t[IN], 1, 2, 5, 6, 7); BAD(p, "3-D");
        aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0);
        p = base3d(); p.cube = 1; DIMS(p.t[IN], 1, 4, 5, 6, 7); p.groups = 2; BAD(p, "3-D");
    }
    /* 910B ignores determinism */
    unsetenv("ACLCONV_SOC");
    aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1);
    p = base3d(); DIMS(p.t[IN], 1, 4, 5, 6, 7); p.groups = 2; OK_(p);
    aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0);

    /* I.5: 3-D on 910B, mask[1], groups > 1, gradWeight FLOAT */
    prob g = base3d();
    DIMS(g.t[IN], 1, 4, 5, 6, 7);
    g.groups = 2;
    OK_(g);
    p = g; p.cube = 2; BAD(p, "cubeMathType = 2");
    p = g; p.cube = 1; OK_(p);
    p = g; p.cube = 3; OK_(p);
    p = g; set_all_dtypes(&p, ACL_FLOAT16); p.t[GW].dt = ACL_FLOAT; BAD(p, "FLOAT16");
    p = g; set_all_dtypes(&p, ACL_BF16); p.t[GW].dt = ACL_FLOAT; BAD(p, "BFLOAT16");
    p = g; set_all_dtypes(&p, ACL_BF16); OK_(p);                /* gradWeight BF16 */
    p = g; set_all_dtypes(&p, ACL_FLOAT16); p.cube = 2; OK_(p); /* gradWeight FLOAT16 */
    p = g; set_all_dtypes(&p, ACL_FLOAT16); p.t[IN].dt = ACL_BF16; p.t[GW].dt = ACL_FLOAT;
    OK_(p); /* promoted FLOAT */
    p = g; p.cube = 2; p.mask[1] = false; p.t[GW].null = true; OK_(p);
    p = g; p.cube = 2; p.mask[1] = false; OK_(p); /* non-null, not computed */
    p = base3d(); p.cube = 2; OK_(p);             /* groups 1 */
    p = base2d(); p.cube = 2; OK_(p);             /* 4-D: not applied (docs/validation.md) */
    p = base2d(); set_all_dtypes(&p, ACL_BF16); p.t[GW].dt = ACL_FLOAT; OK_(p);
    use_soc("Ascend910_93");
    p = g; p.cube = 2; BAD(p, "cubeMathType = 2");
    unsetenv("ACLCONV_SOC");
}

/* ---- aclconv's safety checks ----------------------------------------------------- */

static void test_safety(void)
{
    prob p;
    const int64_t big = (int64_t)1 << 40;
    /* S.1 element count overflow (2^40 x 2^40), built past aclCreateTensor */
    p = base2d(); p.groups = 1; DIMS(p.t[IN], 1, 1, big, big); DIMS(p.t[W], 1, 1, 1, 1);
    DIMS(p.t[GO], 1, 1, big, big); p.t[IN].raw = p.t[GO].raw = true; ARR(p.bias, 1);
    p.sync = false; p.t[GI] = p.t[IN]; p.t[GW] = p.t[W]; p.t[GW].raw = false; DIMS(p.t[GB], 1);
    p.t[GI].fmt = p.t[GW].fmt = ACL_FORMAT_NCHW;
    BAD(p, "gradOutput shape [1, 1, 1099511627776, 1099511627776]");
    /* byte size overflow: 2^62 FLOAT elements (aclCreateTensor accepts the count) */
    const int64_t h = (int64_t)1 << 31;
    p = base2d(); p.groups = 1; DIMS(p.t[IN], 1, 1, h, h); DIMS(p.t[W], 1, 1, 1, 1);
    DIMS(p.t[GO], 1, 1, h, h); ARR(p.bias, 1);
    BAD(p, "overflows");
    p.t[GO].dt = p.t[IN].dt = p.t[W].dt = p.t[GI].dt = ACL_FLOAT16; BAD(p, "gradOutput");
    /* storage element count overflow */
    p = base2d(); p.t[W].has_storage = true; p.t[W].storage_n = 3;
    p.t[W].storage[0] = big; p.t[W].storage[1] = big; p.t[W].storage[2] = 1;
    BAD(p, "weight");
    /* S.2 view inside storage */
    p = base2d(); p.t[IN].offset = 1; BAD(p, "input view");
    p = base2d(); p.t[IN].offset = 1; p.t[IN].has_storage = true; p.t[IN].storage_n = 1;
    p.t[IN].storage[0] = 2 * 4 * 8 * 8 + 1; OK_(p);
    p = base2d(); p.t[IN].has_storage = true; p.t[IN].storage_n = 1;
    p.t[IN].storage[0] = 2 * 4 * 8 * 8 - 1; BAD(p, "input view");
    p = base2d(); p.t[W].has_strides = true;
    {
        int64_t st[] = {18, 9, 3, 2};
        memcpy(p.t[W].strides, st, sizeof st);
    }
    BAD(p, "weight view"); /* last index 5*18+9+6+4 = 109 >= 108 */
    p.t[W].strides[3] = 1; OK_(p);
    /* transposed storage of weight (strides permuted), exactly fitting */
    p = base2d(); p.t[W].has_strides = true;
    {
        int64_t st[] = {1, 6, 36, 12}; /* [6,2,3,3] stored as [kh][kw][ci][co] */
        memcpy(p.t[W].strides, st, sizeof st);
    }
    OK_(p);
    p = base2d(); p.t[GB].has_storage = true; p.t[GB].storage_n = 0; BAD(p, "gradBias");
    p = base2d(); p.t[GB].has_storage = true; p.t[GB].storage_n = 0; p.t[GB].d[0] = 1;
    p.sync = false; set_dims(&p.t[GI], 4, p.t[IN].d); set_dims(&p.t[GW], 4, p.t[W].d);
    p.t[GI].fmt = p.t[GW].fmt = ACL_FORMAT_NCHW; p.t[GB].n = 1; p.t[GO].d[1] = 6;
    BAD(p, "gradBias"); /* F.4: 1 != 6 */
    /* negative dims (aclCreateTensor never makes them; built past it) */
    p = empty2d(); p.t[GO].d[2] = -6; p.t[GO].raw = true;
    BAD(p, "gradOutput shape [0, 6, -6, 6]: a dim is negative");
    p = empty2d(); p.mask[0] = false; p.sync = false; set_dims(&p.t[GI], 4, p.t[IN].d);
    p.t[GI].d[0] = -1; p.t[GI].d[1] = 0; p.t[GI].raw = true;
    set_dims(&p.t[GW], 4, p.t[W].d); p.t[GB].n = 1; p.t[GB].d[0] = 6;
    BAD(p, "gradInput shape [-1, 0, 8, 8]: a dim is negative");
    p = base2d(); p.t[W].raw = true; p.t[W].has_storage = true; p.t[W].storage_n = 2;
    p.t[W].storage[0] = -1; p.t[W].storage[1] = 0; BAD(p, "weight: a storage dim is negative");
    p = base2d(); p.t[W].raw = true; p.t[W].has_storage = true; p.t[W].storage_n = 1;
    p.t[W].storage[0] = 108; OK_(p);
    /* the byte offset must be representable, even for an empty view */
    p = empty2d(); p.t[IN].offset = INT64_MAX / 2; BAD(p, "input offset");
    p = empty2d(); p.t[IN].offset = INT64_MAX / 4; OK_EMPTY(p);
    p = empty2d(); set_all_dtypes(&p, ACL_FLOAT16); p.t[IN].offset = INT64_MAX / 2; OK_EMPTY(p);
    /* a non-empty view with NULL data */
    p = base2d(); p.t[W].null_data = true; BAD(p, "weight");
    p = base2d(); p.t[GB].null_data = true; p.mask[2] = false; BAD(p, "gradBias");
    /* S.3 overlap of written outputs with inputs and each other */
    p = base2d(); p.t[GI].alias = IN; BAD(p, "overlaps");
    p = base2d(); p.t[GI].alias = IN; p.t[GI].alias_off = 2 * 4 * 8 * 8 * 4 - 4; BAD(p, "overlaps");
    p = base2d(); p.t[GI].alias = IN; p.t[GI].alias_off = 2 * 4 * 8 * 8 * 4; OK_(p); /* adjacent */
    p = base2d(); p.t[GI].alias = IN; p.mask[0] = false; OK_(p); /* not written */
    p = base2d(); p.t[GW].alias = GI; p.t[GW].alias_off = 64; BAD(p, "gradWeight");
    p = base2d(); p.t[GB].alias = GO; BAD(p, "gradBias");
    p = base2d(); p.t[GB].alias = W; p.t[GB].alias_off = 6 * 2 * 9 * 4; OK_(p);
    p = base2d(); p.t[GB].alias = W; p.t[GB].alias_off = 6 * 2 * 9 * 4 - 1; BAD(p, "gradBias");
    p = base2d(); p.t[GO].alias = IN; OK_(p); /* inputs may share memory */
    p = base2d(); p.t[GB].alias = GW; p.mask[1] = false; OK_(p);
    /* conservative: the byte ranges of strided views are compared as a whole */
    p = base2d(); p.t[IN].has_strides = true; p.t[IN].has_storage = true; p.t[IN].storage_n = 1;
    p.t[IN].storage[0] = 2 * 2 * 4 * 8 * 8;
    {
        int64_t st[] = {512, 64, 8, 1}; /* every other 256-element block */
        memcpy(p.t[IN].strides, st, sizeof st);
        p.t[IN].strides[0] = 512;
        p.t[IN].strides[1] = 128;
    }
    p.t[GI].alias = IN; p.t[GI].alias_off = 64 * 4; p.t[GI].has_strides = true;
    memcpy(p.t[GI].strides, p.t[IN].strides, sizeof p.t[IN].strides);
    p.t[GI].has_storage = true; p.t[GI].storage_n = 1; p.t[GI].storage[0] = 2 * 2 * 4 * 8 * 8;
    BAD(p, "overlaps");
    /* S.4 batch sizes agree (non-empty path) */
    p = base2d(); p.t[GO].d[0] = 3; BAD(p, "input N = 2 differs");
    p = base2d_t(); p.t[GO].d[0] = 2; BAD(p, "input N = 1 differs");
    /* S.6 a written output reaches no element twice (F4: tasks raced on it) */
    {
        const int64_t rows_overlap[] = {256, 8, 8, 1}; /* channel c starts at row c of channel 0 */
        const int64_t batch_zero[] = {0, 64, 8, 1};
        const int64_t nhwc[] = {256, 1, 32, 4};
        const int64_t unit_zero[] = {32, 8, 0, 1};
        p = base2d(); p.t[GI].has_strides = true; memcpy(p.t[GI].strides, rows_overlap, sizeof rows_overlap);
        BAD(p, "gradInput view [2, 4, 8, 8] with strides [256, 8, 8, 1] reaches some elements more than once");
        p.mask[0] = false; OK_(p); /* not written */
        p = base2d(); p.t[GI].has_strides = true; memcpy(p.t[GI].strides, batch_zero, sizeof batch_zero);
        BAD(p, "a stride of 0 within the 1 elements");
        p = base2d(); p.t[GI].has_strides = true; memcpy(p.t[GI].strides, nhwc, sizeof nhwc);
        OK_(p); /* permuted layouts are fine */
        p = base2d(); DIMS(p.t[IN], 2, 4, 1, 8); DIMS(p.t[W], 6, 2, 1, 3); DIMS(p.t[GO], 2, 6, 1, 6);
        p.t[GI].has_strides = true; memcpy(p.t[GI].strides, unit_zero, sizeof unit_zero);
        OK_(p); /* any stride on a unit dim */
        p = base2d(); p.t[GB].has_strides = true; p.t[GB].strides[0] = 0; BAD(p, "gradBias");
        p.mask[2] = false; OK_(p);
        /* the empty path zero-fills gradWeight: checked there too */
        p = empty2d(); p.t[GW].has_strides = true; p.t[GW].strides[0] = 18; p.t[GW].strides[1] = 9;
        p.t[GW].strides[2] = 3; p.t[GW].strides[3] = 0; BAD(p, "gradWeight view");
    }
}

int main(void)
{
    unsetenv("ACLCONV_SOC");
    test_a_not_null();
    test_b_dtypes();
    test_c_formats();
    test_d_attrs();
    test_e0_cube();
    test_empty();
    test_f_shapes();
    test_g_channels();
    test_h_spatial();
    test_i_after_params();
    test_safety();
    printf("test_validation: %d checks passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
