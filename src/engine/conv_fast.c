/* The fast implementations: stride-1 convolutions over flattened padded rows
 * with the SIMD microkernels of src/kernels (docs/kernels.md).
 *
 * "fast_sv" (data pass): gradInput as a forward convolution. F directly; D as
 * F on dy padded by dil*(k-1) - pad with the weights transposed (O <-> C) and
 * flipped. One task = (n, group, output plane, block of output rows): it packs
 * the input slab it reads (padding materialized, rows padded to wp, operands
 * rounded to the mode) into its slot's buffer, then runs the 'conv' kernel
 * over the padded-width grid and stores the valid columns.
 *
 * "fast_wt" (weights pass): dW^T[(c,tap)][o] = sum x_slab[c][j+off(tap)] *
 * dyT[j][o] with the 'convwt' kernel. Reduction units (n, output plane, block
 * of rows) are split into a problem-fixed number of chunks; each chunk sums
 * into its own fp32 buffer; the buffers are added in chunk order at the end.
 *
 * Every partition and summation order depends on the problem (and the ISA the
 * plan was made for) only, never on the number of threads. */
#include "engine/conv_fast.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "common/cpu.h"
#include "common/dtype.h"
#include "engine/conv_bias.h"
#include "engine/conv_views.h"
#include "kernels/conv_ukernels.h"
#include "kernels/ukernel_prefetch.h"
#include "threading/pool.h"

/* ---- tunables (problem-independent constants) ---------------------------- */
/* Largest row span pack_slab prefetches ahead (a dense row of a big plane). */
#define FAST_PREFETCH_MAX_BYTES (64 * 1024)
/* The reduction-vector weights path asks for dy rows read in place from
 * memory this many kernel row blocks ahead. */
#define FAST_RV_AHEAD 2
/* The data pass rounds in-place input in its kernel (kernel_rounds) when a
 * kernel call reads each element at most this many times. */
#define FAST_KERNEL_ROUND_TAPS 4
/* pack_slab asks for the rows of the channel this many channels ahead, at
 * most (and at most FAST_PACK_AHEAD_BYTES ahead): one channel ahead was too
 * late for short rows coming from memory (conv1d_wav_k10s5's rounded and
 * 16-bit dx: -10 to -35% with eight; the dense layers unchanged). */
#define FAST_PACK_AHEAD_CHANNELS 8
#define FAST_PACK_AHEAD_BYTES (16 * 1024)

/* Floats of the packed input slab one task aims for (about half of L2). */
#define FAST_SLAB_FLOATS (128 * 1024)
/* The weights pass streams its slab rows: larger units, longer reductions. */
#define FAST_WT_SLAB_FLOATS (512 * 1024)
/* Floats of packed weights swept per pass over the slab. */
#define FAST_WBLOCK_FLOATS (64 * 1024)
/* Narrowest column block of long rows. */
#define FAST_MIN_COLS 64
/* Floats of gradInput one data task writes at most when several W output
 * phases interleave in its rows (a quarter of L2): r50_c3_3x3s2's dx pass
 * ~-15% CPU time (the phases' writes to a line hit L2 instead of memory). */
#define FAST_OUT_BLOCK_FLOATS (64 * 1024)
/* Fewest tasks the data pass aims for, so two threads stay busy. */
#define FAST_MIN_TASKS 8
/* Floats of one transposed dy block (positions x OG), kept in L1/L2. */
#define FAST_WT_DYT_FLOATS (128 * 1024)
/* Output channels per dy^T block of the GEMM path: the block then holds
 * 2048 positions whatever OG, so each kernel call reduces over that many and
 * the partial sums are swept once per 2048 positions, not per 128Ki/OG. */
#define FAST_WT_OBLOCK 64
/* The weights pass uses the reduction-vector kernel below these sizes. */
#define FAST_RV_MAX_OG 32
#define FAST_RV_MAX_KROWS 24
/* Longest dot product block of the reduction-vector path. */
#define FAST_RV_MAX_POSITIONS 8192
/* The data pass uses the single-row kernel up to this many output channels
 * per group (8x48 would waste more than half its rows). */
#define FAST_ONE_ROW_MAX_OUT 4
/* D with strides and that few output channels: the output phases become rows
 * of one sub-problem over the union of their taps (MR-row kernel, each dy
 * vector loaded once for every phase) when the taps with the zeros this adds
 * stay below this factor of the real ones (the MR = 1 kernel loads a vector
 * per multiply-add: conv1d_wav_k10s5's dx -17% at factor 1, r50_stem7x7's dx
 * -20% at 64/49; 1 thread). */
#define FAST_PHASE_ROWS_MAX_WASTE 3
/* Chunks of the n-reduction of the weights pass (fixed; partial buffers). */
#define FAST_WT_CHUNKS 4
/* The streamed weights pass (wt_streams): its chunks are runs of whole
 * images, at most this many, and it needs this many images at least (fewer
 * would leave threads idle). */
#define FAST_STREAM_CHUNKS 16
#define FAST_STREAM_MIN_IMAGES 4
/* The F form streams when x's elements each take at most this many
 * multiply-adds per pass (output channels x taps reading the element). */
#define FAST_STREAM_MAX_WORK 128
/* Largest image of dy the streamed D pass copies whole (stream_image_floats):
 * a quarter of L3 per thread, where the copy stays while its blocks read it. */
#define FAST_STREAM_IMG_FLOATS (2 * 1024 * 1024)
/* Largest element count of any buffer we plan (keeps int64 math far from overflow). */
#define FAST_MAX_FLOATS ((int64_t)1 << 34)

/* ---- geometry shared by both passes -------------------------------------- */

/* A forward convolution as the data pass or the weight pass sees it: output
 * position o reads input o*st - pad + k*dil. Strided H and W are made stride
 * 1 by a phase split of the input: tap k reads phase ph(k) at o + q(k) with
 * k*dil - pad = q(k)*st + ph(k). Depth keeps one slab plane per tap kd, or
 * in a data pass's depth run one per depth the run reads. */
typedef struct fast_geom {
    int64_t n, g, cin, cout;       /* per group: input / output channels */
    int64_t is[3], os[3], ks[3], st[3];
    int64_t ntap[3];                  /* taps per dim (a subset of ks for D phases) */
    int32_t tk[3][FAST_MAX_K];        /* weight tap index of each tap */
    int32_t tsh[3][FAST_MAX_K];       /* tap j reads input o*st + tsh[j] */
    int64_t ostep[3], ooff[3];        /* output o is written at o*ostep + ooff */
    int64_t nt;                    /* taps */
    int64_t nph[3];                /* used phases per dim (nph[0] = 1) */
    int32_t phase[3][FAST_MAX_STRIDE]; /* the used phases, ascending */
    int64_t qmin[3], qext[3];      /* min q(k) and max - min, per dim */
    int64_t wp;                    /* padded row width */
    int64_t rb, nrb;               /* output rows per task, row blocks */
    int64_t wb, nwb;               /* output columns per task, column blocks */
    int64_t force_rb, force_wb;    /* > 0: blocking imposed (phases of one D pass) */
    int64_t max_rb;                /* > 0: at most this many output rows per block */
    bool balance_rows;             /* row blocks of equal size (data pass) */
    int64_t hp;                    /* slab rows per phase plane */
    /* data pass, depth taps at stride 1: a task computes drun consecutive
     * output planes from one slab holding the depths they read (dspan + drun
     * - 1 planes: each input plane packed once per run, not once per tap).
     * 0: one output plane per slab, a slab plane per tap kd. */
    int64_t drun, dspan;
    /* qspan: the shift range of every output phase of a D pass, qlo..qhi per
     * dim, imposed on each (the phases then pack the same slab: one copy per
     * task, not one per phase) */
    bool qspan;
    int64_t qlo[3], qhi[3];
    int64_t cs;                    /* slab floats per channel */
    int64_t slab_floats;           /* cin*cs + slack */
} fast_geom;

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t round_up64(int64_t a, int64_t b) { return ceil_div(a, b) * b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
/* a * b for a, b >= 0, saturating at INT64_MAX: sizes from views that need no
 * memory (stride-0 inputs) may be huge; every product of plan sizes goes
 * through this and is then compared with a budget. */
static int64_t smul(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Brings the lines of rows x cols elements (row pitch ld) into the cache ahead
 * of a kernel's stores or loads of them. A kernel ends with a burst of tile
 * stores; when they miss, the store queue fills and the core waits on
 * memory (r50_c4_1x1's in-place dx: ~10% of its time). Addresses stay inside
 * the rows. (Plain prefetches: a write hint is prefetcht0 anyway without
 * PRFCHW in the target, and every request here goes through
 * ukernel_prefetch_addr, which gcc cannot drop.) */
static void prefetch_tile(const void *p, int64_t rows, int64_t ld, int64_t cols, size_t elem)
{
    const char *row = p;
    const int64_t last = (cols - 1) * (int64_t)elem;
    for (int64_t r = 0; r < rows; ++r, row += ld * (int64_t)elem) {
        for (int64_t b = 0; b < last; b += 64)
            ukernel_prefetch_addr(row + b, 0);
        ukernel_prefetch_addr(row + last, 0);
    }
}

/* Phase and shift of tap j in dim i: tsh[j] = q*st + ph, 0 <= ph < st. */
static void tap_pq(const fast_geom *g, int i, int64_t j, int64_t *ph, int64_t *q)
{
    const int64_t v = g->tsh[i][j];
    *q = floor_div(v, g->st[i]);
    *ph = v - *q * g->st[i];
}

/* Index of phase ph among the used phases of dim i. */
static int64_t phase_index(const fast_geom *g, int i, int64_t ph)
{
    for (int64_t j = 0; j < g->nph[i]; ++j)
        if (g->phase[i][j] == ph) return j;
    return 0; /* unreachable: every tap's phase is used */
}

/* Output planes per task (a depth run, or one). */
static int64_t geom_drun(const fast_geom *g)
{
    return g->drun > 1 ? g->drun : 1;
}

/* Depth planes per channel in the slab. */
static int64_t geom_dplanes(const fast_geom *g)
{
    return g->drun > 1 ? g->dspan + g->drun - 1 : g->ntap[0];
}

/* Smallest depth shift of the taps. */
static int64_t geom_dmin(const fast_geom *g)
{
    int64_t m = g->tsh[0][0];
    for (int64_t kd = 1; kd < g->ntap[0]; ++kd)
        m = min64(m, g->tsh[0][kd]);
    return m;
}

/* Slab depth plane of tap kd for the first output plane of a run (the
 * others: one plane further each). */
static int64_t depth_plane(const fast_geom *g, int64_t kd)
{
    return g->drun > 1 ? g->tsh[0][kd] - geom_dmin(g) : kd;
}

/* Fills the slab layout of g (sizes, kernel, padding, stride set); rows
 * blocked so a slab is about FAST_SLAB_FLOATS, and at least min_tasks blocks
 * overall. */
static const char *geom_layout(fast_geom *g, int64_t min_tasks, int64_t budget)
{
    g->nt = g->ntap[0] * g->ntap[1] * g->ntap[2];
    if (g->nt < 1) return "no taps";
    if (g->nt > FAST_MAX_TAPS) return "more kernel taps than the fast engine supports";
    for (int i = 0; i < 3; ++i) {
        if (g->os[i] < 1 || g->is[i] < 1) return "empty spatial extent";
        if (g->st[i] > FAST_MAX_STRIDE) return "stride larger than the fast engine supports";
    }
    g->nph[0] = 1;
    g->qmin[0] = g->qext[0] = 0;
    for (int i = 1; i < 3; ++i) {
        bool used[FAST_MAX_STRIDE] = {false};
        int64_t qmin = INT64_MAX, qmax = INT64_MIN;
        for (int64_t k = 0; k < g->ntap[i]; ++k) {
            int64_t ph, q;
            tap_pq(g, i, k, &ph, &q);
            used[ph] = true;
            qmin = min64(qmin, q);
            qmax = max64(qmax, q);
        }
        g->nph[i] = 0;
        for (int64_t ph = 0; ph < g->st[i]; ++ph)
            if (used[ph]) g->phase[i][g->nph[i]++] = ph;
        if (g->qspan) {
            qmin = min64(qmin, g->qlo[i]);
            qmax = max64(qmax, g->qhi[i]);
        }
        g->qmin[i] = qmin;
        g->qext[i] = qmax - qmin;
    }
    const int64_t planes = geom_dplanes(g) * g->nph[1] * g->nph[2];
    if (g->os[2] > FAST_MAX_FLOATS / 4 || g->qext[2] > FAST_MAX_FLOATS / 4 ||
        g->qext[1] > FAST_MAX_FLOATS / 4 || smul(g->cin, planes) > FAST_MAX_FLOATS / 4 / (1 + g->qext[1]))
        return "input rows too large for the fast engine";
    /* long rows (1-D): blocks of columns so one row block stays near the budget */
    g->wb = g->os[2];
    const int64_t one_row = g->cin * planes * (1 + g->qext[1]);
    if (g->force_wb > 0) {
        g->wb = g->force_wb;
    } else if (smul(one_row, g->os[2] + g->qext[2]) > budget && g->os[2] > FAST_MIN_COLS) {
        int64_t wb = budget / one_row - g->qext[2];
        g->wb = min64(g->os[2], max64(FAST_MIN_COLS, wb / 16 * 16));
    }
    g->nwb = ceil_div(g->os[2], g->wb);
    g->wp = g->wb + g->qext[2];
    const int64_t per_row = smul(smul(g->cin, planes), g->wp);
    if (per_row > FAST_MAX_FLOATS / 4) return "input rows too large for the fast engine";
    int64_t rb = budget / per_row - g->qext[1];
    rb = max64(1, min64(rb, g->os[1]));
    if (g->max_rb > 0) rb = min64(rb, g->max_rb);
    int64_t outer = smul(smul(smul(g->n, g->g), ceil_div(g->os[0], geom_drun(g))), g->nwb);
    if (smul(outer, ceil_div(g->os[1], rb)) < min_tasks) {
        int64_t want = min64(g->os[1], ceil_div(min_tasks, outer));
        rb = max64(1, min64(rb, ceil_div(g->os[1], want)));
    }
    /* data pass: equal row blocks (12 + 4 rows -> 8 + 8), balanced tasks and
     * fewer partial kernel tiles at the ends of short blocks (deconv2d_k4s2's
     * dx -14%, conv3d_unet's -9% CPU time) */
    if (g->balance_rows) rb = ceil_div(g->os[1], ceil_div(g->os[1], rb));
    if (g->force_rb > 0) rb = g->force_rb;
    g->rb = rb;
    g->nrb = ceil_div(g->os[1], rb);
    g->hp = rb + g->qext[1];
    if (g->hp > FAST_MAX_FLOATS / per_row) return "input slab too large for the fast engine";
    g->cs = planes * g->hp * g->wp;
    g->slab_floats = round_up64(g->cin * g->cs + CONV_UKERNEL_SLACK, 16);
    if (g->slab_floats > FAST_MAX_FLOATS) return "input slab too large for the fast engine";
    return NULL;
}

/* Slab offset of tap (kd, kh, kw), for the slab layout of pack_slab. */
static void tap_offsets(const fast_geom *g, ptrdiff_t *toff)
{
    int64_t t = 0;
    for (int64_t kd = 0; kd < g->ntap[0]; ++kd)
        for (int64_t kh = 0; kh < g->ntap[1]; ++kh)
            for (int64_t kw = 0; kw < g->ntap[2]; ++kw) {
                int64_t phh, qh, phw, qw;
                tap_pq(g, 1, kh, &phh, &qh);
                tap_pq(g, 2, kw, &phw, &qw);
                const int64_t plane =
                    (depth_plane(g, kd) * g->nph[1] + phase_index(g, 1, phh)) * g->nph[2] +
                    phase_index(g, 2, phw);
                toff[t++] = (ptrdiff_t)((plane * g->hp + qh - g->qmin[1]) * g->wp + qw - g->qmin[2]);
            }
}

/* ---- packing ---------------------------------------------------------------- */

static inline int dtype_bytes(aclDataType dt) { return dt == ACL_FLOAT ? 4 : 2; }

/* The valid columns [*lo, *hi) of a slab plane of W phase pw for a block
 * from output column ow0: 0 <= (ow0 + col + qmin)*st + pw < W. */
static void plane_cols(const fast_geom *g, int64_t ow0, int64_t pw, int64_t *lo, int64_t *hi)
{
    const int64_t q0 = ow0 + g->qmin[2], W = g->is[2];
    *lo = max64(0, -q0);
    *hi = W - 1 - pw < 0 ? *lo : min64(g->wp, (W - 1 - pw) / g->st[2] - q0 + 1);
}

/* The same for both W phases of a stride-2 split (pack_pair and its bf16
 * forms): [*lo, *hi0) for phase 0, [*lo, *hi1) for phase 1, hi1 <= hi0. */
static void pair_cols(const fast_geom *g, int64_t ow0, int64_t *lo, int64_t *hi0, int64_t *hi1)
{
    const int64_t wp = g->wp, q0 = ow0 + g->qmin[2], W = g->is[2];
    *lo = max64(0, -q0);
    *hi0 = min64(wp, max64(*lo, (W - 1) / 2 - q0 + 1));
    *hi1 = W < 2 ? *lo : min64(wp, max64(*lo, (W - 2) / 2 - q0 + 1));
}

/* Groups of `group` channels (1, or the pairs of the BF16 pair slabs) ahead
 * whose rows of span bytes each the packers ask for: page-sized planes do
 * not start cold (prefetchers stop at page boundaries) and short rows far
 * apart (conv1d_wav_k10s5's dy: 240 floats of rows 12.8 KB apart) arrive
 * from memory in time; up to FAST_PACK_AHEAD_CHANNELS channels and
 * FAST_PACK_AHEAD_BYTES ahead. */
static int64_t pack_ahead(int64_t span, int64_t group)
{
    return max64(
        1, min64(FAST_PACK_AHEAD_CHANNELS / group, FAST_PACK_AHEAD_BYTES / max64(1, group * span)));
}

/* The two W phases (stride 2) of every H phase of channel c at depth d, for
 * pack_slab: plane (iph, pw) at dst + (iph*2 + pw)*hp*wp, element col of row
 * r = v[n, c, d, (oh0 + qmin_h + r)*sth + phase_h[iph], (ow0 + col + qmin_w)*2
 * + pw], or 0 outside. Unit W stride; fp32 in every mode (split and rounded
 * by k's f32_split2), fp16 / bf16 in the modes that keep them (widened
 * exactly by k's h16_f32_split2, NaNs quieted where the mode's rounding
 * does). Input rows
 * are read in ascending order (rows of all H phases interleaved), each once;
 * next: the same rows of the next channel are prefetched when next. */
static void pack_pair(const fast_geom *g, const conv_view *v, conv_mode mode, const conv_ukernels *k,
                      int64_t n, int64_t c, int64_t d, int64_t oh0, int64_t ow0, bool next, float *dst)
{
    const int64_t wp = g->wp, q0 = ow0 + g->qmin[2], plane = g->hp * wp;
    const int64_t es = dtype_bytes(v->dtype);
    int64_t lo, hi0, hi1;
    pair_cols(g, ow0, &lo, &hi0, &hi1);
    const bool dok = d >= 0 && d < g->is[0];
    for (int64_t r = 0; r < g->hp; ++r)
        for (int64_t iph = 0; iph < g->nph[1]; ++iph) {
            const int64_t h = (oh0 + g->qmin[1] + r) * g->st[1] + g->phase[1][iph];
            float *r0 = dst + iph * 2 * plane + r * wp, *r1 = r0 + plane;
            if (!dok || h < 0 || h >= g->is[1] || hi0 <= lo) {
                memset(r0, 0, (size_t)wp * sizeof(float));
                memset(r1, 0, (size_t)wp * sizeof(float));
                continue;
            }
            const int64_t at = conv_view_index(v, n, c, d, h, (lo + q0) * 2);
            if (next) {
                const char *nx = v->data + (at + v->stride[1]) * es;
                ukernel_prefetch_run(nx, (hi0 - lo) * 2 * es, 0);
            }
            if (lo > 0) {
                memset(r0, 0, (size_t)lo * sizeof(float));
                memset(r1, 0, (size_t)lo * sizeof(float));
            }
            /* split (and rounded or widened) in one pass; the tail: one even value */
            conv_split_row(v, n, c, d, h, (lo + q0) * 2, 2 * (hi1 - lo) + (hi0 > hi1), mode, k, r0 + lo,
                           r1 + lo);
            if (hi0 < wp) memset(r0 + hi0, 0, (size_t)(wp - hi0) * sizeof(float));
            if (hi1 < wp) memset(r1 + hi1, 0, (size_t)(wp - hi1) * sizeof(float));
        }
}

/* Packs channels [c0, c0+cin) of image n of v for output plane od and output
 * rows from oh0 and columns from ow0: layout [c][kd][phase h][phase w][hp][wp],
 * element (c, kd, ph, pw, r, col) = v[n, c0+c, od*std + tsh_d[kd],
 * (oh0 + qmin_h + r)*sth + ph, (ow0 + col + qmin_w)*stw + pw], or 0 outside.
 * With a depth run (drun > 1) od is the run's first plane and slab plane kd
 * holds depth od + min(tsh_d) + kd. */
static void pack_slab(const fast_geom *g, const conv_view *v, conv_mode mode, const conv_ukernels *k,
                      int64_t n, int64_t c0, int64_t od, int64_t oh0, int64_t ow0, float *dst)
{
    const int64_t *is = g->is;
    const int64_t d0 = od * g->st[0];
    /* stride 2 in W with both phases used, fp32 or values the mode keeps:
     * each input row is read once and split into the two phase planes */
    const bool pair = g->st[2] == 2 && g->nph[2] == 2 && conv_split_row_ok(v, mode);
    const int64_t np = geom_dplanes(g), dmin = geom_dmin(g);
    for (int64_t c = 0; c < g->cin; ++c)
        for (int64_t kd = 0; kd < np; ++kd) {
            const int64_t d = g->drun > 1 ? d0 + dmin + kd : d0 + g->tsh[0][kd];
            if (pair) {
                pack_pair(g, v, mode, k, n, c0 + c, d, oh0, ow0, c + 1 < g->cin,
                          dst + c * g->cs + kd * g->nph[1] * 2 * g->hp * g->wp);
                continue;
            }
            for (int64_t iph = 0; iph < g->nph[1]; ++iph)
                for (int64_t ipw = 0; ipw < g->nph[2]; ++ipw) {
                    const int64_t ph = g->phase[1][iph], pw = g->phase[2][ipw];
                    float *plane = dst + c * g->cs +
                                   ((kd * g->nph[1] + iph) * g->nph[2] + ipw) * g->hp * g->wp;
                    const int64_t q0 = ow0 + g->qmin[2];
                    int64_t lo, hi;
                    plane_cols(g, ow0, pw, &lo, &hi);
                    /* whole input rows, unit steps, rows following each other in
                     * v and in the slab: a run of rows is one load_row call (1x1
                     * layers: 14-element rows, a call each, were most of the
                     * 16-bit packing time) */
                    const bool whole = g->st[1] == 1 && g->st[2] == 1 && q0 == 0 && hi == g->wp &&
                                       g->wp == is[2] && v->stride[4] == 1 && v->stride[3] == is[2];
                    /* fp32 rows with unit steps and padding: a run of them, the
                     * padding included, is one f32_padrows call (a memcpy and
                     * two memsets per row of 28-56 floats cost more than the
                     * copy) */
                    const bool padrows =
                        !whole && v->dtype == ACL_FLOAT && g->st[2] * v->stride[4] == 1;
                    const int64_t es = dtype_bytes(v->dtype), lds = g->st[1] * v->stride[3];
                    for (int64_t r = 0; r < g->hp;) {
                        const int64_t h = (oh0 + g->qmin[1] + r) * g->st[1] + ph;
                        float *row = plane + r * g->wp;
                        if (d < 0 || d >= is[0] || h < 0 || h >= is[1] || hi <= lo) {
                            memset(row, 0, (size_t)g->wp * sizeof(float));
                            ++r;
                            continue;
                        }
                        int64_t nrows = 1;
                        while ((whole || padrows) && r + nrows < g->hp &&
                               h + nrows * g->st[1] < is[1])
                            ++nrows;
                        const int64_t w0 = (lo + q0) * g->st[2] + pw;
                        const char *at =
                            (const char *)v->data + conv_view_index(v, n, c0 + c, d, h, w0) * es;
                        /* the span one read covers (padrows: a row of the run);
                         * not asked for when sparse, where a prefetch of the span
                         * would touch unread lines */
                        const int64_t span =
                            padrows
                                ? (hi - lo) * es
                                : (((nrows - 1) * g->wp + hi - lo - 1) * g->st[2] * v->stride[4] +
                                   1) *
                                      es;
                        /* the same rows of a channel ahead (pack_ahead) */
                        const int64_t ahead = pack_ahead(span, 1);
                        if (ipw == 0 && c + ahead < g->cin && span <= FAST_PREFETCH_MAX_BYTES)
                            for (int64_t i = 0; i < (padrows ? nrows : 1); ++i)
                                ukernel_prefetch_run(at + (ahead * v->stride[1] + i * lds) * es,
                                                     span, 0);
                        if (padrows) {
                            k->f32_padrows((size_t)nrows, (size_t)g->wp, (size_t)lo, (size_t)hi,
                                           (const float *)(const void *)at, (size_t)lds, row,
                                           (size_t)g->wp, conv_round_kind(mode));
                        } else {
                            if (lo > 0) memset(row, 0, (size_t)lo * sizeof(float));
                            conv_load_row(v, n, c0 + c, d, h, w0, g->st[2],
                                          (nrows - 1) * g->wp + hi - lo, mode, k, row + lo);
                            if (hi < g->wp)
                                memset(row + hi, 0, (size_t)(g->wp - hi) * sizeof(float));
                        }
                        r += nrows;
                    }
                }
        }
    memset(dst + g->cin * g->cs, 0, (size_t)(g->slab_floats - g->cin * g->cs) * sizeof(float));
}

/* pack_pair's planes as bf16 bits (pack_slab_bf16, stride 2 in W with both
 * phases used, unit W stride): each input row read once and split by k's
 * bf16_split2; channels below cend are the slab's. Returns emin lowered to
 * the values' smallest exponent field. */
static int pack_pair_bf16(const fast_geom *g, const conv_view *v, const conv_ukernels *k, int64_t n,
                          int64_t c, int64_t cend, int64_t d, int64_t oh0, int64_t ow0,
                          uint16_t *dst, int emin)
{
    const int64_t wp = g->wp, q0 = ow0 + g->qmin[2], plane = g->hp * wp;
    int64_t lo, hi0, hi1;
    pair_cols(g, ow0, &lo, &hi0, &hi1);
    const bool dok = d >= 0 && d < g->is[0];
    const uint16_t *src = (const uint16_t *)(const void *)v->data;
    for (int64_t r = 0; r < g->hp; ++r)
        for (int64_t iph = 0; iph < g->nph[1]; ++iph) {
            const int64_t h = (oh0 + g->qmin[1] + r) * g->st[1] + g->phase[1][iph];
            uint16_t *r0 = dst + iph * 2 * plane + r * wp, *r1 = r0 + plane;
            if (!dok || h < 0 || h >= g->is[1] || hi0 <= lo) {
                memset(r0, 0, (size_t)wp * sizeof(uint16_t));
                memset(r1, 0, (size_t)wp * sizeof(uint16_t));
                continue;
            }
            memset(r0, 0, (size_t)lo * sizeof(uint16_t));
            memset(r1, 0, (size_t)lo * sizeof(uint16_t));
            const uint16_t *row = src + conv_view_index(v, n, c, d, h, (lo + q0) * 2);
            const int64_t total = 2 * (hi1 - lo) + (hi0 > hi1);
            /* the same row of a channel ahead (pack_slab's rule): the
             * split's loads were its hot spots without */
            const int64_t span = total * (int64_t)sizeof(uint16_t);
            const int64_t ahead = pack_ahead(span, 1);
            if (c + ahead < cend && span <= FAST_PREFETCH_MAX_BYTES)
                ukernel_prefetch_run((const char *)(row + ahead * v->stride[1]), span, 0);
            emin = k->bf16_split2((size_t)total, row, r0 + lo, r1 + lo, emin);
            memset(r0 + hi0, 0, (size_t)(wp - hi0) * sizeof(uint16_t));
            memset(r1 + hi1, 0, (size_t)(wp - hi1) * sizeof(uint16_t));
        }
    return emin;
}

/* pack_slab's layout and elements as bf16 bits, for the BF16 pair path (a
 * BF16 view in mode BF16: the values are copied, not rounded). Returns the
 * smallest exponent field of the slab's nonzero values (k's bf16_minexp). */
static int pack_slab_bf16(const fast_geom *g, const conv_view *v, const conv_ukernels *k, int64_t n,
                          int64_t c0, int64_t od, int64_t oh0, int64_t ow0, uint16_t *dst)
{
    const int64_t *is = g->is;
    const int64_t d0 = od * g->st[0], np = geom_dplanes(g), dmin = geom_dmin(g);
    const uint16_t *src = (const uint16_t *)v->data;
    int emin = 255;
    const bool pair = g->st[2] == 2 && g->nph[2] == 2 && v->stride[4] == 1;
    for (int64_t c = 0; c < g->cin; ++c)
        for (int64_t kd = 0; kd < np; ++kd) {
            const int64_t d = g->drun > 1 ? d0 + dmin + kd : d0 + g->tsh[0][kd];
            if (pair) {
                emin = pack_pair_bf16(g, v, k, n, c0 + c, c0 + g->cin, d, oh0, ow0,
                                      dst + c * g->cs + kd * g->nph[1] * 2 * g->hp * g->wp, emin);
                continue;
            }
            for (int64_t iph = 0; iph < g->nph[1]; ++iph)
                for (int64_t ipw = 0; ipw < g->nph[2]; ++ipw) {
                    const int64_t ph = g->phase[1][iph], pw = g->phase[2][ipw];
                    uint16_t *plane = dst + c * g->cs +
                                      ((kd * g->nph[1] + iph) * g->nph[2] + ipw) * g->hp * g->wp;
                    const int64_t q0 = ow0 + g->qmin[2];
                    int64_t lo, hi;
                    plane_cols(g, ow0, pw, &lo, &hi);
                    const int64_t step = g->st[2] * v->stride[4], lds = g->st[1] * v->stride[3];
                    for (int64_t r = 0; r < g->hp;) {
                        const int64_t h = (oh0 + g->qmin[1] + r) * g->st[1] + ph;
                        uint16_t *row = plane + r * g->wp;
                        if (d < 0 || d >= is[0] || h < 0 || h >= is[1] || hi <= lo) {
                            memset(row, 0, (size_t)g->wp * sizeof(uint16_t));
                            ++r;
                            continue;
                        }
                        const uint16_t *s =
                            src + conv_view_index(v, n, c0 + c, d, h, (lo + q0) * g->st[2] + pw);
                        if (step == 1) { /* a run of rows, padding included (pack_slab's padrows) */
                            int64_t nrows = 1;
                            while (r + nrows < g->hp && h + nrows * g->st[1] < is[1])
                                ++nrows;
                            const int64_t span = (hi - lo) * (int64_t)sizeof(uint16_t);
                            const int64_t ahead = pack_ahead(span, 1);
                            if (ipw == 0 && c + ahead < g->cin && span <= FAST_PREFETCH_MAX_BYTES)
                                for (int64_t i = 0; i < nrows; ++i)
                                    ukernel_prefetch_run(
                                        (const char *)(s + ahead * v->stride[1] + i * lds), span,
                                        0);
                            emin = k->bf16_padrows((size_t)nrows, (size_t)g->wp, (size_t)lo,
                                                   (size_t)hi, s, (size_t)lds, row, (size_t)g->wp,
                                                   emin);
                            r += nrows;
                            continue;
                        }
                        memset(row, 0, (size_t)lo * sizeof(uint16_t));
                        for (int64_t i = 0; i < hi - lo; ++i)
                            row[lo + i] = s[i * step];
                        emin = k->bf16_minexp((size_t)(hi - lo), row + lo, NULL, emin);
                        memset(row + hi, 0, (size_t)(g->wp - hi) * sizeof(uint16_t));
                        ++r;
                    }
                }
        }
    memset(dst + g->cin * g->cs, 0, (size_t)(g->slab_floats - g->cin * g->cs) * sizeof(uint16_t));
    return emin;
}

/* pack_pair's two W phase planes over an input channel pair (pack_slab_pairs,
 * stride 2 in W with both phases used, unit W stride): each channel's input
 * row read once and split by k's bf16_split2, the phases zipped into their
 * planes a chunk at a time; channels [c0, c0 + cin) are the slab's, c the
 * pair's first. Returns emin lowered to the values' smallest exponent field. */
static int pack_pair_pairs(const fast_geom *g, const conv_view *v, const conv_ukernels *k,
                           int64_t n, int64_t c0, int64_t cin, int64_t c, bool has_hi, int64_t d,
                           int64_t oh0, int64_t ow0, uint32_t *dst, int emin)
{
    enum { CHUNK = 256 };
    const int64_t wp = g->wp, q0 = ow0 + g->qmin[2], plane = g->hp * wp;
    int64_t lo, hi0, hi1;
    pair_cols(g, ow0, &lo, &hi0, &hi1);
    const bool dok = d >= 0 && d < g->is[0];
    const uint16_t *src = (const uint16_t *)(const void *)v->data;
    uint16_t e0[CHUNK], o0[CHUNK], e1[CHUNK], o1[CHUNK];
    for (int64_t r = 0; r < g->hp; ++r)
        for (int64_t iph = 0; iph < g->nph[1]; ++iph) {
            const int64_t h = (oh0 + g->qmin[1] + r) * g->st[1] + g->phase[1][iph];
            uint32_t *r0 = dst + iph * 2 * plane + r * wp, *r1 = r0 + plane;
            if (!dok || h < 0 || h >= g->is[1] || hi0 <= lo) {
                memset(r0, 0, (size_t)wp * sizeof(uint32_t));
                memset(r1, 0, (size_t)wp * sizeof(uint32_t));
                continue;
            }
            memset(r0, 0, (size_t)lo * sizeof(uint32_t));
            memset(r1, 0, (size_t)lo * sizeof(uint32_t));
            const uint16_t *s0 = src + conv_view_index(v, n, c, d, h, (lo + q0) * 2);
            const uint16_t *s1 = s0 + v->stride[1];
            const int64_t total = 2 * (hi1 - lo) + (hi0 > hi1); /* source values */
            /* the same row of the pairs ahead (pack_slab_pairs) */
            const int64_t span = total * (int64_t)sizeof(uint16_t);
            const int64_t ahead = pack_ahead(span, 2); /* pairs */
            if (c - c0 + 2 * ahead < cin && span <= FAST_PREFETCH_MAX_BYTES) {
                const uint16_t *nx = s0 + 2 * ahead * v->stride[1];
                ukernel_prefetch_run((const char *)nx, span, 0);
                if (c - c0 + 2 * ahead + 1 < cin)
                    ukernel_prefetch_run((const char *)(nx + v->stride[1]), span, 0);
            }
            for (int64_t j = 0; j < total; j += 2 * CHUNK) {
                const int64_t cnt = min64(2 * CHUNK, total - j), ne = (cnt + 1) / 2, no = cnt / 2;
                emin = k->bf16_split2((size_t)cnt, s0 + j, e0, o0, emin);
                if (has_hi) emin = k->bf16_split2((size_t)cnt, s1 + j, e1, o1, emin);
                emin =
                    k->bf16_zip(1, (size_t)ne, e0, has_hi ? e1 : NULL, 0, r0 + lo + j / 2, 0, emin);
                emin =
                    k->bf16_zip(1, (size_t)no, o0, has_hi ? o1 : NULL, 0, r1 + lo + j / 2, 0, emin);
            }
            memset(r0 + hi0, 0, (size_t)(wp - hi0) * sizeof(uint32_t));
            memset(r1 + hi1, 0, (size_t)(wp - hi1) * sizeof(uint32_t));
        }
    return emin;
}

/* 32-bit words of a pack_slab_pairs slab of g: half pack_slab's floats */
static int64_t pair_slab_words(const fast_geom *g)
{
    return round_up64((g->cin + 1) / 2 * g->cs + CONV_UKERNEL_SLACK, 16);
}

/* pack_slab's layout over input channel pairs, for the data pass's BF16
 * pairs (a BF16 view in mode BF16: bits copied): word (cp, kd, ph, pw, r,
 * col) at dst[cp*cs + ...] holds channel c0 + 2cp in its low half and c0 +
 * 2cp + 1 (+0 past cin) in its high half, cs words per pair. Returns the
 * smallest exponent field of the slab's nonzero values (bf16_minexp). */
static int pack_slab_pairs(const fast_geom *g, const conv_view *v, const conv_ukernels *k,
                           int64_t n, int64_t c0, int64_t od, int64_t oh0, int64_t ow0,
                           uint32_t *dst)
{
    enum { CHUNK = 256 }; /* strided rows: gathered a chunk at a time, then zipped */
    const int64_t *is = g->is;
    const int64_t d0 = od * g->st[0], np = geom_dplanes(g), dmin = geom_dmin(g),
                  ncp = (g->cin + 1) / 2;
    const uint16_t *src = (const uint16_t *)(const void *)v->data;
    int emin = 255;
    const bool pair = g->st[2] == 2 && g->nph[2] == 2 && v->stride[4] == 1;
    for (int64_t cp = 0; cp < ncp; ++cp) {
        const bool has_hi = 2 * cp + 1 < g->cin;
        for (int64_t kd = 0; kd < np; ++kd) {
            const int64_t d = g->drun > 1 ? d0 + dmin + kd : d0 + g->tsh[0][kd];
            if (pair) {
                emin = pack_pair_pairs(g, v, k, n, c0, g->cin, c0 + 2 * cp, has_hi, d, oh0, ow0,
                                       dst + cp * g->cs + kd * g->nph[1] * 2 * g->hp * g->wp, emin);
                continue;
            }
            for (int64_t iph = 0; iph < g->nph[1]; ++iph)
                for (int64_t ipw = 0; ipw < g->nph[2]; ++ipw) {
                    const int64_t ph = g->phase[1][iph], pw = g->phase[2][ipw];
                    uint32_t *plane = dst + cp * g->cs +
                                      ((kd * g->nph[1] + iph) * g->nph[2] + ipw) * g->hp * g->wp;
                    const int64_t q0 = ow0 + g->qmin[2];
                    int64_t lo, hi;
                    plane_cols(g, ow0, pw, &lo, &hi);
                    const int64_t step = g->st[2] * v->stride[4];
                    /* whole input rows following each other in v and in the
                     * slab: a run of rows is one row for the zip (pack_slab's
                     * "whole"); other unit-step rows inside the source go
                     * to the zip as a run of rows of the padded grid */
                    const bool whole = g->st[1] == 1 && g->st[2] == 1 && q0 == 0 && hi == g->wp &&
                                       g->wp == is[2] && v->stride[4] == 1 && v->stride[3] == is[2];
                    for (int64_t r = 0, nrows = 1; r < g->hp; r += nrows) {
                        const int64_t h = (oh0 + g->qmin[1] + r) * g->st[1] + ph;
                        uint32_t *row = plane + r * g->wp;
                        nrows = 1;
                        if (d < 0 || d >= is[0] || h < 0 || h >= is[1] || hi <= lo) {
                            memset(row, 0, (size_t)g->wp * sizeof(uint32_t));
                            continue;
                        }
                        while (step == 1 && r + nrows < g->hp && h + nrows * g->st[1] < is[1])
                            ++nrows;
                        const int64_t w0 = (lo + q0) * g->st[2] + pw;
                        const uint16_t *s0 = src + conv_view_index(v, n, c0 + 2 * cp, d, h, w0);
                        const uint16_t *s1 = has_hi ? s0 + v->stride[1] : NULL;
                        /* the padding columns of the run's rows (no call:
                         * one or two words a row) */
                        for (int64_t q = 0; q < nrows; ++q) {
                            uint32_t *pr = row + q * g->wp;
                            for (int64_t j = 0; j < lo; ++j)
                                pr[j] = 0;
                            for (int64_t j = hi; j < g->wp; ++j)
                                pr[j] = 0;
                        }
                        /* the zip's rows: whole rows are one (a row's
                         * masked tail each would cost), others the run */
                        const int64_t zrows = whole ? 1 : nrows,
                                      len = whole ? (nrows - 1) * g->wp + hi - lo : hi - lo,
                                      ss = g->st[1] * v->stride[3];
                        /* the same rows of the pairs ahead, as pack_slab asks
                         * for its channels ahead (short rows far apart) */
                        const int64_t span =
                            ((zrows - 1) * ss + (len - 1) * step + 1) * (int64_t)sizeof(uint16_t);
                        const int64_t ahead = pack_ahead(span, 2); /* pairs */
                        if (ipw == 0 && 2 * (cp + ahead) < g->cin && span <= FAST_PREFETCH_MAX_BYTES) {
                            const uint16_t *nx = s0 + 2 * ahead * v->stride[1];
                            ukernel_prefetch_run((const char *)nx, span, 0);
                            if (2 * (cp + ahead) + 1 < g->cin)
                                ukernel_prefetch_run((const char *)(nx + v->stride[1]), span, 0);
                        }
                        if (step == 1) {
                            emin = k->bf16_zip((size_t)zrows, (size_t)len, s0, s1, (size_t)ss,
                                               row + lo, (size_t)g->wp, emin);
                        } else {
                            uint16_t t0[CHUNK], t1[CHUNK];
                            for (int64_t j0 = lo; j0 < hi; j0 += CHUNK) {
                                const int64_t cnt = min64(CHUNK, hi - j0);
                                for (int64_t i = 0; i < cnt; ++i) {
                                    t0[i] = s0[(j0 - lo + i) * step];
                                    t1[i] = has_hi ? s1[(j0 - lo + i) * step] : 0;
                                }
                                emin = k->bf16_zip(1, (size_t)cnt, t0, has_hi ? t1 : NULL, 0,
                                                   row + j0, 0, emin);
                            }
                        }
                    }
                }
        }
    }
    memset(dst + ncp * g->cs, 0, (size_t)(pair_slab_words(g) - ncp * g->cs) * sizeof(uint32_t));
    return emin;
}

/* The geometry's part of slab_in_place: one plane per channel, no phase
 * split, unit W stride; several rows only as whole input rows. */
static bool geom_reads_in_place(const fast_geom *g)
{
    return g->ntap[0] == 1 && g->nph[1] == 1 && g->nph[2] == 1 && g->st[2] == 1 &&
           (g->hp == 1 || (g->st[1] == 1 && g->wp == g->is[2]));
}

/* The slab of pack_slab read in place: possible for an fp32 view with unit W
 * stride when nothing is rounded, there is one plane per channel (no depth
 * taps, no phase split) and the block lies inside the input: either a single
 * row (1-D layouts), or whole rows (wp == W) of a view whose row stride is
 * wp, so slab row r is input row h + r. Then *x points at slab element (c=0,
 * r=0, col=0) and *cs is the view's channel stride. overread: the reader (the
 * 'conv' kernel) reads up to 16 floats past the last element, which must then
 * still lie in the same row (single row) or before the view's last element
 * (rows). */
static bool slab_in_place(const fast_geom *g, const conv_view *v, conv_mode mode, int64_t n,
                          int64_t c0, int64_t od, int64_t oh0, int64_t ow0, bool overread,
                          const float **x, int64_t *cs)
{
    if (v->dtype != ACL_FLOAT || mode != CONV_MODE_F32 || v->stride[4] != 1) return false;
    if (!geom_reads_in_place(g)) return false;
    const int64_t d = od * g->st[0] + g->tsh[0][0];
    const int64_t h = (oh0 + g->qmin[1]) * g->st[1] + g->phase[1][0];
    const int64_t w = ow0 + g->qmin[2] + g->phase[2][0];
    if (d < 0 || d >= g->is[0] || h < 0 || w < 0) return false;
    if (g->hp == 1) {
        if (h >= g->is[1] || w + g->wp + (overread ? 16 : 0) > g->is[2]) return false;
    } else {
        if (g->st[1] != 1 || w != 0 || g->wp != g->is[2] || v->stride[3] != g->wp) return false;
        if (h + g->hp > g->is[1]) return false;
        if (overread && (h + g->hp) * g->wp + 16 > g->is[1] * g->wp) {
            /* past the plane: allowed while it stays before the view's last
             * element (the storage holds everything up to it); the lanes it
             * feeds are dropped */
            for (int i = 0; i < 5; ++i)
                if (v->stride[i] < 0) return false;
            const int64_t end = conv_view_index(v, n, c0 + g->cin - 1, d, h + g->hp - 1, g->wp - 1) + 16;
            if (end > conv_view_index(v, v->dim[0] - 1, v->dim[1] - 1, v->dim[2] - 1, v->dim[3] - 1, v->dim[4] - 1))
                return false;
        }
    }
    *x = (const float *)v->data + conv_view_index(v, n, c0, d, h, w);
    *cs = v->stride[1];
    return true;
}

/* ---- workspace ----------------------------------------------------------- */

static bool ws_take(uint64_t *size, int64_t floats, uint64_t *offset)
{
    size_t bytes, end;
    if (floats < 0 || !checked_mul_size((size_t)floats, sizeof(float), &bytes)) return false;
    *offset = aclconv_round_up((size_t)*size, ACLCONV_ALIGN);
    if (!checked_add_size((size_t)*offset, bytes, &end)) return false;
    *size = end;
    return true;
}

static int plan_slots(void)
{
    int t = pool_num_threads(); /* sizes scratch only; never the partition */
    return t < 1 ? 1 : t;
}

/* ===========================================================================
 * Data pass
 * ======================================================================== */

typedef struct data_state {
    bool bwd; /* D: input dy, weights transposed, one sub-problem per output phase */
    bool one_row; /* few output channels per group: the MR = 1 kernel */
    bool phase_rows; /* D: output phases as kernel rows (see data_geom_phase_rows) */
    bool cv;         /* the channel-vector kernel (convcv): tiles are runs of one output row */
    bool round_blocks; /* result rounding per task over whole rows (data_rounds_block) */
    /* fp32 input the mode rounds, read in place where it can be: the 'conv'
     * kernel rounds it as it loads (data_slab) */
    bool kernel_rounds;
    /* BF16 pairs (cv, BF16 input and weights in mode BF16): the slab and
     * the weight panels hold input channel pairs (docs/kernels.md, "BF16
     * pairs"); pairs_exact: the fused multiply-add kernel (ACLCONV_BF16_DOT) */
    bool pairs, pairs_exact;
    aclconvIsa isa;
    int mr, nr;
    /* results not stored in place: kernel tiles side by side in the tile
     * buffer (rows of tile_ld floats), stored together */
    int64_t store_tiles, tile_ld;
    int64_t nsub; /* output phases (D with stride), else 1 */
    int slots;
    int64_t slab_floats, tile_floats; /* maxima over sub-problems */
    int64_t wpk_floats;               /* all sub-problems */
    int64_t tasks_d, tasks_rb, tasks_wb; /* task grid per (n, group): planes, row / column blocks */
    int64_t drun; /* output planes per task: a depth run (one sub-problem only), else 1 */
    uint64_t wpk_off, slab_off, tile_off;
} data_state;

_Static_assert(sizeof(data_state) <= CONV_IMPL_STATE_BYTES, "state too large");

/* Tap shifts are int32: keep |k*dil| + |pad| far below 2^31. */
static bool shifts_fit(const conv_problem *p)
{
    const int64_t lim = (int64_t)1 << 30;
    for (int i = 0; i < 3; ++i)
        if (p->dil[i] > lim / FAST_MAX_K || p->pad[i] > lim || p->pad[i] < -lim) return false;
    return true;
}

/* Taps k of a regular access: input o*st + k*dil - pad. */
static void taps_regular(fast_geom *g, int i, int64_t k, int64_t dil, int64_t pad)
{
    g->ntap[i] = k;
    for (int64_t j = 0; j < k; ++j) {
        g->tk[i][j] = (int32_t)j;
        g->tsh[i][j] = (int32_t)(j * dil - pad);
    }
}

/* Output phases of the data pass (product of the strides for D); more than
 * FAST_MAX_SUBS, without overflowing, when a stride exceeds FAST_MAX_STRIDE. */
static int64_t data_nsub(const conv_problem *p)
{
    if (p->data_dir != CONV_DIR_BWD_DATA) return 1;
    int64_t n = 1;
    for (int i = 0; i < 3; ++i) {
        if (p->stride[i] < 1 || p->stride[i] > FAST_MAX_STRIDE) return FAST_MAX_SUBS + 1;
        n *= p->stride[i]; /* <= 16^3 */
    }
    return n;
}

/* The H and W shifts of every output phase of a D pass together (qspan):
 * phase rho's tap k has shift (rho + pad - k*dil) / s where that divides. */
static void data_union_shifts(const conv_problem *p, fast_geom *g)
{
    g->qspan = true;
    for (int i = 1; i < 3; ++i) {
        const int64_t s = p->stride[i];
        g->qlo[i] = INT64_MAX;
        g->qhi[i] = INT64_MIN;
        for (int64_t rho = 0; rho < min64(s, p->xs[i]); ++rho)
            for (int64_t k = 0; k < p->ks[i]; ++k) {
                const int64_t v = rho + p->pad[i] - k * p->dil[i];
                if (floor_div(v, s) * s != v) continue;
                g->qlo[i] = min64(g->qlo[i], floor_div(v, s));
                g->qhi[i] = max64(g->qhi[i], floor_div(v, s));
            }
    }
}

/* Whether sub-problems a and b pack the same slab for the same block. */
static bool same_slab(const fast_geom *a, const fast_geom *b)
{
    if (a->hp != b->hp || a->wp != b->wp || a->cs != b->cs || a->ntap[0] != b->ntap[0] ||
        a->drun != b->drun)
        return false;
    for (int i = 0; i < 3; ++i)
        if (a->qmin[i] != b->qmin[i] || a->st[i] != b->st[i] || a->nph[i] != b->nph[i])
            return false;
    for (int i = 1; i < 3; ++i)
        for (int64_t j = 0; j < a->nph[i]; ++j)
            if (a->phase[i][j] != b->phase[i][j]) return false;
    for (int64_t kd = 0; kd < a->ntap[0]; ++kd)
        if (a->tsh[0][kd] != b->tsh[0][kd]) return false;
    return true;
}

/* Longest depth run data_pick_drun tries. */
#define FAST_MAX_DRUN 8

/* The depth run of a data pass with depth taps and unit strides (one phase
 * plane per depth): the run length (1, 2, 4 or 8 output planes) whose slab
 * packs the fewest input rows per output row, its planes and its row halo
 * counted (a longer run's slab holds more planes, so fewer rows fit the
 * budget). conv3d_unet's dx: 3 taps, 64 channels of 34 x 34: a plane per
 * tap and 16-row blocks pack 3.4 input rows per output row, runs of 4 with
 * 8-row blocks 1.9. */
static void data_pick_drun(fast_geom *g)
{
    g->drun = 0;
    if (g->ntap[0] < 2 || g->os[0] < 2 || g->st[0] != 1 || g->st[1] != 1 || g->st[2] != 1) return;
    int64_t lo = g->tsh[0][0], hi = g->tsh[0][0];
    for (int64_t kd = 1; kd < g->ntap[0]; ++kd) {
        lo = min64(lo, g->tsh[0][kd]);
        hi = max64(hi, g->tsh[0][kd]);
    }
    double best = 0;
    int64_t pick = 0;
    for (int64_t run = 1; run <= FAST_MAX_DRUN && run <= g->os[0]; run *= 2) {
        fast_geom t = *g;
        t.drun = run > 1 ? run : 0;
        t.dspan = hi - lo + 1;
        if (geom_layout(&t, FAST_MIN_TASKS, FAST_SLAB_FLOATS) != NULL) continue;
        const double rows =
            (double)geom_dplanes(&t) * (double)(t.rb + t.qext[1]) / (double)(run * t.rb);
        if (pick == 0 || rows < best) {
            best = rows;
            pick = run;
        }
    }
    if (pick > 1) {
        g->drun = pick;
        g->dspan = hi - lo + 1;
    }
}

/* The forward convolution of sub-problem sub of the data pass. F: x with the
 * problem's taps. D: output phase rho (per dim) of gradInput, i = i'*s + rho:
 * a stride-1 correlation of dy over the taps k with (rho + pad - k*dil) % s
 * == 0, at shift (rho + pad - k*dil) / s. *empty: the sub-problem has no
 * output position, or no tap (its outputs are zero). */
static const char *data_geom(const conv_problem *p, int64_t sub, const fast_geom *lead,
                             fast_geom *g, bool *empty)
{
    const bool bwd = p->data_dir == CONV_DIR_BWD_DATA;
    memset(g, 0, sizeof *g);
    *empty = false;
    g->n = p->n;
    g->g = p->g;
    g->cin = bwd ? p->og : p->cg;
    g->cout = bwd ? p->cg : p->og;
    if (g->cin < 1 || g->cout < 1) return "no channels";
    if (smul(g->cin, g->cout) < FAST_MIN_CHANNEL_PRODUCT) return "too few channels per group (depthwise)";
    int64_t rho[3] = {0, 0, 0};
    if (bwd) {
        rho[2] = sub % p->stride[2];
        rho[1] = sub / p->stride[2] % p->stride[1];
        rho[0] = sub / p->stride[2] / p->stride[1];
    }
    for (int i = 0; i < 3; ++i) {
        if (p->ks[i] > FAST_MAX_K) return "kernel larger than the fast engine supports";
        if (p->stride[i] > FAST_MAX_STRIDE) return "stride larger than the fast engine supports";
        g->ks[i] = p->ks[i];
        if (!bwd) {
            g->is[i] = p->xs[i];
            g->os[i] = p->ys[i];
            g->st[i] = p->stride[i];
            g->ostep[i] = 1;
            g->ooff[i] = 0;
            taps_regular(g, i, p->ks[i], p->dil[i], p->pad[i]);
            continue;
        }
        const int64_t s = p->stride[i];
        g->is[i] = p->ys[i];
        g->os[i] = p->xs[i] > rho[i] ? ceil_div(p->xs[i] - rho[i], s) : 0;
        g->st[i] = 1;
        g->ostep[i] = s;
        g->ooff[i] = rho[i];
        g->ntap[i] = 0;
        for (int64_t k = 0; k < p->ks[i]; ++k) {
            const int64_t v = rho[i] + p->pad[i] - k * p->dil[i];
            if (floor_div(v, s) * s != v) continue;
            g->tk[i][g->ntap[i]] = (int32_t)k;
            g->tsh[i][g->ntap[i]++] = (int32_t)floor_div(v, s);
        }
    }
    for (int i = 0; i < 3; ++i)
        if (g->os[i] < 1 || g->ntap[i] < 1) {
            *empty = true;
            return NULL;
        }
    if (lead) {
        g->force_rb = lead->rb;
        g->force_wb = lead->wb;
    }
    if (bwd && data_nsub(p) > 1 && p->stride[0] == 1) data_union_shifts(p, g);
    /* W phases interleave within output rows: each line of gradInput is
     * written by several phases of the same task, so its output block
     * should stay in L2 until the last phase has written it */
    g->balance_rows = true;
    if (bwd && p->stride[2] > 1)
        g->max_rb = max64(1, FAST_OUT_BLOCK_FLOATS / smul(smul(g->cout, p->stride[1]), p->xs[2]));
    if (data_nsub(p) == 1) data_pick_drun(g);
    return geom_layout(g, FAST_MIN_TASKS, FAST_SLAB_FLOATS);
}

/* D with strides as one sub-problem whose output rows are (channel, output
 * phase) pairs, row m = co*nsub + sub (phase sub as in data_geom): per dim the
 * taps are the union of the phases' shifts, ascending; a phase without a tap
 * at a shift gets a zero weight there (data_pack_weights_phase_rows). Output
 * position o of a row is gradInput o*s + rho, dropped when past the input. */
static const char *data_geom_phase_rows(const conv_problem *p, fast_geom *g)
{
    memset(g, 0, sizeof *g);
    g->n = p->n;
    g->g = p->g;
    g->cin = p->og;
    g->cout = p->cg * data_nsub(p);
    for (int i = 0; i < 3; ++i) {
        const int64_t s = p->stride[i];
        if (p->ks[i] > FAST_MAX_K) return "kernel larger than the fast engine supports";
        g->ks[i] = p->ks[i];
        g->is[i] = p->ys[i];
        g->os[i] = ceil_div(p->xs[i], s); /* phase 0 has the most positions */
        g->st[i] = 1;
        g->ostep[i] = s;
        g->ooff[i] = 0;
        /* every tap k belongs to one phase, so the union has at most ks shifts */
        bool seen[2 * FAST_MAX_K + 1] = {false};
        int64_t lo = INT64_MAX;
        for (int64_t rho = 0; rho < min64(s, p->xs[i]); ++rho)
            for (int64_t k = 0; k < p->ks[i]; ++k) {
                const int64_t v = rho + p->pad[i] - k * p->dil[i];
                if (floor_div(v, s) * s == v) lo = min64(lo, floor_div(v, s));
            }
        for (int64_t rho = 0; rho < min64(s, p->xs[i]); ++rho)
            for (int64_t k = 0; k < p->ks[i]; ++k) {
                const int64_t v = rho + p->pad[i] - k * p->dil[i];
                const int64_t q = floor_div(v, s);
                if (q * s != v) continue;
                if (q - lo > 2 * FAST_MAX_K) return "output phases too far apart for the fast engine";
                seen[q - lo] = true;
            }
        g->ntap[i] = 0;
        for (int64_t q = 0; q <= 2 * FAST_MAX_K; ++q)
            if (seen[q]) {
                if (g->ntap[i] == FAST_MAX_K) return "kernel larger than the fast engine supports";
                g->tk[i][g->ntap[i]] = -1; /* no single weight tap: per phase */
                g->tsh[i][g->ntap[i]++] = (int32_t)(q + lo);
            }
        if (g->ntap[i] < 1) return "no taps";
    }
    g->balance_rows = true;
    if (p->stride[2] > 1)
        g->max_rb = max64(1, FAST_OUT_BLOCK_FLOATS / smul(smul(p->cg, p->stride[1]), p->xs[2]));
    return geom_layout(g, FAST_MIN_TASKS, FAST_SLAB_FLOATS);
}

/* Whether the data pass of p runs its output phases as rows: D with strides,
 * few channels (the one-row kernel otherwise) and few zero taps added. */
static bool data_use_phase_rows(const conv_problem *p)
{
    if (p->data_dir != CONV_DIR_BWD_DATA || p->cg > FAST_ONE_ROW_MAX_OUT) return false;
    const int64_t nsub = data_nsub(p);
    if (nsub <= 1 || nsub > FAST_MAX_SUBS || !shifts_fit(p)) return false;
    fast_geom g;
    if (data_geom_phase_rows(p, &g) != NULL) return false;
    int64_t real = 1; /* taps summed over the phases: each k is in one phase per dim */
    for (int i = 0; i < 3; ++i) {
        int64_t used = 0;
        for (int64_t k = 0; k < p->ks[i]; ++k) {
            const int64_t rho = ((k * p->dil[i] - p->pad[i]) % p->stride[i] + p->stride[i]) % p->stride[i];
            used += rho < p->xs[i];
        }
        real *= used;
    }
    return smul(nsub, g.nt) <= smul(FAST_PHASE_ROWS_MAX_WASTE, real);
}

/* The sub-problems of the data pass; the first non-empty one leads the
 * blocking of the others, so a task computes every phase of one block. */
static const char *data_subs(const conv_problem *p, fast_geom *subs, bool *empty, int64_t *nsub)
{
    const bool phase_rows = data_use_phase_rows(p);
    *nsub = phase_rows ? 1 : data_nsub(p);
    if (*nsub > FAST_MAX_SUBS) return "too many output phases (stride) for the fast engine";
    if (!shifts_fit(p)) return "dilation or padding too large for the fast engine";
    const fast_geom *lead = NULL;
    for (int64_t sub = 0; sub < *nsub; ++sub) {
        empty[sub] = false;
        const char *why = phase_rows ? data_geom_phase_rows(p, &subs[sub])
                                     : data_geom(p, sub, lead, &subs[sub], &empty[sub]);
        if (why) return why;
        if (!lead && !empty[sub]) lead = &subs[sub];
        if (empty[sub]) continue;
        /* packed weights (all phases: at most the weight tensor, MR-padded)
         * and the task grid stay far from overflow */
        const fast_geom *g = &subs[sub];
        if (smul(smul(smul(g->g, g->cout + CONV_UKERNEL_MAX_MR), g->cin), g->nt) > FAST_MAX_FLOATS ||
            smul(smul(smul(g->n, g->g), smul(g->os[0], g->nrb)), g->nwb) > FAST_MAX_FLOATS)
            return "sizes too large for the fast engine";
    }
    return NULL;
}

static const char *data_why_not(const conv_problem *p, aclconvIsa isa)
{
    fast_geom subs[FAST_MAX_SUBS];
    bool empty[FAST_MAX_SUBS];
    int64_t nsub;
    return data_subs(p, subs, empty, &nsub);
}

/* The channel-vector kernel wherever the ISA has one and the output channels
 * of a group fill its vectors (at most a quarter of the lanes idle). Counted
 * in blocks of 16: the kernels skip an idle half of their MR (AVX-512's 32
 * rows are two 16-channel halves), so 48 channels waste nothing.
 * ACLCONV_FAST_CV=0 keeps the spatial-vector kernel, =1 takes the channel-
 * vector one for any channel count (tests). */
static bool data_use_cv(const conv_problem *p, const data_state *st, const conv_ukernels *k)
{
    const char *e = getenv("ACLCONV_FAST_CV");
    if ((e && e[0] == '0') || !k->convcv || st->phase_rows || st->one_row) return false;
    if (e && e[0] == '1') return true;
    const int64_t out = st->bwd ? p->cg : p->og;
    const int64_t block = k->convcv_mr < 16 ? k->convcv_mr : 16;
    return out % block == 0 || out >= 4 * block;
}

/* Whether the FLOAT16 / BF16 modes' result rounding of a task waits until
 * every output phase of its block is stored, and then runs over whole rows
 * (round_block): the channel-vector kernel's in-place results when the W
 * output phases interleave in a dense row. Rounded phase by phase, each
 * phase's results are strided: conv_round_result element by element made
 * r50_c3_3x3s2's FLOAT16-mode dx 1.71-1.76x mode 0's CPU time, a gather into
 * the rounding kernel still 1.2x. */
static bool data_rounds_block(const conv_problem *p, const data_state *st)
{
    const conv_view *out = &p->grad_input;
    return st->cv && !st->phase_rows && conv_result_round_kind(p->mode) != F32_ROUND_NONE &&
           out->dtype == ACL_FLOAT && out->stride[4] == 1 && p->stride[2] > 1 && st->bwd;
}

/* Whether the data pass of st runs on BF16 pairs (docs/kernels.md, "BF16
 * pairs"); st's kernel shape is planned. */
static bool data_use_pairs(const conv_problem *p, const data_state *st, const conv_ukernels *k,
                           cpu_bf16_dot_use dot)
{
    const conv_view *in = st->bwd ? &p->y : &p->x;
    return dot != CPU_BF16_DOT_OFF && st->cv && p->mode == CONV_MODE_BF16 &&
           in->dtype == ACL_BF16 && p->w.dtype == ACL_BF16 && k->bf16_convcv &&
           k->bf16_convcv_mr == st->mr && k->bf16_convcv_nr == st->nr;
}

/* The reduction rows a kernel call of g runs over: input channels, or with
 * st->pairs channel pairs (32-bit words holding two bf16) */
static int64_t data_chans(const data_state *st, const fast_geom *g)
{
    return st->pairs ? (g->cin + 1) / 2 : g->cin;
}

/* Floats (pair words) of a packed weight panel of g: its [row][tap][m] */
static int64_t data_panel_floats(const data_state *st, const fast_geom *g)
{
    return data_chans(st, g) * g->nt * st->mr;
}

/* The data pass's plan over its sub-problems (data_subs' results).
 * allow_pairs: BF16 pairs may be planned (not for the streamed weights
 * pass's data slabs: it has no redo for a failed guard). */
static bool data_plan_subs(const conv_problem *p, aclconvIsa isa, const fast_geom *subs,
                           const bool *empty, int64_t nsub, bool allow_pairs, data_state *st,
                           uint64_t *bytes)
{
    const conv_ukernels *k = conv_ukernels_for(isa);
    st->bwd = p->data_dir == CONV_DIR_BWD_DATA;
    st->isa = isa;
    st->phase_rows = data_use_phase_rows(p);
    st->one_row = !st->phase_rows && (st->bwd ? p->cg : p->og) <= FAST_ONE_ROW_MAX_OUT;
    st->cv = data_use_cv(p, st, k);
    st->round_blocks = data_rounds_block(p, st);
    st->mr = st->cv ? k->convcv_mr : st->one_row ? 1 : k->conv_mr;
    st->nr = st->cv ? k->convcv_nr : st->one_row ? k->conv1_nr : k->conv_nr;
    const cpu_bf16_dot_use dot = cpu_bf16_dot(isa);
    st->pairs = allow_pairs && data_use_pairs(p, st, k, dot);
    st->pairs_exact = st->pairs && dot == CPU_BF16_DOT_EXACT;
    st->slots = plan_slots();
    /* channel-vector tiles are short (14-16 positions): sixteen of them per
     * store, so a 16-bit gradInput row is narrowed in runs of up to 224 (the
     * per-row work of a store was 13% of r50_c4_1x1's bf16 dx with four
     * tiles a store, -10% CPU time with sixteen: its whole 196-position
     * plane; +5% with one) */
    st->store_tiles = st->cv ? 16 : 1;
    st->tile_ld = st->store_tiles * st->nr;
    st->tile_floats = round_up64((int64_t)st->mr * st->tile_ld, 16);
    st->nsub = nsub;
    for (int64_t sub = 0; sub < st->nsub; ++sub) {
        const fast_geom *g = &subs[sub];
        if (empty[sub]) continue;
        st->slab_floats = max64(st->slab_floats, st->pairs ? pair_slab_words(g) : g->slab_floats);
        st->wpk_floats += smul(smul(g->g, ceil_div(g->cout, st->mr)), data_panel_floats(st, g));
        st->drun = max64(st->drun, geom_drun(g)); /* drun > 1: the only sub-problem */
        st->tasks_d = max64(st->tasks_d, ceil_div(g->os[0], geom_drun(g)));
        st->tasks_rb = max64(st->tasks_rb, g->nrb);
        st->tasks_wb = max64(st->tasks_wb, g->nwb);
    }
    /* One channel block per sub-problem and few taps: each input element is
     * read by one kernel call per tap, from memory when read in place, and
     * rounding it there costs nothing (conv1d_wav_k10s5's gradInput in
     * cubeMathType 1: 2.9 -> 1.25 ms, mode 0 1.5), where a rounded copy is a
     * second pass over it. Many channel blocks or taps read a packed,
     * rounded slab: the rounding would be repeated for each. */
    st->kernel_rounds = !st->cv && p->mode != CONV_MODE_F32;
    for (int64_t sub = 0; sub < st->nsub; ++sub)
        if (!empty[sub] && (subs[sub].cout > st->mr || subs[sub].nt > FAST_KERNEL_ROUND_TAPS))
            st->kernel_rounds = false;
    uint64_t size = 0;
    int64_t slabs, tiles;
    if (!checked_mul_i64(st->slab_floats, st->slots, &slabs) ||
        !checked_mul_i64(st->tile_floats, st->slots, &tiles))
        return false;
    if (!ws_take(&size, st->wpk_floats, &st->wpk_off) || !ws_take(&size, slabs, &st->slab_off) ||
        !ws_take(&size, tiles, &st->tile_off))
        return false;
    *bytes = size;
    return true;
}

static bool data_plan(const conv_problem *p, aclconvIsa isa, data_state *st, uint64_t *bytes)
{
    fast_geom subs[FAST_MAX_SUBS];
    bool empty[FAST_MAX_SUBS];
    int64_t nsub;
    return data_subs(p, subs, empty, &nsub) == NULL &&
           data_plan_subs(p, isa, subs, empty, nsub, true, st, bytes);
}

typedef struct data_run {
    const conv_problem *p;
    const data_state *st;
    f32_conv_ukernel_fn conv;
    f32_convcv_ukernel_fn convcv;
    const conv_ukernels *k;
    const conv_view *in, *out;
    /* the rounding in's values still need: the mode's, or none when in is
     * a copy the mode's rounding already went into (the streamed pass's
     * image copies) */
    conv_mode in_mode;
    float *wpk, *slabs, *tiles;
    int64_t nsub;
    fast_geom subs[FAST_MAX_SUBS];
    bool empty[FAST_MAX_SUBS];
    int64_t ncb[FAST_MAX_SUBS], cbb[FAST_MAX_SUBS]; /* channel blocks of mr; blocks per sweep */
    int64_t wpk_at[FAST_MAX_SUBS], toff_at[FAST_MAX_SUBS]; /* where each sub's weights / taps start */
    const fast_geom *g; /* data_pack_weights / data_zero_task: the sub being prepared */
    float *wpk_sub;
    int64_t ncb_sub;
    ptrdiff_t toff[FAST_MAX_TAPS];
    /* st->pairs: the kernel of this run; the weights' smallest exponent
     * field (atomic minimum over the packing tasks); *tiny set once a
     * block fails the vdpbf16ps kernel's guard (data_run_pass redoes) */
    bf16_convcv_ukernel_fn pairconv;
    bool guard; /* pairconv is the vdpbf16ps kernel: blocks are checked */
    atomic_int *wmin, *tiny;
} data_run;

/* Weight of tap (jd, jh, jw) of phase-rows row `row` (channel co, phase sub)
 * for dy channel ci of group grp: w[ci][co][k] with k*dil = rho + pad - q*s
 * per dim, or 0 when the phase has no tap at that shift. */
static float phase_rows_weight(const data_run *r, const fast_geom *g, int64_t grp, int64_t ci,
                               int64_t row, const int64_t j[3])
{
    const conv_problem *p = r->p;
    const int64_t nsub = g->cout / p->cg, co = row / nsub;
    int64_t sub = row % nsub, k[3];
    for (int i = 2; i >= 0; --i) {
        const int64_t rho = sub % p->stride[i];
        sub /= p->stride[i];
        const int64_t v = rho + p->pad[i] - g->tsh[i][j[i]] * p->stride[i];
        if (v % p->dil[i] != 0 || v / p->dil[i] < 0 || v / p->dil[i] >= p->ks[i]) return 0.0f;
        k[i] = v / p->dil[i];
    }
    const conv_view *w = &p->w;
    const int64_t idx = conv_view_index(w, grp * g->cin + ci, co, k[0], k[1], k[2]);
    return w->dtype == ACL_FLOAT && p->mode == CONV_MODE_F32
               ? ((const float *)w->data)[idx]
               : conv_round_operand(load_as_f32(w->data, w->dtype, idx), p->mode);
}

/* Whether the taps of g are every weight tap in order (tk[j] == j) and a
 * channel's taps lie one after the other in w: panel rows are then
 * transposes of w's [channel][tap] blocks. */
static bool taps_dense(const fast_geom *g, const conv_view *w)
{
    for (int i = 0; i < 3; ++i) {
        if (g->ntap[i] != g->ks[i]) return false;
        for (int64_t j = 0; j < g->ntap[i]; ++j)
            if (g->tk[i][j] != j) return false;
    }
    return w->stride[4] == 1 && w->stride[3] == g->ks[2] && w->stride[2] == g->ks[1] * g->ks[2];
}

/* The weights of (group, channel block) i as pairs of input channels for
 * bf16 convcv (BF16 weights in mode BF16: bits copied; a NaN keeps its
 * payload where the fp32 panels quiet it: NaN results either way): word
 * (cp*nt + t)*mr + m = w of input channel 2cp | that of 2cp + 1 << 16 (+0
 * past cin, and for rows past cout). *wmin is lowered to their smallest
 * exponent field (bf16_minexp). */
static void data_pack_weights_pairs(const data_run *r, size_t i)
{
    const data_state *st = r->st;
    const fast_geom *g = r->g;
    const conv_view *w = &r->p->w;
    const int64_t grp = (int64_t)i / r->ncb_sub, mb = (int64_t)i % r->ncb_sub, mr = st->mr;
    const int64_t co0 = mb * mr, rows = min64(mr, g->cout - co0), ncp = data_chans(st, g);
    uint32_t *dst = (uint32_t *)(void *)(r->wpk_sub + (int64_t)i * data_panel_floats(st, g));
    const uint16_t *src = (const uint16_t *)(const void *)w->data;
    const int64_t sco = st->bwd ? w->stride[1] : w->stride[0]; /* row to row */
    int emin = 255;
    for (int64_t cp = 0; cp < ncp; ++cp)
        for (int64_t jd = 0; jd < g->ntap[0]; ++jd)
            for (int64_t jh = 0; jh < g->ntap[1]; ++jh)
                for (int64_t jw = 0; jw < g->ntap[2]; ++jw) {
                    const int64_t kd = g->tk[0][jd], kh = g->tk[1][jh], kw = g->tk[2][jw],
                                  ci = 2 * cp;
                    const int64_t lo =
                        st->bwd ? conv_view_index(w, grp * g->cin + ci, co0, kd, kh, kw)
                                : conv_view_index(w, grp * g->cout + co0, ci, kd, kh, kw);
                    const bool has_hi = ci + 1 < g->cin;
                    const int64_t hi = lo + (st->bwd ? w->stride[0] : w->stride[1]);
                    if (sco == 1) { /* D of a 1x1-like layer: each row a run */
                        emin = r->k->bf16_zip(1, (size_t)rows, src + lo, has_hi ? src + hi : NULL,
                                              0, dst, 0, emin);
                    } else { /* scanned with the whole panel below */
                        for (int64_t m = 0; m < rows; ++m)
                            dst[m] = (uint32_t)src[lo + m * sco] |
                                     (has_hi ? (uint32_t)src[hi + m * sco] << 16 : 0u);
                    }
                    for (int64_t m = rows; m < mr; ++m)
                        dst[m] = 0;
                    dst += mr;
                }
    /* the gathered words in one scan (zeros do not count): a scan per tap
     * and channel pair, each with its horizontal minimum, was a third of
     * this function's time in vgg's bf16 dx */
    if (sco != 1) {
        const int64_t words = ncp * g->nt * mr;
        emin = r->k->bf16_minexp((size_t)(2 * words), (const uint16_t *)(const void *)(dst - words),
                                 NULL, emin);
    }
    int cur = atomic_load_explicit(r->wmin, memory_order_relaxed);
    while (emin < cur && !atomic_compare_exchange_weak_explicit(
                             r->wmin, &cur, emin, memory_order_relaxed, memory_order_relaxed)) {
    }
}

/* The fp32 [ci][tap][m] panel of (group, channel block) i, rounded to the mode. */
static void data_pack_weights_f32(const data_run *r, size_t i)
{
    const data_state *st = r->st;
    const fast_geom *g = r->g;
    const conv_view *w = &r->p->w;
    const int64_t grp = (int64_t)i / r->ncb_sub, mb = (int64_t)i % r->ncb_sub, mr = st->mr;
    float *dst = r->wpk_sub + (int64_t)i * data_panel_floats(st, g);
    const bool f32 = w->dtype == ACL_FLOAT, rounds = r->p->mode != CONV_MODE_F32;
    const int kind = conv_round_kind(r->p->mode);
    const int64_t sco = st->bwd ? w->stride[1] : w->stride[0]; /* panel row to row */
    /* (one tap with adjacent rows: a copy per channel below; as 32 x 1
     * transposes it took 5% of r50_c4_1x1's dx pass) */
    if (!st->phase_rows && f32 && taps_dense(g, w) && sco >= 0 && !(g->nt == 1 && sco == 1)) {
        /* per input channel a [row][tap] block of w, transposed by the
         * ISA's kernel (the element-by-element gather: 3.5% of
         * deconv2d_k4s2's dx); the rows past cout are zero */
        const int64_t co0 = mb * mr, rows = min64(mr, g->cout - co0);
        for (int64_t ci = 0; ci < g->cin; ++ci) {
            const int64_t idx = st->bwd ? conv_view_index(w, grp * g->cin + ci, co0, 0, 0, 0)
                                        : conv_view_index(w, grp * g->cout + co0, ci, 0, 0, 0);
            float *d = dst + ci * g->nt * mr;
            r->k->transpose((size_t)rows, (size_t)g->nt, (const float *)w->data + idx, (size_t)sco,
                            d, (size_t)mr);
            if (rows < mr)
                for (int64_t t = 0; t < g->nt; ++t)
                    memset(d + t * mr + rows, 0, (size_t)(mr - rows) * sizeof(float));
        }
        if (rounds) r->k->f32_round((size_t)(g->cin * g->nt * mr), dst, dst, kind);
        return;
    }
    for (int64_t ci = 0; ci < g->cin; ++ci)
        for (int64_t jd = 0; jd < g->ntap[0]; ++jd)
            for (int64_t jh = 0; jh < g->ntap[1]; ++jh)
                for (int64_t jw = 0; jw < g->ntap[2]; ++jw) {
                    const int64_t kd = g->tk[0][jd], kh = g->tk[1][jh], kw = g->tk[2][jw];
                    const int64_t rows = min64(mr, g->cout - mb * mr); /* the rest are zeros */
                    if (st->phase_rows) {
                        const int64_t j[3] = {jd, jh, jw};
                        for (int64_t m = 0; m < rows; ++m) dst[m] = phase_rows_weight(r, g, grp, ci, mb * mr + m, j);
                    } else {
                        /* row m of the panel is output channel co0 + m: one stride apart */
                        const int64_t co0 = mb * mr;
                        const int64_t idx = st->bwd ? conv_view_index(w, grp * g->cin + ci, co0, kd, kh, kw)
                                                    : conv_view_index(w, grp * g->cout + co0, ci, kd, kh, kw);
                        if (f32 && sco == 1) /* D of a 1x1 layer: the channels are adjacent */
                            memcpy(dst, (const float *)w->data + idx, (size_t)rows * sizeof(float));
                        else if (f32)
                            for (int64_t m = 0; m < rows; ++m) dst[m] = ((const float *)w->data)[idx + m * sco];
                        else
                            for (int64_t m = 0; m < rows; ++m)
                                dst[m] = load_as_f32(w->data, w->dtype, idx + m * sco);
                        /* conv_round_operand's bits, a panel row at a time (element by
                         * element, with the scalar FLOAT16 conversions, it took 9% of
                         * r50_c4_1x1's FLOAT16-mode dx) */
                        if (rounds) r->k->f32_round((size_t)rows, dst, dst, kind);
                    }
                    for (int64_t m = rows; m < mr; ++m) dst[m] = 0.0f;
                    dst += mr;
                }
}

/* Packs the weights of (group, channel block) i: [ci][tap][m] panels (of
 * input channel pairs for st->pairs). */
static void data_pack_weights(void *ctx, size_t i)
{
    const data_run *r = ctx;
    if (r->st->pairs)
        data_pack_weights_pairs(r, i);
    else
        data_pack_weights_f32(r, i);
}

/* Where row m0 + m of a tile goes: channel, output phase offsets, and how many
 * of the block's output rows and columns exist for it. */
typedef struct store_row {
    int64_t c, off[3], rows, cols;
    bool skip; /* the row's output plane od does not exist */
} store_row;

/* Always inlined: called out of line, with the struct returned through
 * memory, it took 18% of r50_c4_1x1's bf16 dx pass (once per tile row; the
 * copy's loads most likely wait on store forwarding). */
static inline __attribute__((always_inline)) store_row
data_row_target(const data_run *r, const fast_geom *g, int64_t co0, int64_t m, int64_t od, int64_t oh0,
                int64_t ow0, int64_t rows, int64_t cols)
{
    store_row t = {co0 + m, {g->ooff[0], g->ooff[1], g->ooff[2]}, rows, cols, false};
    if (!r->st->phase_rows) return t;
    /* phase rows: row co0 + m of the group-major rows is (channel, phase) */
    const conv_problem *p = r->p;
    const int64_t nsub = g->cout / p->cg, grp = (co0 + m) / g->cout, row = (co0 + m) % g->cout;
    int64_t sub = row % nsub, cnt[3];
    t.c = grp * p->cg + row / nsub;
    for (int i = 2; i >= 0; --i) {
        t.off[i] = sub % p->stride[i];
        sub /= p->stride[i];
        cnt[i] = p->xs[i] > t.off[i] ? ceil_div(p->xs[i] - t.off[i], p->stride[i]) : 0;
    }
    t.skip = od >= cnt[0];
    t.rows = min64(rows, max64(0, cnt[1] - oh0));
    t.cols = min64(cols, max64(0, cnt[2] - ow0));
    return t;
}

/* Stores valid results s[i] at out->data[base + i*step] with the mode's
 * result rounding and the output dtype; s == NULL: prefetches those lines. */
static void store_run(const data_run *r, const float *s, int64_t base, int64_t valid, int64_t step)
{
    const conv_view *out = r->out;
    if (s) {
        conv_store_results(out, r->p->mode, r->k, false, base, step, valid, s);
        return;
    }
    const size_t es = out->dtype == ACL_FLOAT ? 4 : 2;
    prefetch_tile((const char *)out->data + base * (int64_t)es, 1, 0, (valid - 1) * step + 1, es);
}

/* Writes the valid columns of an mr x [j0, j0+nr) tile of the padded grid;
 * tile row m is row co0 + m of the output rows (channels, or channel-phase
 * pairs). tile == NULL: only prefetches the lines the store will write. */
static void data_store_tile(const data_run *r, const fast_geom *g, const float *tile, int64_t ldt, int64_t mr,
                            int64_t nr, int64_t n, int64_t co0, int64_t od, int64_t oh0,
                            int64_t ow0, int64_t rows, int64_t cols, int64_t j0)
{
    const conv_view *out = r->out;
    const int64_t step = out->stride[4] * g->ostep[2];
    if (!r->st->phase_rows && j0 % g->wp + nr <= g->wp) {
        /* tile rows within one grid row, row m channel co0 + m: one run each,
         * a channel stride apart (the per-row work below was 10% of
         * r50_c3_3x3s2's 16-bit dx: rows of 28 positions) */
        const int64_t row = j0 / g->wp, col = j0 % g->wp;
        if (row >= rows || col >= cols) return;
        const int64_t valid = min64(nr, cols - col);
        const int64_t base = conv_view_index(out, n, co0, od * g->ostep[0] + g->ooff[0],
                                             (oh0 + row) * g->ostep[1] + g->ooff[1],
                                             (ow0 + col) * g->ostep[2] + g->ooff[2]);
        for (int64_t m = 0; m < mr; ++m)
            store_run(r, tile ? tile + m * ldt : NULL, base + m * out->stride[1], valid, step);
        return;
    }
    /* no junk columns and output rows that follow each other: a tile row is
     * one run of the output, however many grid rows it spans */
    const bool linear = g->wp == cols && out->stride[3] * g->ostep[1] == g->wp * step;
    for (int64_t m = 0; m < mr; ++m) {
        const float *src = tile ? tile + m * ldt : NULL;
        const store_row t = data_row_target(r, g, co0, m, od, oh0, ow0, rows, cols);
        if (t.skip) continue;
        int64_t j = j0, row = j0 / g->wp, col = j0 % g->wp;
        while (j < j0 + nr && row < t.rows) {
            int64_t seg = min64(j0 + nr - j, g->wp - col);
            int64_t valid = col < t.cols ? min64(seg, t.cols - col) : 0;
            if (linear && t.cols == g->wp) /* the rest of the tile row, within the block's rows */
                seg = valid = min64(j0 + nr, t.rows * g->wp) - j;
            if (valid > 0) {
                const int64_t base = conv_view_index(
                    out, n, t.c, od * g->ostep[0] + t.off[0],
                    (oh0 + row) * g->ostep[1] + t.off[1], (ow0 + col) * g->ostep[2] + t.off[2]);
                store_run(r, src ? src + (j - j0) : NULL, base, valid, step);
            }
            j += seg;
            row += (col + seg) / g->wp;
            col = (col + seg) % g->wp;
        }
    }
}

/* Where kernel tile t of the ntiles over [0, span) starts (t = ntiles: span).
 * Channel-vector tiles have even widths (with 16-position tiles 196 = 12 x
 * 15 + 16, not 12 x 16 + 4): a narrow tile has too few accumulators to hide
 * the FMA latency. The spatial-vector kernel keeps whole vectors. */
static inline int64_t tile_start(const data_state *st, int64_t t, int64_t span, int64_t ntiles)
{
    return st->cv ? t * span / ntiles : min64(t * st->nr, span);
}

/* One kernel call of the data pass: mr x nr results from 0 at y[m*ldy +
 * j*ystep] (ystep > 1: the channel-vector kernel only); y is float, or
 * with ybf16 (the pair kernel only) a BF16 gradInput written in place. */
static inline void data_kernel(const data_run *r, int64_t mr, int64_t nr, const fast_geom *g,
                               const float *w, const float *x, int64_t cs, int xround,
                               const ptrdiff_t *toff, void *y, int64_t ldy, int64_t ystep,
                               bool ybf16)
{
    if (r->st->pairs) /* panels and slab of pairs: 32-bit words at the floats' offsets */
        r->pairconv((size_t)mr, (size_t)nr, (size_t)data_chans(r->st, g), (size_t)g->nt,
                    (const uint32_t *)(const void *)w, (const uint32_t *)(const void *)x,
                    (size_t)cs, toff, y, (size_t)ldy, (size_t)ystep, 0, ybf16);
    else if (r->st->cv)
        r->convcv((size_t)mr, (size_t)nr, (size_t)g->cin, (size_t)g->nt, w, x, (size_t)cs, toff, y,
                  (size_t)ldy, (size_t)ystep, 0);
    else
        r->conv((size_t)mr, (size_t)nr, (size_t)g->cin, (size_t)g->nt, w, x, (size_t)cs, toff, y,
                (size_t)ldy, 0, xround);
}

/* The mode's result rounding of rows results written in place: row m has n
 * elements at y[m*ldy + j*step]. */
static void round_in_place(const data_run *r, float *y, int64_t rows, int64_t ldy, int64_t n,
                           int64_t step)
{
    const int kind = conv_result_round_kind(r->p->mode);
    for (int64_t m = 0; m < rows; ++m) {
        float *row = y + m * ldy;
        if (step == 1)
            r->k->f32_round((size_t)n, row, row, kind);
        else
            for (int64_t j = 0; j < n; ++j)
                row[j * step] = conv_round_result(row[j * step], r->p->mode);
    }
}

/* The input slab of sub-problem g's block (n, grp, od, oh0, ow0): read in
 * place or packed into slot's buffer; *cs: floats per channel; *xround: the
 * rounding the kernel still does as it reads it (F32_ROUND_NONE, or the
 * mode's for fp32 input read in place, st->kernel_rounds). */
static const float *data_slab(const data_run *r, const fast_geom *g, int64_t n, int64_t grp,
                              int64_t od, int64_t oh0, int64_t ow0, int slot, int64_t *cs,
                              int *xround)
{
    float *slab = r->slabs + (int64_t)slot * r->st->slab_floats;
    const float *xs = slab;
    *cs = g->cs;
    *xround = F32_ROUND_NONE;
    if (r->st->pairs) {
        const int xmin = pack_slab_pairs(g, r->in, r->k, n, grp * g->cin, od, oh0, ow0,
                                         (uint32_t *)(void *)slab);
        const int wmin = atomic_load_explicit(r->wmin, memory_order_relaxed);
        if (r->guard && (xmin < 1 || wmin < 1 || xmin + wmin < BF16_DOT_MIN_EXPONENTS)) {
            atomic_store_explicit(r->tiny, 1, memory_order_relaxed);
            return NULL;
        }
        return xs;
    }
    const bool kr = r->st->kernel_rounds && r->in_mode != CONV_MODE_F32;
    *xround = F32_ROUND_NONE;
    /* (the kernel rounds: the view's values serve as they are) */
    if (slab_in_place(g, r->in, kr ? CONV_MODE_F32 : r->in_mode, n, grp * g->cin, od, oh0, ow0,
                      true, &xs, cs)) {
        if (kr) *xround = conv_round_kind(r->in_mode);
    } else {
        pack_slab(g, r->in, r->in_mode, r->k, n, grp * g->cin, od, oh0, ow0, slab);
    }
    return xs;
}

/* The kernel calls and stores of sub-problem g's block (n, grp, od, rbi,
 * cbi) over its slab xs (the kernel rounds it for xround, data_slab).
 * touch: the block's first output phase (its stores miss: prefetched
 * first). */
static void data_block(const data_run *r, int64_t sub, int64_t n, int64_t grp, int64_t od,
                       int64_t rbi, int64_t cbi, int slot, bool touch, const float *xs, int64_t cs,
                       int xround)
{
    const data_state *st = r->st;
    const fast_geom *g = &r->subs[sub];
    float *tile = r->tiles + (int64_t)slot * st->tile_floats;
    const int64_t oh0 = rbi * g->rb, rows = min64(g->rb, g->os[1] - oh0);
    const int64_t ow0 = cbi * g->wb, cols = min64(g->wb, g->os[2] - ow0);
    const int64_t jn = (rows - 1) * g->wp + cols;
    const int64_t panel = data_panel_floats(st, g), ncb = r->ncb[sub], cbb = r->cbb[sub];
    /* fp32 results: the kernel stores in place when its tiles have no
     * junk columns. Tiles are runs of the padded
     * grid [j0, j0 + nr): the spatial-vector kernel runs over the whole
     * grid; the channel-vector kernel takes one output row at a time (no
     * junk columns, any output phase's row and column steps), or the
     * whole grid when it has no junk and the output rows follow each
     * other (or go through the tile anyway) */
    const conv_view *out = r->out;
    const int64_t ystep = out->stride[4] * g->ostep[2];
    /* the FLOAT16 / BF16 modes round fp32 results: in place, after the
     * kernel calls of a tile group, while its lines are in L1 */
    const bool rounds = conv_result_round_kind(r->p->mode) != F32_ROUND_NONE;
    /* BF16 pairs into a BF16 gradInput in mode BF16: the kernel narrows as
     * it stores (the mode's rounding and the cast are one rounding), so the
     * results skip the tile buffer and data_store_tile (8% of r50_c4_1x1's
     * bf16 dx, 20% of r50_c3_3x3s2's with its stride-2 phases) */
    const bool bf16_out = st->pairs && out->dtype == ACL_BF16 && r->p->mode == CONV_MODE_BF16;
    const bool f32_out = !st->phase_rows && out->dtype == ACL_FLOAT;
    const bool direct = f32_out || bf16_out;
    const int64_t es = bf16_out ? 2 : 4; /* bytes of an output element */
    /* (cols == wp: a column block narrower than the plane would write its
     * junk lanes into the next block's columns) */
    const bool flat_in_place = direct && ystep == 1 && g->ostep[1] == 1 && g->wp == cols &&
                               g->wp == g->os[2] && out->stride[3] == g->wp;
    const bool per_row = st->cv && (g->wp != cols || (direct && !flat_in_place));
    const bool in_place = per_row ? direct && ystep >= 1 : flat_in_place;
    const int64_t trows = per_row ? rows : 1, span = per_row ? cols : jn;
    const int64_t ntiles = ceil_div(span, st->nr);
    char *out0 = in_place ? out->data + es * conv_view_index(out, n, grp * g->cout,
                                                             od * g->ostep[0] + g->ooff[0],
                                                             oh0 * g->ostep[1] + g->ooff[1],
                                                             ow0 * g->ostep[2] + g->ooff[2])
                          : NULL;
    const int64_t ldrow = out->stride[3] * g->ostep[1];
    const float *wpk = r->wpk + r->wpk_at[sub];
    const ptrdiff_t *toff = r->toff + r->toff_at[sub];
    for (int64_t cb0 = 0; cb0 < ncb; cb0 += cbb) {
        const int64_t cb1 = min64(ncb, cb0 + cbb);
        for (int64_t row = 0; row < trows; ++row)
            for (int64_t t0 = 0; t0 < ntiles; t0 += st->store_tiles) {
                /* kernel tiles [t0, t1) go to the tile buffer side by
                 * side and are stored with one data_store_tile */
                const int64_t t1 = min64(ntiles, t0 + st->store_tiles);
                const int64_t g0 = tile_start(st, t0, span, ntiles),
                              gn = tile_start(st, t1, span, ntiles) - g0;
                for (int64_t mb = cb0; mb < cb1; ++mb) {
                    const int64_t mr = min64(st->mr, g->cout - mb * st->mr);
                    const float *w = wpk + (grp * ncb + mb) * panel;
                    const int64_t co0 = grp * g->cout + mb * st->mr;
                    if (!in_place && touch)
                        data_store_tile(r, g, NULL, 0, mr, gn, n, co0, od, oh0, ow0, rows, cols,
                                        row * g->wp + g0);
                    char *dst0 =
                        in_place ? out0 + es * (mb * st->mr * out->stride[1] + row * ldrow) : NULL;
                    for (int64_t t = t0; t < t1; ++t) {
                        const int64_t c0 = tile_start(st, t, span, ntiles);
                        const int64_t nr = tile_start(st, t + 1, span, ntiles) - c0,
                                      j0 = row * g->wp + c0;
                        if (in_place) {
                            char *dst = dst0 + es * c0 * ystep;
                            /* (the channel-vector kernel asks for its unit-step
                             * results itself, spread over its loop) */
                            if (!st->cv || (ystep != 1 && !(st->pairs && ystep == 2)))
                                prefetch_tile(dst, mr, out->stride[1], (nr - 1) * ystep + 1,
                                              (size_t)es);
                            data_kernel(r, mr, nr, g, w, xs + j0, cs, xround, toff, dst,
                                        out->stride[1], ystep, bf16_out);
                        } else {
                            data_kernel(r, mr, nr, g, w, xs + j0, cs, xround, toff,
                                        tile + (c0 - g0), st->tile_ld, 1, false);
                        }
                    }
                    if (in_place && rounds && !bf16_out && !st->round_blocks)
                        round_in_place(r, (float *)(void *)dst0 + g0 * ystep, mr, out->stride[1],
                                       gn, ystep);
                    if (!in_place)
                        data_store_tile(r, g, tile, st->tile_ld, mr, gn, n, co0, od, oh0, ow0, rows,
                                        cols, row * g->wp + g0);
                }
            }
    }
}

/* The result rounding of task block (n, grp, od, rbi, cbi) (st->round_blocks):
 * the gradInput region its output phases cover, row by row. Every element is
 * final (this task wrote every phase of the region; phases without taps were
 * zeroed before the tasks). */
static void round_block(const data_run *r, int64_t n, int64_t grp, int64_t od, int64_t rbi,
                        int64_t cbi)
{
    const conv_problem *p = r->p;
    const conv_view *out = r->out;
    const fast_geom *g = NULL; /* the blocking every sub-problem shares */
    for (int64_t sub = 0; sub < r->nsub && !g; ++sub)
        if (!r->empty[sub]) g = &r->subs[sub];
    if (!g) return;
    const int64_t *s = p->stride, *xs = p->xs;
    const int64_t d0 = od * s[0], d1 = min64(xs[0], d0 + s[0]);
    const int64_t h0 = rbi * g->rb * s[1], h1 = min64(xs[1], h0 + g->rb * s[1]);
    const int64_t w0 = cbi * g->wb * s[2], w1 = min64(xs[2], w0 + g->wb * s[2]);
    const int kind = conv_result_round_kind(p->mode);
    for (int64_t c = grp * p->cg; c < (grp + 1) * p->cg; ++c)
        for (int64_t d = d0; d < d1; ++d)
            for (int64_t h = h0; h < h1; ++h) {
                float *row = (float *)out->data + conv_view_index(out, n, c, d, h, w0);
                r->k->f32_round((size_t)(w1 - w0), row, row, kind);
            }
}

static void data_task(void *ctx, size_t index, int slot)
{
    const data_run *r = ctx;
    const data_state *st = r->st;
    int64_t i = (int64_t)index;
    const int64_t cbi = i % st->tasks_wb;
    i /= st->tasks_wb;
    const int64_t rbi = i % st->tasks_rb;
    i /= st->tasks_rb;
    const int64_t di = i % st->tasks_d;
    i /= st->tasks_d;
    const int64_t grp = i % r->p->g, n = i / r->p->g;
    /* the output planes of the task: one, or a depth run */
    const int64_t od0 = di * st->drun;
    /* the first output phase's stores miss (prefetched); the others' hit the
     * lines it brought (FAST_OUT_BLOCK_FLOATS) */
    bool first = true;
    const fast_geom *packed = NULL; /* the sub-problem whose slab xs holds */
    const float *xs = NULL;
    int64_t cs = 0;
    int xround = F32_ROUND_NONE;
    for (int64_t sub = 0; sub < r->nsub; ++sub) {
        if (r->empty[sub]) continue;
        const fast_geom *g = &r->subs[sub];
        if (od0 >= g->os[0] || rbi >= g->nrb || cbi >= g->nwb) continue;
        if (!packed || !same_slab(packed, g)) {
            if (st->pairs && atomic_load_explicit(r->tiny, memory_order_relaxed))
                return; /* redone */
            xs = data_slab(r, g, n, grp, od0, rbi * g->rb, cbi * g->wb, slot, &cs, &xround);
            if (!xs) return; /* a failed guard (pairs) */
            packed = g;
        }
        /* output plane od reads the run's slab planes from od - od0 on */
        const int64_t plane = g->nph[1] * g->nph[2] * g->hp * g->wp,
                      od1 = min64(g->os[0], od0 + st->drun);
        for (int64_t od = od0; od < od1; ++od)
            data_block(r, sub, n, grp, od, rbi, cbi, slot, first || od > od0,
                       xs + (od - od0) * plane, cs, xround);
        first = false;
    }
    if (st->round_blocks) /* strided W: several sub-problems, so no depth run */
        round_block(r, n, grp, od0, rbi, cbi);
}

/* Zeros gradInput[n, c] at the positions of an output phase without taps. */
static void data_zero_task(void *ctx, size_t i)
{
    const data_run *r = ctx;
    const fast_geom *g = r->g;
    const conv_view *out = r->out;
    const int64_t channels = out->dim[1], n = (int64_t)i / channels, c = (int64_t)i % channels;
    for (int64_t d = 0; d < g->os[0]; ++d)
        for (int64_t h = 0; h < g->os[1]; ++h)
            for (int64_t w = 0; w < g->os[2]; ++w)
                store_from_f32(out->data, out->dtype,
                               conv_view_index(out, n, c, d * g->ostep[0] + g->ooff[0],
                                               h * g->ostep[1] + g->ooff[1],
                                               w * g->ostep[2] + g->ooff[2]),
                               0.0f);
}

/* Sets r up for the data pass planned in st. compute: gradInput is computed
 * (weights packed, phases without taps zeroed); else only the slabs are used
 * (data_slab: the streamed weights pass alone). */
static void data_run_prepare(data_run *r, const conv_problem *p, const data_state *st,
                             void *workspace, bool compute)
{
    r->p = p;
    r->st = st;
    const conv_ukernels *k = conv_ukernels_for(st->isa);
    r->conv = st->one_row ? k->conv1 : k->conv;
    r->convcv = k->convcv;
    r->k = k;
    r->pairconv = NULL;
    r->guard = false;
    if (st->pairs) {
        r->pairconv = st->pairs_exact ? NULL : conv_bf16_dot_convcv(st->isa);
        r->guard = r->pairconv != NULL;
        if (!r->pairconv) r->pairconv = k->bf16_convcv; /* exact */
    }
    r->in = st->bwd ? &p->y : &p->x;
    r->in_mode = p->mode;
    r->out = &p->grad_input;
    char *ws = workspace;
    r->wpk = (float *)(ws + st->wpk_off);
    r->slabs = (float *)(ws + st->slab_off);
    r->tiles = (float *)(ws + st->tile_off);
    data_subs(p, r->subs, r->empty, &r->nsub); /* accepted at plan time */
    int64_t wat = 0, tat = 0;
    for (int64_t sub = 0; sub < r->nsub; ++sub) {
        const fast_geom *g = &r->subs[sub];
        r->g = g;
        if (r->empty[sub]) {
            bool no_positions = false;
            for (int i = 0; i < 3; ++i) no_positions |= g->os[i] < 1;
            if (!no_positions && compute)
                pool_parallel_for((size_t)(r->out->dim[0] * r->out->dim[1]), data_zero_task, r);
            continue;
        }
        r->ncb[sub] = ceil_div(g->cout, st->mr);
        r->cbb[sub] = max64(1, FAST_WBLOCK_FLOATS / data_panel_floats(st, g));
        r->wpk_at[sub] = wat;
        r->toff_at[sub] = tat;
        tap_offsets(g, r->toff + tat);
        r->wpk_sub = r->wpk + wat;
        r->ncb_sub = r->ncb[sub];
        if (compute) pool_parallel_for((size_t)(g->g * r->ncb[sub]), data_pack_weights, r);
        wat += g->g * r->ncb[sub] * data_panel_floats(st, g);
        tat += g->nt;
    }
}

static int64_t data_tasks(const conv_problem *p, const data_state *st)
{
    return p->n * p->g * st->tasks_d * st->tasks_rb * st->tasks_wb;
}

static void data_run_pass(const conv_problem *p, const data_state *st, void *workspace)
{
    data_run r; /* on the caller's stack: about FAST_MAX_SUBS geometries */
    atomic_int wmin = 255, tiny = 0;
    r.wmin = &wmin;
    r.tiny = &tiny;
    data_run_prepare(&r, p, st, workspace, true);
    pool_parallel_for_slots((size_t)data_tasks(p, st), st->slots, data_task, &r);
    if (atomic_load(&tiny)) {
        /* as the weights pass (wt_run_pass): every task again with the
         * exact kernel; the packed weights stay */
        r.pairconv = r.k->bf16_convcv;
        r.guard = false;
        atomic_store(&tiny, 0);
        pool_parallel_for_slots((size_t)data_tasks(p, st), st->slots, data_task, &r);
    }
}

/* ===========================================================================
 * Weights pass
 * ======================================================================== */

typedef struct wt_state {
    fast_geom g; /* cin = CG (x channels), cout = OG (dy channels) */
    aclconvIsa isa;
    int mr, nr;
    int64_t ldb;     /* partial-sum row: OG rounded up to 16 */
    int64_t ldo;     /* dyT row: min(ldb, FAST_WT_OBLOCK) output channels of one block */
    bool rv;              /* reduction-vector kernel (small OG or few (c, tap) rows) */
    /* BF16 pairs (GEMM path, BF16 operands in mode BF16): slab and dy^T as
     * bf16, two positions a kernel step (docs/kernels.md, "BF16 pairs");
     * pairs_exact: always the fused multiply-add kernel (ACLCONV_BF16_DOT) */
    bool pairs, pairs_exact;
    int64_t brows, bcols; /* reduction block: rows x columns of positions */
    int64_t nunits, nchunks;
    /* > 0: 1x1-like problem read in place, a unit is this many whole images
     * (planes of fpos positions) and one kernel call reduces over all of them;
     * fcopy: x is not fp32 read as it is: each row tile's rows are widened
     * and rounded into the slot's slab before its calls */
    int64_t fnb, fpos;
    bool fcopy;
    int64_t slab_pitch; /* floats of each slot's slab */
    int slots;
    int64_t part_floats, dyt_floats;
    uint64_t part_off, slab_off, dyt_off;
    /* gradBias block sums while the reduction-vector path streams dy: when a
     * unit is a whole image (conv_bias.h) */
    bool bias;
    int64_t lane_floats;         /* per slot: OG x CONV_BIAS_LANES */
    uint64_t lanes_off, sums_off; /* lanes per slot; N x C block sums */
    /* streamed (wt_streams): the pass walks the task grid of the data pass
     * planned in ds, a chunk being whole images, and takes dy (D) or x (F)
     * from its slabs; g is then x's geometry with slabs covering a data
     * slab's positions (D) or with the data blocks (F). with_data
     * (fast_fuse_data): the run computes gradInput from the same slabs. */
    bool streamed, with_data;
    data_state ds;
    /* > 0 (streamed D): dy's images are copied whole, widened and rounded
     * for the mode, into a slot buffer of this many floats, and the blocks
     * read that copy as an fp32 view (stream_image_copy) */
    int64_t img_floats;
    uint64_t img_off;
} wt_state;

_Static_assert(sizeof(wt_state) <= CONV_IMPL_STATE_BYTES, "state too large");

/* The weights pass's geometry of x; force_rb / force_wb > 0 impose the
 * blocks of output rows and columns (the streamed pass). */
static const char *wt_geom(const conv_problem *p, fast_geom *g, int64_t force_rb, int64_t force_wb)
{
    memset(g, 0, sizeof *g);
    g->force_rb = force_rb;
    g->force_wb = force_wb;
    if (!shifts_fit(p)) return "dilation or padding too large for the fast engine";
    g->n = p->n;
    g->g = p->g;
    g->cin = p->cg;
    g->cout = p->og;
    for (int i = 0; i < 3; ++i) {
        if (p->ks[i] > FAST_MAX_K) return "kernel larger than the fast engine supports";
        if (p->stride[i] > FAST_MAX_STRIDE) return "stride larger than the fast engine supports";
        g->ks[i] = p->ks[i];
        g->is[i] = p->xs[i];
        g->os[i] = p->ys[i];
        g->st[i] = p->stride[i];
        g->ostep[i] = 1;
        taps_regular(g, i, p->ks[i], p->dil[i], p->pad[i]);
    }
    if (g->cin < 1 || g->cout < 1) return "no channels";
    const char *why = geom_layout(g, 1, FAST_WT_SLAB_FLOATS);
    if (why) return why;
    /* partial sums (G*CG*taps*OG, 4 chunks) and the reduction units */
    if (smul(smul(smul(g->g, g->cin), g->nt), g->cout + 16) > FAST_MAX_FLOATS ||
        smul(smul(g->n, g->os[0]), smul(g->nrb, g->nwb)) > FAST_MAX_FLOATS)
        return "sizes too large for the fast engine";
    return NULL;
}

static const char *wt_why_not(const conv_problem *p, aclconvIsa isa)
{
    fast_geom g;
    return wt_geom(p, &g, 0, 0);
}

/* Images per unit of the flat path (0: not flat): one tap at shift 0, stride
 * 1 (each dy position reads the same x position), x with dense planes, the
 * GEMM kernel, and a plane of dy^T (positions x ldb) small enough that a
 * block holds whole images. Then a kernel call's rows are images (row
 * stride: the image stride of x, read in place; or of the slot's copy,
 * *copy). */
static int64_t wt_flat_images(const conv_problem *p, const fast_geom *g, bool rv, int64_t ldb,
                              bool *copy)
{
    const conv_view *x = &p->x;
    *copy = false;
    if (rv || g->nt != 1) return 0;
    for (int i = 0; i < 3; ++i)
        if (g->st[i] != 1 || g->tsh[i][0] != 0 || g->is[i] != g->os[i]) return 0;
    if (x->stride[4] != 1 || (g->is[1] > 1 && x->stride[3] != g->is[2]) ||
        (g->is[0] > 1 && x->stride[2] != g->is[1] * g->is[2]))
        return 0;
    const int64_t pos = g->is[0] * g->is[1] * g->is[2];
    const int64_t nb = FAST_WT_DYT_FLOATS / smul(pos, ldb);
    /* x widened or rounded: each row tile's rows copied right before its
     * calls, which needs them once (one dy^T block: ldb is every output
     * channel) and a tile's rows of an image one run (r50_c4_1x1 in bf16:
     * the GEMM path's slabs made its weights pass 19% slower than fp32's) */
    *copy = x->dtype != ACL_FLOAT || p->mode != CONV_MODE_F32;
    if (*copy && (ldb < round_up64(g->cout, 16) || (g->cin > 1 && x->stride[1] != pos))) return 0;
    /* at least 2 units per chunk when N allows (chunks of equal size) */
    return nb < 1 ? 0 : min64(nb, ceil_div(g->n, 2 * FAST_WT_CHUNKS));
}

/* Whether the weights pass walks the data pass's blocks and shares its slabs
 * (wt_run_streamed), so that a call computing both gradients reads and packs
 * the big operand once. The choice depends on the problem only, not on
 * whether gradInput is wanted: gradWeight has the same bits either way.
 * ACLCONV_FAST_STREAM=0 turns it off (tests, benchmarks). Both forms need one
 * data sub-problem and chunks of whole images (N >= FAST_STREAM_MIN_IMAGES).
 *
 * D (stream_bwd): the data slabs hold dy. Where the work per element of dy is
 * small next to reading it: few (c, tap) rows for the weights (the
 * reduction-vector kernel) and few gradInput channels (the one-row or
 * phase-rows data kernels). conv1d_wav_k10s5's dy is 52 MB, and each pass
 * did about ten multiply-adds per element it read from memory. Layout: no
 * depth (the slab rows are dy rows), and blocks that meet an image's
 * positions in flattened order (gradBias lanes): full-width blocks or single
 * rows.
 *
 * F (stream_fwd, transposed calls): the data slabs hold x, packed (phase
 * split, widened, rounded) exactly as the weights pass packs it once its
 * blocks are the data pass's. Where x is strided and each of its elements
 * does little work: deconv3d_k2s2 (k = s) packed its 33.5 MB x in both
 * passes, a quarter of its time. */
static bool stream_bwd(const conv_problem *p, const fast_geom *gd)
{
    if (p->xs[0] != 1 || p->ys[0] != 1 || p->ks[0] != 1) return false;
    if (p->cg > FAST_ONE_ROW_MAX_OUT || smul(p->cg, p->ks[1] * p->ks[2]) >= FAST_RV_MAX_KROWS)
        return false;
    if (gd->nwb != 1 && gd->os[1] != 1) return false;
    fast_geom gx;
    return wt_geom(p, &gx, gd->hp, gd->wp) == NULL;
}

static bool stream_fwd(const conv_problem *p, const fast_geom *gd)
{
    /* the GEMM weights path (not reduction-vector), x strided */
    if (p->og < FAST_RV_MAX_OG || smul(p->cg, gd->nt) < FAST_RV_MAX_KROWS) return false;
    int64_t uses = 1; /* taps that read each element of x, at most */
    for (int i = 0; i < 3; ++i)
        uses *= ceil_div(p->ks[i], p->stride[i]);
    if (gd->nph[1] * gd->nph[2] * gd->st[0] == 1 || smul(p->og, uses) > FAST_STREAM_MAX_WORK)
        return false;
    fast_geom gw;
    if (wt_geom(p, &gw, gd->rb, gd->wb) != NULL) return false;
    /* the same slab layout: the weights pass reads the data slab */
    return gw.hp == gd->hp && gw.wp == gd->wp && gw.cs == gd->cs && gw.nt == gd->nt;
}

/* The F form's gradBias (a transposed call: the sum of x) as block sums: x
 * is read exactly once, in flattened order, when every dim has k = s, no
 * padding or dilation and x = y * s (the taps tile x), and a block spans
 * whole rows of its planes (one column block, or a single row per image)
 * and, with a depth stride, whole planes (one row block). */
static bool stream_fwd_bias(const conv_problem *p, const fast_geom *gd)
{
    if (!conv_bias_sums_fit(p)) return false;
    for (int i = 0; i < 3; ++i)
        if (p->ks[i] != p->stride[i] || p->pad[i] != 0 || p->dil[i] != 1 ||
            p->xs[i] != p->ys[i] * p->stride[i])
            return false;
    if (gd->nwb != 1 && (gd->os[0] != 1 || gd->os[1] != 1)) return false;
    return gd->nrb == 1 || p->stride[0] == 1;
}

/* Whether the weights pass streams; then *gd is the data pass's one
 * sub-problem. */
static bool wt_streams(const conv_problem *p, fast_geom *gd)
{
    const char *e = getenv("ACLCONV_FAST_STREAM");
    if (e && e[0] == '0') return false;
    if (p->n < FAST_STREAM_MIN_IMAGES) return false;
    fast_geom subs[FAST_MAX_SUBS];
    bool empty[FAST_MAX_SUBS];
    int64_t nsub;
    if (data_subs(p, subs, empty, &nsub) != NULL || nsub != 1 || empty[0]) return false;
    *gd = subs[0];
    return p->data_dir == CONV_DIR_BWD_DATA ? stream_bwd(p, gd) : stream_fwd(p, gd);
}

/* The workspace of the gradBias block sums (st->bias): per slot the lanes of
 * `channels` channels, and N x (channels of gradBias) sums. */
static bool wt_take_bias(const conv_problem *p, wt_state *st, int64_t channels, uint64_t *size)
{
    st->lane_floats = smul(channels, CONV_BIAS_LANES);
    return ws_take(size, st->lane_floats * st->slots, &st->lanes_off) &&
           ws_take(size, p->n * p->bias_src.dim[1], &st->sums_off);
}

/* Floats of one image of dy when the streamed D pass copies images whole
 * (else 0): where dy is 16-bit, its blocks would each be widened into a slab
 * from short pieces of its rows (conv1d_wav_k10s5: 512 pieces of 240 values
 * 6 KB apart), a read the hardware prefetchers do not follow and software
 * requests bring in no faster than the core's fill buffers allow (~10 GB/s).
 * A copy of the whole image is one sequential read, and the blocks then read
 * the copy in place from L3 as mode 0 reads fp32 dy from memory
 * (conv1d_wav_k10s5 bf16 / fp16 1.28x -> 1.07-1.18x fp32's time on 2
 * threads). Not for fp32 dy rounded by the mode: the rounded copy is as
 * large as dy, and with the image it came from it crowded L3 (cubeMathType
 * 1 / 2: +15% / +35% time). Needs one group, an image that is one dense run,
 * and a copy of at most FAST_STREAM_IMG_FLOATS. */
static int64_t stream_image_floats(const conv_problem *p)
{
    const conv_view *y = &p->y;
    if (y->dtype == ACL_FLOAT || p->g != 1) return 0;
    const int64_t plane = y->dim[2] * y->dim[3] * y->dim[4];
    if (!conv_view_blocks_dense(y) || (y->dim[1] > 1 && y->stride[1] != plane)) return 0;
    const int64_t floats = smul(y->dim[1], plane);
    return floats <= FAST_STREAM_IMG_FLOATS ? floats : 0;
}

/* gd: the data pass's one sub-problem (wt_streams). */
static bool wt_plan_streamed(const conv_problem *p, aclconvIsa isa, const fast_geom *gd, wt_state *st,
                             uint64_t *bytes)
{
    uint64_t size = 0;
    const bool not_empty = false;
    if (!data_plan_subs(p, isa, gd, &not_empty, 1, false, &st->ds, &size)) return false;
    const bool bwd = p->data_dir == CONV_DIR_BWD_DATA;
    /* F: the weights pass takes the data slab as its rounded x */
    if (!bwd) st->ds.kernel_rounds = false;
    /* D: x slabs as large as a data slab's positions; F: the data blocks */
    if (wt_geom(p, &st->g, bwd ? gd->hp : gd->rb, bwd ? gd->wp : gd->wb) != NULL) return false;
    const fast_geom *g = &st->g;
    const conv_ukernels *k = conv_ukernels_for(isa);
    st->streamed = true;
    st->rv = bwd;
    st->isa = isa;
    st->mr = k->convwt_mr;
    st->nr = k->convwt_nr;
    st->ldb = round_up64(g->cout, 16);
    st->ldo = bwd ? st->ldb : min64(st->ldb, FAST_WT_OBLOCK);
    if (!bwd) { /* dy^T blocks of the GEMM path, as wt_plan */
        const int64_t positions = max64(16, FAST_WT_DYT_FLOATS / st->ldo);
        st->bcols = min64(g->wb, positions);
        st->brows = st->bcols == g->wb ? max64(1, positions / g->wb) : 1;
        st->dyt_floats = round_up64(st->brows * st->bcols * st->ldo + CONV_UKERNEL_SLACK, 16);
    } else if (st->ds.kernel_rounds && p->y.dtype == ACL_FLOAT) {
        /* D with fp32 dy read in place unrounded: wt_block_rv rounds the
         * dy rows of a kernel row block (at most a slab's positions each)
         * into this buffer: no larger than a data slab */
        const int64_t rows = g->cout == 1 ? 1 : min64(g->cout, k->convrv_mr);
        st->dyt_floats = round_up64(smul(rows, smul(gd->hp, gd->wp)) + CONV_UKERNEL_SLACK, 16);
    }
    st->nchunks = min64(p->n, FAST_STREAM_CHUNKS);
    st->slots = plan_slots();
    st->part_floats = round_up64(smul(smul(smul(g->g, g->cin), g->nt), st->ldb), 16);
    if (st->part_floats > FAST_MAX_FLOATS || st->dyt_floats > FAST_MAX_FLOATS) return false;
    int64_t parts, slabs, dyts;
    if (!checked_mul_i64(st->part_floats, st->nchunks, &parts) ||
        !checked_mul_i64(bwd ? g->slab_floats : 0, st->slots, &slabs) ||
        !checked_mul_i64(st->dyt_floats, st->slots, &dyts))
        return false;
    /* after the data pass's buffers: partials per chunk; per slot x slabs
     * (D) or dy^T blocks (F) */
    if (!ws_take(&size, parts, &st->part_off) || !ws_take(&size, slabs, &st->slab_off) ||
        !ws_take(&size, dyts, &st->dyt_off))
        return false;
    /* gradBias lanes: of dy's channels (D), of x's (F, a transposed call);
     * block sums of every channel of gradBias's source */
    st->bias = bwd ? conv_bias_fusable(p) : stream_fwd_bias(p, gd);
    if (st->bias && !wt_take_bias(p, st, bwd ? st->ldb : g->cin, &size)) return false;
    st->img_floats = bwd && geom_reads_in_place(gd) ? stream_image_floats(p) : 0;
    if (st->img_floats > 0 && !ws_take(&size, (st->img_floats + CONV_UKERNEL_SLACK) * st->slots,
                                       &st->img_off))
        return false;
    *bytes = size;
    return true;
}

static bool wt_plan(const conv_problem *p, aclconvIsa isa, wt_state *st, uint64_t *bytes)
{
    fast_geom gd;
    if (wt_streams(p, &gd)) return wt_plan_streamed(p, isa, &gd, st, bytes);
    if (wt_geom(p, &st->g, 0, 0) != NULL) return false;
    const fast_geom *g = &st->g;
    const conv_ukernels *k = conv_ukernels_for(isa);
    st->isa = isa;
    st->mr = k->convwt_mr;
    st->nr = k->convwt_nr;
    st->ldb = round_up64(g->cout, 16);
    st->ldo = min64(st->ldb, FAST_WT_OBLOCK);
    st->rv = g->cout < FAST_RV_MAX_OG || g->cin * g->nt < FAST_RV_MAX_KROWS;
    const int64_t positions = st->rv ? max64(64, min64(FAST_RV_MAX_POSITIONS, FAST_WT_DYT_FLOATS / g->cout))
                                     : max64(16, FAST_WT_DYT_FLOATS / st->ldo);
    st->bcols = min64(g->wb, positions);
    st->brows = st->bcols == g->wb ? max64(1, positions / g->wb) : 1;
    st->nunits = smul(smul(g->n, g->os[0]), smul(g->nrb, g->nwb));
    /* flat: all output channels in one dy^T block when an image fits, so the
     * x rows of a kernel call are read once for every o tile */
    st->fnb = wt_flat_images(p, g, st->rv, st->ldb, &st->fcopy);
    if (st->fnb > 0)
        st->ldo = st->ldb;
    else
        st->fnb = wt_flat_images(p, g, st->rv, st->ldo, &st->fcopy);
    st->fpos = g->is[0] * g->is[1] * g->is[2];
    if (st->fnb > 0) { /* x is read in place or copied whole; blocks of whole images */
        st->nunits = ceil_div(g->n, st->fnb);
        st->brows = st->fnb;
        st->bcols = st->fpos;
    }
    st->nchunks = min64(st->nunits, FAST_WT_CHUNKS);
    st->slots = plan_slots();
    const cpu_bf16_dot_use dot = cpu_bf16_dot(isa);
    /* the flat path pairs each image's dy plane as one row: contiguous planes */
    const conv_view *y = &p->y;
    const bool yflat = y->stride[4] == 1 && (g->is[1] == 1 || y->stride[3] == g->is[2]) &&
                       (g->is[0] == 1 || y->stride[2] == g->is[1] * g->is[2]);
    st->pairs = dot != CPU_BF16_DOT_OFF && !st->rv && (st->fnb == 0 || yflat) &&
                p->mode == CONV_MODE_BF16 && p->x.dtype == ACL_BF16 && p->y.dtype == ACL_BF16 &&
                k->bf16_convwt && k->bf16_convwt_mr == st->mr && k->bf16_convwt_nr == st->nr;
    st->pairs_exact = st->pairs && dot == CPU_BF16_DOT_EXACT;
    st->part_floats = round_up64(smul(smul(smul(g->g, g->cin), g->nt), st->ldb), 16);
    /* rv: one kernel block of dy rows converted at a time (wt_block_rv) */
    const int64_t dyt_rows = st->rv ? min64(g->cout, CONV_UKERNEL_MAX_MR) : st->ldo;
    st->dyt_floats = round_up64(st->brows * st->bcols * dyt_rows + CONV_UKERNEL_SLACK, 16);
    if (st->part_floats > FAST_MAX_FLOATS || st->dyt_floats > FAST_MAX_FLOATS) return false;
    st->slab_pitch = st->fnb == 0 ? g->slab_floats
                     : st->fcopy  ? round_up64(st->fnb * st->mr * st->fpos + CONV_UKERNEL_SLACK, 16)
                                  : 16;
    uint64_t size = 0;
    int64_t parts, slabs, dyts;
    if (!checked_mul_i64(st->part_floats, st->nchunks, &parts) ||
        !checked_mul_i64(st->slab_pitch, st->slots, &slabs) ||
        !checked_mul_i64(st->dyt_floats, st->slots, &dyts))
        return false;
    if (!ws_take(&size, parts, &st->part_off) || !ws_take(&size, slabs, &st->slab_off) ||
        !ws_take(&size, dyts, &st->dyt_off))
        return false;
    /* whole images per unit (flat units always are): the lanes of each
     * (n, o) block fill in order */
    st->bias = conv_bias_fusable(p) && (st->fnb > 0 || (g->os[0] == 1 && g->nrb == 1 && g->nwb == 1));
    if (st->bias && !wt_take_bias(p, st, st->ldb, &size)) return false;
    *bytes = size;
    return true;
}

/* Rows of dy at hand (the streamed pass: a data slab): channel o's first
 * element of the block at at[o*cs], rows ld apart. */
typedef struct wt_dy_rows {
    const float *at;
    int64_t cs, ld;
} wt_dy_rows;

typedef struct wt_run {
    const conv_problem *p;
    const wt_state *st;
    const conv_ukernels *k;
    float *parts, *slabs, *dyts;
    float *lanes, *sums; /* st->bias */
    float *imgs;         /* st->img_floats: per slot an image copy */
    ptrdiff_t toff[FAST_MAX_TAPS];
    /* st->pairs: the kernel of this run (vdpbf16ps, or the fused
     * multiply-add one when it must agree bit for bit with it); *tiny set
     * once a block's operands fail the vdpbf16ps kernel's guard */
    bf16_convwt_ukernel_fn pairwt;
    bool guard; /* pairwt is the vdpbf16ps kernel: blocks are checked */
    atomic_int *tiny;
} wt_run;

/* p[m] = row q0 + m of a slab, m < CONV_UKERNEL_MAX_MR, the last of the rows
 * repeated past rows: row q is channel q / nt's tap q % nt at base. One
 * division per call (one per row took 4% of conv1d_wav_k10s5's bf16 pass,
 * whose reduction-vector kernel is called for every 4 of 512 channels). */
static inline void slab_row_offsets(ptrdiff_t *off, int64_t q0, int64_t rows, int64_t nt,
                                    int64_t cs, const ptrdiff_t *toff)
{
    int64_t c = q0 / nt, t = q0 % nt;
    for (int64_t m = 0; m < CONV_UKERNEL_MAX_MR; ++m) {
        if (m >= rows) {
            off[m] = off[rows - 1];
            continue;
        }
        off[m] = c * cs + toff[t];
        if (++t == nt) t = 0, ++c;
    }
}

static inline void slab_rows(const float **p, const float *base, int64_t q0, int64_t rows,
                             int64_t nt, int64_t cs, const ptrdiff_t *toff)
{
    ptrdiff_t off[CONV_UKERNEL_MAX_MR];
    slab_row_offsets(off, q0, rows, nt, cs, toff);
    for (int m = 0; m < CONV_UKERNEL_MAX_MR; ++m)
        p[m] = base + off[m];
}

/* dyT[(r*ncol + j)*ldo + o] = rounded dy[n, o0 + o, od, h0 + r, c0 + j] for
 * o < oc, zero for oc <= o < ldo. */
static void pack_dyt(const wt_run *r, int64_t n, int64_t o0, int64_t oc, int64_t od, int64_t h0,
                     int64_t nrow, int64_t c0, int64_t ncol, float *dyt)
{
    const wt_state *st = r->st;
    const conv_view *v = &r->p->y;
    const int64_t ldb = st->ldo;
    enum { CHUNK = 64 };
    float buf[FAST_WT_OBLOCK * CHUNK];
    /* fp32 rows: the ISA's transpose kernel; whole planes at once when the
     * rows are contiguous. In a rounding mode the block is then rounded in
     * place in one call (the rounding is element-wise: it commutes with the
     * transpose); a rounding copy of every 64-position piece of a row before
     * the transpose, a call each, made r50_stem7x7's weights pass +19% in
     * cubeMathType 1 */
    const bool plain = v->dtype == ACL_FLOAT && v->stride[4] == 1;
    const bool flat = plain && nrow > 1 && v->stride[3] == ncol;
    for (int64_t rr = 0; rr < nrow; ++rr) {
        float *drow = dyt + rr * ncol * ldb;
        if (plain) {
            if (!flat || rr == 0)
                r->k->transpose((size_t)oc, (size_t)(flat ? nrow * ncol : ncol),
                                (const float *)v->data + conv_view_index(v, n, o0, od, h0 + rr, c0),
                                (size_t)v->stride[1], drow, (size_t)ldb);
        } else
        for (int64_t w0 = 0; w0 < ncol; w0 += CHUNK)
            for (int64_t ob = 0; ob < oc; ob += FAST_WT_OBLOCK) {
                /* widened / rounded rows of CHUNK positions, then the transpose
                 * kernel; FAST_WT_OBLOCK rows at a time (the flat path's blocks
                 * hold every output channel) */
                const int64_t cnt = min64(CHUNK, ncol - w0), bytes = cnt * v->stride[4] * dtype_bytes(v->dtype);
                const int64_t nb = min64(FAST_WT_OBLOCK, oc - ob);
                /* the rows lie in nb planes: request them all first (one row
                 * after the other would wait for memory nb times) */
                for (int64_t o = ob; o < ob + nb; ++o) {
                    const char *src = (const char *)v->data +
                                      conv_view_index(v, n, o0 + o, od, h0 + rr, c0 + w0) * dtype_bytes(v->dtype);
                    ukernel_prefetch_run(src, bytes, 0);
                }
                for (int64_t o = ob; o < ob + nb; ++o)
                    conv_load_row(v, n, o0 + o, od, h0 + rr, c0 + w0, 1, cnt, r->p->mode, r->k,
                                  buf + (o - ob) * CHUNK);
                r->k->transpose((size_t)nb, (size_t)cnt, buf, CHUNK, drow + w0 * ldb + ob, (size_t)ldb);
            }
        if (ldb > oc)
            for (int64_t j = 0; j < ncol; ++j)
                for (int64_t o = oc; o < ldb; ++o) drow[j * ldb + o] = 0.0f;
    }
    if (plain && r->p->mode != CONV_MODE_F32)
        r->k->f32_round((size_t)(nrow * ncol * ldb), dyt, dyt, conv_round_kind(r->p->mode));
    memset(dyt + nrow * ncol * ldb, 0, CONV_UKERNEL_SLACK * sizeof(float));
}

/* The BF16 pair form of pack_dyt (a BF16 view, mode BF16: bits copied):
 * dyT[(rr*lenp + q)*ldo + o] = the pair (dy[.., c0 + 2q] low, dy[.., c0 + 2q
 * + 1] high, +0 past ncol) of channel o0 + o, row h0 + rr, lenp =
 * ceil(ncol / 2); zero for oc <= o < ldo. Returns the block's smallest
 * exponent field (k's bf16_minexp). */
static int pack_dyt_pairs(const wt_run *r, int64_t n, int64_t o0, int64_t oc, int64_t od,
                          int64_t h0, int64_t nrow, int64_t c0, int64_t ncol, uint32_t *dyt)
{
    const conv_view *v = &r->p->y;
    const int64_t ldb = r->st->ldo, lenp = (ncol + 1) / 2, full = ncol / 2;
    const uint16_t *src = (const uint16_t *)(const void *)v->data;
    /* unit W stride and an even channel stride: rows of pairs are rows of
     * 32-bit words, transposed (and scanned) by the ISA's kernel */
    const bool words = v->stride[4] == 1 && v->stride[1] % 2 == 0;
    int emin = 255;
    /* whole rows of even length one after another: each channel's pairs
     * are one run of words, the block one call (a call per row of 28 was
     * ~3% of vgg's bf16 weights pass, most of it waiting on its loads: a
     * run is a stream the prefetchers follow) */
    const bool run = words && full > 0 && ncol % 2 == 0 && nrow > 1 && v->stride[3] == ncol;
    if (run)
        emin = r->k->bf16_pairt(
            (size_t)oc, (size_t)(nrow * full),
            (const uint32_t *)(const void *)(src + conv_view_index(v, n, o0, od, h0, c0)),
            (size_t)(v->stride[1] / 2), dyt, (size_t)ldb, emin);
    for (int64_t rr = 0; rr < nrow; ++rr) {
        uint32_t *drow = dyt + rr * lenp * ldb;
        const int64_t at = conv_view_index(v, n, o0, od, h0 + rr, c0);
        if (words && full > 0) {
            if (!run)
                emin = r->k->bf16_pairt((size_t)oc, (size_t)full,
                                        (const uint32_t *)(const void *)(src + at),
                                        (size_t)(v->stride[1] / 2), drow, (size_t)ldb, emin);
        } else {
            for (int64_t q = 0; q < full; ++q)
                for (int64_t o = 0; o < oc; ++o) {
                    const uint16_t *e = src + at + o * v->stride[1] + 2 * q * v->stride[4];
                    drow[q * ldb + o] = (uint32_t)e[v->stride[4]] << 16 | e[0];
                    emin = r->k->bf16_minexp(
                        2, (const uint16_t *)(const void *)(drow + q * ldb + o), NULL, emin);
                }
        }
        if (ncol & 1)
            for (int64_t o = 0; o < oc; ++o) {
                const uint16_t e = src[at + o * v->stride[1] + (ncol - 1) * v->stride[4]];
                drow[full * ldb + o] = e;
                emin = r->k->bf16_minexp(1, &e, NULL, emin);
            }
        if (ldb > oc)
            for (int64_t q = 0; q < lenp; ++q)
                memset(drow + q * ldb + oc, 0, (size_t)(ldb - oc) * sizeof(uint32_t));
    }
    memset(dyt + nrow * lenp * ldb, 0, CONV_UKERNEL_SLACK * sizeof(float));
    return emin;
}

/* gradBias lanes of dy rows [h0, h0 + nrow) x [c0, c0 + ncol) of plane od of
 * channels [o0, o0 + oc) of image n (lanes[o*16 ...] for channel o0 + o),
 * right after a kernel or a transpose read them: from the view (one call
 * for all channels when each one's rows are one run), or from the rows the
 * kernel read, x[o*xcs + rr*xld + j], when they hold dy's values
 * (conv_bias_add_f32). */
static void bias_block_rows(const wt_run *r, float *lanes, const float *x, int64_t xcs, int64_t xld,
                            int64_t n, int64_t o0, int64_t oc, int64_t od, int64_t h0, int64_t nrow,
                            int64_t c0, int64_t ncol)
{
    const conv_view *src = &r->p->bias_src;
    const int64_t hh = r->st->g.os[1], ww = r->st->g.os[2];
    if (x) {
        for (int64_t rr = 0; rr < nrow; ++rr)
            conv_bias_add_f32(lanes, (od * hh + h0 + rr) * ww + c0, x + rr * xld, xcs, oc, ncol, r->k);
        return;
    }
    const bool run = ncol == ww && src->stride[4] == 1 && (nrow == 1 || src->stride[3] == ww);
    if (run) {
        conv_bias_add_rows(lanes, (od * hh + h0) * ww, src, n, o0, oc, od, h0, 0, nrow * ww, r->k);
        return;
    }
    for (int64_t rr = 0; rr < nrow; ++rr)
        conv_bias_add_rows(lanes, (od * hh + h0 + rr) * ww + c0, src, n, o0, oc, od, h0 + rr, c0, ncol,
                           r->k);
}

/* Block sums S(n, o0 + o) = the tree of lanes[o], o < oc (image n complete). */
static void bias_block_sums(const wt_run *r, float *lanes, int64_t n, int64_t o0, int64_t oc)
{
    const conv_view *src = &r->p->bias_src;
    const int64_t channels = src->dim[1];
    for (int64_t o = 0; o < oc; ++o) {
        float s = conv_bias_lanes_sum(lanes + o * CONV_BIAS_LANES);
        if (isnan(s)) /* lanes from loaded rows may hold a NaN without its payload */
            s = conv_bias_block_sum(src, n, o0 + o, r->k);
        r->sums[n * channels + o0 + o] = s;
    }
}

/* The reduction-vector path of one position block: dW^T[(c,t)][o] += dy row
 * o . slab rows of (c,t), dy read in place or, a block of the kernel's rows
 * at a time, converted into dyr[m][rr*ncol + j] (small: in L1 when the
 * kernel reads it; converting every row of the block first left 512 KB to
 * be read back from L2 / L3: conv1d_wav_k10s5's bf16 weights pass). cold:
 * dy's rows come from memory (not just read by the data pass). */
static void wt_block_rv(const wt_run *r, bool cold, const float *slab, int64_t cs,
                        const wt_dy_rows *dys, float *dyr, float *pg, float *lanes, int64_t n,
                        int64_t grp, int64_t od, int64_t oh0, int64_t r0, int64_t nrow, int64_t ow0,
                        int64_t c0, int64_t ncol)
{
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const conv_view *y = &r->p->y;
    const int64_t krows = g->cin * g->nt;
    /* dy rows: given (rounded already), read in place (the kernel reads
     * exactly len elements), or copied */
    const bool in_place =
        dys || (y->dtype == ACL_FLOAT && r->p->mode == CONV_MODE_F32 && y->stride[4] == 1);
    const float *dy0 = dys        ? dys->at
                       : in_place ? (const float *)y->data +
                                        conv_view_index(y, n, grp * g->cout, od, oh0 + r0, ow0 + c0)
                                  : dyr;
    const int64_t blk = dys ? dys->cs : in_place ? y->stride[1] : nrow * ncol;
    const int64_t ars = dys ? dys->ld : in_place ? y->stride[3] : ncol;
    const bool one = g->cout == 1;
    const f32_convrv_ukernel_fn kern = one ? r->k->convrv1 : r->k->convrv;
    const int rmr = one ? 1 : r->k->convrv_mr, rnr = one ? r->k->convrv1_nr : r->k->convrv_nr;
    for (int64_t o0 = 0; o0 < g->cout; o0 += rmr) {
        const int64_t mr = min64(rmr, g->cout - o0);
        if (!in_place) {
            const int64_t es = y->dtype == ACL_FLOAT ? 4 : 2;
            /* fp32 rows with unit steps (here only in a rounding mode: in
             * mode 0 they are read in place): the rounding kernel straight
             * from the row, no view indexing per row (conv1d_wav_k10s5's
             * rows of ~240 values: -2% CPU time in cubeMathType 1) */
            const bool f32_rows = y->dtype == ACL_FLOAT && y->stride[4] == 1;
            const int kind = conv_round_kind(r->p->mode);
            const char *src0 =
                (const char *)y->data +
                conv_view_index(y, n, grp * g->cout + o0, od, oh0 + r0, ow0 + c0) * es;
            for (int64_t m = 0; m < mr; ++m)
                for (int64_t rr = 0; rr < nrow; ++rr) {
                    const char *src = src0 + (m * y->stride[1] + rr * y->stride[3]) * es;
                    float *dst = dyr + m * blk + rr * ncol;
                    /* the row of the next block: short pieces of long rows
                     * are no stream for the hardware prefetchers */
                    if (o0 + rmr + m < g->cout && y->stride[4] == 1)
                        ukernel_prefetch_run(src + rmr * y->stride[1] * es, ncol * es, 0);
                    if (f32_rows)
                        r->k->f32_round((size_t)ncol, (const float *)src, dst, kind);
                    else
                        conv_load_row(y, n, grp * g->cout + o0 + m, od, oh0 + r0 + rr, ow0 + c0, 1,
                                      ncol, r->p->mode, r->k, dst);
                }
        }
        /* rows read in place from memory: short pieces of rows far apart
         * (conv1d_wav_k10s5: 240 floats of rows 12.8 KB apart) that no
         * hardware prefetcher follows, asked for FAST_RV_AHEAD kernel row
         * blocks ahead (its weights pass -10 to -35% on 2 threads; when the
         * fused data pass has just read them, +10%: not then) */
        if (in_place && cold && o0 + (FAST_RV_AHEAD + 1) * rmr <= g->cout)
            for (int64_t m = 0; m < rmr; ++m)
                for (int64_t rr = 0; rr < nrow; ++rr)
                    ukernel_prefetch_run(
                        (const char *)(dy0 + (o0 + FAST_RV_AHEAD * rmr + m) * blk + rr * ars),
                        ncol * (int64_t)sizeof(float), 0);
        const float *a[CONV_UKERNEL_MAX_MR];
        for (int64_t m = 0; m < CONV_UKERNEL_MAX_MR; ++m)
            a[m] = (in_place ? dy0 + o0 * blk : dyr) + min64(m, mr - 1) * blk;
        for (int64_t q0 = 0; q0 < krows; q0 += rnr) {
            const int64_t nr = min64(rnr, krows - q0);
            const float *b[CONV_UKERNEL_MAX_MR];
            slab_rows(b, slab + r0 * g->wp + c0, q0, nr, g->nt, cs, r->toff);
            kern((size_t)mr, (size_t)nr, (size_t)nrow, (size_t)ncol, a, (size_t)ars, b,
                         (size_t)g->wp, pg + q0 * st->ldb + o0, 1, (size_t)st->ldb, 1);
        }
        /* gradBias lanes from the dy rows just read (in L1), the kernel's
         * own when they hold dy's values (16-bit dy: not widened twice);
         * blocks come in the flattened order of the image */
        if (lanes) {
            /* (rounded rows: dy's own fp32 rows, in L1 too after the copy) */
            const bool keeps = conv_mode_keeps(y->dtype, r->p->mode);
            const bool view = !keeps && y->dtype == ACL_FLOAT && y->stride[4] == 1;
            const float *bx = keeps ? a[0]
                              : view ? (const float *)y->data +
                                           conv_view_index(y, n, grp * g->cout + o0, od,
                                                           oh0 + r0, ow0 + c0)
                                     : NULL;
            bias_block_rows(r, lanes + o0 * CONV_BIAS_LANES, bx, view ? y->stride[1] : blk,
                            view ? y->stride[3] : ars, n, grp * g->cout + o0, mr, od, oh0 + r0,
                            nrow, ow0 + c0, ncol);
        }
    }
}

/* Part i of k of x's channels [c, c + rows) of images [n0, n0 + nb) (the
 * flat path's next row tile, read in place) asked for into L2, when each
 * image's rows are one run. Each row of x is 196 floats in r50_c4_1x1, a short
 * stream per image and row that the hardware prefetchers pick up late;
 * asked for a tile ahead, a part before each of the tile's calls over o,
 * its weights pass -6 to -8% on 2 threads, -4% on 1 (into L1: -2.5%). */
static void flat_prefetch_part(const conv_view *x, int64_t n0, int64_t nb, int64_t c, int64_t rows,
                               int64_t fpos, int64_t i, int64_t k)
{
    if (rows < 1 || (rows > 1 && x->stride[1] != fpos)) return;
    const int64_t es = dtype_bytes(x->dtype), bytes = rows * fpos * es;
    const int64_t lo = bytes * i / k / UKERNEL_CACHE_LINE * UKERNEL_CACHE_LINE,
                  hi = bytes * (i + 1) / k;
    for (int64_t n = n0; n < n0 + nb; ++n) {
        const char *at = (const char *)x->data + conv_view_index(x, n, c, 0, 0, 0) * es;
        ukernel_prefetch_run(at + lo, hi - lo, 1);
    }
}

/* The flat path (wt_flat_images): units [u0, u1) of fnb images each. dy^T of
 * the unit's images, image after image; then every (c, o) tile reduces over
 * all their positions in one call (images ascending, positions ascending). */
static void wt_chunk_flat(const wt_run *r, int64_t u0, int64_t u1, float *part, float *dyt,
                          float *lanes, float *xbuf)
{
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const conv_view *x = &r->p->x;
    const int64_t krows = g->cin, plane = g->is[1] * g->is[2];
    for (int64_t u = u0; u < u1; ++u) {
        const int64_t n0 = u * st->fnb, nb = min64(st->fnb, g->n - n0);
        for (int64_t grp = 0; grp < g->g; ++grp)
        for (int64_t ob = 0; ob < g->cout; ob += st->ldo) {
            const int64_t oc = min64(st->ldo, g->cout - ob);
            for (int64_t i = 0; i < nb; ++i) {
                if (lanes) memset(lanes, 0, (size_t)(oc * CONV_BIAS_LANES) * sizeof(float));
                for (int64_t d = 0; d < g->is[0]; ++d) {
                    pack_dyt(r, n0 + i, grp * g->cout + ob, oc, d, 0, g->is[1], 0, g->is[2],
                             dyt + (i * st->fpos + d * plane) * st->ldo);
                    if (lanes) bias_block_rows(r, lanes, NULL, 0, 0, n0 + i, grp * g->cout + ob, oc, d, 0, g->is[1], 0, g->is[2]);
                }
                if (lanes) bias_block_sums(r, lanes, n0 + i, grp * g->cout + ob, oc);
            }
            const float *x0 = (const float *)x->data + conv_view_index(x, n0, grp * g->cin, 0, 0, 0);
            float *pg = part + grp * krows * st->ldb + ob;
            for (int64_t q0 = 0; q0 < krows; q0 += st->mr) {
                const int64_t mr = min64(st->mr, krows - q0);
                const float *a[CONV_UKERNEL_MAX_MR];
                /* x's rows in place, or the tile's rows of each image
                 * widened / rounded into the slot (in L1; one run of mr rows
                 * per image) */
                const int64_t xns =
                    st->fcopy ? st->mr * st->fpos : x->stride[0]; /* image to image */
                if (st->fcopy) {
                    for (int64_t i = 0; i < nb; ++i)
                        conv_load_row(x, n0 + i, grp * g->cin + q0, 0, 0, 0, 1, mr * st->fpos,
                                      r->p->mode, r->k, xbuf + i * xns);
                    for (int64_t m = 0; m < st->mr; ++m) a[m] = xbuf + min64(m, mr - 1) * st->fpos;
                } else {
                    for (int64_t m = 0; m < st->mr; ++m)
                        a[m] = x0 + (q0 + min64(m, mr - 1)) * x->stride[1];
                }
                const int64_t ncall = ceil_div(oc, st->nr);
                for (int64_t o0 = 0; o0 < oc; o0 += st->nr) {
                    const int64_t nr = min64(st->nr, oc - o0);
                    flat_prefetch_part(x, n0, nb, grp * g->cin + q0 + mr,
                                       min64(st->mr, krows - q0 - mr), st->fpos, o0 / st->nr, ncall);
                    /* the next row tile's partial sums, as in wt_oblock_gemm
                     * (r50_c4_1x1's weights pass -3 to -8% CPU) */
                    if (q0 + mr < krows)
                        prefetch_tile(pg + (q0 + mr) * st->ldb + o0, min64(st->mr, krows - q0 - mr),
                                      st->ldb, nr, 4);
                    r->k->convwt((size_t)mr, (size_t)nr, (size_t)nb, (size_t)st->fpos, a,
                                 (size_t)xns, dyt + o0, (size_t)st->ldo,
                                 pg + q0 * st->ldb + o0, (size_t)st->ldb, u > u0);
                }
            }
        }
    }
}

/* wt_chunk_flat over BF16 pairs: x's rows read in place as bf16 (two
 * positions a step, pairs running on across the rows of a plane), each
 * image's dy plane paired as one row of fpos positions (pack_dyt_pairs).
 * Each row tile's x rows are scanned for the vdpbf16ps guard right before
 * its calls (into L1 for them); a failing tile sets *r->tiny and the pass is
 * redone (wt_run_pass). */
static void wt_chunk_flat_pairs(const wt_run *r, int64_t u0, int64_t u1, float *part, uint32_t *dyt,
                                float *lanes)
{
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const conv_view *x = &r->p->x;
    const int64_t krows = g->cin, lenp = (st->fpos + 1) / 2;
    for (int64_t u = u0; u < u1; ++u) {
        const int64_t n0 = u * st->fnb, nb = min64(st->fnb, g->n - n0);
        for (int64_t grp = 0; grp < g->g; ++grp)
            for (int64_t ob = 0; ob < g->cout; ob += st->ldo) {
                const int64_t oc = min64(st->ldo, g->cout - ob);
                int ymin = 255;
                for (int64_t i = 0; i < nb; ++i) {
                    const int e = pack_dyt_pairs(r, n0 + i, grp * g->cout + ob, oc, 0, 0, 1, 0,
                                                 st->fpos, dyt + i * lenp * st->ldo);
                    ymin = e < ymin ? e : ymin;
                    if (lanes) {
                        memset(lanes, 0, (size_t)(oc * CONV_BIAS_LANES) * sizeof(float));
                        for (int64_t d = 0; d < g->is[0]; ++d)
                            bias_block_rows(r, lanes, NULL, 0, 0, n0 + i, grp * g->cout + ob, oc, d,
                                            0, g->is[1], 0, g->is[2]);
                        bias_block_sums(r, lanes, n0 + i, grp * g->cout + ob, oc);
                    }
                }
                const uint16_t *x0 = (const uint16_t *)(const void *)x->data +
                                     conv_view_index(x, n0, grp * g->cin, 0, 0, 0);
                float *pg = part + grp * krows * st->ldb + ob;
                for (int64_t q0 = 0; q0 < krows; q0 += st->mr) {
                    const int64_t mr = min64(st->mr, krows - q0);
                    const uint16_t *a[CONV_UKERNEL_MAX_MR];
                    for (int64_t m = 0; m < st->mr; ++m)
                        a[m] = x0 + (q0 + min64(m, mr - 1)) * x->stride[1];
                    if (r->guard) {
                        int xmin = 255;
                        for (int64_t i = 0; i < nb; ++i)
                            for (int64_t m = 0; m < mr; ++m)
                                xmin = r->k->bf16_minexp((size_t)st->fpos, a[m] + i * x->stride[0],
                                                         NULL, xmin);
                        if (xmin < 1 || ymin < 1 || xmin + ymin < BF16_DOT_MIN_EXPONENTS) {
                            atomic_store_explicit(r->tiny, 1, memory_order_relaxed);
                            return;
                        }
                    }
                    const int64_t ncall = ceil_div(oc, st->nr);
                    for (int64_t o0 = 0; o0 < oc; o0 += st->nr) {
                        const int64_t nr = min64(st->nr, oc - o0);
                        /* the next row tile's x, a part per call, as wt_chunk_flat */
                        flat_prefetch_part(x, n0, nb, grp * g->cin + q0 + mr,
                                           min64(st->mr, krows - q0 - mr), st->fpos, o0 / st->nr,
                                           ncall);
                        if (q0 + mr < krows)
                            prefetch_tile(pg + (q0 + mr) * st->ldb + o0,
                                          min64(st->mr, krows - q0 - mr), st->ldb, nr, 4);
                        r->pairwt((size_t)mr, (size_t)nr, (size_t)nb, (size_t)st->fpos, a,
                                  (size_t)x->stride[0], dyt + o0, (size_t)st->ldo,
                                  pg + q0 * st->ldb + o0, (size_t)st->ldb, u > u0);
                    }
                }
            }
    }
}

/* A block of dy a GEMM-path kernel call reads: image n, plane od,
 * channels [o0, o0 + oc), rows [h0, h0 + nrow), columns [c0, c0 + ncol). */
typedef struct dy_block {
    int64_t n, o0, oc, od, h0, nrow, c0, ncol;
} dy_block;

/* The block after the one at (ob, r0, c0) of a unit (image n, group grp,
 * plane od, output rows [oh0, oh0 + rows), columns [ow0, ow0 + ow_n)) for
 * the same output channels [ob, ob + ldo), in the GEMM path's order
 * (columns, then rows); false after the last. (Also the first block of the
 * next ldo channels: vgg's bf16 pass no faster, the requests' stalls took
 * what the transposes gained.) */
static bool wt_next_block(const wt_state *st, int64_t n, int64_t grp, int64_t od, int64_t oh0,
                          int64_t rows, int64_t ow0, int64_t ow_n, int64_t ob, int64_t r0,
                          int64_t c0, dy_block *b)
{
    int64_t nr0 = r0, nc0 = c0 + st->bcols;
    if (nc0 >= ow_n) nr0 = r0 + st->brows, nc0 = 0;
    if (nr0 >= rows) return false;
    *b = (dy_block){.n = n,
                    .o0 = grp * st->g.cout + ob,
                    .oc = min64(st->ldo, st->g.cout - ob),
                    .od = od,
                    .h0 = oh0 + nr0,
                    .nrow = min64(st->brows, rows - nr0),
                    .c0 = ow0 + nc0,
                    .ncol = min64(st->bcols, ow_n - nc0)};
    return true;
}

/* Part i of k of dy's block b asked for into L2 when each channel's rows
 * are one run: the next block's transpose (bf16_pairt, the fp32 transpose)
 * otherwise waits on its loads (6% of r50_c2_3x3's bf16 and fp32 weights
 * passes on one thread; flat_prefetch_part's scheme: a part before each of
 * the current block's kernel calls). */
static void dy_prefetch_part(const conv_view *y, const dy_block *b, int64_t i, int64_t k)
{
    if (y->stride[4] != 1 || (b->nrow > 1 && y->stride[3] != b->ncol)) return;
    const int64_t es = dtype_bytes(y->dtype), bytes = b->nrow * b->ncol * es;
    const int64_t lo = bytes * i / k / UKERNEL_CACHE_LINE * UKERNEL_CACHE_LINE,
                  hi = bytes * (i + 1) / k;
    for (int64_t o = b->o0; o < b->o0 + b->oc; ++o) {
        const char *at =
            (const char *)y->data + conv_view_index(y, b->n, o, b->od, b->h0, b->c0) * es;
        ukernel_prefetch_run(at + lo, hi - lo, 1);
    }
}

/* The GEMM path for output channels [ob, ob + ldo) of group grp over a unit's
 * positions: dy^T per position block, then every (c, tap) x o tile. lanes:
 * gradBias lanes of the block's channels (the unit is image n), or NULL.
 * fresh: the unit is its chunk's first, whose first block writes the tiles. */
static void wt_oblock_gemm(const wt_run *r, const float *xs, int64_t cs, float *dyt, float *pg, float *lanes,
                           int64_t n, int64_t grp, int64_t od, int64_t oh0, int64_t rows, int64_t ow0,
                           int64_t ow_n, int64_t ob, bool fresh)
{
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const int64_t krows = g->cin * g->nt, oc = min64(st->ldo, g->cout - ob);
    if (lanes) memset(lanes, 0, (size_t)(oc * CONV_BIAS_LANES) * sizeof(float));
    for (int64_t r0 = 0; r0 < rows; r0 += st->brows)
        for (int64_t c0 = 0; c0 < ow_n; c0 += st->bcols) {
            const int64_t nrow = min64(st->brows, rows - r0), ncol = min64(st->bcols, ow_n - c0);
            pack_dyt(r, n, grp * g->cout + ob, oc, od, oh0 + r0, nrow, ow0 + c0, ncol, dyt);
            if (lanes) bias_block_rows(r, lanes, NULL, 0, 0, n, grp * g->cout + ob, oc, od, oh0 + r0, nrow, ow0 + c0, ncol);
            /* the unit's next block, if any, asked for a part per call */
            dy_block next;
            const bool ahead =
                wt_next_block(st, n, grp, od, oh0, rows, ow0, ow_n, ob, r0, c0, &next);
            const int64_t calls = ceil_div(krows, st->mr) * ceil_div(oc, st->nr);
            int64_t call = 0;
            for (int64_t q0 = 0; q0 < krows; q0 += st->mr) {
                const int64_t mr = min64(st->mr, krows - q0);
                const float *a[CONV_UKERNEL_MAX_MR];
                slab_rows(a, xs + r0 * g->wp + c0, q0, mr, g->nt, cs, r->toff);
                for (int64_t o0 = 0; o0 < oc; o0 += st->nr) {
                    const int64_t nr = min64(st->nr, oc - o0);
                    /* the next call's partial sums (its first loads
                     * waited on them: ~10% of the kernel's samples in
                     * deconv2d_k4s2's weights pass; -3 to -10% CPU) */
                    if (q0 + st->mr < krows)
                        prefetch_tile(pg + (q0 + st->mr) * st->ldb + ob + o0,
                                      min64(st->mr, krows - q0 - st->mr), st->ldb, nr, 4);
                    if (ahead) dy_prefetch_part(&r->p->y, &next, call++, calls);
                    r->k->convwt((size_t)mr, (size_t)nr, (size_t)nrow, (size_t)ncol, a, (size_t)g->wp, dyt + o0,
                                 (size_t)st->ldo, pg + q0 * st->ldb + ob + o0, (size_t)st->ldb,
                                 !fresh || r0 > 0 || c0 > 0);
                }
            }
        }
    if (lanes) bias_block_sums(r, lanes, n, grp * g->cout + ob, oc);
}

/* wt_oblock_gemm over BF16 pairs: xs is a bf16 slab (pack_slab_bf16) whose
 * smallest exponent field is xmin. A block whose operands fail the
 * vdpbf16ps kernel's guard sets *r->tiny: the run is then redone with the
 * fused multiply-add kernel (wt_run_pass). */
static void wt_oblock_gemm_pairs(const wt_run *r, const uint16_t *xs, int xmin, uint32_t *dyt,
                                 float *pg, float *lanes, int64_t n, int64_t grp, int64_t od,
                                 int64_t oh0, int64_t rows, int64_t ow0, int64_t ow_n, int64_t ob,
                                 bool fresh)
{
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const int64_t krows = g->cin * g->nt, oc = min64(st->ldo, g->cout - ob);
    if (lanes) memset(lanes, 0, (size_t)(oc * CONV_BIAS_LANES) * sizeof(float));
    for (int64_t r0 = 0; r0 < rows; r0 += st->brows)
        for (int64_t c0 = 0; c0 < ow_n; c0 += st->bcols) {
            const int64_t nrow = min64(st->brows, rows - r0), ncol = min64(st->bcols, ow_n - c0);
            const int ymin = pack_dyt_pairs(r, n, grp * g->cout + ob, oc, od, oh0 + r0, nrow,
                                            ow0 + c0, ncol, dyt);
            if (r->guard && (xmin < 1 || ymin < 1 || xmin + ymin < BF16_DOT_MIN_EXPONENTS)) {
                atomic_store_explicit(r->tiny, 1, memory_order_relaxed);
                return;
            }
            if (lanes)
                bias_block_rows(r, lanes, NULL, 0, 0, n, grp * g->cout + ob, oc, od, oh0 + r0, nrow,
                                ow0 + c0, ncol);
            /* the unit's next block, if any, asked for a part per call */
            dy_block next;
            const bool ahead =
                wt_next_block(st, n, grp, od, oh0, rows, ow0, ow_n, ob, r0, c0, &next);
            const int64_t calls = ceil_div(krows, st->mr) * ceil_div(oc, st->nr);
            int64_t call = 0;
            for (int64_t q0 = 0; q0 < krows; q0 += st->mr) {
                const int64_t mr = min64(st->mr, krows - q0);
                ptrdiff_t off[CONV_UKERNEL_MAX_MR];
                const uint16_t *a[CONV_UKERNEL_MAX_MR];
                slab_row_offsets(off, q0, mr, g->nt, g->cs, r->toff);
                for (int m = 0; m < CONV_UKERNEL_MAX_MR; ++m)
                    a[m] = xs + r0 * g->wp + c0 + off[m];
                for (int64_t o0 = 0; o0 < oc; o0 += st->nr) {
                    const int64_t nr = min64(st->nr, oc - o0);
                    if (q0 + st->mr < krows)
                        prefetch_tile(pg + (q0 + st->mr) * st->ldb + ob + o0,
                                      min64(st->mr, krows - q0 - st->mr), st->ldb, nr, 4);
                    if (ahead) dy_prefetch_part(&r->p->y, &next, call++, calls);
                    r->pairwt((size_t)mr, (size_t)nr, (size_t)nrow, (size_t)ncol, a, (size_t)g->wp,
                              dyt + o0, (size_t)st->ldo, pg + q0 * st->ldb + ob + o0,
                              (size_t)st->ldb, !fresh || r0 > 0 || c0 > 0);
                }
            }
        }
    if (lanes) bias_block_sums(r, lanes, n, grp * g->cout + ob, oc);
}

static void wt_chunk_task(void *ctx, size_t chunk, int slot)
{
    const wt_run *r = ctx;
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    float *part = r->parts + (int64_t)chunk * st->part_floats;
    float *slab = r->slabs + (int64_t)slot * st->slab_pitch;
    float *dyt = r->dyts + (int64_t)slot * st->dyt_floats;
    /* the GEMM kernels' first call for a tile of the chunk writes it (the same
     * bits as summing from +0); the reduction-vector kernel adds a lane tree
     * to c, and +0 + -0 is +0, so its partials start from zeros */
    if (st->rv) memset(part, 0, (size_t)st->part_floats * sizeof(float));
    const int64_t u0 = (int64_t)chunk * st->nunits / st->nchunks;
    const int64_t u1 = ((int64_t)chunk + 1) * st->nunits / st->nchunks;
    const int64_t krows = g->cin * g->nt;
    if (st->fnb > 0 && st->pairs) {
        if (!atomic_load_explicit(r->tiny, memory_order_relaxed))
            wt_chunk_flat_pairs(r, u0, u1, part, (uint32_t *)(void *)dyt,
                                st->bias ? r->lanes + (int64_t)slot * st->lane_floats : NULL);
        return;
    }
    if (st->fnb > 0) {
        wt_chunk_flat(r, u0, u1, part, dyt, st->bias ? r->lanes + (int64_t)slot * st->lane_floats : NULL,
                      slab);
        return;
    }
    for (int64_t u = u0; u < u1; ++u) {
        const int64_t cbi = u % g->nwb, v = u / g->nwb;
        const int64_t rbi = v % g->nrb, od = (v / g->nrb) % g->os[0], n = v / g->nrb / g->os[0];
        const int64_t oh0 = rbi * g->rb, rows = min64(g->rb, g->os[1] - oh0);
        const int64_t ow0 = cbi * g->wb, ow_n = min64(g->wb, g->os[2] - ow0);
        for (int64_t grp = 0; grp < g->g; ++grp) {
            if (st->pairs) {
                if (atomic_load_explicit(r->tiny, memory_order_relaxed)) return; /* redone */
                uint16_t *xs = (uint16_t *)(void *)slab;
                const int xmin =
                    pack_slab_bf16(g, &r->p->x, r->k, n, grp * g->cin, od, oh0, ow0, xs);
                float *lanes = st->bias ? r->lanes + (int64_t)slot * st->lane_floats : NULL;
                for (int64_t ob = 0; ob < g->cout; ob += st->ldo)
                    wt_oblock_gemm_pairs(r, xs, xmin, (uint32_t *)(void *)dyt,
                                         part + grp * krows * st->ldb, lanes, n, grp, od, oh0, rows,
                                         ow0, ow_n, ob, u == u0);
                continue;
            }
            const float *xs = slab;
            int64_t cs = g->cs;
            if (!slab_in_place(g, &r->p->x, r->p->mode, n, grp * g->cin, od, oh0, ow0, false, &xs, &cs))
                pack_slab(g, &r->p->x, r->p->mode, r->k, n, grp * g->cin, od, oh0, ow0, slab);
            float *pg = part + grp * krows * st->ldb;
            if (st->rv) {
                float *lanes = st->bias ? r->lanes + (int64_t)slot * st->lane_floats : NULL;
                if (lanes) memset(lanes, 0, (size_t)st->lane_floats * sizeof(float));
                for (int64_t r0 = 0; r0 < rows; r0 += st->brows)
                    for (int64_t c0 = 0; c0 < ow_n; c0 += st->bcols)
                        wt_block_rv(r, true, xs, cs, NULL, dyt, pg, lanes, n, grp, od, oh0, r0,
                                    min64(st->brows, rows - r0), ow0, c0,
                                    min64(st->bcols, ow_n - c0));
                if (lanes) /* the unit was image n: its blocks are complete */
                    bias_block_sums(r, lanes, n, grp * g->cout, g->cout);
                continue;
            }
            /* GEMM path: blocks of ldo output channels, each over all positions */
            float *lanes = st->bias ? r->lanes + (int64_t)slot * st->lane_floats : NULL;
            for (int64_t ob = 0; ob < g->cout; ob += st->ldo)
                wt_oblock_gemm(r, xs, cs, dyt, pg, lanes, n, grp, od, oh0, rows, ow0, ow_n, ob, u == u0);
        }
    }
}

/* Channels of x per finish task: a one-tap fp32 gradWeight with adjacent
 * channels is stored as 16 x OG blocks by the transpose kernel (one store
 * per element at a stride of C floats took 4.5% of r50_c4_1x1's weights
 * pass). */
#define FAST_WT_FINISH_BLOCK 16
/* floats of wt_finish_task's transposed block for 16-bit gradWeight (16 KB) */
#define FAST_WT_FINISH_BUF 4096

/* 16-bit gradWeight from rows [0, rows) of sums (row pitch lds, output
 * channel o at column o): for each o, its rows' values are one run at
 * dst + o*ostride, narrowed by the ISA's kernel after a block of output
 * channels is transposed into buf (FAST_WT_FINISH_BUF floats, rows <= it). */
static void narrow_runs(const wt_run *r, int64_t rows, const float *sums, int64_t lds,
                        uint16_t *dst, int64_t ostride, int bf16, float *buf)
{
    const int64_t cout = r->st->g.cout, ob = FAST_WT_FINISH_BUF / rows;
    for (int64_t o0 = 0; o0 < cout; o0 += ob) {
        const int64_t oc = min64(ob, cout - o0);
        r->k->transpose((size_t)rows, (size_t)oc, sums + o0, (size_t)lds, buf, (size_t)rows);
        for (int64_t o = 0; o < oc; ++o)
            r->k->f32_narrow((size_t)rows, buf + o * rows, dst + (o0 + o) * ostride, bf16);
    }
}

/* Sums the chunks in order for rows (grp, ci, every tap) of a block of
 * channels of dW^T, into chunk 0's rows (a vectorizable loop, each element's
 * order unchanged), and stores them transposed: o outer, so a dense
 * gradWeight gets runs of taps. */
static void wt_finish_task(void *ctx, size_t i)
{
    const wt_run *r = ctx;
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const conv_view *out = &r->p->grad_weight;
    const int64_t nblk = ceil_div(g->cin, FAST_WT_FINISH_BLOCK), len = g->nt * st->ldb;
    const int64_t grp = (int64_t)i / nblk, c0 = (int64_t)i % nblk * FAST_WT_FINISH_BLOCK;
    const int64_t cn = min64(FAST_WT_FINISH_BLOCK, g->cin - c0);
    float *sum0 = r->parts + (grp * g->cin + c0) * len;
    for (int64_t ci = 0; ci < cn; ++ci)
        for (int64_t ch = 1; ch < st->nchunks; ++ch) /* columns from OG on are never written */
            for (int64_t t = 0; t < g->nt; ++t) {
                float *row = sum0 + ci * len + t * st->ldb;
                const float *part = row + ch * st->part_floats;
                for (int64_t o = 0; o < g->cout; ++o)
                    row[o] += part[o];
            }
    int64_t toff[FAST_MAX_TAPS];
    for (int64_t t = 0; t < g->nt; ++t) {
        const int64_t kw = t % g->ks[2], kh = (t / g->ks[2]) % g->ks[1], kd = t / g->ks[2] / g->ks[1];
        toff[t] = kd * out->stride[2] + kh * out->stride[3] + kw * out->stride[4];
    }
    const int64_t base = conv_view_index(out, grp * g->cout, c0, 0, 0, 0);
    if (out->dtype == ACL_FLOAT && g->nt == 1 && out->stride[1] == 1 && out->stride[0] >= 0) {
        r->k->transpose((size_t)cn, (size_t)g->cout, sum0, (size_t)len, (float *)out->data + base,
                        (size_t)out->stride[0]);
        return;
    }
    /* 16-bit gradWeight: transposed a block at a time into buf, then
     * narrowed by the ISA's kernel a run at a time (one store_from_f32 per
     * element, column by column through [O][C], was 14% of r50_c4_1x1's
     * bf16 weights pass on 2 threads) */
    float buf[FAST_WT_FINISH_BUF];
    const int bf16 = out->dtype == ACL_BF16;
    uint16_t *h16 = out->dtype == ACL_FLOAT ? NULL : (uint16_t *)out->data;
    bool taps_run = g->nt > 1 && out->stride[4] == 1; /* a (o, c) block's taps: one run */
    for (int64_t t = 0; t < g->nt; ++t)
        taps_run = taps_run && toff[t] == t;
    if (h16 && g->nt == 1 && out->stride[1] == 1) { /* runs along C: cn per o */
        narrow_runs(r, cn, sum0, len, h16 + base, out->stride[0], bf16, buf);
        return;
    }
    if (h16 && taps_run && g->nt <= FAST_WT_FINISH_BUF) { /* runs along the taps: nt per (o, c) */
        for (int64_t ci = 0; ci < cn; ++ci)
            narrow_runs(r, g->nt, sum0 + ci * len, st->ldb, h16 + base + ci * out->stride[1],
                        out->stride[0], bf16, buf);
        return;
    }
    for (int64_t ci = 0; ci < cn; ++ci) {
        const float *sum = sum0 + ci * len;
        const int64_t cb = base + ci * out->stride[1];
        if (out->dtype == ACL_FLOAT) {
            float *o0 = (float *)out->data + cb;
            for (int64_t o = 0; o < g->cout; ++o)
                for (int64_t t = 0; t < g->nt; ++t)
                    o0[o * out->stride[0] + toff[t]] = sum[t * st->ldb + o];
            continue;
        }
        for (int64_t o = 0; o < g->cout; ++o)
            for (int64_t t = 0; t < g->nt; ++t)
                store_from_f32(out->data, out->dtype, cb + o * out->stride[0] + toff[t],
                               sum[t * st->ldb + o]);
    }
}

/* The positions of gradOutput along dim i that data block bi (of nb blocks
 * of b output rows or columns) contributes to gradWeight in the streamed
 * pass: from its slab's first row up to where the next block's slab starts
 * (the last block: its slab's end), inside gradOutput's extent len. The
 * ranges tile every position a real tap of gradInput reads; the others meet
 * only x's padding and add nothing. */
static void stream_owned(const fast_geom *gd, int i, int64_t bi, int64_t nb, int64_t b,
                         int64_t span, int64_t len, int64_t *lo, int64_t *hi)
{
    const int64_t first = bi * b + gd->qmin[i];
    *lo = max64(0, first);
    *hi = min64(len, bi + 1 < nb ? first + b : first + span);
}

/* gradBias lanes of the F form (stream_fwd_bias): the x elements under
 * output block [od] x [oh0, +rows) x [ow0, +cols) of image n, channels
 * [c0, c0 + cin) (lanes[c*16 ...]): planes od*s .. od*s + s - 1, rows and
 * columns times the strides; one call per plane when its rows are one run. */
static void bias_block_x(const wt_run *r, float *lanes, int64_t n, int64_t c0, int64_t od,
                         int64_t oh0, int64_t rows, int64_t ow0, int64_t cols)
{
    const conv_problem *p = r->p;
    const conv_view *src = &p->bias_src;
    const int64_t hh = p->xs[1], ww = p->xs[2], *s = p->stride;
    const int64_t h0 = oh0 * s[1], nh = rows * s[1], w0 = ow0 * s[2], nw = cols * s[2];
    const bool run = nw == ww && src->stride[4] == 1 && (nh == 1 || src->stride[3] == ww);
    const int64_t m = r->st->g.cin;
    for (int64_t d = od * s[0]; d < (od + 1) * s[0]; ++d) {
        if (run) {
            conv_bias_add_rows(lanes, (d * hh + h0) * ww, src, n, c0, m, d, h0, 0, nh * ww, r->k);
            continue;
        }
        for (int64_t h = h0; h < h0 + nh; ++h)
            conv_bias_add_rows(lanes, (d * hh + h) * ww + w0, src, n, c0, m, d, h, w0, nw, r->k);
    }
}

/* The fp32 view of image n's copy at img (stream_image_floats): dy's shape,
 * dense strides, every image index at the same copy. */
static conv_view stream_image_copy(const wt_run *r, int64_t n, float *img)
{
    const conv_problem *p = r->p;
    const conv_view *y = &p->y;
    conv_load_row(y, n, 0, 0, 0, 0, 1, r->st->img_floats, p->mode, r->k, img);
    conv_view v = *y;
    v.data = (char *)img;
    v.dtype = ACL_FLOAT;
    v.stride[4] = 1;
    v.stride[3] = y->dim[4];
    v.stride[2] = y->dim[3] * y->dim[4];
    v.stride[1] = y->dim[2] * v.stride[2];
    v.stride[0] = 0;
    return v;
}

typedef struct stream_run {
    wt_run w;
    data_run d;
} stream_run;

/* Chunk c of the streamed pass: images [n0, n1), every data block of each
 * (image, group) in the data pass's order: its slab (read or packed once),
 * gradInput from it when asked, then the block's share of gradWeight into
 * the chunk's partial sums. D: the dy positions the block owns
 * (stream_owned), reduction-vector kernel, gradBias lanes. F: the block's
 * output positions, the GEMM path over the same slab. */
static void wt_stream_chunk(void *ctx, size_t chunk, int slot)
{
    const stream_run *sr = ctx;
    const wt_run *r = &sr->w;
    const data_run *dr = &sr->d;
    const wt_state *st = r->st;
    /* with image copies, the data pass's blocks read the slot's copy */
    data_run dimg;
    conv_view yimg;
    float *img = NULL;
    if (st->img_floats > 0) {
        dimg = *dr;
        dimg.in = &yimg;
        dimg.in_mode = CONV_MODE_F32;
        dr = &dimg;
        img = r->imgs + (int64_t)slot * (st->img_floats + CONV_UKERNEL_SLACK);
    }
    const fast_geom *g = &st->g, *gd = &dr->subs[0];
    const conv_problem *p = r->p;
    float *part = r->parts + (int64_t)chunk * st->part_floats;
    float *xslab = st->rv ? r->slabs + (int64_t)slot * g->slab_floats : NULL;
    float *dyt = st->dyt_floats > 0 ? r->dyts + (int64_t)slot * st->dyt_floats : NULL;
    float *lanes = st->bias ? r->lanes + (int64_t)slot * st->lane_floats : NULL;
    /* the reduction-vector kernel adds; the GEMM path's first calls write */
    if (st->rv) memset(part, 0, (size_t)st->part_floats * sizeof(float));
    const int64_t n0 = (int64_t)chunk * p->n / st->nchunks,
                  n1 = ((int64_t)chunk + 1) * p->n / st->nchunks;
    for (int64_t n = n0; n < n1; ++n)
        for (int64_t grp = 0; grp < p->g; ++grp) {
            float *pg = part + grp * g->cin * g->nt * st->ldb;
            bool fresh = n == n0;
            if (img) yimg = stream_image_copy(r, n, img); /* (one group) */
            if (lanes) memset(lanes, 0, (size_t)st->lane_floats * sizeof(float));
            for (int64_t od = 0; od < gd->os[0]; ++od)
                for (int64_t rbi = 0; rbi < gd->nrb; ++rbi)
                    for (int64_t cbi = 0; cbi < gd->nwb; ++cbi) {
                        const int64_t oh0 = rbi * gd->rb, ow0 = cbi * gd->wb;
                        int64_t dcs;
                        int xround;
                        const float *ds =
                            data_slab(dr, gd, n, grp, od, oh0, ow0, slot, &dcs, &xround);
                        if (st->with_data) {
                            data_block(dr, 0, n, grp, od, rbi, cbi, slot, true, ds, dcs, xround);
                            if (st->ds.round_blocks) round_block(dr, n, grp, od, rbi, cbi);
                        }
                        if (!st->rv) { /* F: ds is x's slab of the weights geometry */
                            const int64_t rows = min64(gd->rb, gd->os[1] - oh0),
                                          cols = min64(gd->wb, gd->os[2] - ow0);
                            for (int64_t ob = 0; ob < g->cout; ob += st->ldo)
                                wt_oblock_gemm(r, ds, dcs, dyt, pg, NULL, n, grp, od, oh0, rows,
                                               ow0, cols, ob, fresh);
                            fresh = false;
                            if (lanes)
                                bias_block_x(r, lanes, n, grp * g->cin, od, oh0, rows, ow0, cols);
                            continue;
                        }
                        int64_t h0, h1, w0, w1;
                        stream_owned(gd, 1, rbi, gd->nrb, gd->rb, gd->hp, g->os[1], &h0, &h1);
                        stream_owned(gd, 2, cbi, gd->nwb, gd->wb, gd->wp, g->os[2], &w0, &w1);
                        if (h1 <= h0 || w1 <= w0) continue;
                        const float *xs = xslab;
                        int64_t xcs = g->cs;
                        if (!slab_in_place(g, &p->x, p->mode, n, grp * g->cin, 0, h0, w0, false,
                                           &xs, &xcs))
                            pack_slab(g, &p->x, p->mode, r->k, n, grp * g->cin, 0, h0, w0, xslab);
                        const wt_dy_rows dys = {ds + (h0 - oh0 - gd->qmin[1]) * gd->wp +
                                                    (w0 - ow0 - gd->qmin[2]),
                                                dcs, gd->wp};
                        /* dy's rows come from memory when no data pass read
                         * them just now and ds is the view itself */
                        const bool cold =
                            !st->with_data && ds != dr->slabs + (int64_t)slot * st->ds.slab_floats;
                        /* dy in place, not rounded yet (the data kernel
                         * rounds as it reads): wt_block_rv rounds each
                         * kernel row block's rows into dyt, once for all
                         * of its calls (rounding inside the
                         * reduction-vector kernel, once per call: +37%) */
                        wt_block_rv(r, cold, xs, xcs, xround == F32_ROUND_NONE ? &dys : NULL, dyt,
                                    pg, lanes, n, grp, 0, h0, 0, h1 - h0, w0, 0, w1 - w0);
                    }
            if (lanes)
                bias_block_sums(r, lanes, n, grp * (st->rv ? g->cout : g->cin),
                                st->rv ? g->cout : g->cin);
        }
}

static void wt_run_streamed(const conv_problem *p, const wt_state *st, void *workspace)
{
    stream_run sr; /* on the caller's stack: about FAST_MAX_SUBS geometries */
    data_run_prepare(&sr.d, p, &st->ds, workspace, st->with_data);
    wt_run *r = &sr.w;
    r->p = p;
    r->st = st;
    r->k = conv_ukernels_for(st->isa);
    char *ws = workspace;
    r->parts = (float *)(ws + st->part_off);
    r->slabs = (float *)(ws + st->slab_off);
    r->dyts = (float *)(ws + st->dyt_off);
    r->lanes = st->bias ? (float *)(ws + st->lanes_off) : NULL;
    r->sums = st->bias ? (float *)(ws + st->sums_off) : NULL;
    r->imgs = st->img_floats > 0 ? (float *)(ws + st->img_off) : NULL;
    tap_offsets(&st->g, r->toff);
    pool_parallel_for_slots((size_t)st->nchunks, st->slots, wt_stream_chunk, &sr);
    pool_parallel_for((size_t)(st->g.g * ceil_div(st->g.cin, FAST_WT_FINISH_BLOCK)), wt_finish_task,
                      r);
    if (st->bias) conv_bias_store_sums(p, r->sums);
}

static void wt_run_pass(const conv_problem *p, const wt_state *st, void *workspace)
{
    if (st->streamed) {
        wt_run_streamed(p, st, workspace);
        return;
    }
    wt_run r;
    r.p = p;
    r.st = st;
    r.k = conv_ukernels_for(st->isa);
    char *ws = workspace;
    r.parts = (float *)(ws + st->part_off);
    r.slabs = (float *)(ws + st->slab_off);
    r.dyts = (float *)(ws + st->dyt_off);
    r.lanes = st->bias ? (float *)(ws + st->lanes_off) : NULL;
    r.sums = st->bias ? (float *)(ws + st->sums_off) : NULL;
    tap_offsets(&st->g, r.toff);
    atomic_int tiny = 0;
    r.tiny = &tiny;
    r.pairwt = NULL;
    r.guard = false;
    if (st->pairs) {
        r.pairwt = st->pairs_exact ? NULL : conv_bf16_dot_convwt(st->isa);
        r.guard = r.pairwt != NULL;
        if (!r.pairwt) r.pairwt = r.k->bf16_convwt; /* exact */
    }
    pool_parallel_for_slots((size_t)st->nchunks, st->slots, wt_chunk_task, &r);
    if (atomic_load(&tiny)) {
        /* an operand too small for vdpbf16ps (it flushes subnormals): every
         * chunk again with the kernel that computes the same sums exactly,
         * so the bits do not depend on which blocks held the small values */
        r.pairwt = r.k->bf16_convwt;
        r.guard = false;
        atomic_store(&tiny, 0);
        pool_parallel_for_slots((size_t)st->nchunks, st->slots, wt_chunk_task, &r);
    }
    pool_parallel_for((size_t)(st->g.g * ceil_div(st->g.cin, FAST_WT_FINISH_BLOCK)), wt_finish_task,
                      &r);
    if (st->bias) conv_bias_store_sums(p, r.sums);
}

/* ===========================================================================
 * The implementation entry
 * ======================================================================== */

static const char *fast_why_not(const conv_problem *p, conv_pass pass, aclconvIsa isa)
{
    return pass == CONV_PASS_DATA ? data_why_not(p, isa) : wt_why_not(p, isa);
}

static bool fast_plan(const conv_problem *p, conv_pass pass, aclconvIsa isa, void *state,
                      uint64_t *workspace_bytes)
{
    return pass == CONV_PASS_DATA ? data_plan(p, isa, state, workspace_bytes)
                                  : wt_plan(p, isa, state, workspace_bytes);
}

static void fast_run(const conv_problem *p, conv_pass pass, const void *state, void *workspace)
{
    if (pass == CONV_PASS_DATA)
        data_run_pass(p, state, workspace);
    else
        wt_run_pass(p, state, workspace);
}

static bool fast_fuses_bias(const void *state)
{
    return ((const wt_state *)state)->bias;
}

static bool fast_fuse_data(const conv_problem *p, const void *dstate, void *wstate,
                           uint64_t *workspace_bytes)
{
    wt_state *st = wstate;
    (void)p;
    (void)workspace_bytes; /* the streamed weights pass planned the data slabs it shares */
    (void)dstate; /* st->ds is the same plan (data_plan of the same problem and ISA) */
    st->with_data = st->streamed;
    return st->with_data;
}

const conv_impl conv_impl_fast = {
    .name = "fast",
    .why_not = fast_why_not,
    .plan = fast_plan,
    .run = fast_run,
    .fuses_bias = fast_fuses_bias,
    .fuse_data = fast_fuse_data,
};
