#include "planning/conv_problem.h"

#include <stdio.h>
#include <string.h>

#include "api/objects.h"
#include "common/checked.h"

/* Promotion among the float dtypes: equal stays, FLOAT wins, FP16+BF16 -> FLOAT. */
static aclDataType promote(aclDataType a, aclDataType b)
{
    return a == b ? a : ACL_FLOAT;
}

enum { CUBE_KEEP_DTYPE = 0, CUBE_ALLOW_FP32_DOWN = 1, CUBE_USE_FP16 = 2, CUBE_USE_HF32 = 3 };

static conv_mode resolve_mode(aclDataType promoted, int8_t cube, soc_id soc)
{
    if (cube == CUBE_USE_FP16) return CONV_MODE_F16;
    if (promoted == ACL_FLOAT16) return CONV_MODE_F16;
    if (promoted == ACL_BF16) return CONV_MODE_BF16;
    /* FLOAT: DAV_2201 has an fp32 cube with an HF32 mode; the others
     * only accept (validation) ALLOW_FP32_DOWN_PRECISION, meaning fp16. */
    if (cube == CUBE_ALLOW_FP32_DOWN) return soc_is_dav2201(soc) ? CONV_MODE_HF32 : CONV_MODE_F16;
    if (cube == CUBE_USE_HF32) return CONV_MODE_HF32;
    return CONV_MODE_F32;
}

/* Maps a 3-, 4- or 5-D tensor (or the 1-D gradBias) onto [N, C, D, H, W]
 * with unit dims in front of the spatial ones. A tensor that is NULL or not
 * wanted gives a unit view with data NULL. */
static conv_view view_of(const aclTensor *t, bool wanted)
{
    conv_view v;
    memset(&v, 0, sizeof v);
    for (int i = 0; i < CONV_VIEW_DIMS; ++i) v.dim[i] = 1;
    /* Outputs not requested are never touched, whatever their rank. */
    if (t == NULL || !wanted || t->ndim < 1 || t->ndim > CONV_VIEW_DIMS) return v;
    int nd = (int)t->ndim;
    int lead = CONV_VIEW_DIMS - nd; /* unit dims inserted after N, C */
    for (int i = 0; i < nd; ++i) {
        int j = i < 2 ? i : i + lead;
        v.dim[j] = t->view[i];
        v.stride[j] = t->stride[i];
    }
    if (nd == 1) { /* gradBias [C] -> [1, C, 1, 1, 1] */
        v.dim[0] = 1;
        v.dim[1] = t->view[0];
        v.stride[0] = 0;
        v.stride[1] = t->stride[0];
        for (int j = 2; j < CONV_VIEW_DIMS; ++j) v.dim[j] = 1, v.stride[j] = 0;
    }
    /* A unit dim is never stepped along, so its stride is arbitrary (the
     * fuzzer passes 2^61); give it the packed value, so no later size or
     * span computation sees it and dense layouts stay recognizable. */
    for (int j = CONV_VIEW_DIMS - 1; j >= 0; --j) {
        if (v.dim[j] != 1) continue;
        if (j == CONV_VIEW_DIMS - 1 ||
            !checked_mul_i64(v.dim[j + 1], v.stride[j + 1], &v.stride[j]))
            v.stride[j] = j == CONV_VIEW_DIMS - 1 ? 1 : 0;
    }
    v.dtype = t->dtype;
    if (t->data != NULL)
        v.data = (char *)t->data + t->offset * (int64_t)aclDataTypeSize(t->dtype);
    return v;
}

void conv_problem_init(conv_problem *p, const conv_bwd_args *a, soc_id soc, bool empty)
{
    memset(p, 0, sizeof *p);
    const bool *mask = a->output_mask->v;
    int nd = (int)a->input->ndim;
    p->rank = nd - 2;
    p->transposed = a->transposed;
    p->empty = empty;

    const aclTensor *x = a->transposed ? a->grad_output : a->input;
    const aclTensor *y = a->transposed ? a->input : a->grad_output;
    p->x = view_of(x, true);
    p->y = view_of(y, true);
    p->w = view_of(a->weight, true);
    p->bias_src = view_of(a->grad_output, true);
    p->grad_input = view_of(a->grad_input, mask[0]);
    p->grad_weight = view_of(a->grad_weight, mask[1]);
    p->grad_bias = view_of(a->grad_bias, mask[2]);
    p->data_dir = a->transposed ? CONV_DIR_FWD : CONV_DIR_BWD_DATA;

    p->n = p->x.dim[0];
    p->g = a->groups;
    p->cg = p->w.dim[1];
    p->og = p->g > 0 ? p->w.dim[0] / p->g : 0;
    int lead = CONV_SPATIAL - p->rank;
    for (int i = 0; i < CONV_SPATIAL; ++i) {
        p->xs[i] = p->x.dim[2 + i];
        p->ys[i] = p->y.dim[2 + i];
        p->ks[i] = p->w.dim[2 + i];
        p->stride[i] = 1;
        p->dil[i] = 1;
        p->pad[i] = 0;
    }
    for (int i = 0; i < p->rank; ++i) {
        p->stride[lead + i] = a->stride->v[i];
        p->dil[lead + i] = a->dilation->v[i];
        /* 2-D 4-element padding is [top, bottom, left, right]: heads at 0, 2 */
        p->pad[lead + i] = a->padding->size == 4 ? a->padding->v[2 * i] : a->padding->v[i];
    }

    aclDataType promoted =
        promote(promote(a->grad_output->dtype, a->input->dtype), a->weight->dtype);
    p->mode = resolve_mode(promoted, a->cube_math_type, soc);
}

static const char *mode_name(conv_mode m)
{
    switch (m) {
    case CONV_MODE_HF32: return "hf32";
    case CONV_MODE_F16: return "f16";
    case CONV_MODE_BF16: return "bf16";
    default: return "f32";
    }
}

void conv_problem_describe(const conv_problem *p, char *buf, size_t size)
{
    snprintf(buf, size,
             "rank=%d t=%d n=%lld g=%lld cg=%lld og=%lld x=%lldx%lldx%lld y=%lldx%lldx%lld "
             "k=%lldx%lldx%lld s=%lldx%lldx%lld d=%lldx%lldx%lld p=%lldx%lldx%lld mode=%s",
             p->rank, (int)p->transposed, (long long)p->n, (long long)p->g, (long long)p->cg,
             (long long)p->og, (long long)p->xs[0], (long long)p->xs[1], (long long)p->xs[2],
             (long long)p->ys[0], (long long)p->ys[1], (long long)p->ys[2], (long long)p->ks[0],
             (long long)p->ks[1], (long long)p->ks[2], (long long)p->stride[0],
             (long long)p->stride[1], (long long)p->stride[2], (long long)p->dil[0],
             (long long)p->dil[1], (long long)p->dil[2], (long long)p->pad[0],
             (long long)p->pad[1], (long long)p->pad[2], mode_name(p->mode));
}
