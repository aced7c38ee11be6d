/* The row kernel of gradBias (src/engine/conv_bias.c). */
#ifndef ACLCONV_BIAS_UKERNELS_H_
#define ACLCONV_BIAS_UKERNELS_H_

#include <stddef.h>

/*
 * 16-lane row sums ("lanes16"): acc[r*16 + k % 16] += x[r*ldx + k] for rows
 * r < m and k < n, each lane in ascending k, one add per element (no FMA, no
 * reassociation), so every ISA gives the same bits. Lanes that receive no
 * element are left as they are (a -0 stays -0). Any m, n >= 0; reads exactly
 * x[r*ldx .. r*ldx + n) of each row. Each lane is one chain of dependent
 * adds: the SIMD kernels interleave several rows so the chains overlap (one
 * row at a time ran at the add latency: 6% of conv1d_wav_k10s5's bf16 pass).
 */
typedef void (*f32_lanes16_ukernel_fn)(size_t m, size_t n, const float *x, size_t ldx, float *acc);

void f32_lanes16_ukernel__scalar(size_t m, size_t n, const float *x, size_t ldx, float *acc);
void f32_lanes16_ukernel__avx2(size_t m, size_t n, const float *x, size_t ldx, float *acc);
void f32_lanes16_ukernel__avx512(size_t m, size_t n, const float *x, size_t ldx, float *acc);

#endif /* ACLCONV_BIAS_UKERNELS_H_ */
