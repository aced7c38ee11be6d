/*
 * Argument validation of aclnnConvolutionBackwardGetWorkspaceSize: CANN's
 * ConvolutionBackwardChecker rules in CANN's order, per emulated SoC, then
 * aclconv's own safety checks (conv_bwd_safety.c).
 *
 * The rule numbers in the comments (A.1, D.4, E0, G.4, ...) are those of
 * /work/shared/spec/convolution-backward-rules.md; docs/validation.md lists the
 * same rules in the same order with their status. Every check is a small pure
 * function: it reads the argument objects (never tensor data), records one
 * message naming the operator, the parameter and the bad value, and returns
 * the status. Every sum and product of caller values is overflow-checked.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl_rt.h"
#include "common/checked.h"
#include "common/dtype.h"
#include "common/log.h"
#include "validation/conv_bwd_internal.h"

/* cubeMathType values (op_api_def_nn.h). */
enum {
    CUBE_KEEP_DTYPE = 0,
    CUBE_ALLOW_FP32_DOWN_PRECISION = 1,
    CUBE_USE_FP16 = 2,
    CUBE_USE_HF32 = 3,
};

/* Tensor ranks of 1-D, 2-D and 3-D convolutions; 2-D may take 4-element padding. */
enum { RANK_1D = 3, RANK_2D = 4, RANK_3D = 5, SPATIAL_OFFSET = 2, PAD4_LEN = 4 };

/* Axis names of the spatial dims, indexed by [rank - RANK_1D][spatial index]. */
static const char *const k_spatial_names[3][3] = {{"L"}, {"H", "W"}, {"D", "H", "W"}};

/* ---- small helpers ------------------------------------------------------ */

const char *conv_bwd_dims_text(const aclTensor *t, char *buf, size_t cap)
{
    size_t used = 0;
    uint64_t n = t->ndim > ACLCONV_MAX_DIMS ? ACLCONV_MAX_DIMS : t->ndim;
    if (cap == 0) return buf;
    buf[0] = '\0';
    int w = snprintf(buf, cap, "[");
    used = w > 0 ? (size_t)w : 0;
    for (uint64_t i = 0; i < n && used < cap; ++i) {
        w = snprintf(buf + used, cap - used, "%s%" PRId64, i ? ", " : "", t->view[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
    if (used < cap) snprintf(buf + used, cap - used, "]");
    return buf;
}

bool conv_bwd_has_zero_dim(const aclTensor *t)
{
    uint64_t n = t->ndim > ACLCONV_MAX_DIMS ? ACLCONV_MAX_DIMS : t->ndim;
    for (uint64_t i = 0; i < n; ++i)
        if (t->view[i] == 0) return true;
    return false;
}

static const char *format_name(aclFormat f)
{
    switch (f) {
    case ACL_FORMAT_UNDEFINED: return "UNDEFINED";
    case ACL_FORMAT_NCHW: return "NCHW";
    case ACL_FORMAT_NHWC: return "NHWC";
    case ACL_FORMAT_ND: return "ND";
    case ACL_FORMAT_NC1HWC0: return "NC1HWC0";
    case ACL_FORMAT_FRACTAL_Z: return "FRACTAL_Z";
    case ACL_FORMAT_NDHWC: return "NDHWC";
    case ACL_FORMAT_NCDHW: return "NCDHW";
    case ACL_FORMAT_NCL: return "NCL";
    default: return "other";
    }
}

/* Dim i of t's view, or -1 if t has no dim i (never read past ndim). */
static int64_t dim(const aclTensor *t, uint64_t i)
{
    return i < t->ndim && i < ACLCONV_MAX_DIMS ? t->view[i] : -1;
}

/* Promote(a, b) restricted to FLOAT/FLOAT16/BF16 (spec §3): equal types stay,
 * any mix promotes to FLOAT (FP32 with anything, FP16 with BF16). */
static aclDataType promote(aclDataType x, aclDataType y)
{
    return x == y ? x : ACL_FLOAT;
}

static aclDataType promoted_dtype(const conv_bwd_args *a)
{
    return promote(promote(a->grad_output->dtype, a->input->dtype), a->weight->dtype);
}

/* X plays "forward input", Y "forward output" (step G). */
static const aclTensor *fwd_in(const conv_bwd_args *a)
{
    return a->transposed ? a->grad_output : a->input;
}
static const aclTensor *fwd_out(const conv_bwd_args *a)
{
    return a->transposed ? a->input : a->grad_output;
}
static const char *fwd_in_name(const conv_bwd_args *a)
{
    return a->transposed ? "gradOutput" : "input";
}
static const char *fwd_out_name(const conv_bwd_args *a)
{
    return a->transposed ? "input" : "gradOutput";
}

typedef struct named_tensor {
    const aclTensor *t;
    const char *name;
} named_tensor;

/* gradOutput, input, weight, gradInput, gradWeight, gradBias (NULL outputs kept). */
static size_t all_tensors(const conv_bwd_args *a, named_tensor out[6])
{
    out[0] = (named_tensor){a->grad_output, "gradOutput"};
    out[1] = (named_tensor){a->input, "input"};
    out[2] = (named_tensor){a->weight, "weight"};
    out[3] = (named_tensor){a->grad_input, "gradInput"};
    out[4] = (named_tensor){a->grad_weight, "gradWeight"};
    out[5] = (named_tensor){a->grad_bias, "gradBias"};
    return 6;
}

/* ---- step A: CheckNotNull → 161001 -------------------------------------- */

static aclnnStatus check_not_null(const conv_bwd_args *a)
{
    /* A.1, in CANN's order; A.4: biasSizes is not checked here. */
    const struct {
        const void *p;
        const char *name;
    } required[] = {
        {a->grad_output, "gradOutput"},
        {a->input, "input"},
        {a->weight, "weight"},
        {a->stride, "stride"},
        {a->padding, "padding"},
        {a->dilation, "dilation"},
        {a->output_padding, "outputPadding"},
        {a->output_mask, "outputMask"},
    };
    for (size_t i = 0; i < ACLCONV_ARRAY_SIZE(required); ++i) {
        if (required[i].p == NULL) {
            aclconv_set_error("%s: %s is nullptr", CONV_BWD_OP, required[i].name);
            return ACLNN_ERR_PARAM_NULLPTR;
        }
    }
    /* A.2 */
    if (a->output_mask->size != MASK_LEN) {
        aclconv_set_error("%s: outputMask has %" PRIu64 " elements, it must have exactly 3",
                          CONV_BWD_OP, a->output_mask->size);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    /* A.3 */
    const struct {
        const void *p;
        const char *name;
    } outs[MASK_LEN] = {
        {a->grad_input, "gradInput"}, {a->grad_weight, "gradWeight"}, {a->grad_bias, "gradBias"}};
    for (int i = 0; i < MASK_LEN; ++i) {
        if (conv_bwd_mask(a, i) && outs[i].p == NULL) {
            aclconv_set_error("%s: outputMask[%d] is true but %s is nullptr", CONV_BWD_OP, i,
                              outs[i].name);
            return ACLNN_ERR_PARAM_NULLPTR;
        }
    }
    return ACLNN_SUCCESS;
}

/* ---- step B: dtype support → 161002 -------------------------------------- */

static bool dtype_supported(aclDataType dt, soc_id soc)
{
    /* B.1: 910B/910_93 {FLOAT, FLOAT16, BF16}; 910/310P {FLOAT, FLOAT16}. */
    if (dt == ACL_FLOAT || dt == ACL_FLOAT16) return true;
    return dt == ACL_BF16 && soc_is_dav2201(soc);
}

static aclnnStatus check_dtypes(const conv_bwd_args *a, soc_id soc)
{
    named_tensor ts[6];
    size_t n = all_tensors(a, ts);
    /* B.1 for the three inputs and every non-null output (mask or not).
     * B.2: on 910B the dtypes need not match each other. */
    for (size_t i = 0; i < n; ++i) {
        if (ts[i].t == NULL) continue;
        if (!dtype_supported(ts[i].t->dtype, soc)) {
            aclconv_set_error("%s: %s has dtype %s (%d), not supported on %s (supported: %s)",
                              CONV_BWD_OP, ts[i].name, dtype_name(ts[i].t->dtype),
                              (int)ts[i].t->dtype, soc_name(soc),
                              soc_is_dav2201(soc) ? "FLOAT, FLOAT16, BFLOAT16" : "FLOAT, FLOAT16");
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    return ACLNN_SUCCESS;
}

/* ---- step C: format → 161002 --------------------------------------------- */

static aclnnStatus check_format(const conv_bwd_args *a, soc_id soc)
{
    named_tensor ts[6];
    all_tensors(a, ts);
    /* C: gradOutput, input, weight, non-null gradInput / gradWeight by rank. */
    for (size_t i = 0; i < 5; ++i) {
        const aclTensor *t = ts[i].t;
        if (t == NULL) continue;
        bool ok;
        const char *want;
        switch (t->ndim) {
        case RANK_1D:
            ok = t->format == ACL_FORMAT_ND || t->format == ACL_FORMAT_NCL;
            want = "ND or NCL";
            break;
        case RANK_2D:
            ok = t->format == ACL_FORMAT_NCHW;
            want = "NCHW";
            break;
        case RANK_3D:
            ok = t->format == ACL_FORMAT_NCDHW;
            want = "NCDHW";
            break;
        default:
            aclconv_set_error("%s: %s has %" PRIu64 " dims, it must have 3 or 4 or 5", CONV_BWD_OP,
                              ts[i].name, t->ndim);
            return ACLNN_ERR_PARAM_INVALID;
        }
        if (!ok) {
            aclconv_set_error("%s: %s has format %s (%d) with %" PRIu64 " dims, a %" PRIu64
                              "-dim tensor must be %s",
                              CONV_BWD_OP, ts[i].name, format_name(t->format), (int)t->format,
                              t->ndim, t->ndim, want);
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    /* C (gradBias): not transposed on 910B/910_93 → ND; else unchecked. */
    if (a->grad_bias != NULL && !a->transposed && soc_is_dav2201(soc) &&
        a->grad_bias->format != ACL_FORMAT_ND) {
        aclconv_set_error("%s: gradBias has format %s (%d), it must be ND", CONV_BWD_OP,
                          format_name(a->grad_bias->format), (int)a->grad_bias->format);
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

/* ---- step D: attribute values (CheckConvParams) → 161002 ----------------- */

static aclnnStatus check_array_min(const aclIntArray *arr, const char *name, int64_t min,
                                   const char *what)
{
    for (uint64_t i = 0; i < arr->size; ++i) {
        if (arr->v[i] < min) {
            aclconv_set_error("%s: %s[%" PRIu64 "] = %" PRId64 ", every %s must be >= %" PRId64,
                              CONV_BWD_OP, name, i, arr->v[i], what, min);
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    return ACLNN_SUCCESS;
}

static aclnnStatus check_attr_values(const conv_bwd_args *a)
{
    aclnnStatus st;
    /* D.1 */
    if ((st = check_array_min(a->stride, "stride", 1, "stride")) != ACLNN_SUCCESS) return st;
    /* D.2 */
    if ((st = check_array_min(a->padding, "padding", 0, "padding")) != ACLNN_SUCCESS) return st;
    /* D.3 */
    if ((st = check_array_min(a->dilation, "dilation", 1, "dilation")) != ACLNN_SUCCESS) return st;
    const aclIntArray *op = a->output_padding;
    if (a->transposed) {
        /* D.4 */
        if ((st = check_array_min(op, "outputPadding", 0, "outputPadding")) != ACLNN_SUCCESS)
            return st;
        if (a->input->ndim == RANK_3D) {
            uint64_t n = ACLCONV_MIN(op->size, a->stride->size);
            for (uint64_t i = 0; i < n; ++i) {
                if (op->v[i] >= a->stride->v[i]) {
                    aclconv_set_error("%s: outputPadding[%" PRIu64 "] = %" PRId64
                                      " must be < stride[%" PRIu64 "] = %" PRId64
                                      " for a 3-D transposed convolution",
                                      CONV_BWD_OP, i, op->v[i], i, a->stride->v[i]);
                    return ACLNN_ERR_PARAM_INVALID;
                }
            }
        }
    } else {
        /* D.5 */
        for (uint64_t i = 0; i < op->size; ++i) {
            if (op->v[i] != 0) {
                aclconv_set_error("%s: outputPadding[%" PRIu64 "] = %" PRId64
                                  ", it must be 0 when transposed is false",
                                  CONV_BWD_OP, i, op->v[i]);
                return ACLNN_ERR_PARAM_INVALID;
            }
        }
    }
    /* D.6 */
    if (a->groups < 1) {
        aclconv_set_error("%s: groups = %d, groups must be >= 1", CONV_BWD_OP, a->groups);
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

/* ---- step E0: cubeMathType → 161002 -------------------------------------- */

static aclnnStatus check_cube_math_type(const conv_bwd_args *a, soc_id soc)
{
    int c = a->cube_math_type;
    if (c < CUBE_KEEP_DTYPE || c > CUBE_USE_HF32) {
        aclconv_set_error("%s: cubeMathType = %d, it must be 0, 1, 2 or 3", CONV_BWD_OP, c);
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (soc_is_dav2201(soc)) return ACLNN_SUCCESS; /* 0..3 all pass on 910B/910_93 */
    /* chips without an fp32 cube (910, 310P) */
    aclDataType p = promoted_dtype(a);
    bool bad = false;
    if (c == CUBE_KEEP_DTYPE || c == CUBE_USE_HF32)
        bad = p == ACL_FLOAT || p == ACL_BF16;
    else
        bad = p == ACL_BF16;
    if (bad) {
        aclconv_set_error("%s: cubeMathType = %d is not supported on %s for promoted dtype %s",
                          CONV_BWD_OP, c, soc_name(soc), dtype_name(p));
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

/* ---- step F: shape / rank (CheckConvShape) → 161002 ---------------------- */

static bool same_view(const aclTensor *x, const aclTensor *y)
{
    if (x->ndim != y->ndim || x->ndim > ACLCONV_MAX_DIMS) return false;
    for (uint64_t i = 0; i < x->ndim; ++i)
        if (x->view[i] != y->view[i]) return false;
    return true;
}

/* F.1 (and the rank check aclconv adds to the empty path). */
static aclnnStatus check_ranks(const conv_bwd_args *a)
{
    if (a->grad_output->ndim != a->input->ndim || a->weight->ndim != a->input->ndim) {
        aclconv_set_error("%s: gradOutput has %" PRIu64 " dims, input %" PRIu64 ", weight %" PRIu64
                          ": they must be equal",
                          CONV_BWD_OP, a->grad_output->ndim, a->input->ndim, a->weight->ndim);
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

/* F.5 / F.6 / E.3: lengths of the attribute arrays for rank. */
static aclnnStatus check_attr_lengths(const conv_bwd_args *a)
{
    uint64_t rank = a->input->ndim, want = rank - SPATIAL_OFFSET;
    const struct {
        const aclIntArray *arr;
        const char *name;
        bool may_be_4;
    } arrs[] = {
        {a->stride, "stride", false},
        {a->dilation, "dilation", false},
        {a->padding, "padding", true},
        {a->output_padding, "outputPadding", true},
    };
    for (size_t i = 0; i < ACLCONV_ARRAY_SIZE(arrs); ++i) {
        uint64_t len = arrs[i].arr->size;
        bool ok = len == want || (arrs[i].may_be_4 && rank == RANK_2D && len == PAD4_LEN);
        if (!ok) {
            aclconv_set_error("%s: %s has %" PRIu64 " elements, it must have %" PRIu64 "%s",
                              CONV_BWD_OP, arrs[i].name, len, want,
                              arrs[i].may_be_4 && rank == RANK_2D ? " or 4" : "");
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    return ACLNN_SUCCESS;
}

static aclnnStatus check_shapes(const conv_bwd_args *a)
{
    char b1[DIMS_TEXT_CAP], b2[DIMS_TEXT_CAP];
    aclnnStatus st;
    /* F.1 */
    if ((st = check_ranks(a)) != ACLNN_SUCCESS) return st;
    /* F.2 */
    if (conv_bwd_has_zero_dim(a->grad_output) || conv_bwd_has_zero_dim(a->weight)) {
        const aclTensor *t = conv_bwd_has_zero_dim(a->grad_output) ? a->grad_output : a->weight;
        aclconv_set_error("%s: %s %s is empty, gradOutput and weight must not be empty",
                          CONV_BWD_OP, t == a->weight ? "weight" : "gradOutput",
                          conv_bwd_dims_text(t, b1, sizeof b1));
        return ACLNN_ERR_PARAM_INVALID;
    }
    /* F.3 */
    if (a->grad_input != NULL && !same_view(a->grad_input, a->input)) {
        aclconv_set_error("%s: gradInput shape %s differs from input shape %s", CONV_BWD_OP,
                          conv_bwd_dims_text(a->grad_input, b1, sizeof b1),
                          conv_bwd_dims_text(a->input, b2, sizeof b2));
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (a->grad_weight != NULL && !same_view(a->grad_weight, a->weight)) {
        aclconv_set_error("%s: gradWeight shape %s differs from weight shape %s", CONV_BWD_OP,
                          conv_bwd_dims_text(a->grad_weight, b1, sizeof b1),
                          conv_bwd_dims_text(a->weight, b2, sizeof b2));
        return ACLNN_ERR_PARAM_INVALID;
    }
    /* F.4 (both modes: length = C of gradOutput) */
    if (a->grad_bias != NULL &&
        (a->grad_bias->ndim != 1 || a->grad_bias->view[0] != a->grad_output->view[1])) {
        aclconv_set_error("%s: gradBias shape %s must be [%" PRId64 "] (C of gradOutput)",
                          CONV_BWD_OP, conv_bwd_dims_text(a->grad_bias, b1, sizeof b1),
                          a->grad_output->view[1]);
        return ACLNN_ERR_PARAM_INVALID;
    }
    /* F.5, F.6; F.7: biasSizes is not checked on this path. */
    return check_attr_lengths(a);
}

/* ---- step G: channels & groups → 161002 ---------------------------------- */

static aclnnStatus check_channels(const conv_bwd_args *a)
{
    const aclTensor *x = fwd_in(a), *y = fwd_out(a), *w = a->weight;
    int64_t xc = x->view[1], yc = y->view[1], w0 = w->view[0], w1 = w->view[1];
    int64_t g = a->groups;
    /* G.1 */
    if (yc != w0) {
        aclconv_set_error("%s: %s channels = %" PRId64 " must equal weight.shape[0] = %" PRId64,
                          CONV_BWD_OP, fwd_out_name(a), yc, w0);
        return ACLNN_ERR_PARAM_INVALID;
    }
    /* G.2 */
    if (w1 <= 0 || xc % w1 != 0) { /* (w1 < 0 cannot come from aclCreateTensor) */
        aclconv_set_error("%s: %s channels = %" PRId64
                          " must be a multiple of weight.shape[1] = %" PRId64,
                          CONV_BWD_OP, fwd_in_name(a), xc, w1);
        return ACLNN_ERR_PARAM_INVALID;
    }
    /* G.3 */
    if (xc / w1 != g) {
        aclconv_set_error("%s: groups = %d but %s channels / weight.shape[1] = %" PRId64
                          " / %" PRId64 " = %" PRId64,
                          CONV_BWD_OP, a->groups, fwd_in_name(a), xc, w1, xc / w1);
        return ACLNN_ERR_PARAM_INVALID;
    }
    /* G.4 (depthwise-like) */
    if (xc == g && (yc < g || yc % g != 0)) {
        aclconv_set_error("%s: depthwise (groups = %d = %s channels): %s channels = %" PRId64
                          " must be a positive multiple of groups",
                          CONV_BWD_OP, a->groups, fwd_in_name(a), fwd_out_name(a), yc);
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

/* ---- step H: spatial consistency → 161002 -------------------------------- */

/* Padding before and after spatial dim i: both padding[i], or for 2-D with a
 * 4-element padding [top, bottom, left, right] the matching pair. */
static void pad_pair(const conv_bwd_args *a, uint64_t i, int64_t *head, int64_t *tail)
{
    const aclIntArray *p = a->padding;
    if (a->input->ndim == RANK_2D && p->size == PAD4_LEN) {
        *head = p->v[2 * i];
        *tail = p->v[2 * i + 1];
    } else {
        *head = *tail = p->v[i];
    }
}

/*
 * For spatial dim i: span = X_i + head + tail, eff = (k_i - 1)*dil_i + 1.
 * Fails ("formula one") if span < eff; if want_y, also if
 * (span - eff)/stride_i + 1 != Y_i. All arithmetic checked.
 */
static aclnnStatus check_spatial_dim(const conv_bwd_args *a, uint64_t i, bool want_y)
{
    const aclTensor *x = fwd_in(a), *y = fwd_out(a);
    uint64_t d = SPATIAL_OFFSET + i;
    int64_t xi = dim(x, d), ki = dim(a->weight, d), yi = dim(y, d);
    int64_t dil = a->dilation->v[i], s = a->stride->v[i];
    int64_t head, tail, span, eff, km1;
    const char *axis = k_spatial_names[a->input->ndim - RANK_1D][i];
    pad_pair(a, i, &head, &tail);
    if (xi < 0 || ki < 0 || !checked_add_i64(xi, head, &span) ||
        !checked_add_i64(span, tail, &span) || !checked_mul_i64(ki - 1, dil, &km1) ||
        !checked_add_i64(km1, 1, &eff)) {
        aclconv_set_error("%s: spatial dim %s: %s = %" PRId64 " + padding %" PRId64 "/%" PRId64
                          ", kernel %" PRId64 " with dilation %" PRId64 " overflows int64",
                          CONV_BWD_OP, axis, fwd_in_name(a), xi, head, tail, ki, dil);
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (span < eff) {
        aclconv_set_error("%s: spatial dim %s: %s size %" PRId64 " + padding %" PRId64 " + %" PRId64
                          " = %" PRId64 " is smaller than the dilated kernel "
                          "(weight %" PRId64 " - 1) * dilation %" PRId64 " + 1 = %" PRId64,
                          CONV_BWD_OP, axis, fwd_in_name(a), xi, head, tail, span, ki, dil, eff);
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (!want_y) return ACLNN_SUCCESS;
    /* eff > INT64_MIN (km1 >= -dil), so -eff exists; s >= 1 (D.1) */
    int64_t diff, expect;
    if (!checked_add_i64(span, -eff, &diff) || !checked_add_i64(diff / s, 1, &expect)) {
        aclconv_set_error("%s: spatial dim %s: the output size of %s = %" PRId64
                          " with kernel %" PRId64 " overflows int64",
                          CONV_BWD_OP, axis, fwd_in_name(a), xi, ki);
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (expect != yi) {
        aclconv_set_error("%s: spatial dim %s: %s size %" PRId64 " does not match %s size %" PRId64
                          " (kernel %" PRId64 ", stride %" PRId64 ", padding %" PRId64 "/%" PRId64
                          ", dilation %" PRId64 " give %" PRId64 ")",
                          CONV_BWD_OP, axis, fwd_out_name(a), yi, fwd_in_name(a), xi, ki, s, head,
                          tail, dil, expect);
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

static aclnnStatus check_spatial(const conv_bwd_args *a)
{
    /* H (5-D: CANN's CheckConvShapePlus, symmetric 2*padding[i]); aclconv applies
     * the same rule to 3-D and 4-D tensors (head/tail padding), see
     * docs/validation.md. */
    uint64_t nsp = a->input->ndim - SPATIAL_OFFSET;
    for (uint64_t i = 0; i < nsp; ++i) {
        aclnnStatus st = check_spatial_dim(a, i, true);
        if (st != ACLNN_SUCCESS) return st;
    }
    return ACLNN_SUCCESS;
}

/* ---- §2: empty-tensor rules → 161002 ------------------------------------- */

static aclnnStatus check_empty_tensor(const conv_bwd_args *a)
{
    aclnnStatus st;
    const aclTensor *in = a->input, *w = a->weight;
    char b1[DIMS_TEXT_CAP];
    /* aclconv addition: E.4-E.6 index gradOutput/weight by input's rank. */
    if ((st = check_ranks(a)) != ACLNN_SUCCESS) return st;
    /* E.1 */
    if (conv_bwd_mask(a, MASK_GRAD_BIAS)) {
        const aclIntArray *bs = a->bias_sizes;
        if (bs == NULL) {
            aclconv_set_error("%s: biasSizes is nullptr, it is required with empty tensors "
                              "when outputMask[2] is true",
                              CONV_BWD_OP);
            return ACLNN_ERR_PARAM_INVALID;
        }
        if (bs->size != 1) {
            aclconv_set_error("%s: biasSizes has %" PRIu64 " elements, it must have 1", CONV_BWD_OP,
                              bs->size);
            return ACLNN_ERR_PARAM_INVALID;
        }
        int64_t want;
        if (!a->transposed) {
            want = a->grad_output->view[1];
        } else if (!checked_mul_i64(w->view[1], a->groups, &want)) {
            aclconv_set_error("%s: weight.shape[1] = %" PRId64 " * groups = %d overflows",
                              CONV_BWD_OP, w->view[1], a->groups);
            return ACLNN_ERR_PARAM_INVALID;
        }
        if (bs->v[0] != want) {
            aclconv_set_error("%s: biasSizes[0] = %" PRId64 " must be %" PRId64 " (%s)",
                              CONV_BWD_OP, bs->v[0], want,
                              a->transposed ? "weight.shape[1] * groups" : "C of gradOutput");
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    /* E.2 */
    if (conv_bwd_mask(a, MASK_GRAD_INPUT) &&
        !(in->ndim > SPATIAL_OFFSET && (in->view[0] == 0 || in->view[1] == 0))) {
        aclconv_set_error("%s: input %s: with empty tensors and outputMask[0] true only N or C "
                          "of input may be 0",
                          CONV_BWD_OP, conv_bwd_dims_text(in, b1, sizeof b1));
        return ACLNN_ERR_PARAM_INVALID;
    }
    /* E.3 */
    if ((st = check_attr_lengths(a)) != ACLNN_SUCCESS) return st;
    /* E.4 */
    if (w->view[0] % a->groups != 0) {
        aclconv_set_error("%s: weight.shape[0] = %" PRId64 " is not a multiple of groups = %d",
                          CONV_BWD_OP, w->view[0], a->groups);
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (!(a->transposed && in->view[0] == 0)) {
        int64_t xc = fwd_in(a)->view[1], w1 = w->view[1];
        if ((xc != 0 || w1 != 0) && (w1 <= 0 || xc % w1 != 0 || xc / w1 != a->groups)) {
            aclconv_set_error("%s: groups = %d does not match %s channels = %" PRId64
                              " / weight.shape[1] = %" PRId64,
                              CONV_BWD_OP, a->groups, fwd_in_name(a), xc, w1);
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    if (a->transposed) {
        /* E.5 */
        if (w->view[0] <= 0 || w->view[0] != in->view[1]) {
            aclconv_set_error("%s: transposed: weight.shape[0] = %" PRId64
                              " must be > 0 and equal input channels = %" PRId64,
                              CONV_BWD_OP, w->view[0], in->view[1]);
            return ACLNN_ERR_PARAM_INVALID;
        }
    } else {
        /* E.6 (formula one only; gradOutput's spatial size is not checked) */
        uint64_t nsp = in->ndim - SPATIAL_OFFSET;
        for (uint64_t i = 0; i < nsp; ++i)
            if ((st = check_spatial_dim(a, i, false)) != ACLNN_SUCCESS) return st;
    }
    return ACLNN_SUCCESS;
}

/* ---- step I: after CheckParams ------------------------------------------- */

/* I.1: determinism with grouped 3-D dW on chips other than 910B. */
static aclnnStatus check_determinism(const conv_bwd_args *a, soc_id soc)
{
    if (soc_is_dav2201(soc) || !conv_bwd_mask(a, MASK_GRAD_WEIGHT) || a->input->ndim != RANK_3D ||
        a->groups <= 1)
        return ACLNN_SUCCESS;
    int64_t det = 0;
    if (aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &det) != ACL_SUCCESS) det = 0;
    if (det == 1) {
        aclconv_set_error("%s: deterministic mode with groups = %d is not supported for a 3-D "
                          "gradWeight on %s",
                          CONV_BWD_OP, a->groups, soc_name(soc));
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

/* I.3, I.4: the 3-D path exists only on 910B/910_93. */
static aclnnStatus check_dispatch(const conv_bwd_args *a, soc_id soc)
{
    if (a->input->ndim == RANK_3D && !soc_is_dav2201(soc)) {
        aclconv_set_error("%s: input has 5 dims: 3-D convolution backward is not supported on %s",
                          CONV_BWD_OP, soc_name(soc));
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

/* I.5: grouped 3-D dW into a FLOAT gradWeight on 910B (5-D tensors only, see
 * docs/validation.md). */
static aclnnStatus check_3d_group_fp32_weight(const conv_bwd_args *a, soc_id soc)
{
    if (!soc_is_dav2201(soc) || a->input->ndim != RANK_3D || !conv_bwd_mask(a, MASK_GRAD_WEIGHT) ||
        a->groups <= 1 || a->grad_weight->dtype != ACL_FLOAT)
        return ACLNN_SUCCESS;
    if (a->cube_math_type == CUBE_USE_FP16) {
        aclconv_set_error("%s: cubeMathType = 2 (USE_FP16) is not supported for a 3-D FLOAT "
                          "gradWeight with groups = %d",
                          CONV_BWD_OP, a->groups);
        return ACLNN_ERR_PARAM_INVALID;
    }
    aclDataType p = promoted_dtype(a);
    if (p == ACL_FLOAT16 || p == ACL_BF16) {
        aclconv_set_error("%s: promoted dtype %s with a 3-D FLOAT gradWeight and groups = %d is "
                          "not supported",
                          CONV_BWD_OP, dtype_name(p), a->groups);
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

/* ---- the entry ------------------------------------------------------------ */

aclnnStatus conv_bwd_validate(const conv_bwd_args *a, soc_id soc, bool *empty)
{
    aclnnStatus st;
    if (empty != NULL) *empty = false;
    if (a == NULL) {
        aclconv_set_error("%s: internal: no arguments", CONV_BWD_OP);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
#define RUN(check)                                                                                 \
    do {                                                                                           \
        if ((st = (check)) != ACLNN_SUCCESS) return st;                                            \
    } while (0)

    RUN(check_not_null(a));            /* A */
    RUN(check_dtypes(a, soc));         /* B */
    RUN(check_format(a, soc));         /* C */
    RUN(check_attr_values(a));         /* D */
    RUN(check_cube_math_type(a, soc)); /* E0 */

    bool in_empty = conv_bwd_has_zero_dim(a->input), w_empty = conv_bwd_has_zero_dim(a->weight);
    /* E1: early exit of CheckParams for empty input/weight on 910B/910_93. */
    if (!(soc_is_dav2201(soc) && (in_empty || w_empty))) {
        RUN(check_shapes(a));   /* F */
        RUN(check_channels(a)); /* G */
        RUN(check_spatial(a));  /* H (+ aclconv's 3-D/4-D extension) */
    }
    RUN(check_determinism(a, soc)); /* I.1 */
    /* I.2 */
    bool is_empty = in_empty || w_empty || conv_bwd_has_zero_dim(a->grad_output);
    if (is_empty) {
        RUN(check_empty_tensor(a)); /* §2 */
    } else {
        RUN(check_dispatch(a, soc));             /* I.3, I.4 */
        RUN(check_3d_group_fp32_weight(a, soc)); /* I.5 */
    }
    RUN(conv_bwd_check_safety(a, is_empty)); /* aclconv additions */
#undef RUN
    if (empty != NULL) *empty = is_empty;
    return ACLNN_SUCCESS;
}
