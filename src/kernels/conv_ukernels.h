/* The fp32 microkernels of the fast engine: one signature per family.
 * Contracts (panel layouts, edge tiles, accumulate vs overwrite) are written
 * out in docs/kernels.md. Kernels never allocate and never read the CPU: the
 * engine picks a table with conv_ukernels_for(isa). */
#ifndef ACLCONV_CONV_UKERNELS_H_
#define ACLCONV_CONV_UKERNELS_H_

#include <stddef.h>
#include <stdint.h>

#include "aclconv/aclconv.h"
#include "kernels/bias_ukernels.h"
#include "kernels/cvt_ukernels.h"

/*
 * Spatial-vector convolution kernel ("conv"): MR output channels x NR lanes.
 *   for m < mr, j < nr:
 *     y[m*ldy + j] (= or +=) sum_{c < nc} sum_{t < nt} w[(c*nt + t)*MR + m] * x[c*cs + toff[t] + j]
 * Sum order per element: c ascending, then t ascending, one fused multiply-add
 * (or multiply then add for the scalar kernel) per term, starting from 0
 * (accumulate == 0) or from y (accumulate != 0).
 * w: packed panel of nc*nt rows of MR floats (rows m >= mr are ignored but
 * read). x: lanes j in [nr, roundup(nr, vector width)) are read as well, so
 * every x[c*cs + toff[t] + j] for j < roundup(nr, 16) must be readable.
 * 1 <= mr <= MR, 1 <= nr <= NR, nc*nt >= 1. Only y[m*ldy + j], m < mr, j < nr,
 * is written.
 * xround: each x value is first rounded as f32_round rounds for that kind
 * (F32_ROUND_NONE: used as it is). A pass whose x is read once from memory
 * (few rows) rounds fp32 x this way at no cost, where a rounded copy of x
 * would be a second pass over it; full tiles of many rows take x rounded
 * already (packed), as the extra operations would slow them.
 */
typedef void (*f32_conv_ukernel_fn)(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                    const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                    size_t ldy, int accumulate, int xround);
/*
 * Its streaming twin ("conv_nt"): the same results, accumulate must be 0, and
 * when y and ldy are 64-byte aligned every full vector of the tile is stored
 * non-temporally (the line is not read for ownership; the caller runs
 * store_fence before another thread reads y). For results written once and
 * not read again soon: a gradInput larger than the caches.
 */

/*
 * Channel-vector convolution kernel ("convcv"): the sums, sum order and panel
 * layout of "conv" (MR = convcv_mr rows per panel row), computed with the MR
 * channels in a vector and x broadcast, one accumulator per position, and
 * stored with a position step:
 *   y[m*ldy + j*ystep] (= or +=) the sum "conv" gives for (m, j), bitwise.
 * It reads exactly x[c*cs + toff[t] + j] for j < nr (no lanes past nr), so
 * any nr positions can be a tile: a row of any width costs no column tail.
 * ystep >= 1; only y[m*ldy + j*ystep], m < mr, j < nr, is written (the
 * elements between belong to other output phases). With ystep == 1 the
 * kernel asks for the lines of its results itself during its loop (a
 * caller's burst of requests before the call made the core wait on them).
 * y is float (y16 == CONVCV_Y_F32), or uint16_t with each sum narrowed as
 * f32_narrow does to bf16 (CONVCV_Y_BF16) or fp16 (CONVCV_Y_F16); accumulate
 * must then be 0. A 16-bit gradInput whose mode rounds to its own dtype is
 * so written in place (the ISA's convcv_y16 says it is fast there).
 * ntw >= nt: the panel holds ntw rows per channel, of which the call uses
 * the first nt: tap t of channel c is w[(c*ntw + t)*MR + m]. A caller that
 * skips taps reading only padding passes the panel and toff advanced to its
 * first tap (a tap range [t0, t1) of the full panel: w + t0*MR, toff + t0,
 * nt = t1 - t0, ntw = the panel's taps).
 * tedge: NULL, or flags per tap t < nt that leave a position out of that
 * tap's terms: CONVCV_SKIP_FIRST position 0, CONVCV_SKIP_LAST position
 * nr - 1 (a tile at a row's end whose tap reads only padding there: the
 * terms left out are zeros).
 */
enum { CONVCV_Y_F32 = 0, CONVCV_Y_BF16 = 1, CONVCV_Y_F16 = 2 };
enum { CONVCV_SKIP_FIRST = 1, CONVCV_SKIP_LAST = 2 };
typedef void (*f32_convcv_ukernel_fn)(size_t mr, size_t nr, size_t nc, size_t nt, size_t ntw,
                                      const float *w, const float *x, size_t cs,
                                      const ptrdiff_t *toff, const uint8_t *tedge, void *y,
                                      size_t ldy, size_t ystep, int accumulate, int y16);

/*
 * Weight-gradient kernel ("convwt"): MR reduction rows x NR output lanes.
 *   for m < mr, o < nr:
 *     c[m][o] (= or +=) sum_{r < nrows} sum_{j < len} a[m][r*ars + j] * b[(r*len + j)*ldb + o]
 * Sum order per element: r ascending, j ascending, starting from 0 or from c.
 * a: MR row pointers (a[m] for m >= mr must be readable rows too; their
 * results are dropped). b: lanes o in [nr, roundup(nr, vector width)) are
 * read, so ldb must cover them. c: mr row pointers (any rows: the weights
 * pass's tiles gather rows of one tap class). nrows may be 0 (c is then
 * zeroed, or kept when accumulating). Only c[m][o], m < mr, o < nr is
 * written.
 */
typedef void (*f32_convwt_ukernel_fn)(size_t mr, size_t nr, size_t nrows, size_t len,
                                      const float *const *a, size_t ars, const float *b,
                                      size_t ldb, float *const *c, int accumulate);

/*
 * Weight-gradient kernel over BF16 pairs ("bf16 convwt"): convwt's sums with
 * bf16 operands taken two positions at a time, as vdpbf16ps takes them.
 *   lenp = ceil(len / 2); for m < mr, o < nr:
 *     c[m][o] (= or +=) sum_{r < nrows} sum_{q < lenp}
 *         A(r, 2q+1) * B(r, q).hi  then  A(r, 2q) * B(r, q).lo
 *   A(r, j) = a[m][r*ars + j] (bf16 bits) for j < len, +0 for j == len (odd
 *   len: the row's last element has no partner; a[m][r*ars + len] is not
 *   read). B(r, q) = b[(r*lenp + q)*ldb + o]: a pair, low half position 2q,
 *   high half 2q+1, which must be +0 past len.
 * Sum order per element: r ascending, q ascending, in each pair the high
 * (odd) position's product first; each product is exact in fp32 and added
 * with one rounding (a fused multiply-add), from 0 or from c. The _avx512bf16
 * variant (vdpbf16ps) also treats subnormal inputs and results as zero; it
 * gives the bits of the _avx512 variant (fused multiply-adds) whenever no a
 * element and no b element is subnormal and the smallest nonzero exponent
 * fields of a and b add up to at least 142 (every partial sum is then a
 * multiple of a power of two >= 2^-126: never subnormal). The caller checks.
 * Lanes o in [nr, roundup(nr, 16)) of b are read; c and nrows as convwt's;
 * only c[m][o], m < mr, o < nr is written.
 */
typedef void (*bf16_convwt_ukernel_fn)(size_t mr, size_t nr, size_t nrows, size_t len,
                                       const uint16_t *const *a, size_t ars, const uint32_t *b,
                                       size_t ldb, float *const *c, int accumulate);

/*
 * Channel-vector convolution kernel over BF16 input channel pairs ("bf16
 * convcv"): convcv's tile and stores with x and w as pairs of bf16 (low half
 * channel 2p, high half 2p + 1, both +0 past the last channel):
 *   for m < mr, j < nr:
 *     y[m*ldy + j*ystep] (= or +=) sum_{p < ncp} sum_{t < nt}
 *         W(p, t, m).hi * X(p, t, j).hi  then  W(p, t, m).lo * X(p, t, j).lo
 *   W(p, t, m) = w[(p*ntw + t)*MR + m], X(p, t, j) = x[p*cs + toff[t] + j]
 *   (ntw >= nt: panel rows per pair, as convcv's), less the terms tedge
 *   leaves out (as convcv's).
 * Sum order per element: p ascending, t ascending, in each pair the high
 * channel's product first, each added with one rounding, from 0 or from y.
 * The _avx512bf16 variant (vdpbf16ps) agrees with the _avx512 one (fused
 * multiply-adds) under bf16 convwt's condition on the operands' exponents.
 * Reads exactly the x elements named for j < nr; rows m >= mr of w are read.
 * y is float, or with ybf16 != 0 uint16_t: each sum narrowed to bf16 as
 * f32_narrow does (accumulate must then be 0), so a BF16 gradInput is
 * written in place.
 */
typedef void (*bf16_convcv_ukernel_fn)(size_t mr, size_t nr, size_t ncp, size_t nt, size_t ntw,
                                       const uint32_t *w, const uint32_t *x, size_t cs,
                                       const ptrdiff_t *toff, const uint8_t *tedge, void *y,
                                       size_t ldy, size_t ystep, int accumulate, int ybf16);

/* The smallest exponent field (0..255) of the nonzero bf16 values of BF16
 * pair operands for which bf16 convwt's two variants agree (see above). */
#define BF16_DOT_MIN_EXPONENTS 142

/*
 * Reduction-vector kernel ("convrv"): MR rows of a x NR rows of b, each output
 * a dot product along j.
 *   for m < mr, n < nr:
 *     c[m*ldm + n*ldn] (= or +=) sum_{r < nrows} sum_{j < len} a[m][r*ars + j] * b[n][r*brs + j]
 * Sum order per element: one partial sum per vector lane (lane = j mod vector
 * width), each over r ascending then j ascending; then the lanes are added in
 * a fixed tree; then added to c when accumulating. Reads exactly the elements
 * named (remainders masked). a[m] for m >= mr and b[n] for n >= nr must be
 * readable rows; their results are dropped.
 */
typedef void (*f32_convrv_ukernel_fn)(size_t mr, size_t nr, size_t nrows, size_t len,
                                      const float *const *a, size_t ars, const float *const *b,
                                      size_t brs, float *c, size_t ldm, size_t ldn, int accumulate);

/*
 * Reduction-vector kernel over BF16 pairs ("bf16 convrv"): convrv's dot
 * products of bf16 rows, two positions a lane as vdpbf16ps takes them.
 *   for m < mr, n < nr:
 *     c[m*ldm + n*ldn] (= or +=) sum_{r < nrows} sum_{j < len} A(m, r, j) * B(n, r, j)
 *   A(m, r, j) = a[m][r*ars + j], B(n, r, j) = b[n][r*brs + j] (bf16 bits).
 * Sum order per element: one partial sum per lane of 16, pair q (positions
 * 2q and 2q + 1 of a row) in lane q mod 16, over r ascending then q
 * ascending up to a multiple of 16 pairs (positions past len are +0), in
 * each pair the high (odd) position's product first, each product exact and
 * added with one rounding (a fused multiply-add); then convrv's 16-lane
 * tree; then added to c when accumulating. The _avx512bf16 variant
 * (vdpbf16ps) agrees with the _avx512 one under bf16 convwt's condition on
 * the operands' exponents (the lane tree and c adds are plain fp32 adds in
 * both). Reads exactly the elements named (remainders masked); a[m] for
 * m >= mr and b[n] for n >= nr must be readable rows, their results are
 * dropped.
 */
typedef void (*bf16_convrv_ukernel_fn)(size_t mr, size_t nr, size_t nrows, size_t len,
                                       const uint16_t *const *a, size_t ars,
                                       const uint16_t *const *b, size_t brs, float *c, size_t ldm,
                                       size_t ldn, int accumulate);

/*
 * Transpose ("transpose"): dst[j*ldd + i] = src[i*lds + j] for i < m, j < n
 * (the weights pass's dy^T). Any m, n >= 0; reads and writes exactly the
 * elements named (tails masked). Pure data movement: every ISA gives the
 * same bits.
 */
typedef void (*f32_transpose_ukernel_fn)(size_t m, size_t n, const float *src, size_t lds, float *dst,
                                         size_t ldd);

/*
 * Widening transpose of 16-bit rows ("h16_transpose"): dst[j*ldd + i] = the
 * fp32 value bf16_f32_cvt (bf16 != 0) or f16_f32_cvt (bf16 == 0) gives for
 * src[i*lds + j] with the same quiet, for i < m, j < n: transpose's
 * contract for a 16-bit source. Reads and writes exactly the elements named.
 * NULL where the ISA has none (its widening copy, then transpose).
 */
typedef void (*h16_transpose_ukernel_fn)(size_t m, size_t n, const uint16_t *src, size_t lds,
                                         float *dst, size_t ldd, int bf16, int quiet);

void h16_transpose_ukernel_16x16__avx512(size_t m, size_t n, const uint16_t *src, size_t lds,
                                         float *dst, size_t ldd, int bf16, int quiet);

/*
 * Transpose of BF16 pairs ("bf16_pairt"): dst[j*ldd + i] = the 32-bit word
 * src[i*lds + 2j] | src[i*lds + 2j + 1] << 16 for i < m, j < n, returning
 * the smaller of emin and the smallest exponent field of the bf16 values
 * read (bf16_minexp: zeros do not count). lds counts bf16 elements and may
 * be odd (a row's pairs then start off a 4-byte boundary). Reads and
 * writes exactly the elements named. The weights pass's paired dy^T.
 */
typedef int (*bf16_pairt_ukernel_fn)(size_t m, size_t n, const uint16_t *src, size_t lds,
                                     uint32_t *dst, size_t ldd, int emin);

int bf16_pairt_ukernel_1x1__scalar(size_t m, size_t n, const uint16_t *src, size_t lds,
                                   uint32_t *dst, size_t ldd, int emin);
int bf16_pairt_ukernel_16x16__avx512(size_t m, size_t n, const uint16_t *src, size_t lds,
                                     uint32_t *dst, size_t ldd, int emin);

/*
 * bf16 rows zipped into pairs and transposed ("bf16_zipt"): dst[j*ldd + i] =
 * lo[i*ss + j] | hi[i*ss + j] << 16 (hi == NULL: +0 high halves) for i < m,
 * j < n, returning the smaller of emin and the smallest exponent field of
 * the values read (bf16_minexp). Reads and writes exactly the elements
 * named. The data pass's BF16 weight panels: row i an output channel, lo and
 * hi the taps of an input channel pair (an element at a time they were 3.4%
 * of deconv2d_k4s2's bf16 dx).
 */
typedef int (*bf16_zipt_ukernel_fn)(size_t m, size_t n, const uint16_t *lo, const uint16_t *hi,
                                    size_t ss, uint32_t *dst, size_t ldd, int emin);

int bf16_zipt_ukernel_1x1__scalar(size_t m, size_t n, const uint16_t *lo, const uint16_t *hi,
                                  size_t ss, uint32_t *dst, size_t ldd, int emin);
int bf16_zipt_ukernel_16x16__avx512(size_t m, size_t n, const uint16_t *lo, const uint16_t *hi,
                                    size_t ss, uint32_t *dst, size_t ldd, int emin);

/* The largest MR of any kernel (row pointer arrays are sized with it). */
#define CONV_UKERNEL_MAX_MR 8
/* Every x / b buffer keeps this many readable floats after its last element. */
#define CONV_UKERNEL_SLACK 64

typedef struct conv_ukernels {
    aclconvIsa isa;
    int conv_mr, conv_nr;
    f32_conv_ukernel_fn conv;
    f32_conv_ukernel_fn conv_nt; /* NULL: the ISA has none */
    void (*store_fence)(void);   /* after conv_nt's stores (NULL where conv_nt is) */
    int convwt_mr, convwt_nr;
    f32_convwt_ukernel_fn convwt;
    int convrv_mr, convrv_nr;
    f32_convrv_ukernel_fn convrv;
    /* single-row variants (MR = 1): depthwise and very few output channels */
    int conv1_nr;
    f32_conv_ukernel_fn conv1;
    int convrv1_nr;
    f32_convrv_ukernel_fn convrv1;
    f32_transpose_ukernel_fn transpose;
    h16_transpose_ukernel_fn h16_transpose; /* NULL: widen, then transpose */
    /* fp16 / bf16 rows widened to fp32 (packing) */
    f16_f32_cvt_ukernel_fn f16_f32_cvt;
    bf16_f32_cvt_ukernel_fn bf16_f32_cvt;
    h16_f32_split2_ukernel_fn h16_f32_split2; /* stride-2 rows split into their W phases */
    /* fp32 rounded to the precision modes (operands, results) */
    f32_round_ukernel_fn f32_round;
    f32_padrows_ukernel_fn f32_padrows; /* padded slab rows, rounded */
    /* fp32 rows read / written with a step of 2 (stride-2 W phases) */
    f32_step2_ukernel_fn f32_load_step2, f32_store_step2;
    f32_split2_ukernel_fn f32_split2; /* stride-2 rows split into their W phases, rounded */
    /* fp32 results stored as fp16 / bf16 */
    f32_narrow_ukernel_fn f32_narrow;
    f32_narrow_ukernel_fn f32_narrow_step2; /* NULL: narrow, then spread */
    /* streaming stores (the caller fences); NULL (scalar): the plain kernels */
    f32_narrow_ukernel_fn f32_narrow_nt;
    f32_round_ukernel_fn f32_round_nt;
    /* gradBias rows */
    f32_lanes16_ukernel_fn lanes16;
    /* channel-vector variant of conv (NULL: the ISA has none); convcv_y16:
     * its 16-bit stores narrow in registers (else through a buffer) */
    int convcv_mr, convcv_nr;
    f32_convcv_ukernel_fn convcv;
    bool convcv_y16;
    /* BF16 pairs with fused multiply-adds (NULL: the ISA has none); their
     * vdpbf16ps twins come from conv_bf16_dot_convwt / _convcv / _convrv */
    int bf16_convwt_mr, bf16_convwt_nr;
    bf16_convwt_ukernel_fn bf16_convwt;
    int bf16_convcv_mr, bf16_convcv_nr;
    bf16_convcv_ukernel_fn bf16_convcv;
    int bf16_convrv_mr, bf16_convrv_nr;
    bf16_convrv_ukernel_fn bf16_convrv;
    bf16_minexp_ukernel_fn bf16_minexp; /* their operands' guard */
    bf16_padrows_ukernel_fn bf16_padrows; /* padded bf16 slab rows, guarded */
    bf16_zip_ukernel_fn bf16_zip;       /* pair slab rows */
    bf16_pairt_ukernel_fn bf16_pairt;   /* paired dy^T */
    bf16_split2_ukernel_fn bf16_split2; /* stride-2 bf16 slab rows */
    bf16_zip_split2_ukernel_fn bf16_zip_split2; /* stride-2 pair slab rows */
    bf16_zipt_ukernel_fn bf16_zipt;             /* pair weight panels */
} conv_ukernels;

/* The kernel table of isa (a lower one when a kernel is missing). */
const conv_ukernels *conv_ukernels_for(aclconvIsa isa);

/* The vdpbf16ps variant of isa's bf16_convwt (same tile), NULL where the
 * CPU lacks the instruction (whatever ACLCONV_BF16_DOT says: plans read it,
 * cpu_bf16_dot). */
bf16_convwt_ukernel_fn conv_bf16_dot_convwt(aclconvIsa isa);
bf16_convcv_ukernel_fn conv_bf16_dot_convcv(aclconvIsa isa);
bf16_convrv_ukernel_fn conv_bf16_dot_convrv(aclconvIsa isa);

void f32_conv_ukernel_4x16__scalar(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                   const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                   size_t ldy, int accumulate, int xround);
void f32_conv_ukernel_4x24__avx2(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                 const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                 size_t ldy, int accumulate, int xround);
void f32_conv_ukernel_8x48_nt__avx512(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                      const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                      size_t ldy, int accumulate, int xround);
void f32_conv_ukernel_8x48__avx512(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                   const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                   size_t ldy, int accumulate, int xround);
void f32_convcv_ukernel_16x6__avx2(size_t mr, size_t nr, size_t nc, size_t nt, size_t ntw,
                                   const float *w, const float *x, size_t cs, const ptrdiff_t *toff,
                                   const uint8_t *tedge, void *y, size_t ldy, size_t ystep,
                                   int accumulate, int y16);
void f32_convcv_ukernel_32x14__avx512(size_t mr, size_t nr, size_t nc, size_t nt, size_t ntw,
                                      const float *w, const float *x, size_t cs,
                                      const ptrdiff_t *toff, const uint8_t *tedge, void *y,
                                      size_t ldy, size_t ystep, int accumulate, int y16);

void f32_convwt_ukernel_4x16__scalar(size_t mr, size_t nr, size_t nrows, size_t len,
                                     const float *const *a, size_t ars, const float *b,
                                     size_t ldb, float *const *c, int accumulate);
void f32_convwt_ukernel_6x16__avx2(size_t mr, size_t nr, size_t nrows, size_t len,
                                   const float *const *a, size_t ars, const float *b, size_t ldb,
                                   float *const *c, int accumulate);
void bf16_convwt_ukernel_6x64__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                      const uint16_t *const *a, size_t ars, const uint32_t *b,
                                      size_t ldb, float *const *c, int accumulate);
void bf16_convwt_ukernel_6x64__avx512bf16(size_t mr, size_t nr, size_t nrows, size_t len,
                                          const uint16_t *const *a, size_t ars, const uint32_t *b,
                                          size_t ldb, float *const *c, int accumulate);
void bf16_convcv_ukernel_32x14__avx512(size_t mr, size_t nr, size_t ncp, size_t nt, size_t ntw,
                                       const uint32_t *w, const uint32_t *x, size_t cs,
                                       const ptrdiff_t *toff, const uint8_t *tedge, void *y,
                                       size_t ldy, size_t ystep, int accumulate, int ybf16);
void bf16_convcv_ukernel_32x14__avx512bf16(size_t mr, size_t nr, size_t ncp, size_t nt, size_t ntw,
                                           const uint32_t *w, const uint32_t *x, size_t cs,
                                           const ptrdiff_t *toff, const uint8_t *tedge, void *y,
                                           size_t ldy, size_t ystep, int accumulate, int ybf16);
void f32_convwt_ukernel_6x64__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                     const float *const *a, size_t ars, const float *b,
                                     size_t ldb, float *const *c, int accumulate);

void f32_convrv_ukernel_2x4__scalar(size_t mr, size_t nr, size_t nrows, size_t len,
                                    const float *const *a, size_t ars, const float *const *b,
                                    size_t brs, float *c, size_t ldm, size_t ldn, int accumulate);
void f32_convrv_ukernel_3x4__avx2(size_t mr, size_t nr, size_t nrows, size_t len,
                                  const float *const *a, size_t ars, const float *const *b,
                                  size_t brs, float *c, size_t ldm, size_t ldn, int accumulate);
void f32_convrv_ukernel_4x6__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                    const float *const *a, size_t ars, const float *const *b,
                                    size_t brs, float *c, size_t ldm, size_t ldn, int accumulate);
void bf16_convrv_ukernel_4x6__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                     const uint16_t *const *a, size_t ars, const uint16_t *const *b,
                                     size_t brs, float *c, size_t ldm, size_t ldn, int accumulate);
void bf16_convrv_ukernel_4x6__avx512bf16(size_t mr, size_t nr, size_t nrows, size_t len,
                                         const uint16_t *const *a, size_t ars,
                                         const uint16_t *const *b, size_t brs, float *c, size_t ldm,
                                         size_t ldn, int accumulate);

void f32_conv_ukernel_1x16__scalar(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                   const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                   size_t ldy, int accumulate, int xround);
void f32_conv_ukernel_1x64__avx2(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                 const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                 size_t ldy, int accumulate, int xround);
void f32_conv_ukernel_1x128__avx512(size_t mr, size_t nr, size_t nc, size_t nt, const float *w,
                                    const float *x, size_t cs, const ptrdiff_t *toff, float *y,
                                    size_t ldy, int accumulate, int xround);
void f32_convrv_ukernel_1x8__avx2(size_t mr, size_t nr, size_t nrows, size_t len,
                                  const float *const *a, size_t ars, const float *const *b,
                                  size_t brs, float *c, size_t ldm, size_t ldn, int accumulate);
void f32_convrv_ukernel_1x8__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                    const float *const *a, size_t ars, const float *const *b,
                                    size_t brs, float *c, size_t ldm, size_t ldn, int accumulate);

void f32_transpose_ukernel_1x1__scalar(size_t m, size_t n, const float *src, size_t lds, float *dst,
                                       size_t ldd);
void f32_transpose_ukernel_8x8__avx2(size_t m, size_t n, const float *src, size_t lds, float *dst,
                                     size_t ldd);
void f32_transpose_ukernel_16x16__avx512(size_t m, size_t n, const float *src, size_t lds, float *dst,
                                         size_t ldd);

#endif /* ACLCONV_CONV_UKERNELS_H_ */
