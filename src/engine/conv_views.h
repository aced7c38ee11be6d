/* Moving data between caller views (any dtype, any strides) and packed fp32
 * buffers, with the precision mode's operand rounding applied on the way in
 * and the output casts on the way out. */
#ifndef ACLCONV_CONV_VIEWS_H_
#define ACLCONV_CONV_VIEWS_H_

#include "planning/conv_problem.h"

/* Offset in elements of element (n, c, d, h, w) of v. */
static inline int64_t conv_view_index(const conv_view *v, int64_t n, int64_t c, int64_t d,
                                      int64_t h, int64_t w)
{
    return n * v->stride[0] + c * v->stride[1] + d * v->stride[2] + h * v->stride[3] +
           w * v->stride[4];
}

/* Rounds an operand value to the precision of mode. */
float conv_round_operand(float v, conv_mode mode);
/* Rounds an accumulated data gradient to the compute dtype of mode. */
float conv_round_result(float v, conv_mode mode);

/* Copies spatial block (n, c) of v into dst (contiguous D*H*W fp32), rounding
 * every value with conv_round_operand(mode). */
void conv_pack_block(const conv_view *v, int64_t n, int64_t c, conv_mode mode, float *dst);

/* Writes zeros (in v's dtype) to every element of v. */
void conv_view_zero(const conv_view *v);

#endif /* ACLCONV_CONV_VIEWS_H_ */
