/* Passes over columns of patches (conv_patch.h).
 *
 * D's gradInput. When dil * (k - 1) < stride in every dim, a gradInput element at
 * i = o * stride - pad + t * dil has one (o, t) at most, so
 *   gradInput[n][c][patch of o][t] = sum_o' w[o'][c][t] * dy[n][o'][o]:
 * a 1x1 gradInput of C * taps channels over gradOutput's positions, with the
 * weights as [O][C * taps] (one run when w's (c, kd, kh, kw) dims are). The
 * fast engine's data pass computes those columns for a chunk of images into
 * the workspace (its kernels, dtypes, precision modes and result rounding:
 * each column element is a finished gradInput value), a chunk of images or,
 * where an image's columns are too many, a block of channels at a time, and
 * the columns are then spread into gradInput's patches, a transpose per
 * patch row.
 *
 * Patches that overlap (dil * (k - 1) >= stride somewhere: a 1-D filterbank
 * of k = 400, stride 160, say) take the same columns, summed into an fp32
 * plane per (image, channel) in tap order and stored with the mode's result
 * rounding: columns without rounding of their own (FLOAT and HF32 modes;
 * in FLOAT16 / BF16 the FLOAT mode over operands of that precision, whose
 * products it computes exactly: patch_ops).
 *
 * The phase split of the fast engine's own data pass takes at most
 * FAST_MAX_SUBS output phases: ViT's 16 x 16 / stride 16 patch embedding has
 * 256, each with one tap, and fell to the direct implementation (3 x 224 x
 * 224 gradInput of 768 channels: 14 s for 4 images, now ~5 ms).
 *
 * gradWeight and F's gradInput: below, "x's patches as columns". */
#include "engine/conv_patch.h"

#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "engine/conv_fast.h"
#include "engine/conv_fast_internal.h"
#include "engine/conv_views.h"
#include "threading/pool.h"

static int64_t patch_taps(const conv_problem *p)
{
    return p->ks[0] * p->ks[1] * p->ks[2];
}

static int64_t patch_positions(const conv_problem *p)
{
    return p->ys[0] * p->ys[1] * p->ys[2];
}

/* Column elements of an image: G * CG * taps x positions. */
static int64_t patch_image_cols(const conv_problem *p)
{
    return smul(smul(p->g * p->cg, patch_taps(p)), patch_positions(p));
}

/* Column elements of one channel of every group, an image: G * taps x
 * positions (a run of the 1x1 pass takes one at least). */
static int64_t patch_channel_cols(const conv_problem *p)
{
    return smul(p->g * patch_taps(p), patch_positions(p));
}

/* The runs of the 1x1 pass: chunks of nb images, the last one of `last`,
 * each at most PATCH_COLS_FLOATS column elements (ACLCONV_PATCH_COLS sets
 * the bound: tests). Where one image has more and channel blocks are taken
 * (D's gradInput), a chunk is one image and a block of cb channels of each
 * group, ncb blocks an image, the last one of last_cb: a block's columns
 * need only its rows of w, and its gradInput planes are its own (a 3-D
 * stride-3 layer of 512 channels on 24^3: 7 Mi column elements an image,
 * which fell to the direct implementation at 0.2 GFLOP/s). Otherwise cb is
 * CG, an image at least a chunk. */
typedef struct patch_chunks {
    int64_t nb, nchunks, last;
    int64_t cb, ncb, last_cb;
} patch_chunks;

static patch_chunks patch_plan_chunks(const conv_problem *p, bool channel_blocks)
{
    const char *e = getenv("ACLCONV_PATCH_COLS");
    const int64_t most = e ? atoll(e) : PATCH_COLS_FLOATS;
    patch_chunks c = {.cb = p->cg, .ncb = 1, .last_cb = p->cg};
    c.nb = max64(1, min64(p->n, most / patch_image_cols(p)));
    if (channel_blocks && patch_image_cols(p) > most) {
        c.nb = 1;
        c.cb = max64(1, most / patch_channel_cols(p));
        c.ncb = ceil_div(p->cg, c.cb);
        c.last_cb = p->cg - (c.ncb - 1) * c.cb;
    }
    c.nchunks = ceil_div(p->n, c.nb);
    c.last = p->n - (c.nchunks - 1) * c.nb;
    return c;
}

/* How the 1x1 pass of D's gradInput reads its operands. Overlapping
 * patches in a mode that rounds gradInput (FLOAT16, BF16) need columns
 * without that rounding: the pass runs in FLOAT mode on operands of the
 * mode's precision, whose products fp32 holds exactly, so a column is the
 * mode's sum before its rounding. An operand of another dtype is rounded
 * into a dense fp32 copy first (gradOutput a chunk of images at a time,
 * the weights once): fp32 layers with overlapping patches of more than 16
 * phases in cubeMathType 2 took `direct` (a 2-D k7 s6 layer 121 ms against
 * 12 ms in mode 0). */
typedef struct patch_ops {
    conv_mode qmode;
    bool ycopy, wcopy;
} patch_ops;

typedef struct patch_state {
    /* the 1x1 pass of a chunk of nb images and cb channels; [1]: of one of
     * last images or last_cb channels (one of them is nb or cb) */
    data_state ds[2];
    patch_ops ops;
    patch_chunks ch;
    uint64_t cols_off, pass_off; /* workspace: the chunk's columns, then the pass's own */
    bool zero;    /* some gradInput elements are read by no tap: planes zeroed first */
    bool overlap; /* patches overlap: columns summed in a plane per slot (plane_off) */
    int slots;
    int64_t plane_floats;
    uint64_t plane_off;
    uint64_t ycopy_off, wcopy_off; /* ops.ycopy, ops.wcopy */
} patch_state;

_Static_assert(sizeof(patch_state) <= CONV_IMPL_STATE_BYTES, "state too large");

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

static bool patches_overlap(const conv_problem *p)
{
    for (int i = 0; i < CONV_SPATIAL; ++i)
        if (p->dil[i] * (p->ks[i] - 1) >= p->stride[i]) return true;
    return false;
}

static patch_ops patch_operands(const conv_problem *p)
{
    patch_ops o = {.qmode = p->mode};
    if (patches_overlap(p) && conv_result_round_kind(p->mode) != F32_ROUND_NONE) {
        o.qmode = CONV_MODE_F32;
        o.ycopy = !conv_mode_keeps(p->y.dtype, p->mode);
        o.wcopy = !conv_mode_keeps(p->w.dtype, p->mode);
    }
    return o;
}

/* q = p as a 1x1 problem over gradOutput's positions for images [n0, n0 +
 * nb) with CG * taps input channels a group: x-shaped views and w keep p's
 * until the caller sets them; no outputs. */
static void patch_1x1(const conv_problem *p, int64_t n0, int64_t nb, conv_problem *q)
{
    *q = *p;
    q->n = nb;
    q->cg = p->cg * patch_taps(p);
    for (int i = 0; i < CONV_SPATIAL; ++i) {
        q->xs[i] = p->ys[i];
        q->ks[i] = q->stride[i] = q->dil[i] = 1;
        q->pad[i] = 0;
    }
    q->y.data = p->y.data + n0 * p->y.stride[0] * (int64_t)dtype_bytes(p->y.dtype);
    q->y.dim[0] = nb;
    q->bias_src = q->y;
    q->grad_input.data = NULL;
    q->grad_weight.data = NULL;
    q->grad_bias.data = NULL;
}

/* A dense view [n][chans][gradOutput's positions] at data, elements of
 * dtype dt. */
static conv_view patch_dense_view(const conv_problem *p, int64_t n, int64_t chans, void *data,
                                  aclDataType dt)
{
    conv_view c = {.data = (char *)data, .dtype = dt};
    c.dim[0] = n;
    c.dim[1] = chans;
    for (int i = 0; i < CONV_SPATIAL; ++i)
        c.dim[2 + i] = p->ys[i];
    c.stride[4] = 1;
    c.stride[3] = p->ys[2];
    c.stride[2] = p->ys[1] * p->ys[2];
    c.stride[1] = patch_positions(p);
    c.stride[0] = c.dim[1] * c.stride[1];
    return c;
}

/* The dense columns [nb][G * CG * taps][positions] of q (patch_1x1) at
 * data, elements of dtype dt. */
static conv_view patch_cols_view(const conv_problem *p, const conv_problem *q, void *data,
                                 aclDataType dt)
{
    return patch_dense_view(p, q->n, p->g * q->cg, data, dt);
}

/* w of q as [G * OG][CG * taps]: w's (c, kd, kh, kw) dims as one at step
 * (weight_run_step; 1 where they are not one run: then only its shape is
 * right, which the weights pass alone may use). */
static void patch_weights_1x1(const conv_problem *p, conv_problem *q)
{
    const int64_t step = weight_run_step(&p->w);
    q->w.dim[1] = q->cg;
    for (int d = 1; d < CONV_VIEW_DIMS; ++d) {
        if (d > 1) q->w.dim[d] = 1;
        q->w.stride[d] = step > 0 ? step : 1;
    }
}

/* The 1x1 problem of images [n0, n0 + nb), channels [c0, c0 + cb) of each
 * group of p read as ops says: gradOutput's positions as its input's (or
 * the chunk's copy at ycopy), w as [G * OG][cb * taps] (w's rows from
 * channel c0 on, or the copy's [G * OG][CG * taps] at wcopy), gradInput the
 * dense fp32 columns [nb][G * cb * taps][positions] at cols (pointers NULL
 * while planning). */
static void patch_problem(const conv_problem *p, const patch_ops *ops, int64_t n0, int64_t nb,
                          int64_t c0, int64_t cb, float *cols, float *ycopy, float *wcopy,
                          conv_problem *q)
{
    const int64_t taps = patch_taps(p);
    patch_1x1(p, n0, nb, q);
    q->cg = cb * taps;
    q->mode = ops->qmode;
    if (ops->ycopy) {
        q->y = patch_dense_view(p, nb, p->g * p->og, ycopy, ACL_FLOAT);
        q->bias_src = q->y;
    }
    if (ops->wcopy) {
        conv_view w = {.data = (char *)(wcopy ? wcopy + c0 * taps : NULL), .dtype = ACL_FLOAT};
        w.dim[0] = p->g * p->og;
        w.dim[1] = q->cg;
        w.dim[2] = w.dim[3] = w.dim[4] = 1;
        w.stride[0] = p->cg * taps;
        w.stride[1] = w.stride[2] = w.stride[3] = w.stride[4] = 1;
        q->w = w;
    } else {
        patch_weights_1x1(p, q);
        q->w.data += c0 * taps * q->w.stride[1] * (int64_t)dtype_bytes(p->w.dtype);
    }
    q->grad_input = patch_cols_view(p, q, cols, ACL_FLOAT);
    q->x = q->grad_input; /* (x-shaped; the data pass of D never reads it) */
    q->x.data = NULL;
    q->x.dtype = p->x.dtype;
}

static const char *patch_data_why_not(const conv_problem *p, aclconvIsa isa)
{
    if (p->empty) return "empty tensors";
    if (patch_channel_cols(p) > PATCH_COLS_FLOATS)
        return "a channel's columns (G * taps x positions) exceed PATCH_COLS_FLOATS";
    const patch_ops ops = patch_operands(p);
    if (!ops.wcopy && weight_run_step(&p->w) == 0)
        return "weight dims (c, kd, kh, kw) are not one run";
    conv_problem q;
    patch_problem(p, &ops, 0, 1, 0, p->cg, NULL, NULL, NULL, &q);
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

static bool patch_data_plan(const conv_problem *p, aclconvIsa isa, void *state,
                            uint64_t *workspace_bytes)
{
    patch_state *st = state;
    st->ch = patch_plan_chunks(p, true);
    st->ops = patch_operands(p);
    uint64_t bytes[2];
    for (int i = 0; i < 2; ++i) {
        conv_problem q;
        patch_problem(p, &st->ops, 0, i == 0 ? st->ch.nb : st->ch.last, 0,
                      i == 0 ? st->ch.cb : st->ch.last_cb, NULL, NULL, NULL, &q);
        if (!data_plan(&q, isa, &st->ds[i], &bytes[i])) return false;
    }
    uint64_t size = 0, pass_size = bytes[0] > bytes[1] ? bytes[0] : bytes[1];
    const int64_t ychans = p->g * p->og;
    if (!ws_take(&size, st->ch.nb * st->ch.cb * patch_channel_cols(p), &st->cols_off) ||
        !ws_take(&size, (int64_t)(pass_size / sizeof(float)) + 1, &st->pass_off) ||
        !ws_take(&size, st->ops.ycopy ? smul(st->ch.nb * ychans, patch_positions(p)) : 0,
                 &st->ycopy_off) ||
        !ws_take(&size, st->ops.wcopy ? smul(ychans * p->cg, patch_taps(p)) : 0, &st->wcopy_off))
        return false;
    st->overlap = patches_overlap(p);
    st->zero = !st->overlap && !patch_covers(p);
    st->slots = plan_slots();
    st->plane_floats = round_up64(p->xs[0] * p->xs[1] * p->xs[2], 16);
    if (st->overlap && (st->plane_floats > FAST_MAX_FLOATS ||
                        !ws_take(&size, st->plane_floats * st->slots, &st->plane_off)))
        return false;
    *workspace_bytes = size;
    return true;
}

typedef struct patch_run {
    const conv_problem *p;
    const patch_state *st;
    const conv_ukernels *k;
    const float *cols;
    float *planes; /* overlap: a plane per slot */
    float *ycopy, *wcopy; /* patch_ops */
    int64_t n0, c0, cb; /* the chunk's first image, its channels of each group */
} patch_run;

/* w's block (o, c) (task o * CG + c) rounded into its copy */
static void patch_wcopy_task(void *ctx, size_t task)
{
    const patch_run *r = ctx;
    const conv_problem *p = r->p;
    const int64_t t = (int64_t)task;
    conv_pack_block(&p->w, t / p->cg, t % p->cg, p->mode, r->k, r->wcopy + t * patch_taps(p));
}

/* gradOutput's plane (n0 + i, o) (task i * G * OG + o) rounded into the
 * chunk's copy */
static void patch_ycopy_task(void *ctx, size_t task)
{
    const patch_run *r = ctx;
    const conv_problem *p = r->p;
    const int64_t t = (int64_t)task, chans = p->g * p->og;
    conv_pack_block(&p->y, r->n0 + t / chans, t % chans, p->mode, r->k,
                    r->ycopy + t * patch_positions(p));
}

/* fp32 patch rows of at most this many elements are copied by a loop here:
 * a transpose kernel call for 3 x 3 elements (a k3 s5 layer on 13 x 13) was
 * 30% of its gradInput */
#define PATCH_SHORT_ROW 64

/* fp32 of a 16-bit patch row transposed at a time (a buffer on the stack):
 * whole patches, so a W kernel side of at most this */
#define PATCH_ROW16_FLOATS 512

/* Positions [lo, hi) of a patch row of a 16-bit gradInput whose patches lie
 * edge to edge in W (k == stride, unit steps), from its [kw][ow] columns at
 * src (pitch pos), to the run at element `at`: transposed into fp32 a block
 * of positions at a time, then narrowed by conv_store_results (its rounding
 * keeps the columns' values, which carry the mode's already). */
static void spread_row16(const patch_run *r, const float *src, int64_t pos, int64_t lo, int64_t hi,
                         int64_t at)
{
    const conv_problem *p = r->p;
    const int64_t kw = p->ks[2], block = PATCH_ROW16_FLOATS / kw;
    float buf[PATCH_ROW16_FLOATS];
    for (int64_t o0 = lo; o0 < hi; o0 += block) {
        const int64_t cnt = min64(block, hi - o0);
        r->k->transpose((size_t)kw, (size_t)cnt, src + o0, (size_t)pos, buf, (size_t)kw);
        conv_store_results(&p->grad_input, p->mode, r->k, false, at + (o0 - lo) * kw, 1, cnt * kw,
                           buf);
    }
}

/* The gradInput channel of the chunk's channel cl (of G * cb), and the
 * columns of its image i. */
static int64_t patch_chunk_channel(const patch_run *r, int64_t i, int64_t cl, const float **col)
{
    const conv_problem *p = r->p;
    *col = r->cols + (i * p->g * r->cb + cl) * patch_taps(p) * patch_positions(p);
    return cl / r->cb * p->cg + r->c0 + cl % r->cb;
}

/* Spreads the columns of image n0 + i, the chunk's channel cl (task i * G
 * * cb + cl) into gradInput: tap (kd, kh, kw) of position (od, oh, ow) to element
 * (od * s - pad + kd * dil, ...). A row of patches (od, oh, kd, kh) is a
 * transpose of its [kw][ow] columns where all of them land inside gradInput
 * (unit steps; fp32, or 16-bit through spread_row16 where the patches lie
 * edge to edge), element by element at its ends and otherwise. */
static void patch_spread_task(void *ctx, size_t task)
{
    const patch_run *r = ctx;
    const conv_problem *p = r->p;
    const conv_view *out = &p->grad_input;
    const int64_t chans = p->g * r->cb, i = (int64_t)task / chans;
    const int64_t n = r->n0 + i, pos = patch_positions(p);
    const int64_t *s = p->stride, *dl = p->dil, *pd = p->pad, *ks = p->ks;
    const float *col;
    const int64_t c = patch_chunk_channel(r, i, (int64_t)task % chans, &col);
    if (r->st->zero) conv_view_zero_plane(out, n, c);
    /* the ow whose every kw lands inside gradInput: [ow_lo, ow_hi) */
    const int64_t ow_lo = min64(p->ys[2], ceil_div(pd[2], s[2]));
    const int64_t last = p->xs[2] - 1 + pd[2] - dl[2] * (ks[2] - 1);
    const int64_t ow_hi = max64(ow_lo, last < 0 ? 0 : min64(p->ys[2], last / s[2] + 1));
    const bool rows = out->stride[4] == 1 && dl[2] == 1 &&
                      (out->dtype == ACL_FLOAT || (ks[2] == s[2] && ks[2] <= PATCH_ROW16_FLOATS));
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
                    if (hi > lo && out->dtype == ACL_FLOAT &&
                        (hi - lo) * ks[2] <= PATCH_SHORT_ROW) {
                        float *dst = (float *)out->data + at + lo * s[2] - pd[2];
                        for (int64_t ow = lo; ow < hi; ++ow, dst += s[2])
                            for (int64_t kw = 0; kw < ks[2]; ++kw)
                                dst[kw] = src[kw * pos + ow];
                    } else if (hi > lo && out->dtype == ACL_FLOAT) {
                        r->k->transpose((size_t)ks[2], (size_t)(hi - lo), src + lo, (size_t)pos,
                                        (float *)out->data + at + lo * s[2] - pd[2], (size_t)s[2]);
                    } else if (hi > lo) /* 16-bit: patches edge to edge in W (k == stride) */
                        spread_row16(r, src, pos, lo, hi, at + lo * s[2] - pd[2]);
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

/* Overlapping patches: the columns of image n0 + i, the chunk's channel cl
 * (task i * G * cb + cl) summed into the slot's fp32 plane, tap after tap (the same order for
 * any thread count), then stored with the mode's result rounding. */
static void patch_sum_task(void *ctx, size_t task, int slot)
{
    const patch_run *r = ctx;
    const conv_problem *p = r->p;
    const patch_state *st = r->st;
    const conv_view *out = &p->grad_input;
    const int64_t chans = p->g * r->cb, i = (int64_t)task / chans;
    const int64_t n = r->n0 + i, pos = patch_positions(p);
    const int64_t *s = p->stride, *dl = p->dil, *pd = p->pad, *ks = p->ks, *xs = p->xs;
    float *plane = r->planes + (int64_t)slot * st->plane_floats;
    memset(plane, 0, (size_t)(xs[0] * xs[1] * xs[2]) * sizeof(float));
    const float *col;
    const int64_t c = patch_chunk_channel(r, i, (int64_t)task % chans, &col);
    for (int64_t kd = 0; kd < ks[0]; ++kd)
        for (int64_t kh = 0; kh < ks[1]; ++kh)
            for (int64_t kw = 0; kw < ks[2]; ++kw, col += pos)
                for (int64_t od = 0; od < p->ys[0]; ++od) {
                    const int64_t id = od * s[0] - pd[0] + kd * dl[0];
                    if (id < 0 || id >= xs[0]) continue;
                    for (int64_t oh = 0; oh < p->ys[1]; ++oh) {
                        const int64_t ih = oh * s[1] - pd[1] + kh * dl[1];
                        if (ih < 0 || ih >= xs[1]) continue;
                        const float *src = col + (od * p->ys[1] + oh) * p->ys[2];
                        float *row = plane + (id * xs[1] + ih) * xs[2];
                        for (int64_t ow = 0; ow < p->ys[2]; ++ow) {
                            const int64_t iw = ow * s[2] - pd[2] + kw * dl[2];
                            if (iw >= 0 && iw < xs[2]) row[iw] += src[ow];
                        }
                    }
                }
    for (int64_t d = 0; d < xs[0]; ++d)
        for (int64_t h = 0; h < xs[1]; ++h)
            conv_store_results(out, p->mode, r->k, false, conv_view_index(out, n, c, d, h, 0),
                               out->stride[4], xs[2], plane + (d * xs[1] + h) * xs[2]);
}

static void patch_data_run(const conv_problem *p, const void *state, void *workspace)
{
    const patch_state *st = state;
    char *ws = workspace;
    float *cols = (float *)(void *)(ws + st->cols_off);
    patch_run r = {.p = p,
                   .st = st,
                   .k = conv_ukernels_for(st->ds[0].isa),
                   .cols = cols,
                   .planes = (float *)(void *)(ws + st->plane_off),
                   .ycopy = (float *)(void *)(ws + st->ycopy_off),
                   .wcopy = (float *)(void *)(ws + st->wcopy_off)};
    if (st->ops.wcopy) pool_parallel_for((size_t)(p->g * p->og * p->cg), patch_wcopy_task, &r);
    for (int64_t ch = 0; ch < st->ch.nchunks; ++ch) {
        const int64_t nb = ch + 1 == st->ch.nchunks ? st->ch.last : st->ch.nb;
        r.n0 = ch * st->ch.nb;
        if (st->ops.ycopy) pool_parallel_for((size_t)(nb * p->g * p->og), patch_ycopy_task, &r);
        for (int64_t b = 0; b < st->ch.ncb; ++b) {
            r.cb = b + 1 == st->ch.ncb ? st->ch.last_cb : st->ch.cb;
            r.c0 = b * st->ch.cb;
            conv_problem q;
            patch_problem(p, &st->ops, r.n0, nb, r.c0, r.cb, cols, r.ycopy, r.wcopy, &q);
            /* (nb, cb) is one of the planned shapes: ds[1]'s where it differs */
            const bool other = nb != st->ch.nb || r.cb != st->ch.cb;
            data_run_pass(&q, &st->ds[other], ws + st->pass_off);
            const size_t tasks = (size_t)(nb * p->g * r.cb);
            if (st->overlap)
                pool_parallel_for_slots(tasks, st->slots, patch_sum_task, &r);
            else
                pool_parallel_for(tasks, patch_spread_task, &r);
        }
    }
}

/* ---- x's patches as columns: gradWeight, and F's gradInput --------------- */

/* A pass over x's patches as columns [nb][G * CG * taps][positions] in x's
 * dtype (a copy of each element a tap reads, zeros for padding), a chunk of
 * nb images at a time, by the fast engine's 1x1 pass:
 * - gradWeight: each chunk's sums into an fp32 [G * OG][CG * taps] buffer,
 *   the chunks' sums added in order, the total stored into gradWeight;
 * - F's gradInput (a transposed call): the 1x1 forward pass over the
 *   columns, into the chunk's images of gradInput directly. */
typedef struct patch_xstate {
    union {
        wt_state ws[2];   /* gradWeight: a chunk of nb images; [1]: the last chunk's */
        data_state ds[2]; /* F: the same */
    } u;
    bool weights;
    patch_chunks ch;
    uint64_t cols_off, pass_off, sum_off[2]; /* gradWeight sums: the total, a later chunk's */
} patch_xstate;

_Static_assert(sizeof(patch_xstate) <= CONV_IMPL_STATE_BYTES, "state too large");

/* The 1x1 problem over the columns at cols of images [n0, n0 + nb) of p:
 * gradOutput's positions, w as [G * OG][CG * taps] (its shape only where
 * w's dims are not one run: the weights pass never reads it), no outputs
 * (the caller sets them). */
static void patch_cols_problem(const conv_problem *p, int64_t n0, int64_t nb, void *cols,
                               conv_problem *q)
{
    patch_1x1(p, n0, nb, q);
    q->x = patch_cols_view(p, q, cols, p->x.dtype);
    patch_weights_1x1(p, q);
}

/* patch_cols_problem for pass (weights: gradWeight the dense fp32 sums at
 * sum; else F's gradInput, the chunk's images of p's). */
static void patch_xpass_problem(const conv_problem *p, bool weights, int64_t n0, int64_t nb,
                                void *cols, float *sum, conv_problem *q)
{
    patch_cols_problem(p, n0, nb, cols, q);
    if (weights) {
        conv_view w = {.data = (char *)sum, .dtype = ACL_FLOAT};
        w.dim[0] = p->g * p->og;
        w.dim[1] = q->cg;
        w.dim[2] = w.dim[3] = w.dim[4] = 1;
        w.stride[0] = q->cg;
        w.stride[1] = w.stride[2] = w.stride[3] = w.stride[4] = 1;
        q->grad_weight = w;
        return;
    }
    q->grad_input = p->grad_input;
    q->grad_input.data = p->grad_input.data +
                         n0 * p->grad_input.stride[0] * (int64_t)dtype_bytes(p->grad_input.dtype);
    q->grad_input.dim[0] = nb;
}

static const char *patch_xpass_why_not(const conv_problem *p, bool weights, aclconvIsa isa)
{
    if (p->empty) return "empty tensors";
    if (patch_image_cols(p) > PATCH_COLS_FLOATS)
        return "an image's columns exceed PATCH_COLS_FLOATS";
    if (!weights && weight_run_step(&p->w) == 0)
        return "weight dims (c, kd, kh, kw) are not one run";
    conv_problem q;
    patch_xpass_problem(p, weights, 0, 1, NULL, NULL, &q);
    return weights ? wt_why_not(&q, isa) : data_why_not(&q, isa);
}

static bool patch_xpass_plan(const conv_problem *p, bool weights, aclconvIsa isa, void *state,
                             uint64_t *workspace_bytes)
{
    patch_xstate *st = state;
    st->weights = weights;
    st->ch = patch_plan_chunks(p, false);
    uint64_t bytes[2];
    for (int i = 0; i < 2; ++i) {
        conv_problem q;
        patch_xpass_problem(p, weights, 0, i == 0 ? st->ch.nb : st->ch.last, NULL, NULL, &q);
        if (weights ? !wt_plan(&q, isa, &st->u.ws[i], &bytes[i])
                    : !data_plan(&q, isa, &st->u.ds[i], &bytes[i]))
            return false;
    }
    const int64_t es = (int64_t)dtype_bytes(p->x.dtype);
    const int64_t wfloats = weights ? smul(p->g * p->og, p->cg * patch_taps(p)) : 0;
    uint64_t size = 0, pass_size = bytes[0] > bytes[1] ? bytes[0] : bytes[1];
    if (!ws_take(&size, ceil_div(smul(st->ch.nb * patch_image_cols(p), es), 4), &st->cols_off) ||
        !ws_take(&size, (int64_t)(pass_size / sizeof(float)) + 1, &st->pass_off) ||
        !ws_take(&size, wfloats, &st->sum_off[0]) ||
        !ws_take(&size, st->ch.nchunks > 1 ? wfloats : 0, &st->sum_off[1]))
        return false;
    *workspace_bytes = size;
    return true;
}

typedef struct patch_wrun {
    const conv_problem *p;
    char *cols;
    float *sum, *part;
    int64_t n0;
} patch_wrun;

/* Columns of image n0 + i, channel c (task i * C + c): element (t, o) is x
 * at o * stride - pad + tap * dil, or zero in the padding. */
static void patch_cols_task(void *ctx, size_t task)
{
    const patch_wrun *r = ctx;
    const conv_problem *p = r->p;
    const conv_view *x = &p->x;
    const int64_t chans = p->g * p->cg, i = (int64_t)task / chans, c = (int64_t)task % chans;
    const int64_t n = r->n0 + i, pos = patch_positions(p), es = (int64_t)dtype_bytes(x->dtype);
    const int64_t *s = p->stride, *dl = p->dil, *pd = p->pad, *ks = p->ks, *xs = p->xs;
    char *col = r->cols + (i * chans + c) * patch_taps(p) * pos * es;
    for (int64_t kd = 0; kd < ks[0]; ++kd)
        for (int64_t kh = 0; kh < ks[1]; ++kh)
            for (int64_t kw = 0; kw < ks[2]; ++kw)
                for (int64_t od = 0; od < p->ys[0]; ++od)
                    for (int64_t oh = 0; oh < p->ys[1]; ++oh) {
                        const int64_t id = od * s[0] - pd[0] + kd * dl[0];
                        const int64_t ih = oh * s[1] - pd[1] + kh * dl[1];
                        const bool row = id >= 0 && id < xs[0] && ih >= 0 && ih < xs[1];
                        const int64_t at = row ? conv_view_index(x, n, c, id, ih, 0) : 0;
                        for (int64_t ow = 0; ow < p->ys[2]; ++ow, col += es) {
                            const int64_t iw = ow * s[2] - pd[2] + kw * dl[2];
                            if (row && iw >= 0 && iw < xs[2])
                                memcpy(col, x->data + (at + iw * x->stride[4]) * es, (size_t)es);
                            else
                                memset(col, 0, (size_t)es);
                        }
                    }
}

/* sum += part over output channel o's row (task o) */
static void patch_add_task(void *ctx, size_t task)
{
    const patch_wrun *r = ctx;
    const int64_t len = r->p->cg * patch_taps(r->p);
    float *d = r->sum + (int64_t)task * len;
    const float *a = r->part + (int64_t)task * len;
    for (int64_t j = 0; j < len; ++j)
        d[j] += a[j];
}

/* gradWeight[o][c][taps] = the sums (task o) */
static void patch_store_task(void *ctx, size_t task)
{
    const patch_wrun *r = ctx;
    const conv_problem *p = r->p;
    const conv_view *gw = &p->grad_weight;
    const int64_t o = (int64_t)task, taps = patch_taps(p);
    const float *src = r->sum + o * p->cg * taps;
    for (int64_t c = 0; c < p->cg; ++c)
        for (int64_t kd = 0; kd < p->ks[0]; ++kd)
            for (int64_t kh = 0; kh < p->ks[1]; ++kh)
                for (int64_t kw = 0; kw < p->ks[2]; ++kw)
                    store_from_f32(gw->data, gw->dtype, conv_view_index(gw, o, c, kd, kh, kw),
                                   *src++);
}

static void patch_xpass_run(const conv_problem *p, const void *state, void *workspace)
{
    const patch_xstate *st = state;
    char *ws = workspace;
    patch_wrun r = {
        .p = p, .cols = ws + st->cols_off, .sum = (float *)(void *)(ws + st->sum_off[0])};
    for (int64_t ch = 0; ch < st->ch.nchunks; ++ch) {
        const bool last = ch + 1 == st->ch.nchunks;
        const int64_t nb = last ? st->ch.last : st->ch.nb;
        r.n0 = ch * st->ch.nb;
        pool_parallel_for((size_t)(nb * p->g * p->cg), patch_cols_task, &r);
        /* the first chunk sums into the total, the others beside it */
        r.part = ch == 0 ? r.sum : (float *)(void *)(ws + st->sum_off[1]);
        conv_problem q;
        patch_xpass_problem(p, st->weights, r.n0, nb, r.cols, r.part, &q);
        if (!st->weights) {
            data_run_pass(&q, &st->u.ds[last], ws + st->pass_off);
            continue;
        }
        wt_run_pass(&q, &st->u.ws[last], ws + st->pass_off);
        if (ch > 0) pool_parallel_for((size_t)(p->g * p->og), patch_add_task, &r);
    }
    if (st->weights) pool_parallel_for((size_t)(p->g * p->og), patch_store_task, &r);
}

/* D's gradInput spreads columns of gradInput; F's gradInput and gradWeight
 * read columns of x */
static bool patch_spreads(const conv_problem *p, conv_pass pass)
{
    return pass == CONV_PASS_DATA && p->data_dir == CONV_DIR_BWD_DATA;
}

static const char *patch_why_not(const conv_problem *p, conv_pass pass, aclconvIsa isa)
{
    return patch_spreads(p, pass) ? patch_data_why_not(p, isa)
                                  : patch_xpass_why_not(p, pass == CONV_PASS_WEIGHTS, isa);
}

/* D's gradInput where fast's multiply-adds would mostly read padding: the
 * products of its phases' taps over every gradInput position (border rows
 * skip some of theirs: docs/kernels.md, "Tap ranges") against those with a
 * gradOutput element, per dim, multiplied. patch computes only the latter
 * (then sums its columns); a 3x3 dilation-2 layer on 7 x 7 with a 3 x 3
 * gradOutput (5.4 times as many) took 1.4 ms in fast, 0.5 in patch, and n=1
 * 7x7 64 <- 512 on 14 x 14 (3.1 times) 2.3-2.4 against 1.85-2.09. */
#define PATCH_PADDING_RATIO 4
#define PATCH_STR_(x) #x
#define PATCH_STR(x) PATCH_STR_(x) /* (the ratio in patch_yield's message) */

static bool patch_padding_heavy(const conv_problem *p)
{
    double ratio = 1.0;
    for (int i = 0; i < CONV_SPATIAL; ++i) {
        const int64_t s = p->stride[i], xs = p->xs[i];
        int64_t computed = 0, useful = 0;
        for (int64_t k = 0; k < p->ks[i]; ++k) {
            /* x = o * s - pad + k * dil: x's of the phase of k, o's inside dy */
            const int64_t c = k * p->dil[i] - p->pad[i], r = ((c % s) + s) % s;
            computed += r < xs ? (xs - r + s - 1) / s : 0;
            const int64_t lo = c < 0 ? ceil_div(-c, s) : 0;
            const int64_t hi = xs - 1 - c < 0 ? -1 : min64(p->ys[i] - 1, (xs - 1 - c) / s);
            useful += hi >= lo ? hi - lo + 1 : 0;
        }
        if (useful == 0) return false;
        ratio *= (double)computed / (double)useful;
    }
    return ratio >= PATCH_PADDING_RATIO;
}

/* Ahead of fast in the list: patch leaves it every pass it takes, but D's
 * gradInput heavy in padding. */
static const char *patch_yield(const conv_problem *p, conv_pass pass, aclconvIsa isa)
{
    if (conv_impl_fast.why_not(p, pass, isa) != NULL) return NULL;
    if (!patch_spreads(p, pass)) return "fast takes it";
    if (patch_padding_heavy(p)) return NULL;
    return "fast takes it (its multiply-adds read padding less than " PATCH_STR(
        PATCH_PADDING_RATIO) " to 1)";
}

static bool patch_plan(const conv_problem *p, conv_pass pass, aclconvIsa isa, void *state,
                       uint64_t *workspace_bytes)
{
    return patch_spreads(p, pass)
               ? patch_data_plan(p, isa, state, workspace_bytes)
               : patch_xpass_plan(p, pass == CONV_PASS_WEIGHTS, isa, state, workspace_bytes);
}

static void patch_run_pass(const conv_problem *p, conv_pass pass, const void *state,
                           void *workspace)
{
    if (patch_spreads(p, pass))
        patch_data_run(p, state, workspace);
    else
        patch_xpass_run(p, state, workspace);
}

const conv_impl conv_impl_patch = {
    .name = "patch",
    .why_not = patch_why_not,
    .yield = patch_yield,
    .plan = patch_plan,
    .run = patch_run_pass,
};
