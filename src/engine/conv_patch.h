/* The passes the fast engine declines by its limits (more output phases, a
 * larger stride or kernel side than it takes), as its own 1x1 passes over
 * columns of patches (src/engine/conv_patch.c):
 * - D's gradInput (a regular call): the 1x1 gradInput of C * taps channels,
 *   its columns spread (or, where patches overlap, summed) into gradInput's
 *   patches. ViT's 16 x 16 / stride 16 patch embedding (256 output phases)
 *   is the case it was written for;
 * - gradWeight and F's gradInput (a transposed call): x's patches copied as
 *   columns, then the 1x1 weights / forward pass over them. */
#ifndef ACLCONV_CONV_PATCH_H_
#define ACLCONV_CONV_PATCH_H_

#include "engine/conv_impl.h"

/* Columns (images x C*taps x positions of gradOutput) of one run of the 1x1
 * pass: a chunk of images at most this many elements; for D's gradInput an
 * image of more is run a block of channels at a time, elsewhere declined
 * (the workspace stays a few MiB: a 31 x 31 depthwise layer on 56 x 56
 * planes would take 1.4 GiB of columns an image). */
#define PATCH_COLS_FLOATS (1 << 20)

extern const conv_impl conv_impl_patch;

#endif /* ACLCONV_CONV_PATCH_H_ */
