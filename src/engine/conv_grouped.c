/* The grouped implementation (2 <= G, CG and OG <= 16, not depthwise): see
 * conv_grouped.h and docs/kernels.md, "Grouped implementation".
 *
 * Weights pass: gradWeight[g*OG + o][c][t] = sum over images and output
 * positions of dy[o][pos] * x[c][pos + tap t]. x planes of a group are packed
 * with the plane geometry of the depthwise implementation (conv_plane.h), so
 * tap t of channel c is row r of plane c at offset toff[t] + r*pitch, and the
 * dot products run row by row over the valid width (no junk column is ever
 * multiplied) into vector partial sums, reduced by a fixed tree at the end. */
#include "engine/conv_grouped.h"

#include <math.h>
#include <string.h>

#include "common/checked.h"
#include "common/dtype.h"
#include "engine/conv_bias.h"
#include "engine/conv_plane.h"
#include "engine/conv_slots.h"
#include "engine/conv_views.h"
#include "kernels/conv_ukernels.h"
#include "kernels/grp_ukernels.h"
#include "threading/pool.h"

#define GRP_MAX_CH 16      /* channels per group, both sides */
#define GRP_MAX_SLOT (1ll << 22) /* floats of a group's packed source planes */
#define GRP_MIN_TASKS 16   /* weights pass: split n into chunks below this many groups */
#define GRP_FLOAT_ALIGN 16 /* floats: 64 bytes */
#define GRP_JBLOCK 256     /* weights pass: positions per block */
/* masked weights pass: the group's one copy per channel (27 KB for ResNeXt)
 * and its dy stay in L2 for whole planes, and longer calls sweep the partial
 * sums less often (grpwtm 4x6 in cache: 77 -> 95 GFLOP/s from 256 to 784) */
#define GRP_JBLOCK_MASKED 1024
#define GRP_MTAB_MAX (1 << 16) /* weights pass, masked: row-mask words at most */
/* Data pass, whole planes: a group's gradInput planes assembled in a slot at
 * most (floats), to be streamed out (half of L2) */
#define GRP_MERGE_MAX_FLOATS (128 * 1024)
/* Weights pass, W stride 2: the longest W phase row pack_group splits on its stack */
#define GRP_SPLIT_MAX 2048

typedef struct grp_state {
    dw_dim dim[CONV_SPATIAL];
    aclconvIsa isa;
    bool bwd;
    bool dy_direct;     /* weights pass reads dy rows from the view (fp32, unit W stride) */
    int slots;
    int64_t ntaps, plane, src_floats;
    int64_t cs;         /* floats between the shifted copies of two channels (weights) */
    int64_t xrow;       /* weights: floats of one shifted copy per kernel column */
    int64_t slot_floats;
    int64_t aux_off;    /* in a slot: packed dy planes (weights) */
    int64_t ysz;        /* floats of one packed dy plane */
    int64_t q;          /* CG * taps */
    bool tap_major;     /* weights: partial row t*CG + c is (c, tap t), else c*taps + t */
    int64_t nchunk;     /* weights: chunks of n per group */
    uint64_t flag_off;  /* per slot: its packed planes' zero borders are written */
    uint64_t part_off;  /* weights: partial sums, bytes into the workspace */
    /* data pass */
    int64_t nin, nout;  /* reduction channels (source) and outputs per group */
    int mr;             /* rows of the conv kernel used (8 / 4 / 1) */
    int64_t nmb;        /* output-row blocks per group */
    int64_t gpanel;     /* packed weight floats per group */
    int64_t glen;       /* floats of one output channel's grid */
    uint64_t wpk_off;   /* packed weights, bytes into the workspace */
    bool flat;          /* data pass from shifted copies (one W output phase) */
    bool in_place;      /* flat, and the kernel stores into the dense fp32 view */
    bool masked;        /* flat from one copy per channel, W taps masked (grpconv) */
    bool merge_w;       /* whole planes, W stride 2, fp32 rows: both W output phases a
                         * grpconv_s2 call, written as whole rows (data_merged), no grids */
    bool merge_nt;      /* merge_w, dense planes: written into the slot (out_off), then streamed */
    /* whole planes (neither flat nor merge_w) where output phases no tap
     * reaches hold a quarter of gradInput or more (a stride over the kernel):
     * the planes zeroed first, a memset a row, and those phases skipped,
     * where each was stored at its phase's step (a 1x1 stride-3 layer of
     * 3 channels a group on 56 x 56: 8 phases of 9, 14 ms against fast's 4) */
    bool zero_first;
    int64_t out_off;    /* in a slot: the group's gradInput planes (merge_nt), floats */
    int64_t cb;         /* masked: first source column of a packed row */
    int64_t wcopies;    /* weights, masked: copies per channel (2: one per W phase of
                         * a stride-2 x, masked_geometry), xrow floats apart */
    int64_t xguard;     /* floats before the packed source in a slot (masked) */
    int64_t mwords;     /* weights, masked: 16-bit row-mask words per W tap */
    uint64_t mtab_off;  /* weights, masked: the row masks, bytes into the workspace */
    bool bias;          /* weights: gradBias block sums from the dy planes in cache */
    uint64_t sums_off;  /* weights, bias: the N x C block sums */
} grp_state;

_Static_assert(sizeof(grp_state) <= CONV_IMPL_STATE_BYTES, "grp_state exceeds the plan state");

static inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}
static inline int64_t round_floats(int64_t n)
{
    return (n + GRP_FLOAT_ALIGN - 1) / GRP_FLOAT_ALIGN * GRP_FLOAT_ALIGN;
}

static const char *grp_geometry(const conv_problem *p, conv_pass pass, grp_state *st)
{
    if (p->cg == 1 && p->og == 1) return "depthwise (dw takes it)";
    if (p->g < 2) return "not grouped";
    if (p->cg > GRP_MAX_CH || p->og > GRP_MAX_CH) return "more than 16 channels per group";
    /* plane_geometry takes dw's larger kernels; this pass's W tap tables
     * hold GRP_CONV_MAX_KW (pack_group_split, the kernels' masks) */
    for (int i = 0; i < CONV_SPATIAL; ++i)
        if (p->ks[i] > GRP_CONV_MAX_KW) return "a kernel side > 32";
    if (p->ks[0] * p->ks[1] * p->ks[2] > 512) return "more than 512 taps";
    const char *why = plane_geometry(p, pass, st->dim, &st->bwd, &st->ntaps, &st->plane, &st->src_floats);
    if (why) return why;
    /* a task holds a group's whole planes (with up to KW shifted copies):
     * beyond that, fast's row blocks keep the working set in cache */
    const int64_t ch = p->cg > p->og ? p->cg : p->og;
    if (st->src_floats * p->ks[2] > GRP_MAX_SLOT / ch) return "group planes beyond 2^22 floats";
    return NULL;
}

static const char *grp_why_not(const conv_problem *p, conv_pass pass, aclconvIsa isa)
{
    (void)isa;
    grp_state st;
    return grp_geometry(p, pass, &st);
}

typedef struct grp_kernels {
    f32_grpwt_ukernel_fn wt;
    f32_grpcopy_ukernel_fn copy;
    int wt_mr, wt_nr;
    f32_grpwtm_ukernel_fn wtm; /* grpwt's tile, masked rows */
    f32_grpconv_ukernel_fn conv;
    int conv_mr, conv_nr;
    f32_copy_ukernel_fn copy_nt;  /* dense fp32 gradInput planes, streamed; NULL: none */
    /* after streamed stores (grpconv, the results' stores); NULL: none stream */
    void (*fence)(void);
    f32_grpconv_s2_ukernel_fn conv_s2; /* W stride 2, both W output phases */
    f32_grpconv_s2_select_fn conv_s2_for; /* its instance for a call's taps, or NULL */
    int conv_s2_mr, conv_s2_nr;        /* channels, columns of each W phase */
    /* wtm is faster on tiles of one W tap (one shared row mask, none for a
     * tap that never leaves its rows) than on rows of mixed taps */
    bool wtm_one_tap;
} grp_kernels;

static grp_kernels pick_kernels(aclconvIsa isa)
{
    switch (isa) {
    case ACLCONV_ISA_AVX512:
        return (grp_kernels){f32_grpwt_ukernel_4x6__avx512,
                             f32_grpcopy_ukernel__avx512,
                             4,
                             6,
                             f32_grpwtm_ukernel_4x6__avx512,
                             f32_grpconv_ukernel_8x48__avx512,
                             8,
                             48,
                             f32_copy_nt_ukernel__avx512,
                             store_fence__avx2,
                             f32_grpconv_s2_ukernel_4x64__avx512,
                             f32_grpconv_s2_select__avx512,
                             4,
                             32,
                             false};
    case ACLCONV_ISA_AVX2:
        return (grp_kernels){f32_grpwt_ukernel_3x4__avx2,
                             f32_grpcopy_ukernel__avx2,
                             3,
                             4,
                             f32_grpwtm_ukernel_3x4__avx2,
                             f32_grpconv_ukernel_4x24__avx2,
                             4,
                             24,
                             f32_copy_nt_ukernel__avx2,
                             store_fence__avx2,
                             f32_grpconv_s2_ukernel_3x32__avx2,
                             f32_grpconv_s2_select__avx2,
                             3,
                             16,
                             true};
    default:
        return (grp_kernels){f32_grpwt_ukernel_2x2__scalar,
                             f32_grpcopy_ukernel__scalar,
                             2,
                             2,
                             f32_grpwtm_ukernel_2x2__scalar,
                             f32_grpconv_ukernel_4x16__scalar,
                             4,
                             16,
                             NULL,
                             NULL,
                             f32_grpconv_s2_ukernel_2x8__scalar,
                             NULL,
                             2,
                             4,
                             false};
    }
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

/* Shifted copies of a source channel, one per W tap (the kernel columns for
 * x, the taps of the single W output phase for D): every (phase d, phase h,
 * md, mh) row of the packed plane geometry cut to the W output width at the
 * tap's shift, so a (d, h) plane of a tap is one run of rows*OW floats. */
static bool copies_layout(grp_state *st, int64_t slack)
{
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    int64_t xrow, cs;
    if (!checked_mul_i64(dd->nph * (int64_t)dh->nph * dd->ext, dh->ext * dw->out_n, &xrow) ||
        !checked_mul_i64(xrow, dw->sub_tb[dw->nsub], &cs) || !checked_add_i64(cs, slack, &cs))
        return false;
    st->xrow = xrow;
    st->cs = round_floats(cs);
    return true;
}

/* The masked layout (one copy per source channel, rows of OW source columns
 * from cb, the W taps as masked shifts of it) applies when W has one output
 * phase read at stride 1 and every source column a row needs fits in OW
 * columns: st->cb and st->wcopies = 1, or false. phases (the weights pass):
 * also x read at W stride 2 by both of its phases, as one copy per phase
 * (columns counted in the phase, from cb; wcopies = 2), split from each
 * source row by conv_split_row (pack_group_split): two copies instead of KW
 * shifted ones. */
static bool masked_geometry(const conv_problem *p, grp_state *st, bool phases)
{
    const dw_dim *dw = &st->dim[2];
    const bool split = phases && dw->nph == 2 && dw->src_step == 2 && dw->ph_val[0] == 0 &&
                       dw->ph_val[1] == 1 && p->xs[2] <= 2 * GRP_SPLIT_MAX &&
                       conv_split_row_ok(&p->x, p->mode);
    if (dw->nsub != 1 || (!split && (dw->nph != 1 || dw->src_step != 1 || dw->ph_val[0] != 0)))
        return false;
    const int64_t nwt = dw->sub_tb[1] - dw->sub_tb[0];
    if (nwt < 1 || nwt > GRP_CONV_MAX_KW) return false;
    /* (split: the longer phase's columns) */
    const int64_t ow = dw->out_n, wsrc = split ? (p->xs[2] + 1) / 2 : st->bwd ? p->ys[2] : p->xs[2];
    int64_t omin = 0, omax = 0;
    for (int64_t k = 0; k < nwt; ++k) {
        const int64_t o = dw->tap_off[dw->sub_tb[0] + k] + dw->qmin;
        omin = k == 0 ? o : min64(omin, o);
        omax = k == 0 ? o : (o > omax ? o : omax);
    }
    /* the source columns some output column reads inside the tensor */
    const int64_t lo = omin > 0 ? omin : 0, hi = min64(wsrc, ow + omax);
    const int64_t cb = hi > lo ? lo : 0;
    if (hi - lo > ow) return false;
    if (omin - cb < -GRP_CONV_MAX_WSH || omax - cb > GRP_CONV_MAX_WSH) return false;
    st->cb = cb;
    st->wcopies = split ? 2 : 1;
    return true;
}

static int64_t unreached_elements(const grp_state *st);

/* Data pass: per slot the nin packed source planes (cs apart, slack after)
 * and the grid of the outputs of one group (nout x glen); the packed weights
 * of every group. */
static bool data_plan(const conv_problem *p, aclconvIsa isa, grp_state *st, uint64_t *bytes)
{
    const conv_ukernels *k = conv_ukernels_for(isa);
    st->nin = st->bwd ? p->og : p->cg;
    st->nout = st->bwd ? p->cg : p->og;
    st->mr = st->nout <= 4 ? 1 : k->conv_mr; /* few rows: the single-row kernel */
    int64_t guard = 0;
    st->nmb = ceil_div(st->nout, st->mr);
    /* one W output phase: shifted copies, no junk column, and the kernel
     * stores into a dense fp32 view (rows of OW). The FLOAT16 mode's result
     * rounding is done by the masked kernel as it stores (yround), by
     * f32_round on the rows just written after the shifted copies' kernel:
     * through the grid and a rounding copy, resnext_g32's data pass in
     * cubeMathType 2 took +15-20% CPU time over mode 0 */
    const dw_dim *dh = &st->dim[1], *dw = &st->dim[2];
    const conv_view *out = &p->grad_input;
    st->flat = dw->nsub == 1;
    st->in_place = st->flat && dh->nsub == 1 && out->dtype == ACL_FLOAT && out->stride[4] == 1 &&
                   (out->stride[3] == dw->out_n || dh->out_n == 1);
    /* one copy per channel instead of KW: a 3x3's source block fits in L1 */
    st->masked = st->mr != 1 && masked_geometry(p, st, false);
    if (st->masked) {
        st->mr = pick_kernels(isa).conv_mr;
        st->nmb = ceil_div(st->nout, st->mr);
        if (!copies_layout(st, 0)) return false; /* st->xrow: floats of one copy */
        st->cs = round_floats(st->xrow);
        st->glen = round_floats(dh->ext * dw->out_n);
        guard = GRP_CONV_GUARD;
    } else if (st->flat) {
        if (!copies_layout(st, 0)) return false;
        st->glen = round_floats(dh->ext * dw->out_n); /* one output depth plane */
    } else {
        st->cs = round_floats(st->src_floats);
        st->glen = round_floats(st->plane); /* an output phase's grid fits in one packed plane */
        /* the W output phases of a stride-2 gradInput interleave in its
         * rows: a kernel call computes both and interleaves them in
         * registers, each row is written once, whole (through grids of each
         * phase merged by a copy, the merge cost more than the kernel); the
         * group's dense planes assembled in the slot are then streamed (no
         * read for ownership of gradInput's lines) while they fit in L2 */
        const bool dense_out =
            conv_view_blocks_dense(out) &&
            st->nout * out->dim[2] * out->dim[3] * out->dim[4] <= GRP_MERGE_MAX_FLOATS;
        /* (a 16-bit gradInput goes into the slot's planes, each band then
         * rounded and narrowed: stored phase by phase, resnext_g32_s2's bf16
         * and fp16 runs took 1.22x their fp32 time) */
        st->merge_w = plane_merges_w(st->dim, out, dense_out);
        st->merge_nt =
            st->merge_w && dense_out && (isa != ACLCONV_ISA_SCALAR || out->dtype != ACL_FLOAT);
        if (st->merge_w) {
            st->mr = pick_kernels(isa).conv_s2_mr;
            st->nmb = ceil_div(st->nout, st->mr);
        }
        st->zero_first =
            !st->merge_w && 4 * unreached_elements(st) >= out->dim[2] * out->dim[3] * out->dim[4];
    }
    /* merge_nt: the group's planes, after the source and the grids (none
     * for merge_w), rounded up to a vector */
    const int64_t planes =
        st->merge_nt ? st->nout * out->dim[2] * out->dim[3] * out->dim[4] + GRP_FLOAT_ALIGN : 0;
    int64_t src, grid, slot;
    if (!checked_mul_i64(st->cs, st->nin, &src) ||
        !checked_mul_i64(st->merge_w ? 0 : st->glen, st->nout, &grid) ||
        !checked_add_i64(guard + src + CONV_UKERNEL_SLACK, grid, &slot) ||
        !checked_add_i64(slot, planes, &slot))
        return false;
    st->aux_off = guard + src + CONV_UKERNEL_SLACK;
    st->out_off = round_floats(st->aux_off + grid);
    st->slot_floats = conv_slot_pitch(slot);
    if (!checked_mul_i64(st->nmb * st->mr * st->nin, st->ntaps, &st->gpanel)) return false;
    uint64_t size = 0, slot_off;
    int64_t slot_total, wpk;
    if (!checked_mul_i64(st->slot_floats, st->slots, &slot_total) ||
        !ws_take(&size, slot_total, &slot_off) ||
        !ws_take(&size, (int64_t)st->slots * GRP_FLOAT_ALIGN, &st->flag_off) ||
        !checked_mul_i64(st->gpanel, p->g, &wpk) || !ws_take(&size, wpk, &st->wpk_off))
        return false;
    *bytes = size;
    return true;
}

/* gradBias's block sums S(n, c) (conv_bias.h) come from the weights pass
 * (saving conv_bias's own read of dy, 15% of resnext_g32's weights pass) when
 * dy is the pass's dy and each (n, c) block is one dense run (element k of
 * the block is the k-th of the run): read in place (fp32, mode FLOAT) or
 * from the plane just loaded (bias_block_sum). */
static bool bias_fusable(const conv_problem *p)
{
    const conv_view *b = &p->bias_src, *y = &p->y;
    if (!conv_bias_fusable(p) || p->empty) return false;
    if (b->data != y->data || b->dtype != y->dtype) return false;
    for (int i = 0; i < 5; ++i)
        if (b->dim[i] != y->dim[i] || (b->dim[i] > 1 && b->stride[i] != y->stride[i])) return false;
    return conv_view_blocks_dense(y);
}

static bool grp_plan(const conv_problem *p, conv_pass pass, aclconvIsa isa, void *state,
                     uint64_t *workspace_bytes)
{
    grp_state *st = state;
    if (grp_geometry(p, pass, st) != NULL) return false;
    st->isa = isa;
    const int t = pool_num_threads(); /* sizes scratch only; never the partition */
    st->slots = t < 1 ? 1 : t;
    if (pass == CONV_PASS_DATA) return data_plan(p, isa, st, workspace_bytes);
    st->q = p->cg * st->ntaps;
    /* x of channel c as KW shifted copies: a (d, h) plane of a tap is one
     * contiguous run of OH*OW */
    if (!copies_layout(st, 0)) return false;
    /* or as one copy whose W taps are masked shifts (grpwtm): a third of the
     * packing for a 3x3, with a row-mask table of every W tap */
    const int64_t nkw = st->dim[2].sub_tb[1] - st->dim[2].sub_tb[0];
    st->mwords = ceil_div(p->ys[1] * p->ys[2], 16);
    st->masked = masked_geometry(p, st, true) && st->mwords * nkw <= GRP_MTAB_MAX;
    if (st->masked) {
        st->cs = round_floats(st->wcopies * st->xrow); /* copies_layout's xrow: one copy */
        st->xguard = GRP_CONV_GUARD;
    }
    /* rows of one tap per grpwtm call where the kernel gains by it and the
     * tiles stay full (resnext_g32's 8 channels, tiles of 4 on AVX2); the
     * order of the rows never changes a sum */
    const grp_kernels gk = pick_kernels(isa);
    st->tap_major = st->masked && gk.wtm_one_tap && p->cg % gk.wt_nr == 0;
    const conv_view *dy = &p->y;
    st->dy_direct = dy->dtype == ACL_FLOAT && p->mode == CONV_MODE_F32 && dy->stride[4] == 1 &&
                    (dy->stride[3] == p->ys[2] || p->ys[1] == 1) && dy->stride[2] >= 0;
    st->ysz = round_floats(p->ys[0] * p->ys[1] * p->ys[2]);
    st->nchunk = p->g >= GRP_MIN_TASKS ? 1 : min64(p->n, ceil_div(GRP_MIN_TASKS, p->g));
    st->bias = bias_fusable(p);
    int64_t src, aux = 0;
    if (!checked_mul_i64(st->cs, p->cg, &src)) return false;
    if (!st->dy_direct && !checked_mul_i64(st->ysz, p->og, &aux)) return false;
    /* masked: guard floats before and the slack after the copies */
    st->aux_off = st->masked ? round_floats(st->xguard + src + CONV_UKERNEL_SLACK) : src;
    st->slot_floats = conv_slot_pitch(st->aux_off + aux);
    uint64_t size = 0, slot_off; /* the slots come first: offset 0 */
    int64_t slot_total, part;
    if (!checked_mul_i64(st->slot_floats, st->slots, &slot_total) ||
        !ws_take(&size, slot_total, &slot_off) ||
        !ws_take(&size, (int64_t)st->slots * GRP_FLOAT_ALIGN, &st->flag_off) ||
        !checked_mul_i64(p->g * st->nchunk * p->og, st->q * GRP_ACC_LANES, &part) ||
        !ws_take(&size, part, &st->part_off) ||
        (st->masked && !ws_take(&size, (st->mwords * nkw + 1) / 2, &st->mtab_off)) ||
        (st->bias && !ws_take(&size, p->n * p->g * p->og, &st->sums_off)))
        return false;
    *workspace_bytes = size;
    return true;
}

/* ---- run ----------------------------------------------------------------- */

typedef struct grp_run {
    const conv_problem *p;
    const grp_state *st;
    char *ws;
    grp_kernels k;
    const conv_ukernels *ck; /* data pass's conv kernels; gradBias rows */
    ptrdiff_t toff[DW_MAX_TAPS];
} grp_run;

static float *slot_buf(const grp_run *r, int slot)
{
    return (float *)r->ws + (int64_t)slot * r->st->slot_floats;
}

static int32_t *slot_flag(const grp_run *r, int slot)
{
    return (int32_t *)(r->ws + r->st->flag_off) + (int64_t)slot * GRP_FLOAT_ALIGN;
}

static inline void zero_f32(float *dst, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) dst[i] = 0.0f;
}

/* dst[i] = v[n, c, d, h, w + i] as rounded fp32, i < count, on unit W
 * stride: one row, or whole rows that follow each other in memory (a plane
 * in one call instead of a call per row: for 16-bit sources the per-row
 * calls of the widening kernels cost more than the widening). Dense fp32 in
 * mode FLOAT is a plain vector copy. */
static void load_run(const grp_run *r, const conv_view *v, int64_t n, int64_t c, int64_t d,
                     int64_t h, int64_t w, int64_t count, float *dst)
{
    if (v->dtype == ACL_FLOAT && r->p->mode == CONV_MODE_F32)
        r->k.copy(1, (size_t)count, (const float *)v->data + conv_view_index(v, n, c, d, h, w), 0,
                  dst, 0);
    else
        conv_load_row(v, n, c, d, h, w, 1, count, r->p->mode, r->ck, dst);
}

/* pack_group for W stride 2 (both W phases): each source row is split into
 * its phases once (conv_split_row: rounded or widened on the way), and every
 * copy row is a run of its phase's row: a kernel column's shifted copy, or
 * in the masked layout one copy per phase (columns from cb); KW step-2 reads
 * of the row were most of resnext_g32_s2's weights pass. */
static void pack_group_split(const grp_run *r, const conv_view *v, int64_t n, int64_t c0,
                             int64_t nc, bool zeros, float *dst)
{
    const grp_state *st = r->st;
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const int64_t ow = dw->out_n, sd_n = v->dim[2], sh_n = v->dim[3], sw_n = v->dim[4];
    const int64_t nwt = st->masked ? st->wcopies : dw->sub_tb[dw->nsub];
    float ph[2][GRP_SPLIT_MAX];
    /* valid columns of each copy: 0 <= (col + offw)*2 + pw < sw_n */
    int64_t lo[GRP_CONV_MAX_KW], hi[GRP_CONV_MAX_KW], offw[GRP_CONV_MAX_KW];
    int pws[GRP_CONV_MAX_KW];
    for (int64_t kw = 0; kw < nwt; ++kw) {
        offw[kw] = st->masked ? st->cb : dw->tap_off[kw] + dw->qmin;
        pws[kw] = st->masked ? (int)kw : dw->tap_ph[kw];
        lo[kw] = offw[kw] < 0 ? min64(-offw[kw], ow) : 0;
        const int64_t h = sw_n - 1 - pws[kw] < 0 ? lo[kw] : (sw_n - 1 - pws[kw]) / 2 - offw[kw] + 1;
        hi[kw] = max64(lo[kw], min64(h, ow));
    }
    /* the H phases innermost: source rows in ascending order (plane_pack) */
    for (int64_t c = 0; c < nc; ++c)
        for (int32_t ipd = 0; ipd < dd->nph; ++ipd)
            for (int64_t md = 0; md < dd->ext; ++md) {
                const int64_t sd = (md + dd->qmin) * dd->src_step + dd->ph_val[ipd];
                for (int64_t mh = 0; mh < dh->ext; ++mh)
                    for (int32_t iph = 0; iph < dh->nph; ++iph) {
                        const int64_t at =
                            (((int64_t)ipd * dh->nph + iph) * dd->ext + md) * dh->ext * ow;
                        const int64_t sh = (mh + dh->qmin) * dh->src_step + dh->ph_val[iph];
                        const bool valid = sd >= 0 && sd < sd_n && sh >= 0 && sh < sh_n;
                        if (valid && st->masked) {
                            /* the phase copies' columns [cb, cb + ow): split
                             * straight into them (lo = 0, hi[p] what the split
                             * writes) */
                            float *row0 = dst + c * st->cs + at + mh * ow, *row1 = row0 + st->xrow;
                            const int64_t cnt = min64(sw_n - 2 * st->cb, 2 * ow);
                            if (cnt > 0)
                                conv_split_row(v, n, c0 + c, sd, sh, 2 * st->cb, cnt, r->p->mode,
                                               r->ck, row0, row1);
                            if (zeros) {
                                zero_f32(row0 + hi[0], ow - hi[0]);
                                zero_f32(row1 + hi[1], ow - hi[1]);
                            }
                            continue;
                        }
                        if (valid)
                            conv_split_row(v, n, c0 + c, sd, sh, 0, sw_n, r->p->mode, r->ck, ph[0],
                                           ph[1]);
                        for (int64_t kw = 0; kw < nwt; ++kw) {
                            float *row = dst + c * st->cs + kw * st->xrow + at + mh * ow;
                            if (!valid || hi[kw] == lo[kw]) {
                                if (zeros) zero_f32(row, ow);
                                continue;
                            }
                            if (zeros) {
                                zero_f32(row, lo[kw]);
                                zero_f32(row + hi[kw], ow - hi[kw]);
                            }
                            memcpy(row + lo[kw], ph[pws[kw]] + lo[kw] + offw[kw],
                                   (size_t)(hi[kw] - lo[kw]) * sizeof(float));
                        }
                    }
            }
}

/* Packs the CG planes (n, c0 + c) of x into the slot as shifted copies:
 * copy kw of channel c at c*cs + kw*xrow holds, for every (phase d, phase h,
 * md, mh) row of the packed plane geometry, the OW columns that output
 * columns 0..OW-1 read at kernel column kw (zeros outside x). The zeros are
 * the same for every block: a slot writes them once per run. */
static void pack_group(const grp_run *r, const conv_view *v, int64_t n, int64_t c0, int64_t nc,
                       int slot, float *dst)
{
    const grp_state *st = r->st;
    const conv_problem *p = r->p;
    int32_t *ready = slot_flag(r, slot);
    const bool zeros = *ready == 0;
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const int64_t ow = dw->out_n, sd_n = v->dim[2], sh_n = v->dim[3], sw_n = v->dim[4];
    const int64_t nwt = dw->sub_tb[dw->nsub];
    /* unit steps: whole rows that follow each other load as one run */
    const bool unit = v->stride[4] == 1 && dw->src_step == 1;
    /* dense rows of fp32 without rounding: vector row copies, a call per run of rows */
    const bool fast = unit && v->dtype == ACL_FLOAT && p->mode == CONV_MODE_F32;
    /* masked layout: one copy per channel, of the source columns from cb
     * (or one per W phase: pack_group_split) */
    const int64_t ncopy = st->masked ? 1 : nwt;
    if ((st->masked ? st->wcopies == 2 : ncopy > 1) && dw->src_step == 2 && dw->nph == 2 &&
        dw->ph_val[0] == 0 && dw->ph_val[1] == 1 && sw_n <= 2 * GRP_SPLIT_MAX &&
        conv_split_row_ok(v, p->mode)) {
        pack_group_split(r, v, n, c0, nc, zeros, dst);
        *ready = 1;
        return;
    }
    for (int64_t c = 0; c < nc; ++c)
        for (int64_t kw = 0; kw < ncopy; ++kw) {
            float *o = dst + c * st->cs + kw * st->xrow;
            /* column col reads source w = (col + offw)*step + pw */
            const int64_t offw = st->masked ? st->cb : dw->tap_off[kw] + dw->qmin;
            const int64_t pw = st->masked ? 0 : dw->ph_val[dw->tap_ph[kw]];
            const int64_t step = dw->src_step;
            const int64_t lo = offw < 0 ? (-offw < ow ? -offw : ow) : 0;
            int64_t hi = sw_n - 1 - pw < 0 ? lo : (sw_n - 1 - pw) / step - offw + 1;
            hi = hi > ow ? ow : hi;
            hi = hi < lo ? lo : hi;
            /* a copy row is a whole source row, and source rows follow each other */
            const bool dense_rows = lo == 0 && hi == ow && lo + offw == 0 && sw_n == ow &&
                                    dh->src_step == 1 && v->stride[3] == ow;
            for (int32_t ipd = 0; ipd < dd->nph; ++ipd)
                for (int32_t iph = 0; iph < dh->nph; ++iph)
                    for (int64_t md = 0; md < dd->ext; ++md) {
                        const int64_t sd = (md + dd->qmin) * dd->src_step + dd->ph_val[ipd];
                        float *pl = o + (((int64_t)ipd * dh->nph + iph) * dd->ext + md) * dh->ext * ow;
                        if (sd < 0 || sd >= sd_n || hi == lo) {
                            if (zeros) zero_f32(pl, dh->ext * ow);
                            continue;
                        }
                        if (unit && !zeros && dense_rows) {
                            /* whole source rows, contiguous on both sides, zeros already
                             * in place: the valid rows are one run (any dtype / mode) */
                            const int64_t h0 = dh->qmin + dh->ph_val[iph];
                            const int64_t m0 = h0 < 0 ? -h0 : 0, m1 = min64(dh->ext, sh_n - h0);
                            if (m1 > m0)
                                load_run(r, v, n, c0 + c, sd, m0 + h0, 0, (m1 - m0) * ow, pl + m0 * ow);
                            continue;
                        }
                        int64_t run0 = -1; /* first row of the current run of valid rows */
                        for (int64_t mh = 0; mh <= dh->ext; ++mh) {
                            const int64_t sh = (mh + dh->qmin) * dh->src_step + dh->ph_val[iph];
                            const bool valid = mh < dh->ext && sh >= 0 && sh < sh_n;
                            if (valid && zeros) {
                                zero_f32(pl + mh * ow, lo);
                                zero_f32(pl + mh * ow + hi, ow - hi);
                            }
                            if (!valid && mh < dh->ext && zeros) zero_f32(pl + mh * ow, ow);
                            if (fast) {
                                if (valid && run0 < 0) run0 = mh;
                                if (!valid && run0 >= 0) {
                                    const int64_t sh0 = (run0 + dh->qmin) * dh->src_step + dh->ph_val[iph];
                                    r->k.copy((size_t)(mh - run0), (size_t)(hi - lo),
                                              (const float *)v->data +
                                                  conv_view_index(v, n, c0 + c, sd, sh0, lo + offw),
                                              (size_t)(v->stride[3] * dh->src_step),
                                              pl + run0 * ow + lo, (size_t)ow);
                                    run0 = -1;
                                }
                            } else if (valid) {
                                conv_load_row(v, n, c0 + c, sd, sh, (lo + offw) * step + pw, step,
                                              hi - lo, p->mode, r->ck, pl + mh * ow + lo);
                            }
                        }
                    }
        }
    *ready = 1;
}

/* The channels [c0, c0 + nc) of image n of v as one dense byte run, or false. */
static bool block_run(const conv_view *v, int64_t n, int64_t c0, int64_t nc, const char **at,
                      size_t *bytes)
{
    const int64_t *d = v->dim, *s = v->stride;
    if (s[4] != 1 || s[3] != d[4] || s[2] != d[3] * d[4] || s[1] != d[2] * d[3] * d[4]) return false;
    const size_t es = v->dtype == ACL_FLOAT ? 4 : 2;
    *at = v->data + conv_view_index(v, n, c0, 0, 0, 0) * (int64_t)es;
    *bytes = (size_t)(nc * s[1]) * es;
    return true;
}

/* The cache lines of byte runs a (na bytes) and b (nb bytes) as the two
 * streams of a prefetch; a NULL run has none. */
static ukernel_prefetch run_lines(const char *a, size_t na, const char *b, size_t nb)
{
    return (ukernel_prefetch){{a, b}, {a ? ukernel_lines(na) : 0, b ? ukernel_lines(nb) : 0}, 0};
}

/* Offset of tap t in the shifted copies of a channel (its (d, h) plane). */
static void src_tap_offsets(const grp_state *st, const int64_t *ks, int64_t ow, ptrdiff_t *toff)
{
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    for (int64_t kd = 0, t = 0; kd < ks[0]; ++kd)
        for (int64_t kh = 0; kh < ks[1]; ++kh)
            for (int64_t kw = 0; kw < ks[2]; ++kw, ++t) {
                const int64_t phase = dd->tap_ph[kd] * (int64_t)dh->nph + dh->tap_ph[kh];
                /* masked: the tap's W shift inside the copy of its W phase */
                const int64_t wpart =
                    st->masked ? dw->tap_ph[kw] * st->xrow + dw->tap_off[kw] + dw->qmin - st->cb
                               : kw * st->xrow;
                toff[t] = (ptrdiff_t)(wpart +
                                      ((phase * dd->ext + dd->tap_off[kd]) * dh->ext + dh->tap_off[kh]) * ow);
            }
}

/* The row masks of the weights pass's masked layout: word i of W tap kw has
 * bit b set when position 16*i + b of a run (column (16*i + b) % OW) reads
 * inside its row at that tap's shift. */
static void build_row_masks(const grp_run *r)
{
    const grp_state *st = r->st;
    const dw_dim *dw = &st->dim[2];
    const int64_t ow = dw->out_n, nkw = dw->sub_tb[1] - dw->sub_tb[0];
    uint16_t *mt = (uint16_t *)(r->ws + st->mtab_off);
    for (int64_t kw = 0; kw < nkw; ++kw) {
        const int64_t sh = dw->tap_off[dw->sub_tb[0] + kw] + dw->qmin - st->cb;
        for (int64_t i = 0, col = 0; i < st->mwords; ++i) {
            unsigned bits = 0;
            for (unsigned b = 0; b < 16; ++b, col = col + 1 == ow ? 0 : col + 1)
                bits |= (unsigned)(col + sh >= 0 && col + sh < ow) << b;
            mt[kw * st->mwords + i] = (uint16_t)bits;
        }
    }
}

/* Partial sums of chunk k of group g: [OG][CG*taps][GRP_ACC_LANES]. */
static float *partials(const grp_run *r, int64_t g, int64_t k)
{
    const grp_state *st = r->st;
    return (float *)(r->ws + st->part_off) +
           (g * st->nchunk + k) * r->p->og * st->q * GRP_ACC_LANES;
}

/* The fixed lane tree: (l, l + 8), then (l, l + 4), (l, l + 2), (l, l + 1). */
static float lane_sum(const float *acc)
{
    float v[GRP_ACC_LANES];
    memcpy(v, acc, sizeof v);
    for (int half = GRP_ACC_LANES / 2; half >= 1; half /= 2)
        for (int l = 0; l < half; ++l) v[l] = v[l] + v[l + half];
    return v[0];
}

/* gradWeight of group g: the chunks' lane sums added in chunk order, stored. */
static void wt_finish(void *ctx, size_t index)
{
    const grp_run *r = ctx;
    const conv_problem *p = r->p;
    const grp_state *st = r->st;
    const int64_t g = (int64_t)index;
    const conv_view *out = &p->grad_weight;
    for (int64_t o = 0; o < p->og; ++o)
        for (int64_t c = 0; c < p->cg; ++c)
            for (int64_t kd = 0, t = 0; kd < p->ks[0]; ++kd)
                for (int64_t kh = 0; kh < p->ks[1]; ++kh)
                    for (int64_t kw = 0; kw < p->ks[2]; ++kw, ++t) {
                        const int64_t row = st->tap_major ? t * p->cg + c : c * st->ntaps + t;
                        const int64_t at = (o * st->q + row) * GRP_ACC_LANES;
                        float s = lane_sum(partials(r, g, 0) + at);
                        for (int64_t k = 1; k < st->nchunk; ++k)
                            s = s + lane_sum(partials(r, g, k) + at);
                        store_from_f32(out->data, out->dtype,
                                       conv_view_index(out, g * p->og + o, c, kd, kh, kw), s);
                    }
}

/* gradBias's block sum S(n, c) of dy (a dense run, bias_fusable): from the
 * view, or from loaded, the block as the weights pass loaded it, when the
 * mode keeps dy's dtype. Those are then the original values, NaNs aside
 * (quieted by the operand rounding): a sum that is not NaN met no NaN, so it
 * has the bits of the view's sum, and only a NaN sum is redone from the
 * view (its NaN as conv_bias_run makes it). */
static float bias_block_sum(const grp_run *r, int64_t n, int64_t c, const float *loaded)
{
    const conv_problem *p = r->p;
    const int64_t len = p->ys[0] * p->ys[1] * p->ys[2];
    float lanes[CONV_BIAS_LANES] = {0};
    if (loaded && conv_mode_keeps(p->y.dtype, p->mode)) {
        r->ck->lanes16(1, (size_t)len, loaded, 0, lanes);
        const float s = conv_bias_lanes_sum(lanes);
        if (!isnan(s)) return s;
    }
    return conv_bias_block_sum(&p->bias_src, n, c, r->ck);
}

/* Weights: task g*nchunk + k sums chunk k of the images for group g, image
 * by image in ascending order. */
static void wt_task(void *ctx, size_t index, int slot)
{
    const grp_run *r = ctx;
    const conv_problem *p = r->p;
    const grp_state *st = r->st;
    const int64_t g = (int64_t)index / st->nchunk, k = (int64_t)index % st->nchunk;
    const int64_t n0 = k * p->n / st->nchunk, n1 = (k + 1) * p->n / st->nchunk;
    const int64_t og = p->og, cg = p->cg, q = st->q, nt = st->ntaps;
    float *src = slot_buf(r, slot) + st->xguard, *dybuf = slot_buf(r, slot) + st->aux_off;
    float *acc = partials(r, g, k);
    const uint16_t *mtab = (const uint16_t *)(r->ws + st->mtab_off);
    if (st->masked && *slot_flag(r, slot) == 0) { /* what grpwtm may read around the copies */
        memset(src - st->xguard, 0, (size_t)st->xguard * sizeof(float));
        memset(src + cg * st->cs, 0, CONV_UKERNEL_SLACK * sizeof(float));
    }
    memset(acc, 0, (size_t)(og * q * GRP_ACC_LANES) * sizeof(float));
    const conv_view *y = &p->y;
    const int64_t *ys = p->ys;
    const int64_t dpitch = st->dim[1].ext * ys[2], len = ys[1] * ys[2];
    /* positions in blocks of about GRP_JBLOCK (multiples of 16): the rows a
     * block reads for every tile of the group stay in L1 */
    const int64_t nblk = ceil_div(len, st->masked ? GRP_JBLOCK_MASKED : GRP_JBLOCK);
    const int64_t blen = (ceil_div(len, nblk) + 15) / 16 * 16;
    const int mr_max = r->k.wt_mr, nr_max = r->k.wt_nr;
    /* gradBias: the block sums of the group's channels for each image */
    float *sums = st->bias ? (float *)(r->ws + st->sums_off) : NULL;
    const int64_t bblock = ys[0] * ys[1] * ys[2];
    for (int64_t n = n0; n < n1; ++n) {
        pack_group(r, &p->x, n, g * cg, cg, slot, src);
        const float *dyp[GRP_MAX_CH];
        int64_t dps;
        if (st->dy_direct) {
            for (int64_t o = 0; o < og; ++o)
                dyp[o] = (const float *)y->data + conv_view_index(y, n, g * og + o, 0, 0, 0);
            dps = y->stride[2];
            for (int64_t o = 0; sums && o < og; ++o)
                sums[n * p->g * og + g * og + o] = bias_block_sum(r, n, g * og + o, NULL);
        } else {
            for (int64_t o = 0; o < og; ++o) {
                float *d = dybuf + o * st->ysz;
                if (conv_view_blocks_dense(y)) {
                    load_run(r, y, n, g * og + o, 0, 0, 0, bblock, d);
                } else {
                    for (int64_t yd = 0; yd < ys[0]; ++yd)
                        for (int64_t yh = 0; yh < ys[1]; ++yh)
                            conv_load_row(y, n, g * og + o, yd, yh, 0, 1, ys[2], p->mode, r->ck,
                                          d + (yd * ys[1] + yh) * ys[2]);
                }
                if (sums) sums[n * p->g * og + g * og + o] = bias_block_sum(r, n, g * og + o, d);
                dyp[o] = d;
            }
            dps = ys[1] * ys[2];
        }
        /* each (d, h) plane of a tap and of dy is one run of OH*OW: the kernel
         * walks the OD planes as its rows */
        /* the next image's x and dy blocks of this group are asked for in
         * the cache a slice per kernel call (a 25 KB block every 800 KB is
         * too short a stream for the hardware prefetchers) */
        const char *nx = NULL, *ny = NULL;
        size_t nxb = 0, nyb = 0;
        if (n + 1 < n1) {
            if (!block_run(&p->x, n + 1, g * cg, cg, &nx, &nxb)) nx = NULL;
            if (!block_run(y, n + 1, g * og, og, &ny, &nyb)) ny = NULL;
        }
        ukernel_prefetch next = run_lines(nx, nxb, ny, nyb);
        const size_t ncalls = (size_t)(ys[0] * nblk * ceil_div(og, mr_max) * ceil_div(q, nr_max));
        ukernel_prefetch_level(&next, ncalls);
        /* the other kernel's share goes in a burst before its call: into L2
         * (into L1 the core waited on the requests: resnext_g32_s2's weights
         * pass +5%) */
        ukernel_prefetch burst = next;
        burst.l2 = 1;
        size_t call = 0;
        for (int64_t od = 0; od < ys[0]; ++od)
            for (int64_t j0 = 0; j0 < len; j0 += blen) {
                const int64_t jn = min64(blen, len - j0);
                for (int64_t o0 = 0; o0 < og; o0 += mr_max) {
                    const int64_t mr = min64(mr_max, og - o0);
                    const float *a[4];
                    for (int64_t m = 0; m < mr; ++m) a[m] = dyp[o0 + m] + od * dps + j0;
                    for (int64_t q0 = 0; q0 < q; q0 += nr_max) {
                        const int64_t nr = min64(nr_max, q - q0);
                        const float *b[8];
                        const uint16_t *bm[8];
                        /* row q0 + i: channel c's tap t (one division per call,
                         * not three per row) */
                        int64_t c = st->tap_major ? q0 % cg : q0 / nt;
                        int64_t t = st->tap_major ? q0 / cg : q0 % nt;
                        for (int64_t i = 0; i < nr; ++i) {
                            b[i] = src + c * st->cs + r->toff[t] + od * dpitch + j0;
                            bm[i] = mtab + t % p->ks[2] * st->mwords + j0 / 16;
                            if (st->tap_major) {
                                if (++c == cg) c = 0, ++t;
                            } else if (++t == nt) {
                                t = 0, ++c;
                            }
                        }
                        if (st->masked) {
                            /* the kernel spreads this call's slice of the next blocks over its steps */
                            const ukernel_prefetch pf = ukernel_prefetch_part(&next, call, ncalls);
                            ++call;
                            r->k.wtm((size_t)mr, (size_t)nr, (size_t)jn, a, b, bm,
                                     acc + (o0 * q + q0) * GRP_ACC_LANES, (size_t)(q * GRP_ACC_LANES),
                                     nx || ny ? &pf : NULL);
                            continue;
                        }
                        ukernel_prefetch_steps(&burst, call, call + 1, ncalls);
                        ++call;
                        r->k.wt((size_t)mr, (size_t)nr, (size_t)jn, a, b,
                                acc + (o0 * q + q0) * GRP_ACC_LANES, (size_t)(q * GRP_ACC_LANES));
                    }
                }
            }
    }
    if (st->nchunk == 1) wt_finish(ctx, (size_t)g);
}

/* ---- data pass ----------------------------------------------------------- */

/* Calls fn(ctx, u, taps of u: [first, first + count) in the sub-problem's tap
 * order (td, th, tw)) for every output phase u, in (u0, u1, u2) order; the
 * running first is the panel order of the packed weights. */
typedef struct sub_taps {
    int64_t u[CONV_SPATIAL];
    int64_t cnt[CONV_SPATIAL]; /* outputs of the phase per dim */
    int64_t first, count;      /* taps */
} sub_taps;

/* The first phase of dim d from u on, of those some tap reaches where
 * reached (d->nsub when none). */
static int64_t dim_phase(const dw_dim *d, int64_t u, bool reached)
{
    while (reached && u < d->nsub && d->sub_tb[u + 1] == d->sub_tb[u])
        ++u;
    return u;
}

/* reached: only the phases some tap reaches (those with no tap add nothing
 * to first: the same panel order) */
static bool next_sub(const grp_state *st, sub_taps *s, bool start, bool reached)
{
    const dw_dim *d = st->dim;
    if (start) {
        s->first = 0;
        for (int i = 0; i < CONV_SPATIAL; ++i)
            if ((s->u[i] = dim_phase(&d[i], 0, reached)) == d[i].nsub) return false;
    } else {
        s->first += s->count;
        int i = 2;
        for (; i >= 0; --i) {
            if ((s->u[i] = dim_phase(&d[i], s->u[i] + 1, reached)) < d[i].nsub) break;
            s->u[i] = dim_phase(&d[i], 0, reached);
        }
        if (i < 0) return false;
    }
    s->count = 1;
    for (int i = 0; i < CONV_SPATIAL; ++i) {
        s->cnt[i] = plane_sub_count(&d[i], s->u[i]);
        s->count *= d[i].sub_tb[s->u[i] + 1] - d[i].sub_tb[s->u[i]];
    }
    return true;
}

/* Elements of a gradInput plane in output phases no tap reaches. */
static int64_t unreached_elements(const grp_state *st)
{
    int64_t n = 0;
    sub_taps s;
    for (bool ok = next_sub(st, &s, true, false); ok; ok = next_sub(st, &s, false, false))
        if (s.count == 0) n += s.cnt[0] * s.cnt[1] * s.cnt[2];
    return n;
}

/* Kernel index and packed source offset of tap i of sub-problem s. */
static void sub_tap(const grp_state *st, const int64_t *ks, const sub_taps *s, int64_t i,
                    int64_t *kidx, ptrdiff_t *off)
{
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const int64_t nw = dw->sub_tb[s->u[2] + 1] - dw->sub_tb[s->u[2]];
    const int64_t nh = dh->sub_tb[s->u[1] + 1] - dh->sub_tb[s->u[1]];
    const int64_t td = dd->sub_tb[s->u[0]] + i / (nw * nh), th = dh->sub_tb[s->u[1]] + i / nw % nh,
                  tw = dw->sub_tb[s->u[2]] + i % nw;
    const int64_t phase = (dd->tap_ph[td] * (int64_t)dh->nph + dh->tap_ph[th]) * dw->nph + dw->tap_ph[tw];
    *off = (ptrdiff_t)(phase * st->plane + (dd->tap_off[td] * dh->ext + dh->tap_off[th]) * dw->ext +
                       dw->tap_off[tw]);
    *kidx = (dd->tap_k[td] * ks[1] + dh->tap_k[th]) * ks[2] + dw->tap_k[tw];
}

/* Packed weights of group g: per output phase (in order), per row block mb,
 * the panel [c][t][MR] of the phase's taps; rows past nout are zeros. D reads
 * w transposed (output rows are x channels, reduction channels dy's). */
static void data_pack_weights(void *ctx, size_t index)
{
    const grp_run *r = ctx;
    const conv_problem *p = r->p;
    const grp_state *st = r->st;
    const int64_t g = (int64_t)index, mrr = st->mr, nin = st->nin;
    float *wp = (float *)(r->ws + st->wpk_off) + g * st->gpanel;
    sub_taps s;
    for (bool ok = next_sub(st, &s, true, true); ok; ok = next_sub(st, &s, false, true)) {
        float *ws = wp + st->nmb * mrr * nin * s.first;
        for (int64_t t = 0; t < s.count; ++t) {
            int64_t kidx;
            ptrdiff_t off;
            sub_tap(st, p->ks, &s, t, &kidx, &off);
            const int64_t kw = kidx % p->ks[2], kh = kidx / p->ks[2] % p->ks[1],
                          kd = kidx / p->ks[2] / p->ks[1];
            for (int64_t mb = 0; mb < st->nmb; ++mb)
                for (int64_t c = 0; c < nin; ++c)
                    for (int64_t m = 0; m < mrr; ++m) {
                        const int64_t oc = mb * mrr + m;
                        float v = 0.0f;
                        if (oc < st->nout) {
                            const int64_t wo = st->bwd ? c : oc, wc = st->bwd ? oc : c;
                            v = conv_round_operand(
                                load_as_f32(p->w.data, p->w.dtype,
                                            conv_view_index(&p->w, g * p->og + wo, wc, kd, kh, kw)),
                                p->mode);
                        }
                        /* masked, merged: [t][c][MR], the grpconv kernels' tap-major order */
                        const int64_t at = st->masked || st->merge_w ? (mb * s.count + t) * nin + c
                                                                     : (mb * nin + c) * s.count + t;
                        ws[at * mrr + m] = v;
                    }
        }
    }
}

/* Writes output depth plane a of output phase s of channel c of image n of
 * gradInput from grid (rows rowp apart), or zeros when grid is NULL. */
static void store_rows(const grp_run *r, int64_t n, int64_t c, const sub_taps *s, int64_t a,
                       const float *grid, int64_t rowp)
{
    const conv_problem *p = r->p;
    const grp_state *st = r->st;
    const conv_view *out = &p->grad_input;
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const int64_t sw = out->stride[4] * dw->out_step;
    /* rows that follow each other in the grid and in the view are one row:
     * a call of the rounding / narrowing kernels per plane, not per row */
    int64_t rows = s->cnt[1], len = s->cnt[2];
    if (rows > 1 && sw == 1 && (!grid || rowp == len) && out->stride[3] * dh->out_step == len) {
        len *= rows;
        rows = 1;
    }
    for (int64_t b = 0; b < rows; ++b) {
        const int64_t base = conv_view_index(out, n, c, s->u[0] + a * dd->out_step,
                                             s->u[1] + b * dh->out_step, s->u[2]);
        conv_store_results(out, p->mode, r->ck, true, base, sw, len, grid ? grid + b * rowp : NULL);
    }
}

/* Writes output phase s of channel c of image n from grid (pitches of the
 * packed plane), or zeros when grid is NULL. */
static void store_sub(const grp_run *r, int64_t n, int64_t c, const sub_taps *s, const float *grid)
{
    const dw_dim *dh = &r->st->dim[1], *dw = &r->st->dim[2];
    for (int64_t a = 0; a < s->cnt[0]; ++a)
        store_rows(r, n, c, s, a, grid ? grid + a * dh->ext * dw->ext : NULL, dw->ext);
}

/* The next task's source block (a slice per kernel call), or NULL. */
static const char *next_block(const grp_run *r, const conv_view *v, size_t index, size_t *bytes)
{
    const conv_problem *p = r->p;
    const char *nx = NULL;
    if (index + 1 >= (size_t)(p->n * p->g) ||
        !block_run(v, (int64_t)(index + 1) / p->g, (int64_t)(index + 1) % p->g * r->st->nin,
                   r->st->nin, &nx, bytes))
        return NULL;
    return nx;
}

/* The kernel calls of one output phase of the data pass: shifted copies
 * (conv kernel, toff one per tap) or the masked layout (grpconv kernel, off
 * one per row tap, wsh the W shifts). */
typedef struct sub_kernel {
    bool masked;
    f32_conv_ukernel_fn conv; /* shifted copies */
    int64_t nr_max;
    const ptrdiff_t *off; /* toff, or roff (masked) */
    const ptrdiff_t *wsh; /* masked */
    int64_t nrt, nw;      /* masked: row taps, W taps */
} sub_kernel;

/* Output phase s of group g: every output depth plane a of it, every block
 * of mr channels, the kernel over runs of OH'*OW positions (into gradInput
 * when it is stored in place, else into the grid, stored per plane); the
 * next task's source prefetched a slice per kernel call. */
static void data_sub(const grp_run *r, int64_t n, int64_t g, const sub_taps *s, const sub_kernel *sk,
                     const float *src, float *grid, const char *nx, size_t nxb, size_t *call,
                     size_t ncalls)
{
    const grp_state *st = r->st;
    const conv_view *out = &r->p->grad_input;
    const int64_t nin = st->nin, nout = st->nout, mrr = st->mr;
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const int64_t ow = dw->out_n, eh = dh->ext;
    if (s->count == 0) {
        for (int64_t o = 0; o < nout; ++o) store_sub(r, n, g * nout + o, s, NULL);
        return;
    }
    const int64_t len = s->cnt[1] * ow;
    /* the mode's result rounding, when the kernel stores into gradInput */
    const int yround = st->in_place ? conv_result_round_kind(r->p->mode) : F32_ROUND_NONE;
    ukernel_prefetch next = nx ? run_lines(nx, nxb, NULL, 0) : UKERNEL_PREFETCH_NONE;
    ukernel_prefetch_level(&next, ncalls);
    const float *ws = (const float *)(r->ws + st->wpk_off) + g * st->gpanel + st->nmb * mrr * nin * s->first;
    for (int64_t a = 0; a < s->cnt[0]; ++a) {
        const float *xa = src + a * eh * ow;
        for (int64_t mb = 0; mb < st->nmb; ++mb) {
            const int64_t mr = min64(mrr, nout - mb * mrr);
            const float *w = ws + mb * nin * s->count * mrr;
            float *y = grid + mb * mrr * st->glen;
            size_t ldy = (size_t)st->glen;
            if (st->in_place) {
                y = (float *)out->data +
                    conv_view_index(out, n, g * nout + mb * mrr, s->u[0] + a * dd->out_step, 0, 0);
                ldy = (size_t)out->stride[1];
            }
            for (int64_t j0 = 0; j0 < len; j0 += sk->nr_max) {
                /* the next task's block, a slice per call, asked for by the
                 * masked kernel as it computes (a burst before the call
                 * stalled the next task's copy); the other kernel asks for
                 * nothing (bursts before its calls: resnext_g32_s2 dx +3%) */
                const size_t nr = (size_t)min64(sk->nr_max, len - j0);
                if (sk->masked) { /* gradInput in place is not read again: streamed, no RFO */
                    const ukernel_prefetch pf =
                        ukernel_prefetch_part(&next, (size_t)min64(*call, ncalls - 1), ncalls);
                    ++*call;
                    r->k.conv((size_t)mr, nr, (size_t)nin, (size_t)sk->nrt, (size_t)sk->nw, w,
                              xa + j0, (size_t)st->cs, sk->off, sk->wsh, (size_t)ow,
                              (size_t)(j0 % ow), y + j0, ldy, st->in_place, yround, &pf);
                    continue;
                }
                sk->conv((size_t)mr, nr, (size_t)nin, (size_t)s->count, w, xa + j0, (size_t)st->cs,
                         sk->off, y + j0, ldy, 0, F32_ROUND_NONE);
                if (yround != F32_ROUND_NONE) /* the rows just written, in L1 */
                    for (int64_t m = 0; m < mr; ++m)
                        r->ck->f32_round(nr, y + j0 + m * (int64_t)ldy, y + j0 + m * (int64_t)ldy,
                                         yround);
            }
        }
        if (!st->in_place)
            for (int64_t o = 0; o < nout; ++o) store_rows(r, n, g * nout + o, s, a, grid + o * st->glen, ow);
    }
}

/* Data gradient from shifted copies (one W output phase): per output depth
 * plane a run of OH'*OW positions without junk, stored by the kernel into a
 * dense fp32 view, else through the grid. */
static void data_flat(const grp_run *r, int64_t n, int64_t g, size_t index, int slot)
{
    const conv_problem *p = r->p;
    const grp_state *st = r->st;
    const conv_view *v = st->bwd ? &p->y : &p->x;
    float *src = slot_buf(r, slot), *grid = src + st->aux_off;
    const int64_t nin = st->nin, mrr = st->mr;
    if (*slot_flag(r, slot) == 0) /* the slack the kernel may read past the last copy */
        memset(src + nin * st->cs, 0, CONV_UKERNEL_SLACK * sizeof(float));
    pack_group(r, v, n, g * nin, nin, slot, src);
    size_t nxb = 0;
    const char *nx = next_block(r, v, index, &nxb);
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const int64_t ow = dw->out_n, eh = dh->ext;
    ptrdiff_t toff[DW_MAX_TAPS];
    sub_kernel sk = {false, mrr == 1 ? r->ck->conv1 : r->ck->conv, mrr == 1 ? r->ck->conv1_nr : r->ck->conv_nr,
                     toff, NULL, 0, 0};
    sub_taps s;
    size_t call = 0;
    const size_t ncalls = (size_t)(st->nmb * ceil_div(dd->out_n * eh * ow, sk.nr_max)) + 1;
    for (bool ok = next_sub(st, &s, true, false); ok; ok = next_sub(st, &s, false, false)) {
        const int64_t nw = dw->sub_tb[1] - dw->sub_tb[0];
        const int64_t nh = dh->sub_tb[s.u[1] + 1] - dh->sub_tb[s.u[1]];
        for (int64_t i = 0; i < s.count; ++i) {
            const int64_t td = dd->sub_tb[s.u[0]] + i / (nw * nh), th = dh->sub_tb[s.u[1]] + i / nw % nh,
                          tw = dw->sub_tb[0] + i % nw;
            const int64_t phase = dd->tap_ph[td] * (int64_t)dh->nph + dh->tap_ph[th];
            toff[i] = (ptrdiff_t)(tw * st->xrow +
                                  ((phase * dd->ext + dd->tap_off[td]) * eh + dh->tap_off[th]) * ow);
        }
        data_sub(r, n, g, &s, &sk, src, grid, nx, nxb, &call, ncalls);
    }
}

/* Data gradient from one copy per source channel (masked layout): per
 * output depth plane a run of OH'*OW positions, the W taps of a row tap as
 * shifts of the same copy with the lanes that leave their row masked. */
static void data_masked(const grp_run *r, int64_t n, int64_t g, size_t index, int slot)
{
    const conv_problem *p = r->p;
    const grp_state *st = r->st;
    const conv_view *v = st->bwd ? &p->y : &p->x;
    float *base = slot_buf(r, slot), *src = base + GRP_CONV_GUARD, *grid = base + st->aux_off;
    const int64_t nin = st->nin;
    if (*slot_flag(r, slot) == 0) { /* what the kernel may read around the copies */
        memset(base, 0, GRP_CONV_GUARD * sizeof(float));
        memset(src + nin * st->cs, 0, CONV_UKERNEL_SLACK * sizeof(float));
    }
    pack_group(r, v, n, g * nin, nin, slot, src);
    size_t nxb = 0;
    const char *nx = next_block(r, v, index, &nxb);
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const int64_t ow = dw->out_n, eh = dh->ext;
    const int64_t nw = dw->sub_tb[1] - dw->sub_tb[0];
    ptrdiff_t roff[DW_MAX_TAPS], wsh[GRP_CONV_MAX_KW];
    for (int64_t k = 0; k < nw; ++k) wsh[k] = dw->tap_off[dw->sub_tb[0] + k] + dw->qmin - st->cb;
    sub_kernel sk = {true, NULL, r->k.conv_nr, roff, wsh, 0, nw};
    sub_taps s;
    size_t call = 0;
    const size_t ncalls = (size_t)(st->nmb * ceil_div(dd->out_n * eh * ow, sk.nr_max)) + 1;
    for (bool ok = next_sub(st, &s, true, false); ok; ok = next_sub(st, &s, false, false)) {
        const int64_t nh = dh->sub_tb[s.u[1] + 1] - dh->sub_tb[s.u[1]];
        sk.nrt = s.count / nw;
        for (int64_t i = 0; i < sk.nrt; ++i) {
            const int64_t td = dd->sub_tb[s.u[0]] + i / nh, th = dh->sub_tb[s.u[1]] + i % nh;
            const int64_t phase = dd->tap_ph[td] * (int64_t)dh->nph + dh->tap_ph[th];
            roff[i] = (ptrdiff_t)(((phase * dd->ext + dd->tap_off[td]) * eh + dh->tap_off[th]) * ow);
        }
        data_sub(r, n, g, &s, &sk, src, grid, nx, nxb, &call, ncalls);
    }
}

/* Output phase s of group g (at least one tap) over the first len positions
 * of its grid: every channel block's kernel calls into grid (output channel
 * o at o * glen). src: the packed source planes. */
static void phase_calls(const grp_run *r, int64_t g, const sub_taps *s, const float *src,
                        float *grid, int64_t len)
{
    const grp_state *st = r->st;
    const int64_t nin = st->nin, nout = st->nout, mrr = st->mr;
    const int nr_max = mrr == 1 ? r->ck->conv1_nr : r->ck->conv_nr;
    const f32_conv_ukernel_fn kern = mrr == 1 ? r->ck->conv1 : r->ck->conv;
    ptrdiff_t toff[DW_MAX_TAPS];
    for (int64_t t = 0; t < s->count; ++t) {
        int64_t kidx;
        sub_tap(st, r->p->ks, s, t, &kidx, &toff[t]);
    }
    const float *ws =
        (const float *)(r->ws + st->wpk_off) + g * st->gpanel + st->nmb * mrr * nin * s->first;
    for (int64_t mb = 0; mb < st->nmb; ++mb) {
        const int64_t mr = min64(mrr, nout - mb * mrr);
        for (int64_t j = 0; j < len; j += nr_max)
            kern((size_t)mr, (size_t)min64(nr_max, len - j), (size_t)nin, (size_t)s->count,
                 ws + mb * nin * s->count * mrr, src + j, (size_t)st->cs, toff,
                 grid + mb * mrr * st->glen + j, (size_t)st->glen, 0, F32_ROUND_NONE);
    }
}

/* Packs the source planes of group g of image n into the slot (its start). */
static float *pack_planes(const grp_run *r, int64_t n, int64_t g, int slot)
{
    const conv_problem *p = r->p;
    const grp_state *st = r->st;
    const conv_view *v = st->bwd ? &p->y : &p->x;
    float *src = slot_buf(r, slot);
    int32_t *ready = slot_flag(r, slot);
    const int64_t nin = st->nin;
    if (*ready == 0) /* the slack the kernel may read past the last plane */
        memset(src + nin * st->cs, 0, CONV_UKERNEL_SLACK * sizeof(float));
    for (int64_t c = 0; c < nin; ++c) {
        /* the next channel's plane, asked for as this one is packed */
        ukernel_prefetch next = UKERNEL_PREFETCH_NONE;
        if (c + 1 < nin) plane_lines(v, n, g * nin + c + 1, 0, &next);
        ukernel_prefetch_level(&next, 1);
        plane_pack(st->dim, st->plane, v, n, g * nin + c, p->mode, *ready != 0, r->ck, src + c * st->cs,
                   &next);
    }
    *ready = 1;
    return src;
}

/* Data gradient of a W stride of 2 from whole packed planes (merge_w):
 * output rows a band of GRP_BAND_ROWS at a time, an H output phase at a
 * time, each by grpconv_s2 calls holding both W output phases (every tap of
 * the row's (D, H) output phase); into the slot's planes, streamed out a
 * band at a time (merge_nt: the non-temporal stores drain while the next
 * band computes; streaming whole planes at the task's end left the core
 * waiting on them), else into gradInput's rows. */
#define GRP_BAND_ROWS 8
static void data_merged(const grp_run *r, int64_t n, int64_t g, int slot)
{
    const conv_problem *p = r->p;
    const grp_state *st = r->st;
    const float *src = pack_planes(r, n, g, slot);
    const dw_dim *dd = &st->dim[0], *dh = &st->dim[1], *dw = &st->dim[2];
    const conv_view *out = &p->grad_input;
    const int64_t od = out->dim[2], oh = out->dim[3], ow = out->dim[4], oplane = od * oh * ow;
    const int64_t nin = st->nin, nout = st->nout, mrr = st->mr;
    const int64_t th = dh->sub_tb[dh->nsub], tw = dw->sub_tb[dw->nsub]; /* taps of all phases */
    const int64_t nj = plane_sub_count(dw, 0); /* W phase 0's columns: the most */
    const int64_t nr_max = r->k.conv_s2_nr;
    /* a 16-bit gradInput is rounded and narrowed with the band */
    const int yround = out->dtype == ACL_FLOAT ? conv_result_round_kind(p->mode) : F32_ROUND_NONE;
    float *planes = slot_buf(r, slot) + st->out_off;
    const size_t ldy = (size_t)(st->merge_nt ? oplane : out->stride[1]);
    const float *wg = (const float *)(r->ws + st->wpk_off) + g * st->gpanel;
    const size_t nk[2] = {(size_t)(dw->sub_tb[1] - dw->sub_tb[0]),
                          (size_t)(dw->sub_tb[2] - dw->sub_tb[1])};
    ptrdiff_t shu[2][GRP_CONV_MAX_KW], roff[DW_MAX_TAPS];
    for (int u = 0; u < 2; ++u)
        for (size_t k = 0; k < nk[u]; ++k)
            shu[u][k] = dw->tap_off[dw->sub_tb[u] + (int64_t)k];
    const ptrdiff_t *const sh[2] = {shu[0], shu[1]};
    const f32_grpconv_s2_ukernel_fn conv_s2 =
        r->k.conv_s2_for ? r->k.conv_s2_for(nk, sh) : r->k.conv_s2;
    for (int64_t z = 0; z < od; ++z) {
        const int64_t u0 = z % dd->out_step, a = z / dd->out_step;
        const int64_t nd = dd->sub_tb[u0 + 1] - dd->sub_tb[u0];
        for (int64_t h0 = 0; h0 < oh; h0 += GRP_BAND_ROWS) {
            const int64_t h1 = min64(oh, h0 + GRP_BAND_ROWS);
            /* the band's rows an H output phase at a time: its taps once */
            for (int64_t u1 = 0; u1 < dh->nsub; ++u1) {
                const int64_t nh = dh->sub_tb[u1 + 1] - dh->sub_tb[u1], nrt = nd * nh;
                for (int64_t i = 0; i < nrt; ++i)
                    roff[i] = (ptrdiff_t)((dd->tap_off[dd->sub_tb[u0] + i / nh] * dh->ext +
                                           dh->tap_off[dh->sub_tb[u1] + i % nh]) *
                                          dw->ext);
                /* the packed panels of output phases (u0, u1, 0) and (u0, u1, 1):
                 * next_sub's running first, in closed form */
                const int64_t first = dd->sub_tb[u0] * th * tw + nd * dh->sub_tb[u1] * tw;
                const float *wu[2] = {wg + st->nmb * mrr * nin * first,
                                      wg + st->nmb * mrr * nin * (first + nrt * (int64_t)nk[0])};
                const int64_t hs = h0 + (u1 - h0 % dh->out_step + dh->out_step) % dh->out_step;
                for (int64_t h = hs; h < h1; h += dh->out_step) {
                    const int64_t b = h / dh->out_step;
                    float *row = st->merge_nt ? planes + (z * oh + h) * ow
                                              : (float *)out->data +
                                                    conv_view_index(out, n, g * nout, z, h, 0);
                    if (nrt == 0) { /* no tap reaches the row */
                        for (int64_t o = 0; o < nout; ++o)
                            memset(row + o * (int64_t)ldy, 0, (size_t)ow * sizeof(float));
                        continue;
                    }
                    const float *x = src + (a * dh->ext + b) * dw->ext;
                    for (int64_t mb = 0; mb < st->nmb; ++mb) {
                        const float *w[2] = {wu[0] + mb * nin * nrt * (int64_t)nk[0] * mrr,
                                             wu[1] + mb * nin * nrt * (int64_t)nk[1] * mrr};
                        for (int64_t j0 = 0; j0 < nj; j0 += nr_max) {
                            const int64_t nr = min64(nr_max, nj - j0);
                            conv_s2((size_t)min64(mrr, nout - mb * mrr), (size_t)nr,
                                    (size_t)min64(ow - 2 * j0, 2 * nr), (size_t)nin, (size_t)nrt,
                                    nk, w, x + j0, (size_t)st->cs, roff, sh,
                                    row + (size_t)(mb * mrr) * ldy + 2 * j0, ldy, yround);
                        }
                    }
                }
            }
            if (st->merge_nt) /* the band's rows, every channel: one run each */
                for (int64_t o = 0; o < nout; ++o) {
                    const float *band = planes + o * oplane + (z * oh + h0) * ow;
                    const int64_t at = conv_view_index(out, n, g * nout + o, z, h0, 0);
                    if (out->dtype == ACL_FLOAT)
                        r->k.copy_nt((size_t)((h1 - h0) * ow), band, (float *)out->data + at);
                    else
                        conv_store_results(out, p->mode, r->ck, true, at, 1, (h1 - h0) * ow, band);
                }
        }
    }
}

/* Data gradient from whole packed planes (D with a W stride > 1): every
 * output phase over the packed planes, junk columns computed and dropped. */
static void data_planes(const grp_run *r, int64_t n, int64_t g, int slot)
{
    const grp_state *st = r->st;
    float *src = pack_planes(r, n, g, slot), *grid = src + st->aux_off;
    const int64_t nout = st->nout, pw = st->dim[2].ext, ph = st->dim[1].ext;
    if (st->zero_first)
        for (int64_t o = 0; o < nout; ++o)
            conv_view_zero_plane(&r->p->grad_input, n, g * nout + o);
    sub_taps s;
    const bool z = st->zero_first; /* (then the phases no tap reaches are skipped) */
    for (bool ok = next_sub(st, &s, true, z); ok; ok = next_sub(st, &s, false, z)) {
        if (s.count == 0) { /* no tap reaches the phase: zeros */
            for (int64_t o = 0; o < nout; ++o) store_sub(r, n, g * nout + o, &s, NULL);
            continue;
        }
        const bool empty = s.cnt[0] == 0 || s.cnt[1] == 0 || s.cnt[2] == 0;
        const int64_t len = empty ? 0 : ((s.cnt[0] - 1) * ph + (s.cnt[1] - 1)) * pw + s.cnt[2];
        phase_calls(r, g, &s, src, grid, len);
        for (int64_t o = 0; o < nout; ++o)
            store_sub(r, n, g * nout + o, &s, grid + o * st->glen);
    }
}

/* Data gradient: task n*G + g computes the nout output channels of group g of
 * image n; every element by one kernel call holding its whole sum (source
 * channel, then tap, ascending). */
static void data_task(void *ctx, size_t index, int slot)
{
    const grp_run *r = ctx;
    const conv_problem *p = r->p;
    const grp_state *st = r->st;
    const int64_t n = (int64_t)index / p->g, g = (int64_t)index % p->g;
    if (st->masked)
        data_masked(r, n, g, index, slot);
    else if (st->flat)
        data_flat(r, n, g, index, slot);
    else if (st->merge_w)
        data_merged(r, n, g, slot);
    else
        data_planes(r, n, g, slot);
    if (r->k.fence) r->k.fence(); /* the streamed stores of the task */
}

static void grp_run_pass(const conv_problem *p, conv_pass pass, const void *state, void *workspace)
{
    const grp_state *st = state;
    grp_run r = {.p = p, .st = st, .ws = workspace, .k = pick_kernels(st->isa), .ck = conv_ukernels_for(st->isa)};
    memset(r.ws + st->flag_off, 0, (size_t)st->slots * GRP_FLOAT_ALIGN * sizeof(int32_t));
    if (pass == CONV_PASS_DATA) {
        pool_parallel_for((size_t)p->g, data_pack_weights, &r);
        pool_parallel_for_slots((size_t)(p->n * p->g), st->slots, data_task, &r);
        return;
    }
    src_tap_offsets(st, p->ks, p->ys[2], r.toff);
    if (st->masked) build_row_masks(&r);
    pool_parallel_for_slots((size_t)(p->g * st->nchunk), st->slots, wt_task, &r);
    if (st->nchunk > 1) pool_parallel_for((size_t)p->g, wt_finish, &r);
    if (st->bias) conv_bias_store_sums(p, (const float *)(r.ws + st->sums_off));
}

static bool grp_fuses_bias(const void *state)
{
    return ((const grp_state *)state)->bias;
}

const conv_impl conv_impl_grouped = {
    .name = "grouped",
    .why_not = grp_why_not,
    .plan = grp_plan,
    .run = grp_run_pass,
    .fuses_bias = grp_fuses_bias,
};

const char *conv_grouped_layout(const conv_problem *p, int pass, aclconvIsa isa)
{
    _Alignas(64) unsigned char state[CONV_IMPL_STATE_BYTES] = {0};
    uint64_t bytes;
    if (!grp_plan(p, (conv_pass)pass, isa, state, &bytes)) return NULL;
    const grp_state *st = (const grp_state *)state;
    return st->masked                              ? "masked"
           : st->flat || pass == CONV_PASS_WEIGHTS ? "copies"
           : st->merge_w                           ? "merged"
                                                   : "planes";
}

bool conv_grouped_rounds_in_place(const conv_problem *p, aclconvIsa isa)
{
    _Alignas(64) unsigned char state[CONV_IMPL_STATE_BYTES] = {0};
    uint64_t bytes;
    if (!grp_plan(p, CONV_PASS_DATA, isa, state, &bytes)) return false;
    const grp_state *st = (const grp_state *)state;
    /* (a merged 16-bit gradInput is rounded as it is narrowed, after the kernel) */
    return (st->in_place || (st->merge_w && p->grad_input.dtype == ACL_FLOAT)) &&
           conv_result_round_kind(p->mode) != F32_ROUND_NONE;
}
