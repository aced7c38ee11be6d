/* The fast implementation's input slabs: packed (padding materialized,
 * rows padded to wp, phases split, widened and rounded for the mode; fp32, or
 * bf16 bits / channel pairs for the BF16 pair kernels) or read in place. */
#include <string.h>

#include "common/dtype.h"
#include "engine/conv_fast_internal.h"

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

/* Offset of plane (kd, H phase iph, W phase ipw) of channel (or pair) c in
 * a slab of g's layout [c][kd][phase h][phase w][hp][wp] (pack_slab); the
 * pair packers write both W phases of (c, kd) from plane (c, kd, 0, 0). */
static int64_t slab_plane(const fast_geom *g, int64_t c, int64_t kd, int64_t iph, int64_t ipw)
{
    return c * g->cs + ((kd * g->nph[1] + iph) * g->nph[2] + ipw) * g->hp * g->wp;
}

/* The input row of slab row r of H phase iph in the pair packers (pack_pair,
 * pack_pair_bf16, pack_pair_pairs) at depth d, or -1 when the row is all
 * padding (outside the input, or no column of it inside: hi0 <= lo). */
static int64_t pair_row(const fast_geom *g, int64_t d, int64_t oh0, int64_t r, int64_t iph,
                        int64_t lo, int64_t hi0)
{
    const int64_t h = (oh0 + g->qmin[1] + r) * g->st[1] + g->phase[1][iph];
    const bool inside = d >= 0 && d < g->is[0] && h >= 0 && h < g->is[1] && lo < hi0;
    return inside ? h : -1;
}

/* The padding of a pair of W phase rows r0, r1 (wp elements of es bytes):
 * all of both when h < 0 (pair_row), else columns [0, lo) of both, [hi0, wp)
 * of r0 and [hi1, wp) of r1. */
static inline __attribute__((always_inline)) void
pair_pad(void *r0, void *r1, size_t es, int64_t wp, int64_t h, int64_t lo, int64_t hi0, int64_t hi1)
{
    char *a = r0, *b = r1;
    if (h < 0) {
        memset(a, 0, (size_t)wp * es);
        memset(b, 0, (size_t)wp * es);
        return;
    }
    /* (inlined, and no calls for empty margins: the first shared form's
     * extra calls, a few a row of 28 floats, cost r50_c3_3x3s2's weights
     * pass 1-2%) */
    if (lo > 0) {
        memset(a, 0, (size_t)lo * es);
        memset(b, 0, (size_t)lo * es);
    }
    if (hi0 < wp) memset(a + hi0 * (int64_t)es, 0, (size_t)(wp - hi0) * es);
    if (hi1 < wp) memset(b + hi1 * (int64_t)es, 0, (size_t)(wp - hi1) * es);
}

/* Asks for span bytes at a ahead of the packing, part of a burst of burst
 * bytes between packing calls: into L1 when short, else into L2. A burst
 * past the core's L1 miss buffers stalls the packing as loads would
 * (ukernel_prefetch_level's rule): the whole-row bursts of a 3x3 layer's
 * slab (105 lines a channel or pair in r50_c2_3x3) were most of
 * pack_slab_pairs' own time; into L2, on Zen 4: r50_c2_3x3's bf16 data
 * pass -2% on one thread, r50_stem7x7 fp32 -2.3%, conv1d_wav_k10s5 fp32
 * -7% in two of three turns, no case slower beyond noise. */
static inline void pack_prefetch(const void *a, int64_t span, int64_t burst)
{
    ukernel_prefetch_run(a, span, burst > UKERNEL_L1_LINES_PER_CALL * UKERNEL_CACHE_LINE);
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
    for (int64_t r = 0; r < g->hp; ++r)
        for (int64_t iph = 0; iph < g->nph[1]; ++iph) {
            const int64_t h = pair_row(g, d, oh0, r, iph, lo, hi0);
            float *r0 = dst + iph * 2 * plane + r * wp, *r1 = r0 + plane;
            pair_pad(r0, r1, sizeof(float), wp, h, lo, hi0, hi1);
            if (h < 0) continue;
            const int64_t at = conv_view_index(v, n, c, d, h, (lo + q0) * 2);
            if (next) {
                const char *nx = v->data + (at + v->stride[1]) * es;
                pack_prefetch(nx, (hi0 - lo) * 2 * es, (hi0 - lo) * 2 * es);
            }
            /* split (and rounded or widened) in one pass; the tail: one even value */
            conv_split_row(v, n, c, d, h, (lo + q0) * 2, 2 * (hi1 - lo) + (hi0 > hi1), mode, k, r0 + lo,
                           r1 + lo);
        }
}

/* pack_slab's rows at a W step other than pack_pair's, every W phase of an
 * input row gathered while its index and request are at hand: row by row
 * and phase by phase these cost 8 ns a row of 5 in fp32 (a stride-3
 * weights pass on 14 x 14 planes, 9 phases of 5 x 5, spent 60% of its time
 * packing; in fp16 2.3x its fp32 time). fp32 inline; 16-bit rows of unit
 * stride up to PACK_ROW_FLOATS widened whole into a buffer by the ISA's
 * kernels (through conv_load_elems), then split; other 16-bit rows through
 * conv_load_elems a phase at a time. Channel c (the slab's channel ci of
 * cin) at depth d, its planes (kd's) from dst. */
#define PACK_ROW_FLOATS 1024

/* The columns [lo, hi) of each W phase ipw of the gather packers' planes,
 * and first: the element of column lo in an input row (from the row's w =
 * 0). */
static void gather_cols(const fast_geom *g, const conv_view *v, int64_t ow0, int64_t *lo,
                        int64_t *hi, int64_t *first)
{
    const int64_t q0 = ow0 + g->qmin[2];
    for (int64_t ipw = 0; ipw < g->nph[2]; ++ipw) {
        plane_cols(g, ow0, g->phase[2][ipw], &lo[ipw], &hi[ipw]);
        first[ipw] = ((lo[ipw] + q0) * g->st[2] + g->phase[2][ipw]) * v->stride[4];
    }
}

static void pack_gather(const fast_geom *g, const conv_view *v, conv_mode mode,
                        const conv_ukernels *k, int64_t n, int64_t c, int64_t ci, int64_t cin,
                        int64_t d, int64_t oh0, int64_t ow0, float *dst)
{
    const int64_t wp = g->wp, plane = g->hp * wp;
    const int64_t sw = g->st[2] * v->stride[4], nw = g->nph[2], es = dtype_bytes(v->dtype);
    const bool f32 = v->dtype == ACL_FLOAT;
    const bool whole = !f32 && v->stride[4] == 1 && g->is[2] <= PACK_ROW_FLOATS;
    float buf[PACK_ROW_FLOATS];
    int64_t lo[FAST_MAX_STRIDE], hi[FAST_MAX_STRIDE], first[FAST_MAX_STRIDE];
    gather_cols(g, v, ow0, lo, hi, first);
    /* the same rows of a channel ahead (pack_ahead), a whole input row each */
    const int64_t span = ((g->is[2] - 1) * v->stride[4] + 1) * es;
    const int64_t ahead = pack_ahead(span, 1);
    const bool ask = ci + ahead < cin && span <= FAST_PREFETCH_MAX_BYTES;
    const bool din = d >= 0 && d < g->is[0];
    for (int64_t iph = 0; iph < g->nph[1]; ++iph)
        for (int64_t r = 0; r < g->hp; ++r) {
            const int64_t h = (oh0 + g->qmin[1] + r) * g->st[1] + g->phase[1][iph];
            float *row = dst + iph * nw * plane + r * wp;
            const bool in = din && h >= 0 && h < g->is[1];
            const int64_t at = in ? conv_view_index(v, n, c, d, h, 0) : 0;
            if (in && ask) pack_prefetch(v->data + (at + ahead * v->stride[1]) * es, span, span);
            if (in && whole) conv_load_elems(v, at, 1, g->is[2], mode, k, buf);
            for (int64_t ipw = 0; ipw < nw; ++ipw, row += plane) {
                const int64_t l = lo[ipw], cnt = hi[ipw] - l;
                if (!in || cnt <= 0) {
                    memset(row, 0, (size_t)wp * sizeof(float));
                    continue;
                }
                for (int64_t j = 0; j < l; ++j)
                    row[j] = 0.0f;
                if (f32 || whole) {
                    const float *src = f32 ? (const float *)(const void *)v->data + first[ipw] + at
                                           : buf + first[ipw];
                    for (int64_t j = 0; j < cnt; ++j)
                        row[l + j] = src[j * sw];
                    if (f32 && mode != CONV_MODE_F32)
                        k->f32_round((size_t)cnt, row + l, row + l, conv_round_kind(mode));
                } else {
                    conv_load_elems(v, first[ipw] + at, sw, cnt, mode, k, row + l);
                }
                for (int64_t j = hi[ipw]; j < wp; ++j)
                    row[j] = 0.0f;
            }
        }
}

/* Packs channels [c0, c0+cin) of image n of v for output plane od and output
 * rows from oh0 and columns from ow0: layout [c][kd][phase h][phase w][hp][wp],
 * element (c, kd, ph, pw, r, col) = v[n, c0+c, od*std + tsh_d[kd],
 * (oh0 + qmin_h + r)*sth + ph, (ow0 + col + qmin_w)*stw + pw], or 0 outside.
 * With a depth run (drun > 1) od is the run's first plane and slab plane kd
 * holds depth od + min(tsh_d) + kd. */
void pack_slab(const fast_geom *g, const conv_view *v, conv_mode mode, const conv_ukernels *k,
               int64_t n, int64_t c0, int64_t od, int64_t oh0, int64_t ow0, float *dst)
{
    const int64_t *is = g->is;
    const int64_t d0 = od * g->st[0];
    /* stride 2 in W with both phases used, fp32 or values the mode keeps:
     * each input row is read once and split into the two phase planes */
    const bool pair = g->st[2] == 2 && g->nph[2] == 2 && conv_split_row_ok(v, mode);
    /* rows at a W step (not the pair's) */
    const bool gather = !pair && g->st[2] * v->stride[4] != 1;
    const int64_t np = geom_dplanes(g), dmin = geom_dmin(g);
    for (int64_t c = 0; c < g->cin; ++c)
        for (int64_t kd = 0; kd < np; ++kd) {
            const int64_t d = g->drun > 1 ? d0 + dmin + kd : d0 + g->tsh[0][kd];
            if (pair) {
                pack_pair(g, v, mode, k, n, c0 + c, d, oh0, ow0, c + 1 < g->cin,
                          dst + slab_plane(g, c, kd, 0, 0));
                continue;
            }
            if (gather) {
                pack_gather(g, v, mode, k, n, c0 + c, c, g->cin, d, oh0, ow0,
                            dst + slab_plane(g, c, kd, 0, 0));
                continue;
            }
            for (int64_t iph = 0; iph < g->nph[1]; ++iph)
                for (int64_t ipw = 0; ipw < g->nph[2]; ++ipw) {
                    const int64_t ph = g->phase[1][iph], pw = g->phase[2][ipw];
                    float *plane = dst + slab_plane(g, c, kd, iph, ipw);
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
                                pack_prefetch(at + (ahead * v->stride[1] + i * lds) * es, span,
                                              (padrows ? nrows : 1) * span);
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
    const uint16_t *src = (const uint16_t *)(const void *)v->data;
    for (int64_t r = 0; r < g->hp; ++r)
        for (int64_t iph = 0; iph < g->nph[1]; ++iph) {
            const int64_t h = pair_row(g, d, oh0, r, iph, lo, hi0);
            uint16_t *r0 = dst + iph * 2 * plane + r * wp, *r1 = r0 + plane;
            pair_pad(r0, r1, sizeof(uint16_t), wp, h, lo, hi0, hi1);
            if (h < 0) continue;
            const uint16_t *row = src + conv_view_index(v, n, c, d, h, (lo + q0) * 2);
            const int64_t total = 2 * (hi1 - lo) + (hi0 > hi1);
            /* the same row of a channel ahead (pack_slab's rule): the
             * split's loads were its hot spots without */
            const int64_t span = total * (int64_t)sizeof(uint16_t);
            const int64_t ahead = pack_ahead(span, 1);
            if (c + ahead < cend && span <= FAST_PREFETCH_MAX_BYTES)
                pack_prefetch(row + ahead * v->stride[1], span, span);
            emin = k->bf16_split2((size_t)total, row, r0 + lo, r1 + lo, emin);
        }
    return emin;
}

/* pack_slab_bf16's rows at a W step: pack_gather's loop over bf16 bits,
 * copied (a memset, a gather and a memset per row and phase made a stride-5
 * grouped weights pass on 13 x 13 planes 2.3x its fp32 time). */
static void pack_gather_bf16(const fast_geom *g, const conv_view *v, int64_t n, int64_t c,
                             int64_t d, int64_t oh0, int64_t ow0, uint16_t *dst)
{
    const int64_t wp = g->wp, plane = g->hp * wp;
    const int64_t sw = g->st[2] * v->stride[4], nw = g->nph[2];
    const uint16_t *src = (const uint16_t *)(const void *)v->data;
    int64_t lo[FAST_MAX_STRIDE], hi[FAST_MAX_STRIDE], first[FAST_MAX_STRIDE];
    gather_cols(g, v, ow0, lo, hi, first);
    const bool din = d >= 0 && d < g->is[0];
    for (int64_t iph = 0; iph < g->nph[1]; ++iph)
        for (int64_t r = 0; r < g->hp; ++r) {
            const int64_t h = (oh0 + g->qmin[1] + r) * g->st[1] + g->phase[1][iph];
            uint16_t *row = dst + iph * nw * plane + r * wp;
            const bool in = din && h >= 0 && h < g->is[1];
            const int64_t at = in ? conv_view_index(v, n, c, d, h, 0) : 0;
            for (int64_t ipw = 0; ipw < nw; ++ipw, row += plane) {
                const int64_t l = in ? lo[ipw] : wp, e = in ? max64(l, hi[ipw]) : wp;
                const uint16_t *s = src + first[ipw] + at;
                for (int64_t j = 0; j < l; ++j)
                    row[j] = 0;
                for (int64_t j = l; j < e; ++j)
                    row[j] = s[(j - l) * sw];
                for (int64_t j = e; j < wp; ++j)
                    row[j] = 0;
            }
        }
}

/* pack_slab's layout and elements as bf16 bits, for the BF16 pair path (a
 * BF16 view in mode BF16: the values are copied, not rounded). Returns the
 * smallest exponent field of the slab's nonzero values (k's bf16_minexp). */
int pack_slab_bf16(const fast_geom *g, const conv_view *v, const conv_ukernels *k, int64_t n,
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
                                      dst + slab_plane(g, c, kd, 0, 0), emin);
                continue;
            }
            if (g->st[2] * v->stride[4] != 1) { /* the exponents after the planes */
                uint16_t *planes = dst + slab_plane(g, c, kd, 0, 0);
                pack_gather_bf16(g, v, n, c0 + c, d, oh0, ow0, planes);
                emin = k->bf16_minexp((size_t)(g->nph[1] * g->nph[2] * g->hp * g->wp), planes, NULL,
                                      emin);
                continue;
            }
            for (int64_t iph = 0; iph < g->nph[1]; ++iph)
                for (int64_t ipw = 0; ipw < g->nph[2]; ++ipw) {
                    const int64_t ph = g->phase[1][iph], pw = g->phase[2][ipw];
                    uint16_t *plane = dst + slab_plane(g, c, kd, iph, ipw);
                    const int64_t q0 = ow0 + g->qmin[2];
                    int64_t lo, hi;
                    plane_cols(g, ow0, pw, &lo, &hi);
                    const int64_t lds = g->st[1] * v->stride[3];
                    for (int64_t r = 0; r < g->hp;) {
                        const int64_t h = (oh0 + g->qmin[1] + r) * g->st[1] + ph;
                        uint16_t *row = plane + r * g->wp;
                        if (d < 0 || d >= is[0] || h < 0 || h >= is[1] || hi <= lo) {
                            memset(row, 0, (size_t)g->wp * sizeof(uint16_t));
                            ++r;
                            continue;
                        }
                        /* unit steps: a run of rows, padding included (pack_slab's padrows) */
                        const uint16_t *s =
                            src + conv_view_index(v, n, c0 + c, d, h, (lo + q0) * g->st[2] + pw);
                        int64_t nrows = 1;
                        while (r + nrows < g->hp && h + nrows * g->st[1] < is[1])
                            ++nrows;
                        const int64_t span = (hi - lo) * (int64_t)sizeof(uint16_t);
                        const int64_t ahead = pack_ahead(span, 1);
                        if (ipw == 0 && c + ahead < g->cin && span <= FAST_PREFETCH_MAX_BYTES)
                            for (int64_t i = 0; i < nrows; ++i)
                                pack_prefetch(s + ahead * v->stride[1] + i * lds, span,
                                              nrows * span);
                        emin = k->bf16_padrows((size_t)nrows, (size_t)g->wp, (size_t)lo, (size_t)hi,
                                               s, (size_t)lds, row, (size_t)g->wp, emin);
                        r += nrows;
                    }
                }
        }
    memset(dst + g->cin * g->cs, 0, (size_t)(g->slab_floats - g->cin * g->cs) * sizeof(uint16_t));
    return emin;
}

/* pack_pair's two W phase planes over an input channel pair (pack_slab_pairs,
 * stride 2 in W with both phases used, unit W stride): the pair's input
 * rows read once, zipped and split into their planes by k's
 * bf16_zip_split2; channels [c0, c0 + cin) are the slab's, c the
 * pair's first. Returns emin lowered to the values' smallest exponent field. */
static int pack_pair_pairs(const fast_geom *g, const conv_view *v, const conv_ukernels *k,
                           int64_t n, int64_t c0, int64_t cin, int64_t c, bool has_hi, int64_t d,
                           int64_t oh0, int64_t ow0, uint32_t *dst, int emin)
{
    const int64_t wp = g->wp, q0 = ow0 + g->qmin[2], plane = g->hp * wp;
    int64_t lo, hi0, hi1;
    pair_cols(g, ow0, &lo, &hi0, &hi1);
    const uint16_t *src = (const uint16_t *)(const void *)v->data;
    for (int64_t r = 0; r < g->hp; ++r)
        for (int64_t iph = 0; iph < g->nph[1]; ++iph) {
            const int64_t h = pair_row(g, d, oh0, r, iph, lo, hi0);
            uint32_t *r0 = dst + iph * 2 * plane + r * wp, *r1 = r0 + plane;
            pair_pad(r0, r1, sizeof(uint32_t), wp, h, lo, hi0, hi1);
            if (h < 0) continue;
            const uint16_t *s0 = src + conv_view_index(v, n, c, d, h, (lo + q0) * 2);
            const uint16_t *s1 = s0 + v->stride[1];
            const int64_t total = 2 * (hi1 - lo) + (hi0 > hi1); /* source values */
            /* the same row of the pairs ahead (pack_slab_pairs) */
            const int64_t span = total * (int64_t)sizeof(uint16_t);
            const int64_t ahead = pack_ahead(span, 2); /* pairs */
            if (c - c0 + 2 * ahead < cin && span <= FAST_PREFETCH_MAX_BYTES) {
                const uint16_t *nx = s0 + 2 * ahead * v->stride[1];
                pack_prefetch(nx, span, 2 * span);
                if (c - c0 + 2 * ahead + 1 < cin) pack_prefetch(nx + v->stride[1], span, 2 * span);
            }
            emin =
                k->bf16_zip_split2((size_t)total, s0, has_hi ? s1 : NULL, r0 + lo, r1 + lo, emin);
        }
    return emin;
}

/* 32-bit words of a pack_slab_pairs slab of g: half pack_slab's floats */
int64_t pair_slab_words(const fast_geom *g)
{
    return round_up64((g->cin + 1) / 2 * g->cs + CONV_UKERNEL_SLACK, 16);
}

/* pack_slab's layout over input channel pairs, for the data pass's BF16
 * pairs (a BF16 view in mode BF16: bits copied): word (cp, kd, ph, pw, r,
 * col) at dst[cp*cs + ...] holds channel c0 + 2cp in its low half and c0 +
 * 2cp + 1 (+0 past cin) in its high half, cs words per pair. Returns the
 * smallest exponent field of the slab's nonzero values (bf16_minexp). */
int pack_slab_pairs(const fast_geom *g, const conv_view *v, const conv_ukernels *k, int64_t n,
                    int64_t c0, int64_t od, int64_t oh0, int64_t ow0, uint32_t *dst)
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
                                       dst + slab_plane(g, cp, kd, 0, 0), emin);
                continue;
            }
            for (int64_t iph = 0; iph < g->nph[1]; ++iph)
                for (int64_t ipw = 0; ipw < g->nph[2]; ++ipw) {
                    const int64_t ph = g->phase[1][iph], pw = g->phase[2][ipw];
                    uint32_t *plane = dst + slab_plane(g, cp, kd, iph, ipw);
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
                            pack_prefetch(nx, span, 2 * span);
                            if (2 * (cp + ahead) + 1 < g->cin)
                                pack_prefetch(nx + v->stride[1], span, 2 * span);
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
bool geom_reads_in_place(const fast_geom *g)
{
    return g->ntap[0] == 1 && g->nph[1] == 1 && g->nph[2] == 1 && g->st[2] == 1 &&
           (g->hp == 1 || (g->st[1] == 1 && g->wp == g->is[2]));
}

/* slab_in_place's checks but the dtype's: the view index of slab element
 * (c=0, r=0, col=0) at *at. */
static bool slab_origin(const fast_geom *g, const conv_view *v, int64_t n, int64_t c0, int64_t od,
                        int64_t oh0, int64_t ow0, bool overread, int64_t *at)
{
    if (v->stride[4] != 1 || !geom_reads_in_place(g)) return false;
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
    *at = conv_view_index(v, n, c0, d, h, w);
    return true;
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
bool slab_in_place(const fast_geom *g, const conv_view *v, conv_mode mode, int64_t n, int64_t c0,
                   int64_t od, int64_t oh0, int64_t ow0, bool overread, const float **x,
                   int64_t *cs)
{
    int64_t at;
    if (v->dtype != ACL_FLOAT || mode != CONV_MODE_F32 ||
        !slab_origin(g, v, n, c0, od, oh0, ow0, overread, &at))
        return false;
    *x = (const float *)v->data + at;
    *cs = v->stride[1];
    return true;
}

bool slab_in_place_bf16(const fast_geom *g, const conv_view *v, conv_mode mode,
                        const conv_ukernels *k, int64_t n, int64_t c0, int64_t od, int64_t oh0,
                        int64_t ow0, const uint16_t **x, int64_t *cs, int *emin)
{
    int64_t at;
    if (v->dtype != ACL_BF16 || mode != CONV_MODE_BF16 ||
        !slab_origin(g, v, n, c0, od, oh0, ow0, false, &at))
        return false;
    const uint16_t *x0 = (const uint16_t *)(const void *)v->data + at;
    /* the guard's scan; whole rows of a plane are one run (slab_origin) */
    int e = 255;
    for (int64_t c = 0; c < g->cin; ++c)
        e = k->bf16_minexp((size_t)(g->hp * g->wp), x0 + c * v->stride[1], NULL, e);
    *x = x0;
    *cs = v->stride[1];
    *emin = e;
    return true;
}
