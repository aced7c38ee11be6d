/*
 * Shared by the robustness tests (test_faults.c, test_concurrency.c,
 * test_executor.c): one convolution-backward call built through the public
 * API only, with its device buffers, so a test can plan it, run it, read the
 * gradients back and compare them bitwise with another run.
 *
 * Header-only (static functions): each test is its own program.
 */
#ifndef ACLCONV_TEST_ROBUST_CASE_H_
#define ACLCONV_TEST_ROBUST_CASE_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_convolution_backward.h"

#include "test_check.h"

enum { RC_DY, RC_X, RC_W, RC_DX, RC_DW, RC_DB, RC_NT };

/* The problem: regular or transposed convolution of rank 1..3, FLOAT or
 * FLOAT16 / BF16, contiguous tensors. */
typedef struct rcase {
    int rank;
    bool transposed;
    int64_t n, cin, cout, groups; /* cin, cout: channels of input and gradOutput */
    int64_t in[3], k[3], s[3], p[3], d[3];
    aclDataType dt;
    bool mask[3];
    int8_t cube;
    uint32_t seed; /* of the input values */
} rcase;

typedef struct rbufs {
    int64_t shape[RC_NT][5];
    uint64_t nd[RC_NT];
    size_t bytes[RC_NT];
    void *mem[RC_NT];
    aclTensor *t[RC_NT];
    aclIntArray *stride, *pad, *dil, *outpad, *bias;
    aclBoolArray *mask;
} rbufs;

static inline rcase rcase_2d(int64_t n, int64_t cin, int64_t cout, int64_t h, int64_t w, int64_t k)
{
    rcase c;
    memset(&c, 0, sizeof c);
    c.rank = 2;
    c.n = n, c.cin = cin, c.cout = cout, c.groups = 1;
    c.in[0] = h, c.in[1] = w;
    for (int i = 0; i < 3; ++i) c.k[i] = k, c.s[i] = 1, c.p[i] = k / 2, c.d[i] = 1;
    c.dt = ACL_FLOAT;
    c.mask[0] = c.mask[1] = c.mask[2] = true;
    c.seed = 1;
    return c;
}

static inline int64_t rc_out_size(const rcase *c, int i)
{
    if (c->transposed)
        return (c->in[i] - 1) * c->s[i] - 2 * c->p[i] + c->d[i] * (c->k[i] - 1) + 1;
    return (c->in[i] + 2 * c->p[i] - c->d[i] * (c->k[i] - 1) - 1) / c->s[i] + 1;
}

static inline size_t rc_numel(const rbufs *b, int i)
{
    size_t n = 1;
    for (uint64_t k = 0; k < b->nd[i]; ++k) n *= (size_t)b->shape[i][k];
    return n;
}

static inline uint32_t rc_lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Values k/64 in [-1, 1): exact in every float dtype, in the dtype's bits. */
static inline void rc_fill(void *mem, size_t numel, aclDataType dt, uint32_t *seed)
{
    for (size_t i = 0; i < numel; ++i) {
        float v = (float)((int)(rc_lcg(seed) % 128) - 64) / 64.0f;
        uint32_t u;
        memcpy(&u, &v, 4);
        if (dt == ACL_FLOAT) {
            memcpy((char *)mem + 4 * i, &u, 4);
        } else if (dt == ACL_BF16) {
            uint16_t h = (uint16_t)(u >> 16); /* exact: few mantissa bits */
            memcpy((char *)mem + 2 * i, &h, 2);
        } else { /* FLOAT16: v = m/64, |m| <= 64 */
            uint16_t h = 0;
            if (v != 0.0f) {
                uint32_t sign = u >> 31, exp = (u >> 23) & 0xff, man = u & 0x7fffff;
                h = (uint16_t)(sign << 15 | (exp - 127 + 15) << 10 | man >> 13);
            }
            memcpy((char *)mem + 2 * i, &h, 2);
        }
    }
}

/* Allocates and fills the buffers, creates the tensors and arrays. Returns 0,
 * or -1 after a failed create / malloc (what exists is left in b for
 * rbufs_destroy; *failed_status gets the failing call's status). */
static inline int rbufs_create(const rcase *c, rbufs *b, long *failed_status)
{
    memset(b, 0, sizeof *b);
    const uint64_t nd = (uint64_t)c->rank + 2;
    int64_t *x = b->shape[RC_X], *w = b->shape[RC_W], *y = b->shape[RC_DY];
    x[0] = y[0] = c->n;
    x[1] = c->cin;
    y[1] = c->cout;
    w[0] = c->transposed ? c->cin : c->cout;
    w[1] = c->transposed ? c->cout / c->groups : c->cin / c->groups;
    for (int i = 0; i < c->rank; ++i) {
        x[2 + i] = c->in[i];
        w[2 + i] = c->k[i];
        y[2 + i] = rc_out_size(c, i);
    }
    memcpy(b->shape[RC_DX], x, sizeof b->shape[0]);
    memcpy(b->shape[RC_DW], w, sizeof b->shape[0]);
    b->shape[RC_DB][0] = c->cout;
    for (int i = 0; i < RC_NT; ++i) b->nd[i] = i == RC_DB ? 1 : nd;
    const aclFormat fmt = nd == 3 ? ACL_FORMAT_NCL : nd == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW;
    uint32_t seed = c->seed;
    *failed_status = 0;
    for (int i = 0; i < RC_NT; ++i) {
        const size_t es = aclDataTypeSize(c->dt);
        b->bytes[i] = rc_numel(b, i) * es;
        aclError e = aclrtMalloc(&b->mem[i], b->bytes[i], ACL_MEM_MALLOC_HUGE_FIRST);
        if (e != ACL_SUCCESS) {
            b->mem[i] = NULL;
            *failed_status = e;
            return -1;
        }
        if (i < RC_DX)
            rc_fill(b->mem[i], rc_numel(b, i), c->dt, &seed);
        else
            memset(b->mem[i], 0x7f, b->bytes[i]); /* outputs: garbage until written */
        b->t[i] = aclCreateTensor(b->shape[i], b->nd[i], c->dt, NULL, 0,
                                  i == RC_DB ? ACL_FORMAT_ND : fmt, b->shape[i], b->nd[i],
                                  b->mem[i]);
        if (b->t[i] == NULL) {
            *failed_status = -1;
            return -1;
        }
    }
    int64_t s[3], p[3], d[3], op[3] = {0, 0, 0}, bias[1] = {c->cout};
    for (int i = 0; i < c->rank; ++i) s[i] = c->s[i], p[i] = c->p[i], d[i] = c->d[i];
    if ((b->stride = aclCreateIntArray(s, (uint64_t)c->rank)) == NULL ||
        (b->pad = aclCreateIntArray(p, (uint64_t)c->rank)) == NULL ||
        (b->dil = aclCreateIntArray(d, (uint64_t)c->rank)) == NULL ||
        (b->outpad = aclCreateIntArray(op, (uint64_t)c->rank)) == NULL ||
        (b->bias = aclCreateIntArray(bias, 1)) == NULL ||
        (b->mask = aclCreateBoolArray(c->mask, 3)) == NULL) {
        *failed_status = -1;
        return -1;
    }
    return 0;
}

static inline void rbufs_destroy(rbufs *b)
{
    for (int i = 0; i < RC_NT; ++i) {
        aclDestroyTensor(b->t[i]);
        if (b->mem[i] != NULL) aclrtFree(b->mem[i]);
    }
    aclDestroyIntArray(b->stride);
    aclDestroyIntArray(b->pad);
    aclDestroyIntArray(b->dil);
    aclDestroyIntArray(b->outpad);
    aclDestroyIntArray(b->bias);
    aclDestroyBoolArray(b->mask);
    memset(b, 0, sizeof *b);
}

/* Phase 1 with the outputs of b (a NULL tensor where the mask is false,
 * unless keep_unmasked). */
static inline aclnnStatus rc_plan(const rcase *c, rbufs *b, uint64_t *ws, aclOpExecutor **ex)
{
    return aclnnConvolutionBackwardGetWorkspaceSize(
        b->t[RC_DY], b->t[RC_X], b->t[RC_W], b->bias, b->stride, b->pad, b->dil, c->transposed,
        b->outpad, (int)c->groups, b->mask, c->cube, c->mask[0] ? b->t[RC_DX] : NULL,
        c->mask[1] ? b->t[RC_DW] : NULL, c->mask[2] ? b->t[RC_DB] : NULL, ws, ex);
}

/* The requested outputs' bytes, concatenated (caller frees). */
static inline unsigned char *rc_outputs(const rcase *c, const rbufs *b, size_t *len)
{
    size_t total = 0;
    for (int i = RC_DX; i < RC_NT; ++i)
        if (c->mask[i - RC_DX]) total += b->bytes[i];
    unsigned char *out = malloc(total ? total : 1), *p = out;
    for (int i = RC_DX; i < RC_NT; ++i) {
        if (!c->mask[i - RC_DX]) continue;
        memcpy(p, b->mem[i], b->bytes[i]);
        p += b->bytes[i];
    }
    *len = total;
    return out;
}

/* Plans, runs on stream and synchronizes; the outputs (malloc'ed) go to *out.
 * 0 on success. */
static inline int rc_run_once(const rcase *c, aclrtStream stream, unsigned char **out, size_t *len)
{
    rbufs b;
    long fs;
    int rc = -1;
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    void *wsp = NULL;
    *out = NULL;
    if (rbufs_create(c, &b, &fs) != 0) goto done;
    if (rc_plan(c, &b, &ws, &ex) != ACLNN_SUCCESS) goto done;
    if (ws > 0 && aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        aclDestroyAclOpExecutor(ex);
        goto done;
    }
    if (aclnnConvolutionBackward(wsp, ws, ex, stream) != ACLNN_SUCCESS) {
        aclDestroyAclOpExecutor(ex); /* not consumed by an argument error */
        goto done;
    }
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) goto done;
    *out = rc_outputs(c, &b, len);
    rc = 0;
done:
    if (rc != 0) printf("rc_run_once failed: %s\n", aclGetRecentErrMsg());
    if (wsp != NULL) aclrtFree(wsp);
    rbufs_destroy(&b);
    return rc;
}

#endif /* ACLCONV_TEST_ROBUST_CASE_H_ */
