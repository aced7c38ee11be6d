/* Internal helpers shared by the files of src/validation/ (not used elsewhere). */
#ifndef ACLCONV_CONV_BWD_INTERNAL_H_
#define ACLCONV_CONV_BWD_INTERNAL_H_

#include <stddef.h>

#include "api/objects.h"
#include "common/common.h"
#include "validation/conv_bwd_check.h"

/* Every message starts with the operator name. */
#define CONV_BWD_OP "aclnnConvolutionBackward"

/* Index of the three outputs in outputMask. */
enum { MASK_GRAD_INPUT = 0, MASK_GRAD_WEIGHT = 1, MASK_GRAD_BIAS = 2, MASK_LEN = 3 };

/* Room for "[d0, d1, ..., d7]" with 20-character dims. */
enum { DIMS_TEXT_CAP = ACLCONV_MAX_DIMS * 22 + 4 };

/* Writes the view shape of t as "[a, b, c]" into buf (cap bytes); returns buf. */
const char *conv_bwd_dims_text(const aclTensor *t, char *buf, size_t cap);

/* true when some view dim of t is 0 (the tensor has no element, however large
 * the other dims are). */
bool conv_bwd_has_zero_dim(const aclTensor *t);

/* outputMask[i] (outputMask has exactly 3 entries once step A passed). */
static inline bool conv_bwd_mask(const conv_bwd_args *a, int i)
{
    return a->output_mask->v[i];
}

/*
 * aclconv's own safety checks, run after every CANN rule (docs/validation.md,
 * section "aclconv additions"). empty_path: the empty-tensor rules were
 * applied instead of the shape rules F-H.
 */
aclnnStatus conv_bwd_check_safety(const conv_bwd_args *a, bool empty_path);

#endif /* ACLCONV_CONV_BWD_INTERNAL_H_ */
