/* aclconv through the public API, as a CANN program calls it: device buffers
 * from aclrtMalloc, tensors, the two-phase call, aclrtSynchronizeStream. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "bench_check.h"
#include "bench_impl.h"
#include "bench_rng.h"
#include "bench_run.h"
#include "bench_timer.h"
#include "common/dtype.h"

enum { T_DY, T_X, T_W, T_DX, T_DW, T_DB, T_COUNT };

typedef struct acl_call {
    int64_t shape[T_COUNT][5];
    int rank[T_COUNT];
    int64_t numel[T_COUNT];
    void *dev[T_COUNT];
    aclTensor *tensor[T_COUNT];
    float *host[T_COUNT]; /* operands as float (already rounded to the dtype) */
    aclIntArray *bias_sizes, *stride, *padding, *dilation, *output_padding;
    aclBoolArray *mask;
    aclOpExecutor *executor;
    void *workspace;
    uint64_t workspace_size;
    aclrtStream stream;
} acl_call;

static size_t dtype_bytes(aclDataType dt)
{
    return dt == ACL_FLOAT ? 4 : 2;
}

static aclFormat format_of_rank(int rank)
{
    return rank == 3 ? ACL_FORMAT_NCL : rank == 5 ? ACL_FORMAT_NCDHW : ACL_FORMAT_NCHW;
}

/* Converts float values (exactly representable in dt) to dt's storage. */
static void store_dtype(void *dst, const float *src, int64_t n, aclDataType dt)
{
    if (dt == ACL_FLOAT) {
        memcpy(dst, src, (size_t)n * sizeof(float));
    } else if (dt == ACL_BF16) {
        uint16_t *d = dst;
        for (int64_t i = 0; i < n; ++i)
            d[i] = f32_to_bf16(src[i]);
    } else {
        uint16_t *d = dst;
        for (int64_t i = 0; i < n; ++i)
            d[i] = f32_to_f16(src[i]);
    }
}

static void load_dtype(float *dst, const void *src, int64_t n, aclDataType dt)
{
    if (dt == ACL_FLOAT) {
        memcpy(dst, src, (size_t)n * sizeof(float));
    } else if (dt == ACL_BF16) {
        const uint16_t *s = src;
        for (int64_t i = 0; i < n; ++i)
            dst[i] = bf16_to_f32(s[i]);
    } else {
        const uint16_t *s = src;
        for (int64_t i = 0; i < n; ++i)
            dst[i] = f16_to_f32(s[i]);
    }
}

static float round_to(float v, aclDataType dt)
{
    return dt == ACL_BF16 ? f32_round_bf16(v) : dt == ACL_FLOAT16 ? f32_round_f16(v) : v;
}

static int fail(acl_result *r, const char *what, int code)
{
    snprintf(r->err, sizeof r->err, "%s failed (%d): %s", what, code, aclGetRecentErrMsg());
    return -1;
}

/* Device buffer + tensor for t; operands get random data in [-1, 1). */
static int make_tensor(acl_call *k, int t, aclDataType dt, int is_operand, bench_rng *rng,
                       acl_result *r)
{
    const int64_t n = k->numel[t];
    const size_t bytes = (size_t)n * dtype_bytes(dt);
    aclError e = aclrtMalloc(&k->dev[t], bytes ? bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST);
    if (e != ACL_SUCCESS) return fail(r, "aclrtMalloc", e);
    void *staging = malloc(bytes ? bytes : 1);
    if (staging == NULL) {
        snprintf(r->err, sizeof r->err, "out of host memory");
        return -1;
    }
    if (is_operand) {
        k->host[t] = malloc((size_t)n * sizeof(float));
        if (k->host[t] == NULL) {
            free(staging);
            snprintf(r->err, sizeof r->err, "out of host memory");
            return -1;
        }
        for (int64_t i = 0; i < n; ++i)
            k->host[t][i] = round_to(bench_rng_sym(rng), dt);
        store_dtype(staging, k->host[t], n, dt);
    } else {
        memset(staging, 0, bytes);
    }
    e = aclrtMemcpy(k->dev[t], bytes, staging, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    free(staging);
    if (e != ACL_SUCCESS) return fail(r, "aclrtMemcpy", e);
    int64_t strides[5];
    const int rank = k->rank[t];
    strides[rank - 1] = 1;
    for (int i = rank - 2; i >= 0; --i)
        strides[i] = strides[i + 1] * k->shape[t][i + 1];
    k->tensor[t] = aclCreateTensor(k->shape[t], (uint64_t)rank, dt, strides, 0,
                                   t == T_DB ? ACL_FORMAT_ND : format_of_rank(rank), k->shape[t],
                                   (uint64_t)rank, k->dev[t]);
    if (k->tensor[t] == NULL) return fail(r, "aclCreateTensor", 0);
    return 0;
}

static int plan(acl_call *k, const bench_case *c, acl_result *r)
{
    aclnnStatus st = aclnnConvolutionBackwardGetWorkspaceSize(
        k->tensor[T_DY], k->tensor[T_X], k->tensor[T_W], k->bias_sizes, k->stride, k->padding,
        k->dilation, c->t != 0, k->output_padding, (int)c->g, k->mask, (int8_t)c->cube,
        k->tensor[T_DX], k->tensor[T_DW], k->tensor[T_DB], &k->workspace_size, &k->executor);
    if (st != ACLNN_SUCCESS) return fail(r, "aclnnConvolutionBackwardGetWorkspaceSize", st);
    return 0;
}

static int run_once(void *arg)
{
    acl_call *k = arg;
    aclnnStatus st =
        aclnnConvolutionBackward(k->workspace, k->workspace_size, k->executor, k->stream);
    if (st != ACLNN_SUCCESS) return (int)st;
    return (int)aclrtSynchronizeStream(k->stream);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Reads output t back to the host as float (NULL when not computed). */
static float *read_back(const acl_call *k, int t, aclDataType dt)
{
    if (k->tensor[t] == NULL) return NULL;
    const int64_t n = k->numel[t];
    const size_t bytes = (size_t)n * dtype_bytes(dt);
    void *staging = malloc(bytes ? bytes : 1);
    float *out = malloc((size_t)(n ? n : 1) * sizeof(float));
    if (staging == NULL || out == NULL ||
        aclrtMemcpy(staging, bytes, k->dev[t], bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
        free(staging);
        free(out);
        return NULL;
    }
    load_dtype(out, staging, n, dt);
    free(staging);
    return out;
}

int acl_bench_case(const bench_case *c, const bench_opts *o, void *stream, acl_result *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->impl[0], sizeof r->impl[0], "-");
    snprintf(r->impl[1], sizeof r->impl[1], "-");
    acl_call k;
    memset(&k, 0, sizeof k);
    k.stream = stream;
    const int want[T_COUNT] = {1,
                               1,
                               1,
                               (c->mask & BENCH_MASK_DATA) != 0,
                               (c->mask & BENCH_MASK_WEIGHT) != 0,
                               (c->mask & BENCH_MASK_WEIGHT) != 0};
    bench_case_grad_output_shape(c, k.shape[T_DY]);
    bench_case_input_shape(c, k.shape[T_X]);
    bench_case_weight_shape(c, k.shape[T_W]);
    bench_case_input_shape(c, k.shape[T_DX]);
    bench_case_weight_shape(c, k.shape[T_DW]);
    k.shape[T_DB][0] = c->o;
    bench_rng rng;
    bench_rng_seed(&rng, o->seed ^ bench_rng_hash(c->name));
    int rc = -1;
    for (int t = 0; t < T_COUNT; ++t) {
        k.rank[t] = t == T_DB ? 1 : c->dims + 2;
        k.numel[t] = bench_shape_numel(k.shape[t], k.rank[t]);
        if (!want[t]) continue;
        r->tensor_bytes += (uint64_t)k.numel[t] * dtype_bytes(c->dtype);
        if (make_tensor(&k, t, c->dtype, t <= T_W, &rng, r) != 0) goto done;
    }
    int64_t pads[3], op[3], bias = c->o;
    for (int j = 0; j < c->dims; ++j) {
        pads[j] = c->p[j];
        op[j] = c->op[j];
    }
    const bool mask[3] = {want[T_DX], want[T_DW], want[T_DB]};
    k.bias_sizes = aclCreateIntArray(&bias, 1);
    k.stride = aclCreateIntArray(c->s, (uint64_t)c->dims);
    k.padding = aclCreateIntArray(pads, (uint64_t)c->dims);
    k.dilation = aclCreateIntArray(c->d, (uint64_t)c->dims);
    k.output_padding = aclCreateIntArray(op, (uint64_t)c->dims);
    k.mask = aclCreateBoolArray(mask, 3);
    if (!k.bias_sizes || !k.stride || !k.padding || !k.dilation || !k.output_padding || !k.mask) {
        fail(r, "aclCreateIntArray", 0);
        goto done;
    }

    /* plan time: median of plan_reps calls; the last executor is kept */
    enum { MAX_PLAN_REPS = 64 };
    double plan_ms[MAX_PLAN_REPS];
    const int plan_reps = o->plan_reps < 1               ? 1
                          : o->plan_reps > MAX_PLAN_REPS ? MAX_PLAN_REPS
                                                         : o->plan_reps;
    for (int i = 0; i < plan_reps; ++i) {
        if (k.executor != NULL) {
            aclSetAclOpExecutorRepeatable(k.executor); /* releasable unrun, as in CANN */
            aclDestroyAclOpExecutor(k.executor);
            k.executor = NULL;
        }
        double t0 = bench_now();
        if (plan(&k, c, r) != 0) goto done;
        plan_ms[i] = (bench_now() - t0) * 1e3;
    }
    qsort(plan_ms, (size_t)plan_reps, sizeof plan_ms[0], cmp_double);
    r->plan_ms = plan_ms[plan_reps / 2];
    r->workspace = k.workspace_size;
    {
        acl_bench_impl_names(k.tensor[T_DY], k.tensor[T_X], k.tensor[T_W], k.bias_sizes, k.stride,
                             k.padding, k.dilation, c->t != 0, k.output_padding, (int)c->g, k.mask,
                             (int8_t)c->cube, k.tensor[T_DX], k.tensor[T_DW], k.tensor[T_DB],
                             r->impl);
    }
    aclnnStatus st = aclSetAclOpExecutorRepeatable(k.executor);
    if (st != ACLNN_SUCCESS) {
        fail(r, "aclSetAclOpExecutorRepeatable", st);
        goto done;
    }
    if (k.workspace_size > 0) {
        aclError e = aclrtMalloc(&k.workspace, (size_t)k.workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
        if (e != ACL_SUCCESS) {
            fail(r, "aclrtMalloc(workspace)", e);
            goto done;
        }
    }
    int trc = bench_time(run_once, &k, o, &r->exec);
    if (trc != 0) {
        fail(r, "aclnnConvolutionBackward + aclrtSynchronizeStream", trc);
        goto done;
    }
    r->ok = 1;
    rc = 0;
    if (o->check) {
        float *dx = read_back(&k, T_DX, c->dtype), *dw = read_back(&k, T_DW, c->dtype),
              *db = read_back(&k, T_DB, c->dtype);
        if ((want[T_DX] && !dx) || (want[T_DW] && !dw) || (want[T_DB] && !db)) {
            snprintf(r->err, sizeof r->err, "reading the results back failed");
            r->ok = 0;
            rc = -1;
        } else {
            bench_host h = {k.host[T_DY], k.host[T_X], k.host[T_W], dx, dw, db};
            bench_check(c, &h, o, r);
        }
        free(dx);
        free(dw);
        free(db);
    }
done:
    if (k.executor != NULL) aclDestroyAclOpExecutor(k.executor);
    if (k.workspace != NULL) aclrtFree(k.workspace);
    aclDestroyIntArray(k.bias_sizes);
    aclDestroyIntArray(k.stride);
    aclDestroyIntArray(k.padding);
    aclDestroyIntArray(k.dilation);
    aclDestroyIntArray(k.output_padding);
    aclDestroyBoolArray(k.mask);
    for (int t = 0; t < T_COUNT; ++t) {
        aclDestroyTensor(k.tensor[t]);
        if (k.dev[t] != NULL) aclrtFree(k.dev[t]);
        free(k.host[t]);
    }
    return rc;
}

int bench_time(int (*fn)(void *), void *arg, const bench_opts *o, bench_timing *t)
{
    memset(t, 0, sizeof *t);
    const double start = bench_now();
    int rc = fn(arg); /* warm-up */
    const double warm = bench_now() - start;
    if (rc != 0) return rc;
    if (warm >= o->max_case_seconds) {
        t->median_ms = t->min_ms = warm * 1e3;
        t->reps = 1;
        t->capped = 1;
        return 0;
    }
    const int max_reps = o->max_reps < 1 ? 1 : o->max_reps;
    double *samples = malloc((size_t)max_reps * sizeof *samples);
    if (samples == NULL) return -1;
    double timed = 0.0;
    int n = 0;
    while (n < max_reps) {
        double t0 = bench_now();
        rc = fn(arg);
        double dt = bench_now() - t0;
        if (rc != 0) break;
        samples[n++] = dt;
        timed += dt;
        if (timed >= o->min_time) break;
        if (bench_now() - start >= o->max_case_seconds) {
            t->capped = 1;
            break;
        }
    }
    if (rc == 0) {
        qsort(samples, (size_t)n, sizeof *samples, cmp_double);
        t->reps = n;
        t->min_ms = samples[0] * 1e3;
        t->median_ms = (n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2])) * 1e3;
    }
    free(samples);
    return rc;
}
