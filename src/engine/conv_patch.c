/* gradInput of patch convolutions (conv_patch.h).
 *
 * When dil * (k - 1) < stride in every dim, a gradInput element at
 * i = o * stride - pad + t * dil has one (o, t) at most, so
 *   gradInput[n][c][patch of o][t] = sum_o' w[o'][c][t] * dy[n][o'][o]:
 * a 1x1 gradInput of C * taps channels over gradOutput's positions, with the
 * weights as [O][C * taps] (one run when w's (c, kd, kh, kw) dims are). The
 * fast engine's data pass computes those columns for a chunk of images into
 * the workspace (its kernels, dtypes, precision modes and result rounding:
 * each column element is a finished gradInput value), and the columns are
 * then spread into gradInput's patches, a transpose per patch row.
 *
 * The phase split of the fast engine's own data pass takes at most
 * FAST_MAX_SUBS output phases: ViT's 16 x 16 / stride 16 patch embedding has
 * 256, each with one tap, and fell to the direct implementation (3 x 224 x
 * 224 gradInput of 768 channels: 14 s an image, now ~1 ms). */
#include "engine/conv_patch.h"

#include <string.h>

#include "common/dtype.h"
#include "engine/conv_fast_internal.h"
#include "engine/conv_views.h"
#include "threading/pool.h"

typedef struct patch_state {
    /* the 1x1 pass of a chunk of nb images; [1]: of the last chunk's */
    data_state ds[2];
    int64_t nb, nchunks, last;
    uint64_t cols_off, pass_off; /* workspace: the chunk's columns, then the pass's own */
    bool zero; /* some gradInput elements are read by no tap: planes zeroed first */
} patch_state;

_Static_assert(sizeof(patch_state) <= CONV_IMPL_STATE_BYTES, "state too large");

static int64_t patch_taps(const conv_problem *p)
{
    return p->ks[0] * p->ks[1] * p->ks[2];
}

static int64_t patch_positions(const conv_problem *p)
{
    return p->ys[0] * p->ys[1] * p->ys[2];
}

/* The step between w's elements along its (c, kd, kh, kw) dims taken as one
 * index, or 0 when they are not one run with a positive step. */
static int64_t weight_run_step(const conv_view *w)
{
    int64_t step = 0, span = 1;
    for (int d = 4; d >= 1; --d) {
        if (w->dim[d] == 1) continue;
        if (step == 0)
            step = w->stride[d];
        else if (w->stride[d] != step * span)
            return 0;
        span *= w->dim[d];
    }
    return step == 0 ? 1 : step > 0 ? step : 0;
}

/* The 1x1 problem of images [n0, n0 + nb) of p: gradOutput's positions as
 * its input's, w as [G * OG][CG * taps], gradInput the dense fp32 columns
 * [nb][G * CG * taps][positions] at cols (NULL while planning). */
static void patch_problem(const conv_problem *p, int64_t n0, int64_t nb, float *cols,
                          conv_problem *q)
{
    const int64_t taps = patch_taps(p), pos = patch_positions(p);
    *q = *p;
    q->n = nb;
    q->cg = p->cg * taps;
    for (int i = 0; i < CONV_SPATIAL; ++i) {
        q->xs[i] = p->ys[i];
        q->ks[i] = q->stride[i] = q->dil[i] = 1;
        q->pad[i] = 0;
    }
    q->y.data = p->y.data + n0 * p->y.stride[0] * (int64_t)dtype_bytes(p->y.dtype);
    q->y.dim[0] = nb;
    q->bias_src = q->y;
    const int64_t step = weight_run_step(&p->w);
    q->w.dim[1] = q->cg;
    q->w.stride[1] = step;
    for (int d = 2; d < CONV_VIEW_DIMS; ++d) {
        q->w.dim[d] = 1;
        q->w.stride[d] = step;
    }
    conv_view c = {.data = (char *)cols, .dtype = ACL_FLOAT};
    c.dim[0] = nb;
    c.dim[1] = p->g * q->cg;
    for (int i = 0; i < CONV_SPATIAL; ++i)
        c.dim[2 + i] = p->ys[i];
    c.stride[4] = 1;
    c.stride[3] = p->ys[2];
    c.stride[2] = p->ys[1] * p->ys[2];
    c.stride[1] = pos;
    c.stride[0] = c.dim[1] * pos;
    q->grad_input = c;
    q->x = c; /* (x-shaped; the data pass of D never reads it) */
    q->x.data = NULL;
    q->x.dtype = p->x.dtype;
    q->grad_weight.data = NULL;
    q->grad_bias.data = NULL;
}

static const char *patch_why_not(const conv_problem *p, conv_pass pass, aclconvIsa isa)
{
    if (pass != CONV_PASS_DATA) return "gradInput only";
    if (p->data_dir != CONV_DIR_BWD_DATA) return "not the gradInput of a regular convolution";
    if (p->empty) return "empty tensors";
    for (int i = 0; i < CONV_SPATIAL; ++i)
        if (p->dil[i] * (p->ks[i] - 1) >= p->stride[i])
            return "patches overlap (dilation * (k - 1) >= stride)";
    if (weight_run_step(&p->w) == 0) return "weight dims (c, kd, kh, kw) are not one run";
    conv_problem q;
    patch_problem(p, 0, 1, NULL, &q);
    return data_why_not(&q, isa);
}

/* Whether every gradInput element is read by a tap: undilated windows of
 * the stride, edge to edge, from the first element to the last. */
static bool patch_covers(const conv_problem *p)
{
    for (int i = 0; i < CONV_SPATIAL; ++i)
        if (p->ks[i] != p->stride[i] || (p->ks[i] > 1 && p->dil[i] != 1) || p->pad[i] != 0 ||
            p->xs[i] != p->ys[i] * p->stride[i])
            return false;
    return true;
}

static bool patch_plan(const conv_problem *p, conv_pass pass, aclconvIsa isa, void *state,
                       uint64_t *workspace_bytes)
{
    (void)pass;
    patch_state *st = state;
    const int64_t img = smul(smul(p->g * p->cg, patch_taps(p)), patch_positions(p));
    if (img > FAST_MAX_FLOATS) return false;
    st->nb = max64(1, min64(p->n, PATCH_COLS_FLOATS / img));
    st->nchunks = ceil_div(p->n, st->nb);
    st->last = p->n - (st->nchunks - 1) * st->nb;
    uint64_t bytes[2];
    for (int i = 0; i < 2; ++i) {
        conv_problem q;
        patch_problem(p, 0, i == 0 ? st->nb : st->last, NULL, &q);
        if (!data_plan(&q, isa, &st->ds[i], &bytes[i])) return false;
    }
    uint64_t size = 0, pass_size = bytes[0] > bytes[1] ? bytes[0] : bytes[1];
    if (!ws_take(&size, st->nb * img, &st->cols_off) ||
        !ws_take(&size, (int64_t)(pass_size / sizeof(float)) + 1, &st->pass_off))
        return false;
    st->zero = !patch_covers(p);
    *workspace_bytes = size;
    return true;
}

typedef struct patch_run {
    const conv_problem *p;
    const patch_state *st;
    const conv_ukernels *k;
    const float *cols;
    int64_t n0;
} patch_run;

/* Zeros plane (n, c) of gradInput. */
static void zero_plane(const conv_view *out, int64_t n, int64_t c)
{
    for (int64_t d = 0; d < out->dim[2]; ++d)
        for (int64_t h = 0; h < out->dim[3]; ++h) {
            const int64_t at = conv_view_index(out, n, c, d, h, 0);
            if (out->stride[4] == 1) {
                memset(out->data + at * (int64_t)dtype_bytes(out->dtype), 0,
                       (size_t)out->dim[4] * dtype_bytes(out->dtype));
                continue;
            }
            for (int64_t w = 0; w < out->dim[4]; ++w)
                store_from_f32(out->data, out->dtype, at + w * out->stride[4], 0.0f);
        }
}

/* Spreads the columns of image n0 + i, channel c (task i * C + c) into
 * gradInput: tap (kd, kh, kw) of position (od, oh, ow) to element
 * (od * s - pad + kd * dil, ...). A row of patches (od, oh, kd, kh) is a
 * transpose of its [kw][ow] columns where all of them land inside gradInput
 * (fp32, unit steps), element by element at its ends and otherwise. */
static void patch_spread_task(void *ctx, size_t task)
{
    const patch_run *r = ctx;
    const conv_problem *p = r->p;
    const conv_view *out = &p->grad_input;
    const int64_t chans = p->g * p->cg, i = (int64_t)task / chans, c = (int64_t)task % chans;
    const int64_t n = r->n0 + i, pos = patch_positions(p);
    const int64_t *s = p->stride, *dl = p->dil, *pd = p->pad, *ks = p->ks;
    if (r->st->zero) zero_plane(out, n, c);
    const float *col = r->cols + (i * chans + c) * patch_taps(p) * pos;
    /* the ow whose every kw lands inside gradInput: [ow_lo, ow_hi) */
    const int64_t ow_lo = min64(p->ys[2], ceil_div(pd[2], s[2]));
    const int64_t last = p->xs[2] - 1 + pd[2] - dl[2] * (ks[2] - 1);
    const int64_t ow_hi = max64(ow_lo, last < 0 ? 0 : min64(p->ys[2], last / s[2] + 1));
    const bool rows = out->dtype == ACL_FLOAT && out->stride[4] == 1 && dl[2] == 1;
    for (int64_t kd = 0; kd < ks[0]; ++kd)
        for (int64_t kh = 0; kh < ks[1]; ++kh) {
            const float *tap = col + (kd * ks[1] + kh) * ks[2] * pos;
            for (int64_t od = 0; od < p->ys[0]; ++od) {
                const int64_t id = od * s[0] - pd[0] + kd * dl[0];
                if (id < 0 || id >= p->xs[0]) continue;
                for (int64_t oh = 0; oh < p->ys[1]; ++oh) {
                    const int64_t ih = oh * s[1] - pd[1] + kh * dl[1];
                    if (ih < 0 || ih >= p->xs[1]) continue;
                    const float *src = tap + (od * p->ys[1] + oh) * p->ys[2];
                    const int64_t at = conv_view_index(out, n, c, id, ih, 0);
                    const int64_t lo = rows ? ow_lo : 0, hi = rows ? ow_hi : 0;
                    if (hi > lo)
                        r->k->transpose((size_t)ks[2], (size_t)(hi - lo), src + lo, (size_t)pos,
                                        (float *)out->data + at + lo * s[2] - pd[2], (size_t)s[2]);
                    for (int64_t ow = 0; ow < p->ys[2]; ++ow) {
                        if (ow >= lo && ow < hi) continue;
                        for (int64_t kw = 0; kw < ks[2]; ++kw) {
                            const int64_t iw = ow * s[2] - pd[2] + kw * dl[2];
                            if (iw < 0 || iw >= p->xs[2]) continue;
                            store_from_f32(out->data, out->dtype, at + iw * out->stride[4],
                                           src[kw * pos + ow]);
                        }
                    }
                }
            }
        }
}

static void patch_run_pass(const conv_problem *p, conv_pass pass, const void *state,
                           void *workspace)
{
    (void)pass;
    const patch_state *st = state;
    char *ws = workspace;
    float *cols = (float *)(void *)(ws + st->cols_off);
    patch_run r = {.p = p, .st = st, .k = conv_ukernels_for(st->ds[0].isa), .cols = cols};
    for (int64_t ch = 0; ch < st->nchunks; ++ch) {
        const bool last = ch + 1 == st->nchunks;
        const int64_t nb = last ? st->last : st->nb;
        conv_problem q;
        r.n0 = ch * st->nb;
        patch_problem(p, r.n0, nb, cols, &q);
        data_run_pass(&q, &st->ds[last], ws + st->pass_off);
        pool_parallel_for((size_t)(nb * p->g * p->cg), patch_spread_task, &r);
    }
}

const conv_impl conv_impl_patch = {
    .name = "patch",
    .why_not = patch_why_not,
    .plan = patch_plan,
    .run = patch_run_pass,
};
