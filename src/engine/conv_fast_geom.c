/* The fast implementation's geometry: taps, phases, blocks and the slab
 * layout of a pass (fast_geom), and the workspace offsets of a plan. */

#include "common/checked.h"
#include "engine/conv_fast_internal.h"
#include "threading/pool.h"

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

/* Slab depth plane of tap kd for the first output plane of a run (the
 * others: one plane further each). */
static int64_t depth_plane(const fast_geom *g, int64_t kd)
{
    return g->drun > 1 ? g->tsh[0][kd] - geom_dmin(g) : kd;
}

/* Fills the slab layout of g (sizes, kernel, padding, stride set); rows
 * blocked so a slab is about FAST_SLAB_FLOATS, and at least min_tasks blocks
 * overall. */
const char *geom_layout(fast_geom *g, int64_t min_tasks, int64_t budget)
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
void tap_offsets(const fast_geom *g, ptrdiff_t *toff)
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

/* Tap shifts are int32: keep |k*dil| + |pad| far below 2^31. */
bool shifts_fit(const conv_problem *p)
{
    const int64_t lim = (int64_t)1 << 30;
    for (int i = 0; i < 3; ++i)
        if (p->dil[i] > lim / FAST_MAX_K || p->pad[i] > lim || p->pad[i] < -lim) return false;
    return true;
}

/* Taps k of a regular access: input o*st + k*dil - pad. */
void taps_regular(fast_geom *g, int i, int64_t k, int64_t dil, int64_t pad)
{
    g->ntap[i] = k;
    for (int64_t j = 0; j < k; ++j) {
        g->tk[i][j] = (int32_t)j;
        g->tsh[i][j] = (int32_t)(j * dil - pad);
    }
}
/* ---- workspace ----------------------------------------------------------- */

bool ws_take(uint64_t *size, int64_t floats, uint64_t *offset)
{
    size_t bytes, end;
    if (floats < 0 || !checked_mul_size((size_t)floats, sizeof(float), &bytes)) return false;
    *offset = aclconv_round_up((size_t)*size, ACLCONV_ALIGN);
    if (!checked_add_size((size_t)*offset, bytes, &end)) return false;
    *size = end;
    return true;
}

int plan_slots(void)
{
    int t = pool_num_threads(); /* sizes scratch only; never the partition */
    return t < 1 ? 1 : t;
}
