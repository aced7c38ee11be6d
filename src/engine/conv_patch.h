/* gradInput of patch convolutions: every dim's receptive field fits in its
 * stride (dil * (k - 1) < stride, as in ViT's 16 x 16 / stride 16 patch
 * embedding), so each gradInput element is read by at most one tap and
 * gradInput is a 1x1 gradInput of C * taps channels spread back into the
 * patches (src/engine/conv_patch.c). */
#ifndef ACLCONV_CONV_PATCH_H_
#define ACLCONV_CONV_PATCH_H_

#include "engine/conv_impl.h"

/* Columns (images x C*taps x positions of gradOutput) of one run of the 1x1
 * pass: a chunk of images at most this many floats (one image at least). */
#define PATCH_COLS_FLOATS (1 << 20)

extern const conv_impl conv_impl_patch;

#endif /* ACLCONV_CONV_PATCH_H_ */
