/* The row kernel of gradBias (src/engine/conv_bias.c). */
#ifndef ACLCONV_BIAS_UKERNELS_H_
#define ACLCONV_BIAS_UKERNELS_H_

#include <stddef.h>

/*
 * 16-lane row sum ("lanes16"): acc[k % 16] += x[k] for k < n, each lane in
 * ascending k, one add per element (no FMA, no reassociation), so every ISA
 * gives the same bits. Lanes that receive no element are left as they are
 * (a -0 stays -0). Any n >= 0; reads exactly x[0..n).
 */
typedef void (*f32_lanes16_ukernel_fn)(size_t n, const float *x, float *acc);

void f32_lanes16_ukernel__scalar(size_t n, const float *x, float *acc);
void f32_lanes16_ukernel__avx2(size_t n, const float *x, float *acc);
void f32_lanes16_ukernel__avx512(size_t n, const float *x, float *acc);

#endif /* ACLCONV_BIAS_UKERNELS_H_ */
