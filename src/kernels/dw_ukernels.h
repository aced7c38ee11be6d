/* The fp32 microkernels of the depthwise implementation (src/engine/conv_dw.c):
 * one signature per family, contracts in docs/kernels.md ("Depthwise
 * implementation"). Kernels never allocate, never read the CPU, and read and
 * write exactly the elements named (vector remainders are masked). */
#ifndef ACLCONV_DW_UKERNELS_H_
#define ACLCONV_DW_UKERNELS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ukernel_prefetch.h"

/* Floats of partial sums per tap in a weights-kernel accumulator: room for
 * two vectors of the widest ISA. A kernel leaves the lanes it does not use
 * untouched. */
#define DW_ACC_LANES 32

/*
 * Depthwise correlation of one channel ("dwconv"):
 *   for j < len:  y[j] = sum_{t < nt} w[t] * x[toff[t] + j]
 * Sum order per element: t ascending, starting from +0, one fused multiply-add
 * per term (multiply then add for the scalar kernel). nt >= 1. Reads
 * x[toff[t] + j] for j < len only; writes y[j] for j < len only.
 */
typedef void (*f32_dwconv_ukernel_fn)(size_t len, size_t nt, const float *w, const float *x,
                                      const ptrdiff_t *toff, float *y);

/*
 * Depthwise weight-gradient dot products ("dwwt") of nt taps over rows:
 *   term (t, r, j) = x[toff[t] + r*xps + j] * dy[r*dyps + j],  r < rows, j < len
 * goes to accumulator lane acc[t*DW_ACC_LANES + ((j / VL) % NV)*VL + j % VL]
 * (VL lanes per vector, NV vectors per tap: avx512 16x2, avx2 8x2, scalar
 * 4x1). Sum order per lane: r ascending, then j ascending, one fused
 * multiply-add per term (multiply then add for the scalar kernel), continuing
 * from the lane's value. Lanes >= VL*NV are neither read nor written. Reads
 * exactly the elements named (row remainders masked).
 */
typedef void (*f32_dwwt_ukernel_fn)(size_t nt, size_t rows, size_t len, const float *x,
                                    size_t xps, const ptrdiff_t *toff, const float *dy,
                                    size_t dyps, float *acc);

/*
 * Depthwise correlation of one channel at a W stride of 2, both W output
 * phases in one call ("dwconv_s2"), over rows of one output H phase: for
 * i < rows, u < 2,
 *   s_u(i, j) = sum_{t < nt[u]} w[u][t] * x[i*xrs + toff[u][t] + j]
 *   y[i*yrs + 2j + u] = s_u(i, j)   for 2j + u < ncol
 * (W output phase u of a stride-2 gradInput holds its columns u, u + 2,
 * ...). Sum order per element: t ascending from +0, one fused multiply-add
 * per term: dwconv's on each phase, so the same bits as dwconv's results
 * stored phase by phase. nt[u] == 0 gives zeros. yround: F32_ROUND_NONE or
 * the kind each sum is rounded to before it is stored (the FLOAT16 / BF16
 * modes' result rounding, as f32_round does). Reads x[i*xrs + toff[u][t] + j]
 * for j < (ncol + 1 - u) / 2 only; writes y[i*yrs + k], k < ncol, only.
 * The scalar kernel multiplies, then adds (as its dwconv).
 */
typedef void (*f32_dwconv_s2_ukernel_fn)(size_t rows, size_t ncol, const size_t nt[2],
                                         const float *const w[2], const float *x, size_t xrs,
                                         const ptrdiff_t *const toff[2], float *y, size_t yrs,
                                         int yround);

void f32_dwconv_s2_ukernel_8__scalar(size_t rows, size_t ncol, const size_t nt[2],
                                     const float *const w[2], const float *x, size_t xrs,
                                     const ptrdiff_t *const toff[2], float *y, size_t yrs,
                                     int yround);
void f32_dwconv_s2_ukernel_16__avx2(size_t rows, size_t ncol, const size_t nt[2],
                                    const float *const w[2], const float *x, size_t xrs,
                                    const ptrdiff_t *const toff[2], float *y, size_t yrs,
                                    int yround);
void f32_dwconv_s2_ukernel_32__avx512(size_t rows, size_t ncol, const size_t nt[2],
                                      const float *const w[2], const float *x, size_t xrs,
                                      const ptrdiff_t *const toff[2], float *y, size_t yrs,
                                      int yround);

void f32_dwconv_ukernel_16__scalar(size_t len, size_t nt, const float *w, const float *x,
                                   const ptrdiff_t *toff, float *y);
void f32_dwconv_ukernel_64__avx2(size_t len, size_t nt, const float *w, const float *x,
                                 const ptrdiff_t *toff, float *y);
void f32_dwconv_ukernel_128__avx512(size_t len, size_t nt, const float *w, const float *x,
                                   const ptrdiff_t *toff, float *y);

void f32_dwwt_ukernel_1x4__scalar(size_t nt, size_t rows, size_t len, const float *x, size_t xps,
                                  const ptrdiff_t *toff, const float *dy, size_t dyps, float *acc);
void f32_dwwt_ukernel_4x16__avx2(size_t nt, size_t rows, size_t len, const float *x, size_t xps,
                                const ptrdiff_t *toff, const float *dy, size_t dyps, float *acc);
void f32_dwwt_ukernel_4x32__avx512(size_t nt, size_t rows, size_t len, const float *x,
                                    size_t xps, const ptrdiff_t *toff, const float *dy,
                                    size_t dyps, float *acc);

/*
 * In-place ("dwrow") kernels: the source is read where it lies (dense fp32
 * rows, any row pitch), not from a packed plane. One call covers one output
 * plane of rows x ow; tap t reads source element
 *   X_t(i, k) = x[t][i*rs + k]  when x[t] != NULL, 0 <= i < ih, 0 <= k < iw,
 *   X_t(i, k) = 0               otherwise (padding: a zero term, as the
 *                               zeros of a packed plane),
 * at i = r + dh[t], k = j + dw[t] for output (r, j). Kernels read no other
 * source element (masked loads) and write only y[r*yrs + j], j < ow.
 * Their results are bitwise those of the packed kernels on a packed plane
 * holding the same values (same terms, same order, same lanes).
 * pf: the caller's next operands (a hint, never read): a call asks for part
 * r of rows (ukernel_prefetch_steps) as it reaches output row r, so the
 * lines arrive while it computes instead of in a burst between calls.
 */
typedef struct f32_dwrow_src {
    const float *const *x; /* per tap: element (0, 0) of its source plane, or NULL */
    const ptrdiff_t *dh;   /* per tap: row offset */
    const ptrdiff_t *dw;   /* per tap: column offset */
    size_t nt;             /* taps, >= 1 */
    size_t ih, iw;         /* source plane rows and columns */
    size_t rs;             /* source row pitch, floats */
    ukernel_prefetch pf;   /* lines to ask for, spread over the rows (zeros: none) */
    /* How the kernels read the source: DW_SRC_F32, the x planes above as
     * they are; DW_SRC_F32_F16 / DW_SRC_F32_HF32, the same rounded as loaded
     * (mode FLOAT16's / HF32's operand rounding, F32_ROUND_F16 /
     * F32_ROUND_HF32: f32_round's bits); DW_SRC_BF16 / DW_SRC_F16, one
     * 16-bit plane at x16 (x unused, rs in elements), widened exactly as
     * loaded. NaNs are not quieted first (bf16; fp16 ones are, by
     * vcvtph2ps): every value only meets fused multiply-adds, which return
     * their first NaN operand quieted, so the results have the bits of
     * conv_load_row's widening, which quiets them in some modes. All but
     * DW_SRC_F32: only the row-window taps (dw_row_window), AVX-512. */
    int src_kind;
    const uint16_t *x16;
    /* dwrowwt: dy read by dy_kind as the source by src_kind (DW_SRC_F32:
     * the fp32 argument as it is; DW_SRC_F32_F16 / DW_SRC_F32_HF32: rounded
     * so; 16-bit: at dy16, dyrs in elements, the argument unused, widened as
     * x16); other than DW_SRC_F32 only with src_kind: the pairs (K, K) for
     * K = DW_SRC_F32_F16, DW_SRC_F32_HF32 and (16-bit, the same dtype). */
    int dy_kind;
    const uint16_t *dy16;
} f32_dwrow_src;

enum { DW_SRC_F32 = 0, DW_SRC_BF16 = 1, DW_SRC_F16 = 2, DW_SRC_F32_F16 = 3, DW_SRC_F32_HF32 = 4 };
#define DW_SRC_KINDS 5

/* An fp32 source the kernels round as they load it. */
static inline bool dw_src_rounded(int kind)
{
    return kind == DW_SRC_F32_F16 || kind == DW_SRC_F32_HF32;
}

static inline bool dw_src_16bit(int kind)
{
    return kind == DW_SRC_BF16 || kind == DW_SRC_F16;
}

/* The row-window taps: +1 (or -1, dwrow's flipped taps; never for dwrowwt,
 * wt) when the taps are a 3x3 grid on one plane, dh[t] = dh[0] +
 * step*(t/3), dw[t] = step*(t%3 - 1), else 0. */
static inline int dw_window_taps(const f32_dwrow_src *s, bool wt)
{
    if (s->nt != 9) return 0;
    const ptrdiff_t step = s->dh[3] - s->dh[0];
    if (step != 1 && (wt || step != -1)) return 0;
    const bool h16 = dw_src_16bit(s->src_kind);
    if (h16 ? s->x16 == NULL : s->x[0] == NULL) return 0;
    for (size_t t = 0; t < 9; ++t)
        if ((!h16 && s->x[t] != s->x[0]) || s->dh[t] != s->dh[0] + step * (ptrdiff_t)(t / 3) ||
            s->dw[t] != step * ((ptrdiff_t)(t % 3) - 1))
            return 0;
    return (int)step;
}

/* Whether the taps and widths take the AVX-512 kernels' row-window form
 * (each source row loaded once, its column shifts formed in registers), the
 * form a source converted as it is loaded needs: dw_window_taps, ow <= 32
 * and iw <= 32; dwrowwt (wt) also iw <= ow. (The AVX2 kernels' 3x3 paths
 * take the same taps at any ow <= 32.) */
static inline int dw_row_window(const f32_dwrow_src *s, size_t ow, bool wt)
{
    if (ow > 32 || s->iw > 32 || (wt && s->iw > ow)) return 0;
    return dw_window_taps(s, wt);
}

/* The AVX2 in-place kernels' 3x3 paths (dw_window_taps) take rows of at
 * most this many columns; wider rows take their generic kernels. */
#define DW_AVX2_G33_MAX_OW 128

/* Column masks a dwrow call keeps on its stack: the caller takes the
 * in-place kernels only when nt * ceil(ow / DW_ROW_MIN_VL) <= DW_ROW_MASKS. */
#define DW_ROW_MASKS 2048
#define DW_ROW_MIN_VL 8

/*
 * Depthwise correlation, in place ("dwrow"):
 *   y[r*yrs + j] = sum_{t < nt} w[t] * X_t(r + dh[t], j + dw[t]),  r < rows, j < ow
 * Sum order per element: t ascending from +0, one fused multiply-add per term,
 * zero terms included (multiply then add for the scalar kernel): the dwconv
 * order.
 */
typedef void (*f32_dwrow_ukernel_fn)(size_t rows, size_t ow, const f32_dwrow_src *s,
                                     const float *w, float *y, size_t yrs);

/*
 * Depthwise weight-gradient dot products, in place ("dwrowwt"):
 *   term (t, r, j) = X_t(r + dh[t], j + dw[t]) * dy[r*dyrs + j],  r < rows, j < ow
 * into accumulator lane acc[t*DW_ACC_LANES + ((j / VL) % NV)*VL + j % VL], same
 * VL, NV, lane order (r ascending, then j ascending, continuing from the
 * lane's value) and arithmetic as dwwt of the same ISA; zero terms included.
 */
typedef void (*f32_dwrowwt_ukernel_fn)(size_t rows, size_t ow, const f32_dwrow_src *s,
                                       const float *dy, size_t dyrs, float *acc);

/*
 * Depthwise weight-gradient dot products of a 3x3 kernel at stride 2, in
 * place ("dwrowwt_s2"): as dwrowwt with the source read at row and column
 * step 2,
 *   term (t, r, j) = X_t(2r + dh[t], 2j + dw[t]) * dy[r*dyrs + j],  r < rows, j < ow
 * for taps on a 3x3 grid of one plane (t = 3*kh + kw, x[t] == x[0] != NULL,
 * dh[t] = dh[0] + kh, dw[t] = dw[kw]) and ow <= 32: the lanes, order and
 * arithmetic of dwwt over the packed phase planes, so the same bits. The
 * AVX-512 kernel only (the other ISAs pack).
 */
void f32_dwrowwt_s2_ukernel_9x32__avx512(size_t rows, size_t ow, const f32_dwrow_src *s,
                                         const float *dy, size_t dyrs, float *acc);

void f32_dwrow_ukernel_1x1__scalar(size_t rows, size_t ow, const f32_dwrow_src *s,
                                    const float *w, float *y, size_t yrs);
void f32_dwrow_ukernel_4x16__avx2(size_t rows, size_t ow, const f32_dwrow_src *s, const float *w,
                                  float *y, size_t yrs);
void f32_dwrow_ukernel_4x32__avx512(size_t rows, size_t ow, const f32_dwrow_src *s,
                                    const float *w, float *y, size_t yrs);

void f32_dwrowwt_ukernel_1x4__scalar(size_t rows, size_t ow, const f32_dwrow_src *s,
                                     const float *dy, size_t dyrs, float *acc);
void f32_dwrowwt_ukernel_4x16__avx2(size_t rows, size_t ow, const f32_dwrow_src *s,
                                    const float *dy, size_t dyrs, float *acc);
void f32_dwrowwt_ukernel_12x32__avx512(size_t rows, size_t ow, const f32_dwrow_src *s,
                                       const float *dy, size_t dyrs, float *acc);

/*
 * Lane sums of dense runs ("dwsum"), gradBias's order (src/engine/conv_bias.c):
 *   acc[ch*DW_SUM_LANES + k % DW_SUM_LANES] += x[ch][k],  ch < nch, k < len,
 * k ascending per lane, one plain add per element (no FMA), continuing from
 * the lane's value; lanes k % DW_SUM_LANES >= len are not touched when
 * len < DW_SUM_LANES. Channels are independent chains: kernels interleave
 * several so the adds do not wait on one chain's latency.
 */
#define DW_SUM_LANES 16
typedef void (*f32_dwsum_ukernel_fn)(size_t nch, size_t len, const float *const *x, float *acc);

void f32_dwsum_ukernel_1x16__scalar(size_t nch, size_t len, const float *const *x, float *acc);
void f32_dwsum_ukernel_4x16__avx2(size_t nch, size_t len, const float *const *x, float *acc);
void f32_dwsum_ukernel_4x16__avx512(size_t nch, size_t len, const float *const *x, float *acc);

/* dwsum of 16-bit runs (bf16 when bf16 != 0, else fp16), each value widened
 * exactly (NaNs as they are: a sum quiets them, so the bits are those of
 * dwsum over the widened runs, quieted or not). AVX-512 only. */
typedef void (*h16_dwsum_ukernel_fn)(size_t nch, size_t len, const uint16_t *const *x, int bf16,
                                     float *acc);
void h16_dwsum_ukernel_4x16__avx512(size_t nch, size_t len, const uint16_t *const *x, int bf16,
                                    float *acc);

/*
 * 16 channel planes into the channels-in-the-vector layout ("dwch_pack"):
 *   dst[(i*dp + j)*16 + c] = round(src[c][i*rs + j]),  i < rows, j < cols, c < 16
 * (0 for c with src[c] == NULL), round: f32_round's kind (cvt_ukernels.h,
 * F32_ROUND_NONE: a copy), the same bits. Reads exactly those elements;
 * writes only those of dst. Asks for pf's lines, a part per row.
 * sums: NULL, or where the planes' rows are contiguous (rs == cols < 16)
 * gradBias's block sums of the values as read, before the rounding, into
 * sums[c] (docs/numerics.md: element i = r*cols + j to lane i % 16, each
 * lane ascending from +0, then the fixed pairwise tree; 0 for absent
 * channels), and returns 1; else (and without sums) returns 0.
 */
int f32_dwch_pack_16__avx512(const float *const *src, size_t rs, size_t rows, size_t cols,
                             float *dst, size_t dp, int round, float *sums,
                             const ukernel_prefetch *pf);
/* dwch_pack of bf16 (bf16 != 0) or fp16 planes, widened exactly to fp32,
 * then rounded where round is the one rounding a mode applies to a dtype
 * it does not keep (bf16: F32_ROUND_F16; fp16: F32_ROUND_BF16; any other
 * round leaves the widened values). */
int h16_dwch_pack_16__avx512(const uint16_t *const *src, int bf16, size_t rs, size_t rows,
                             size_t cols, float *dst, size_t dp, int round, float *sums,
                             const ukernel_prefetch *pf);

/*
 * Depthwise 3x3 weight-gradient dot products, 16 channels in the vector
 * ("dwchwt"), on planes packed by dwch_pack: the source xt with rows + 2
 * rows of xp >= ow + 2 positions (xt position (R, C) holds X(R + dh0,
 * C - 1), zeros outside), dyt with rows of dp >= ow positions (its own,
 * or dy inside a data pass's bordered grid):
 *   term (t, r, j) = xt[((r + t/3)*xp + j + t%3)*16 + c] * dyt[(r*dp + j)*16 + c]
 * into acc[(j*9 + t)*16 + c], r < rows, j < ow. Per element r ascending,
 * one fused multiply-add per term, continuing from its value: a column's
 * terms in the order of the dwrowwt lane j (ow <= 32), the same bits. Asks
 * for pf's lines as it goes.
 */
void f32_dwchwt_ukernel_16x2__avx512(size_t rows, size_t ow, const float *xt, size_t xp,
                                     const float *dyt, size_t dp, float *acc,
                                     const ukernel_prefetch *pf);

/*
 * Depthwise 3x3 correlation, 16 channels in the vector ("dwchconv"), of a
 * source packed by dwch_pack (rows of sp positions) into 16 planes:
 *   dst[c][r*drs + j] = sum_{t < 9} w[t*wp + c] * src[(r*sp + j + toff[t])*16 + c]
 * r < rows, j < ow <= 16, for c with dst[c] != NULL (the others not
 * written; their lanes' weights and source may hold anything). Sum order
 * per element: t ascending from +0, one fused multiply-add per term: the
 * dwrow order with the same taps, the same bits.
 */
void f32_dwchconv_ukernel_16__avx512(size_t rows, size_t ow, const float *src, size_t sp,
                                     const ptrdiff_t *toff, const float *w, size_t wp,
                                     float *const *dst, size_t drs);

#endif /* ACLCONV_DW_UKERNELS_H_ */
