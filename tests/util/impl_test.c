#define _POSIX_C_SOURCE 200809L /* setenv / unsetenv */
/* Shared helpers of the implementation-vs-direct tests (impl_test.h). */
#include "impl_test.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/dtype.h"
#include "engine/conv_views.h"

static int g_failures;

void it_fail(void)
{
    ++g_failures;
}

int it_failures(void)
{
    return g_failures;
}

size_t it_dt_size(aclDataType dt)
{
    return dt == ACL_FLOAT ? 4 : 2;
}

void it_reset_sentinel(it_tensor *t)
{
    for (int64_t i = 0; i < t->buf_elems; ++i) {
        if (t->v.dtype == ACL_FLOAT)
            ((uint32_t *)t->buf)[i] = IT_SENTINEL_F32;
        else
            ((uint16_t *)t->buf)[i] = IT_SENTINEL_16;
    }
}

int64_t it_view_offset = 3;

void it_tensor_make(it_tensor *t, aclDataType dt, const int64_t d[5], int strided, test_rng *r)
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
    t->buf = aclconv_aligned_alloc((size_t)t->buf_elems * it_dt_size(dt));
    it_reset_sentinel(t);
    t->v.data = (char *)t->buf + it_view_offset * it_dt_size(dt); /* (a non-zero one by default) */
}

void it_tensor_free(it_tensor *t)
{
    aclconv_free(t->buf);
}

void it_clone_layout(it_tensor *dst, const it_tensor *src)
{
    *dst = *src;
    dst->buf = aclconv_aligned_alloc((size_t)src->buf_elems * it_dt_size(src->v.dtype));
    dst->v.data = (char *)dst->buf + ((char *)src->v.data - (char *)src->buf);
    it_reset_sentinel(dst);
}

void it_clone(it_tensor *dst, const it_tensor *src)
{
    it_clone_layout(dst, src);
    memcpy(dst->buf, src->buf, (size_t)src->buf_elems * it_dt_size(src->v.dtype));
}

bool it_same_bits(const it_tensor *a, const it_tensor *b)
{
    return memcmp(a->buf, b->buf, (size_t)a->buf_elems * it_dt_size(a->v.dtype)) == 0;
}

bool it_same_bits_nan(const it_tensor *a, const it_tensor *b)
{
    if (a->v.dtype != b->v.dtype || a->buf_elems != b->buf_elems) return it_same_bits(a, b);
    if (a->v.dtype != ACL_FLOAT) { /* fp16 / bf16: a NaN narrowed keeps its payload's top bits */
        const uint16_t *x = a->buf, *y = b->buf;
        const uint16_t inf = a->v.dtype == ACL_BF16 ? 0x7f80u : 0x7c00u;
        for (int64_t i = 0; i < a->buf_elems; ++i) {
            const bool xnan = (x[i] & 0x7fffu) > inf, ynan = (y[i] & 0x7fffu) > inf;
            if (x[i] != y[i] && !(xnan && ynan)) return false;
        }
        return true;
    }
    const uint32_t *x = a->buf, *y = b->buf;
    for (int64_t i = 0; i < a->buf_elems; ++i) {
        const bool xnan = (x[i] & 0x7fffffffu) > 0x7f800000u,
                   ynan = (y[i] & 0x7fffffffu) > 0x7f800000u;
        if (x[i] != y[i] && !(xnan && ynan)) return false;
    }
    return true;
}

int64_t it_numel(const conv_view *v)
{
    return conv_view_numel(v);
}

void it_elem_index(const conv_view *v, int64_t e, int64_t idx[5])
{
    for (int i = 4; i >= 0; --i) {
        idx[i] = e % v->dim[i];
        e /= v->dim[i];
    }
}

int64_t it_offset_of(const conv_view *v, int64_t e)
{
    int64_t idx[5];
    it_elem_index(v, e, idx);
    return conv_view_index(v, idx[0], idx[1], idx[2], idx[3], idx[4]);
}

void it_abs_copy(it_tensor *dst, const it_tensor *src)
{
    it_clone(dst, src);
    for (int64_t e = 0; e < it_numel(&dst->v); ++e) {
        const int64_t o = it_offset_of(&dst->v, e);
        store_from_f32(dst->v.data, dst->v.dtype, o,
                       fabsf(load_as_f32(dst->v.data, dst->v.dtype, o)));
    }
}

void it_fill(it_tensor *t, int int_data, int64_t int_max, test_rng *r)
{
    /* one draw per element either way, so a case's later draws do not
     * depend on the range */
    const int64_t m = int_max > 0 ? int_max : 3;
    for (int64_t e = 0; e < it_numel(&t->v); ++e) {
        const float v = int_data ? (float)rng_range(r, -m, m) : (float)(rng_unit(r) * 2.0 - 1.0);
        store_from_f32(t->v.data, t->v.dtype, it_offset_of(&t->v, e), v);
    }
}

void it_mark_rounding(it_tensor *t, conv_mode mode)
{
    if (t->v.dtype != ACL_FLOAT || (mode != CONV_MODE_HF32 && mode != CONV_MODE_F16)) return;
    const float scale = 1.0f + 0x1p-13f;
    for (int64_t e = 0; e < it_numel(&t->v); ++e) {
        const int64_t o = it_offset_of(&t->v, e);
        float *v = (float *)t->v.data + o;
        if (conv_round_operand(*v * scale, mode) != *v) abort(); /* not a small integer */
        *v *= scale;
    }
}

void it_mark_operands(it_operands *o, conv_mode mode)
{
    it_mark_rounding(&o->x, mode);
    it_mark_rounding(&o->y, mode);
    it_mark_rounding(&o->w, mode);
}

void it_draw_extent(conv_problem *p, int i, int64_t lo_add, int64_t maxs, test_rng *r)
{
    p->pad[i] = rng_range(r, 0, p->dil[i] * (p->ks[i] - 1) + 1);
    const int64_t tail = rng_range(r, 0, p->dil[i] * (p->ks[i] - 1));
    const int64_t ext = p->dil[i] * (p->ks[i] - 1) + 1;
    int64_t lo = ext - p->pad[i] - tail;
    if (lo < 1) lo = 1;
    lo += lo_add;
    p->xs[i] = rng_range(r, lo, lo + maxs);
    p->ys[i] = (p->xs[i] + p->pad[i] + tail - ext) / p->stride[i] + 1;
}

aclDataType it_random_dt(test_rng *r, int allow)
{
    if (!allow) return ACL_FLOAT;
    static const aclDataType dts[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    return dts[rng_range(r, 0, 2)];
}

void it_operands_make(it_operands *o, const conv_problem *p, int dtypes, int strided, test_rng *r)
{
    const int64_t xd[5] = {p->n, p->g * p->cg, p->xs[0], p->xs[1], p->xs[2]};
    const int64_t yd[5] = {p->n, p->g * p->og, p->ys[0], p->ys[1], p->ys[2]};
    const int64_t wd[5] = {p->g * p->og, p->cg, p->ks[0], p->ks[1], p->ks[2]};
    /* one statement per tensor: the dtype draw must precede the layout
     * draws, in this order, for the seeds to keep their problems */
    aclDataType dt = it_random_dt(r, dtypes);
    it_tensor_make(&o->x, dt, xd, strided, r);
    dt = it_random_dt(r, dtypes);
    it_tensor_make(&o->y, dt, yd, strided, r);
    dt = it_random_dt(r, dtypes);
    it_tensor_make(&o->w, dt, wd, strided, r);
    dt = it_random_dt(r, dtypes);
    it_tensor_make(&o->gi, dt, p->data_dir == CONV_DIR_FWD ? yd : xd, strided, r);
    dt = it_random_dt(r, dtypes);
    it_tensor_make(&o->gw, dt, wd, strided, r);
}

void it_operands_attach(conv_problem *p, const it_operands *o)
{
    p->x = o->x.v;
    p->y = o->y.v;
    p->w = o->w.v;
    p->bias_src = p->y;
    p->grad_input = o->gi.v;
    p->grad_weight = o->gw.v;
}

void it_operands_free(it_operands *o)
{
    it_tensor_free(&o->x);
    it_tensor_free(&o->y);
    it_tensor_free(&o->w);
    it_tensor_free(&o->gi);
    it_tensor_free(&o->gw);
}

void it_describe(const conv_problem *p, char *buf, size_t n)
{
    snprintf(buf, n,
             "rank %d dir %s N%" PRId64 " G%" PRId64 " CG%" PRId64 " OG%" PRId64 " x %" PRId64
             "x%" PRId64 "x%" PRId64 " y %" PRId64 "x%" PRId64 "x%" PRId64 " k %" PRId64 "x%" PRId64
             "x%" PRId64 " s %" PRId64 "x%" PRId64 "x%" PRId64 " d %" PRId64 "x%" PRId64 "x%" PRId64
             " p %" PRId64 "x%" PRId64 "x%" PRId64 " mode %d dt %d/%d/%d -> %d/%d",
             p->rank, p->data_dir == CONV_DIR_FWD ? "F" : "D", p->n, p->g, p->cg, p->og, p->xs[0],
             p->xs[1], p->xs[2], p->ys[0], p->ys[1], p->ys[2], p->ks[0], p->ks[1], p->ks[2],
             p->stride[0], p->stride[1], p->stride[2], p->dil[0], p->dil[1], p->dil[2], p->pad[0],
             p->pad[1], p->pad[2], (int)p->mode, (int)p->x.dtype, (int)p->y.dtype, (int)p->w.dtype,
             (int)p->grad_input.dtype, (int)p->grad_weight.dtype);
}

int it_run_plan(const conv_problem *p, const char *impl, char names[2][16])
{
    if (impl)
        setenv("ACLCONV_IMPL", impl, 1);
    else
        unsetenv("ACLCONV_IMPL");
    void *plan = NULL;
    uint64_t ws_size = 0;
    if (conv_plan_create(p, &plan, &ws_size) != ACLNN_SUCCESS) {
        /* a name no implementation has, so no check takes it for a choice */
        for (int i = 0; i < 2; ++i)
            snprintf(names[i], 16, "%s", "(no plan)");
        unsetenv("ACLCONV_IMPL");
        return -1;
    }
    unsigned char *ws = aclconv_aligned_alloc(ws_size + 64);
    memset(ws, 0xA5, ws_size + 64); /* hostile workspace, the tail a guard */
    conv_plan_ops.run(plan, ws);
    for (int i = 0; i < 2; ++i)
        snprintf(names[i], 16, "%s", conv_plan_impl_name(plan, i));
    for (uint64_t i = ws_size; i < ws_size + 64; ++i)
        if (ws[i] != 0xA5) {
            printf("FAIL workspace overrun at byte %" PRIu64 " of %" PRIu64 "\n", i, ws_size);
            it_fail();
            break;
        }
    aclconv_free(ws);
    conv_plan_ops.destroy(plan);
    unsetenv("ACLCONV_IMPL");
    return 0;
}

int64_t it_compare(const it_tensor *a, const it_tensor *b, const float *tol, char *msg, size_t len)
{
    const size_t es = it_dt_size(a->v.dtype);
    const int64_t n = it_numel(&a->v);
    char *inview = calloc((size_t)a->buf_elems, 1);
    const int64_t base = ((char *)a->v.data - (char *)a->buf) / (int64_t)es;
    int64_t bad = 0;
    for (int64_t e = 0; e < n; ++e) {
        const int64_t o = it_offset_of(&a->v, e);
        inview[base + o] = 1;
        const float x = load_as_f32(a->v.data, a->v.dtype, o);
        const float y = load_as_f32(b->v.data, b->v.dtype, o);
        const bool ok = tol ? (fabsf(x - y) <= tol[e])
                            : memcmp((char *)a->v.data + o * (int64_t)es,
                                     (char *)b->v.data + o * (int64_t)es, es) == 0;
        if (!ok && bad++ == 0)
            snprintf(msg, len, "element %" PRId64 ": %.9g vs %.9g (tol %g)", e, x, y,
                     tol ? tol[e] : 0.0);
    }
    for (int64_t i = 0; i < a->buf_elems; ++i)
        if (!inview[i] &&
            memcmp((char *)a->buf + i * (int64_t)es, (char *)b->buf + i * (int64_t)es, es) != 0) {
            if (bad++ == 0)
                snprintf(msg, len, "buffer element %" PRId64 " outside the view changed", i);
        }
    /* equal outside the view is not enough: both could have the same stray
     * store, so a's sentinels must be intact too */
    for (int64_t i = 0; i < a->buf_elems; ++i) {
        if (inview[i]) continue;
        const bool intact = es == 4 ? ((uint32_t *)a->buf)[i] == IT_SENTINEL_F32
                                    : ((uint16_t *)a->buf)[i] == IT_SENTINEL_16;
        if (!intact) {
            if (bad++ == 0)
                snprintf(msg, len, "sentinel at buffer element %" PRId64 " overwritten", i);
            break;
        }
    }
    free(inview);
    return bad;
}

void it_run_reference(const conv_problem *p, const it_operands *o, it_tensor ref[2])
{
    it_clone_layout(&ref[0], &o->gi);
    it_clone_layout(&ref[1], &o->gw);
    conv_problem q = *p;
    q.grad_input = ref[0].v;
    q.grad_weight = ref[1].v;
    char names[2][16];
    it_run_plan(&q, "direct", names);
}

void it_tolerances(const conv_problem *p, const it_operands *o, float *tol[2])
{
    it_operands a;
    it_abs_copy(&a.x, &o->x);
    it_abs_copy(&a.y, &o->y);
    it_abs_copy(&a.w, &o->w);
    it_clone_layout(&a.gi, &o->gi);
    it_clone_layout(&a.gw, &o->gw);
    conv_problem q = *p;
    it_operands_attach(&q, &a);
    q.bias_src = p->bias_src; /* as p: only the |operands| of the sums change */
    char names[2][16];
    it_run_plan(&q, "direct", names);
    /* terms per gradInput element: the input channels of its group times the
     * taps; per gradWeight element: every output position of every image */
    const int64_t nin = p->data_dir == CONV_DIR_FWD ? p->cg : p->og;
    const int64_t terms[2] = {nin * p->ks[0] * p->ks[1] * p->ks[2],
                              p->n * p->ys[0] * p->ys[1] * p->ys[2]};
    const it_tensor *abs_out[2] = {&a.gi, &a.gw};
    for (int k = 0; k < 2; ++k) {
        const conv_view *v = &abs_out[k]->v;
        const int64_t n = it_numel(v);
        tol[k] = malloc((size_t)(n ? n : 1) * sizeof(float));
        for (int64_t e = 0; e < n; ++e)
            tol[k][e] = 2.0f * (float)(terms[k] + 2) * 0x1p-24f *
                        load_as_f32(v->data, v->dtype, it_offset_of(v, e));
    }
    it_operands_free(&a);
}

void it_check_outputs(const it_operands *o, const it_tensor ref[2], float *const tol[2],
                      const char names[2][16], uint64_t seed, const char *isa, int threads,
                      const char *desc)
{
    const it_tensor *got[2] = {&o->gi, &o->gw};
    for (int k = 0; k < 2; ++k) {
        char msg[256];
        const int64_t bad = it_compare(got[k], &ref[k], tol[k], msg, sizeof msg);
        if (bad) {
            printf("FAIL seed %" PRIu64 " isa %s threads %d %s (%s): %" PRId64 " bad, %s: %s\n",
                   seed, isa, threads, k ? "gradWeight" : "gradInput", names[k], bad, msg, desc);
            it_fail();
        }
    }
}

void it_check_threads(it_tensor first[2], const it_operands *o, int threads, uint64_t seed,
                      const char *isa, const char *desc)
{
    if (threads == 1) {
        it_clone(&first[0], &o->gi);
        it_clone(&first[1], &o->gw);
    } else if (!it_same_bits(&first[0], &o->gi) || !it_same_bits(&first[1], &o->gw)) {
        printf("FAIL seed %" PRIu64 " isa %s: %d threads differ from 1 thread: %s\n", seed, isa,
               threads, desc);
        it_fail();
    }
}
