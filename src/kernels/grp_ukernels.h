/* The fp32 microkernels of the grouped implementation (src/engine/conv_grouped.c):
 * contracts in docs/kernels.md ("Grouped implementation"). Kernels never
 * allocate and read and write exactly the elements named (vector remainders
 * are masked loads, never over-reads). */
#ifndef ACLCONV_GRP_UKERNELS_H_
#define ACLCONV_GRP_UKERNELS_H_

#include <stddef.h>
#include <stdint.h>

#include "kernels/ukernel_prefetch.h"

/* Floats of partial sums per (m, n) accumulator: one vector of the widest
 * ISA. A kernel leaves the lanes >= its vector length untouched. */
#define GRP_ACC_LANES 16

/*
 * Grouped weight-gradient dot products ("grpwt"), for m < mr, n < nr:
 *   term (m, n, j) = a[m][j] * b[n][j],  j < len
 * goes to lane acc[m*ldm + n*GRP_ACC_LANES + j % VL] (VL: avx512 16, avx2 8,
 * scalar 4). Sum order per lane: j ascending, one fused multiply-add per term
 * (multiply then add for the scalar kernel), continuing from the lane's
 * value. 1 <= mr <= MR, 1 <= nr <= NR; only a[m], m < mr, and b[n], n < nr,
 * are read, and only their first len elements.
 */
typedef void (*f32_grpwt_ukernel_fn)(size_t mr, size_t nr, size_t len, const float *const *a,
                                     const float *const *b, float *acc, size_t ldm);

/*
 * Row copy ("grpcopy"): dst[r*dps + j] = src[r*sps + j], r < rows, j < len.
 * Reads and writes exactly those elements.
 */
typedef void (*f32_grpcopy_ukernel_fn)(size_t rows, size_t len, const float *src, size_t sps,
                                       float *dst, size_t dps);

void f32_grpcopy_ukernel__scalar(size_t rows, size_t len, const float *src, size_t sps, float *dst,
                                 size_t dps);
void f32_grpcopy_ukernel__avx2(size_t rows, size_t len, const float *src, size_t sps, float *dst,
                               size_t dps);
void f32_grpcopy_ukernel__avx512(size_t rows, size_t len, const float *src, size_t sps, float *dst,
                                 size_t dps);

void f32_grpwt_ukernel_2x2__scalar(size_t mr, size_t nr, size_t len, const float *const *a,
                                   const float *const *b, float *acc, size_t ldm);
void f32_grpwt_ukernel_3x4__avx2(size_t mr, size_t nr, size_t len, const float *const *a,
                                 const float *const *b, float *acc, size_t ldm);
void f32_grpwt_ukernel_4x6__avx512(size_t mr, size_t nr, size_t len, const float *const *a,
                                   const float *const *b, float *acc, size_t ldm);

/*
 * Masked grouped weight-gradient dot products ("grpwtm"): grpwt over b rows
 * taken from one unpadded copy of x, each with a row mask. For m < mr, n < nr:
 *   term (m, n, j) = a[m][j] * (bit j % 16 of bm[n][j / 16] ? b[n][j] : 0),  j < len
 * goes to lane acc[m*ldm + n*GRP_ACC_LANES + j % VL] (VL: avx512 16, avx2 8,
 * scalar 4), in grpwt's order (j ascending, one fused multiply-add per term,
 * multiply then add for the scalar kernel, continuing from the lane's value).
 * A cleared bit is a zero term (as a padding zero of a shifted copy is), so
 * a masked b element is never multiplied. Reads a[m][j], j < len; the AVX2
 * kernel loads b[n][j] for every j < roundup(len, 8) (so they must be
 * readable), the others only the elements whose bit is set; bm[n][j / 16]
 * for j < len.
 * pf (may be NULL): cache lines to ask for while computing (a hint, never
 * read): pf->at[i] + 64*l for l < pf->lines[i], one line of each stream per
 * vector step, the rest after the loop. Spread over the steps, the next
 * image's blocks arrive without the bursts of prefetches between calls that
 * stalled the pass.
 */
typedef void (*f32_grpwtm_ukernel_fn)(size_t mr, size_t nr, size_t len, const float *const *a,
                                      const float *const *b, const uint16_t *const *bm, float *acc,
                                      size_t ldm, const ukernel_prefetch *pf);

void f32_grpwtm_ukernel_2x2__scalar(size_t mr, size_t nr, size_t len, const float *const *a,
                                    const float *const *b, const uint16_t *const *bm, float *acc,
                                    size_t ldm, const ukernel_prefetch *pf);
void f32_grpwtm_ukernel_3x4__avx2(size_t mr, size_t nr, size_t len, const float *const *a,
                                  const float *const *b, const uint16_t *const *bm, float *acc,
                                  size_t ldm, const ukernel_prefetch *pf);
void f32_grpwtm_ukernel_4x6__avx512(size_t mr, size_t nr, size_t len, const float *const *a,
                                    const float *const *b, const uint16_t *const *bm, float *acc,
                                    size_t ldm, const ukernel_prefetch *pf);

/* W taps of a "grpconv" call at most (a kernel side) and the largest |wsh|:
 * the engine keeps GRP_CONV_GUARD readable floats before the source and
 * CONV_UKERNEL_SLACK after it. */
#define GRP_CONV_MAX_KW 32
#define GRP_CONV_MAX_WSH 32
#define GRP_CONV_GUARD 48

/*
 * Grouped data-gradient kernel ("grpconv"): MR output channels x NR positions
 * of a run of rows ow wide (position j of the call is column
 * col(j) = (col0 + j) % ow of its row, col0 < ow), for m < mr, j < nr:
 *   y[m*ldy + j] = sum_{r < nrt} sum_{k < nkw} sum_{c < nc}
 *                  w[((r*nkw + k)*nc + c)*MR + m] * xv(c, r, k, j)
 *   xv(c, r, k, j) = x[c*cs + roff[r] + wsh[k] + j]  if 0 <= col(j) + wsh[k] < ow
 *                    0                                 otherwise
 * i.e. the taps (r, k) of one W output phase over source rows of ow columns
 * without padding columns: a lane whose W tap falls off its row is a zero
 * (multiplied, like every padding term of the data pass), never a neighbour
 * row's element. Sum order per element: r ascending, then k, then c, one
 * fused multiply-add per term (multiply then add for the scalar kernel),
 * starting from 0; y is overwritten. yround: F32_ROUND_NONE, or the kind
 * (kernels/cvt_ukernels.h) each sum is rounded to as f32_round does before it
 * is stored (the FLOAT16 / BF16 modes' result rounding, so gradInput can be
 * written in place in those modes as well).
 * w: panel of nrt*nkw*nc rows of MR floats (rows m >= mr ignored but read).
 * x: every x[c*cs + roff[r] + wsh[k] + j] with j < roundup(nr, 16) must be
 * readable (the AVX2 kernel loads masked-off lanes and clears them; the
 * others do not read them). 1 <= mr <= MR, 1 <= nr <= NR, nc, nrt >= 1,
 * 1 <= nkw <= GRP_CONV_MAX_KW, |wsh[k]| <= GRP_CONV_MAX_WSH. Only y[m*ldy + j],
 * m < mr, j < nr, is written. stream != 0 (y is not read again soon): the
 * full vectors of rows that start on a vector-size boundary are written with
 * non-temporal stores, so the caller must run the ISA's grpconv fence before
 * the results are used by another thread (the scalar kernel ignores it).
 * pf (may be NULL): cache lines to ask for while computing (a hint, never
 * read): one line of each stream per (row tap, W tap, channel) step, the rest
 * after the loop (the scalar kernel: all after it). The next task's source
 * block, asked for a slice per call as a burst before each call, still
 * stalled its copy (grpcopy ~15% of resnext_g32's data pass).
 */
typedef void (*f32_grpconv_ukernel_fn)(size_t mr, size_t nr, size_t nc, size_t nrt, size_t nkw,
                                       const float *w, const float *x, size_t cs,
                                       const ptrdiff_t *roff, const ptrdiff_t *wsh, size_t ow,
                                       size_t col0, float *y, size_t ldy, int stream, int yround,
                                       const ukernel_prefetch *pf);

void f32_grpconv_ukernel_4x16__scalar(size_t mr, size_t nr, size_t nc, size_t nrt, size_t nkw,
                                      const float *w, const float *x, size_t cs,
                                      const ptrdiff_t *roff, const ptrdiff_t *wsh, size_t ow,
                                      size_t col0, float *y, size_t ldy, int stream, int yround,
                                      const ukernel_prefetch *pf);
void f32_grpconv_ukernel_4x24__avx2(size_t mr, size_t nr, size_t nc, size_t nrt, size_t nkw,
                                    const float *w, const float *x, size_t cs,
                                    const ptrdiff_t *roff, const ptrdiff_t *wsh, size_t ow,
                                    size_t col0, float *y, size_t ldy, int stream, int yround,
                                    const ukernel_prefetch *pf);
void f32_grpconv_ukernel_8x48__avx512(size_t mr, size_t nr, size_t nc, size_t nrt, size_t nkw,
                                      const float *w, const float *x, size_t cs,
                                      const ptrdiff_t *roff, const ptrdiff_t *wsh, size_t ow,
                                      size_t col0, float *y, size_t ldy, int stream, int yround,
                                      const ukernel_prefetch *pf);

/*
 * Grouped data-gradient kernel for a W stride of 2, both W output phases in
 * one call ("grpconv_s2"): MR output channels x 2*nr columns of one output
 * row, whose W output phase u holds the columns u, u + 2, ... For m < mr,
 * j < nr, u < 2:
 *   s_u(m, j) = sum_{r < nrt} sum_{k < nk[u]} sum_{c < nc}
 *               w[u][((r*nk[u] + k)*nc + c)*MR + m] * x[c*cs + roff[r] + sh[u][k] + j]
 *   y[m*ldy + 2j + u] = s_u(m, j)   where 2j + u < ncol
 * x: rows packed with their zero borders (conv_plane.h), so no lane is
 * masked (but for the row's end). Sum order per element: r ascending, then c, then k, one fused
 * multiply-add per term, starting from 0; nk[u] == 0 gives zeros.
 * yround: as grpconv's. w[u]: panels of nrt*nk[u]*nc rows of MR floats (rows
 * m >= mr ignored but read). Reads x[c*cs + roff[r] + sh[u][k] + j] for
 * j < nr only. 1 <= mr <= MR, 1 <= nr <= NR (a kernel named MRx(2*NR):
 * 4x64 avx512, 3x32 avx2, 2x8 scalar), 2*nr - 1 <= ncol <= 2*nr,
 * nc, nrt >= 1. Only y[m*ldy + i], m < mr, i < ncol, is written (plain
 * stores). The scalar kernel multiplies, then adds.
 */
typedef void (*f32_grpconv_s2_ukernel_fn)(size_t mr, size_t nr, size_t ncol, size_t nc, size_t nrt,
                                          const size_t nk[2], const float *const w[2],
                                          const float *x, size_t cs, const ptrdiff_t *roff,
                                          const ptrdiff_t *const sh[2], float *y, size_t ldy,
                                          int yround);

void f32_grpconv_s2_ukernel_2x8__scalar(size_t mr, size_t nr, size_t ncol, size_t nc, size_t nrt,
                                        const size_t nk[2], const float *const w[2], const float *x,
                                        size_t cs, const ptrdiff_t *roff,
                                        const ptrdiff_t *const sh[2], float *y, size_t ldy,
                                        int yround);
void f32_grpconv_s2_ukernel_3x32__avx2(size_t mr, size_t nr, size_t ncol, size_t nc, size_t nrt,
                                       const size_t nk[2], const float *const w[2], const float *x,
                                       size_t cs, const ptrdiff_t *roff,
                                       const ptrdiff_t *const sh[2], float *y, size_t ldy,
                                       int yround);
void f32_grpconv_s2_ukernel_4x64__avx512(size_t mr, size_t nr, size_t ncol, size_t nc, size_t nrt,
                                         const size_t nk[2], const float *const w[2],
                                         const float *x, size_t cs, const ptrdiff_t *roff,
                                         const ptrdiff_t *const sh[2], float *y, size_t ldy,
                                         int yround);

/*
 * The grpconv_s2 kernel for calls whose W taps are nk / sh ("select"): an
 * instance specialized for their shape where the ISA has one, else the
 * ISA's kernel. Its contract is grpconv_s2's, for calls whose nk equal these
 * and whose shifts are these plus one offset (the same for every shift).
 * AVX-512 and AVX2: phases whose shifts run S, S - 1, ... (stride 2,
 * dilation 1: a 3x3 with padding 1 or 0, a 2x2, a 4x4 with padding 1, a
 * 1x1) load each source vector once per (row tap, channel) for both
 * phases, where the kernel loads it per tap and phase; the sums and their
 * order are the kernel's. The scalar ISA has no selector.
 */
/* The phase shapes the selectors have instances for, {N0, S0, N1, S1}:
 * phase u has N_u taps at shifts S_u, S_u - 1, ... above the lowest shift
 * of both phases (N0 >= 1 in each): a 3x3 with padding 1 or 0, a 2x2, a 4x4
 * with padding 1 and a 1x1, at stride 2. */
#define GRP_S2_SHAPES(X) X(1, 0, 2, 1) X(2, 1, 1, 1) X(1, 0, 1, 0) X(2, 1, 2, 2) X(1, 0, 0, 0)

/* Which of GRP_S2_SHAPES the taps nk / sh have (its index in that list),
 * or -1. */
static inline int grp_s2_shape(const size_t nk[2], const ptrdiff_t *const sh[2])
{
#define GRP_S2_ROW(N0, S0, N1, S1) {N0, S0, N1, S1},
    static const int shapes[][4] = {GRP_S2_SHAPES(GRP_S2_ROW)};
#undef GRP_S2_ROW
    ptrdiff_t base = PTRDIFF_MAX;
    for (int u = 0; u < 2; ++u)
        for (size_t k = 0; k < nk[u]; ++k)
            base = sh[u][k] < base ? sh[u][k] : base;
    for (int i = 0; i < (int)(sizeof shapes / sizeof shapes[0]); ++i) {
        int ok = 1;
        for (int u = 0; u < 2 && ok; ++u) {
            const int n = shapes[i][2 * u], s = shapes[i][2 * u + 1];
            ok = nk[u] == (size_t)n;
            for (size_t k = 0; k < nk[u] && ok; ++k)
                ok = sh[u][k] == base + s - (ptrdiff_t)k;
        }
        if (ok) return i;
    }
    return -1;
}

typedef f32_grpconv_s2_ukernel_fn (*f32_grpconv_s2_select_fn)(const size_t nk[2],
                                                              const ptrdiff_t *const sh[2]);

f32_grpconv_s2_ukernel_fn f32_grpconv_s2_select__avx2(const size_t nk[2],
                                                       const ptrdiff_t *const sh[2]);
f32_grpconv_s2_ukernel_fn f32_grpconv_s2_select__avx512(const size_t nk[2],
                                                         const ptrdiff_t *const sh[2]);

#endif /* ACLCONV_GRP_UKERNELS_H_ */
