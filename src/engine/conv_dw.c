/* The depthwise implementation (CG == OG == 1): see conv_dw.h and
 * docs/kernels.md, "Depthwise implementation".
 *
 * Every pass is, per spatial dim, a stride-1 correlation over a packed plane:
 *   F and W (source x): tap k reads x at o*s + k*dil - pad = (o + q)*s + r,
 *     so the source is split into phases r (P_r[m] = x[(m + qmin)*s + r]) and
 *     the tap reads P_r[o + q - qmin]. One output phase.
 *   D (source dy): input position i = i'*s + rho (output phase rho) gathers
 *     dy[i' + sh] for the taps k with rho + pad - k*dil = sh*s. The source is
 *     dy itself (P[m] = dy[m + qmin]); each output phase is one sub-problem.
 * The packed planes of the three dims are flattened with common pitches, so
 * output (a, b, col) of a sub-problem is grid position j = (a*Ph + b)*Pw + col
 * and every tap is one contiguous vector of the packed source. */
#include "engine/conv_dw.h"
#include "engine/conv_plane.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "common/cpu.h"
#include "common/dtype.h"
#include "engine/conv_bias.h"
#include "engine/conv_slots.h"
#include "engine/conv_views.h"
#include "kernels/conv_ukernels.h"
#include "kernels/cvt_ukernels.h" /* f32_copy_nt and the store fence after it */
#include "kernels/dw_ukernels.h"
#include "threading/pool.h"

#define DW_WT_MIN_TASKS 16 /* weights pass: split n into chunks below this many channels */
#define DW_WT_MAX_BLOCK 16 /* weights pass: channels per task, consecutive in memory */
#define DW_BLOCK 16        /* data pass: channels per task */
/* in-place weights pass: x and dy asked for this many planes ahead of the
 * kernel. The pass streams two planes per ~700 FMAs at memory's rate; one
 * plane ahead, the rounded modes' copies of x and dy (which read the plane
 * the calls before asked for) still waited on memory: dw_3x3's weights
 * pass in cubeMathType 1 4.0 -> 3.2 ms with two (mode 0 2.7 either way;
 * three or four planes: 3.4) */
#define DW_WT_AHEAD 2
#define DW_FLOAT_ALIGN 16  /* floats: 64 bytes */
#define DW_SUM_GROUP 4     /* in-place weights pass: channels whose gradBias lanes dwsum sums side by side */
_Static_assert(CONV_BIAS_LANES == DW_SUM_LANES, "the dwsum kernels sum gradBias's lanes");


typedef struct dw_state {
    dw_dim dim[CONV_SPATIAL];
    aclconvIsa isa;
    bool bwd;           /* data pass from dy (D) */
    bool dy_direct;     /* weights pass reads dy rows from the view (fp32, unit W stride) */
    bool inplace;       /* the dwrow kernels read the source plane as it lies (no pack) */
    bool inplace_s2;    /* inplace, weights pass at stride 2 in H and W (dwrowwt_s2) */
    bool src_direct;    /* in place: the source (D: dy, F and W: x) is the view, not a widened copy */
    int src_kind;       /* in place: how the kernels convert the source view as they read it
                         * (f32_dwrow_src: DW_SRC_F32 none, or no copy for a 16-bit or
                         * rounded source; src_kind_for) */
    bool chan_vec;      /* in place: 16 channels of an image packed with the channels in
                         * the vector, summed by dwchwt (weights, chan_vec_applies) or
                         * correlated by dwchconv into gradInput (data, chan_data_applies) */
    int chan_round;     /* chan_vec: how dwch_pack rounds fp32 sources (the mode's operand
                         * rounding, f32_round's kind; 16-bit ones are widened exactly) */
    bool chan_run;      /* chan_vec data pass: gradInput's 16 planes of a call are adjacent
                         * (chan_stream), stored (or streamed) as one run from the slot */
    bool dy_inplace;    /* weights pass, src_kind: dy, of x's dtype, converted alike by the
                         * kernels (and summed by h16_dwsum for gradBias), no dy plane */
    bool out_direct;    /* in place, data pass: gradInput is written by the kernel, not stored from a copy */
    bool out_rounds;    /* fp32 gradInput written by the kernel (in place, or in the slot for
                         * out_nt) and the mode rounds results: in place after the kernel,
                         * or as out_nt streams the plane */
    bool out_nt;        /* in place, data pass: dense fp32 gradInput planes of whole lines
                         * computed (and rounded, out_rounds) in the slot, then streamed
                         * out (out_stream) */
    int64_t out_group;  /* in place, data pass, dense 16-bit gradInput: planes computed into
                         * the slot side by side and stored together, a run of whole lines
                         * streamed out (group_planes); 0: a plane at a time, plain stores */
    uint64_t wv_off;    /* in place, data pass: each channel's weights in the order of its
                         * taps (data_taps), ntaps floats a channel, filled per run
                         * (fill_weights); chan_vec: tap-major, channel c's tap t at
                         * t*chan_wp(g) + c (0 past the channels) */
    bool merge_w;       /* packed data pass, W stride 2, dense fp32 rows: both W output
                         * phases a dwconv_s2 call, written as whole rows, no grids */
    bool merge_nt;      /* merge_w, a dense plane: the rows written into the slot (out_off),
                         * the plane then streamed to gradInput */
    bool bias;          /* weights pass: also writes gradBias (block sums, conv_bias.h) */
    uint64_t sums_off;  /* the N x C block sums of gradBias */
    int slots;
    int64_t ntaps;      /* KD*KH*KW */
    int64_t plane;      /* floats of one packed phase plane */
    int64_t src_floats; /* all phases */
    int64_t slot_floats;
    int64_t aux_off;    /* in a slot: grid (data) or packed dy (weights), floats */
    int64_t out_off;    /* in a slot: the merged plane (merge_nt), floats */
    int64_t nchunk;     /* weights: chunks of n per channel */
    int64_t cb, ncb;    /* weights: channels per task, channel blocks */
    uint64_t flag_off;  /* per slot: its packed plane's zero borders are written */
    uint64_t part_off;  /* weights: partial sums, bytes into the workspace */
    uint64_t ws_bytes;  /* the pass's workspace (without a fused data pass's) */
    bool with_data;     /* weights pass: its run computes gradInput too (dw_fuse_data) */
    bool dy_shared;     /* with_data: the weights kernels read dy from the data pass's slot
                         * plane (widened / rounded by the same load_plane) */
    bool copies_round;  /* FLOAT16 rounds the fp32 source into copies (dw_plan_with) */
    uint64_t data_off;  /* with_data: the data pass's workspace, bytes into this one */
} dw_state;

/* The weights pass's plan state, followed by the data pass's plan when the
 * weights run computes gradInput too (with_data). */
typedef struct dw_pair {
    dw_state wt;
    dw_state data;
} dw_pair;

_Static_assert(sizeof(dw_pair) <= CONV_IMPL_STATE_BYTES, "dw_pair exceeds the plan state");

static inline int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}
static inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t round_floats(int64_t n)
{
    return (n + DW_FLOAT_ALIGN - 1) / DW_FLOAT_ALIGN * DW_FLOAT_ALIGN;
}

/* Source x, stride phases on the input side (F and W). */
static void geom_src_phases(const conv_problem *p, int i, dw_dim *d)
{
    const int64_t k_n = p->ks[i], s = p->stride[i];
    int64_t q[DW_MAX_K], qmin = 0, qmax = 0;
    bool used[DW_MAX_STRIDE] = {false};
    for (int64_t k = 0; k < k_n; ++k) {
        const int64_t a = k * p->dil[i] - p->pad[i];
        q[k] = floor_div(a, s);
        used[a - q[k] * s] = true;
        qmin = k == 0 ? q[k] : min64(qmin, q[k]);
        qmax = k == 0 ? q[k] : max64(qmax, q[k]);
    }
    int32_t index[DW_MAX_STRIDE];
    d->nph = 0;
    for (int64_t r = 0; r < s; ++r)
        if (used[r]) {
            index[r] = d->nph;
            d->ph_val[d->nph++] = (int32_t)r;
        }
    for (int64_t k = 0; k < k_n; ++k) {
        const int64_t a = k * p->dil[i] - p->pad[i];
        d->tap_k[k] = (int8_t)k;
        d->tap_ph[k] = (int8_t)index[a - q[k] * s];
        d->tap_off[k] = (int32_t)(q[k] - qmin); /* < ext, checked by the caller */
    }
    d->qmin = qmin;
    d->out_n = p->ys[i];
    d->ext = p->ys[i] + qmax - qmin;
    d->src_step = (int32_t)s;
    d->out_step = 1;
    d->nsub = 1;
    d->sub_tb[0] = 0;
    d->sub_tb[1] = (int16_t)k_n;
}

/* Source dy, stride phases on the output side (D). */
static void geom_out_phases(const conv_problem *p, int i, dw_dim *d)
{
    const int64_t k_n = p->ks[i], s = p->stride[i], x_n = p->xs[i];
    int64_t sh[DW_MAX_K], qmin = 0, qmax = 0;
    int nt = 0;
    d->nsub = (int32_t)min64(s, x_n);
    for (int32_t rho = 0; rho < d->nsub; ++rho) {
        d->sub_tb[rho] = (int16_t)nt;
        for (int64_t k = 0; k < k_n; ++k) {
            const int64_t num = rho + p->pad[i] - k * p->dil[i];
            const int64_t q = floor_div(num, s);
            if (q * s != num) continue;
            qmin = nt == 0 ? q : min64(qmin, q);
            qmax = nt == 0 ? q : max64(qmax, q);
            sh[nt] = q;
            d->tap_k[nt] = (int8_t)k;
            d->tap_ph[nt] = 0;
            ++nt;
        }
    }
    d->sub_tb[d->nsub] = (int16_t)nt;
    for (int t = 0; t < nt; ++t) d->tap_off[t] = (int32_t)(sh[t] - qmin);
    d->qmin = qmin;
    d->out_n = x_n;
    d->ext = ceil_div(x_n, s) + qmax - qmin;
    d->src_step = 1;
    d->out_step = (int32_t)s;
    d->nph = 1;
    d->ph_val[0] = 0;
}

/* Outputs of output phase u in dim d. */
int64_t plane_sub_count(const dw_dim *d, int64_t u)
{
    return d->out_step == 1 ? d->out_n : ceil_div(d->out_n - u, d->out_step);
}

/* Fills the geometry of pass, or returns why this implementation declines. */
const char *plane_geometry(const conv_problem *p, conv_pass pass, dw_dim dim[CONV_SPATIAL],
                           bool *bwd, int64_t *ntaps, int64_t *plane_floats, int64_t *src_floats)
{
    int64_t taps = 1;
    for (int i = 0; i < CONV_SPATIAL; ++i) {
        if (p->ks[i] > DW_MAX_K) return "a kernel side > 64";
        if (p->stride[i] > DW_MAX_STRIDE) return "a stride > 16";
        if (p->ks[i] < 1 || p->stride[i] < 1 || p->dil[i] < 1) return "a degenerate kernel";
        taps *= p->ks[i];
    }
    if (taps > DW_MAX_TAPS) return "more than DW_MAX_TAPS (1024) taps";
    *bwd = pass == CONV_PASS_DATA && p->data_dir == CONV_DIR_BWD_DATA;
    *ntaps = taps;
    int64_t plane = 1, phases = 1;
    for (int i = 0; i < CONV_SPATIAL; ++i) {
        dw_dim *d = &dim[i];
        /* reject huge dilations or paddings before they overflow anything */
        if (p->dil[i] > DW_MAX_PLANE || p->pad[i] > DW_MAX_PLANE || p->pad[i] < -DW_MAX_PLANE)
            return "a channel plane beyond 2^24 floats";
        if (*bwd)
            geom_out_phases(p, i, d);
        else
            geom_src_phases(p, i, d);
        if (d->ext < 1 || d->ext > DW_MAX_PLANE) return "a channel plane beyond 2^24 floats";
        plane *= d->ext;
        phases *= d->nph;
        if (plane * phases > DW_MAX_PLANE) return "a channel plane beyond 2^24 floats";
    }
    *plane_floats = plane;
    *src_floats = plane * phases;
    return NULL;
}

static const char *dw_geometry(const conv_problem *p, conv_pass pass, dw_state *st)
{
    if (p->cg != 1 || p->og != 1) return "not depthwise (more than one channel per group)";
    /* the API returns before planning on empty tensors; a problem built
     * directly must not reach the partition (it divides by plane sizes) */
    if (p->n < 1 || p->g < 1) return "an empty tensor";
    for (int i = 0; i < CONV_SPATIAL; ++i)
        if (p->xs[i] < 1 || p->ys[i] < 1) return "an empty tensor";
    return plane_geometry(p, pass, st->dim, &st->bwd, &st->ntaps, &st->plane, &st->src_floats);
}

static const char *dw_why_not(const conv_problem *p, conv_pass pass, aclconvIsa isa)
{
    dw_state st;
    return dw_geometry(p, pass, &st);
}

typedef struct dw_kernels {
    f32_dwconv_ukernel_fn conv;
    f32_dwwt_ukernel_fn wt;
    f32_dwrow_ukernel_fn row;
    f32_dwrowwt_ukernel_fn rowwt;
    f32_dwrowwt_ukernel_fn rowwt_s2; /* 3x3, stride 2; NULL: none (packed) */
    f32_dwconv_s2_ukernel_fn conv_s2; /* W stride 2, both W output phases */
    f32_dwsum_ukernel_fn sum;
    h16_dwsum_ukernel_fn sum16;      /* dwsum over 16-bit planes; NULL: none (no dy16) */
    f32_copy_ukernel_fn copy_nt;     /* dense fp32 gradInput planes, streamed; NULL: none */
    void (*fence)(void);             /* after streamed stores; NULL: none stream */
} dw_kernels;

static dw_kernels pick_kernels(aclconvIsa isa)
{
    switch (isa) {
    case ACLCONV_ISA_AVX512:
        return (dw_kernels){f32_dwconv_ukernel_128__avx512,      f32_dwwt_ukernel_4x32__avx512,
                            f32_dwrow_ukernel_4x32__avx512,      f32_dwrowwt_ukernel_12x32__avx512,
                            f32_dwrowwt_s2_ukernel_9x32__avx512, f32_dwconv_s2_ukernel_32__avx512,
                            f32_dwsum_ukernel_4x16__avx512,      h16_dwsum_ukernel_4x16__avx512,
                            f32_copy_nt_ukernel__avx512,         store_fence__avx2};
    case ACLCONV_ISA_AVX2:
        return (dw_kernels){f32_dwconv_ukernel_64__avx2,
                            f32_dwwt_ukernel_4x16__avx2,
                            f32_dwrow_ukernel_4x16__avx2,
                            f32_dwrowwt_ukernel_4x16__avx2,
                            NULL,
                            f32_dwconv_s2_ukernel_16__avx2,
                            f32_dwsum_ukernel_4x16__avx2,
                            NULL,
                            f32_copy_nt_ukernel__avx2,
                            store_fence__avx2};
    default:
        return (dw_kernels){f32_dwconv_ukernel_16__scalar,
                            f32_dwwt_ukernel_1x4__scalar,
                            f32_dwrow_ukernel_1x1__scalar,
                            f32_dwrowwt_ukernel_1x4__scalar,
                            NULL,
                            f32_dwconv_s2_ukernel_8__scalar,
                            f32_dwsum_ukernel_1x16__scalar,
                            NULL,
                            NULL,
                            NULL};
    }
}

/* A dense-row fp32 view read or written as it is (mode FLOAT: no operand or
 * result rounding). */
static bool f32_rows(const conv_view *v, conv_mode mode)
{
    return v->dtype == ACL_FLOAT && mode == CONV_MODE_F32 && v->stride[4] == 1 &&
           v->stride[3] >= 0 && v->stride[2] >= 0;
}

/* A dense-row fp32 gradInput the kernels may write as it is. In the modes
 * that round results (FLOAT16, BF16) the rows are rounded in place after the
 * kernel (out_rounds): the same bits as store_row's rounding copy, and the
 * same memory traffic as mode FLOAT (the rounding reads lines just written,
 * in L1), where the copy from the slot missed on every store. */
static bool f32_out_rows(const conv_view *v)
{
    return v->dtype == ACL_FLOAT && v->stride[4] == 1 && v->stride[3] >= 0 && v->stride[2] >= 0;
}

/* Elements of one (n, c) plane of v (a validated tensor: no overflow). */
static int64_t view_plane(const conv_view *v)
{
    return v->dim[2] * v->dim[3] * v->dim[4];
}

/* Where the in-place path is taken. ACLCONV_DW_INPLACE=1: wherever it
 * applies (any ISA, any taps: how the tests reach every in-place kernel), 0:
 * never. Unset: where it was measured faster than packing (one core, planes
 * 7x7 to 112x112): AVX-512 with a 3x3 kernel in (H, W), unit H dilation, one
 * depth tap (the kernels' 3x3 paths for rows <= 32; 1.6-2x for 3x3); AVX2
 * the same with output rows of at most DW_AVX2_G33_MAX_OW columns, where its
 * kernels have a 3x3 path for unit W dilation (dw_3x3 on Zen 5, both
 * gradients on 2 threads: 16 -> 10 ms against packing, the passes then also
 * fused; 144 ch of 56x56: 14.5 -> 8.5 ms, session 43). The
 * generic in-place kernels lost to packing for 5x5 and 7x7 (up to 4x, many
 * taps per row and edge rows) and on AVX2 / scalar (2x), so they are not
 * chosen there. */
static bool inplace_wanted(const conv_problem *p, aclconvIsa isa, int64_t ow)
{
    const char *e = getenv("ACLCONV_DW_INPLACE");
    if (e != NULL && (e[0] == '0' || e[0] == '1')) return e[0] == '1';
    const bool k33 = p->ks[0] == 1 && p->ks[1] == 3 && p->ks[2] == 3 && p->dil[1] == 1;
    return k33 && (isa == ACLCONV_ISA_AVX512 ||
                   (isa == ACLCONV_ISA_AVX2 && p->dil[2] == 1 && ow <= DW_AVX2_G33_MAX_OW));
}

/* The weights pass of a 3x3 (one depth tap, H dilation 1) at stride 2 in H
 * and W, at most 32 output columns, has an in-place kernel on AVX-512
 * (dwrowwt_s2): x read where it lies, two masked loads and a permute per
 * vector of every other column, instead of packing its four phase planes
 * (dw_3x3_s2's weights pass: the packing took ~3x the kernel's time). */
static bool inplace_s2_applies(const conv_problem *p, conv_pass pass, const dw_state *st)
{
    return pass == CONV_PASS_WEIGHTS && pick_kernels(st->isa).rowwt_s2 != NULL &&
           p->stride[0] == 1 && p->stride[1] == 2 && p->stride[2] == 2 && p->ks[0] == 1 &&
           p->ks[1] == 3 && p->ks[2] == 3 && p->dil[1] == 1 && p->ys[2] <= 32 &&
           view_plane(&p->x) <= DW_MAX_PLANE && view_plane(&p->y) <= DW_MAX_PLANE;
}

/* The in-place kernels take unit strides (one phase: taps are plain
 * offsets into the source) when their mask table fits. They read the source
 * (and dy) in dense fp32 rows: the view itself in mode FLOAT, else one plane
 * at a time widened and rounded into the slot (as the packed path's rows);
 * likewise the data pass writes gradInput or a plane in the slot. */
static bool inplace_applies(const conv_problem *p, conv_pass pass, const dw_state *st)
{
    const int64_t ow = st->dim[2].out_n;
    if (!inplace_wanted(p, st->isa, ow)) return false;
    for (int i = 0; i < CONV_SPATIAL; ++i)
        if (p->stride[i] != 1) return false;
    if (st->ntaps * ceil_div(ow, DW_ROW_MIN_VL) > DW_ROW_MASKS) return false;
    const conv_view *src = pass == CONV_PASS_DATA && st->bwd ? &p->y : &p->x;
    const conv_view *other = pass == CONV_PASS_DATA ? &p->grad_input : &p->y;
    return view_plane(src) <= DW_MAX_PLANE && view_plane(other) <= DW_MAX_PLANE;
}

static bool same_view(const conv_view *a, const conv_view *b)
{
    if (a->data != b->data || a->dtype != b->dtype) return false;
    for (int i = 0; i < CONV_VIEW_DIMS; ++i)
        if (a->dim[i] != b->dim[i] || a->stride[i] != b->stride[i]) return false;
    return true;
}

/* The weights pass can sum gradBias while it reads dy (one read of dy
 * instead of two) when gradBias is wanted, its source is dy itself and each
 * (n, c) block of dy is one dense run, read in the block's flattened order:
 * a task sums the blocks S(n, c) of its images and channels (conv_bias.h).
 * gradBias sums the original values: fp32 dy is summed from the view; a
 * 16-bit dy from its widened plane when the mode's rounding keeps its values.
 * That plane may hold a NaN quieted where the view's is signalling: the sum
 * has the same bits (an fp32 add returns its NaN operand quieted). */
static bool bias_fusable(const conv_problem *p)
{
    const conv_view *v = &p->y;
    return conv_bias_fusable(p) && same_view(&p->bias_src, v) && conv_view_blocks_dense(v) &&
           (v->dtype == ACL_FLOAT || conv_mode_keeps(v->dtype, p->mode));
}

/* The taps of the in-place kernels for plane (n, c) of source v at output
 * depth od: tap t (kernel order, as the packed path) reads v's depth plane
 * od + od_off[t] (NULL when outside) at row / column offsets dh[t], dw[t]. */
typedef struct dw_taps {
    int64_t n;
    int64_t od_off[DW_MAX_TAPS];
    ptrdiff_t dh[DW_MAX_TAPS], dw[DW_MAX_TAPS];
    int32_t k[DW_MAX_TAPS]; /* data pass: tap t's kernel index, (kd*KH + kh)*KW + kw */
    const float *x[DW_MAX_TAPS];
} dw_taps;

/* The in-place data pass's taps, the same for every plane: those of the
 * packed path's single output phase, in its order. */
static void data_taps(const dw_state *st, const int64_t ks[CONV_SPATIAL], dw_taps *tp)
{
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    int64_t nt = 0;
    for (int td = dd->sub_tb[0]; td < dd->sub_tb[1]; ++td)
        for (int th = dh->sub_tb[0]; th < dh->sub_tb[1]; ++th)
            for (int tw = dw->sub_tb[0]; tw < dw->sub_tb[1]; ++tw, ++nt) {
                tp->k[nt] =
                    (int32_t)((dd->tap_k[td] * ks[1] + dh->tap_k[th]) * ks[2] + dw->tap_k[tw]);
                tp->od_off[nt] = dd->tap_off[td] + dd->qmin;
                tp->dh[nt] = (ptrdiff_t)(dh->tap_off[th] + dh->qmin);
                tp->dw[nt] = (ptrdiff_t)(dw->tap_off[tw] + dw->qmin);
            }
    tp->n = nt;
}

/* The in-place weights pass's taps, the same for every plane: kernel order
 * (dwrowwt_s2: offsets in source rows and columns). */
static void wt_taps(const conv_problem *p, const dw_state *st, dw_taps *tp)
{
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    tp->n = st->ntaps;
    for (int64_t kd = 0, t = 0; kd < p->ks[0]; ++kd)
        for (int64_t kh = 0; kh < p->ks[1]; ++kh)
            for (int64_t kw = 0; kw < p->ks[2]; ++kw, ++t) {
                tp->od_off[t] = dd->tap_off[kd] + dd->qmin;
                tp->dh[t] = (ptrdiff_t)(st->inplace_s2 ? kh * p->dil[1] - p->pad[1]
                                                       : dh->tap_off[kh] + dh->qmin);
                tp->dw[t] = (ptrdiff_t)(st->inplace_s2 ? kw * p->dil[2] - p->pad[2]
                                                       : dw->tap_off[kw] + dw->qmin);
            }
}

/* Whether HF32 rounds fp32 x and dy as the row-window kernels load them
 * (each row 1.5 to 2.5 times across the two kernels, six vector operations
 * each time) rather than once into the rounded copies they then read: only
 * where the CPU has wide vector ALUs (cpu_wide_vector_alus). dw_3x3
 * cubeMathType 1, both gradients, 2 threads: on Zen 5 (session 26) the
 * window 5.57 ms against the copies' 5.83; on Zen 4 (session 31) the copies
 * 5.68 against 6.24 (data pass alone 2.87 / 3.24, weights 3.37 / 3.57; mode
 * 0 4.47); on session 18's host the window +10% on one thread.
 * ACLCONV_DW_HF32=window|copy decides instead (tests). */
static bool hf32_in_window(void)
{
    const char *e = getenv("ACLCONV_DW_HF32");
    if (e != NULL && strcmp(e, "window") == 0) return true;
    if (e != NULL && strcmp(e, "copy") == 0) return false;
    return cpu_wide_vector_alus() != 0;
}

/* dw_row_window for the in-place taps of the pass (one depth plane: ks[0]
 * == 1) over rows of source v read as kind: +1 or -1 where the row-window
 * form applies, else 0. */
static int pass_row_window(const conv_problem *p, conv_pass pass, const dw_state *st,
                           const conv_view *v, int kind)
{
    dw_taps tp;
    if (pass == CONV_PASS_DATA)
        data_taps(st, p->ks, &tp);
    else
        wt_taps(p, st, &tp);
    static const uint16_t probe = 0;
    static const float probe_f32 = 0.0f;
    for (int64_t t = 0; t < tp.n; ++t)
        tp.x[t] = &probe_f32; /* one plane (ks[0] == 1) */
    const f32_dwrow_src s = {.x = tp.x,
                             .dh = tp.dh,
                             .dw = tp.dw,
                             .nt = (size_t)tp.n,
                             .ih = (size_t)v->dim[3],
                             .iw = (size_t)v->dim[4],
                             .rs = (size_t)v->stride[3],
                             .src_kind = kind,
                             .x16 = &probe};
    return dw_row_window(&s, (size_t)st->dim[2].out_n, pass == CONV_PASS_WEIGHTS);
}

/* How the in-place kernels read the source v of the pass (f32_dwrow_src):
 * converted as they load it where the AVX-512 kernels' row-window form
 * (dw_row_window) applies to the taps of a single depth tap over dense
 * rows: a 16-bit dtype the mode widens exactly (conv_load_row: bf16 in
 * every mode but FLOAT16, fp16 in every mode but BF16), or fp32 in mode
 * FLOAT16 (rounded by two conversions a vector) or HF32 (six vector
 * operations, where hf32_in_window). The widened copy of each plane this
 * replaces was 10-14% of dw_3x3's bf16 passes. HF32's rounding in the window cost +10% on one
 * thread on session 18's host; on session 26's (Zen 5, two threads) the
 * rounded copies it replaces were the slower: dw_3x3 cubeMathType 3 data
 * pass 3.03 -> 2.48 ms, weights 3.72 -> 2.90, both 5.83 -> 5.57 (mode 0:
 * 2.18, 2.27, 4.62). BF16 mode's rounding of fp32 is left to copies. */
static int src_kind_for(const conv_problem *p, conv_pass pass, const dw_state *st,
                        const conv_view *v)
{
    const int kind = v->dtype == ACL_BF16 && p->mode != CONV_MODE_F16       ? DW_SRC_BF16
                     : v->dtype == ACL_FLOAT16 && p->mode != CONV_MODE_BF16 ? DW_SRC_F16
                     : v->dtype == ACL_FLOAT && p->mode == CONV_MODE_F16    ? DW_SRC_F32_F16
                     : v->dtype == ACL_FLOAT && p->mode == CONV_MODE_HF32   ? DW_SRC_F32_HF32
                                                                            : DW_SRC_F32;
    if (kind == DW_SRC_F32 || (kind == DW_SRC_F32_F16 && st->copies_round) ||
        (kind == DW_SRC_F32_HF32 && !hf32_in_window()) || st->isa != ACLCONV_ISA_AVX512 ||
        p->ks[0] != 1 || v->stride[4] != 1 || v->stride[3] < 0 || v->stride[2] < 0)
        return DW_SRC_F32;
    return pass_row_window(p, pass, st, v, kind) != 0 ? kind : DW_SRC_F32;
}

/* Whether the weights pass whose kernels convert x as they read it
 * (src_kind) reads dy the same way: dy of x's dtype in dense rows (16-bit:
 * gradBias then summed by the 16-bit dwsum), every output depth plane on an
 * x plane (no padding plane, whose zero terms only the generic kernels
 * form). */
static bool dy_inplace_applies(const conv_problem *p, const dw_state *st)
{
    const conv_view *y = &p->y;
    if (st->src_kind == DW_SRC_F32 || y->dtype != p->x.dtype || y->stride[4] != 1 ||
        y->stride[3] < 0 || y->stride[2] < 0 ||
        (dw_src_16bit(st->src_kind) && pick_kernels(st->isa).sum16 == NULL))
        return false;
    dw_taps tp;
    wt_taps(p, st, &tp);
    for (int64_t od = 0; od < p->ys[0]; ++od)
        if (od + tp.od_off[0] < 0 || od + tp.od_off[0] >= p->xs[0]) return false;
    return true;
}

/* a data task's and a weights task's channels fill at most one vector of
 * the channels-in-the-vector kernels (dwch_pack takes 16 planes) */
_Static_assert(DW_BLOCK <= 16 && DW_WT_MAX_BLOCK <= 16, "chan_vec: 16 channels a task at most");

/* Rows of at most this many columns take the channels-in-the-vector
 * weights loop (chan_vec_applies): where the plane kernels leave half their
 * lanes or more empty. Its packing (16x16 transposes) costs about what a
 * plane kernel call does, so wider rows lost to those (576 ch of 14 x 14,
 * N64, one thread: 5.5-5.9 ms against 4.4; 960 ch of 7 x 7, 2 threads: 2.5-2.8
 * against 3.5-4.5). */
#define DW_CHAN_MAX_OW 8
#define DW_CHAN_AHEAD 2 /* images: x and dy asked for so far ahead of the packing */

/* Whether chan_vec is wanted: ACLCONV_DW_CHAN=0 keeps the plane kernels
 * (tests, A/B). */
static bool chan_wanted(void)
{
    const char *e = getenv("ACLCONV_DW_CHAN");
    return e == NULL || e[0] != '0';
}

/* Whether the chan_vec packing reads v as it lies: rows of unit W stride
 * (fp32 or 16-bit, widened exactly and rounded for the mode as packed:
 * chan_round). */
static bool chan_src_ok(const conv_view *v)
{
    return v->stride[4] == 1 && v->stride[3] >= 0 && v->stride[2] >= 0;
}

/* How dwch_pack rounds the values of a source of dtype dt in mode: the
 * mode's operand rounding for fp32, for a 16-bit dtype only the one the
 * mode does not keep (bf16 in FLOAT16, fp16 in BF16). */
static int chan_round_for(aclDataType dt, conv_mode mode)
{
    return dt != ACL_FLOAT && conv_mode_keeps(dt, mode) ? F32_ROUND_NONE : conv_round_kind(mode);
}

/* The row window's source kind of such a view (its taps' geometry). */
static int chan_kind(const conv_view *v)
{
    return v->dtype == ACL_BF16 ? DW_SRC_BF16 : v->dtype == ACL_FLOAT16 ? DW_SRC_F16 : DW_SRC_F32;
}

/* Whether the in-place weights pass packs 16 channels of an image with the
 * channels in the vector (dwch_pack) and sums them with dwchwt, where a
 * plane per call costs more in per-plane work than in FMAs: AVX-512, x and
 * dy of one dtype read as they lie (chan_src_ok: each value rounded once,
 * as packed, in the modes that round fp32), one depth plane, the row
 * window's taps (rows dh0 .. dh0 + 2, columns -1, 0, +1, iw <= ow) over
 * rows of at most DW_CHAN_MAX_OW columns. The sums are bitwise the plane
 * kernels'. */
static bool chan_vec_applies(const conv_problem *p, const dw_state *st)
{
    const conv_view *x = &p->x;
    return chan_wanted() && st->isa == ACLCONV_ISA_AVX512 && st->inplace && !st->inplace_s2 &&
           chan_src_ok(x) && chan_src_ok(&p->y) && p->y.dtype == x->dtype &&
           p->ks[0] == 1 && p->xs[0] == 1 && p->ys[0] == 1 && p->ys[2] <= DW_CHAN_MAX_OW &&
           pass_row_window(p, CONV_PASS_WEIGHTS, st, x, chan_kind(x)) != 0;
}

/* Whether the in-place data pass packs 16 channels of an image's source
 * with the channels in the vector (dwch_pack, a zero border) and correlates
 * them with dwchconv: as chan_vec_applies, for the data taps of the row
 * window (step +1 or -1), a source read as it lies (fp32 in mode FLOAT, or
 * 16-bit widened exactly: src_kind BF16 / F16). gradInput's rows are
 * written by the kernel (fp32 dense rows in mode FLOAT: chan_out_direct),
 * else computed into the slot and stored with the mode's result rounding
 * (conv_store_results, as the plane path's store_plane). The sums are
 * bitwise dwrow's. */
static bool chan_data_applies(const conv_problem *p, const dw_state *st)
{
    const conv_view *v = st->bwd ? &p->y : &p->x;
    return chan_wanted() && st->isa == ACLCONV_ISA_AVX512 && st->inplace && chan_src_ok(v) &&
           p->ks[0] == 1 && v->dim[2] == 1 && st->dim[0].out_n == 1 &&
           st->dim[2].out_n <= DW_CHAN_MAX_OW &&
           pass_row_window(p, CONV_PASS_DATA, st, v, chan_kind(v)) != 0;
}

/* Whether the chan_vec data pass writes gradInput's rows itself: fp32
 * rows, results the mode does not round. */
static bool chan_out_direct(const conv_problem *p)
{
    return f32_out_rows(&p->grad_input) && conv_result_round_kind(p->mode) == F32_ROUND_NONE;
}

/* The chan_vec data pass's weights table: tap t's weights of channels
 * c .. c + 15 at t*chan_wp(g) + c for any c < g (a weights run's channel
 * blocks start anywhere), zeros past g. */
static int64_t chan_wp(int64_t g)
{
    return ceil_div(g, 16) * 16 + 16;
}

/* Floats of a slot for the chan_vec data pass: the packed source, rows + 2
 * rows of ow + 2 positions. */
static int64_t chan_data_floats(const dw_state *st)
{
    return round_floats((st->dim[1].out_n + 2) * (st->dim[2].out_n + 2) * 16);
}

/* Floats of a slot for the chan_vec loop: the packed x (rows + 2 rows of
 * ow + 2 positions), the packed dy and the sums per (column, tap). */
static int64_t chan_vec_floats(const conv_problem *p)
{
    const int64_t rows = p->ys[1], ow = p->ys[2];
    return round_floats((rows + 2) * (ow + 2) * 16) + round_floats(rows * ow * 16) +
           round_floats(ow * 9 * 16);
}

/* Whether the in-place data pass computes a dense fp32 gradInput plane into
 * the slot and streams it out (f32_copy_nt: no read for ownership of its
 * lines) instead of writing it in place into lines asked for ahead: planes
 * of whole 64-byte lines only (partial lines at plane ends flushed their
 * write-combining buffers early: session 17, 16-bit planes). dw_3x3 on 2
 * threads (memory-bound): data pass -13 to -15%, all gradients -4 to -6%
 * (FLOAT16, the results rounded in the slot: -2 to -3%); on one thread +2%
 * (the copy through the slot). A mode that rounds results streams the plane
 * through the ISA's rounding kernel instead (f32_round_nt: one pass over
 * the slot's plane, not two; dw_3x3 cube 2's data pass 3.33 -> 2.65 ms on
 * 2 threads). */
static bool out_stream(const conv_problem *p, aclconvIsa isa)
{
    const conv_view *v = &p->grad_input;
    const bool rounds = conv_result_round_kind(p->mode) != F32_ROUND_NONE;
    return pick_kernels(isa).copy_nt != NULL &&
           (!rounds || conv_ukernels_for(isa)->f32_round_nt != NULL) && conv_view_blocks_dense(v) &&
           view_plane(v) % DW_FLOAT_ALIGN == 0;
}

/* Whether the chan_vec data pass can compute its 16 gradInput planes into
 * the slot and stream them out as one run (f32_copy_nt): the planes of
 * adjacent channels are adjacent, so 16 planes are 16 * P floats, whole
 * 64-byte lines when the first is aligned (every block of a dense tensor
 * whose C * P is a multiple of 16), with no read for ownership; each plane
 * alone (7 x 7: 196 bytes) would start and end mid-line. Only a run of
 * both gradients streams (dw_fuse_data): 960 ch of 7 x 7, all gradients,
 * N64 2.95 -> 2.65 ms, N256 13.4 -> 11.1; the data pass alone N64 1.13 ->
 * 1.42 (its 24 MB stay in this host's 32 MB L3 between the benchmark's
 * runs), N256 even. */
static bool chan_stream(const conv_problem *p, aclconvIsa isa)
{
    const conv_view *v = &p->grad_input;
    return pick_kernels(isa).copy_nt != NULL && conv_view_blocks_dense(v) &&
           v->stride[1] == view_plane(v);
}

/* The in-place data pass's 16-bit gradInput planes stored G at a time
 * (out_group): G planes of 2*P bytes are the fewest whole 64-byte lines
 * (G = 64 / gcd(2P, 64), adjacent channels), streamed out by the narrowing
 * kernel's non-temporal form, no read for ownership of gradInput's lines.
 * A plane at a time, every other 28x28 plane (1568 bytes) starts and ends
 * mid-line: streamed, those partial lines flushed their write-combining
 * buffers early and lost to plain stores (store_plane). In pairs, dw_3x3's
 * bf16 data pass on 2 threads 2.52 -> 2.16 ms, both gradients 4.50 -> 4.07
 * (one thread +4-7%, as fp32's streaming). Dense planes of adjacent
 * channels, a mode whose rounding the dtype keeps (the narrowing kernel
 * alone), G <= DW_BLOCK (a data task's channels are whole groups). */
static int64_t group_planes(const conv_problem *p, aclconvIsa isa)
{
    const conv_view *v = &p->grad_input;
    const int64_t plane = view_plane(v);
    if (v->dtype == ACL_FLOAT || conv_ukernels_for(isa)->f32_narrow_nt == NULL ||
        !conv_view_blocks_dense(v) || !conv_mode_keeps(v->dtype, p->mode) || plane <= 0)
        return 0;
    int64_t g = 1;
    while (g <= DW_BLOCK && g * plane * 2 % 64 != 0)
        g *= 2;
    return g <= DW_BLOCK && (g == 1 || v->stride[1] == plane) ? g : 0;
}

static bool ws_take(uint64_t *size, int64_t floats, uint64_t *offset)
{
    size_t bytes, end;
    if (floats < 0 || !checked_mul_size((size_t)floats, sizeof(float), &bytes)) return false;
    *offset = aclconv_round_up((size_t)*size, ACLCONV_ALIGN);
    if (!checked_add_size((size_t)*offset, bytes, &end)) return false;
    *size = end;
    return true;
}

/* dw_plan_with's choices for a run of both gradients (dw_fuse_data):
 * COPIES_ROUND, the pass's fp32 source (x, or a data pass's dy) of mode
 * FLOAT16 rounded into copies, not in the kernels' window; DY_COPIES, the
 * weights pass's fp32 dy so; NO_CHAN, no channels-in-the-vector loop. */
enum { DW_PLAN_COPIES_ROUND = 1, DW_PLAN_DY_COPIES = 2, DW_PLAN_NO_CHAN = 4 };

/* dw_plan with the choices of flags (DW_PLAN_*) */
static bool dw_plan_with(const conv_problem *p, conv_pass pass, aclconvIsa isa, int flags,
                         void *state, uint64_t *workspace_bytes)
{
    dw_state *st = state;
    memset(st, 0, sizeof *st);
    if (dw_geometry(p, pass, st) != NULL) return false;
    st->isa = isa;
    st->copies_round = (flags & DW_PLAN_COPIES_ROUND) != 0;
    const bool dy_copies = (flags & DW_PLAN_DY_COPIES) != 0,
               chan = (flags & DW_PLAN_NO_CHAN) == 0;
    const int t = pool_num_threads(); /* sizes scratch only; never the partition */
    st->slots = t < 1 ? 1 : t;
    int64_t aux;
    if (pass == CONV_PASS_DATA) {
        aux = st->plane; /* the grid of one output phase: at most one packed plane */
    } else {
        const conv_view *dy = &p->y;
        st->dy_direct = f32_rows(dy, p->mode);
        aux = st->dy_direct ? 0 : p->ys[0] * p->ys[1] * p->ys[2];
        st->nchunk = p->g >= DW_WT_MIN_TASKS ? 1 : min64(p->n, ceil_div(DW_WT_MIN_TASKS, p->g));
        st->cb = max64(1, min64(DW_WT_MAX_BLOCK, p->g / DW_WT_MIN_TASKS));
        st->ncb = ceil_div(p->g, st->cb);
    }
    st->inplace_s2 = inplace_wanted(p, isa, st->dim[2].out_n) && inplace_s2_applies(p, pass, st);
    st->inplace = st->inplace_s2 || inplace_applies(p, pass, st);
    int64_t src = st->src_floats;
    if (st->inplace) { /* the slot: a widened source plane, then gradInput's or dy's */
        const conv_view *v = pass == CONV_PASS_DATA && st->bwd ? &p->y : &p->x;
        st->src_direct = f32_rows(v, p->mode);
        st->src_kind = st->src_direct || st->inplace_s2 ? DW_SRC_F32 : src_kind_for(p, pass, st, v);
        src = st->src_direct || st->src_kind != DW_SRC_F32 ? 0 : view_plane(v);
        st->dy_inplace = pass == CONV_PASS_WEIGHTS && !dy_copies && dy_inplace_applies(p, st);
        if (st->dy_inplace) aux = 0;
        st->chan_vec = chan && pass == CONV_PASS_WEIGHTS && chan_vec_applies(p, st);
        if (st->chan_vec) src = chan_vec_floats(p); /* x and dy as they lie otherwise */
        st->chan_round = chan_round_for(v->dtype, p->mode);
        if (pass == CONV_PASS_DATA) {
            st->out_direct = f32_out_rows(&p->grad_input);
            st->out_rounds = st->out_direct && conv_result_round_kind(p->mode) != F32_ROUND_NONE;
            st->out_nt = st->out_direct && out_stream(p, isa); /* rounded in the slot */
            if (st->out_nt) st->out_direct = false;
            st->out_group = st->out_direct || st->out_nt ? 0 : group_planes(p, isa);
            aux = st->out_direct ? 0 : view_plane(&p->grad_input) * max64(1, st->out_group);
            st->chan_vec = chan && chan_data_applies(p, st);
            if (st->chan_vec) { /* dwchconv writes gradInput's rows, or the slot's */
                st->out_nt = false;
                st->out_rounds = false; /* stored through conv_store_results if it rounds */
                st->out_direct = chan_out_direct(p);
                st->out_group = 0;
                st->chan_run = chan_stream(p, isa);
                aux = !st->out_direct || st->chan_run ? 16 * view_plane(&p->grad_input) : 0;
                src = chan_data_floats(st);
            }
        }
    }
    /* the W output phases of a stride-2 gradInput interleave in its rows:
     * stored one phase at a time, every other element (step-2 stores) and
     * each line written twice; computed by one kernel call and interleaved
     * in registers, each row is written once, whole, and no grid is needed
     * (through grids of each phase merged by a copy, the merge cost more
     * than the kernel) */
    const conv_view *gi = &p->grad_input;
    const bool dense_out = conv_view_blocks_dense(gi) && view_plane(gi) <= DW_MAX_PLANE;
    /* (a 16-bit gradInput merges into the slot's fp32 plane, which is then
     * rounded and narrowed whole: stored phase by phase with step-2 stores,
     * dw_3x3_s2's bf16 data pass took 1.5x its fp32 time) */
    st->merge_w = pass == CONV_PASS_DATA && !st->inplace && plane_merges_w(st->dim, gi, dense_out);
    if (st->merge_w) aux = 0;
    /* and a dense plane is assembled in the slot, then streamed: the lines
     * of gradInput (4x dy for stride 2) are not read for ownership */
    st->merge_nt =
        st->merge_w && dense_out && (isa != ACLCONV_ISA_SCALAR || gi->dtype != ACL_FLOAT);
    st->bias = pass == CONV_PASS_WEIGHTS && bias_fusable(p);
    if (st->bias) aux *= DW_SUM_GROUP; /* dwsum reads the widened dy planes of a group */
    st->aux_off = round_floats(src);
    st->out_off = st->aux_off + round_floats(aux);
    st->slot_floats =
        conv_slot_pitch(st->out_off + (st->merge_nt ? round_floats(view_plane(&p->grad_input)) : 0));
    uint64_t size = 0, slot_off; /* the slots come first: offset 0 */
    int64_t slot_total;
    if (!checked_mul_i64(st->slot_floats, st->slots, &slot_total) ||
        !ws_take(&size, slot_total, &slot_off) ||
        !ws_take(&size, (int64_t)st->slots * DW_FLOAT_ALIGN, &st->flag_off))
        return false;
    int64_t wv_floats;
    if (pass == CONV_PASS_DATA && st->inplace &&
        (!checked_mul_i64(st->chan_vec ? chan_wp(p->g) : p->g, st->ntaps, &wv_floats) ||
         !ws_take(&size, wv_floats, &st->wv_off)))
        return false;
    if (pass == CONV_PASS_WEIGHTS) {
        int64_t part;
        if (!checked_mul_i64(p->g * st->nchunk, st->ntaps * DW_ACC_LANES, &part) ||
            !ws_take(&size, part, &st->part_off) ||
            (st->bias && !ws_take(&size, p->n * p->g, &st->sums_off)))
            return false;
    }
    st->ws_bytes = size;
    *workspace_bytes = size;
    return true;
}

static bool dw_plan(const conv_problem *p, conv_pass pass, aclconvIsa isa, void *state,
                    uint64_t *workspace_bytes)
{
    return dw_plan_with(p, pass, isa, 0, state, workspace_bytes);
}

/* ---- packing and storing ------------------------------------------------- */

typedef struct dw_run {
    const conv_problem *p;
    const dw_state *st;
    char *ws;
    dw_kernels k;
    const conv_ukernels *ck;   /* row conversions and roundings */
    const struct dw_run *data; /* weights pass with_data: the data pass's run, else NULL */
    bool group_nt;             /* out_group's full groups lie on whole lines (group_lines) */
} dw_run;

/* Small copies: inline loops (a libc call per short row costs more). */
static inline void zero_f32(float *dst, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) dst[i] = 0.0f;
}

/* Valid packed columns [*lo, *hi) of W phase value pw: 0 <= (m + qmin)*step + pw < sw_n. */
static void phase_cols(const dw_dim *dw, int64_t pw, int64_t sw_n, int64_t *lo, int64_t *hi)
{
    *lo = min64(dw->ext, max64(0, -dw->qmin));
    *hi = sw_n - 1 - pw < 0 ? *lo : max64(*lo, min64(dw->ext, (sw_n - 1 - pw) / dw->src_step - dw->qmin + 1));
}

/* Zeros of a packed row around its valid columns [lo, hi). */
static void zero_borders(float *row, int64_t ext, int64_t lo, int64_t hi)
{
    zero_f32(row, lo);
    zero_f32(row + hi, ext - hi);
}

/* Whether plane_pack's source is fp32 rows copied as they are: one phase
 * and unit steps in every dim (dy of a data pass), mode FLOAT, unit W
 * stride. */
static bool pack_plain(const dw_dim dim[CONV_SPATIAL], const conv_view *v, conv_mode mode)
{
    for (int i = 0; i < CONV_SPATIAL; ++i)
        if (dim[i].nph != 1 || dim[i].src_step != 1 || dim[i].ph_val[0] != 0) return false;
    return v->dtype == ACL_FLOAT && mode == CONV_MODE_F32 && v->stride[4] == 1;
}

/* plane_pack for pack_plain sources: each row's valid columns copied by an
 * inline loop (a conv_load_row and a memcpy call per row of 28 floats were
 * ~20% of dw_3x3_s2's gradInput pass). */
static void pack_rows(const dw_dim dim[CONV_SPATIAL], const conv_view *v, int64_t n, int64_t c,
                      bool borders_ready, float *dst, const ukernel_prefetch *next)
{
    const dw_dim *dd = &dim[0], *dh = &dim[1], *dw = &dim[2];
    const int64_t sd_n = v->dim[2], sh_n = v->dim[3];
    int64_t lo, hi;
    phase_cols(dw, 0, v->dim[4], &lo, &hi);
    const size_t rows = (size_t)(dd->ext * dh->ext);
    ukernel_prefetch_walk walk = {{0, 0}, {0, 0}};
    for (int64_t md = 0; md < dd->ext; ++md) {
        const int64_t sd = md + dd->qmin;
        for (int64_t mh = 0; mh < dh->ext; ++mh) {
            if (next) ukernel_prefetch_next(next, rows, &walk);
            float *row = dst + (md * dh->ext + mh) * dw->ext;
            const int64_t sh = mh + dh->qmin;
            if (sd < 0 || sd >= sd_n || sh < 0 || sh >= sh_n || hi <= lo) {
                if (!borders_ready) zero_f32(row, dw->ext);
                continue;
            }
            if (!borders_ready) zero_borders(row, dw->ext, lo, hi);
            const float *s =
                (const float *)v->data + conv_view_index(v, n, c, sd, sh, lo + dw->qmin);
            for (int64_t i = lo; i < hi; ++i)
                row[i] = s[i - lo];
        }
    }
}

/* Packs plane (n, c) of v with the source geometry of st: layout
 * [phase d][phase h][phase w][ext d][ext h][ext w], zeros outside v. */
void plane_pack(const dw_dim dim[CONV_SPATIAL], int64_t plane, const conv_view *v, int64_t n,
                int64_t c, conv_mode mode, bool borders_ready, const conv_ukernels *k, float *dst,
                const ukernel_prefetch *next)
{
    const dw_dim *dd = &dim[0], *dh = &dim[1], *dw = &dim[2];
    const int64_t sd_n = v->dim[2], sh_n = v->dim[3], sw_n = v->dim[4];
    if (pack_plain(dim, v, mode)) {
        pack_rows(dim, v, n, c, borders_ready, dst, next);
        return;
    }
    /* stride 2 in W, both phases: each source row read once, split into the
     * two phase planes (every other element, as separate step-2 reads, was
     * most of dw_3x3_s2's weights pass) */
    const bool pair = dw->nph == 2 && dw->src_step == 2 && dw->ph_val[0] == 0 && dw->ph_val[1] == 1 &&
                      conv_split_row_ok(v, mode);
    const int64_t nw = pair ? 1 : dw->nph;
    /* next's lines, a share per row packed: spread over the reads of this
     * plane, the requests overlap with them instead of stalling as a burst */
    const size_t rows = (size_t)(dd->nph * dh->nph * nw * dd->ext * dh->ext);
    ukernel_prefetch_walk walk = {{0, 0}, {0, 0}};
    /* the H phases innermost: the source rows of a plane are read in
     * ascending order, one stream the hardware prefetchers follow; a phase
     * at a time (every other row) cost dw_3x3_s2's weights pass 30-40% more
     * CPU time on 1 thread (on 2 the pass is bound by memory bandwidth: 3%) */
    for (int32_t ipd = 0; ipd < dd->nph; ++ipd)
        for (int32_t ipw = 0; ipw < nw; ++ipw) {
            int64_t lo, hi, hi1 = 0;
            phase_cols(dw, dw->ph_val[ipw], sw_n, &lo, &hi);
            if (pair) phase_cols(dw, 1, sw_n, &lo, &hi1); /* hi1 <= hi <= hi1 + 1 */
            const int64_t w0 = (lo + dw->qmin) * dw->src_step + dw->ph_val[ipw];
            for (int64_t md = 0; md < dd->ext; ++md) {
                const int64_t sd = (md + dd->qmin) * dd->src_step + dd->ph_val[ipd];
                for (int64_t mh = 0; mh < dh->ext; ++mh)
                    for (int32_t iph = 0; iph < dh->nph; ++iph) {
                        if (next) ukernel_prefetch_next(next, rows, &walk);
                        float *pl = dst + ((ipd * dh->nph + iph) * (int64_t)dw->nph + ipw) * plane;
                        const int64_t sh = (mh + dh->qmin) * dh->src_step + dh->ph_val[iph];
                        const int64_t at = (md * dh->ext + mh) * dw->ext;
                        float *row = pl + at, *row1 = pl + plane + at;
                        if (sd < 0 || sd >= sd_n || sh < 0 || sh >= sh_n || hi <= lo) {
                            if (!borders_ready) zero_f32(row, dw->ext);
                            if (!borders_ready && pair) zero_f32(row1, dw->ext);
                            continue;
                        }
                        if (!borders_ready) zero_borders(row, dw->ext, lo, hi);
                        if (!borders_ready && pair) zero_borders(row1, dw->ext, lo, hi1);
                        if (pair) /* the tail: one even element */
                            conv_split_row(v, n, c, sd, sh, w0, 2 * (hi1 - lo) + (hi > hi1), mode, k,
                                           row + lo, row1 + lo);
                        else
                            conv_load_row(v, n, c, sd, sh, w0, dw->src_step, hi - lo, mode, k, row + lo);
                    }
            }
        }
}

bool plane_merges_w(const dw_dim dim[CONV_SPATIAL], const conv_view *out, bool dense_fits)
{
    const dw_dim *dw = &dim[2];
    if (dw->nsub != 2 || dw->out_step != 2 || plane_sub_count(dw, 1) == 0) return false;
    return out->dtype == ACL_FLOAT ? out->stride[4] == 1 : dense_fits;
}

/* Stores count data-gradient values src[i] (zeros when src is NULL) to
 * gradInput elements base + i*sw: the mode's result rounding, then RNE to the
 * view's dtype. Rows of a dense plane are one run (sw == 1, count spanning
 * them). */
static void store_row(const dw_run *r, int64_t base, int64_t sw, int64_t count, const float *src)
{
    conv_store_results(&r->p->grad_input, r->p->mode, r->ck, false, base, sw, count, src);
}

/* Writes output phase (u[0], u[1], u[2]) of plane (n, c) of the data gradient
 * from grid (pitches of the packed plane), or zeros when grid is NULL. */
static void store_sub(const dw_run *r, int64_t n, int64_t c, const int64_t u[CONV_SPATIAL],
                      const int64_t cnt[CONV_SPATIAL], const float *grid)
{
    const dw_state *st = r->st;
    const conv_view *out = &r->p->grad_input;
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const int64_t sw = out->stride[4] * dw->out_step;
    for (int64_t a = 0; a < cnt[0]; ++a)
        for (int64_t b = 0; b < cnt[1]; ++b) {
            const int64_t base = conv_view_index(out, n, c, u[0] + a * dd->out_step,
                                                 u[1] + b * dh->out_step, u[2]);
            store_row(r, base, sw, cnt[2], grid ? grid + (a * dh->ext + b) * dw->ext : NULL);
        }
}

/* ---- run ----------------------------------------------------------------- */

static float *slot_buf(const dw_run *r, int slot)
{
    return (float *)r->ws + (int64_t)slot * r->st->slot_floats;
}

void plane_lines(const conv_view *v, int64_t n, int64_t c, int s, ukernel_prefetch *pf)
{
    pf->at[s] = NULL;
    pf->lines[s] = 0;
    if (v->stride[4] != 1 || v->stride[3] != v->dim[4] || v->stride[2] != v->dim[3] * v->dim[4])
        return;
    const size_t es = v->dtype == ACL_FLOAT ? 4 : 2;
    const size_t bytes = (size_t)(v->dim[2] * v->dim[3] * v->dim[4]) * es;
    pf->at[s] = v->data + conv_view_index(v, n, c, 0, 0, 0) * (int64_t)es;
    pf->lines[s] = ukernel_lines(bytes);
}

/* The lines of planes (n, c0) .. (n, c1 - 1) of v into stream s of pf, when
 * they are one dense run (else none). */
static void block_lines(const conv_view *v, int64_t n, int64_t c0, int64_t c1, int s,
                        ukernel_prefetch *pf)
{
    plane_lines(v, n, c0, s, pf);
    const size_t es = v->dtype == ACL_FLOAT ? 4 : 2;
    if (pf->lines[s] != 0 && v->stride[1] == view_plane(v))
        pf->lines[s] = ukernel_lines((size_t)((c1 - c0) * view_plane(v)) * es);
}

/* Whether the slot's packed plane already holds its zero borders (the same
 * for every plane of the pass); reset at the start of every run. */
static int32_t *slot_flag(const dw_run *r, int slot)
{
    return (int32_t *)(r->ws + r->st->flag_off) + (int64_t)slot * DW_FLOAT_ALIGN;
}

static void pack_source(const dw_run *r, const conv_view *v, int64_t n, int64_t c, int slot,
                        float *dst, const ukernel_prefetch *next)
{
    int32_t *ready = slot_flag(r, slot);
    plane_pack(r->st->dim, r->st->plane, v, n, c, r->p->mode, *ready != 0, r->ck, dst, next);
    *ready = 1;
}

/* Plane (n, c) of v widened and rounded for mode into buf (scratch_view's
 * layout) by conv_load_row, the packed path's values. A dense plane is one
 * run, so one call: per row, the calls cost as much as the widening. */
static void load_plane(const conv_view *v, int64_t n, int64_t c, conv_mode mode,
                       const conv_ukernels *k, float *buf)
{
    const int64_t dn = v->dim[2], hn = v->dim[3], wn = v->dim[4];
    if (conv_view_blocks_dense(v))
        conv_load_row(v, n, c, 0, 0, 0, 1, dn * hn * wn, mode, k, buf);
    else
        for (int64_t d = 0; d < dn; ++d)
            for (int64_t h = 0; h < hn; ++h)
                conv_load_row(v, n, c, d, h, 0, 1, wn, mode, k, buf + (d * hn + h) * wn);
}

/* The weights of channel c, wk[(kd*KH + kh)*KW + kw], read and rounded as
 * the sources (conv_load_row: conv_round_operand's bits), one call for a
 * dense kernel. */
static void channel_weights(const dw_run *r, int64_t c, float *wk)
{
    load_plane(&r->p->w, c, 0, r->p->mode, r->ck, wk);
}

/* A dense fp32 plane at buf shaped like the (n, c) planes of v, addressed
 * with v's (n, c) (their strides are 0): the in-place kernels read and write
 * a slot's plane as if it were the caller's tensor. Built once per task: a
 * view per plane costs store-forwarding stalls. */
static conv_view scratch_view(const conv_view *v, float *buf)
{
    conv_view s = {.data = (char *)buf, .dtype = ACL_FLOAT};
    memcpy(s.dim, v->dim, sizeof s.dim);
    s.stride[4] = 1;
    s.stride[3] = v->dim[4];
    s.stride[2] = v->dim[3] * v->dim[4];
    return s;
}

/* data_plane's merged form: per output (D, H) phase, its taps of each W
 * phase (the packed path's order), and a dwconv_s2 call per output depth
 * plane over the phase's rows, into mout's rows (gradInput, or the slot's
 * plane for merge_nt) with the mode's result rounding; merge_nt's plane
 * then goes to gradInput (streamed; 16-bit: rounded and narrowed). */
static void data_plane_merged(const dw_run *r, int64_t n, int64_t c, const float *src,
                              const float *wk, const conv_view *mout)
{
    const conv_problem *p = r->p;
    const dw_state *st = r->st;
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const int64_t pw = dw->ext, ph = dh->ext;
    /* a 16-bit gradInput is rounded and narrowed with the plane */
    const int kind =
        p->grad_input.dtype == ACL_FLOAT ? conv_result_round_kind(p->mode) : F32_ROUND_NONE;
    ptrdiff_t toff[2][DW_MAX_TAPS];
    float wv[2][DW_MAX_TAPS];
    for (int64_t u0 = 0; u0 < dd->nsub; ++u0)
        for (int64_t u1 = 0; u1 < dh->nsub; ++u1) {
            const int64_t na = plane_sub_count(dd, u0), nb = plane_sub_count(dh, u1);
            if (na == 0 || nb == 0) continue;
            size_t nt[2] = {0, 0};
            for (int u = 0; u < 2; ++u)
                for (int td = dd->sub_tb[u0]; td < dd->sub_tb[u0 + 1]; ++td)
                    for (int th = dh->sub_tb[u1]; th < dh->sub_tb[u1 + 1]; ++th)
                        for (int tw = dw->sub_tb[u]; tw < dw->sub_tb[u + 1]; ++tw, ++nt[u]) {
                            toff[u][nt[u]] =
                                (ptrdiff_t)((dd->tap_off[td] * ph + dh->tap_off[th]) * pw +
                                            dw->tap_off[tw]);
                            wv[u][nt[u]] =
                                wk[(dd->tap_k[td] * p->ks[1] + dh->tap_k[th]) * p->ks[2] +
                                   dw->tap_k[tw]];
                        }
            const float *const w[2] = {wv[0], wv[1]};
            const ptrdiff_t *const to[2] = {toff[0], toff[1]};
            for (int64_t a = 0; a < na; ++a)
                r->k.conv_s2(
                    (size_t)nb, (size_t)dw->out_n, nt, w, src + a * ph * pw, (size_t)pw, to,
                    (float *)mout->data + conv_view_index(mout, n, c, u0 + a * dd->out_step, u1, 0),
                    (size_t)(mout->stride[3] * dh->out_step), kind);
        }
    if (!st->merge_nt) return;
    const conv_view *gi = &p->grad_input;
    const int64_t base = conv_view_index(gi, n, c, 0, 0, 0);
    if (gi->dtype == ACL_FLOAT) /* fenced at the end of the task */
        r->k.copy_nt((size_t)view_plane(gi), (const float *)mout->data, (float *)gi->data + base);
    else /* rounded and narrowed, streamed where the ISA can */
        conv_store_results(gi, p->mode, r->ck, true, base, 1, view_plane(gi),
                           (const float *)mout->data);
}

/* Data gradient of plane (n, c): task n*G + c; next: lines to ask for while
 * packing; mout: where merge_w writes its rows (gradInput, or the slot's
 * plane for merge_nt). */
static void data_plane(const dw_run *r, int64_t n, int64_t c, int slot,
                       const ukernel_prefetch *next, const conv_view *mout)
{
    const conv_problem *p = r->p;
    const dw_state *st = r->st;
    float *src = slot_buf(r, slot), *grid = src + st->aux_off;
    pack_source(r, st->bwd ? &p->y : &p->x, n, c, slot, src, next);

    float wk[DW_MAX_TAPS];
    float wv[DW_MAX_TAPS];
    ptrdiff_t toff[DW_MAX_TAPS];
    const int64_t *ks = p->ks;
    channel_weights(r, c, wk);

    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const int64_t pw = dw->ext, ph = dh->ext;
    if (st->merge_w) {
        data_plane_merged(r, n, c, src, wk, mout);
        return;
    }
    int64_t u[CONV_SPATIAL], cnt[CONV_SPATIAL];
    for (u[0] = 0; u[0] < dd->nsub; ++u[0])
        for (u[1] = 0; u[1] < dh->nsub; ++u[1])
            for (u[2] = 0; u[2] < dw->nsub; ++u[2]) {
                bool none = false, empty = false;
                for (int i = 0; i < CONV_SPATIAL; ++i) {
                    cnt[i] = plane_sub_count(&st->dim[i], u[i]);
                    none |= st->dim[i].sub_tb[u[i]] == st->dim[i].sub_tb[u[i] + 1];
                    empty |= cnt[i] == 0;
                }
                const int64_t len = empty ? 0 : ((cnt[0] - 1) * ph + (cnt[1] - 1)) * pw + cnt[2];
                if (none) {
                    store_sub(r, n, c, u, cnt, NULL);
                    continue;
                }
                size_t nt = 0;
                for (int td = dd->sub_tb[u[0]]; td < dd->sub_tb[u[0] + 1]; ++td)
                    for (int th = dh->sub_tb[u[1]]; th < dh->sub_tb[u[1] + 1]; ++th)
                        for (int tw = dw->sub_tb[u[2]]; tw < dw->sub_tb[u[2] + 1]; ++tw, ++nt) {
                            const int64_t phase =
                                (dd->tap_ph[td] * (int64_t)dh->nph + dh->tap_ph[th]) * dw->nph +
                                dw->tap_ph[tw];
                            toff[nt] = (ptrdiff_t)(phase * st->plane +
                                                   (dd->tap_off[td] * ph + dh->tap_off[th]) * pw +
                                                   dw->tap_off[tw]);
                            wv[nt] = wk[(dd->tap_k[td] * ks[1] + dh->tap_k[th]) * ks[2] + dw->tap_k[tw]];
                        }
                if (len > 0) r->k.conv((size_t)len, nt, wv, src, toff, grid);
                store_sub(r, n, c, u, cnt, grid);
            }
}

/* The kernels' source for plane (n, c) of v at output depth od: the fp32
 * view (or slot plane) of every tap's depth plane, rounded by the kernels
 * to fp16 for DW_SRC_F32_F16, or the one 16-bit plane the row-window kernels widen
 * as they read it. */
static void taps_at_depth(const dw_state *st, const conv_view *v, int64_t n, int64_t c, int64_t od,
                          dw_taps *tp, f32_dwrow_src *s)
{
    *s = (f32_dwrow_src){.x = tp->x,
                         .dh = tp->dh,
                         .dw = tp->dw,
                         .nt = (size_t)tp->n,
                         .ih = (size_t)v->dim[3],
                         .iw = (size_t)v->dim[4],
                         .rs = (size_t)v->stride[3]};
    if (dw_src_16bit(st->src_kind)) { /* a single depth tap (src_kind_for) */
        const int64_t d = od + tp->od_off[0];
        if (d >= 0 && d < v->dim[2]) {
            s->src_kind = st->src_kind;
            s->x16 = (const uint16_t *)v->data + conv_view_index(v, n, c, d, 0, 0);
        } else { /* padding: no plane, zero terms (the kernels read nothing) */
            for (int64_t t = 0; t < tp->n; ++t)
                tp->x[t] = NULL;
        }
        return;
    }
    const float *base = (const float *)v->data;
    for (int64_t t = 0; t < tp->n; ++t) {
        const int64_t d = od + tp->od_off[t];
        tp->x[t] = d >= 0 && d < v->dim[2] ? base + conv_view_index(v, n, c, d, 0, 0) : NULL;
    }
    if (dw_src_rounded(st->src_kind) && tp->x[0] != NULL) /* else padding: zeros */
        s->src_kind = st->src_kind;
}

/* Stores plane (n, c) of the data gradient from buf (scratch_view's layout)
 * with store_row: in one run when gradInput's plane is dense, with plain
 * stores into lines data_task asked for while the plane was computed.
 * Streamed a plane at a time, they lost against those (dw_3x3's bf16 data
 * pass, 1 thread: medians -5 to -10%, 2 threads: minima -5%): a plane of
 * 1568 bytes starts and ends in the middle of a line every other channel,
 * and the write-combining buffers of those partial lines flushed early.
 * Dense 16-bit planes go in groups of whole lines instead (group_planes). */
static void store_plane(const dw_run *r, int64_t n, int64_t c, const float *buf)
{
    const conv_view *out = &r->p->grad_input;
    const int64_t dn = out->dim[2], hn = out->dim[3], wn = out->dim[4];
    if (conv_view_blocks_dense(out)) {
        store_row(r, conv_view_index(out, n, c, 0, 0, 0), 1, dn * hn * wn, buf);
        return;
    }
    for (int64_t d = 0; d < dn; ++d)
        for (int64_t h = 0; h < hn; ++h)
            store_row(r, conv_view_index(out, n, c, d, h, 0), out->stride[4], wn,
                      buf + (d * hn + h) * wn);
}

/* Where channel c's gradInput plane lies in the slot's out plane(s) buf:
 * its place in its group (out_group), else buf. */
static float *group_slot(const dw_run *r, float *buf, int64_t c)
{
    const int64_t g = r->st->out_group;
    return g > 0 ? buf + c % g * view_plane(&r->p->grad_input) : buf;
}

/* Data gradient of plane (n, c) with unit strides and the taps tp
 * (data_taps), read from src (the source view, or the slot's plane, filled
 * here) and written to out (gradInput, or the slot's plane, stored here):
 * the packed path's terms in its order, so the same bits. The kernel calls
 * ask for next's lines as they go. */
static void data_plane_inplace(const dw_run *r, int64_t n, int64_t c, const conv_view *src,
                               const conv_view *out, dw_taps *tp, const ukernel_prefetch *next)
{
    const conv_problem *p = r->p;
    const dw_state *st = r->st;
    if (!st->src_direct && st->src_kind == DW_SRC_F32)
        load_plane(st->bwd ? &p->y : &p->x, n, c, p->mode, r->ck, (float *)src->data);
    const float *wv = (const float *)(r->ws + st->wv_off) + c * st->ntaps;
    float *y = group_slot(r, (float *)out->data, c);
    const int64_t oh = st->dim[1].out_n, ow = st->dim[2].out_n;
    const int yround = conv_result_round_kind(p->mode); /* used when out_rounds */
    for (int64_t od = 0; od < st->dim[0].out_n; ++od) {
        f32_dwrow_src s;
        float *yp = y + conv_view_index(out, n, c, od, 0, 0);
        taps_at_depth(st, src, n, c, od, tp, &s);
        s.pf = ukernel_prefetch_part(next, (size_t)od, (size_t)st->dim[0].out_n);
        r->k.row((size_t)oh, (size_t)ow, &s, wv, yp, (size_t)out->stride[3]);
        if (st->out_nt || !st->out_rounds) continue; /* out_nt: rounded as streamed */
        if (out->stride[3] == ow)
            r->ck->f32_round((size_t)(oh * ow), yp, yp, yround);
        else
            for (int64_t h = 0; h < oh; ++h)
                r->ck->f32_round((size_t)ow, yp + h * out->stride[3], yp + h * out->stride[3],
                                 yround);
    }
    if (st->out_nt) { /* fenced at the end of the task */
        const size_t len = (size_t)view_plane(&p->grad_input);
        float *gi = (float *)p->grad_input.data + conv_view_index(&p->grad_input, n, c, 0, 0, 0);
        if (st->out_rounds)
            r->ck->f32_round_nt(len, y, gi, yround);
        else
            r->k.copy_nt(len, y, gi);
    } else if (!st->out_direct && st->out_group == 0)
        store_plane(r, n, c, y);
}

/* The in-place data pass's weights table (wv_off), channels
 * [i*DW_BLOCK, (i+1)*DW_BLOCK): read and rounded as the sources
 * (channel_weights), in the order of the taps. Once per run: per plane,
 * widening 9 bf16 weights through conv_load_row was ~3% of dw_3x3's data
 * pass in cache. */
static void fill_weights(void *ctx, size_t index)
{
    const dw_run *r = ctx;
    const dw_state *st = r->st;
    dw_taps tp;
    data_taps(st, r->p->ks, &tp);
    float wk[DW_MAX_TAPS];
    const int64_t c0 = (int64_t)index * DW_BLOCK, c1 = min64(r->p->g, c0 + DW_BLOCK);
    if (st->chan_vec) { /* tap-major: 16 channels from any c0 a vector */
        const int64_t wp = chan_wp(r->p->g);
        float *wv = (float *)(r->ws + st->wv_off);
        for (int64_t c = c0; c < c1; ++c) {
            channel_weights(r, c, wk);
            for (int64_t t = 0; t < tp.n; ++t)
                wv[t * wp + c] = wk[tp.k[t]];
        }
        if (c1 == r->p->g) /* the last block: the lanes past the channels */
            for (int64_t t = 0; t < tp.n; ++t)
                zero_f32(wv + t * wp + c1, wp - c1);
        return;
    }
    for (int64_t c = c0; c < c1; ++c) {
        float *wv = (float *)(r->ws + st->wv_off) + c * st->ntaps;
        channel_weights(r, c, wk);
        for (int64_t t = 0; t < tp.n; ++t)
            wv[t] = wk[tp.k[t]];
    }
}

/* Planes (n, c0) .. (n, c0 + count - 1) of the data gradient from buf
 * (out_group: adjacent in gradInput and in buf), one run of the narrowing
 * kernel: streamed when the run is whole lines, else plain stores (a
 * group cut by a task's channel range, or a buffer off 64 bytes). */
static void store_group(const dw_run *r, int64_t n, int64_t c0, int64_t count, const float *buf)
{
    const conv_view *out = &r->p->grad_input;
    const int64_t base = conv_view_index(out, n, c0, 0, 0, 0), len = count * view_plane(out);
    const bool whole = r->group_nt && count == r->st->out_group;
    conv_store_results(out, r->p->mode, r->ck, whole, base, 1, len, buf);
}

/* Whether out_group's full groups are whole lines of gradInput (its
 * address and image stride are known at run time only:
 * aclSetRawTensorAddr). */
static bool group_lines(const conv_problem *p, const dw_state *st)
{
    const conv_view *v = &p->grad_input;
    return st->out_group > 0 && (uintptr_t)v->data % 64 == 0 &&
           (v->dim[0] == 1 || v->stride[0] * 2 % 64 == 0);
}

/* What a data task's planes are read from and written to in slot `slot`:
 * the source (the view, or the slot's widened plane), gradInput (the view,
 * or the slot's plane), merge_nt's plane, the in-place taps. */
typedef struct dw_data_views {
    conv_view src, out, mout;
    dw_taps tp;
} dw_data_views;

static void data_views(const dw_run *r, int slot, dw_data_views *dv)
{
    const conv_problem *p = r->p;
    const dw_state *st = r->st;
    const conv_view *v = st->bwd ? &p->y : &p->x;
    float *buf = slot_buf(r, slot);
    dv->src = st->src_direct || st->src_kind != DW_SRC_F32 ? *v : scratch_view(v, buf);
    dv->out = st->out_direct ? p->grad_input : scratch_view(&p->grad_input, buf + st->aux_off);
    dv->mout = st->merge_nt ? scratch_view(&p->grad_input, buf + st->out_off) : p->grad_input;
    if (st->inplace) data_taps(st, p->ks, &dv->tp);
}

/* gradInput's plane (n, c) of a task over channels [c0, c1), in place or
 * packed; next: the lines its calls ask for. out_group: the group's planes
 * stored after its last (or the task's last) is computed. */
static void data_plane_any(const dw_run *r, int64_t n, int64_t c, int64_t c0, int64_t c1, int slot,
                           dw_data_views *dv, const ukernel_prefetch *next)
{
    if (!r->st->inplace) {
        data_plane(r, n, c, slot, next, &dv->mout);
        return;
    }
    data_plane_inplace(r, n, c, &dv->src, &dv->out, &dv->tp, next);
    const int64_t g = r->st->out_group;
    if (g > 0 && ((c + 1) % g == 0 || c + 1 == c1)) {
        const int64_t first = max64(c - c % g, c0);
        store_group(r, n, first, c + 1 - first, group_slot(r, (float *)dv->out.data, first));
    }
}

/* Whether the in-place data pass asks for the next gradInput plane's lines
 * ahead of its plain stores (not for streamed ones). */
static bool out_ahead(const dw_run *r)
{
    return r->st->inplace && !r->st->out_nt && !r->group_nt;
}

/* gradInput's planes (n, c0) .. (n, c1 - 1), c1 - c0 <= 16, with the
 * channels in the vector (chan_vec): the source planes packed into the
 * slot's grid (source row R + rmin at grid row R, column C - 1 at C; the
 * rest zero), dwchconv's rows transposed back into gradInput. The next 16
 * planes of the source are asked for into L2 as these are packed. Returns
 * the source's position (0, 0) in the grid, rows *pitch positions apart,
 * when the grid holds the whole source planes (a weights run's dy), else
 * NULL; with sums (16 floats) and whole planes, their sums as packed
 * (*summed = 1; else 0). */
static const float *data_chan(const dw_run *r, int64_t n, int64_t c0, int64_t c1, int slot,
                              size_t *pitch, float *sums, int *summed)
{
    const conv_problem *p = r->p;
    const dw_state *st = r->st;
    const conv_view *v = st->bwd ? &p->y : &p->x, *out = &p->grad_input;
    const int64_t rows = st->dim[1].out_n, ow = st->dim[2].out_n, sp = ow + 2;
    const int64_t ih = v->dim[3], iw = v->dim[4];
    float *grid = slot_buf(r, slot);
    int32_t *ready = slot_flag(r, slot);
    if (!*ready) { /* the border stays zero: every call writes the same positions */
        zero_f32(grid, (rows + 2) * sp * 16);
        *ready = 1;
    }
    dw_taps tp;
    data_taps(st, p->ks, &tp);
    const int64_t rmin = min64(tp.dh[0], tp.dh[6]);
    const int64_t i0 = max64(0, rmin), i1 = min64(ih, rmin + rows + 2);
    const float *w16 = (const float *)(r->ws + st->wv_off) + c0; /* fill_weights */
    const void *src[16];
    float *dst[16];
    float *planes = grid + st->aux_off; /* !out_direct: the 16 planes side by side */
    const int64_t plane = rows * ow, es = v->dtype == ACL_FLOAT ? 4 : 2;
    for (int64_t cc = 0; cc < 16; ++cc) {
        const int64_t c = c0 + cc;
        const bool in = c < c1;
        src[cc] = in ? v->data + conv_view_index(v, n, c, 0, i0, 0) * es : NULL;
        dst[cc] = !in              ? NULL
                  : !st->out_direct ? planes + cc * plane
                                    : (float *)out->data + conv_view_index(out, n, c, 0, 0, 0);
    }
    ukernel_prefetch next = UKERNEL_PREFETCH_NONE;
    if (c1 < p->g) block_lines(v, n, c1, min64(p->g, c1 + 16), 0, &next);
    next.l2 = 1;
    float *g0 = grid + ((i0 - rmin) * sp + 1) * 16;
    const size_t srows = (size_t)(i1 - i0), scols = (size_t)min64(iw, ow + 1);
    /* gradBias's sums only of whole planes */
    const bool whole = i0 == 0 && i1 == ih && iw <= ow + 1;
    float *psums = whole ? sums : NULL;
    int got = 0;
    if (i1 > i0 && es == 4) /* rounded for the mode */
        got = f32_dwch_pack_16__avx512((const float *const *)src, (size_t)v->stride[3], srows,
                                       scols, g0, (size_t)sp, st->chan_round, psums, &next);
    else if (i1 > i0) /* 16-bit, widened exactly */
        got = h16_dwch_pack_16__avx512((const uint16_t *const *)src, v->dtype == ACL_BF16,
                                       (size_t)v->stride[3], srows, scols, g0, (size_t)sp,
                                       st->chan_round, psums, &next);
    if (summed) *summed = got;
    ptrdiff_t toff[9];
    for (int t = 0; t < 9; ++t)
        toff[t] = (ptrdiff_t)((tp.dh[t] - rmin) * sp + tp.dw[t] + 1);
    f32_dwchconv_ukernel_16__avx512((size_t)rows, (size_t)ow, grid, (size_t)sp, toff, w16,
                                    (size_t)chan_wp(p->g), dst,
                                    (size_t)(st->out_direct ? out->stride[3] : ow));
    /* out_nt: a run of both gradients, fenced at the end of its weights task */
    const int64_t base = conv_view_index(out, n, c0, 0, 0, 0);
    if (st->out_nt && out->dtype == ACL_FLOAT && conv_result_round_kind(p->mode) == F32_ROUND_NONE)
        r->k.copy_nt((size_t)((c1 - c0) * plane), planes, (float *)out->data + base);
    else if (!st->out_direct && st->chan_run) /* the planes one run */
        conv_store_results(out, p->mode, r->ck, st->out_nt, base, 1, (c1 - c0) * plane, planes);
    else if (!st->out_direct)
        for (int64_t c = c0; c < c1; ++c) store_plane(r, n, c, planes + (c - c0) * plane);
    *pitch = (size_t)sp;
    return whole ? grid + (-rmin * sp + 1) * 16 : NULL;
}

/* Data gradient: task n*nblocks + b computes the planes (n, c) of the
 * channels c of block b, in order (consecutive in memory), prefetching the
 * next plane while computing one. */
static void data_task(void *ctx, size_t index, int slot)
{
    const dw_run *r = ctx;
    const conv_problem *p = r->p;
    const int64_t nb = ceil_div(p->g, DW_BLOCK);
    const int64_t n = (int64_t)index / nb, c0 = (int64_t)index % nb * DW_BLOCK;
    const int64_t c1 = min64(p->g, c0 + DW_BLOCK);
    const dw_state *st = r->st;
    const conv_view *v = st->bwd ? &p->y : &p->x;
    if (st->chan_vec) {
        size_t pitch;
        data_chan(r, n, c0, c1, slot, &pitch, NULL, NULL); /* not streamed alone */
        return;
    }
    dw_data_views dv;
    data_views(r, slot, &dv);
    for (int64_t c = c0; c < c1; ++c) {
        /* the next plane: asked for by the in-place kernel as it goes, by
         * the packing of the packed path. When the in-place kernel reads
         * the view itself, the hardware prefetchers of Zen 4 kept up
         * (requests spread over the kernel's rows cost dw_3x3's dx +17%
         * there); on Zen 5 they do not: without the requests the pass took
         * 2.5x as long (docs/performance.md, session 10) */
        ukernel_prefetch next = UKERNEL_PREFETCH_NONE;
        if (c + 1 < c1) {
            plane_lines(v, n, c + 1, 0, &next);
            /* and the next gradInput plane the in-place kernel (or
             * store_plane) stores into: its stores missed (49 lines a 28x28
             * plane, each a write allocation the kernel waited on): dw_3x3's
             * dx 3.1 -> 2.0 ms */
            if (out_ahead(r)) plane_lines(&p->grad_input, n, c + 1, 1, &next);
        }
        ukernel_prefetch_level(&next, 1);
        data_plane_any(r, n, c, c0, c1, slot, &dv, &next);
    }
    if (r->k.fence) r->k.fence(); /* the streamed stores of the task */
}

/* Partial sums of chunk k of channel c: ntaps x DW_ACC_LANES floats. */
static float *partials(const dw_run *r, int64_t c, int64_t k)
{
    const dw_state *st = r->st;
    return (float *)(r->ws + st->part_off) + (c * st->nchunk + k) * st->ntaps * DW_ACC_LANES;
}

/* The fixed lane tree: (l, l + 16), then (l, l + 8), ..., (l, l + 1). */
static float lane_sum(const float *acc)
{
    float v[DW_ACC_LANES];
    memcpy(v, acc, sizeof v);
    for (int half = DW_ACC_LANES / 2; half >= 1; half /= 2)
        for (int l = 0; l < half; ++l) v[l] = v[l] + v[l + half];
    return v[0];
}

/* gradWeight[c]: the chunks' lane sums added in chunk order, stored. */
static void wt_finish(void *ctx, size_t index)
{
    const dw_run *r = ctx;
    const conv_problem *p = r->p;
    const dw_state *st = r->st;
    const int64_t c = (int64_t)index;
    const conv_view *out = &p->grad_weight;
    for (int64_t kd = 0, t = 0; kd < p->ks[0]; ++kd)
        for (int64_t kh = 0; kh < p->ks[1]; ++kh)
            for (int64_t kw = 0; kw < p->ks[2]; ++kw, ++t) {
                float s = lane_sum(partials(r, c, 0) + t * DW_ACC_LANES);
                for (int64_t k = 1; k < st->nchunk; ++k)
                    s = s + lane_sum(partials(r, c, k) + t * DW_ACC_LANES);
                store_from_f32(out->data, out->dtype, conv_view_index(out, c, 0, kd, kh, kw), s);
            }
}

/* Fused gradBias (st->bias) after plane (n, c) of a weights task's channels
 * [c0, c1): its dy values (the view's for fp32, dyp may be rounded; the
 * widened plane dyp for 16-bit; the 16-bit view's with dy_inplace) join the
 * group of DW_SUM_GROUP channels (planes, or planes16); a full group, or
 * the task's last channel, is summed by dwsum into sums[n*G + c]. Side by
 * side, each channel's lanes one chain of adds in a pinned order: one
 * plane's chain after each kernel call would wait. */
static void bias_plane(const dw_run *r, const float **planes, const uint16_t **planes16, int64_t n,
                       int64_t c, int64_t c0, int64_t c1, const float *dyp)
{
    const conv_problem *p = r->p;
    const conv_view *y = &p->y;
    const int64_t g = (c - c0) % DW_SUM_GROUP;
    const bool h16 = r->st->dy_inplace && y->dtype != ACL_FLOAT;
    if (h16)
        planes16[g] = (const uint16_t *)y->data + conv_view_index(y, n, c, 0, 0, 0);
    else
        planes[g] = y->dtype == ACL_FLOAT
                        ? (const float *)y->data + conv_view_index(y, n, c, 0, 0, 0)
                        : dyp;
    if (g + 1 < DW_SUM_GROUP && c + 1 < c1) return;
    float bacc[DW_SUM_GROUP][CONV_BIAS_LANES];
    memset(bacc, 0, sizeof bacc);
    const size_t len = (size_t)(p->ys[0] * p->ys[1] * p->ys[2]);
    if (h16)
        r->k.sum16((size_t)(g + 1), len, planes16, y->dtype == ACL_BF16, &bacc[0][0]);
    else
        r->k.sum((size_t)(g + 1), len, planes, &bacc[0][0]);
    float *sums = (float *)(r->ws + r->st->sums_off);
    for (int64_t i = 0; i <= g; ++i)
        sums[n * p->g + c - g + i] = conv_bias_lanes_sum(bacc[i]);
}

/* The plane (*nn, *nc) `ahead` after plane (n, c) in the order of a weights
 * task over images [n0, n1) and channels [c0, c1); false past the task. */
static bool task_plane_ahead(int64_t n0, int64_t n1, int64_t c0, int64_t c1, int64_t n, int64_t c,
                             int64_t ahead, int64_t *nn, int64_t *nc)
{
    const int64_t at = (n - n0) * (c1 - c0) + (c - c0) + ahead;
    *nn = n0 + at / (c1 - c0);
    *nc = c0 + at % (c1 - c0);
    return *nn < n1;
}

/* The x and dy planes `ahead` after plane (n, c) of such a task, for
 * `calls` calls to ask for. */
static ukernel_prefetch wt_planes_ahead(const conv_problem *p, int64_t n0, int64_t n1, int64_t c0,
                                        int64_t c1, int64_t n, int64_t c, int64_t ahead,
                                        size_t calls)
{
    int64_t nn, nc;
    ukernel_prefetch next = UKERNEL_PREFETCH_NONE;
    if (task_plane_ahead(n0, n1, c0, c1, n, c, ahead, &nn, &nc)) {
        plane_lines(&p->x, nn, nc, 0, &next);
        plane_lines(&p->y, nn, nc, 1, &next);
    }
    ukernel_prefetch_level(&next, calls);
    return next;
}

/* A weights run with_data: gradInput's plane (n, c) of a task over images
 * [n0, n1) and channels [c0, c1), just before the weights kernels read
 * planes (n, c): its source is among the x and dy planes the weights loop
 * asks for; in place, the calls ask for the next plane's gradInput lines,
 * as data_task's do. */
static void fused_data_plane(const dw_run *rd, int slot, dw_data_views *dv, int64_t n0, int64_t n1,
                             int64_t c0, int64_t c1, int64_t n, int64_t c)
{
    ukernel_prefetch next = UKERNEL_PREFETCH_NONE;
    int64_t nn, nc;
    if (out_ahead(rd) && task_plane_ahead(n0, n1, c0, c1, n, c, 1, &nn, &nc))
        plane_lines(&rd->p->grad_input, nn, nc, 1, &next);
    ukernel_prefetch_level(&next, 1);
    data_plane_any(rd, n, c, c0, c1, slot, dv, &next);
}

/* The in-place weights loop of wt_task (unit strides, or a 3x3 at stride 2
 * with dwrowwt_s2): x and dy read in dense fp32 rows, the views themselves
 * or their planes widened into the slot; the same terms, lanes and order as
 * the packed path. */
static void wt_task_inplace(const dw_run *r, int slot, int64_t c0, int64_t c1, int64_t n0,
                            int64_t n1, int64_t k)
{
    const conv_problem *p = r->p;
    const dw_state *st = r->st;
    const conv_view *x = &p->x, *y = &p->y;
    dw_taps tp;
    wt_taps(p, st, &tp);
    float *xbuf = slot_buf(r, slot), *dybuf = xbuf + st->aux_off;
    const conv_view xv = st->src_direct || st->src_kind != DW_SRC_F32 ? *x : scratch_view(x, xbuf);
    /* the pitches of dyp (dy16: of the view) */
    const conv_view yv = st->dy_direct || st->dy_inplace ? *y : scratch_view(y, dybuf);
    const int64_t block = p->ys[0] * p->ys[1] * p->ys[2];
    const float *planes[DW_SUM_GROUP]; /* gradBias: a group's dy planes (bias_plane) */
    const uint16_t *planes16[DW_SUM_GROUP];
    /* with_data: gradInput's plane (n, c) first, from the dy (D) or x (F)
     * plane the weights kernels then read again, from L1: one read of it
     * from memory for both gradients */
    const dw_run *rd = r->data;
    dw_data_views dv;
    if (rd != NULL) data_views(rd, slot, &dv);
    const float *dsrc_plane = st->dy_shared ? (const float *)dv.src.data : NULL;
    for (int64_t n = n0; n < n1; ++n)
        for (int64_t c = c0; c < c1; ++c) {
            /* asked for by the kernel calls, a part each */
            ukernel_prefetch next =
                wt_planes_ahead(p, n0, n1, c0, c1, n, c, DW_WT_AHEAD, (size_t)p->ys[0]);
            if (rd != NULL) fused_data_plane(rd, slot, &dv, n0, n1, c0, c1, n, c);
            if (!st->src_direct && st->src_kind == DW_SRC_F32)
                load_plane(x, n, c, p->mode, r->ck, xbuf);
            const int64_t g = (c - c0) % DW_SUM_GROUP; /* a bias group's dy planes: one each */
            const float *dyp = NULL;
            const uint16_t *dy16 = NULL;
            if (st->dy_direct || (st->dy_inplace && y->dtype == ACL_FLOAT)) {
                dyp = (const float *)y->data + conv_view_index(y, n, c, 0, 0, 0);
            } else if (st->dy_inplace) {
                dy16 = (const uint16_t *)y->data + conv_view_index(y, n, c, 0, 0, 0);
            } else if (st->dy_shared) {
                dyp = dsrc_plane;
            } else {
                float *b = dybuf + (st->bias ? g * block : 0);
                load_plane(y, n, c, p->mode, r->ck, b);
                dyp = b;
            }
            float *acc = partials(r, c, k);
            for (int64_t od = 0; od < p->ys[0]; ++od) {
                f32_dwrow_src s;
                taps_at_depth(st, &xv, n, c, od, &tp, &s);
                s.pf = ukernel_prefetch_part(&next, (size_t)od, (size_t)p->ys[0]);
                if (st->dy_inplace) { /* every depth plane on an x plane (dy_inplace_applies) */
                    s.dy_kind = st->src_kind;
                    s.dy16 = dy16 ? dy16 + od * yv.stride[2] : NULL;
                }
                (st->inplace_s2 ? r->k.rowwt_s2 : r->k.rowwt)(
                    (size_t)p->ys[1], (size_t)p->ys[2], &s, dyp ? dyp + od * yv.stride[2] : NULL,
                    (size_t)yv.stride[3], acc);
            }
            if (st->bias) bias_plane(r, planes, planes16, n, c, c0, c1, dyp);
        }
}

/* The weights loop of wt_task with the channels in the vector (chan_vec):
 * per image, the task's (at most 16) x and dy planes packed by dwch_pack
 * into the slot, then dwchwt; its sums per (column, tap, channel) stay in
 * the slot for the task's images and go to the channels' partial sums at
 * the end, lane j for column j. Each sum sees the terms and order of the
 * in-place kernels' lane j (images, then rows ascending): the same bits.
 * gradInput (with_data) and gradBias as wt_task_inplace, a plane each. */
static void wt_task_chan(const dw_run *r, int slot, int64_t c0, int64_t c1, int64_t n0,
                         int64_t n1, int64_t k)
{
    const conv_problem *p = r->p;
    const dw_state *st = r->st;
    const conv_view *x = &p->x, *y = &p->y;
    const int64_t rows = p->ys[1], ow = p->ys[2], xp = ow + 2, ih = x->dim[3], iw = x->dim[4];
    float *xt = slot_buf(r, slot);
    float *dyt = xt + round_floats((rows + 2) * xp * 16);
    float *sums = dyt + round_floats(rows * ow * 16);
    /* rows and columns of xt outside the source stay zero for every image */
    zero_f32(xt, (rows + 2) * xp * 16);
    zero_f32(sums, ow * 9 * 16);
    dw_taps tp;
    wt_taps(p, st, &tp);
    const int64_t dh0 = tp.dh[0]; /* xt row R: source row R + dh0; column C: C - 1 */
    const int64_t i0 = max64(0, dh0), i1 = min64(ih, dh0 + rows + 2);
    const dw_run *rd = r->data;
    dw_data_views dv;
    if (rd != NULL) data_views(rd, slot, &dv);
    const size_t es = x->dtype == ACL_FLOAT ? 4 : 2; /* dy: x's dtype (chan_vec_applies) */
    for (int64_t n = n0; n < n1; ++n) {
        const void *xs[16], *ds[16];
        /* dy as the data pass packed it, when its grid holds all of dy: one
         * packing of dy for both kernels */
        const float *dyg = NULL;
        size_t dyp = (size_t)ow;
        /* gradBias's sums of the image's 16 planes, as dy is packed */
        float bs[16];
        float *want = st->bias ? bs : NULL;
        int summed = 0;
        if (rd != NULL && rd->st->chan_vec) { /* (a transposed call's grid holds x) */
            const bool bwd = rd->st->bwd;
            const float *g = data_chan(rd, n, c0, c1, slot, &dyp, bwd ? want : NULL, &summed);
            dyg = bwd ? g : NULL;
        }
        if (dyg == NULL) {
            dyp = (size_t)ow;
            summed = 0;
        }
        for (int64_t c = c0; c < c0 + 16; ++c) {
            const bool in = c < c1;
            if (in && rd != NULL && !rd->st->chan_vec)
                fused_data_plane(rd, slot, &dv, n0, n1, c0, c1, n, c);
            xs[c - c0] = in ? x->data + conv_view_index(x, n, c, 0, i0, 0) * (int64_t)es : NULL;
            ds[c - c0] = in ? y->data + conv_view_index(y, n, c, 0, 0, 0) * (int64_t)es : NULL;
        }
        /* the planes DW_CHAN_AHEAD images ahead, asked for into L2 a part
         * per packed row and kernel row (the packing reads 32 planes side by
         * side, more streams than the hardware prefetchers follow; in a
         * burst before each image the requests stalled the core) */
        ukernel_prefetch next = UKERNEL_PREFETCH_NONE;
        if (n + DW_CHAN_AHEAD < n1) {
            block_lines(x, n + DW_CHAN_AHEAD, c0, c1, 0, &next);
            block_lines(y, n + DW_CHAN_AHEAD, c0, c1, 1, &next);
        }
        next.l2 = 1;
        const size_t parts = dyg != NULL ? 2 : 3;
        const ukernel_prefetch px = ukernel_prefetch_part(&next, 0, parts),
                               pd = ukernel_prefetch_part(&next, 1, 3),
                               pk = ukernel_prefetch_part(&next, parts - 1, parts);
        const size_t xrows = (size_t)(i1 - i0);
        float *xt0 = xt + ((i0 - dh0) * xp + 1) * 16;
        if (es == 4) {
            if (i1 > i0)
                f32_dwch_pack_16__avx512((const float *const *)xs, (size_t)x->stride[3], xrows,
                                         (size_t)iw, xt0, (size_t)xp, st->chan_round, NULL, &px);
            if (dyg == NULL)
                summed = f32_dwch_pack_16__avx512((const float *const *)ds, (size_t)y->stride[3],
                                                  (size_t)rows, (size_t)ow, dyt, (size_t)ow,
                                                  st->chan_round, want, &pd);
        } else {
            const int bf16 = x->dtype == ACL_BF16;
            if (i1 > i0)
                h16_dwch_pack_16__avx512((const uint16_t *const *)xs, bf16, (size_t)x->stride[3],
                                         xrows, (size_t)iw, xt0, (size_t)xp, st->chan_round,
                                         NULL, &px);
            if (dyg == NULL)
                summed = h16_dwch_pack_16__avx512((const uint16_t *const *)ds, bf16,
                                                  (size_t)y->stride[3], (size_t)rows, (size_t)ow,
                                                  dyt, (size_t)ow, st->chan_round, want, &pd);
        }
        const float *dyk = dyg != NULL ? dyg : dyt;
        f32_dwchwt_ukernel_16x2__avx512((size_t)rows, (size_t)ow, xt, (size_t)xp, dyk, dyp, sums,
                                        &pk);
        /* gradBias: summed by the packing of dy, its values as read (a
         * plane a call of dwsum was ~20% of the pass on 7x7). bias_fusable's
         * dense dy packs flat, so always; the view's sum would do else. */
        if (st->bias) {
            float *bsums = (float *)(r->ws + st->sums_off) + n * p->g;
            for (int64_t c = c0; c < c1; ++c)
                bsums[c] = summed ? bs[c - c0] : conv_bias_block_sum(&p->bias_src, n, c, r->ck);
        }
    }
    for (int64_t c = c0; c < c1; ++c) {
        float *acc = partials(r, c, k); /* zeroed by wt_task */
        for (int64_t t = 0; t < 9; ++t)
            for (int64_t j = 0; j < ow; ++j)
                acc[t * DW_ACC_LANES + j] = sums[(j * 9 + t) * 16 + c - c0];
    }
}

/* Weights: task b*nchunk + k sums chunk k of the images for the channels of
 * block b, image by image (consecutive channels are consecutive in memory);
 * each channel's partial sums see its images in ascending order. */
static void wt_task(void *ctx, size_t index, int slot)
{
    const dw_run *r = ctx;
    const conv_problem *p = r->p;
    const dw_state *st = r->st;
    const int64_t blk = (int64_t)index / st->nchunk, k = (int64_t)index % st->nchunk;
    const int64_t c0 = blk * st->cb, c1 = min64(p->g, c0 + st->cb);
    const int64_t n0 = k * p->n / st->nchunk, n1 = (k + 1) * p->n / st->nchunk;
    float *src = slot_buf(r, slot), *dybuf = src + st->aux_off;
    for (int64_t c = c0; c < c1; ++c)
        memset(partials(r, c, k), 0, (size_t)(st->ntaps * DW_ACC_LANES) * sizeof(float));

    ptrdiff_t toff[DW_MAX_TAPS];
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const int64_t pw = dw->ext, ph = dh->ext;
    for (int64_t kd = 0, t = 0; kd < p->ks[0]; ++kd)
        for (int64_t kh = 0; kh < p->ks[1]; ++kh)
            for (int64_t kw = 0; kw < p->ks[2]; ++kw, ++t) {
                /* source geometry: tap j of a dim is kernel index j */
                const int64_t phase =
                    (dd->tap_ph[kd] * (int64_t)dh->nph + dh->tap_ph[kh]) * dw->nph + dw->tap_ph[kw];
                toff[t] = (ptrdiff_t)(phase * st->plane + (dd->tap_off[kd] * ph + dh->tap_off[kh]) * pw +
                                      dw->tap_off[kw]);
            }
    const conv_view *y = &p->y;
    const int64_t *ys = p->ys;
    const float *planes[DW_SUM_GROUP]; /* gradBias: a group's dy planes (bias_plane) */
    const dw_run *rd = r->data;
    dw_data_views dv;
    if (rd != NULL && !st->inplace) data_views(rd, slot, &dv);
    if (st->chan_vec)
        wt_task_chan(r, slot, c0, c1, n0, n1, k);
    else if (st->inplace)
        wt_task_inplace(r, slot, c0, c1, n0, n1, k);
    else
        for (int64_t n = n0; n < n1; ++n)
            for (int64_t c = c0; c < c1; ++c) {
                /* the next planes, asked for as x is packed (two ahead:
                 * no change in dw_3x3_s2's weights pass) */
                const ukernel_prefetch next = wt_planes_ahead(p, n0, n1, c0, c1, n, c, 1, 1);
                if (rd != NULL) fused_data_plane(rd, slot, &dv, n0, n1, c0, c1, n, c);
                pack_source(r, &p->x, n, c, slot, src, &next);
                const float *dy;
                int64_t dps, rps;
                if (st->dy_direct) {
                    dy = (const float *)y->data + conv_view_index(y, n, c, 0, 0, 0);
                    dps = y->stride[2];
                    rps = y->stride[3];
                } else {
                    /* with gradBias, a group's planes side by side */
                    float *b =
                        dybuf + (st->bias ? (c - c0) % DW_SUM_GROUP * ys[0] * ys[1] * ys[2] : 0);
                    for (int64_t yd = 0; yd < ys[0]; ++yd) /* rows through the ISA's conversions */
                        for (int64_t yh = 0; yh < ys[1]; ++yh)
                            conv_load_row(y, n, c, yd, yh, 0, 1, ys[2], p->mode, r->ck,
                                          b + (yd * ys[1] + yh) * ys[2]);
                    dy = b;
                    dps = ys[1] * ys[2];
                    rps = ys[2];
                }
                float *acc = partials(r, c, k);
                for (int64_t od = 0; od < ys[0]; ++od)
                    r->k.wt((size_t)st->ntaps, (size_t)ys[1], (size_t)ys[2], src + od * ph * pw,
                          (size_t)pw, toff, dy + od * dps, (size_t)rps, acc);
                if (st->bias) bias_plane(r, planes, NULL, n, c, c0, c1, dy);
            }
    if (rd != NULL && r->k.fence) r->k.fence(); /* the data planes' streamed stores */
    if (st->nchunk == 1)
        for (int64_t c = c0; c < c1; ++c) wt_finish(ctx, (size_t)c);
}

static void dw_run_pass(const conv_problem *p, conv_pass pass, const void *state, void *workspace)
{
    const dw_state *st = state;
    dw_run r = {.p = p,
                .st = st,
                .ws = workspace,
                .k = pick_kernels(st->isa),
                .ck = conv_ukernels_for(st->isa),
                .group_nt = pass == CONV_PASS_DATA && group_lines(p, st)};
    memset(r.ws + st->flag_off, 0, (size_t)st->slots * DW_FLOAT_ALIGN * sizeof(int32_t));
    if (pass == CONV_PASS_DATA) {
        if (st->inplace) pool_parallel_for((size_t)ceil_div(p->g, DW_BLOCK), fill_weights, &r);
        pool_parallel_for_slots((size_t)(p->n * ceil_div(p->g, DW_BLOCK)), st->slots, data_task, &r);
        return;
    }
    dw_run rd;
    if (st->with_data) {
        rd = r;
        rd.st = &((const dw_pair *)state)->data;
        rd.group_nt = group_lines(p, rd.st);
        rd.ws = r.ws + st->data_off;
        memset(rd.ws + rd.st->flag_off, 0, (size_t)rd.st->slots * DW_FLOAT_ALIGN * sizeof(int32_t));
        if (rd.st->inplace) pool_parallel_for((size_t)ceil_div(p->g, DW_BLOCK), fill_weights, &rd);
        r.data = &rd;
    }
    pool_parallel_for_slots((size_t)(st->ncb * st->nchunk), st->slots, wt_task, &r);
    if (st->nchunk > 1) pool_parallel_for((size_t)p->g, wt_finish, &r);
    if (st->bias) conv_bias_store_sums(p, (const float *)(r.ws + st->sums_off));
}

static bool dw_fuses_bias(const void *state)
{
    return ((const dw_state *)state)->bias;
}

/* Either pass in place: the weights run computes each gradInput plane
 * (n, c) just before the weights kernels read the planes (n, c) of x and
 * dy, so the data pass's source (dy, or x for a transposed call) comes from
 * memory once for both gradients instead of twice (dw_3x3 moves 4 planes
 * per (n, c) instead of 5). The data pass's plan runs as it would alone, on
 * its own part of the workspace: the same bits. ACLCONV_DW_FUSE=0 keeps the
 * passes apart (benchmarks, A/B). */
static bool dw_fuse_data(const conv_problem *p, const void *data_state, void *wt_state,
                         uint64_t *workspace_bytes)
{
    const char *e = getenv("ACLCONV_DW_FUSE");
    if (e != NULL && e[0] == '0') return false;
    const dw_state *ds = data_state;
    dw_pair pr = {.wt = *(const dw_state *)wt_state, .data = *ds};
    /* not when both passes pack: dw_5x5 (25 taps, bound by the cores) ran
     * +7-10% slower fused, its two packed planes per (n, c) competing for
     * L1 */
    if (!ds->inplace && !pr.wt.inplace) return false;
    /* FLOAT16 rounds fp32 x and dy in the kernels' window when a pass runs
     * alone; in a run of both, both kernels would round dy: dy rounded once,
     * into the data pass's slot, for both kernels, x still in the weights
     * kernels' window (rounded copies of both: dw_3x3 cube 2 about 10% over
     * mode 0). HF32 rounds both in both windows where it rounds in them
     * (hf32_in_window): its fused run with the copy of dy measured 6.05 ms
     * against 5.64 (session 26; FLOAT16's the same within the noise, 6.59
     * against 6.37, and 8% the other way on session 18's host); elsewhere
     * x and dy are rounded once each, dy into the data pass's slot shared
     * with the weights kernels (dy_shared) */
    uint64_t bytes;
    if ((ds->src_kind == DW_SRC_F32_F16 || pr.wt.src_kind == DW_SRC_F32_F16) &&
        (!dw_plan_with(p, CONV_PASS_WEIGHTS, ds->isa, DW_PLAN_DY_COPIES, &pr.wt, &bytes) ||
         !dw_plan_with(p, CONV_PASS_DATA, ds->isa, DW_PLAN_COPIES_ROUND, &pr.data, &bytes)))
        return false;
    /* a weights loop of planes computes gradInput a plane at a time
     * (fused_data_plane: the plane kernels, the weights table a channel at
     * a time), so the data pass is planned without the channels in the
     * vector then; the channels-in-the-vector loop computes 16 planes a
     * call, streamed (the slot holds them) */
    if (pr.data.chan_vec && !pr.wt.chan_vec &&
        !dw_plan_with(p, CONV_PASS_DATA, ds->isa,
                      DW_PLAN_NO_CHAN | (pr.data.copies_round ? DW_PLAN_COPIES_ROUND : 0),
                      &pr.data, &bytes))
        return false;
    size_t end;
    pr.wt.data_off = aclconv_round_up((size_t)pr.wt.ws_bytes, ACLCONV_ALIGN);
    if (!checked_add_size((size_t)pr.wt.data_off, (size_t)pr.data.ws_bytes, &end)) return false;
    pr.wt.with_data = true;
    if (pr.data.chan_vec && pr.data.chan_run) {
        pr.data.out_nt = true;
        pr.data.out_direct = false;
    }
    /* the data pass's copy of dy is the weights kernels' dy, unless gradBias
     * keeps a group of widened 16-bit planes: one rounding of dy less (FLOAT16,
     * HF32 or BF16 modes outside the window form) */
    const dw_state *d = &pr.data, *w = &pr.wt;
    pr.wt.dy_shared = d->inplace && d->bwd && !d->src_direct && d->src_kind == DW_SRC_F32 &&
                      !w->dy_direct && !w->dy_inplace && !(w->bias && p->y.dtype != ACL_FLOAT);
    memcpy(wt_state, &pr, sizeof pr);
    *workspace_bytes = end;
    return true;
}

const conv_impl conv_impl_dw = {
    .name = "dw",
    .why_not = dw_why_not,
    .plan = dw_plan,
    .run = dw_run_pass,
    .fuses_bias = dw_fuses_bias,
    .fuse_data = dw_fuse_data,
};

bool conv_dw_data_merged(const conv_problem *p, aclconvIsa isa)
{
    _Alignas(64) unsigned char state[CONV_IMPL_STATE_BYTES] = {0};
    uint64_t bytes;
    return dw_plan(p, CONV_PASS_DATA, isa, state, &bytes) && ((const dw_state *)state)->merge_w;
}

bool conv_dw_weights_inplace_s2(const conv_problem *p, aclconvIsa isa)
{
    _Alignas(64) unsigned char state[CONV_IMPL_STATE_BYTES] = {0};
    uint64_t bytes;
    return dw_plan(p, CONV_PASS_WEIGHTS, isa, state, &bytes) &&
           ((const dw_state *)state)->inplace_s2;
}

bool conv_dw_chan_vec(const conv_problem *p, conv_pass pass, aclconvIsa isa)
{
    _Alignas(64) unsigned char state[CONV_IMPL_STATE_BYTES] = {0};
    uint64_t bytes;
    return dw_plan(p, pass, isa, state, &bytes) && ((const dw_state *)state)->chan_vec;
}

int conv_dw_kernel_converts(const conv_problem *p, conv_pass pass, aclconvIsa isa)
{
    _Alignas(64) unsigned char state[CONV_IMPL_STATE_BYTES] = {0};
    uint64_t bytes;
    if (!dw_plan(p, pass, isa, state, &bytes)) return 0;
    const dw_state *st = (const dw_state *)state;
    return (st->src_kind != DW_SRC_F32 ? CONV_DW_SRC_CONVERTED : 0) |
           (st->dy_inplace ? CONV_DW_DY_CONVERTED : 0);
}

/* Both passes planned as conv_plan does, then dw_fuse_data: whether the
 * weights run computes gradInput too, its plan (a dw_pair) in ws. */
static bool plan_fused(const conv_problem *p, aclconvIsa isa, void *ws)
{
    _Alignas(64) unsigned char ds[CONV_IMPL_STATE_BYTES] = {0};
    uint64_t bytes;
    return dw_plan(p, CONV_PASS_DATA, isa, ds, &bytes) &&
           dw_plan(p, CONV_PASS_WEIGHTS, isa, ws, &bytes) && dw_fuse_data(p, ds, ws, &bytes);
}

bool conv_dw_fuses_data(const conv_problem *p, aclconvIsa isa)
{
    _Alignas(64) unsigned char ws[CONV_IMPL_STATE_BYTES] = {0};
    return plan_fused(p, isa, ws);
}

bool conv_dw_fused_x_in_window(const conv_problem *p, aclconvIsa isa)
{
    _Alignas(64) unsigned char ws[CONV_IMPL_STATE_BYTES] = {0};
    if (!plan_fused(p, isa, ws)) return false;
    const dw_pair *pr = (const dw_pair *)(const void *)ws;
    return pr->wt.src_kind == DW_SRC_F32_F16 && pr->wt.dy_shared;
}

int conv_dw_fused_chan(const conv_problem *p, aclconvIsa isa)
{
    _Alignas(64) unsigned char ws[CONV_IMPL_STATE_BYTES] = {0};
    if (!plan_fused(p, isa, ws)) return 0;
    const dw_state *d = &((const dw_pair *)(const void *)ws)->data;
    return !d->chan_vec ? 0 : d->out_nt ? 2 : 1;
}

bool conv_dw_data_streamed(const conv_problem *p, aclconvIsa isa)
{
    _Alignas(64) unsigned char state[CONV_IMPL_STATE_BYTES] = {0};
    uint64_t bytes;
    return dw_plan(p, CONV_PASS_DATA, isa, state, &bytes) && ((const dw_state *)state)->out_nt;
}

int64_t conv_dw_data_group(const conv_problem *p, aclconvIsa isa)
{
    _Alignas(64) unsigned char state[CONV_IMPL_STATE_BYTES] = {0};
    uint64_t bytes;
    return dw_plan(p, CONV_PASS_DATA, isa, state, &bytes) ? ((const dw_state *)state)->out_group
                                                          : 0;
}
