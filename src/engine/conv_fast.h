/* The fast engine: SIMD microkernels over flattened padded rows (see
 * src/engine/conv_fast.c, conv_fast_internal.h for its files, and
 * docs/kernels.md). */
#ifndef ACLCONV_CONV_FAST_H_
#define ACLCONV_CONV_FAST_H_

#include "engine/conv_impl.h"

/* Most kernel taps (KD*KH*KW) a fast plan handles. */
#define FAST_MAX_TAPS 512
/* Fewest CG*OG per group the spatial kernels take (depthwise goes elsewhere). */
#define FAST_MIN_CHANNEL_PRODUCT 1
/* Largest H / W stride of the phase split. */
#define FAST_MAX_STRIDE 32
/* Largest kernel size per dim. */
#define FAST_MAX_K 32
/* Most output phases (product of strides) of a fast gradInput. */
#define FAST_MAX_SUBS 16

/* Stride-1 data pass (F, and D as F) and weights pass. */
extern const conv_impl conv_impl_fast;

#endif /* ACLCONV_CONV_FAST_H_ */
