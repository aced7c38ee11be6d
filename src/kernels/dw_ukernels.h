/* The fp32 microkernels of the depthwise implementation (src/engine/conv_dw.c):
 * one signature per family, contracts in docs/kernels.md ("Depthwise
 * implementation"). Kernels never allocate, never read the CPU, and read and
 * write exactly the elements named (vector remainders are masked). */
#ifndef ACLCONV_DW_UKERNELS_H_
#define ACLCONV_DW_UKERNELS_H_

#include <stddef.h>

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

#endif /* ACLCONV_DW_UKERNELS_H_ */
