#include "engine/conv_direct.h"

#include "common/checked.h"
#include "engine/conv_impl.h"
#include "threading/pool.h"

#include "common/dtype.h"
#include "engine/conv_views.h"

/* Index of (n, c, d, h, w) in a packed [N, C, S0, S1, S2] buffer. */
static inline int64_t packed_index(const int64_t *s, int64_t channels, int64_t n, int64_t c,
                                   int64_t d, int64_t h, int64_t w)
{
    return (((n * channels + c) * s[0] + d) * s[1] + h) * s[2] + w;
}

/* The output position o with o*stride - pad + k*dil == i, or -1 if none. */
static inline int64_t out_pos(int64_t i, int64_t k, int64_t stride, int64_t dil, int64_t pad,
                              int64_t out_size)
{
    int64_t num = i + pad - k * dil;
    if (num < 0 || num % stride != 0) return -1;
    int64_t o = num / stride;
    return o < out_size ? o : -1;
}

/* The input position read by output o and tap k, or -1 when it is padding. */
static inline int64_t in_pos(int64_t o, int64_t k, int64_t stride, int64_t dil, int64_t pad,
                             int64_t in_size)
{
    int64_t i = o * stride - pad + k * dil;
    return i >= 0 && i < in_size ? i : -1;
}

/* The data passes sum each element tap by tap, the channels of a tap
 * innermost: the tap's positions are found once for all channels (with the
 * channels outermost, the divisions of out_pos ran for every channel and
 * tap: 0.1-0.2 GFLOP/s on layers that fell here, such as a 2-D k7 s6 one of
 * 256 channels, 4.7 s where oneDNN took 4 ms). */
void conv_direct_bwd_data(const conv_problem *p, const conv_packed *t, int64_t n, int64_t c)
{
    const int64_t *ks = p->ks, *s = p->stride, *dl = p->dil, *pd = p->pad;
    const int64_t grp = c / p->cg, cl = c % p->cg, ychan = p->g * p->og;
    const int64_t yplane = p->ys[0] * p->ys[1] * p->ys[2], wstep = p->cg * ks[0] * ks[1] * ks[2];
    const conv_view *out = &p->grad_input;
    for (int64_t id = 0; id < p->xs[0]; ++id)
        for (int64_t ih = 0; ih < p->xs[1]; ++ih)
            for (int64_t iw = 0; iw < p->xs[2]; ++iw) {
                float acc = 0.0f;
                for (int64_t kd = 0; kd < ks[0]; ++kd) {
                    const int64_t od = out_pos(id, kd, s[0], dl[0], pd[0], p->ys[0]);
                    if (od < 0) continue;
                    for (int64_t kh = 0; kh < ks[1]; ++kh) {
                        const int64_t oh = out_pos(ih, kh, s[1], dl[1], pd[1], p->ys[1]);
                        if (oh < 0) continue;
                        for (int64_t kw = 0; kw < ks[2]; ++kw) {
                            const int64_t ow = out_pos(iw, kw, s[2], dl[2], pd[2], p->ys[2]);
                            if (ow < 0) continue;
                            const float *y =
                                t->y + packed_index(p->ys, ychan, n, grp * p->og, od, oh, ow);
                            const float *w =
                                t->w + packed_index(ks, p->cg, grp * p->og, cl, kd, kh, kw);
                            for (int64_t o = 0; o < p->og; ++o)
                                acc += y[o * yplane] * w[o * wstep];
                        }
                    }
                }
                store_from_f32(out->data, out->dtype, conv_view_index(out, n, c, id, ih, iw),
                               conv_round_result(acc, p->mode));
            }
}

void conv_direct_fwd(const conv_problem *p, const conv_packed *t, int64_t n, int64_t o)
{
    const int64_t *ks = p->ks, *s = p->stride, *dl = p->dil, *pd = p->pad;
    const int64_t grp = o / p->og, xchan = p->g * p->cg, taps = ks[0] * ks[1] * ks[2];
    const int64_t xplane = p->xs[0] * p->xs[1] * p->xs[2];
    const conv_view *out = &p->grad_input;
    for (int64_t od = 0; od < p->ys[0]; ++od)
        for (int64_t oh = 0; oh < p->ys[1]; ++oh)
            for (int64_t ow = 0; ow < p->ys[2]; ++ow) {
                float acc = 0.0f;
                for (int64_t kd = 0; kd < ks[0]; ++kd) {
                    const int64_t id = in_pos(od, kd, s[0], dl[0], pd[0], p->xs[0]);
                    if (id < 0) continue;
                    for (int64_t kh = 0; kh < ks[1]; ++kh) {
                        const int64_t ih = in_pos(oh, kh, s[1], dl[1], pd[1], p->xs[1]);
                        if (ih < 0) continue;
                        for (int64_t kw = 0; kw < ks[2]; ++kw) {
                            const int64_t iw = in_pos(ow, kw, s[2], dl[2], pd[2], p->xs[2]);
                            if (iw < 0) continue;
                            const float *x =
                                t->x + packed_index(p->xs, xchan, n, grp * p->cg, id, ih, iw);
                            const float *w = t->w + packed_index(ks, p->cg, o, 0, kd, kh, kw);
                            for (int64_t cl = 0; cl < p->cg; ++cl)
                                acc += x[cl * xplane] * w[cl * taps];
                        }
                    }
                }
                store_from_f32(out->data, out->dtype, conv_view_index(out, n, o, od, oh, ow),
                               conv_round_result(acc, p->mode));
            }
}

void conv_direct_bwd_weights(const conv_problem *p, const conv_packed *t, int64_t o)
{
    const int64_t *ks = p->ks, *s = p->stride, *dl = p->dil, *pd = p->pad;
    const int64_t grp = o / p->og, xchan = p->g * p->cg, ychan = p->g * p->og;
    const conv_view *out = &p->grad_weight;
    for (int64_t cl = 0; cl < p->cg; ++cl)
        for (int64_t kd = 0; kd < ks[0]; ++kd)
            for (int64_t kh = 0; kh < ks[1]; ++kh)
                for (int64_t kw = 0; kw < ks[2]; ++kw) {
                    float acc = 0.0f;
                    for (int64_t n = 0; n < p->n; ++n)
                        for (int64_t od = 0; od < p->ys[0]; ++od) {
                            int64_t id = in_pos(od, kd, s[0], dl[0], pd[0], p->xs[0]);
                            if (id < 0) continue;
                            for (int64_t oh = 0; oh < p->ys[1]; ++oh) {
                                int64_t ih = in_pos(oh, kh, s[1], dl[1], pd[1], p->xs[1]);
                                if (ih < 0) continue;
                                for (int64_t ow = 0; ow < p->ys[2]; ++ow) {
                                    int64_t iw = in_pos(ow, kw, s[2], dl[2], pd[2], p->xs[2]);
                                    if (iw < 0) continue;
                                    acc += t->x[packed_index(p->xs, xchan, n, grp * p->cg + cl,
                                                             id, ih, iw)] *
                                           t->y[packed_index(p->ys, ychan, n, o, od, oh, ow)];
                                }
                            }
                        }
                    store_from_f32(out->data, out->dtype,
                                   conv_view_index(out, o, cl, kd, kh, kw), acc);
                }
}

/* ---- the implementation: pack whole operands, then one task per output row ---- */

/* Where a packed operand lives in the workspace; bytes == 0 when unused. */
typedef struct ws_region {
    size_t offset, bytes;
} ws_region;

typedef struct direct_state {
    ws_region x, y, w;
    aclconvIsa isa; /* the packing's row kernels */
} direct_state;

/* Reserves an aligned region for numel floats; false on overflow. */
static bool ws_reserve(uint64_t *size, int64_t numel, ws_region *r)
{
    size_t bytes, end;
    if (!checked_mul_size((size_t)numel, sizeof(float), &bytes)) return false;
    r->offset = aclconv_round_up((size_t)*size, ACLCONV_ALIGN);
    if (!checked_add_size(r->offset, bytes, &end)) return false;
    r->bytes = bytes;
    *size = end;
    return true;
}

static const char *direct_why_not(const conv_problem *p, conv_pass pass, aclconvIsa isa)
{
    return NULL;
}

static bool direct_plan(const conv_problem *p, conv_pass pass, aclconvIsa isa, void *state,
                        uint64_t *workspace_bytes)
{
    direct_state *st = state;
    st->isa = isa;
    bool need_x = pass == CONV_PASS_WEIGHTS || p->data_dir == CONV_DIR_FWD;
    bool need_y = pass == CONV_PASS_WEIGHTS || p->data_dir == CONV_DIR_BWD_DATA;
    bool need_w = pass == CONV_PASS_DATA;
    uint64_t size = 0;
    bool ok = (!need_x || ws_reserve(&size, conv_view_numel(&p->x), &st->x)) &&
              (!need_y || ws_reserve(&size, conv_view_numel(&p->y), &st->y)) &&
              (!need_w || ws_reserve(&size, conv_view_numel(&p->w), &st->w));
    *workspace_bytes = size;
    return ok;
}

typedef struct direct_run {
    const conv_problem *p;
    const conv_ukernels *k;
    conv_pass pass;
    conv_packed packed;
    float *dst[3]; /* packed x, y, w or NULL */
} direct_run;

static int64_t rows_of(const conv_view *v) { return v->dim[0] * v->dim[1]; }

/* Packs one (n, c) row of x, then of y, then of w. */
static void direct_pack_task(void *arg, size_t i)
{
    direct_run *r = arg;
    const conv_view *views[3] = {&r->p->x, &r->p->y, &r->p->w};
    for (int t = 0; t < 3; ++t) {
        const conv_view *v = views[t];
        size_t rows = r->dst[t] ? (size_t)rows_of(v) : 0;
        if (i < rows) {
            int64_t block = v->dim[2] * v->dim[3] * v->dim[4];
            conv_pack_block(v, (int64_t)i / v->dim[1], (int64_t)i % v->dim[1], r->p->mode, r->k,
                            r->dst[t] + (int64_t)i * block);
            return;
        }
        i -= rows;
    }
}

static void direct_compute_task(void *arg, size_t i)
{
    direct_run *r = arg;
    const conv_problem *p = r->p;
    if (r->pass == CONV_PASS_WEIGHTS) {
        conv_direct_bwd_weights(p, &r->packed, (int64_t)i);
        return;
    }
    int64_t channels = p->grad_input.dim[1];
    int64_t n = (int64_t)i / channels, c = (int64_t)i % channels;
    if (p->data_dir == CONV_DIR_FWD)
        conv_direct_fwd(p, &r->packed, n, c);
    else
        conv_direct_bwd_data(p, &r->packed, n, c);
}

static float *region(void *workspace, ws_region r)
{
    return r.bytes ? (float *)((char *)workspace + r.offset) : NULL;
}

static void direct_run_pass(const conv_problem *p, conv_pass pass, const void *state,
                            void *workspace)
{
    const direct_state *st = state;
    direct_run r = {.p = p, .k = conv_ukernels_for(st->isa), .pass = pass};
    r.dst[0] = region(workspace, st->x);
    r.dst[1] = region(workspace, st->y);
    r.dst[2] = region(workspace, st->w);
    r.packed = (conv_packed){r.dst[0], r.dst[1], r.dst[2]};
    size_t rows = 0;
    if (r.dst[0]) rows += (size_t)rows_of(&p->x);
    if (r.dst[1]) rows += (size_t)rows_of(&p->y);
    if (r.dst[2]) rows += (size_t)rows_of(&p->w);
    pool_parallel_for(rows, direct_pack_task, &r);
    /* one task per output (n, c) row for gradInput, per output channel for gradWeight */
    size_t tasks = pass == CONV_PASS_WEIGHTS ? (size_t)p->grad_weight.dim[0]
                                             : (size_t)rows_of(&p->grad_input);
    pool_parallel_for(tasks, direct_compute_task, &r);
}

const conv_impl conv_impl_direct = {
    .name = "direct",
    .why_not = direct_why_not,
    .plan = direct_plan,
    .run = direct_run_pass,
};
