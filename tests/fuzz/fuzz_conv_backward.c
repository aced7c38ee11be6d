/*
 * Fuzz harness for the whole public API around aclnnConvolutionBackward.
 *
 * One input is decoded into:
 *   1. a header (FUZZ_HEADER_BYTES) describing a *valid* convolution-backward
 *      problem (rank, transposed, N, groups, channels, kernel, stride,
 *      dilation, padding, dtypes, output mask, cubeMathType, strided layouts),
 *      plus run options (stream choice, repeatable, number of runs, workspace
 *      variant, fault injection);
 *   2. a list of mutations, each one opcode byte and its arguments, that
 *      overwrite any part of that call: ranks, dims, strides, offsets,
 *      storage dims (negative, zero, huge, overflowing), formats, dtypes,
 *      attribute arrays of any length and value, masks, groups,
 *      cubeMathType, NULL tensors / arrays / data, buffers shared between
 *      tensors.
 * With no mutation the call is valid, so libFuzzer starts from deep paths and
 * mutates from there. The decoded call goes through aclCreateTensor /
 * aclCreateIntArray / aclCreateBoolArray, the shape queries,
 * aclnnConvolutionBackwardGetWorkspaceSize and, when the library accepts it
 * and the problem is small (<= FUZZ_MAX_NUMEL elements per tensor,
 * <= FUZZ_MAX_MACS multiply-adds), aclnnConvolutionBackward on a stream
 * followed by aclrtSynchronizeDevice.
 *
 * Oracles (abort() with a message when one fails, so libFuzzer and the
 * replay driver report it):
 *   - a create function that fails returns NULL with a message;
 *   - an accepted call has every view inside its storage and no written
 *     output overlapping an input, another written output or itself;
 *   - the executor life cycle answers as documented (run twice, destroy
 *     twice, bad workspace, bad stream ...) when no allocation is failed;
 *   - every tensor buffer is guarded (GUARD bytes before and after the exact
 *     storage bytes, poisoned under ASan): after the run, every byte that is
 *     not an element of a requested output's view is unchanged, guards
 *     included; the workspace is guarded too;
 *   - under ASan/UBSan/LSan: no invalid access, no UB, no leak.
 *
 * Built two ways (tests/fuzz/CMakeLists.txt): with -fsanitize=fuzzer (clang,
 * ACLCONV_FUZZ=ON), and with replay_main.c as a plain program that runs each
 * file given (the ctest fuzz_corpus_replay).
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "common/alloc.h"
#include "aclconv/aclconv.h"
#include "common/log.h"
#include "../util/view_overlap.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_ASAN 1
#endif
#ifdef FUZZ_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_HEADER_BYTES 30
#define FUZZ_MAX_NUMEL 4096         /* elements of a view executed for real */
#define FUZZ_MAX_STORAGE 16384      /* storage elements allocated for real */
#define FUZZ_MAX_MACS 1000000       /* multiply-adds of an executed problem */
#define FUZZ_MAX_WORKSPACE (64u << 20)
#define GUARD 64
#define NT 6   /* tensors */
#define NA 5   /* int arrays */
#define MAXD 16 /* dims we keep per tensor (the API allows 8) */
#define MAXA 16 /* values we keep per array */

enum { T_DY, T_X, T_W, T_DX, T_DW, T_DB };
enum { A_STRIDE, A_PAD, A_DIL, A_OUTPAD, A_BIAS };
static const char *const k_tensor_names[NT] = {"gradOutput", "input",      "weight",
                                               "gradInput",  "gradWeight", "gradBias"};

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "fuzz oracle failed at %s:%d: ", __FILE__, __LINE__);                     \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fprintf(stderr, "\n  recent error: %s\n", aclGetRecentErrMsg());                           \
        abort();                                                                                   \
    } while (0)

/* ---- byte reader ------------------------------------------------------------ */

typedef struct reader {
    const uint8_t *p;
    size_t n, i;
} reader;

static uint8_t rd_u8(reader *r) { return r->i < r->n ? r->p[r->i++] : 0; }

static uint64_t rd_u64(reader *r)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v = v << 8 | rd_u8(r);
    return v;
}

static const int64_t k_special[32] = {
    -1,         -2,          INT64_MIN,           INT64_MAX,          INT64_MAX - 1,
    INT32_MAX,  INT32_MIN,   (int64_t)INT32_MAX + 1, UINT32_MAX,      (int64_t)1 << 32,
    (int64_t)1 << 40,        (int64_t)1 << 62,    -((int64_t)1 << 62), 4096,
    4097,       65535,       65536,               3037000499LL,       3037000500LL,
    (int64_t)1 << 31,        100,                 255,                256,
    1000,       12,          13,                  16,                 31,
    32,         63,          INT64_MIN + 1,       -7};

/* Mostly small values (0..11), sometimes the edges of int32/int64 or raw bytes. */
static int64_t rd_val(reader *r)
{
    uint8_t k = rd_u8(r);
    if (k < 0xC0) return k % 12;
    if (k < 0xE0) return k_special[k - 0xC0];
    return (int64_t)rd_u64(r);
}

/* ---- the decoded call --------------------------------------------------------- */

typedef struct tdesc {
    bool present;     /* false: pass NULL */
    uint64_t ndim;    /* as passed (may exceed MAXD: then the array has MAXD entries) */
    int64_t dim[MAXD];
    bool stride_null;
    int64_t stride[MAXD];
    int64_t offset;
    uint64_t sndim;
    int64_t storage[MAXD];
    int32_t format;
    int32_t dtype;
    bool data_null;   /* tensorData NULL */
    int buf;          /* buffer it views: its own index, or another tensor's (aliasing) */
    size_t buf_off;   /* bytes into that buffer */
} tdesc;

typedef struct adesc {
    bool present;
    uint64_t len; /* as passed; > MAXA only when huge (the library must refuse it) */
    int64_t v[MAXA];
} adesc;

typedef struct call {
    tdesc t[NT];
    adesc a[NA];
    bool mask_present;
    uint64_t mask_len;
    bool mask[MAXA];
    int groups;
    int8_t cube;
    bool transposed;
    /* run options */
    int stream_kind;   /* 0 created, 1 default (NULL), 2 garbage handle, 3 destroyed handle */
    int isa;           /* 0: the best; 1 + aclconvIsa: the cap for planning */
    int threads;       /* 0: default; else aclconvSetNumThreads(threads) for planning */
    bool repeatable;
    int runs;          /* 0..3 */
    int ws_mode;       /* 0 exact, 1 one byte short, 2 NULL, 3 misaligned, 4 NULL out-pointers */
    bool destroy_after;
    long fail_at;      /* aclconvTestFailAllocAt, 0: none */
    uint32_t seed;
} call;

static size_t dt_size(int32_t dt)
{
    size_t s = aclDataTypeSize((aclDataType)dt);
    return s == 0 ? (size_t)1 : s > 16 ? (size_t)16 : s;
}

static int32_t rank_format(uint64_t ndim)
{
    return ndim == 3 ? ACL_FORMAT_NCL : ndim == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW;
}

/* Sets t to a tensor of the given shape: dense, or (strided) channels-last
 * with a gap after every row and an offset, over 1-D storage. */
static void shape_tensor(tdesc *t, const int64_t *dims, uint64_t nd, int32_t dtype, bool strided)
{
    memset(t, 0, sizeof *t);
    t->present = true;
    t->ndim = nd;
    memcpy(t->dim, dims, nd * sizeof *dims);
    t->dtype = dtype;
    t->format = nd == 1 ? ACL_FORMAT_ND : rank_format(nd);
    int64_t s = 1;
    if (!strided || nd < 2) {
        for (uint64_t i = nd; i-- > 0;) t->stride[i] = s, s *= dims[i];
        t->sndim = nd;
        memcpy(t->storage, dims, nd * sizeof *dims);
        return;
    }
    /* memory order: C innermost, then the others from last to first, each
     * with one element of gap */
    t->stride[1] = 1;
    s = dims[1] + 1;
    for (uint64_t i = nd; i-- > 0;) {
        if (i == 1) continue;
        t->stride[i] = s;
        s = s * dims[i] + 1;
    }
    t->offset = 3;
    t->sndim = 1;
    t->storage[0] = s + 3;
}

static void decode(const uint8_t *data, size_t size, call *c)
{
    reader hr = {data, size < FUZZ_HEADER_BYTES ? size : FUZZ_HEADER_BYTES, 0};
    memset(c, 0, sizeof *c);
    const int rank = 1 + rd_u8(&hr) % 3;
    const uint8_t flags = rd_u8(&hr);
    const bool tr = flags & 1;
    const int64_t n = 1 + rd_u8(&hr) % 3, g = 1 + rd_u8(&hr) % 3;
    /* channels per group: mostly 1..3, sometimes up to 24 (the big kernels) */
    const uint8_t agb = rd_u8(&hr), bgb = rd_u8(&hr);
    const int64_t ag = 1 + agb % (agb < 0xC0 ? 3 : 24), bg = 1 + bgb % (bgb < 0xC0 ? 3 : 24);
    c->cube = (int8_t)(rd_u8(&hr) % 4);
    const uint8_t layout = rd_u8(&hr);
    const uint8_t opts = rd_u8(&hr);
    const uint8_t fault = rd_u8(&hr);
    const uint16_t mix = (uint16_t)(rd_u8(&hr) | rd_u8(&hr) << 8);
    int64_t k[3], s[3], d[3], p[3], in[3], out[3], op[3];
    for (int i = 0; i < rank; ++i) {
        k[i] = 1 + rd_u8(&hr) % 3;
        s[i] = 1 + rd_u8(&hr) % 3;
        d[i] = 1 + rd_u8(&hr) % 2;
        p[i] = rd_u8(&hr) % 3;
        in[i] = 1 + rd_u8(&hr) % 6;
        op[i] = tr ? rd_u8(&hr) % s[i] : (rd_u8(&hr), 0);
        if (!tr) {
            while (in[i] + 2 * p[i] < d[i] * (k[i] - 1) + 1) ++in[i];
            out[i] = (in[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) / s[i] + 1;
        } else {
            out[i] = (in[i] - 1) * s[i] - 2 * p[i] + d[i] * (k[i] - 1) + op[i] + 1;
            if (out[i] < 1) {
                p[i] = 0;
                out[i] = (in[i] - 1) * s[i] + d[i] * (k[i] - 1) + op[i] + 1;
            }
        }
    }
    c->transposed = tr;
    c->groups = (int)g;
    for (int i = 0; i < 3; ++i) c->mask[i] = !(flags >> (1 + i) & 1);
    c->mask_present = true;
    c->mask_len = 3;
    static const int32_t dts[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    const int dsel = flags >> 4 & 3;

    /* shapes: regular x [n, g*ag, in], w [g*bg, ag, k], dy [n, g*bg, out];
     * transposed input [n, g*ag, in], w [g*ag, bg, k], dy [n, g*bg, out] */
    const uint64_t nd = (uint64_t)rank + 2;
    int64_t xs[5] = {n, g * ag}, ws[5], ys[5] = {n, g * bg};
    if (tr) {
        ws[0] = g * ag, ws[1] = bg;
    } else {
        ws[0] = g * bg, ws[1] = ag;
    }
    for (int i = 0; i < rank; ++i) xs[2 + i] = in[i], ws[2 + i] = k[i], ys[2 + i] = out[i];
    int64_t bs[1] = {g * bg};
    const int64_t *shapes[NT] = {ys, xs, ws, xs, ws, bs};
    for (int t = 0; t < NT; ++t) {
        int32_t dt = dsel == 3 ? dts[(mix >> (2 * t) & 3) % 3] : dts[dsel];
        static const int of[NT] = {0, 0, 0, T_X, T_W, T_DY};
        if (t >= T_DX) dt = c->t[of[t]].dtype; /* a gradient has its tensor's dtype */
        shape_tensor(&c->t[t], shapes[t], t == T_DB ? 1 : nd, dt, layout >> t & 1);
        c->t[t].buf = t;
    }

    for (int a = 0; a < NA; ++a) c->a[a].present = true;
    c->a[A_STRIDE].len = c->a[A_DIL].len = c->a[A_OUTPAD].len = (uint64_t)rank;
    for (int i = 0; i < rank; ++i) {
        c->a[A_STRIDE].v[i] = s[i];
        c->a[A_DIL].v[i] = d[i];
        c->a[A_OUTPAD].v[i] = op[i];
    }
    if (rank == 2 && (flags & 0x40)) { /* 4-element padding: top, bottom, left, right */
        c->a[A_PAD].len = 4;
        for (int i = 0; i < 4; ++i) c->a[A_PAD].v[i] = p[i / 2];
    } else {
        c->a[A_PAD].len = (uint64_t)rank;
        for (int i = 0; i < rank; ++i) c->a[A_PAD].v[i] = p[i];
    }
    c->a[A_BIAS].len = 1;
    c->a[A_BIAS].v[0] = g * bg;
    c->a[A_BIAS].present = !(flags & 0x80);

    c->stream_kind = opts & 3;
    c->repeatable = opts >> 2 & 1;
    static const int k_runs[4] = {1, 2, 3, 0};
    c->runs = k_runs[opts >> 3 & 3];
    c->ws_mode = (opts >> 5 & 7) < 4 ? 0 : (opts >> 5 & 7) - 3; /* mostly exact */
    c->destroy_after = opts >> 5 & 1;
    c->fail_at = fault >= 0xC0 ? fault - 0xBF : 0;

    /* ---- mutations ---- */
    reader r = {data, size, hr.n};
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 16777619u;
    c->seed = h;
    c->isa = mix >> 12 & 3;
    c->threads = mix >> 14 & 3;
    while (r.i < r.n) {
        const uint8_t opc = rd_u8(&r);
        const uint8_t arg = rd_u8(&r);
        tdesc *t = &c->t[(arg & 7) % NT]; /* arg: tensor or array in bits 0-2, index in 3-6 */
        const unsigned idx = (arg >> 3) % MAXD;
        switch (opc % 24) {
        case 0: t->ndim = rd_u8(&r) % 11; break;
        case 1: t->dim[idx] = rd_val(&r); break;
        case 2: t->stride[idx] = rd_val(&r); break;
        case 3: t->stride_null = !t->stride_null; break;
        case 4: t->offset = rd_val(&r); break;
        case 5: t->sndim = rd_u8(&r) % 11; break;
        case 6: t->storage[idx] = rd_val(&r); break;
        case 7: t->format = (int32_t)rd_val(&r); break;
        case 8: t->dtype = (int32_t)rd_val(&r); break;
        case 9: t->present = false; break;
        case 10: t->data_null = true; break;
        case 11: { /* view another tensor's buffer */
            int u = (arg >> 3) % NT;
            t->buf = c->t[u].buf;
            t->buf_off = (size_t)(rd_u8(&r) % 4) * 64;
            break;
        }
        case 12: {
            uint8_t v = rd_u8(&r);
            /* huge sizes overflow size_t bytes: refused before anything is read */
            c->a[(arg & 7) % NA].len = v < 0xF0 ? v % (MAXA + 1) : UINT64_MAX - (v & 7) * ((uint64_t)1 << 60);
            break;
        }
        case 13: c->a[(arg & 7) % NA].present = false; break;
        case 14: c->a[(arg & 7) % NA].v[idx] = rd_val(&r); break;
        case 15: {
            uint8_t v = rd_u8(&r);
            c->mask_present = v != 0xFF;
            c->mask_len = v % 7;
            break;
        }
        case 16: c->mask[idx % 6] = !c->mask[idx % 6]; break;
        case 17: c->groups = (int)(int32_t)(uint32_t)(uint64_t)rd_val(&r); break;
        case 18: c->cube = (int8_t)rd_u8(&r); break;
        case 19: c->transposed = !c->transposed; break;
        case 20: { /* more dims than the API allows */
            uint8_t v = rd_u8(&r);
            uint64_t cnt = v < 0x80 ? 9u + v % 8u : v < 0xF0 ? 17u + v : UINT64_MAX - (v & 7u);
            if (arg & 0x80) t->sndim = cnt;
            else t->ndim = cnt;
            break;
        }
        case 21: c->ws_mode = rd_u8(&r) % 5; break;
        case 22: { /* u becomes a copy of t (same view), over t's buffer: aliasing */
            int u = (arg >> 3) % NT;
            if (u == (arg & 7) % NT) break;
            tdesc copy = *t;
            c->t[u] = copy;
            break;
        }
        default: /* 23: run options */
            c->stream_kind = arg & 3;
            c->repeatable = arg >> 2 & 1;
            c->runs = k_runs[arg >> 3 & 3];
            c->destroy_after = arg >> 5 & 1;
            break;
        }
    }
}

/* ---- guarded buffers ------------------------------------------------------------ */

typedef struct gbuf {
    unsigned char *base; /* GUARD + bytes + GUARD */
    size_t bytes;
    unsigned char *snap; /* copy of base after filling */
    unsigned char *writable; /* per byte: 1 if a requested output may write it */
} gbuf;

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void gbuf_alloc(gbuf *b, size_t bytes, uint32_t *seed, bool fill_random)
{
    b->bytes = bytes;
    b->base = malloc(bytes + 2 * GUARD);
    b->snap = malloc(bytes + 2 * GUARD);
    b->writable = calloc(bytes + 2 * GUARD, 1);
    if (!b->base || !b->snap || !b->writable) abort();
    for (size_t i = 0; i < bytes + 2 * GUARD; ++i) b->base[i] = (unsigned char)(0xA5 ^ i);
    if (fill_random) {
        /* small floats in every dtype: 0x3C../0x3F.. high bytes keep the
         * values finite in fp32, fp16 and bf16 */
        for (size_t i = 0; i < bytes; ++i)
            b->base[GUARD + i] = (unsigned char)((i & 1) ? (0x3C | (lcg(seed) & 0x83)) : lcg(seed));
    }
    memcpy(b->snap, b->base, bytes + 2 * GUARD);
    POISON(b->base, GUARD);
    POISON(b->base + GUARD + bytes, GUARD);
}

static void *gbuf_data(const gbuf *b) { return b->base + GUARD; }

/* Every byte not marked writable is as it was. */
static void gbuf_check(gbuf *b, const char *what)
{
    UNPOISON(b->base, b->bytes + 2 * GUARD);
    for (size_t i = 0; i < b->bytes + 2 * GUARD; ++i) {
        if (!b->writable[i] && b->base[i] != b->snap[i])
            FAIL("%s: byte %lld (of %zu, guard %d) changed from 0x%02x to 0x%02x", what,
                 (long long)i - GUARD, b->bytes, GUARD, b->snap[i], b->base[i]);
    }
}

static void gbuf_free(gbuf *b)
{
    if (b->base) UNPOISON(b->base, b->bytes + 2 * GUARD);
    free(b->base);
    free(b->snap);
    free(b->writable);
    memset(b, 0, sizeof *b);
}

/* ---- the run ---------------------------------------------------------------------- */

static aclrtStream g_stream, g_dead_stream;
static int g_default_threads;
static bool g_ready;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (g_ready) return 0;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateStream(&g_stream) != ACL_SUCCESS ||
        aclrtCreateStream(&g_dead_stream) != ACL_SUCCESS ||
        aclrtDestroyStream(g_dead_stream) != ACL_SUCCESS) {
        fprintf(stderr, "fuzz: runtime setup failed: %s\n", aclGetRecentErrMsg());
        abort();
    }
    g_default_threads = aclconvGetNumThreads();
    g_ready = true;
    return 0;
}

static __int128 numel_of(const int64_t *dims, uint64_t n)
{
    __int128 p = 1;
    for (uint64_t i = 0; i < n && i < MAXD; ++i) {
        if (dims[i] < 0) return -1;
        p *= dims[i];
        if (p > ((__int128)1 << 80)) p = (__int128)1 << 80; /* saturate */
    }
    return n > MAXD ? -1 : p;
}

/* Elements of t's view in storage order, for t small (numel <= FUZZ_MAX_NUMEL). */
static void mark_view(const tdesc *t, gbuf *b)
{
    int64_t idx[MAXD] = {0}, stride[MAXD];
    __int128 total = numel_of(t->dim, t->ndim);
    size_t es = dt_size(t->dtype);
    int64_t s = 1;
    for (uint64_t i = t->ndim; i-- > 0;) {
        stride[i] = t->stride_null ? s : t->stride[i];
        s *= t->dim[i] > 0 ? t->dim[i] : 1;
    }
    for (__int128 e = 0; e < total; ++e) {
        int64_t off = t->offset;
        for (uint64_t i = 0; i < t->ndim; ++i) off += idx[i] * stride[i];
        size_t byte = t->buf_off + (size_t)off * es;
        for (size_t k = 0; k < es; ++k)
            if (GUARD + byte + k < b->bytes + 2 * GUARD) b->writable[GUARD + byte + k] = 1;
        for (uint64_t i = t->ndim; i-- > 0;) {
            if (++idx[i] < t->dim[i]) break;
            idx[i] = 0;
        }
    }
}

/* What an accepted call must satisfy (the library promised to check it). */
typedef struct span {
    __int128 lo, hi; /* bytes, relative to the buffer */
    int buf;
} span;

/* Whether t's view (explicit strides, small) reaches some element twice. */
static bool reaches_twice(const tdesc *t)
{
    static int64_t idx[FUZZ_MAX_NUMEL];
    return !t->stride_null && t->ndim <= MAXD && view_reaches_twice(t->dim, t->stride, t->ndim, idx, FUZZ_MAX_NUMEL);
}

static void check_accepted(const call *c, const bool *created, const bool *real, span *sp)
{
    for (int i = 0; i < NT; ++i) {
        const tdesc *t = &c->t[i];
        sp[i].lo = sp[i].hi = 0;
        /* a tensor with huge storage points at the shared decoy (index NT) */
        sp[i].buf = real[i] ? t->buf : NT;
        const size_t boff = real[i] ? t->buf_off : 0;
        if (!created[i]) continue;
        __int128 numel = numel_of(t->dim, t->ndim);
        if (numel < 0) FAIL("%s accepted with an invalid shape", k_tensor_names[i]);
        if (numel == 0) continue;
        __int128 storage = numel_of(t->storage, t->sndim);
        __int128 last = t->offset;
        for (uint64_t k = 0; k < t->ndim; ++k) {
            if (t->stride_null) break;
            if (t->stride[k] < 0) FAIL("%s accepted with a negative stride", k_tensor_names[i]);
            last += (__int128)(t->dim[k] - 1) * t->stride[k];
        }
        if (t->stride_null) last = t->offset + numel - 1;
        if (t->offset < 0 || last >= storage)
            FAIL("%s accepted with a view (offset %lld) reaching element %lld of a storage of %lld",
                 k_tensor_names[i], (long long)t->offset, (long long)last, (long long)storage);
        if (t->data_null) FAIL("%s accepted with %lld elements and NULL data", k_tensor_names[i],
                               (long long)numel);
        size_t es = dt_size(t->dtype);
        sp[i].lo = (__int128)boff + (__int128)t->offset * (__int128)es;
        sp[i].hi = (__int128)boff + (last + 1) * (__int128)es;
    }
    /* written outputs overlap no input and no other written output */
    for (int o = T_DX; o <= T_DB; ++o) {
        if (!created[o] || !c->mask[o - T_DX] || sp[o].hi == sp[o].lo) continue;
        /* nor itself (F4: the tasks writing a shared element raced) */
        if (reaches_twice(&c->t[o])) FAIL("accepted: output %s reaches an element twice", k_tensor_names[o]);
        for (int j = 0; j < NT; ++j) {
            if (j == o || !created[j] || sp[j].hi == sp[j].lo) continue;
            if (j >= T_DX && !c->mask[j - T_DX]) continue;
            if (sp[j].buf == sp[o].buf && sp[o].lo < sp[j].hi && sp[j].lo < sp[o].hi)
                FAIL("accepted: output %s bytes [%lld, %lld) overlap %s bytes [%lld, %lld) of "
                     "the same buffer",
                     k_tensor_names[o], (long long)sp[o].lo, (long long)sp[o].hi,
                     k_tensor_names[j], (long long)sp[j].lo, (long long)sp[j].hi);
        }
    }
}

static aclTensor *create_tensor(const tdesc *t, void *data)
{
    /* arrays the size the caller claims, up to MAXD; beyond that the library
     * must refuse before reading them */
    return aclCreateTensor(t->dim, t->ndim, (aclDataType)t->dtype, t->stride_null ? NULL : t->stride,
                           t->offset, (aclFormat)t->format, t->storage, t->sndim, data);
}

/* Exercises the shape queries of a created tensor. */
static void query_tensor(const aclTensor *t, const tdesc *d)
{
    int64_t *dims = NULL;
    uint64_t n = 0;
    if (aclGetViewShape(t, &dims, &n) != ACLNN_SUCCESS || n != d->ndim) FAIL("aclGetViewShape");
    for (uint64_t i = 0; i < n; ++i)
        if (dims[i] != d->dim[i]) FAIL("aclGetViewShape: dim %llu", (unsigned long long)i);
    free(dims);
    dims = NULL;
    if (aclGetStorageShape(t, &dims, &n) != ACLNN_SUCCESS || n != d->sndim) FAIL("aclGetStorageShape");
    free(dims);
    dims = NULL;
    if (aclGetViewStrides(t, &dims, &n) != ACLNN_SUCCESS || n != d->ndim) FAIL("aclGetViewStrides");
    free(dims);
    int64_t off;
    aclDataType dt;
    aclFormat fmt;
    if (aclGetViewOffset(t, &off) != ACLNN_SUCCESS || off != d->offset) FAIL("aclGetViewOffset");
    if (aclGetDataType(t, &dt) != ACLNN_SUCCESS || (int32_t)dt != d->dtype) FAIL("aclGetDataType");
    if (aclGetFormat(t, &fmt) != ACLNN_SUCCESS || (int32_t)fmt != d->format) FAIL("aclGetFormat");
}

/* The decoded call, for triage (FUZZ_STATS=1). */
static void dump_call(const call *c)
{
    for (int i = 0; i < NT; ++i) {
        const tdesc *t = &c->t[i];
        if (!t->present) {
            fprintf(stderr, "fuzz: %s NULL\n", k_tensor_names[i]);
            continue;
        }
        fprintf(stderr, "fuzz: %s dtype %d fmt %d buf %d+%zu%s off %lld dims", k_tensor_names[i],
                t->dtype, t->format, t->buf, t->buf_off, t->data_null ? " (data NULL)" : "",
                (long long)t->offset);
        const uint64_t nd = t->ndim < MAXD ? t->ndim : MAXD;
        for (uint64_t d = 0; d < nd; ++d) fprintf(stderr, " %lld", (long long)t->dim[d]);
        fprintf(stderr, " strides");
        for (uint64_t d = 0; d < nd; ++d) fprintf(stderr, " %lld", (long long)t->stride[d]);
        fprintf(stderr, " storage");
        for (uint64_t d = 0; d < t->sndim && d < MAXD; ++d)
            fprintf(stderr, " %lld", (long long)t->storage[d]);
        fprintf(stderr, "\n");
    }
    fprintf(stderr, "fuzz: groups %d cube %d transposed %d threads %d isa %d repeatable %d runs %d ws_mode %d\n",
            c->groups, c->cube, c->transposed, c->threads, c->isa, c->repeatable, c->runs, c->ws_mode);
}

#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (strict && !(cond)) FAIL(__VA_ARGS__);                                                  \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    LLVMFuzzerInitialize(NULL, NULL);
    call c;
    decode(data, size, &c);
    uint32_t seed = c.seed;

    /* ---- buffers: one per tensor, sized for every tensor that views it ---- */
    gbuf bufs[NT] = {{0}};
    size_t need[NT] = {0};
    bool used[NT] = {false};
    bool real[NT]; /* storage fully allocated (else: a small poisoned decoy) */
    for (int i = 0; i < NT; ++i) {
        const tdesc *t = &c.t[i];
        __int128 st = numel_of(t->storage, t->sndim);
        real[i] = st >= 0 && st <= FUZZ_MAX_STORAGE;
        if (!t->present || t->data_null) continue;
        size_t bytes = real[i] ? (size_t)st * dt_size(t->dtype) + t->buf_off : 64;
        if (bytes > need[t->buf]) need[t->buf] = bytes;
        used[t->buf] = true;
    }
    for (int b = 0; b < NT; ++b)
        if (used[b]) gbuf_alloc(&bufs[b], need[b], &seed, true);
    /* a tensor with huge storage points at a poisoned decoy: if the library
     * touched it anyway, ASan (or the byte check) would say so */
    gbuf decoy = {0};
    gbuf_alloc(&decoy, 64, &seed, true);
    POISON(decoy.base, 64 + 2 * GUARD);

    const long strict = c.fail_at == 0;
    if (c.fail_at) aclconvTestFailAllocAt(c.fail_at);

    /* ---- objects ---- */
    aclTensor *tens[NT] = {NULL};
    bool created[NT] = {false};
    for (int i = 0; i < NT; ++i) {
        const tdesc *t = &c.t[i];
        if (!t->present) continue;
        void *ptr = NULL;
        if (!t->data_null) ptr = real[i] ? (char *)gbuf_data(&bufs[t->buf]) + t->buf_off
                                         : gbuf_data(&decoy);
        aclconv_clear_error();
        tens[i] = create_tensor(t, ptr);
        created[i] = tens[i] != NULL;
        if (tens[i] == NULL && aclGetRecentErrMsg()[0] == '\0')
            FAIL("aclCreateTensor(%s) returned NULL without a message", k_tensor_names[i]);
        if (tens[i] != NULL && strict) query_tensor(tens[i], t);
    }
    aclIntArray *arr[NA] = {NULL};
    for (int a = 0; a < NA; ++a) {
        if (!c.a[a].present) continue;
        aclconv_clear_error();
        arr[a] = aclCreateIntArray(c.a[a].v, c.a[a].len);
        if (arr[a] == NULL) {
            EXPECT(c.a[a].len > MAXA, "aclCreateIntArray(size %llu) failed",
                   (unsigned long long)c.a[a].len);
            if (aclGetRecentErrMsg()[0] == '\0') FAIL("aclCreateIntArray: NULL without a message");
        } else {
            uint64_t len = 0;
            if (aclGetIntArraySize(arr[a], &len) != ACLNN_SUCCESS || len != c.a[a].len)
                FAIL("aclGetIntArraySize");
        }
    }
    aclBoolArray *mask = NULL;
    if (c.mask_present) {
        mask = aclCreateBoolArray(c.mask, c.mask_len);
        EXPECT(mask != NULL, "aclCreateBoolArray(%llu) failed", (unsigned long long)c.mask_len);
    }

    /* ---- phase 1, under an ISA cap and a thread count ---- */
    aclconvSetMaxIsa(c.isa ? (aclconvIsa)(c.isa - 1) : ACLCONV_ISA_AVX512);
    aclconvSetNumThreads(c.threads ? c.threads : g_default_threads);
    uint64_t ws_size = 0xdeadbeef;
    aclOpExecutor *ex = (aclOpExecutor *)(uintptr_t)0x1;
    aclconv_clear_error();
    aclnnStatus st = aclnnConvolutionBackwardGetWorkspaceSize(
        tens[T_DY], tens[T_X], tens[T_W], arr[A_BIAS], arr[A_STRIDE], arr[A_PAD], arr[A_DIL],
        c.transposed, arr[A_OUTPAD], c.groups, mask, c.cube, tens[T_DX], tens[T_DW], tens[T_DB],
        c.ws_mode == 4 ? NULL : &ws_size, c.ws_mode == 4 ? NULL : &ex);
    if (getenv("FUZZ_STATS") != NULL) {
        dump_call(&c);
        fprintf(stderr, "fuzz: GetWorkspaceSize -> %d %s\n", st, aclGetRecentErrMsg());
    }
    if (c.ws_mode == 4 && st != ACLNN_ERR_PARAM_NULLPTR)
        FAIL("GetWorkspaceSize with NULL out-pointers returned %d", st);
    if (st != ACLNN_SUCCESS) {
        if (aclGetRecentErrMsg()[0] == '\0') FAIL("GetWorkspaceSize failed (%d) without a message", st);
        if (c.ws_mode != 4 && (ex != (aclOpExecutor *)(uintptr_t)0x1 || ws_size != 0xdeadbeef))
            FAIL("GetWorkspaceSize failed (%d) but wrote its outputs", st);
        ex = NULL;
    } else if (ex == NULL || ex == (aclOpExecutor *)(uintptr_t)0x1) {
        FAIL("GetWorkspaceSize succeeded without an executor");
    }

    gbuf ws = {0};
    if (ex != NULL) {
        span sp[NT];
        const bool mask_ok = mask != NULL; /* accepted: 3 entries */
        if (!mask_ok || c.mask_len != 3) FAIL("accepted without a 3-entry outputMask");
        check_accepted(&c, created, real, sp);

        /* small enough to run for real? */
        bool small = true;
        __int128 nx = 0, ny = 0, nw = 0;
        for (int i = 0; i < NT; ++i) {
            if (!created[i]) continue;
            __int128 ne = numel_of(c.t[i].dim, c.t[i].ndim);
            if (ne > FUZZ_MAX_NUMEL || (!real[i] && !c.t[i].data_null && ne > 0)) small = false;
            if (i == T_X) nx = ne;
            if (i == T_DY) ny = ne;
            if (i == T_W) nw = ne;
        }
        if ((nx > ny ? nx : ny) * nw > FUZZ_MAX_MACS) small = false;
        if (ws_size > FUZZ_MAX_WORKSPACE) small = false;

        aclrtStream stream = c.stream_kind == 0 ? g_stream
                             : c.stream_kind == 1 ? NULL
                             : c.stream_kind == 2 ? (aclrtStream)(uintptr_t)0x1234560
                                                  : g_dead_stream;
        const bool good_stream = c.stream_kind < 2;
        bool live = true;
        if (c.repeatable) {
            aclnnStatus s2 = aclSetAclOpExecutorRepeatable(ex);
            EXPECT(s2 == ACLNN_SUCCESS, "aclSetAclOpExecutorRepeatable: %d", s2);
        }
        if (small && c.runs > 0) {
            for (int o = T_DX; o <= T_DB; ++o)
                if (created[o] && c.mask[o - T_DX] && !c.t[o].data_null)
                    mark_view(&c.t[o], &bufs[c.t[o].buf]);
            /* workspace: exactly ws_size usable bytes, 64-byte aligned (or
             * misaligned by 4 on request: CANN does not promise alignment);
             * everything around them is poisoned and must stay unchanged */
            const size_t slack = 64 + 4;
            gbuf_alloc(&ws, (size_t)ws_size + slack, &seed, false);
            unsigned char *d0 = gbuf_data(&ws);
            unsigned char *wp = d0 + ((64 - ((uintptr_t)d0 & 63)) & 63) + (c.ws_mode == 3 ? 4 : 0);
            const size_t lead = (size_t)(wp - d0), tail = slack - lead;
            memset(ws.writable + GUARD + lead, 1, (size_t)ws_size);
            POISON(d0, lead);
            POISON(wp + ws_size, tail);
            void *wsp = ws_size == 0 && (seed & 1) ? NULL : wp;
            uint64_t wsz = ws_size;
            if (c.ws_mode == 1) wsz = ws_size > 0 ? ws_size - 1 : 0;
            if (c.ws_mode == 2) wsp = NULL;

            /* runs with another thread count than planning (the plan must not care) */
            if (c.threads) aclconvSetNumThreads(1 + c.threads % 3);
            bool any_ok = false;
            for (int k = 0; k < c.runs; ++k) {
                aclnnStatus want = ACLNN_SUCCESS;
                if (!live) want = ACLNN_ERR_PARAM_INVALID;
                else if (ws_size > 0 && c.ws_mode == 2) want = ACLNN_ERR_PARAM_NULLPTR;
                else if (ws_size > 0 && c.ws_mode == 1) want = ACLNN_ERR_PARAM_INVALID;
                else if (!good_stream) want = ACLNN_ERR_RUNTIME_ERROR;
                aclconv_clear_error();
                aclnnStatus rs = aclnnConvolutionBackward(wsp, wsz, ex, stream);
                EXPECT(rs == want, "run %d returned %d, want %d", k, rs, want);
                if (rs != ACLNN_SUCCESS && aclGetRecentErrMsg()[0] == '\0')
                    FAIL("run failed (%d) without a message", rs);
                /* queued, or failed to queue: a one-shot executor is consumed */
                if ((rs == ACLNN_SUCCESS || rs == ACLNN_ERR_RUNTIME_ERROR) && !c.repeatable)
                    live = false;
                any_ok |= rs == ACLNN_SUCCESS;
            }
            /* determinism: a repeatable executor run again with another thread
             * count rewrites its outputs with the same bits */
            if (strict && any_ok && live && c.repeatable && c.threads && good_stream &&
                c.ws_mode != 1 && !(c.ws_mode == 2 && ws_size > 0)) {
                if (aclrtSynchronizeDevice() != ACL_SUCCESS) FAIL("sync before the rerun");
                unsigned char *saved[NT] = {NULL};
                for (int b = 0; b < NT; ++b) {
                    if (bufs[b].base == NULL) continue;
                    saved[b] = malloc(bufs[b].bytes + 1);
                    memcpy(saved[b], gbuf_data(&bufs[b]), bufs[b].bytes);
                }
                aclconvSetNumThreads(1 + (c.threads + 1) % 3);
                aclnnStatus rs = aclnnConvolutionBackward(wsp, wsz, ex, stream);
                if (rs != ACLNN_SUCCESS) FAIL("rerun: %d", rs);
                if (aclrtSynchronizeDevice() != ACL_SUCCESS) FAIL("sync after the rerun");
                for (int b = 0; b < NT; ++b) {
                    if (saved[b] == NULL) continue;
                    if (memcmp(saved[b], gbuf_data(&bufs[b]), bufs[b].bytes) != 0)
                        FAIL("the rerun with %d instead of %d threads changed the buffer of %s",
                             1 + (c.threads + 1) % 3, 1 + c.threads % 3, k_tensor_names[b]);
                    free(saved[b]);
                }
            }
        }
        /* waits without allocating, so even out of memory (F2: it used to
         * return ACL_ERROR_BAD_ALLOC before the work was done) */
        aclError se = aclrtSynchronizeDevice();
        if (se != ACL_SUCCESS) FAIL("aclrtSynchronizeDevice: %d", se);
        aclconvTestFailAllocAt(0);
        /* whatever happened, a live executor is destroyed once; a second
         * destroy (and a destroy of a consumed one) is an error */
        aclnnStatus ds = aclDestroyAclOpExecutor(ex);
        if (live && ds != ACLNN_SUCCESS) FAIL("destroy of a live executor: %d", ds);
        if (!live && strict && ds != ACLNN_ERR_PARAM_INVALID) FAIL("destroy of a consumed executor: %d", ds);
        if (c.destroy_after) {
            ds = aclDestroyAclOpExecutor(ex);
            if (ds != ACLNN_ERR_PARAM_INVALID) FAIL("second destroy: %d", ds);
            ds = aclnnConvolutionBackward(NULL, 0, ex, stream);
            if (ds != ACLNN_ERR_PARAM_INVALID && ds != ACLNN_ERR_PARAM_NULLPTR)
                FAIL("run after destroy: %d", ds);
        }
    }
    aclconvTestFailAllocAt(0);
    aclconvSetMaxIsa(ACLCONV_ISA_AVX512);
    aclconvSetNumThreads(g_default_threads);

    /* ---- memory checks and clean up ---- */
    for (int b = 0; b < NT; ++b) {
        if (bufs[b].base == NULL) continue;
        char what[64];
        snprintf(what, sizeof what, "buffer of %s", k_tensor_names[b]);
        gbuf_check(&bufs[b], what);
        gbuf_free(&bufs[b]);
    }
    if (ws.base != NULL) {
        gbuf_check(&ws, "workspace");
        gbuf_free(&ws);
    }
    gbuf_check(&decoy, "decoy buffer of a tensor with huge storage");
    gbuf_free(&decoy);
    for (int i = 0; i < NT; ++i) aclDestroyTensor(tens[i]);
    for (int a = 0; a < NA; ++a) aclDestroyIntArray(arr[a]);
    aclDestroyBoolArray(mask);
    return 0;
}
