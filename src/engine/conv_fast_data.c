/* The fast implementation's data pass ("fast_sv"): gradInput as a forward
 * convolution (F; D as F over dy with the weights transposed and flipped,
 * one sub-problem per output phase of a strided D). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "common/cpu.h"
#include "common/dtype.h"
#include "engine/conv_fast_internal.h"
#include "threading/pool.h"

/* Output phases of the data pass (product of the strides for D); more than
 * FAST_MAX_SUBS, without overflowing, when a stride exceeds FAST_MAX_STRIDE. */
static int64_t data_nsub(const conv_problem *p)
{
    if (p->data_dir != CONV_DIR_BWD_DATA) return 1;
    int64_t n = 1;
    for (int i = 0; i < 3; ++i) {
        if (p->stride[i] < 1 || p->stride[i] > FAST_MAX_STRIDE) return FAST_MAX_SUBS + 1;
        n *= p->stride[i]; /* <= FAST_MAX_STRIDE^3 */
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
static void data_pick_drun(fast_geom *g, int64_t budget)
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
        if (geom_layout(&t, FAST_MIN_TASKS, budget) != NULL) continue;
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

/* Input rows packed per output row of g's slabs (halo rows, and the depth
 * planes of a run, packed again by the next block). */
static double slab_repack(const fast_geom *g)
{
    return (double)geom_dplanes(g) * (double)g->hp / ((double)geom_drun(g) * (double)g->rb);
}

/* g's slab layout for slab budget `budget`, with its depth run where it has
 * one sub-problem. */
static const char *data_layout_for(const conv_problem *p, fast_geom *g, int64_t budget)
{
    if (data_nsub(p) == 1) data_pick_drun(g, budget);
    return geom_layout(g, FAST_MIN_TASKS, budget);
}

/* g's slab layout: for a budget above FAST_SLAB_FLOATS (an L2 of 2 MB,
 * data_slab_budget), that budget's where the weights take FAST_SLAB_SWEPT
 * sweeps or more (fewer, longer blocks sweep them fewer times; Intel Xeon,
 * session 51, dx alone: conv1d_k3 -7 to -9%, dilated_d2 -1 to -3%,
 * vgg_3x3_256 0 to -1%; with few weights it cost conv1d_wav_k10s5's
 * gradInput 15% and conv3d_c3d's 1-4%); for a budget below FAST_SLAB_FLOATS,
 * that budget's where its blocks pack at most FAST_SLAB_MAX_REPACK input
 * rows per output row (on Zen 3, dilated_d2's dx, halo 4 rows and 256
 * channels in one-row blocks, took 117 -> 139 ms and conv3d_unet's 44 ->
 * 61 with 32 Ki floats), FAST_SLAB_MAX_REPACK_SWEPT where the weights take
 * FAST_SLAB_SWEPT sweeps or more (each reads the slab again: vgg_3x3_256's
 * dx, 16 sweeps, 2 rows per output row, 102 -> 90 ms CPU, 1 thread, 47.8
 * -> 44.7 ms on 2), and no more column blocks than the full budget's (each
 * sweeps every weight again: conv1d_k3's dx, 3 MB of weights, 240 -> 64
 * columns, took 3% and 12-17% longer in two A/Bs); else the full budget's. */
static const char *data_layout(const conv_problem *p, fast_geom *g, int64_t budget)
{
    fast_geom full = *g;
    const char *why = data_layout_for(p, &full, FAST_SLAB_FLOATS);
    const bool swept = smul(smul(g->cout, g->cin), g->ntap[0] * g->ntap[1] * g->ntap[2]) >=
                       FAST_SLAB_SWEPT * (int64_t)FAST_WBLOCK_FLOATS;
    if (why == NULL && budget > FAST_SLAB_FLOATS && swept) {
        fast_geom big = *g;
        if (data_layout_for(p, &big, budget) == NULL) {
            *g = big;
            return NULL;
        }
    }
    if (why == NULL && budget < FAST_SLAB_FLOATS) {
        fast_geom small = *g;
        const double limit = swept ? FAST_SLAB_MAX_REPACK_SWEPT : FAST_SLAB_MAX_REPACK;
        if (data_layout_for(p, &small, budget) == NULL && small.nwb <= full.nwb &&
            slab_repack(&small) <= limit) {
            *g = small;
            return NULL;
        }
    }
    *g = full;
    return why;
}

/* The forward convolution of sub-problem sub of the data pass. F: x with the
 * problem's taps. D: output phase rho (per dim) of gradInput, i = i'*s + rho:
 * a stride-1 correlation of dy over the taps k with (rho + pad - k*dil) % s
 * == 0, at shift (rho + pad - k*dil) / s. *empty: the sub-problem has no
 * output position, or no tap (its outputs are zero). */
static const char *data_geom(const conv_problem *p, int64_t budget, int64_t sub,
                             const fast_geom *lead, fast_geom *g, bool *empty)
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
    return data_layout(p, g, budget);
}

/* D with strides as one sub-problem whose output rows are (channel, output
 * phase) pairs, row m = co*nsub + sub (phase sub as in data_geom): per dim the
 * taps are the union of the phases' shifts, ascending; a phase without a tap
 * at a shift gets a zero weight there (data_pack_weights_phase_rows). Output
 * position o of a row is gradInput o*s + rho, dropped when past the input. */
static const char *data_geom_phase_rows(const conv_problem *p, int64_t budget, fast_geom *g)
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
    return data_layout(p, g, budget);
}

/* Whether the data pass of p runs its output phases as rows: D with strides,
 * few channels (the one-row kernel otherwise) and few zero taps added. */
static bool data_use_phase_rows(const conv_problem *p)
{
    if (p->data_dir != CONV_DIR_BWD_DATA || p->cg > FAST_ONE_ROW_MAX_OUT) return false;
    const int64_t nsub = data_nsub(p);
    if (nsub <= 1 || nsub > FAST_MAX_SUBS || !shifts_fit(p)) return false;
    fast_geom g;
    if (data_geom_phase_rows(p, FAST_SLAB_FLOATS, &g) != NULL) return false;
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

/* The floats of input slab a data task aims for on this CPU
 * (FAST_SLAB_FLOATS, about half of a 1 MB L2): on a smaller L2, half of
 * what a sweep's weights (FAST_WBLOCK_FLOATS) leave. Zen 3 (512 KB):
 * 32 Ki floats; r50_c2_3x3's dx with 128 Ki read its rows back from L3,
 * 54.8 -> 44.2 ms CPU (1 thread, medians of five). On an L2 of 2 MB or
 * more half of it, at most FAST_SLAB_BIG_FLOATS, for layers with many
 * weights (data_layout; Intel Xeon, session 51: conv1d_k3's dx -7 to -9%
 * with 256 Ki floats, -5% with the 224 Ki the weights' block would leave).
 * Blocking only: the data pass sums every result in one kernel call, so
 * the bits do not change. ACLCONV_FAST_SLAB_BUDGET (floats) decides instead
 * (tests: the larger budget on any host). */
int64_t data_slab_budget(void)
{
    const char *e = getenv("ACLCONV_FAST_SLAB_BUDGET");
    if (e != NULL) return max64(FAST_SLAB_MIN_FLOATS, min64(FAST_SLAB_BIG_FLOATS, atoll(e)));
    const int64_t l2 = cpu_l2_bytes();
    if (l2 <= 0) return FAST_SLAB_FLOATS;
    if (l2 >= (int64_t)2 << 20) return min64(FAST_SLAB_BIG_FLOATS, l2 / 2 / (int64_t)sizeof(float));
    if (l2 >= (int64_t)1 << 20) return FAST_SLAB_FLOATS;
    const int64_t wblock = FAST_WBLOCK_FLOATS * (int64_t)sizeof(float);
    return max64(FAST_SLAB_MIN_FLOATS, (l2 - wblock) / 2 / (int64_t)sizeof(float));
}

/* The sub-problems of the data pass with slab budget `budget` (floats); the
 * first non-empty one leads the blocking of the others, so a task computes
 * every phase of one block. */
const char *data_subs(const conv_problem *p, int64_t budget, fast_geom *subs, bool *empty,
                      int64_t *nsub)
{
    const bool phase_rows = data_use_phase_rows(p);
    *nsub = phase_rows ? 1 : data_nsub(p);
    if (*nsub > FAST_MAX_SUBS) return "too many output phases (stride) for the fast engine";
    if (!shifts_fit(p)) return "dilation or padding too large for the fast engine";
    const fast_geom *lead = NULL;
    for (int64_t sub = 0; sub < *nsub; ++sub) {
        empty[sub] = false;
        const char *why = phase_rows ? data_geom_phase_rows(p, budget, &subs[sub])
                                     : data_geom(p, budget, sub, lead, &subs[sub], &empty[sub]);
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

const char *data_why_not(const conv_problem *p, aclconvIsa isa)
{
    fast_geom subs[FAST_MAX_SUBS];
    bool empty[FAST_MAX_SUBS];
    int64_t nsub;
    return data_subs(p, data_slab_budget(), subs, empty, &nsub);
}

/* The channel-vector kernel wherever the ISA has one and the output channels
 * of a group fill its vectors (at most a quarter of the lanes idle). Counted
 * in blocks of 16: the kernels skip an idle half of their MR (AVX-512's 32
 * rows are two 16-channel halves), so 48 channels waste nothing.
 * ACLCONV_FAST_CV=0 keeps the spatial-vector kernel, =1 takes the channel-
 * vector one for any channel count (tests). */
static bool data_use_cv(const conv_problem *p, const data_state *st, const conv_ukernels *k,
                        bool pairs)
{
    const char *e = getenv("ACLCONV_FAST_CV");
    if ((e && e[0] == '0') || !k->convcv || st->phase_rows || st->one_row) return false;
    if (e && e[0] == '1') return true;
    const int64_t out = st->bwd ? p->cg : p->og;
    const int64_t block = k->convcv_mr < 16 ? k->convcv_mr : 16;
    /* pairs (which only this kernel runs) double its rate: worth a tile
     * half full or more (MobileNet's 144 -> 24 gradInput in bf16: 7.1 ->
     * 4.3 ms, where the fp32 kernels ran on widened dy) */
    return out % block == 0 || out >= 4 * block || (pairs && out > 8);
}

/* Whether the kernel calls of a sub-problem with `blocks` channel blocks and
 * nt taps round its input as they read it (kernel_rounds): each element is
 * read by one call per block and tap, from memory when read in place, and
 * rounding it there costs little where a rounded copy is a second pass over
 * it (conv1d_wav_k10s5's gradInput in cubeMathType 1: 2.9 -> 1.25 ms, mode 0
 * 1.5). One block: up to FAST_KERNEL_ROUND_TAPS taps. Several: up to
 * FAST_KERNEL_ROUND_READS reads (MobileNet-v2's 1x1 gradInput, HF32, 2
 * threads: 24 channels from 144, three blocks, 6.99 -> 6.52 ms; 32 from 16,
 * four blocks, 3.69 -> 3.99, kept as a copy). Beyond, a packed rounded slab:
 * the rounding would be repeated for each read. */
static bool kernel_rounds_reads(int64_t blocks, int64_t nt)
{
    return blocks == 1 ? nt <= FAST_KERNEL_ROUND_TAPS : blocks * nt <= FAST_KERNEL_ROUND_READS;
}

/* Whether the data pass's results stream out (FAST_NT_MIN_BYTES): fp32
 * gradInput without result rounding, one sub-problem (unit output steps), a
 * short reduction, and the ISA's conv_nt. Decided before the kernel family:
 * where it holds the spatial-vector kernel runs, whose in-place tiles are
 * whole lines of a row (not when ACLCONV_FAST_CV=1 asks for the other).
 * allow: not for the streamed weights pass's data runs (their tasks do not
 * fence). */
static bool data_streams_out(const conv_problem *p, const data_state *st, const conv_ukernels *k,
                             const fast_geom *subs, const bool *empty, int64_t nsub, bool allow)
{
    const char *e = getenv("ACLCONV_FAST_NT"), *cv = getenv("ACLCONV_FAST_CV");
    if (!allow || (e && e[0] == '0') || (cv && cv[0] == '1') || !k->conv_nt || st->phase_rows ||
        st->one_row || nsub != 1 || empty[0])
        return false;
    const conv_view *out = &p->grad_input;
    if (out->dtype != ACL_FLOAT || conv_result_round_kind(p->mode) != F32_ROUND_NONE ||
        smul(subs[0].cin, subs[0].nt) > FAST_NT_MAX_TERMS)
        return false;
    return (e && e[0] == '1') || conv_view_numel(out) * 4 >= FAST_NT_MIN_BYTES;
}

/* The tiles per run of the data pass with tile panels (0: none). One-tap
 * sub-problems (1x1 layers, the phases of a k2 s2 transposed layer) under
 * the fp32 channel-vector kernel broadcast x[c*cs + j] from a line per
 * channel, a few floats of each used, and those lines and a channel
 * block's weights crowd L1 (r50_c4_1x1's dx: 256 lines of x and 16 KB of
 * weights per call). A run of tiles copies its input into panels, tile by
 * tile [channel][nr] (a channel's floats contiguous), which every channel
 * block's calls then read: 6 KB a call at 256 channels. Measured on AVX2
 * (Zen 3: the kernel over a 1x1 layer's image, 80 -> 88 GFLOP/s with the
 * copies) and on an Intel Xeon's AVX-512 (session 51, dx alone: r50_c4_1x1
 * -5 to -6%, 256 channels; a 512 -> 128 1x1 at 28 x 28, 128 channels,
 * -13%), where a tile's panel must leave most of L1 to the weights
 * (FAST_TPANEL_AVX512_TILE_FLOATS: with 512 or 1024 channels, 28-57 KB a
 * tile, +3% and +7%); AMD's AVX-512 unmeasured, kept without.
 * ACLCONV_TILE_PANELS=1 turns it on for any ISA and channel count (tests),
 * =0 off. */
static int64_t data_tile_panel_tiles(const data_state *st, const fast_geom *subs, const bool *empty,
                                     int64_t nsub)
{
    const char *e = getenv("ACLCONV_TILE_PANELS");
    if ((e && e[0] == '0') || !st->cv || st->pairs) return 0;
    const bool force = e && e[0] == '1';
    const bool avx512 = st->isa == ACLCONV_ISA_AVX512 && cpu_amd_family() == 0;
    if (st->isa != ACLCONV_ISA_AVX2 && !avx512 && !force) return 0;
    int64_t cin = 0;
    for (int64_t sub = 0; sub < nsub; ++sub) {
        if (empty[sub]) continue;
        /* each panel read by a few channel blocks' calls at least: a
         * MobileNet-v2 16 -> 32 gradInput (two blocks) ran 25% slower with
         * them, 24 -> 96 (six) 9% faster */
        if (subs[sub].nt != 1 ||
            (!force && ceil_div(subs[sub].cout, st->mr) < FAST_TPANEL_MIN_BLOCKS) ||
            (!force && avx512 && subs[sub].cin * st->nr > FAST_TPANEL_AVX512_TILE_FLOATS))
            return 0;
        cin = max64(cin, subs[sub].cin);
    }
    const int64_t tiles = min64(min64(st->store_tiles, FAST_TPANEL_MAX_TILES),
                                FAST_TPANEL_FLOATS / max64(1, cin * st->nr));
    return tiles >= FAST_TPANEL_MIN_TILES ? tiles : 0;
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

/* Whether the data pass of st can run on BF16 pairs (docs/kernels.md, "BF16
 * pairs") with the channel-vector kernel's tile. */
static bool data_pairs_fit(const conv_problem *p, const data_state *st, const conv_ukernels *k,
                           cpu_bf16_dot_use dot)
{
    const conv_view *in = st->bwd ? &p->y : &p->x;
    return dot != CPU_BF16_DOT_OFF && p->mode == CONV_MODE_BF16 && in->dtype == ACL_BF16 &&
           p->w.dtype == ACL_BF16 && k->bf16_convcv && k->bf16_convcv_mr == k->convcv_mr &&
           k->bf16_convcv_nr == k->convcv_nr;
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
 * alone: the data pass runs its own tasks, so BF16 pairs and streamed
 * results may be planned (not for the streamed weights pass's data slabs: it
 * has no redo for a failed guard, and its tasks do not fence). */
bool data_plan_subs(const conv_problem *p, aclconvIsa isa, int64_t budget, const fast_geom *subs,
                    const bool *empty, int64_t nsub, bool alone, data_state *st, uint64_t *bytes)
{
    st->slab_budget = budget;
    const conv_ukernels *k = conv_ukernels_for(isa);
    st->bwd = p->data_dir == CONV_DIR_BWD_DATA;
    st->isa = isa;
    st->phase_rows = data_use_phase_rows(p);
    st->one_row = !st->phase_rows && (st->bwd ? p->cg : p->og) == 1;
    const cpu_bf16_dot_use dot = cpu_bf16_dot(isa);
    const bool pairs = alone && data_pairs_fit(p, st, k, dot);
    st->stream_out = !pairs && data_streams_out(p, st, k, subs, empty, nsub, alone);
    st->cv = !st->stream_out && data_use_cv(p, st, k, pairs);
    st->round_blocks = data_rounds_block(p, st);
    st->mr = st->cv ? k->convcv_mr : st->one_row ? 1 : k->conv_mr;
    st->nr = st->cv ? k->convcv_nr : st->one_row ? k->conv1_nr : k->conv_nr;
    st->pairs = pairs && st->cv;
    st->pairs_exact = st->pairs && dot == CPU_BF16_DOT_EXACT;
    st->slots = plan_slots();
    /* channel-vector tiles are short (14-16 positions): sixteen of them per
     * store, so a 16-bit gradInput row is narrowed in runs of up to 224 (the
     * per-row work of a store was 13% of r50_c4_1x1's bf16 dx with four
     * tiles a store, -10% CPU time with sixteen: its whole 196-position
     * plane; +5% with one) */
    st->store_tiles = st->cv ? 16 : 1;
    st->tile_ld = st->store_tiles * st->nr;
    st->tile_floats = conv_slot_pitch((int64_t)st->mr * st->tile_ld); /* (a slot's pitch) */
    st->nsub = nsub;
    const int64_t ptiles = data_tile_panel_tiles(st, subs, empty, nsub);
    st->tile_panels = ptiles > 0;
    st->chunk_tiles = st->tile_panels ? ptiles : st->store_tiles;
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
    st->kernel_rounds = !st->cv && p->mode != CONV_MODE_F32;
    for (int64_t sub = 0; sub < st->nsub; ++sub)
        if (!empty[sub] && !kernel_rounds_reads(ceil_div(subs[sub].cout, st->mr), subs[sub].nt))
            st->kernel_rounds = false;
    st->slab_floats = conv_slot_pitch(st->slab_floats); /* (a slot's pitch) */
    st->tpanel_floats = 0;
    for (int64_t sub = 0; sub < st->nsub && st->tile_panels; ++sub)
        if (!empty[sub])
            st->tpanel_floats = max64(st->tpanel_floats, ptiles * subs[sub].cin * st->nr);
    if (st->tile_panels) st->tpanel_floats = conv_slot_pitch(st->tpanel_floats);
    uint64_t size = 0;
    int64_t slabs, tiles, tpanels;
    if (!checked_mul_i64(st->slab_floats, st->slots, &slabs) ||
        !checked_mul_i64(st->tile_floats, st->slots, &tiles) ||
        !checked_mul_i64(st->tpanel_floats, st->slots, &tpanels))
        return false;
    if (!ws_take(&size, st->wpk_floats, &st->wpk_off) || !ws_take(&size, slabs, &st->slab_off) ||
        !ws_take(&size, tiles, &st->tile_off) || !ws_take(&size, tpanels, &st->tpanel_off))
        return false;
    *bytes = size;
    return true;
}

bool data_plan(const conv_problem *p, aclconvIsa isa, data_state *st, uint64_t *bytes)
{
    fast_geom subs[FAST_MAX_SUBS];
    bool empty[FAST_MAX_SUBS];
    int64_t nsub;
    const int64_t budget = data_slab_budget();
    return data_subs(p, budget, subs, empty, &nsub) == NULL &&
           data_plan_subs(p, isa, budget, subs, empty, nsub, true, st, bytes);
}

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

/* Lowers the run's smallest weight exponent field to emin. */
static void lower_wmin(const data_run *r, int emin)
{
    int cur = atomic_load_explicit(r->wmin, memory_order_relaxed);
    while (emin < cur && !atomic_compare_exchange_weak_explicit(
                             r->wmin, &cur, emin, memory_order_relaxed, memory_order_relaxed)) {
    }
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
    const int64_t sci = st->bwd ? w->stride[0] : w->stride[1]; /* input channel to the next */
    int emin = 255;
    if (sco != 1 && sco >= 0 && taps_dense(g, w)) {
        /* a pair's taps are two runs of w per row: zipped and transposed
         * by the ISA's kernel, rows past cout zero */
        for (int64_t cp = 0; cp < ncp; ++cp, dst += g->nt * mr) {
            const int64_t ci = 2 * cp;
            const int64_t lo = st->bwd ? conv_view_index(w, grp * g->cin + ci, co0, 0, 0, 0)
                                       : conv_view_index(w, grp * g->cout + co0, ci, 0, 0, 0);
            emin = r->k->bf16_zipt((size_t)rows, (size_t)g->nt, src + lo,
                                   ci + 1 < g->cin ? src + lo + sci : NULL, (size_t)sco, dst,
                                   (size_t)mr, emin);
            if (rows < mr)
                for (int64_t t = 0; t < g->nt; ++t)
                    memset(dst + t * mr + rows, 0, (size_t)(mr - rows) * sizeof *dst);
        }
        lower_wmin(r, emin);
        return;
    }
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
    lower_wmin(r, emin);
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

/* Floats of the block data_pack_weights_joint transposes a channel at a
 * time, on its stack: the pool's caller runs tasks too, on the user's
 * thread, whose stack already holds the data run (~34 KB); 16 KB covers
 * 128 taps of the 32-row panels (11 x 11), larger kernels pack a phase at a
 * time. */
#define FAST_JOINT_PACK_FLOATS 4096

/* The first sub-problem with taps (r->nsub when none). */
static int64_t first_taps_sub(const data_run *r)
{
    int64_t sub = 0;
    while (sub < r->nsub && r->empty[sub])
        ++sub;
    return sub;
}

/* Whether D's sub-problems (output phases) pack their fp32 panels together
 * (data_pack_weights_joint): each reads its own taps of w, and a phase's
 * taps gathered a row of the panel at a time read nearly every line of w
 * again, an element at a time (n=1 k7 s2 256 <- 512 on 14 x 14: 25.7 MB of
 * weights, the packing 65% of the gradInput). */
static bool data_packs_jointly(const data_run *r)
{
    const data_state *st = r->st;
    const conv_view *w = &r->p->w;
    const int64_t *ks = r->p->ks;
    if (r->nsub < 2 || first_taps_sub(r) == r->nsub || st->pairs || st->phase_rows ||
        w->dtype != ACL_FLOAT || (st->bwd ? w->stride[1] : w->stride[0]) < 0 || w->stride[4] != 1 ||
        w->stride[3] != ks[2] || w->stride[2] != ks[1] * ks[2] ||
        ks[0] * ks[1] * ks[2] * st->mr > FAST_JOINT_PACK_FLOATS)
        return false;
    return true;
}

/* The panels of (group, channel block) i of every sub-problem: per input
 * channel its [row][tap] block of w transposed once (all of the kernel's
 * taps, rounded to the mode), then each sub-problem's taps copied into its
 * panel, row after row of MR. */
static void data_pack_weights_joint(void *ctx, size_t i)
{
    const data_run *r = ctx;
    const data_state *st = r->st;
    const conv_problem *p = r->p;
    const conv_view *w = &p->w;
    const int64_t *ks = p->ks, kt = ks[0] * ks[1] * ks[2], mr = st->mr;
    const fast_geom *g0 = &r->subs[first_taps_sub(r)]; /* (every sub's channels are the same) */
    const int64_t cin = g0->cin, cout = g0->cout, ncb = ceil_div(cout, mr);
    const int64_t grp = (int64_t)i / ncb, co0 = (int64_t)i % ncb * mr, rows = min64(mr, cout - co0);
    const int64_t sco = st->bwd ? w->stride[1] : w->stride[0];
    float tmp[FAST_JOINT_PACK_FLOATS];
    if (rows < mr) /* the rows past cout stay zero */
        memset(tmp, 0, (size_t)(kt * mr) * sizeof(float));
    for (int64_t ci = 0; ci < cin; ++ci) {
        const int64_t idx = st->bwd ? conv_view_index(w, grp * cin + ci, co0, 0, 0, 0)
                                    : conv_view_index(w, grp * cout + co0, ci, 0, 0, 0);
        r->k->transpose((size_t)rows, (size_t)kt, (const float *)w->data + idx, (size_t)sco, tmp,
                        (size_t)mr);
        if (p->mode != CONV_MODE_F32)
            r->k->f32_round((size_t)(kt * mr), tmp, tmp, conv_round_kind(p->mode));
        for (int64_t sub = 0; sub < r->nsub; ++sub) {
            if (r->empty[sub]) continue;
            const fast_geom *g = &r->subs[sub];
            float *dst =
                r->wpk + r->wpk_at[sub] + (int64_t)i * data_panel_floats(st, g) + ci * g->nt * mr;
            for (int64_t jd = 0; jd < g->ntap[0]; ++jd)
                for (int64_t jh = 0; jh < g->ntap[1]; ++jh)
                    for (int64_t jw = 0; jw < g->ntap[2]; ++jw, dst += mr) {
                        const int64_t k =
                            (g->tk[0][jd] * ks[1] + g->tk[1][jh]) * ks[2] + g->tk[2][jw];
                        memcpy(dst, tmp + k * mr, (size_t)mr * sizeof(float));
                    }
        }
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
 * copy's loads most likely wait on store forwarding). Phase rows: row rel of
 * a group's rows (rel < g->cout) is r->prow[rel], tabled by
 * data_run_prepare (its eleven divisions per tile row, with the segment
 * walk's two, were 21% of MobileNet's 3-channel stem gradInput). */
static inline __attribute__((always_inline)) store_row
data_row_target(const data_run *r, const fast_geom *g, int64_t grp, int64_t rel, int64_t od,
                int64_t oh0, int64_t ow0, int64_t rows, int64_t cols)
{
    store_row t = {grp * g->cout + rel, {g->ooff[0], g->ooff[1], g->ooff[2]}, rows, cols, false};
    if (!r->st->phase_rows) return t;
    const phase_row *pr = &r->prow[rel];
    t.c = grp * r->p->cg + pr->c;
    for (int i = 0; i < 3; ++i)
        t.off[i] = pr->off[i];
    t.skip = od >= pr->cnt[0];
    t.rows = min64(rows, max64(0, pr->cnt[1] - oh0));
    t.cols = min64(cols, max64(0, pr->cnt[2] - ow0));
    return t;
}

/* r->prow for phase rows: row co*nsub + sub of a group is channel co, output
 * phase sub, with cnt[i] positions of that phase along dim i. */
static void phase_rows_table(data_run *r, const fast_geom *g)
{
    const conv_problem *p = r->p;
    const int64_t nsub = g->cout / p->cg;
    for (int64_t row = 0; row < g->cout; ++row) {
        phase_row *pr = &r->prow[row];
        int64_t sub = row % nsub;
        pr->c = row / nsub;
        for (int i = 2; i >= 0; --i) {
            pr->off[i] = sub % p->stride[i];
            sub /= p->stride[i];
            pr->cnt[i] = p->xs[i] > pr->off[i] ? ceil_div(p->xs[i] - pr->off[i], p->stride[i]) : 0;
        }
    }
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
    const int64_t grp = co0 / g->cout, rel0 = co0 - grp * g->cout;
    const int64_t row0 = j0 / g->wp, col0 = j0 - row0 * g->wp;
    for (int64_t m = 0; m < mr; ++m) {
        const float *src = tile ? tile + m * ldt : NULL;
        const store_row t = data_row_target(r, g, grp, rel0 + m, od, oh0, ow0, rows, cols);
        if (t.skip) continue;
        int64_t j = j0, row = row0, col = col0;
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
            col += seg; /* past the row's end by a whole row at most but for linear's last */
            if (col == g->wp) {
                ++row;
                col = 0;
            } else if (col > g->wp) {
                row += col / g->wp;
                col %= g->wp;
            }
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

/* The taps [*ta, *tb) of output row oh of plane od of sub-problem g that
 * the channel-vector kernels run: the shortest range of the tap order (kd,
 * kh, kw) that holds every tap whose input plane and row are inside the
 * tensor. The taps outside it read only the slab's zero padding; their
 * products are zeros, and a sum that starts from +0 never changes by adding
 * a zero (it cannot be -0), so skipping them keeps every bit, except that a
 * non-finite weight no longer makes NaN out of padding (which the formula
 * counts as no term at all: docs/numerics.md). ResNet-18's 3x3 on 7 x 7
 * planes: 2 of 7 rows run 6 of 9 taps. */
static void data_row_taps(const fast_geom *g, int64_t od, int64_t oh, int64_t *ta, int64_t *tb)
{
    int64_t lo = -1, hi = -1; /* (kd, kh) pairs, flattened */
    for (int64_t kd = 0; kd < g->ntap[0]; ++kd) {
        const int64_t d = od * g->st[0] + g->tsh[0][kd];
        if (d < 0 || d >= g->is[0]) continue;
        for (int64_t kh = 0; kh < g->ntap[1]; ++kh) {
            const int64_t h = oh * g->st[1] + g->tsh[1][kh];
            if (h < 0 || h >= g->is[1]) continue;
            if (lo < 0) lo = kd * g->ntap[1] + kh;
            hi = kd * g->ntap[1] + kh;
        }
    }
    *ta = lo < 0 ? 0 : lo * g->ntap[2]; /* (none: the row's sums are zeros; all taps) */
    *tb = lo < 0 ? g->nt : (hi + 1) * g->ntap[2];
}

/* The channel-vector kernels' edge flags of sub-problem g's taps for the
 * tiles at the ends of a block's rows (output columns [ow0, ow0 + cols)):
 * first[t] CONVCV_SKIP_FIRST where tap t reads padding at column ow0,
 * last[t] CONVCV_SKIP_LAST where it does at ow0 + cols - 1, both[t] the
 * two. Like the padding rows (data_row_taps), the terms left out are zeros
 * and the bits stay (docs/kernels.md, "convcv"). Returns whether any is
 * set, per end (bit 0: first, bit 1: last). */
static int data_edge_taps(const fast_geom *g, int64_t ow0, int64_t cols, uint8_t *first,
                          uint8_t *last, uint8_t *both)
{
    int any = 0;
    for (int64_t t = 0; t < g->nt; ++t) {
        const int64_t sh = g->tsh[2][t % g->ntap[2]];
        const int64_t c0 = ow0 * g->st[2] + sh, c1 = (ow0 + cols - 1) * g->st[2] + sh;
        first[t] = c0 < 0 || c0 >= g->is[2] ? CONVCV_SKIP_FIRST : 0;
        last[t] = c1 < 0 || c1 >= g->is[2] ? CONVCV_SKIP_LAST : 0;
        both[t] = first[t] | last[t];
        any |= first[t] | last[t];
    }
    return any;
}

/* The tile panels of tiles [t0, t1) of a row of span positions from j0
 * (st->tile_panels): tile t's input x[c*cs + j] for c < nc and its j < nr
 * at panel (t - t0), [c][st->nr]. Channel by channel, so each reads its
 * run of positions in order (the first reads of x: from memory). A
 * channel's tile moves as FAST_TPANEL_COPY floats (one fixed-size copy, no
 * loop) while those stay inside the run: the floats past its nr land in
 * the next channel's place, written after it; the last channel's would
 * land in the next tile's first, written before, so it goes element by
 * element. */
static void data_tile_panels(const data_state *st, const float *x, int64_t cs, int64_t nc,
                             int64_t j0, int64_t span, int64_t ntiles, int64_t t0, int64_t t1,
                             float *panel)
{
    const int64_t tp = nc * st->nr; /* floats per tile */
    int64_t at[FAST_TPANEL_MAX_TILES + 1];
    for (int64_t t = t0; t <= t1; ++t)
        at[t - t0] = tile_start(st, t, span, ntiles);
    const int64_t end = at[t1 - t0], nt = t1 - t0;
    /* tiles [0, fast) take the fixed-size copy */
    int64_t fast = 0;
    while (fast < nt && at[fast] + FAST_TPANEL_COPY <= end && st->nr <= FAST_TPANEL_COPY)
        ++fast;
    for (int64_t c = 0; c < nc; ++c) {
        const float *src = x + c * cs + j0;
        float *dst = panel + c * st->nr;
        const int64_t tf = c + 1 < nc ? fast : 0;
        for (int64_t t = 0; t < tf; ++t)
            memcpy(dst + t * tp, src + at[t], FAST_TPANEL_COPY * sizeof(float));
        for (int64_t t = tf; t < nt; ++t)
            for (int64_t j = at[t]; j < at[t + 1]; ++j)
                dst[t * tp + j - at[t]] = src[j];
    }
}

/* One kernel call of the data pass: mr x nr results from 0 at y[m*ldy +
 * j*ystep] (ystep > 1: the channel-vector kernel only) over taps [ta, tb)
 * of the panel w with the edge flags te (NULL: none) of those taps (the
 * channel-vector kernels; the others take every tap, every position); y
 * is float, or with y16 (the channel-vector kernels only: CONVCV_Y_BF16
 * for the pair kernel) a 16-bit gradInput written in place. */
static inline void data_kernel(const data_run *r, int64_t mr, int64_t nr, const fast_geom *g,
                               int64_t ta, int64_t tb, const uint8_t *te, const float *w,
                               const float *x, int64_t cs, int xround, const ptrdiff_t *toff,
                               void *y, int64_t ldy, int64_t ystep, int y16, bool stream)
{
    const float *wt = w + ta * r->st->mr; /* (panel rows of MR) */
    if (r->st->pairs) /* panels and slab of pairs: 32-bit words at the floats' offsets */
        r->pairconv((size_t)mr, (size_t)nr, (size_t)data_chans(r->st, g), (size_t)(tb - ta),
                    (size_t)g->nt, (const uint32_t *)(const void *)wt,
                    (const uint32_t *)(const void *)x, (size_t)cs, toff + ta, te, y, (size_t)ldy,
                    (size_t)ystep, 0, y16 == CONVCV_Y_BF16);
    else if (r->st->cv)
        r->convcv((size_t)mr, (size_t)nr, (size_t)g->cin, (size_t)(tb - ta), (size_t)g->nt, wt, x,
                  (size_t)cs, toff + ta, te, y, (size_t)ldy, (size_t)ystep, 0, y16);
    else
        (stream ? r->k->conv_nt : r->conv)((size_t)mr, (size_t)nr, (size_t)g->cin, (size_t)g->nt, w,
                                            x, (size_t)cs, toff, y, (size_t)ldy, 0, xround);
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
const float *data_slab(const data_run *r, const fast_geom *g, int64_t n, int64_t grp, int64_t od,
                       int64_t oh0, int64_t ow0, int slot, int64_t *cs, int *xround)
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

/* Zeros the gradInput cells of phase-0 outputs [oh0, oh0 + rows) x [ow0,
 * ow0 + cols) of plane od, channels [c0, c0 + nc) of image n (r->zero_cells):
 * cell (od, oh, ow) is every element whose coordinates divided by the
 * strides give it. Phase 0's own elements are zeroed too, then written by
 * the kernels: the line is read for ownership once, where a zero pass over
 * the other phases before the tasks had it read twice (r50's 1x1 stride-2
 * 256 -> 512 layer: a separate pass over 3/4 of gradInput, ~12% of its
 * gradInput time). ask: the cells' lines are asked for into L2 instead. */
static void data_zero_cells(const data_run *r, int64_t n, int64_t c0, int64_t nc, int64_t od,
                            int64_t oh0, int64_t rows, int64_t ow0, int64_t cols, bool ask)
{
    const conv_view *out = r->out;
    const int64_t *s = r->p->stride, *xs = r->p->xs;
    const int64_t d0 = od * s[0], h0 = oh0 * s[1], w0 = ow0 * s[2];
    const int64_t d1 = min64(xs[0], d0 + s[0]), h1 = min64(xs[1], (oh0 + rows) * s[1]),
                  w1 = min64(xs[2], (ow0 + cols) * s[2]);
    const int64_t es = out->dtype == ACL_FLOAT ? 4 : 2;
    if (out->stride[4] != 1) { /* (no requests: strided rows) */
        for (int64_t c = c0; c < c0 + nc && !ask; ++c)
            for (int64_t d = d0; d < d1; ++d)
                for (int64_t h = h0; h < h1; ++h)
                    conv_view_zero_row(out, n, c, d, h, w0, 1, w1);
        return;
    }
    /* a channel's cell rows: one run when they are whole, contiguous rows
     * (a call per row was most of the zeros' time) */
    const bool run = w0 == 0 && w1 == xs[2] && out->stride[3] == xs[2];
    const int64_t len = run ? (h1 - h0) * xs[2] : w1 - w0, nrun = run ? 1 : h1 - h0;
    char *base = out->data + es * conv_view_index(out, n, c0, d0, h0, w0);
    for (int64_t c = 0; c < nc; ++c)
        for (int64_t d = 0; d < d1 - d0; ++d)
            for (int64_t i = 0; i < nrun; ++i) {
                char *at =
                    base + es * (c * out->stride[1] + d * out->stride[2] + i * out->stride[3]);
                if (ask)
                    ukernel_prefetch_run(at, len * es, 1);
                else
                    memset(at, 0, (size_t)(len * es));
            }
}

/* The kernel calls and stores of sub-problem g's block (n, grp, od, rbi,
 * cbi) over its slab xs (the kernel rounds it for xround, data_slab).
 * touch: the block's first output phase (its stores miss: prefetched
 * first). */
void data_block(const data_run *r, int64_t sub, int64_t n, int64_t grp, int64_t od, int64_t rbi,
                int64_t cbi, int slot, bool touch, const float *xs, int64_t cs, int xround)
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
    /* BF16 pairs into a BF16 gradInput in mode BF16, or the fp32
     * channel-vector kernel (where it narrows in registers) into a gradInput
     * of the mode's 16-bit dtype: the kernel narrows as it stores (the
     * mode's rounding and the cast are one rounding), so the results skip
     * the tile buffer and data_store_tile (pairs: 8% of r50_c4_1x1's bf16
     * dx, 20% of r50_c3_3x3s2's with its stride-2 phases; fp16, a 1x1 layer
     * 96 -> 24 channels on 56 x 56: -30%) */
    const bool bf16_mode = out->dtype == ACL_BF16 && r->p->mode == CONV_MODE_BF16;
    const bool mode16 = bf16_mode || (out->dtype == ACL_FLOAT16 && r->p->mode == CONV_MODE_F16);
    int y16 = CONVCV_Y_F32;
    if (st->pairs ? bf16_mode : st->cv && !st->phase_rows && r->k->convcv_y16 && mode16)
        y16 = out->dtype == ACL_BF16 ? CONVCV_Y_BF16 : CONVCV_Y_F16;
    const bool f32_out = !st->phase_rows && out->dtype == ACL_FLOAT;
    const bool direct = f32_out || y16 != CONVCV_Y_F32;
    const int64_t es = y16 != CONVCV_Y_F32 ? 2 : 4; /* bytes of an output element */
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
    /* the tiles at the row's ends leave out the positions of taps that read
     * padding there (per_row: the channel-vector kernels) */
    uint8_t e_first[FAST_MAX_TAPS], e_last[FAST_MAX_TAPS], e_both[FAST_MAX_TAPS];
    const int edges = per_row ? data_edge_taps(g, ow0, cols, e_first, e_last, e_both) : 0;
    /* (edge flags leave positions out: those tiles read the slab itself) */
    float *const tpanel =
        st->tile_panels && !edges ? r->tpanels + (int64_t)slot * st->tpanel_floats : NULL;
    static const ptrdiff_t panel_toff[1] = {0};
    /* (row by row: each (row, channel block) right before its kernels) */
    if (r->zero_cells && !per_row)
        data_zero_cells(r, n, grp * g->cout, g->cout, od, oh0, rows, ow0, cols, false);
    for (int64_t cb0 = 0; cb0 < ncb; cb0 += cbb) {
        const int64_t cb1 = min64(ncb, cb0 + cbb);
        for (int64_t row = 0; row < trows; ++row) {
            int64_t ta = 0, tb = g->nt; /* (rows of the whole grid: every tap) */
            if (per_row) data_row_taps(g, od, oh0 + row, &ta, &tb);
            for (int64_t t0 = 0; t0 < ntiles; t0 += st->chunk_tiles) {
                /* kernel tiles [t0, t1) go to the tile buffer side by
                 * side and are stored with one data_store_tile */
                const int64_t t1 = min64(ntiles, t0 + st->chunk_tiles);
                const int64_t g0 = tile_start(st, t0, span, ntiles),
                              gn = tile_start(st, t1, span, ntiles) - g0;
                if (tpanel) /* (one tap: ta == 0) */
                    data_tile_panels(st, xs + toff[0], cs, g->cin, row * g->wp, span, ntiles, t0,
                                     t1, tpanel);
                for (int64_t mb = cb0; mb < cb1; ++mb) {
                    const int64_t mr = min64(st->mr, g->cout - mb * st->mr);
                    const float *w = wpk + (grp * ncb + mb) * panel;
                    const int64_t co0 = grp * g->cout + mb * st->mr;
                    if (r->zero_cells && per_row && t0 == 0) {
                        /* the next row's cells asked for into L2 (its
                         * turn comes after every channel block of this
                         * row): -3% on r50's 1x1 stride-2 gradInput */
                        data_zero_cells(r, n, co0, mr, od, oh0 + row, 1, ow0, cols, false);
                        if (row + 1 < trows)
                            data_zero_cells(r, n, co0, mr, od, oh0 + row + 1, 1, ow0, cols, true);
                    }
                    if (!in_place && touch)
                        data_store_tile(r, g, NULL, 0, mr, gn, n, co0, od, oh0, ow0, rows, cols,
                                        row * g->wp + g0);
                    char *dst0 =
                        in_place ? out0 + es * (mb * st->mr * out->stride[1] + row * ldrow) : NULL;
                    for (int64_t t = t0; t < t1; ++t) {
                        const int64_t c0 = tile_start(st, t, span, ntiles);
                        const int64_t nr = tile_start(st, t + 1, span, ntiles) - c0,
                                      j0 = row * g->wp + c0;
                        const int fe =
                            (c0 == 0 ? edges & 1 : 0) | (c0 + nr == cols ? edges & 2 : 0);
                        const uint8_t *te = fe == 3   ? e_both + ta
                                            : fe == 1 ? e_first + ta
                                            : fe == 2 ? e_last + ta
                                                      : NULL;
                        /* the tile's panel: channels cs = nr apart, its
                         * positions from 0 */
                        const float *xt = tpanel ? tpanel + (t - t0) * g->cin * st->nr : xs + j0;
                        const int64_t xcs = tpanel ? st->nr : cs;
                        const ptrdiff_t *xoff = tpanel ? panel_toff : toff;
                        if (in_place) {
                            char *dst = dst0 + es * c0 * ystep;
                            /* (the channel-vector kernel asks for its unit-step
                             * results itself, spread over its loop) */
                            /* (streamed results: no line to bring in) */
                            if (!st->stream_out &&
                                (!st->cv || (ystep != 1 && !(st->pairs && ystep == 2))))
                                prefetch_tile(dst, mr, out->stride[1], (nr - 1) * ystep + 1,
                                              (size_t)es);
                            data_kernel(r, mr, nr, g, ta, tb, te, w, xt, xcs, xround, xoff, dst,
                                        out->stride[1], ystep, y16, st->stream_out);
                        } else {
                            data_kernel(r, mr, nr, g, ta, tb, te, w, xt, xcs, xround, xoff,
                                        tile + (c0 - g0), st->tile_ld, 1, CONVCV_Y_F32, false);
                        }
                    }
                    if (in_place && rounds && y16 == CONVCV_Y_F32 && !st->round_blocks)
                        round_in_place(r, (float *)(void *)dst0 + g0 * ystep, mr, out->stride[1],
                                       gn, ystep);
                    if (!in_place)
                        data_store_tile(r, g, tile, st->tile_ld, mr, gn, n, co0, od, oh0, ow0, rows,
                                        cols, row * g->wp + g0);
                }
            }
        }
    }
}

/* The result rounding of task block (n, grp, od, rbi, cbi) (st->round_blocks):
 * the gradInput region its output phases cover, row by row. Every element is
 * final (this task wrote every phase of the region; phases without taps were
 * zeroed before the tasks). */
void round_block(const data_run *r, int64_t n, int64_t grp, int64_t od, int64_t rbi, int64_t cbi)
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
    if (st->stream_out) r->k->store_fence();
}

/* Zeros gradInput[n, c] at the positions of the output phases without taps
 * (several sub-problems: sub is phase rho, sub = (rho0*s1 + rho1)*s2 +
 * rho2; one: it covers every position): each row one of whose W phases has
 * none in one run, the other phases' elements written again by the
 * pass's tasks later (an empty phase's elements at the stride touch every
 * line of the row anyway; zeroed a phase at a time they were 40% of a k2
 * s3 layer's gradInput on 13 x 13). Row by row through the view: element
 * by element with store_from_f32 it was 40% of a 1x1 stride-2 layer's
 * gradInput (three of four phases empty, r50 56 -> 28, 256 -> 512
 * channels). */
static void data_zero_task(void *ctx, size_t i)
{
    const data_run *r = ctx;
    const conv_view *out = r->out;
    const int64_t one[3] = {1, 1, 1}, *s = r->nsub > 1 ? r->p->stride : one, *xs = r->p->xs;
    const int64_t channels = out->dim[1], n = (int64_t)i / channels, c = (int64_t)i % channels;
    if (r->zero_planes) {
        conv_view_zero_plane(out, n, c);
        return;
    }
    for (int64_t d = 0; d < xs[0]; ++d)
        for (int64_t h = 0; h < xs[1]; ++h) {
            const int64_t first = ((d % s[0]) * s[1] + h % s[1]) * s[2]; /* W phase 0's sub */
            bool any = false;
            for (int64_t rho = 0; rho < s[2]; ++rho)
                any |= r->empty[first + rho];
            if (any) conv_view_zero_row(out, n, c, d, h, 0, 1, xs[2]);
        }
}

/* Sets r up for the data pass planned in st. compute: gradInput is computed
 * (weights packed, phases without taps zeroed); else only the slabs are used
 * (data_slab: the streamed weights pass alone). */
void data_run_prepare(data_run *r, const conv_problem *p, const data_state *st, void *workspace,
                      bool compute)
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
    r->tpanels = (float *)(ws + st->tpanel_off);
    data_subs(p, st->slab_budget, r->subs, r->empty, &r->nsub); /* accepted at plan time */
    if (st->phase_rows) phase_rows_table(r, &r->subs[0]);
    int64_t wat = 0, tat = 0;
    bool zeros = false; /* a phase without taps (D: sub-problems are phases) */
    r->zero_cells = r->nsub > 1 && !r->empty[0];
    for (int i = 0; i < 3; ++i) /* phase 0 at the cells' origins */
        r->zero_cells =
            r->zero_cells && r->subs[0].ooff[i] == 0 && r->subs[0].ostep[i] == p->stride[i];
    for (int64_t sub = 0; sub < r->nsub; ++sub) {
        const fast_geom *g = &r->subs[sub];
        r->g = g;
        if (r->empty[sub]) {
            zeros = true;
            continue;
        }
        r->zero_cells = r->zero_cells && sub == 0;
        r->ncb[sub] = ceil_div(g->cout, st->mr);
        r->cbb[sub] = max64(1, FAST_WBLOCK_FLOATS / data_panel_floats(st, g));
        /* tile panels: one sweep, each run's panels copied once, the weights
         * streamed past them (r50_c4_1x1's 1 MB) */
        if (st->tile_panels) r->cbb[sub] = r->ncb[sub];
        r->wpk_at[sub] = wat;
        r->toff_at[sub] = tat;
        tap_offsets(g, r->toff + tat);
        wat += g->g * r->ncb[sub] * data_panel_floats(st, g);
        tat += g->nt;
    }
    const bool joint = compute && data_packs_jointly(r);
    if (joint)
        pool_parallel_for((size_t)(p->g * ceil_div(r->subs[first_taps_sub(r)].cout, st->mr)),
                          data_pack_weights_joint, r);
    for (int64_t sub = 0; sub < r->nsub; ++sub) {
        r->g = &r->subs[sub];
        if (r->empty[sub]) continue;
        r->wpk_sub = r->wpk + r->wpk_at[sub];
        r->ncb_sub = r->ncb[sub];
        if (compute && !joint)
            pool_parallel_for((size_t)(r->g->g * r->ncb[sub]), data_pack_weights, r);
    }
    r->zero_cells = r->zero_cells && zeros;
    /* every row zeroed (each (D, H) phase pair has a W phase without taps):
     * the planes a memset each */
    const int64_t one[3] = {1, 1, 1}, *ps = r->nsub > 1 ? p->stride : one;
    r->zero_planes = zeros;
    for (int64_t rd = 0; rd < ps[0]; ++rd)
        for (int64_t rh = 0; rh < ps[1]; ++rh) {
            bool any = false;
            for (int64_t rw = 0; rw < ps[2]; ++rw)
                any |= r->empty[(rd * ps[1] + rh) * ps[2] + rw];
            r->zero_planes = r->zero_planes && any;
        }
    if (zeros && compute && !r->zero_cells)
        pool_parallel_for((size_t)(r->out->dim[0] * r->out->dim[1]), data_zero_task, r);
}

static int64_t data_tasks(const conv_problem *p, const data_state *st)
{
    return p->n * p->g * st->tasks_d * st->tasks_rb * st->tasks_wb;
}

void data_run_pass(const conv_problem *p, const data_state *st, void *workspace)
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
