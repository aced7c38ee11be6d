/* The canonical convolution problem every implementation works on.
 *
 * Any accepted call is rewritten, once, as a regular (non-transposed) 3-D
 * convolution y = conv(x, w) with groups, plus the list of gradients wanted:
 *   x [N, G*CG, XD, XH, XW],  w [G*OG, CG, KD, KH, KW],  y [N, G*OG, YD, YH, YW].
 * 1-D and 2-D calls get unit leading spatial dims. A transposed call swaps
 * roles: x is gradOutput and y is input, because a transposed convolution is
 * the input-gradient of a regular one with the same weight layout. Then
 *   not transposed: gradInput = D(dy = y, w)      (x-shaped)
 *   transposed:     gradInput = F(x, w)           (y-shaped, a forward conv)
 *   both:           gradWeight = W(x, dy = y),   gradBias = sum of gradOutput.
 */
#ifndef ACLCONV_CONV_PROBLEM_H_
#define ACLCONV_CONV_PROBLEM_H_

#include "common/common.h"
#include "validation/conv_bwd_check.h"

#define CONV_SPATIAL 3 /* D, H, W */
#define CONV_VIEW_DIMS 5 /* N, C, D, H, W */

/* The precision the products are computed in (cubeMathType resolved). */
typedef enum {
    CONV_MODE_F32,  /* fp32 operands */
    CONV_MODE_HF32, /* operands rounded to 11 mantissa bits */
    CONV_MODE_F16,  /* operands rounded to fp16; gradInput rounded to fp16 */
    CONV_MODE_BF16  /* operands bf16; gradInput rounded to bf16 */
} conv_mode;

/* A tensor view as 5 dims [N, C, D, H, W]; data points at element (0,...,0).
 * data is NULL for an output that is not requested. */
typedef struct conv_view {
    char *data;
    aclDataType dtype;
    int64_t dim[CONV_VIEW_DIMS];
    int64_t stride[CONV_VIEW_DIMS]; /* elements */
} conv_view;

typedef enum { CONV_DIR_FWD, CONV_DIR_BWD_DATA } conv_data_dir;

typedef struct conv_problem {
    int rank;          /* spatial rank of the call: 1, 2 or 3 */
    bool transposed;   /* of the call; roles below are already swapped */
    bool empty;        /* an input has no element: only zero fills remain */
    int64_t n, g, cg, og;
    int64_t xs[CONV_SPATIAL], ys[CONV_SPATIAL], ks[CONV_SPATIAL];
    int64_t stride[CONV_SPATIAL], dil[CONV_SPATIAL], pad[CONV_SPATIAL]; /* pad: head side */
    conv_mode mode;
    conv_data_dir data_dir; /* how gradInput is computed */
    conv_view x, y, w;      /* operands in regular-convolution roles */
    conv_view grad_input;   /* x-shaped for D, y-shaped for F */
    conv_view grad_weight;  /* w-shaped */
    conv_view grad_bias;    /* [1, C, 1, 1, 1] */
    conv_view bias_src;     /* gradOutput: y, or x when transposed */
} conv_problem;

/* Fills p from arguments that conv_bwd_validate accepted. */
void conv_problem_init(conv_problem *p, const conv_bwd_args *a, soc_id soc, bool empty);

/* One-line description for messages and logs. */
void conv_problem_describe(const conv_problem *p, char *buf, size_t size);

static inline int64_t conv_view_numel(const conv_view *v)
{
    int64_t n = 1;
    for (int i = 0; i < CONV_VIEW_DIMS; ++i) n *= v->dim[i]; /* validated: no overflow */
    return n;
}

#endif /* ACLCONV_CONV_PROBLEM_H_ */
