/*
 * Robustness of conv_bwd_validate on hostile arguments: random valid problems
 * with random mutations (any dim, huge / negative / zero values, arrays of any
 * length, NULL pointers, odd dtypes, formats, ranks up to 8, strides,
 * offsets, storage, aliasing, every SoC). Run under ASan+UBSan it proves "no
 * UB on any input"; the checks below prove that whatever is accepted is safe
 * to compute: an independent oracle (128-bit arithmetic) re-checks the shape
 * relations, memory bounds and output overlap (with each other, inputs and
 * themselves) of every accepted call.
 * Every 16th call also goes through the public entry, which must agree.
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
#include "../util/view_overlap.h"

typedef __int128 i128;

enum { GO, IN, W, GI, GW, GB, NT };
enum { MAXD = 8, BUF_BYTES = 1 << 16 };

static uint64_t g_rng;
static uint64_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}
static int64_t rint_in(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

static const int64_t k_wild[] = {0, 1, 2, 3, -1, -7, 255, 1 << 20, (int64_t)1 << 31,
                                 (int64_t)1 << 40, INT64_MAX / 2, INT64_MAX - 1, INT64_MAX,
                                 INT64_MIN, INT32_MAX, 65535};
static int64_t wild(void) { return k_wild[rnd() % (sizeof k_wild / sizeof k_wild[0])]; }

typedef struct fz {
    aclTensor t[NT];
    bool null_t[NT];
    aclIntArray *arr[5]; /* bias, stride, pad, dil, opad */
    bool null_arr[5];
    aclBoolArray *mask;
    bool null_mask;
    bool transposed;
    int groups;
    int8_t cube;
} fz;

static unsigned char g_buf[NT][BUF_BYTES] __attribute__((aligned(64)));

static aclIntArray *mk_int(uint64_t n, const int64_t *v) { return aclCreateIntArray(v, n); }

static void set_tensor(aclTensor *t, uint64_t n, const int64_t *d, aclFormat f, void *data)
{
    memset(t, 0, sizeof *t);
    t->ndim = t->storage_ndim = n;
    int64_t s = 1;
    for (uint64_t i = n; i-- > 0;) {
        t->view[i] = t->storage[i] = d[i];
        t->stride[i] = s;
        s *= d[i] > 0 ? d[i] : 1;
    }
    t->dtype = ACL_FLOAT;
    t->format = f;
    t->data = data;
}

/* A random problem that satisfies the rules (most of the time). */
static void gen_valid(fz *z)
{
    memset(z, 0, sizeof *z);
    int rank = (int)rint_in(3, 5), ns = rank - 2;
    z->transposed = rnd() & 1;
    int g = (int)rint_in(1, 3);
    int64_t xc = g * rint_in(1, 3), yc = g * rint_in(1, 3), n = rint_in(1, 2);
    int64_t xs[3], ys[3], k[3], st[3], pd[3], dl[3], op[3];
    for (int i = 0; i < ns; ++i) {
        k[i] = rint_in(1, 3);
        st[i] = rint_in(1, 3);
        dl[i] = rint_in(1, 2);
        pd[i] = rint_in(0, 2);
        int64_t eff = (k[i] - 1) * dl[i] + 1;
        xs[i] = rint_in(eff > 2 * pd[i] ? eff - 2 * pd[i] : 1, 7);
        ys[i] = (xs[i] + 2 * pd[i] - eff) / st[i] + 1;
        op[i] = z->transposed ? rint_in(0, st[i] - 1) : 0;
    }
    int64_t xd[5] = {n, xc}, yd[5] = {n, yc}, wd[5] = {yc, xc / g};
    for (int i = 0; i < ns; ++i) xd[2 + i] = xs[i], yd[2 + i] = ys[i], wd[2 + i] = k[i];
    aclFormat f = rank == 3 ? ACL_FORMAT_NCL : rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW;
    const int64_t *god = z->transposed ? xd : yd, *ind = z->transposed ? yd : xd;
    set_tensor(&z->t[GO], rank, god, f, g_buf[GO]);
    set_tensor(&z->t[IN], rank, ind, f, g_buf[IN]);
    set_tensor(&z->t[W], rank, wd, f, g_buf[W]);
    set_tensor(&z->t[GI], rank, ind, f, g_buf[GI]);
    set_tensor(&z->t[GW], rank, wd, f, g_buf[GW]);
    set_tensor(&z->t[GB], 1, &god[1], ACL_FORMAT_ND, g_buf[GB]);
    int64_t bias = god[1];
    z->arr[0] = mk_int(1, &bias);
    z->arr[1] = mk_int(ns, st);
    z->arr[2] = mk_int(ns, pd);
    z->arr[3] = mk_int(ns, dl);
    z->arr[4] = mk_int(ns, op);
    /* empty tensors: N = 0 (input and gradOutput) or Cout = 0 */
    switch (rnd() % 8) {
    case 0: z->t[IN].view[0] = z->t[GI].view[0] = z->t[GO].view[0] = 0; break;
    case 1:
        z->t[W].view[0] = z->t[GW].view[0] = 0;
        (z->transposed ? &z->t[IN] : &z->t[GO])->view[1] = 0;
        (z->transposed ? &z->t[GI] : &z->t[GB])->view[z->transposed ? 1 : 0] = 0;
        bias = z->t[GO].view[1];
        aclDestroyIntArray(z->arr[0]);
        z->arr[0] = mk_int(1, &bias);
        break;
    default: break;
    }
    bool m[3] = {true, true, rnd() % 4 != 0};
    z->mask = aclCreateBoolArray(m, 3);
    z->groups = g;
    z->cube = (int8_t)rint_in(0, 3);
    static const aclDataType dts[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    if (rnd() % 4 == 0)
        for (int i = 0; i < NT; ++i) z->t[i].dtype = dts[rnd() % 3];
}

static void mutate(fz *z)
{
    int what = (int)(rnd() % 16);
    aclTensor *t = &z->t[rnd() % NT];
    switch (what) {
    case 0: case 1: /* a view dim */
        if (t->ndim) t->view[rnd() % t->ndim] = rnd() % 3 ? rint_in(0, 9) : wild();
        break;
    case 2: { /* an array: new length and values */
        int i = (int)(rnd() % 5);
        int64_t v[MAXD];
        uint64_t n = rnd() % 9;
        for (uint64_t j = 0; j < n; ++j) v[j] = rnd() % 2 ? rint_in(-1, 4) : wild();
        aclDestroyIntArray(z->arr[i]);
        z->arr[i] = mk_int(n, v);
        break;
    }
    case 3: z->null_t[rnd() % NT] = true; break;
    case 4: z->null_arr[rnd() % 5] = true; break;
    case 5: { /* mask */
        bool m[5];
        uint64_t n = rnd() % 8 ? 3 : rnd() % 6;
        for (uint64_t j = 0; j < n; ++j) m[j] = rnd() & 1;
        aclDestroyBoolArray(z->mask);
        z->mask = aclCreateBoolArray(m, n);
        if (rnd() % 16 == 0) z->null_mask = true;
        break;
    }
    case 6: z->groups = rnd() % 2 ? (int)rint_in(-2, 8) : (int)(uint32_t)rnd(); break;
    case 7: z->cube = (int8_t)rnd(); break;
    case 8: t->dtype = (aclDataType)rint_in(-1, 41); break;
    case 9: t->format = (aclFormat)(rnd() % 2 ? rint_in(-1, 4) : rint_in(27, 50)); break;
    case 10: /* rank */
        t->ndim = rnd() % 9;
        for (uint64_t j = 0; j < t->ndim; ++j)
            if (t->view[j] == 0) t->view[j] = 1;
        break;
    case 11: t->offset = rnd() % 2 ? rint_in(0, 40) : wild(); break;
    case 12:
        if (t->ndim) t->stride[rnd() % t->ndim] = rnd() % 2 ? rint_in(0, 40) : wild();
        break;
    case 13:
        t->storage_ndim = rnd() % 9;
        for (uint64_t j = 0; j < t->storage_ndim; ++j)
            t->storage[j] = rnd() % 2 ? rint_in(0, 40) : wild();
        break;
    case 14: /* aliasing */
        t->data = (unsigned char *)g_buf[rnd() % NT] + 4 * rint_in(0, 64);
        break;
    case 15: z->transposed = !z->transposed; break;
    }
}

static int g_fail;
#define ORACLE(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "accepted but " __VA_ARGS__);                                          \
            fprintf(stderr, " (seed state %" PRIu64 ")\n", seed);                                  \
            ++g_fail;                                                                              \
            return;                                                                                \
        }                                                                                          \
    } while (0)

static size_t esz(aclDataType dt) { return dt == ACL_FLOAT ? 4 : 2; }

/* Memory extent [lo, hi) in bytes; false if empty. */
static bool extent(const aclTensor *t, i128 *lo, i128 *hi)
{
    i128 last = t->offset;
    for (uint64_t i = 0; i < t->ndim; ++i) {
        if (t->view[i] == 0) return false;
        last += (i128)(t->view[i] - 1) * t->stride[i];
    }
    *lo = (i128)(uintptr_t)t->data + (i128)t->offset * (i128)esz(t->dtype);
    *hi = (i128)(uintptr_t)t->data + (last + 1) * (i128)esz(t->dtype);
    return true;
}

/* Whether some element index of t's view occurs twice (views up to 2^14
 * elements; larger ones are not enumerated). */
static bool reaches_twice(const aclTensor *t)
{
    static int64_t idx[1 << 14];
    return t->ndim <= MAXD && view_reaches_twice(t->view, t->stride, t->ndim, idx, 1 << 14);
}

static void oracle(const conv_bwd_args *a, bool empty, uint64_t seed)
{
    const aclTensor *ts[NT] = {a->grad_output, a->input,       a->weight,
                               a->grad_input,  a->grad_weight, a->grad_bias};
    const bool *m = a->output_mask->v;
    ORACLE(a->output_mask->size == 3, "mask size %" PRIu64, a->output_mask->size);
    for (int i = 0; i < NT; ++i) {
        const aclTensor *t = ts[i];
        if (t == NULL) {
            ORACLE(i >= GI && !m[i - GI], "tensor %d NULL", i);
            continue;
        }
        ORACLE(t->dtype == ACL_FLOAT || t->dtype == ACL_FLOAT16 || t->dtype == ACL_BF16,
               "dtype %d", (int)t->dtype);
        ORACLE(t->ndim <= MAXD && t->storage_ndim <= MAXD, "ndim");
        i128 numel = 1, snumel = 1, last = t->offset;
        bool nonempty = true;
        for (uint64_t j = 0; j < t->ndim; ++j) {
            ORACLE(t->view[j] >= 0, "negative dim");
            if (t->view[j] == 0) nonempty = false;
        }
        if (nonempty)
            for (uint64_t j = 0; j < t->ndim; ++j) {
                numel *= t->view[j];
                ORACLE(numel * (i128)esz(t->dtype) <= INT64_MAX, "tensor %d numel overflow", i);
                last += (i128)(t->view[j] - 1) * t->stride[j];
            }
        bool szero = false;
        for (uint64_t j = 0; j < t->storage_ndim; ++j) szero |= t->storage[j] == 0;
        for (uint64_t j = 0; j < t->storage_ndim && !szero; ++j) {
            snumel *= t->storage[j];
            ORACLE(snumel > 0 && snumel * (i128)esz(t->dtype) <= INT64_MAX, "tensor %d storage overflow", i);
        }
        if (szero) snumel = 0;
        if (nonempty) {
            ORACLE(t->data != NULL, "tensor %d NULL data", i);
            ORACLE(t->offset >= 0 && last < snumel, "tensor %d view outside storage", i);
        }
    }
    /* written outputs overlap nothing they must not */
    for (int i = GI; i < NT; ++i) {
        i128 lo, hi, lo2, hi2;
        if (ts[i] == NULL || !m[i - GI] || !extent(ts[i], &lo, &hi)) continue;
        for (int j = 0; j < NT; ++j) {
            if (j == i || ts[j] == NULL || (j >= GI && !m[j - GI])) continue;
            if (!extent(ts[j], &lo2, &hi2)) continue;
            ORACLE(hi <= lo2 || hi2 <= lo, "outputs %d and %d overlap", i, j);
        }
        ORACLE(!reaches_twice(ts[i]), "output %d reaches an element twice", i);
    }
    const aclTensor *x = a->transposed ? a->grad_output : a->input;
    const aclTensor *y = a->transposed ? a->input : a->grad_output;
    const aclTensor *w = a->weight;
    uint64_t r = a->input->ndim;
    ORACLE(r >= 3 && r <= 5 && w->ndim == r && a->grad_output->ndim == r, "ranks");
    ORACLE(a->groups >= 1, "groups");
    ORACLE(a->cube_math_type >= 0 && a->cube_math_type <= 3, "cube");
    if (empty) {
        if (m[0]) ORACLE(a->grad_input->ndim == r, "empty gradInput rank");
        if (m[1])
            for (uint64_t j = 0; j < r; ++j)
                ORACLE(a->grad_weight->ndim == r && a->grad_weight->view[j] == w->view[j],
                       "empty gradWeight shape");
        if (m[2]) ORACLE(a->grad_bias->ndim == 1 && a->bias_sizes != NULL &&
                             a->grad_bias->view[0] == a->bias_sizes->v[0], "empty gradBias");
        return;
    }
    ORACLE(x->view[0] == y->view[0], "batch");
    ORACLE(y->view[1] == w->view[0] && w->view[1] > 0 && x->view[1] == w->view[1] * a->groups,
           "channels");
    ORACLE(a->stride->size == r - 2 && a->dilation->size == r - 2, "lengths");
    ORACLE(a->padding->size == r - 2 || (r == 4 && a->padding->size == 4), "padding length");
    for (uint64_t i = 0; i < r - 2; ++i) {
        i128 head = a->padding->size == 4 ? a->padding->v[2 * i] : a->padding->v[i];
        i128 tail = a->padding->size == 4 ? a->padding->v[2 * i + 1] : a->padding->v[i];
        i128 eff = (i128)(w->view[2 + i] - 1) * a->dilation->v[i] + 1;
        i128 span = (i128)x->view[2 + i] + head + tail;
        ORACLE(span >= eff && (span - eff) / a->stride->v[i] + 1 == y->view[2 + i], "spatial %d",
               (int)i);
    }
    if (a->grad_input) for (uint64_t j = 0; j < r; ++j)
        ORACLE(a->grad_input->ndim == r && a->grad_input->view[j] == a->input->view[j], "gI");
    if (a->grad_weight) for (uint64_t j = 0; j < r; ++j)
        ORACLE(a->grad_weight->ndim == r && a->grad_weight->view[j] == w->view[j], "gW");
    if (a->grad_bias)
        ORACLE(a->grad_bias->ndim == 1 && a->grad_bias->view[0] == a->grad_output->view[1], "gB");
}

int main(int argc, char **argv)
{
    static const char *const socs[] = {"Ascend910B", "Ascend910_93", "Ascend910", "Ascend310P"};
    long iters = argc > 1 ? atol(argv[1]) : 200000;
    uint64_t seed0 = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x9e3779b97f4a7c15ull;
    long accepted = 0, accepted_empty = 0, rejected[3] = {0};
    printf("test_validation_fuzz: %ld iterations, seed 0x%" PRIx64 "\n", iters, seed0);
    for (long it = 0; it < iters; ++it) {
        g_rng = seed0 + (uint64_t)it * 0x2545F4914F6CDD1Dull;
        if (g_rng == 0) g_rng = 1;
        uint64_t seed = g_rng;
        const char *soc = socs[rnd() % 4];
        setenv("ACLCONV_SOC", soc, 1);
        fz z;
        gen_valid(&z);
        int nm = (int)(rnd() % 4);
        for (int i = 0; i < nm; ++i) mutate(&z);
        conv_bwd_args a = {
            z.null_t[GO] ? NULL : &z.t[GO], z.null_t[IN] ? NULL : &z.t[IN],
            z.null_t[W] ? NULL : &z.t[W],   z.null_arr[0] ? NULL : z.arr[0],
            z.null_arr[1] ? NULL : z.arr[1], z.null_arr[2] ? NULL : z.arr[2],
            z.null_arr[3] ? NULL : z.arr[3], z.transposed,
            z.null_arr[4] ? NULL : z.arr[4], z.groups,
            z.null_mask ? NULL : z.mask,     z.cube,
            z.null_t[GI] ? NULL : &z.t[GI], z.null_t[GW] ? NULL : &z.t[GW],
            z.null_t[GB] ? NULL : &z.t[GB]};
        bool empty = false;
        aclnnStatus st = conv_bwd_validate(&a, soc_current(), &empty);
        if (st == ACLNN_SUCCESS) {
            ++accepted;
            accepted_empty += empty;
            oracle(&a, empty, seed);
        } else if (st == ACLNN_ERR_PARAM_NULLPTR) {
            ++rejected[0];
        } else if (st == ACLNN_ERR_PARAM_INVALID) {
            ++rejected[1];
            if (strstr(aclGetRecentErrMsg(), "aclnnConvolutionBackward: ") == NULL) {
                fprintf(stderr, "message without operator name: %s\n", aclGetRecentErrMsg());
                ++g_fail;
            }
        } else {
            ++rejected[2];
            fprintf(stderr, "unexpected status %d (seed state %" PRIu64 ")\n", (int)st, seed);
            ++g_fail;
        }
        if (it % 16 == 0) {
            uint64_t ws = 0;
            aclOpExecutor *ex = NULL;
            aclnnStatus st2 = aclnnConvolutionBackwardGetWorkspaceSize(
                a.grad_output, a.input, a.weight, a.bias_sizes, a.stride, a.padding, a.dilation,
                a.transposed, a.output_padding, a.groups, a.output_mask, a.cube_math_type,
                (aclTensor *)a.grad_input, (aclTensor *)a.grad_weight, (aclTensor *)a.grad_bias,
                &ws, &ex);
            if (st2 != st) {
                fprintf(stderr, "public entry %d != validate %d (seed state %" PRIu64 "): %s\n",
                        (int)st2, (int)st, seed, aclGetRecentErrMsg());
                ++g_fail;
            }
            if (st2 == ACLNN_SUCCESS && ex != NULL) {
                aclSetAclOpExecutorRepeatable(ex);
                aclDestroyAclOpExecutor(ex);
            }
        }
        for (int i = 0; i < 5; ++i) aclDestroyIntArray(z.arr[i]);
        aclDestroyBoolArray(z.mask);
        if (g_fail > 20) break;
    }
    printf("accepted %ld (empty %ld), 161001: %ld, 161002: %ld, other: %ld; failures %d\n",
           accepted, accepted_empty, rejected[0], rejected[1], rejected[2], g_fail);
    return g_fail ? 1 : 0;
}
