/* The fp32 microkernels of the grouped implementation (src/engine/conv_grouped.c):
 * contracts in docs/kernels.md ("Grouped implementation"). Kernels never
 * allocate and read and write exactly the elements named (vector remainders
 * are masked loads, never over-reads). */
#ifndef ACLCONV_GRP_UKERNELS_H_
#define ACLCONV_GRP_UKERNELS_H_

#include <stddef.h>

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

#endif /* ACLCONV_GRP_UKERNELS_H_ */
