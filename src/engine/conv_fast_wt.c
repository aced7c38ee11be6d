/* The fast implementation's weights pass ("fast_wt"): dW^T[(c,tap)][o] from
 * x slabs and dy, by the GEMM kernel (convwt) or the reduction-vector one
 * (convrv), over fixed chunks of the reduction; streamed with the data pass
 * when it reads dy (D) or x (F) once for both. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "common/cpu.h"
#include "common/dtype.h"
#include "engine/conv_bias.h"
#include "engine/conv_fast_internal.h"
#include "threading/pool.h"

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

const char *wt_why_not(const conv_problem *p, aclconvIsa isa)
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
    /* at most one chunk's images (FAST_WT_CHUNKS chunks): a unit's first
     * call writes the partial sums, the others read and write them */
    return nb < 1 ? 0 : min64(nb, ceil_div(g->n, FAST_WT_CHUNKS));
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
 * passes, a quarter of its time. Not where the passes apart run BF16 pairs
 * (wt_plan): the streamed kernels are the fp32 ones. */
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
    /* (the fixed budget: the weights pass's blocks, and so its sums, follow
     * the data slab's here, and must not depend on the CPU's L2) */
    if (data_subs(p, FAST_SLAB_FLOATS, subs, empty, &nsub) != NULL || nsub != 1 || empty[0])
        return false;
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
 * and a copy of at most FAST_STREAM_IMG_FLOATS. On AMD only (measured on Zen
 * 5): an Intel Xeon (session 51, 2 MB L2) follows the blocks' pieces well
 * enough that writing and reading the copy back from L3 cost more
 * (conv1d_wav_k10s5 bf16, both gradients, 1.30-1.35x -> 1.23x fp32's time,
 * and a tenth of the workspace). ACLCONV_FAST_STREAM_COPY=0 / 1 decides
 * instead of the vendor (tests: both forms on any host). */
static int64_t stream_image_floats(const conv_problem *p)
{
    const conv_view *y = &p->y;
    const char *e = getenv("ACLCONV_FAST_STREAM_COPY");
    const bool copies = e != NULL ? e[0] == '1' : cpu_amd_family() != 0;
    if (y->dtype == ACL_FLOAT || p->g != 1 || !copies) return 0;
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
    if (!data_plan_subs(p, isa, FAST_SLAB_FLOATS, gd, &not_empty, 1, false, &st->ds, &size))
        return false;
    const bool bwd = p->data_dir == CONV_DIR_BWD_DATA;
    /* F: the weights pass takes the data slab as its rounded x */
    if (!bwd) st->ds.kernel_rounds = false;
    /* D without the data pass: fp32 dy the mode rounds is read in place
     * and rounded by wt_block_rv, once for a kernel row block's calls, even
     * where the data kernel would read it too often to round it itself
     * (kernel_rounds_reads): no data kernel reads it here, and a rounded
     * slab packed from memory is a pass the kernels do not overlap
     * (conv1d_wav_k10s5's weights alone, HF32, AVX2: 16.4 -> 10.7 ms, mode
     * 0 9.4-9.7). A fused run keeps the data pass's choice (fast_fuse_data). */
    st->data_kernel_rounds = st->ds.kernel_rounds;
    if (bwd && !st->ds.cv && p->mode != CONV_MODE_F32) st->ds.kernel_rounds = true;
    /* D: x slabs as large as a data slab's positions; F: the data blocks */
    if (wt_geom(p, &st->g, bwd ? gd->hp : gd->rb, bwd ? gd->wp : gd->wb) != NULL) return false;
    const fast_geom *g = &st->g;
    st->wimg = 1;
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
    st->nsplit = 1;
    st->slots = plan_slots();
    st->part_floats = round_up64(smul(smul(smul(g->g, g->cin), g->nt), st->ldb), 16);
    if (st->part_floats > FAST_MAX_FLOATS || st->dyt_floats > FAST_MAX_FLOATS) return false;
    if (st->dyt_floats > 0) st->dyt_floats = conv_slot_pitch(st->dyt_floats); /* (per slot) */
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

/* Images of a group of the GEMM path (wt_state.wimg; 1: none): 2-D units
 * that are whole images of one dy block, as many as FAST_WT_GROUP_POSITIONS
 * positions take (or ACLCONV_FAST_WT_IMAGES), within the slot's slab and
 * dy^T budgets. */
static int64_t wt_group_images(const fast_geom *g, const wt_state *st)
{
    if (st->rv || st->fnb > 0 || g->os[0] != 1 || g->nrb != 1 || g->nwb != 1 ||
        st->brows < g->os[1] || st->bcols < g->os[2])
        return 1;
    const int64_t pos = g->os[1] * g->os[2];
    const char *env = getenv("ACLCONV_FAST_WT_IMAGES");
    int64_t k = env ? atoll(env) : FAST_WT_GROUP_POSITIONS / pos;
    k = min64(k, min64(FAST_WT_GROUP_MAX, g->n));
    k = min64(k, FAST_WT_SLAB_FLOATS / g->slab_floats);
    k = min64(k, st->brows * st->bcols / pos);
    return max64(1, k);
}

/* The weights pass over its own blocks (not streamed). */
static bool wt_plan_blocks(const conv_problem *p, aclconvIsa isa, wt_state *st, uint64_t *bytes)
{
    if (wt_geom(p, &st->g, 0, 0) != NULL) return false;
    const fast_geom *g = &st->g;
    const conv_ukernels *k = conv_ukernels_for(isa);
    st->isa = isa;
    st->mr = k->convwt_mr;
    st->nr = k->convwt_nr;
    st->ldb = round_up64(g->cout, 16);
    st->ldo = min64(st->ldb, FAST_WT_OBLOCK);
    st->rv = g->cin * g->nt < FAST_RV_MAX_KROWS ||
             (g->cout < FAST_RV_MAX_OG &&
              (g->cout <= FAST_RV_FEW_OG || g->os[0] * g->os[1] * g->os[2] >= FAST_RV_MIN_PLANE));
    const int64_t positions = st->rv ? max64(64, min64(FAST_RV_MAX_POSITIONS, FAST_WT_DYT_FLOATS / g->cout))
                                     : max64(16, FAST_WT_DYT_FLOATS / st->ldo);
    st->bcols = min64(g->wb, positions);
    st->brows = st->bcols == g->wb ? max64(1, positions / g->wb) : 1;
    st->nunits = smul(smul(g->n, g->os[0]), smul(g->nrb, g->nwb));
    /* flat: all output channels in one dy^T block when a unit of images
     * then reduces over FAST_WT_FLAT_MIN_POSITIONS, so the x rows of a
     * kernel call are read once for every o tile; else blocks of ldo
     * channels if they hold more images (each unit sweeps the partial sums
     * once) */
    st->fpos = g->is[0] * g->is[1] * g->is[2];
    bool all_copy;
    const int64_t fnb_all = wt_flat_images(p, g, st->rv, st->ldb, &all_copy);
    const int64_t flat_ldo = min64(st->ldb, FAST_WT_FLAT_OBLOCK);
    st->fnb = fnb_all > 0 && fnb_all * st->fpos >= FAST_WT_FLAT_MIN_POSITIONS
                  ? 0
                  : wt_flat_images(p, g, st->rv, flat_ldo, &st->fcopy);
    if (st->fnb > 0) st->ldo = flat_ldo;
    if (fnb_all > 0 && st->fnb <= fnb_all) {
        st->fnb = fnb_all;
        st->fcopy = all_copy;
        st->ldo = st->ldb;
    }
    if (st->fnb > 0) { /* x is read in place or copied whole; blocks of whole images */
        st->nunits = ceil_div(g->n, st->fnb);
        st->brows = st->fnb;
        st->bcols = st->fpos;
    }
    st->nchunks = min64(st->nunits, FAST_WT_CHUNKS);
    st->nsplit = 1;
    st->slots = plan_slots();
    const cpu_bf16_dot_use dot = cpu_bf16_dot(isa);
    /* the flat path pairs each image's dy plane as one row: contiguous planes */
    const conv_view *y = &p->y;
    const bool yflat = y->stride[4] == 1 && (g->is[1] == 1 || y->stride[3] == g->is[2]) &&
                       (g->is[0] == 1 || y->stride[2] == g->is[1] * g->is[2]);
    /* reduction-vector pairs: dy rows read in place, more than one output
     * channel (one: convrv1's 1 x 8 tile, where the pair kernel's 4 x 6
     * would run a quarter full) */
    const bool rv_pairs = st->rv && k->bf16_convrv && y->stride[4] == 1 && g->cout > 1;
    const bool gemm_pairs = !st->rv && (st->fnb == 0 || yflat) && k->bf16_convwt &&
                            k->bf16_convwt_mr == st->mr && k->bf16_convwt_nr == st->nr;
    st->pairs = dot != CPU_BF16_DOT_OFF && (rv_pairs || gemm_pairs) && p->mode == CONV_MODE_BF16 &&
                p->x.dtype == ACL_BF16 && p->y.dtype == ACL_BF16;
    st->pairs_exact = st->pairs && dot == CPU_BF16_DOT_EXACT;
    st->part_floats = round_up64(smul(smul(smul(g->g, g->cin), g->nt), st->ldb), 16);
    /* a partial too large to sum four of (the GEMM path over slabs): one
     * chunk, whose rows FAST_WT_CHUNKS tasks split by input channel. Each
     * weight is still one task's sums over every image in order; the
     * split's tasks each transpose dy (a 49-position plane of 512 channels:
     * 100 KB an image, next to 9.4 MB of partial sums read and written) */
    const char *split_env = getenv("ACLCONV_FAST_WT_SPLIT");
    const int64_t split_min = split_env ? atoll(split_env) : FAST_WT_SPLIT_FLOATS;
    if (!st->rv && st->fnb == 0 && st->part_floats >= split_min && g->cin >= FAST_WT_CHUNKS) {
        st->nchunks = 1;
        st->nsplit = FAST_WT_CHUNKS;
    }
    /* fewer units than chunks (a batch of one or two images): each chunk's
     * work split among tasks, where one task did it all (n=1 1x1 384 -> 512
     * on 28 x 28: one thread busy). The GEMM path splits x's channels as
     * above, the flat path the output channels in blocks of the kernel's nr
     * (its x rows are read in place; dy^T is packed by each task) */
    if (!st->rv && st->nchunks < FAST_WT_CHUNKS && st->nsplit == 1) {
        const int64_t most = st->fnb > 0 ? ceil_div(g->cout, st->nr) : g->cin;
        st->nsplit = min64(FAST_WT_CHUNKS / st->nchunks, most);
    }
    st->wimg = wt_group_images(g, st);
    /* rv: one kernel block of dy rows converted at a time (wt_block_rv) */
    const int64_t dyt_rows = st->rv ? min64(g->cout, CONV_UKERNEL_MAX_MR) : st->ldo;
    st->dyt_floats = round_up64(st->brows * st->bcols * dyt_rows + CONV_UKERNEL_SLACK, 16);
    if (st->part_floats > FAST_MAX_FLOATS || st->dyt_floats > FAST_MAX_FLOATS) return false;
    /* (per slot, a guard after each: conv_slots.h) */
    st->slab_pitch = st->fnb == 0 ? conv_slot_pitch(st->wimg * g->slab_floats)
                     : st->fcopy  ? conv_slot_pitch(st->fnb * st->mr * st->fpos + CONV_UKERNEL_SLACK)
                                  : 16;
    st->dyt_floats = conv_slot_pitch(st->dyt_floats);
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

bool wt_plan(const conv_problem *p, aclconvIsa isa, wt_state *st, uint64_t *bytes)
{
    fast_geom gd;
    if (!wt_streams(p, &gd)) return wt_plan_blocks(p, isa, st, bytes);
    if (p->data_dir != CONV_DIR_BWD_DATA) {
        /* F streams with the fp32 kernels on widened operands; where both
         * passes can run BF16 pairs apart (twice the multiply-adds an
         * instruction) that is faster than packing x once: deconv3d_k2s2
         * bf16, both gradients 12.2 -> 8.8 ms, gradWeight alone 6.9 -> 4.5
         * (2 threads, Zen 4) */
        wt_state own;
        memset(&own, 0, sizeof own);
        uint64_t own_bytes = 0;
        if (wt_plan_blocks(p, isa, &own, &own_bytes) && own.pairs) {
            *st = own;
            *bytes = own_bytes;
            return true;
        }
    }
    return wt_plan_streamed(p, isa, &gd, st, bytes);
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
    bf16_convrv_ukernel_fn pairrv; /* st->rv */
    bool guard;                    /* the pair kernel is the vdpbf16ps one: blocks are checked */
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

/* c[m] = base + m*ld, m < rows: a GEMM kernel call's rows of partial sums */
static inline void part_rows(float **c, float *base, int64_t rows, int64_t ld)
{
    for (int64_t m = 0; m < rows; ++m)
        c[m] = base + m * ld;
}

/* The GEMM path's row tiles. The rows (c, t) of the partial sums (row c*nt
 * + t) are walked in class order: groups of cg channels; in a group the tap
 * classes (kd, kh) ascending, the taps of a class being kw = 0 .. kw - 1;
 * in a class the group's channels, each with its kw taps. A tile is mr
 * consecutive rows of that order, and cg makes a group's rows of one class
 * a multiple of mr: a tile then holds one class, whose taps read the same
 * input rows, and a block's output rows whose input rows of that class are
 * padding (a border row of a 3x3 layer: a third of its taps) are left out
 * of its calls. Leaving them out keeps every bit: their products are
 * zeros, and a sum that starts from +0 never changes by adding one (it
 * cannot be -0); each element's sum is still one row's calls in block order,
 * whatever the tiles (docs/kernels.md, "convwt"). */
typedef struct wt_walk {
    int64_t nch, kw, ncls, cg;  /* channels, taps of a class, classes, channels of a group */
    int64_t c0, cn, cls, ci, k; /* the row: group [c0, c0 + cn), class, channel c0 + ci, tap k */
} wt_walk;

static void walk_start(wt_walk *w, const fast_geom *g, int64_t mrmax, int64_t nch)
{
    int64_t a = mrmax, b = g->ntap[2]; /* cg = mrmax / gcd(mrmax, kw) */
    while (b) {
        const int64_t t = a % b;
        a = b;
        b = t;
    }
    *w = (wt_walk){.nch = nch, .kw = g->ntap[2], .ncls = g->ntap[0] * g->ntap[1],
                   .cg = mrmax / a, .cn = min64(mrmax / a, nch)};
}

static inline void walk_next(wt_walk *w)
{
    if (++w->k < w->kw) return;
    w->k = 0;
    if (++w->ci < w->cn) return;
    w->ci = 0;
    if (++w->cls < w->ncls) return;
    w->cls = 0;
    w->c0 += w->cg;
    w->cn = min64(w->cg, w->nch - w->c0);
}

/* The class rows of a block and the walk over its tiles (wt_tiles_start) */
typedef struct wt_tiles {
    wt_walk walk;
    int64_t mrmax, left, cs; /* tile rows, rows not yet in a tile, slab floats per channel */
    int32_t lo[FAST_MAX_K * FAST_MAX_K], hi[FAST_MAX_K * FAST_MAX_K];
} wt_tiles;

typedef struct wt_tile {
    int64_t mr;                          /* rows */
    int64_t rlo, rhi;                    /* the block's output rows the calls take */
    ptrdiff_t aoff[CONV_UKERNEL_MAX_MR]; /* slab offsets (past mr: the last row's) */
    int64_t prow[CONV_UKERNEL_MAX_MR];   /* partial-sum rows c*nt + t */
} wt_tile;

/* Rows [lo[cls], hi[cls]) of output rows [h0, h0 + nrow) of plane od whose
 * input plane and row exist for the taps of class cls (empty: lo == hi). */
static void class_rows(const fast_geom *g, int64_t od, int64_t h0, int64_t nrow, int32_t *lo,
                       int32_t *hi)
{
    for (int64_t cls = 0; cls < g->ntap[0] * g->ntap[1]; ++cls) {
        const int64_t kd = cls / g->ntap[1], kh = cls % g->ntap[1];
        const int64_t d = od * g->st[0] + g->tsh[0][kd], s = g->st[1], sh = g->tsh[1][kh];
        /* o*s + sh in [0, is): o >= ceil(-sh / s), o <= floor((is - 1 - sh) / s) */
        const int64_t first = max64(h0, -floor_div(sh, s)),
                      end = min64(h0 + nrow, floor_div(g->is[1] - 1 - sh, s) + 1);
        const bool any = d >= 0 && d < g->is[0] && end > first;
        lo[cls] = any ? (int32_t)(first - h0) : 0;
        hi[cls] = any ? (int32_t)(end - h0) : 0;
    }
}

/* The next tile of ts (mrmax rows, fewer at the end of krows) and its rows
 * [rlo, rhi) from the block's class rows. */
static void wt_tile_next(wt_tiles *ts, const fast_geom *g, const ptrdiff_t *toff, wt_tile *tl)
{
    wt_walk *w = &ts->walk;
    const int32_t *lo = ts->lo, *hi = ts->hi;
    const int64_t cs = ts->cs;
    tl->mr = min64(ts->mrmax, ts->left);
    ts->left -= tl->mr;
    int64_t rlo = INT64_MAX, rhi = 0;
    for (int64_t m = 0; m < tl->mr; ++m, walk_next(w)) {
        const int64_t c = w->c0 + w->ci, t = w->cls * w->kw + w->k;
        tl->aoff[m] = c * cs + toff[t];
        tl->prow[m] = c * g->nt + t;
        if (hi[w->cls] > lo[w->cls]) {
            rlo = min64(rlo, lo[w->cls]);
            rhi = max64(rhi, hi[w->cls]);
        }
    }
    tl->rlo = rhi > 0 ? rlo : 0; /* (every row padding: none) */
    tl->rhi = rhi;
    for (int64_t m = tl->mr; m < CONV_UKERNEL_MAX_MR; ++m)
        tl->aoff[m] = tl->aoff[tl->mr - 1];
}

/* The tiles of a block of output rows [h0, h0 + nrow) of plane od over
 * nch channels (krows = nch * nt rows), mrmax rows a tile, and the first of
 * them in *first. */
static void wt_tiles_start(wt_tiles *ts, const fast_geom *g, int64_t mrmax, int64_t nch,
                           int64_t cs, const ptrdiff_t *toff, int64_t od, int64_t h0,
                           int64_t nrow, wt_tile *first)
{
    walk_start(&ts->walk, g, mrmax, nch);
    ts->mrmax = mrmax;
    ts->left = nch * g->nt;
    ts->cs = cs;
    class_rows(g, od, h0, nrow, ts->lo, ts->hi);
    wt_tile_next(ts, g, toff, first);
}

/* The next tile's partial sums (columns [o0, o0 + nr) of block ob): its
 * first loads waited on them (~10% of the kernel's samples in
 * deconv2d_k4s2's weights pass; -3 to -10% CPU). */
static inline void prefetch_tile_rows(const wt_tile *tl, const float *pg, int64_t ldb, int64_t nr)
{
    for (int64_t m = 0; m < tl->mr; ++m)
        prefetch_tile(pg + tl->prow[m] * ldb, 1, 0, nr, 4);
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
    /* 16-bit rows the mode only widens: the ISA's widening transpose, one
     * pass (a widening copy, then the transpose of the copy, took 40% of a
     * 1x1 fp16 weights pass, 24 -> 144 channels on 56 x 56) */
    int quiet = 0;
    const bool wide = v->dtype != ACL_FLOAT && v->stride[4] == 1 && r->k->h16_transpose &&
                      conv_h16_widens(v, r->p->mode, &quiet);
    const bool flat = (plain || wide) && nrow > 1 && v->stride[3] == ncol;
    for (int64_t rr = 0; rr < nrow; ++rr) {
        float *drow = dyt + rr * ncol * ldb;
        const int64_t at = conv_view_index(v, n, o0, od, h0 + rr, c0);
        if (plain) {
            if (!flat || rr == 0)
                r->k->transpose((size_t)oc, (size_t)(flat ? nrow * ncol : ncol),
                                (const float *)v->data + at, (size_t)v->stride[1], drow,
                                (size_t)ldb);
        } else if (wide) {
            if (!flat || rr == 0)
                r->k->h16_transpose((size_t)oc, (size_t)(flat ? nrow * ncol : ncol),
                                    (const uint16_t *)(const void *)v->data + at,
                                    (size_t)v->stride[1], drow, (size_t)ldb, v->dtype == ACL_BF16,
                                    quiet);
        } else
            for (int64_t w0 = 0; w0 < ncol; w0 += CHUNK)
                for (int64_t ob = 0; ob < oc; ob += FAST_WT_OBLOCK) {
                    /* widened / rounded rows of CHUNK positions, then the transpose
                     * kernel; FAST_WT_OBLOCK rows at a time (the flat path's blocks
                     * hold every output channel) */
                    const int64_t cnt = min64(CHUNK, ncol - w0),
                                  bytes = cnt * v->stride[4] * dtype_bytes(v->dtype);
                    const int64_t nb = min64(FAST_WT_OBLOCK, oc - ob);
                    /* the rows lie in nb planes: request them all first (one row
                     * after the other would wait for memory nb times) */
                    for (int64_t o = ob; o < ob + nb; ++o) {
                        const char *src = (const char *)v->data +
                                          conv_view_index(v, n, o0 + o, od, h0 + rr, c0 + w0) *
                                              dtype_bytes(v->dtype);
                        ukernel_prefetch_run(src, bytes, 0);
                    }
                    for (int64_t o = ob; o < ob + nb; ++o)
                        conv_load_row(v, n, o0 + o, od, h0 + rr, c0 + w0, 1, cnt, r->p->mode, r->k,
                                      buf + (o - ob) * CHUNK);
                    r->k->transpose((size_t)nb, (size_t)cnt, buf, CHUNK, drow + w0 * ldb + ob,
                                    (size_t)ldb);
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
    /* unit W stride: rows of pairs are rows of 32-bit words (at any 2-byte
     * offset), transposed and scanned by the ISA's kernel */
    const bool words = v->stride[4] == 1;
    int emin = 255;
    /* whole rows of even length one after another: each channel's pairs
     * are one run of words, the block one call (a call per row of 28 was
     * ~3% of vgg's bf16 weights pass, most of it waiting on its loads: a
     * run is a stream the prefetchers follow) */
    const bool run = words && full > 0 && ncol % 2 == 0 && nrow > 1 && v->stride[3] == ncol;
    if (run)
        emin = r->k->bf16_pairt((size_t)oc, (size_t)(nrow * full),
                                src + conv_view_index(v, n, o0, od, h0, c0), (size_t)v->stride[1],
                                dyt, (size_t)ldb, emin);
    for (int64_t rr = 0; rr < nrow; ++rr) {
        uint32_t *drow = dyt + rr * lenp * ldb;
        const int64_t at = conv_view_index(v, n, o0, od, h0 + rr, c0);
        if (words && full > 0) {
            if (!run)
                emin = r->k->bf16_pairt((size_t)oc, (size_t)full, src + at, (size_t)v->stride[1],
                                        drow, (size_t)ldb, emin);
        } else {
            for (int64_t q = 0; q < full; ++q)
                for (int64_t o = 0; o < oc; ++o) {
                    const uint16_t *e = src + at + o * v->stride[1] + 2 * q * v->stride[4];
                    drow[q * ldb + o] = (uint32_t)e[v->stride[4]] << 16 | e[0];
                }
        }
        if (ncol & 1)
            for (int64_t o = 0; o < oc; ++o)
                drow[full * ldb + o] = src[at + o * v->stride[1] + (ncol - 1) * v->stride[4]];
        if (ldb > oc)
            for (int64_t q = 0; q < lenp; ++q)
                memset(drow + q * ldb + oc, 0, (size_t)(ldb - oc) * sizeof(uint32_t));
        /* the pairs written here, not by the kernel, scanned in one call
         * each (a call per value: an odd row of 49 (7 x 7) was half of a
         * 1x1 layer's bf16 weights pass, 512 -> 2048 channels) */
        if (!(words && full > 0))
            emin = r->k->bf16_minexp((size_t)(2 * lenp * ldb), (const uint16_t *)(const void *)drow,
                                     NULL, emin);
        else if (ncol & 1)
            emin = r->k->bf16_minexp((size_t)(2 * oc),
                                     (const uint16_t *)(const void *)(drow + full * ldb), NULL, emin);
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

/* Block (h0, nrow, c0, ncol) of image n's gradBias lanes for channels
 * [o0, o0 + oc): cleared at the image's first block, summed at its last. */
static void bias_image_block(const wt_run *r, float *lanes, int64_t n, int64_t o0, int64_t oc,
                             int64_t od, int64_t h0, int64_t nrow, int64_t c0, int64_t ncol,
                             bool first, bool last)
{
    if (first) memset(lanes, 0, (size_t)(oc * CONV_BIAS_LANES) * sizeof(float));
    bias_block_rows(r, lanes, NULL, 0, 0, n, o0, oc, od, h0, nrow, c0, ncol);
    if (last) bias_block_sums(r, lanes, n, o0, oc);
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

/* wt_block_rv over BF16 pairs: xs is a bf16 slab (pack_slab_bf16, or x in
 * place: slab_in_place_bf16) of channel pitch xcs whose smallest exponent
 * field is xmin, dy's bf16 rows are read in place (unit W stride), two
 * positions a lane. A kernel block of dy rows failing the vdpbf16ps
 * kernel's guard sets *r->tiny and returns false: the run is then redone
 * with the fused multiply-add kernel (wt_run_pass). */
static bool wt_block_rv_pairs(const wt_run *r, const uint16_t *xs, int64_t xcs, int xmin, float *pg,
                              float *lanes, int64_t n, int64_t grp, int64_t od, int64_t oh0,
                              int64_t r0, int64_t nrow, int64_t ow0, int64_t c0, int64_t ncol)
{
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const conv_view *y = &r->p->y;
    const int64_t krows = g->cin * g->nt, blk = y->stride[1], ars = y->stride[3];
    const uint16_t *dy0 = (const uint16_t *)(const void *)y->data +
                          conv_view_index(y, n, grp * g->cout, od, oh0 + r0, ow0 + c0);
    const int rmr = r->k->bf16_convrv_mr, rnr = r->k->bf16_convrv_nr;
    for (int64_t o0 = 0; o0 < g->cout; o0 += rmr) {
        const int64_t mr = min64(rmr, g->cout - o0);
        /* the guard's scan brings the kernel's rows into L1; the rows
         * FAST_RV_AHEAD blocks ahead are asked for (as wt_block_rv) */
        int ymin = 255;
        for (int64_t m = 0; m < mr; ++m)
            for (int64_t rr = 0; rr < nrow; ++rr) {
                const uint16_t *row = dy0 + (o0 + m) * blk + rr * ars;
                if (o0 + (FAST_RV_AHEAD + 1) * rmr <= g->cout)
                    ukernel_prefetch_run((const char *)(row + FAST_RV_AHEAD * rmr * blk),
                                         ncol * (int64_t)sizeof(uint16_t), 0);
                ymin = r->k->bf16_minexp((size_t)ncol, row, NULL, ymin);
            }
        if (r->guard && (xmin < 1 || ymin < 1 || xmin + ymin < BF16_DOT_MIN_EXPONENTS)) {
            atomic_store_explicit(r->tiny, 1, memory_order_relaxed);
            return false;
        }
        const uint16_t *a[CONV_UKERNEL_MAX_MR];
        for (int64_t m = 0; m < CONV_UKERNEL_MAX_MR; ++m)
            a[m] = dy0 + (o0 + min64(m, mr - 1)) * blk;
        for (int64_t q0 = 0; q0 < krows; q0 += rnr) {
            const int64_t nr = min64(rnr, krows - q0);
            ptrdiff_t off[CONV_UKERNEL_MAX_MR];
            const uint16_t *b[CONV_UKERNEL_MAX_MR];
            slab_row_offsets(off, q0, nr, g->nt, xcs, r->toff);
            for (int m = 0; m < CONV_UKERNEL_MAX_MR; ++m)
                b[m] = xs + r0 * g->wp + c0 + off[m];
            r->pairrv((size_t)mr, (size_t)nr, (size_t)nrow, (size_t)ncol, a, (size_t)ars, b,
                      (size_t)g->wp, pg + q0 * st->ldb + o0, 1, (size_t)st->ldb, 1);
        }
        if (lanes)
            bias_block_rows(r, lanes + o0 * CONV_BIAS_LANES, NULL, 0, 0, n, grp * g->cout + o0, mr,
                            od, oh0 + r0, nrow, ow0 + c0, ncol);
    }
    return true;
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

/* The flat path's output channels [*o_lo, *o_hi) of task part_i of a chunk's
 * st->nsplit: whole blocks of the kernel's nr, so each weight's kernel calls
 * (and bits) are those of one task */
static void flat_outputs(const wt_state *st, int64_t part_i, int64_t *o_lo, int64_t *o_hi)
{
    const int64_t nb = ceil_div(st->g.cout, st->nr);
    *o_lo = nb * part_i / st->nsplit * st->nr;
    *o_hi = min64(st->g.cout, nb * (part_i + 1) / st->nsplit * st->nr);
}

/* The flat path (wt_flat_images): units [u0, u1) of fnb images each,
 * output channels of task part_i (flat_outputs). dy^T of
 * the unit's images, image after image; then every (c, o) tile reduces over
 * all their positions in one call (images ascending, positions ascending). */
static void wt_chunk_flat(const wt_run *r, int64_t part_i, int64_t u0, int64_t u1, float *part,
                          float *dyt, float *lanes, float *xbuf)
{
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const conv_view *x = &r->p->x;
    const int64_t krows = g->cin, plane = g->is[1] * g->is[2];
    int64_t o_lo, o_hi;
    flat_outputs(st, part_i, &o_lo, &o_hi);
    for (int64_t u = u0; u < u1; ++u) {
        const int64_t n0 = u * st->fnb, nb = min64(st->fnb, g->n - n0);
        for (int64_t grp = 0; grp < g->g; ++grp)
            for (int64_t ob = o_lo; ob < o_hi; ob += st->ldo) {
                const int64_t oc = min64(st->ldo, o_hi - ob);
                for (int64_t i = 0; i < nb; ++i) {
                    if (lanes) memset(lanes, 0, (size_t)(oc * CONV_BIAS_LANES) * sizeof(float));
                    for (int64_t d = 0; d < g->is[0]; ++d) {
                        pack_dyt(r, n0 + i, grp * g->cout + ob, oc, d, 0, g->is[1], 0, g->is[2],
                                 dyt + (i * st->fpos + d * plane) * st->ldo);
                        if (lanes)
                            bias_block_rows(r, lanes, NULL, 0, 0, n0 + i, grp * g->cout + ob, oc, d,
                                            0, g->is[1], 0, g->is[2]);
                    }
                    if (lanes) bias_block_sums(r, lanes, n0 + i, grp * g->cout + ob, oc);
                }
                const float *x0 =
                    (const float *)x->data + conv_view_index(x, n0, grp * g->cin, 0, 0, 0);
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
                        for (int64_t m = 0; m < st->mr; ++m)
                            a[m] = xbuf + min64(m, mr - 1) * st->fpos;
                    } else {
                        for (int64_t m = 0; m < st->mr; ++m)
                            a[m] = x0 + (q0 + min64(m, mr - 1)) * x->stride[1];
                    }
                    const int64_t ncall = ceil_div(oc, st->nr);
                    for (int64_t o0 = 0; o0 < oc; o0 += st->nr) {
                        const int64_t nr = min64(st->nr, oc - o0);
                        flat_prefetch_part(x, n0, nb, grp * g->cin + q0 + mr,
                                           min64(st->mr, krows - q0 - mr), st->fpos, o0 / st->nr,
                                           ncall);
                        /* the next row tile's partial sums, as in wt_oblock_gemm
                         * (r50_c4_1x1's weights pass -3 to -8% CPU) */
                        if (q0 + mr < krows)
                            prefetch_tile(pg + (q0 + mr) * st->ldb + o0,
                                          min64(st->mr, krows - q0 - mr), st->ldb, nr, 4);
                        float *c[CONV_UKERNEL_MAX_MR];
                        part_rows(c, pg + q0 * st->ldb + o0, mr, st->ldb);
                        r->k->convwt((size_t)mr, (size_t)nr, (size_t)nb, (size_t)st->fpos, a,
                                     (size_t)xns, dyt + o0, (size_t)st->ldo, c, u > u0);
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
static void wt_chunk_flat_pairs(const wt_run *r, int64_t part_i, int64_t u0, int64_t u1,
                                float *part, uint32_t *dyt, float *lanes)
{
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const conv_view *x = &r->p->x;
    const int64_t krows = g->cin, lenp = (st->fpos + 1) / 2;
    int64_t o_lo, o_hi;
    flat_outputs(st, part_i, &o_lo, &o_hi);
    for (int64_t u = u0; u < u1; ++u) {
        const int64_t n0 = u * st->fnb, nb = min64(st->fnb, g->n - n0);
        for (int64_t grp = 0; grp < g->g; ++grp)
            for (int64_t ob = o_lo; ob < o_hi; ob += st->ldo) {
                const int64_t oc = min64(st->ldo, o_hi - ob);
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
                        /* a tile's rows one after another (x's planes
                         * contiguous) are scanned in one call: a call a
                         * row of 196 (its tail and its lane reduction)
                         * was ~3% of r50_c4_1x1's bf16 weights pass */
                        const bool run = x->stride[1] == st->fpos;
                        int xmin = 255;
                        for (int64_t i = 0; i < nb; ++i)
                            for (int64_t m = 0; m < mr; m += run ? mr : 1)
                                xmin = r->k->bf16_minexp((size_t)(st->fpos * (run ? mr : 1)),
                                                         a[m] + i * x->stride[0], NULL, xmin);
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
                        float *c[CONV_UKERNEL_MAX_MR];
                        part_rows(c, pg + q0 * st->ldb + o0, mr, st->ldb);
                        r->pairwt((size_t)mr, (size_t)nr, (size_t)nb, (size_t)st->fpos, a,
                                  (size_t)x->stride[0], dyt + o0, (size_t)st->ldo, c, u > u0);
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
 * positions: dy^T per position block, then every (c, tap) x o tile. A group
 * of nimg > 1 units (images n .. n + nimg - 1, st->wimg: one block each,
 * slabs xs[i]) has each tile's calls for its images back to back. lanes:
 * gradBias lanes of the block's channels (a unit is an image), or NULL.
 * fresh: the unit is its chunk's first, whose first block writes the tiles. */
static void wt_oblock_gemm(const wt_run *r, const float *const *xs, int64_t cs, float *dyt,
                           float *pg, int64_t krows, float *lanes, int64_t n, int64_t nimg,
                           int64_t grp, int64_t od, int64_t oh0, int64_t rows, int64_t ow0,
                           int64_t ow_n, int64_t ob, bool fresh)
{
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const int64_t oc = min64(st->ldo, g->cout - ob), nch = krows / g->nt; /* x channels */
    for (int64_t r0 = 0; r0 < rows; r0 += st->brows)
        for (int64_t c0 = 0; c0 < ow_n; c0 += st->bcols) {
            const int64_t nrow = min64(st->brows, rows - r0), ncol = min64(st->bcols, ow_n - c0);
            const int64_t blk = nrow * ncol * st->ldo; /* an image's dy^T */
            const bool last = r0 + st->brows >= rows && c0 + st->bcols >= ow_n;
            for (int64_t i = 0; i < nimg; ++i) {
                pack_dyt(r, n + i, grp * g->cout + ob, oc, od, oh0 + r0, nrow, ow0 + c0, ncol,
                         dyt + i * blk);
                if (lanes)
                    bias_image_block(r, lanes, n + i, grp * g->cout + ob, oc, od, oh0 + r0, nrow,
                                     ow0 + c0, ncol, r0 == 0 && c0 == 0, last);
            }
            /* the unit's next block, if any, asked for a part per call */
            dy_block next;
            const bool ahead =
                wt_next_block(st, n, grp, od, oh0, rows, ow0, ow_n, ob, r0, c0, &next);
            const int64_t calls = ceil_div(krows, st->mr) * ceil_div(oc, st->nr);
            const bool acc = !fresh || r0 > 0 || c0 > 0;
            int64_t call = 0;
            wt_tiles ts;
            wt_tile tile, next_tile;
            wt_tiles_start(&ts, g, st->mr, nch, cs, r->toff, od, oh0 + r0, nrow, &tile);
            for (;;) {
                const bool more = ts.left > 0;
                if (more) wt_tile_next(&ts, g, r->toff, &next_tile);
                const int64_t at = (r0 + tile.rlo) * g->wp + c0;
                const float *b = dyt + tile.rlo * ncol * st->ldo;
                for (int64_t o0 = 0; o0 < oc; o0 += st->nr) {
                    const int64_t nr = min64(st->nr, oc - o0);
                    if (more) prefetch_tile_rows(&next_tile, pg + ob + o0, st->ldb, nr);
                    if (ahead) dy_prefetch_part(&r->p->y, &next, call++, calls);
                    float *c[CONV_UKERNEL_MAX_MR];
                    for (int64_t m = 0; m < tile.mr; ++m)
                        c[m] = pg + tile.prow[m] * st->ldb + ob + o0;
                    for (int64_t i = 0; i < nimg; ++i) {
                        /* (no rows: a first call still writes its zeros) */
                        if (tile.rhi == tile.rlo && (acc || i > 0)) break;
                        const float *a[CONV_UKERNEL_MAX_MR];
                        for (int m = 0; m < CONV_UKERNEL_MAX_MR; ++m)
                            a[m] = xs[i] + at + tile.aoff[m];
                        r->k->convwt((size_t)tile.mr, (size_t)nr, (size_t)(tile.rhi - tile.rlo),
                                     (size_t)ncol, a, (size_t)g->wp, b + i * blk + o0,
                                     (size_t)st->ldo, c, acc || i > 0);
                    }
                }
                if (!more) break;
                tile = next_tile;
            }
        }
}

/* wt_oblock_gemm over BF16 pairs: xs[i] is a bf16 slab (pack_slab_bf16)
 * whose smallest exponent field is xmin[i]. A block whose operands fail the
 * vdpbf16ps kernel's guard sets *r->tiny: the run is then redone with the
 * fused multiply-add kernel (wt_run_pass). */
static void wt_oblock_gemm_pairs(const wt_run *r, const uint16_t *const *xs, const int *xmin,
                                 uint32_t *dyt, float *pg, int64_t krows, float *lanes, int64_t n,
                                 int64_t nimg, int64_t grp, int64_t od, int64_t oh0, int64_t rows,
                                 int64_t ow0, int64_t ow_n, int64_t ob, bool fresh)
{
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const int64_t oc = min64(st->ldo, g->cout - ob), nch = krows / g->nt; /* x channels */
    for (int64_t r0 = 0; r0 < rows; r0 += st->brows)
        for (int64_t c0 = 0; c0 < ow_n; c0 += st->bcols) {
            const int64_t nrow = min64(st->brows, rows - r0), ncol = min64(st->bcols, ow_n - c0);
            const int64_t lenp = (ncol + 1) / 2;         /* dy^T pairs a row */
            const int64_t blk = nrow * lenp * st->ldo; /* an image's dy^T */
            const bool last = r0 + st->brows >= rows && c0 + st->bcols >= ow_n;
            for (int64_t i = 0; i < nimg; ++i) {
                const int ymin = pack_dyt_pairs(r, n + i, grp * g->cout + ob, oc, od, oh0 + r0,
                                                nrow, ow0 + c0, ncol, dyt + i * blk);
                if (r->guard &&
                    (xmin[i] < 1 || ymin < 1 || xmin[i] + ymin < BF16_DOT_MIN_EXPONENTS)) {
                    atomic_store_explicit(r->tiny, 1, memory_order_relaxed);
                    return;
                }
                if (lanes)
                    bias_image_block(r, lanes, n + i, grp * g->cout + ob, oc, od, oh0 + r0, nrow,
                                     ow0 + c0, ncol, r0 == 0 && c0 == 0, last);
            }
            /* the unit's next block, if any, asked for a part per call */
            dy_block next;
            const bool ahead =
                wt_next_block(st, n, grp, od, oh0, rows, ow0, ow_n, ob, r0, c0, &next);
            const int64_t calls = ceil_div(krows, st->mr) * ceil_div(oc, st->nr);
            const bool acc = !fresh || r0 > 0 || c0 > 0;
            int64_t call = 0;
            wt_tiles ts;
            wt_tile tile, next_tile;
            wt_tiles_start(&ts, g, st->mr, nch, g->cs, r->toff, od, oh0 + r0, nrow, &tile);
            for (;;) {
                const bool more = ts.left > 0;
                if (more) wt_tile_next(&ts, g, r->toff, &next_tile);
                const int64_t at = (r0 + tile.rlo) * g->wp + c0;
                const uint32_t *b = dyt + tile.rlo * lenp * st->ldo;
                for (int64_t o0 = 0; o0 < oc; o0 += st->nr) {
                    const int64_t nr = min64(st->nr, oc - o0);
                    if (more) prefetch_tile_rows(&next_tile, pg + ob + o0, st->ldb, nr);
                    if (ahead) dy_prefetch_part(&r->p->y, &next, call++, calls);
                    float *c[CONV_UKERNEL_MAX_MR];
                    for (int64_t m = 0; m < tile.mr; ++m)
                        c[m] = pg + tile.prow[m] * st->ldb + ob + o0;
                    for (int64_t i = 0; i < nimg; ++i) {
                        if (tile.rhi == tile.rlo && (acc || i > 0)) break;
                        const uint16_t *a[CONV_UKERNEL_MAX_MR];
                        for (int m = 0; m < CONV_UKERNEL_MAX_MR; ++m)
                            a[m] = xs[i] + at + tile.aoff[m];
                        r->pairwt((size_t)tile.mr, (size_t)nr, (size_t)(tile.rhi - tile.rlo),
                                  (size_t)ncol, a, (size_t)g->wp, b + i * blk + o0,
                                  (size_t)st->ldo, c, acc || i > 0);
                    }
                }
                if (!more) break;
                tile = next_tile;
            }
        }
}

static void wt_chunk_task(void *ctx, size_t task, int slot)
{
    const wt_run *r = ctx;
    const wt_state *st = r->st;
    const fast_geom *g = &st->g;
    const int64_t chunk = (int64_t)task / st->nsplit, part_i = (int64_t)task % st->nsplit;
    float *part = r->parts + chunk * st->part_floats;
    float *slab = r->slabs + (int64_t)slot * st->slab_pitch;
    float *dyt = r->dyts + (int64_t)slot * st->dyt_floats;
    /* the GEMM kernels' first call for a tile of the chunk writes it (the same
     * bits as summing from +0); the reduction-vector kernel adds a lane tree
     * to c, and +0 + -0 is +0, so its partials start from zeros */
    if (st->rv) memset(part, 0, (size_t)st->part_floats * sizeof(float));
    const int64_t u0 = (int64_t)chunk * st->nunits / st->nchunks;
    const int64_t u1 = ((int64_t)chunk + 1) * st->nunits / st->nchunks;
    const int64_t krows = g->cin * g->nt;
    /* the task's x channels [c_lo, c_lo + gs.cin) of each group (st->nsplit):
     * their slab rows are its (c, tap) rows of the partial; gradBias is the
     * first part's */
    fast_geom gs = *g;
    const int64_t c_lo = g->cin * part_i / st->nsplit;
    gs.cin = g->cin * (part_i + 1) / st->nsplit - c_lo;
    const int64_t srows = gs.cin * g->nt;
    const bool bias = st->bias && part_i == 0;
    /* a group's slabs side by side, each the task's channels */
    const int64_t ipitch = round_up64(gs.cin * g->cs + CONV_UKERNEL_SLACK, 16);
    if (st->fnb > 0 && st->pairs) {
        if (!atomic_load_explicit(r->tiny, memory_order_relaxed))
            wt_chunk_flat_pairs(r, part_i, u0, u1, part, (uint32_t *)(void *)dyt,
                                st->bias ? r->lanes + (int64_t)slot * st->lane_floats : NULL);
        return;
    }
    if (st->fnb > 0) {
        wt_chunk_flat(r, part_i, u0, u1, part, dyt,
                      st->bias ? r->lanes + (int64_t)slot * st->lane_floats : NULL, slab);
        return;
    }
    for (int64_t u = u0, ng; u < u1; u += ng) {
        ng = min64(st->wimg, u1 - u); /* units of a group (wimg > 1: images) */
        const int64_t cbi = u % g->nwb, v = u / g->nwb;
        const int64_t rbi = v % g->nrb, od = (v / g->nrb) % g->os[0], n = v / g->nrb / g->os[0];
        const int64_t oh0 = rbi * g->rb, rows = min64(g->rb, g->os[1] - oh0);
        const int64_t ow0 = cbi * g->wb, ow_n = min64(g->wb, g->os[2] - ow0);
        for (int64_t grp = 0; grp < g->g; ++grp) {
            if (st->pairs) {
                if (atomic_load_explicit(r->tiny, memory_order_relaxed)) return; /* redone */
                const uint16_t *xs[FAST_WT_GROUP_MAX];
                int xmin[FAST_WT_GROUP_MAX];
                int64_t xcs = g->cs;
                for (int64_t i = 0; i < ng; ++i) {
                    /* the reduction-vector path reads x in place where it can
                     * (mbv2_pw_32_16's bf16 gradWeight: the copy was 27%) */
                    if (st->rv && slab_in_place_bf16(&gs, &r->p->x, r->p->mode, r->k, n + i,
                                                     grp * g->cin + c_lo, od, oh0, ow0, &xs[i],
                                                     &xcs, &xmin[i]))
                        continue;
                    uint16_t *at = (uint16_t *)(void *)(slab + i * ipitch);
                    xmin[i] = pack_slab_bf16(&gs, &r->p->x, r->k, n + i, grp * g->cin + c_lo, od,
                                             oh0, ow0, at);
                    xs[i] = at;
                }
                float *lanes = bias ? r->lanes + (int64_t)slot * st->lane_floats : NULL;
                if (st->rv) { /* (ng == 1) */
                    float *pg = part + grp * krows * st->ldb;
                    if (lanes) memset(lanes, 0, (size_t)st->lane_floats * sizeof(float));
                    for (int64_t r0 = 0; r0 < rows; r0 += st->brows)
                        for (int64_t c0 = 0; c0 < ow_n; c0 += st->bcols)
                            if (!wt_block_rv_pairs(r, xs[0], xcs, xmin[0], pg, lanes, n, grp, od,
                                                   oh0, r0, min64(st->brows, rows - r0), ow0, c0,
                                                   min64(st->bcols, ow_n - c0)))
                                return;
                    if (lanes) bias_block_sums(r, lanes, n, grp * g->cout, g->cout);
                    continue;
                }
                for (int64_t ob = 0; ob < g->cout; ob += st->ldo)
                    wt_oblock_gemm_pairs(r, xs, xmin, (uint32_t *)(void *)dyt,
                                         part + (grp * krows + c_lo * g->nt) * st->ldb, srows,
                                         lanes, n, ng, grp, od, oh0, rows, ow0, ow_n, ob, u == u0);
                continue;
            }
            const float *xs[FAST_WT_GROUP_MAX];
            int64_t cs = g->cs;
            for (int64_t i = 0; i < ng; ++i) {
                float *at = slab + i * ipitch;
                xs[i] = at;
                if (!slab_in_place(&gs, &r->p->x, r->p->mode, n + i, grp * g->cin + c_lo, od, oh0,
                                   ow0, false, &xs[i], &cs))
                    pack_slab(&gs, &r->p->x, r->p->mode, r->k, n + i, grp * g->cin + c_lo, od, oh0,
                              ow0, at);
            }
            float *pg = part + (grp * krows + c_lo * g->nt) * st->ldb;
            if (st->rv) { /* (st->nsplit == 1, ng == 1) */
                float *lanes = bias ? r->lanes + (int64_t)slot * st->lane_floats : NULL;
                if (lanes) memset(lanes, 0, (size_t)st->lane_floats * sizeof(float));
                for (int64_t r0 = 0; r0 < rows; r0 += st->brows)
                    for (int64_t c0 = 0; c0 < ow_n; c0 += st->bcols)
                        wt_block_rv(r, true, xs[0], cs, NULL, dyt, pg, lanes, n, grp, od, oh0, r0,
                                    min64(st->brows, rows - r0), ow0, c0,
                                    min64(st->bcols, ow_n - c0));
                if (lanes) /* the unit was image n: its blocks are complete */
                    bias_block_sums(r, lanes, n, grp * g->cout, g->cout);
                continue;
            }
            /* GEMM path: blocks of ldo output channels, each over all positions */
            float *lanes = bias ? r->lanes + (int64_t)slot * st->lane_floats : NULL;
            for (int64_t ob = 0; ob < g->cout; ob += st->ldo)
                wt_oblock_gemm(r, xs, cs, dyt, pg, srows, lanes, n, ng, grp, od, oh0, rows, ow0,
                               ow_n, ob, u == u0);
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
    if (!h16 && taps_run && out->stride[0] >= 0) { /* fp32 runs along the taps */
        for (int64_t ci = 0; ci < cn; ++ci)
            r->k->transpose((size_t)g->nt, (size_t)g->cout, sum0 + ci * len, (size_t)st->ldb,
                            (float *)out->data + base + ci * out->stride[1],
                            (size_t)out->stride[0]);
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
                                wt_oblock_gemm(r, &ds, dcs, dyt, pg, g->cin * g->nt, NULL, n, 1,
                                               grp, od, oh0, rows, ow0, cols, ob, fresh);
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

void wt_run_pass(const conv_problem *p, const wt_state *st, void *workspace)
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
    r.pairrv = NULL;
    r.guard = false;
    if (st->pairs) {
        r.pairwt = st->pairs_exact ? NULL : conv_bf16_dot_convwt(st->isa);
        r.pairrv = st->pairs_exact ? NULL : conv_bf16_dot_convrv(st->isa);
        r.guard = st->rv ? r.pairrv != NULL : r.pairwt != NULL;
        if (!r.pairwt) r.pairwt = r.k->bf16_convwt; /* exact */
        if (!r.pairrv) r.pairrv = r.k->bf16_convrv;
    }
    const size_t tasks = (size_t)(st->nchunks * st->nsplit);
    pool_parallel_for_slots(tasks, st->slots, wt_chunk_task, &r);
    if (atomic_load(&tiny)) {
        /* an operand too small for vdpbf16ps (it flushes subnormals): every
         * chunk again with the kernel that computes the same sums exactly,
         * so the bits do not depend on which blocks held the small values */
        r.pairwt = r.k->bf16_convwt;
        r.pairrv = r.k->bf16_convrv;
        r.guard = false;
        atomic_store(&tiny, 0);
        pool_parallel_for_slots(tasks, st->slots, wt_chunk_task, &r);
    }
    pool_parallel_for((size_t)(st->g.g * ceil_div(st->g.cin, FAST_WT_FINISH_BLOCK)), wt_finish_task,
                      &r);
    if (st->bias) conv_bias_store_sums(p, r.sums);
}
