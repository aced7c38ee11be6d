/* Per-channel plane geometry shared by the small-channel implementations
 * (dw: src/engine/conv_dw.c, grouped: src/engine/conv_grouped.c): every pass
 * is, per spatial dim, a stride-1 correlation over a packed channel plane
 * (padding materialized, stride phases split, widened and rounded to fp32).
 * See docs/kernels.md, "Depthwise implementation", "Geometry". */
#ifndef ACLCONV_CONV_PLANE_H_
#define ACLCONV_CONV_PLANE_H_

#include "engine/conv_impl.h"
#include "kernels/conv_ukernels.h"
#include "kernels/ukernel_prefetch.h"

#define DW_MAX_K 64       /* kernel side */
#define DW_MAX_STRIDE 16  /* stride (source phases, output phases) */
#define DW_MAX_TAPS 1024  /* taps of the whole kernel (per-call tables on the stack) */
#define DW_MAX_PLANE (1ll << 24) /* floats of a packed channel plane (all phases) */

/* One spatial dim of the geometry. */
typedef struct dw_dim {
    int64_t qmin;     /* packed m holds source position (m + qmin)*src_step + phase */
    int64_t ext;      /* packed extent */
    int64_t out_n;    /* output size of the pass in this dim */
    int32_t src_step; /* F / W: the stride; D: 1 */
    int32_t out_step; /* D: the stride (output phases interleave); else 1 */
    int32_t nph;      /* source phases */
    int32_t nsub;     /* output phases */
    int32_t ph_val[DW_MAX_STRIDE];
    int16_t sub_tb[DW_MAX_STRIDE + 1]; /* taps of output phase u: [sub_tb[u], sub_tb[u+1]) */
    int8_t tap_k[DW_MAX_K], tap_ph[DW_MAX_K];
    int32_t tap_off[DW_MAX_K]; /* packed offset of the tap */
} dw_dim;

/* Fills the geometry of pass (dims, taps, floats of one packed phase plane and
 * of all phases), or returns why it cannot (a string literal). Channel counts
 * are not looked at. */
const char *plane_geometry(const conv_problem *p, conv_pass pass, dw_dim dim[CONV_SPATIAL],
                           bool *bwd, int64_t *ntaps, int64_t *plane_floats, int64_t *src_floats);

/* Outputs of output phase u in dim d. */
int64_t plane_sub_count(const dw_dim *d, int64_t u);

/* Packs plane (n, c) of v: layout [phase d][phase h][phase w][ext d][ext h][ext w],
 * zeros outside v (written only when !borders_ready). next (may be NULL):
 * lines asked for in the cache as the rows are packed (the next plane). */
void plane_pack(const dw_dim dim[CONV_SPATIAL], int64_t plane, const conv_view *v, int64_t n,
                int64_t c, conv_mode mode, bool borders_ready, const conv_ukernels *k, float *dst,
                const ukernel_prefetch *next);

/* Whether the two W output phases of a stride-2 data pass can be computed
 * together and written as whole rows (the dwconv_s2 / grpconv_s2 kernels):
 * both phases have columns, and gradInput is in fp32 rows of unit W stride
 * (written in place or through the slot), or 16-bit with the engine's
 * planes dense and small enough for its slot (dense_fits: merged there, then
 * rounded and narrowed as one run by conv_store_results). */
bool plane_merges_w(const dw_dim dim[CONV_SPATIAL], const conv_view *out, bool dense_fits);

/* Sets stream s of pf to the lines of plane (n, c) of v when it is one dense
 * run, else to none: for a kernel to ask for them while it computes. */
void plane_lines(const conv_view *v, int64_t n, int64_t c, int s, ukernel_prefetch *pf);

#endif /* ACLCONV_CONV_PLANE_H_ */
