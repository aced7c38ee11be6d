/* Internals of the fast implementation ("fast", src/engine/conv_fast*.c):
 * its tunables, the geometry both passes share, the plan states, and the
 * functions one file of it calls in another. Not part of any public header.
 *
 *   conv_fast.c       the implementation entry (conv_impl_fast)
 *   conv_fast_geom.c  geometry of a pass: taps, phases, blocks, slab layout;
 *                     workspace offsets
 *   conv_fast_pack.c  packing the input slab (padded, phase-split, widened
 *                     and rounded for the mode) or reading it in place
 *   conv_fast_data.c  the data pass (gradInput, and the forward form of a
 *                     transposed call's gradInput)
 *   conv_fast_wt.c    the weights pass, streamed or not
 *
 * The functions declared here are documented where they are defined. */
#ifndef ACLCONV_CONV_FAST_INTERNAL_H_
#define ACLCONV_CONV_FAST_INTERNAL_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/conv_fast.h"
#include "engine/conv_slots.h"
#include "engine/conv_views.h"
#include "kernels/conv_ukernels.h"
#include "kernels/ukernel_prefetch.h"

/* ---- tunables (problem-independent constants) ---------------------------- */
/* Largest row span pack_slab prefetches ahead (a dense row of a big plane). */
#define FAST_PREFETCH_MAX_BYTES (64 * 1024)
/* The reduction-vector weights path asks for dy rows read in place from
 * memory this many kernel row blocks ahead. */
#define FAST_RV_AHEAD 2
/* The data pass rounds in-place input in its kernel (kernel_rounds) when its
 * kernel calls read each element at most this many times: taps of one
 * channel block, or channel blocks times taps (kernel_rounds_reads). */
#define FAST_KERNEL_ROUND_TAPS 4
#define FAST_KERNEL_ROUND_READS 3
/* pack_slab asks for the rows of the channel this many channels ahead, at
 * most (and at most FAST_PACK_AHEAD_BYTES ahead): one channel ahead was too
 * late for short rows coming from memory (conv1d_wav_k10s5's rounded and
 * 16-bit dx: -10 to -35% with eight; the dense layers unchanged). */
#define FAST_PACK_AHEAD_CHANNELS 8
#define FAST_PACK_AHEAD_BYTES (16 * 1024)

/* Floats of the packed input slab one task aims for (about half of a 1 MB
 * L2; data_slab_budget scales the data pass's down on smaller ones, not
 * below FAST_SLAB_MIN_FLOATS). */
#define FAST_SLAB_FLOATS (128 * 1024)
#define FAST_SLAB_MIN_FLOATS (16 * 1024)
/* The largest budget data_slab_budget gives (an L2 of 2 MB or more) */
#define FAST_SLAB_BIG_FLOATS (256 * 1024)
/* The smaller budget only where its blocks pack at most this many input
 * rows per output row (data_layout), or the second limit where the
 * weights take FAST_SLAB_SWEPT sweeps or more. */
#define FAST_SLAB_MAX_REPACK 1.35
#define FAST_SLAB_SWEPT 4
#define FAST_SLAB_MAX_REPACK_SWEPT 2.1
/* The weights pass streams its slab rows: larger units, longer reductions. */
#define FAST_WT_SLAB_FLOATS (512 * 1024)
/* Floats of packed weights swept per pass over the slab. */
#define FAST_WBLOCK_FLOATS (64 * 1024)
/* Narrowest column block of long rows. */
#define FAST_MIN_COLS 64
/* Floats of a slot's tile panels (data_tile_panel_tiles): the input of up
 * to store_tiles tiles, fewer where channels are many, but at least
 * FAST_TPANEL_MIN_TILES (each run of tiles sweeps every weight panel). */
#define FAST_TPANEL_FLOATS (64 * 1024)
#define FAST_TPANEL_MIN_TILES 4
#define FAST_TPANEL_MAX_TILES 16
#define FAST_TPANEL_COPY 8
#define FAST_TPANEL_MIN_BLOCKS 4
/* AVX-512: at most this many floats of a tile's panel (a third of a 48 KB
 * L1), data_tile_panel_tiles */
#define FAST_TPANEL_AVX512_TILE_FLOATS 4096
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
/* The flat weights path (wt_flat_images) takes a dy^T block of every output
 * channel when a unit of images then reduces over at least this many
 * positions: a unit sweeps the partial sums (C x OG) once, and on 7 x 7
 * planes with OG = 2048 (one image a unit) that was 8 bytes of memory
 * traffic per 49 multiply-adds, more than the machine streams
 * (r50_c5_1x1_up's weights pass 15.8 -> 12.4 ms with blocks of 64 channels
 * and 8 images). */
#define FAST_WT_FLAT_MIN_POSITIONS 256
/* Output channels per dy^T block of the flat path below that: every block
 * sweeps the unit's x rows once and every unit the partial sums once, so
 * with the block at 128 Ki floats the bytes per multiply-add are about
 * 4 / L + 8 L / 128 Ki for L channels a block, least near 256
 * (r50_c5_1x1_up and conv1d_k1_1024's weights passes -2 to -4% against
 * 64). */
#define FAST_WT_FLAT_OBLOCK 256
/* The GEMM weights pass groups whole 2-D images (wt_state.wimg) up to this
 * many positions a group, at most FAST_WT_GROUP_MAX images: on 7 x 7 planes
 * a tile's call is 49 positions, next to the per-tile walk and the loads and
 * stores of its partial sums (r18_c5_3x3's fp32 weights pass -8% with 8
 * images, 1 thread; 14 x 14 planes -2% with 4; 28 x 28: no change with 2).
 * ACLCONV_FAST_WT_IMAGES sets the count (1: no groups; tests, benchmarks). */
#define FAST_WT_GROUP_POSITIONS 784
#define FAST_WT_GROUP_MAX 8
/* The weights pass uses the reduction-vector kernel below these sizes: few
 * (c, tap) rows, or fewer output channels than FAST_RV_MAX_OG on planes of
 * FAST_RV_MIN_PLANE positions or more (on smaller ones its dot products of
 * a row or two of positions lost to the GEMM path: 64 -> 24 channels on 5 x
 * 5 planes 2.3 -> 1.2 ms, on 14 x 14 2.8 -> 2.2; Zen 4, 2 threads), or at
 * most FAST_RV_FEW_OG (4 or 8 output channels: the reduction-vector kernel
 * 1.1-2x faster on 14 x 14 to 56 x 56). */
#define FAST_RV_MAX_OG 32
#define FAST_RV_MAX_KROWS 24
#define FAST_RV_MIN_PLANE 256
#define FAST_RV_FEW_OG 8
/* Longest dot product block of the reduction-vector path. */
#define FAST_RV_MAX_POSITIONS 8192
/* "Few output channels" (phase rows below, the reduction-vector weights
 * path). The data pass takes the single-row kernel (`one_row`) for one
 * output channel only: for 2-4 the MR-row kernel's edge instances (mr rows
 * of 3 vectors, no idle rows) load each input vector once for every
 * channel, where the single-row kernel loads it once per channel (session
 * 48, gradInput, AVX-512: C3D's first layer 3 <- 64 channels 125 -> 82 ms,
 * 4 <- 64 on 112 x 112 11 -> 7.5, 2 <- 64 6.5 -> 5.8; AVX2 4 <- 64 14.5 ->
 * 9; one channel stays: 1 <- 32 5.1 against 7.1, three accumulators). */
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
/* GEMM weights passes whose partial sums take at least this many floats
 * run one chunk, its rows split among FAST_WT_CHUNKS tasks by input channel
 * (wt_plan: four 9.4 MB partials and their sum were 11% of a 7x7 512 ->
 * 512 weights pass). ACLCONV_FAST_WT_SPLIT sets it (tests). */
#define FAST_WT_SPLIT_FLOATS (1 << 20)
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
/* The data pass streams its results out (data_state.stream_out) when the
 * fp32 gradInput has at least this many bytes (not kept in L3 for the caller
 * anyway) and the spatial-vector kernel does at most FAST_NT_MAX_TERMS
 * multiply-adds per result: there the stores' reads for ownership were the
 * pass's limit (MobileNet-v2's 1x1 gradInput, 16 and 24 dy channels on 112 x
 * 112 and 56 x 56: -12% and -22% against the channel-vector kernel, which
 * stores 14-position runs that cannot stream). ACLCONV_FAST_NT=1 streams
 * any size (tests), =0 never. */
#define FAST_NT_MIN_BYTES (16 * 1024 * 1024)
#define FAST_NT_MAX_TERMS 32
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

static inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static inline int64_t round_up64(int64_t a, int64_t b) { return ceil_div(a, b) * b; }
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
/* a * b for a, b >= 0, saturating at INT64_MAX: sizes from views that need no
 * memory (stride-0 inputs) may be huge; every product of plan sizes goes
 * through this and is then compared with a budget. */
static inline int64_t smul(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
static inline int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Brings the lines of rows x cols elements (row pitch ld) into the cache ahead
 * of a kernel's stores or loads of them. A kernel ends with a burst of tile
 * stores; when they miss, the store queue fills and the core waits on
 * memory (r50_c4_1x1's in-place dx: ~10% of its time). Addresses stay inside
 * the rows. (Plain prefetches: a write hint is prefetcht0 anyway without
 * PRFCHW in the target, and every request here goes through
 * ukernel_prefetch_addr, which gcc cannot drop.) */
static inline void prefetch_tile(const void *p, int64_t rows, int64_t ld, int64_t cols, size_t elem)
{
    const char *row = p;
    const int64_t last = (cols - 1) * (int64_t)elem;
    for (int64_t r = 0; r < rows; ++r, row += ld * (int64_t)elem) {
        for (int64_t b = 0; b < last; b += 64)
            ukernel_prefetch_addr(row + b, 0);
        ukernel_prefetch_addr(row + last, 0);
    }
}

/* Output planes per task (a depth run, or one). */
static inline int64_t geom_drun(const fast_geom *g)
{
    return g->drun > 1 ? g->drun : 1;
}

/* Depth planes per channel in the slab. */
static inline int64_t geom_dplanes(const fast_geom *g)
{
    return g->drun > 1 ? g->dspan + g->drun - 1 : g->ntap[0];
}

/* Smallest depth shift of the taps. */
static inline int64_t geom_dmin(const fast_geom *g)
{
    int64_t m = g->tsh[0][0];
    for (int64_t kd = 1; kd < g->ntap[0]; ++kd)
        m = min64(m, g->tsh[0][kd]);
    return m;
}

static inline int dtype_bytes(aclDataType dt) { return dt == ACL_FLOAT ? 4 : 2; }

/* ---- geometry, workspace (conv_fast_geom.c) ------------------------------ */

const char *geom_layout(fast_geom *g, int64_t min_tasks, int64_t budget);
void tap_offsets(const fast_geom *g, ptrdiff_t *toff);
bool shifts_fit(const conv_problem *p);
void taps_regular(fast_geom *g, int i, int64_t k, int64_t dil, int64_t pad);
bool ws_take(uint64_t *size, int64_t floats, uint64_t *offset);
int plan_slots(void);

/* ---- packing (conv_fast_pack.c) ------------------------------------------- */

void pack_slab(const fast_geom *g, const conv_view *v, conv_mode mode, const conv_ukernels *k,
               int64_t n, int64_t c0, int64_t od, int64_t oh0, int64_t ow0, float *dst);
int pack_slab_bf16(const fast_geom *g, const conv_view *v, const conv_ukernels *k, int64_t n,
                   int64_t c0, int64_t od, int64_t oh0, int64_t ow0, uint16_t *dst);
int pack_slab_pairs(const fast_geom *g, const conv_view *v, const conv_ukernels *k, int64_t n,
                    int64_t c0, int64_t od, int64_t oh0, int64_t ow0, uint32_t *dst);
int64_t pair_slab_words(const fast_geom *g);
bool geom_reads_in_place(const fast_geom *g);
bool slab_in_place(const fast_geom *g, const conv_view *v, conv_mode mode, int64_t n, int64_t c0,
                   int64_t od, int64_t oh0, int64_t ow0, bool overread, const float **x,
                   int64_t *cs);
/* pack_slab_bf16's slab read in place where slab_in_place's layout holds (a
 * BF16 view in mode BF16, whose bits the slab would copy): *x, *cs as
 * slab_in_place's, *emin the smallest exponent field of the block's values
 * (the guard's scan, bf16_minexp). */
bool slab_in_place_bf16(const fast_geom *g, const conv_view *v, conv_mode mode,
                        const conv_ukernels *k, int64_t n, int64_t c0, int64_t od, int64_t oh0,
                        int64_t ow0, const uint16_t **x, int64_t *cs, int *emin);

/* ---- data pass (conv_fast_data.c) ----------------------------------------- */

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
    /* in-place fp32 results of the spatial-vector kernel streamed out by its
     * twin (conv_nt; data_streams_out), each task ending with a store fence */
    bool stream_out;
    /* one-tap sub-problems under the channel-vector kernel: each run of
     * chunk_tiles tiles copies its input into tile panels first (data_block,
     * "tile panels" in docs/kernels.md); tpanel_floats per slot */
    bool tile_panels;
    aclconvIsa isa;
    int mr, nr;
    /* results not stored in place: kernel tiles side by side in the tile
     * buffer (rows of tile_ld floats), stored together; chunk_tiles (at
     * most store_tiles) per run */
    int64_t store_tiles, tile_ld, chunk_tiles;
    int64_t nsub; /* output phases (D with stride), else 1 */
    int slots;
    int64_t slab_floats, tile_floats, tpanel_floats; /* maxima over sub-problems */
    int64_t wpk_floats;               /* all sub-problems */
    int64_t tasks_d, tasks_rb, tasks_wb; /* task grid per (n, group): planes, row / column blocks */
    int64_t drun; /* output planes per task: a depth run (one sub-problem only), else 1 */
    int64_t slab_budget; /* data_subs' budget (data_slab_budget, or fixed in the streamed pass) */
    uint64_t wpk_off, slab_off, tile_off, tpanel_off;
} data_state;

_Static_assert(sizeof(data_state) <= CONV_IMPL_STATE_BYTES, "state too large");

/* Where a phase-rows output row goes (data_run.prow): channel c of its
 * group, output phase offsets off, and the phase's positions per dim. */
typedef struct phase_row {
    int64_t c, off[3], cnt[3];
} phase_row;

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
    float *wpk, *slabs, *tiles, *tpanels;
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
    phase_row prow[FAST_ONE_ROW_MAX_OUT * FAST_MAX_SUBS]; /* st->phase_rows */
    /* a strided D whose only phase with taps is phase 0: each block zeroes
     * its cells (every phase's elements) right before its kernels write
     * phase 0, instead of a pass over the other phases first */
    bool zero_cells;
    bool zero_planes; /* data_zero_task: every row of a plane has a W phase without taps */
} data_run;

const char *data_why_not(const conv_problem *p, aclconvIsa isa);
bool data_plan(const conv_problem *p, aclconvIsa isa, data_state *st, uint64_t *bytes);
void data_run_pass(const conv_problem *p, const data_state *st, void *workspace);
int64_t data_slab_budget(void);
const char *data_subs(const conv_problem *p, int64_t budget, fast_geom *subs, bool *empty,
                      int64_t *nsub);
bool data_plan_subs(const conv_problem *p, aclconvIsa isa, int64_t budget, const fast_geom *subs,
                    const bool *empty, int64_t nsub, bool alone, data_state *st, uint64_t *bytes);
const float *data_slab(const data_run *r, const fast_geom *g, int64_t n, int64_t grp, int64_t od,
                       int64_t oh0, int64_t ow0, int slot, int64_t *cs, int *xround);
void data_block(const data_run *r, int64_t sub, int64_t n, int64_t grp, int64_t od, int64_t rbi,
                int64_t cbi, int slot, bool touch, const float *xs, int64_t cs, int xround);
void round_block(const data_run *r, int64_t n, int64_t grp, int64_t od, int64_t rbi, int64_t cbi);
void data_run_prepare(data_run *r, const conv_problem *p, const data_state *st, void *workspace,
                      bool compute);

/* ---- weights pass (conv_fast_wt.c) ---------------------------------------- */

typedef struct wt_state {
    fast_geom g; /* cin = CG (x channels), cout = OG (dy channels) */
    aclconvIsa isa;
    int mr, nr;
    int64_t ldb;     /* partial-sum row: OG rounded up to 16 */
    int64_t ldo;     /* dyT row: min(ldb, FAST_WT_OBLOCK) output channels of one block */
    bool rv;              /* reduction-vector kernel (small OG or few (c, tap) rows) */
    /* BF16 pairs (BF16 operands in mode BF16): the slab as bf16 and dy^T
     * as pairs (GEMM path), or dy's bf16 rows read in place (rv), two
     * positions a kernel step (docs/kernels.md, "BF16 pairs"); pairs_exact:
     * always the fused multiply-add kernel (ACLCONV_BF16_DOT) */
    bool pairs, pairs_exact;
    int64_t brows, bcols; /* reduction block: rows x columns of positions */
    int64_t nunits, nchunks;
    /* tasks per chunk: on the GEMM path each the partial's rows of a range
     * of x's channels (all taps; FAST_WT_SPLIT_FLOATS), on the flat path its
     * columns of a range of output channels (fewer units than chunks);
     * 1 otherwise */
    int64_t nsplit;
    /* > 0: 1x1-like problem read in place, a unit is this many whole images
     * (planes of fpos positions) and one kernel call reduces over all of them;
     * fcopy: x is not fp32 read as it is: each row tile's rows are widened
     * and rounded into the slot's slab before its calls */
    int64_t fnb, fpos;
    bool fcopy;
    /* GEMM path over 2-D planes of one dy block: images per group (>= 1).
     * A group's images are packed side by side and each tile's calls for
     * them run back to back while its partial sums are in L1 (each sum
     * still goes image by image in order) */
    int64_t wimg;
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
    /* ds.kernel_rounds as the data pass planned it: a weights-only run may
     * read dy in place where the data pass packs it (wt_plan_streamed); a
     * fused run restores this */
    bool data_kernel_rounds;
    /* > 0 (streamed D): dy's images are copied whole, widened and rounded
     * for the mode, into a slot buffer of this many floats, and the blocks
     * read that copy as an fp32 view (stream_image_copy) */
    int64_t img_floats;
    uint64_t img_off;
} wt_state;

_Static_assert(sizeof(wt_state) <= CONV_IMPL_STATE_BYTES, "state too large");

const char *wt_why_not(const conv_problem *p, aclconvIsa isa);
bool wt_plan(const conv_problem *p, aclconvIsa isa, wt_state *st, uint64_t *bytes);
void wt_run_pass(const conv_problem *p, const wt_state *st, void *workspace);

#endif /* ACLCONV_CONV_FAST_INTERNAL_H_ */
