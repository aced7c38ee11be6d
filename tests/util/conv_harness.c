#include "conv_harness.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclconv/aclconv.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "common/dtype.h"
#include "test_rng.h"

#define GUARD_BYTES 64
#define GUARD_BYTE 0xE7
#define SENTINEL_BYTE 0x5C
#define WORKSPACE_BYTE 0xA5
#define MAX_RANK 5
/* extra elements a view may skip per dim, and the largest offset */
#define VIEW_MAX_GAP 2
#define VIEW_MAX_OFFSET 7

static int g_inited;
static aclrtStream g_stream;

int th_init(void)
{
    if (g_inited) return 0;
    aclError e = aclInit(NULL);
    if (e != ACL_SUCCESS && e != ACL_ERROR_REPEAT_INITIALIZE) {
        fprintf(stderr, "aclInit failed: %d\n", (int)e);
        return -1;
    }
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&g_stream) != ACL_SUCCESS) {
        fprintf(stderr, "aclrtSetDevice / aclrtCreateStream failed\n");
        return -1;
    }
    g_inited = 1;
    return 0;
}

aclrtStream th_stream(void) { return g_stream; }

void th_finish(void)
{
    if (!g_inited) return;
    aclrtDestroyStream(g_stream);
    aclrtResetDevice(0);
    aclFinalize();
    g_inited = 0;
}

void th_outputs_free(th_outputs *o)
{
    free(o->dx), free(o->dw), free(o->db);
    o->dx = o->dw = o->db = NULL;
}

typedef struct th_buf {
    int rank;
    int64_t shape[MAX_RANK], strides[MAX_RANK], offset, storage; /* elements */
    size_t esize, bytes;                                         /* bytes: storage only */
    aclDataType dt;
    void *dev;           /* storage + GUARD_BYTES */
    unsigned char *save; /* copy before the run */
    unsigned char *in_view; /* per storage element: 1 when the view covers it */
    aclTensor *t;
    int numel;
} th_buf;

static void layout(test_rng *r, int view, th_buf *b)
{
    int order[MAX_RANK]; /* storage order, outermost first */
    int64_t ext[MAX_RANK];
    for (int i = 0; i < b->rank; ++i) order[i] = i, ext[i] = b->shape[i];
    b->offset = 0;
    if (view) {
        if (b->rank > 1 && rng_chance(r, 1, 2)) /* random storage order (e.g. channels last) */
            for (int i = b->rank - 1; i > 0; --i) {
                int j = (int)rng_range(r, 0, i), t = order[i];
                order[i] = order[j], order[j] = t;
            }
        for (int i = 0; i < b->rank; ++i) ext[i] += rng_range(r, 0, VIEW_MAX_GAP);
        b->offset = rng_range(r, 1, VIEW_MAX_OFFSET);
    }
    int64_t st = 1;
    for (int i = b->rank - 1; i >= 0; --i) {
        b->strides[order[i]] = st;
        st *= ext[order[i]];
    }
    b->storage = b->offset + st;
}

static int64_t view_numel(const th_buf *b)
{
    int64_t n = 1;
    for (int i = 0; i < b->rank; ++i) n *= b->shape[i];
    return n;
}

/* Storage index of the dense (row-major) element e of the view. */
static int64_t view_index(const th_buf *b, int64_t e)
{
    int64_t idx = b->offset;
    for (int i = b->rank - 1; i >= 0; --i) {
        idx += (e % b->shape[i]) * b->strides[i];
        e /= b->shape[i];
    }
    return idx;
}

static aclFormat format_of(int rank)
{
    return rank == 4 ? ACL_FORMAT_NCHW : rank == 5 ? ACL_FORMAT_NCDHW : rank == 3 ? ACL_FORMAT_NCL
                                                                                   : ACL_FORMAT_ND;
}

/* Allocates and fills one buffer: sentinel everywhere, guard after, then
 * values (inputs) or NaN (outputs) inside the view. */
static int buf_make(th_buf *b, const float *values, int is_output)
{
    b->esize = aclDataTypeSize(b->dt);
    b->bytes = (size_t)b->storage * b->esize;
    if (aclrtMalloc(&b->dev, b->bytes + GUARD_BYTES, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
        return -1;
    unsigned char *mem = (unsigned char *)b->dev;
    memset(mem, SENTINEL_BYTE, b->bytes);
    memset(mem + b->bytes, GUARD_BYTE, GUARD_BYTES);
    b->in_view = (unsigned char *)calloc((size_t)b->storage + 1, 1);
    if (!b->in_view) return -1;
    const int64_t n = view_numel(b);
    for (int64_t e = 0; e < n; ++e) {
        const int64_t idx = view_index(b, e);
        b->in_view[idx] = 1;
        store_from_f32(mem, b->dt, idx, is_output ? NAN : values[e]);
    }
    b->save = (unsigned char *)malloc(b->bytes + GUARD_BYTES);
    if (!b->save) return -1;
    memcpy(b->save, mem, b->bytes + GUARD_BYTES);
    int64_t sdims[1] = {b->storage};
    b->t = aclCreateTensor(b->shape, (uint64_t)b->rank, b->dt, b->strides, b->offset,
                           format_of(b->rank), sdims, 1, b->dev);
    return b->t ? 0 : -1;
}

static void buf_free(th_buf *b)
{
    if (b->t) aclDestroyTensor(b->t);
    if (b->dev) aclrtFree(b->dev);
    free(b->save), free(b->in_view);
    memset(b, 0, sizeof *b);
}

/* Bytes that must be unchanged: all of them (whole = 1) or those outside the
 * view. Returns the first changed byte offset, or -1. */
static int64_t buf_changed(const th_buf *b, int whole)
{
    const unsigned char *mem = (const unsigned char *)b->dev;
    for (size_t i = 0; i < b->bytes + GUARD_BYTES; ++i) {
        if (!whole && i < b->bytes && b->in_view[i / b->esize]) continue;
        if (mem[i] != b->save[i]) return (int64_t)i;
    }
    return -1;
}

static float *buf_read(const th_buf *b)
{
    const int64_t n = view_numel(b);
    float *v = (float *)malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
    if (!v) return NULL;
    for (int64_t e = 0; e < n; ++e) v[e] = load_as_f32(b->dev, b->dt, view_index(b, e));
    return v;
}

static const char *k_tensor_names[REF_T_COUNT] = {"gradOutput", "input",      "weight",
                                                  "gradInput",  "gradWeight", "gradBias"};

int th_run(const ref_problem *p, const conv_data *d, int threads, th_outputs *out, char *msg,
           size_t msg_len)
{
    memset(out, 0, sizeof *out);
    msg[0] = '\0';
    if (th_init() != 0) {
        snprintf(msg, msg_len, "runtime init failed");
        return -1;
    }
    if (threads > 0 && aclconvSetNumThreads(threads) != ACL_SUCCESS) {
        snprintf(msg, msg_len, "aclconvSetNumThreads(%d) failed", threads);
        return -1;
    }
    test_rng r;
    rng_seed(&r, p->seed ^ 0x9a7e5ull);
    th_buf b[REF_T_COUNT];
    memset(b, 0, sizeof b);
    const float *vals[REF_T_COUNT] = {d->dy, d->x, d->w, NULL, NULL, NULL};
    const int mask_bit[REF_T_COUNT] = {0, 0, 0, REF_MASK_DX, REF_MASK_DW, REF_MASK_DB};
    int present[REF_T_COUNT];
    int rc = -1;
    aclIntArray *bias_sizes = NULL, *stride = NULL, *padding = NULL, *dilation = NULL,
                *out_pad = NULL;
    aclBoolArray *mask = NULL;
    void *ws = NULL;
    aclOpExecutor *exec = NULL;

    for (int t = 0; t < REF_T_COUNT; ++t) {
        b[t].dt = p->dt[t];
        b[t].rank = ref_problem_shape(p, t, b[t].shape);
        layout(&r, p->view[t], &b[t]);
        const int is_out = t >= REF_T_DX;
        /* a masked-off output: NULL or a prepared tensor that must stay untouched */
        present[t] = !is_out || (p->mask & mask_bit[t]) || rng_chance(&r, 1, 2);
        if (!present[t]) continue;
        if (buf_make(&b[t], vals[t], is_out) != 0) {
            snprintf(msg, msg_len, "allocating %s failed: %s", k_tensor_names[t],
                     aclGetRecentErrMsg());
            goto done;
        }
    }
    {
        int64_t v[4];
        v[0] = p->c_out;
        bias_sizes = aclCreateIntArray(v, 1);
        stride = aclCreateIntArray(p->s, (uint64_t)p->dims);
        dilation = aclCreateIntArray(p->d, (uint64_t)p->dims);
        out_pad = aclCreateIntArray(p->op, (uint64_t)p->dims);
        if (p->pad4) {
            v[0] = p->ph[0], v[1] = p->pt[0], v[2] = p->ph[1], v[3] = p->pt[1];
            padding = aclCreateIntArray(v, 4);
        } else {
            padding = aclCreateIntArray(p->ph, (uint64_t)p->dims);
        }
        bool m[3] = {(p->mask & REF_MASK_DX) != 0, (p->mask & REF_MASK_DW) != 0,
                     (p->mask & REF_MASK_DB) != 0};
        mask = aclCreateBoolArray(m, 3);
        if (!bias_sizes || !stride || !dilation || !out_pad || !padding || !mask) {
            snprintf(msg, msg_len, "creating the attribute arrays failed");
            goto done;
        }
    }
    out->ws_status = aclnnConvolutionBackwardGetWorkspaceSize(
        b[REF_T_DY].t, b[REF_T_X].t, b[REF_T_W].t, bias_sizes, stride, padding, dilation,
        p->transposed != 0, out_pad, (int)p->groups, mask, (int8_t)p->cube_math, b[REF_T_DX].t,
        b[REF_T_DW].t, b[REF_T_DB].t, &out->workspace_size, &exec);
    if (out->ws_status != ACLNN_SUCCESS) {
        snprintf(msg, msg_len, "aclnnConvolutionBackwardGetWorkspaceSize returned %d: %s",
                 (int)out->ws_status, aclGetRecentErrMsg());
        goto done;
    }
    if (out->workspace_size > 0) {
        if (aclrtMalloc(&ws, out->workspace_size + GUARD_BYTES, ACL_MEM_MALLOC_HUGE_FIRST) !=
            ACL_SUCCESS) {
            snprintf(msg, msg_len, "workspace allocation of %" PRIu64 " bytes failed",
                     out->workspace_size);
            goto done;
        }
        memset(ws, WORKSPACE_BYTE, out->workspace_size);
        memset((unsigned char *)ws + out->workspace_size, GUARD_BYTE, GUARD_BYTES);
    }
    out->run_status = aclnnConvolutionBackward(ws, out->workspace_size, exec, th_stream());
    exec = NULL; /* consumed */
    if (out->run_status != ACLNN_SUCCESS) {
        snprintf(msg, msg_len, "aclnnConvolutionBackward returned %d: %s", (int)out->run_status,
                 aclGetRecentErrMsg());
        goto done;
    }
    out->sync_status = aclrtSynchronizeStream(th_stream());
    if (out->sync_status != ACL_SUCCESS) {
        snprintf(msg, msg_len, "aclrtSynchronizeStream returned %d: %s", (int)out->sync_status,
                 aclGetRecentErrMsg());
        goto done;
    }

    /* memory checks */
    out->memory_ok = 1;
    if (ws) {
        const unsigned char *g = (const unsigned char *)ws + out->workspace_size;
        for (int i = 0; i < GUARD_BYTES; ++i)
            if (g[i] != GUARD_BYTE) {
                snprintf(msg, msg_len, "workspace guard byte %d after %" PRIu64 " bytes changed",
                         i, out->workspace_size);
                out->memory_ok = 0;
                break;
            }
    }
    for (int t = 0; t < REF_T_COUNT && out->memory_ok; ++t) {
        if (!present[t]) continue;
        const int whole = t < REF_T_DX || !(p->mask & mask_bit[t]);
        const int64_t at = buf_changed(&b[t], whole);
        if (at >= 0) {
            const char *where = (size_t)at >= b[t].bytes ? "guard bytes after the storage"
                                : whole && t < REF_T_DX ? "input buffer"
                                : whole ? "masked-off output"
                                        : "storage gap outside the view";
            snprintf(msg, msg_len, "%s: byte %" PRId64 " changed (%s; storage %" PRId64
                     " elements, offset %" PRId64 ")",
                     k_tensor_names[t], at, where, b[t].storage, b[t].offset);
            out->memory_ok = 0;
        }
    }
    if (p->mask & REF_MASK_DX) out->dx = buf_read(&b[REF_T_DX]);
    if (p->mask & REF_MASK_DW) out->dw = buf_read(&b[REF_T_DW]);
    if (p->mask & REF_MASK_DB) out->db = buf_read(&b[REF_T_DB]);
    rc = out->memory_ok ? 0 : -1;
done:
    if (exec) aclDestroyAclOpExecutor(exec);
    if (ws) aclrtFree(ws);
    aclDestroyIntArray(bias_sizes), aclDestroyIntArray(stride), aclDestroyIntArray(padding);
    aclDestroyIntArray(dilation), aclDestroyIntArray(out_pad), aclDestroyBoolArray(mask);
    for (int t = 0; t < REF_T_COUNT; ++t) buf_free(&b[t]);
    return rc;
}
