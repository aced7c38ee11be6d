/*
 * aclconv's own checks of aclnnConvolutionBackward arguments, run after every
 * CANN rule passed (docs/validation.md, "aclconv additions", S.1-S.6). CANN
 * trusts the caller here (the NPU faults or reads garbage); aclconv rejects
 * with ACLNN_ERR_PARAM_INVALID so that nothing outside the caller's buffers is
 * ever read or written.
 */
#include <inttypes.h>
#include <stdio.h>

#include "common/checked.h"
#include "common/log.h"
#include "validation/conv_bwd_internal.h"

/* The memory one tensor's view touches. */
typedef struct extent {
    const aclTensor *t;
    const char *name;
    int64_t numel; /* elements of the view */
    bool is_input; /* gradOutput, input or weight */
    bool written;  /* an output whose mask entry is true, with elements */
    uintptr_t lo;  /* byte range [lo, hi) from the first to past the last element */
    uintptr_t hi;
} extent;

/* Element size of the dtypes that pass step B (FLOAT, FLOAT16, BF16). */
static int64_t elem_size(aclDataType dt)
{
    return dt == ACL_FLOAT ? 4 : 2;
}

/* Product of dims (0 when one is 0, however large the others); false on a
 * negative dim or int64 overflow. */
static bool count_elems(const int64_t *dims, uint64_t n, int64_t *r)
{
    bool zero = false;
    for (uint64_t i = 0; i < n; ++i) {
        if (dims[i] < 0) return false; /* (aclCreateTensor never makes one) */
        zero |= dims[i] == 0;
    }
    if (zero) {
        *r = 0;
        return true;
    }
    return checked_numel(dims, n, r);
}

/* S.1 (element count and byte size) and S.2 (view inside storage) for t. */
static aclnnStatus check_tensor_memory(const aclTensor *t, const char *name, extent *e)
{
    char b[DIMS_TEXT_CAP];
    int64_t esize = elem_size(t->dtype), numel, bytes, storage;
    e->t = t;
    e->name = name;
    e->numel = 0;
    e->is_input = false;
    e->written = false;
    e->lo = e->hi = 0;
    if (t->ndim > ACLCONV_MAX_DIMS || t->storage_ndim > ACLCONV_MAX_DIMS) {
        aclconv_set_error("%s: %s has %" PRIu64 " view / %" PRIu64 " storage dims, at most %d",
                          CONV_BWD_OP, name, t->ndim, t->storage_ndim, ACLCONV_MAX_DIMS);
        return ACLNN_ERR_PARAM_INVALID;
    }
    /* S.1 */
    if (!count_elems(t->view, t->ndim, &numel) || !checked_mul_i64(numel, esize, &bytes) ||
        (uint64_t)bytes > SIZE_MAX) {
        aclconv_set_error("%s: %s shape %s: a dim is negative or its element count or byte "
                          "size overflows",
                          CONV_BWD_OP, name, conv_bwd_dims_text(t, b, sizeof b));
        return ACLNN_ERR_PARAM_INVALID;
    }
    e->numel = numel;
    /* S.2 */
    if (!count_elems(t->storage, t->storage_ndim, &storage) ||
        !checked_mul_i64(storage, esize, &bytes) || (uint64_t)bytes > SIZE_MAX) {
        aclconv_set_error("%s: %s: a storage dim is negative or the element count or byte size "
                          "of its storage overflows",
                          CONV_BWD_OP, name);
        return ACLNN_ERR_PARAM_INVALID;
    }
    /* offset in bytes must be representable even for an empty view (later
     * layers form data + offset * esize) */
    int64_t offset_bytes;
    if (t->offset < 0 || !checked_mul_i64(t->offset, esize, &offset_bytes)) {
        aclconv_set_error("%s: %s offset %" PRId64 " is negative or its byte offset overflows",
                          CONV_BWD_OP, name, t->offset);
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (numel == 0) return ACLNN_SUCCESS;
    if (t->data == NULL) {
        aclconv_set_error("%s: %s has %" PRId64 " elements but its data is NULL", CONV_BWD_OP, name,
                          numel);
        return ACLNN_ERR_PARAM_INVALID;
    }
    int64_t last = t->offset;
    bool ok = t->offset >= 0;
    for (uint64_t i = 0; ok && i < t->ndim; ++i) {
        int64_t step;
        ok = t->stride[i] >= 0 && checked_mul_i64(t->view[i] - 1, t->stride[i], &step) &&
             checked_add_i64(last, step, &last);
    }
    if (!ok || last >= storage) {
        aclconv_set_error(
            "%s: %s view %s (offset %" PRId64 ") reaches past its storage of %" PRId64 " elements",
            CONV_BWD_OP, name, conv_bwd_dims_text(t, b, sizeof b), t->offset, storage);
        return ACLNN_ERR_PARAM_INVALID;
    }
    /* last < storage and storage * esize fits: these products fit in int64. */
    uintptr_t base = (uintptr_t)t->data;
    uint64_t lo = (uint64_t)t->offset * (uint64_t)esize,
             hi = (uint64_t)(last + 1) * (uint64_t)esize;
    if (hi > UINTPTR_MAX - base) {
        aclconv_set_error("%s: %s: data %p + %" PRIu64 " bytes wraps around the address space",
                          CONV_BWD_OP, name, t->data, hi);
        return ACLNN_ERR_PARAM_INVALID;
    }
    e->lo = base + (uintptr_t)lo;
    e->hi = base + (uintptr_t)hi;
    return ACLNN_SUCCESS;
}

/* S.3: no written output overlaps another written output or an input. */
static aclnnStatus check_overlap(const extent *ex, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (!ex[i].written) continue;
        for (size_t j = 0; j < n; ++j) {
            /* against non-empty inputs and the other written outputs (each pair once) */
            bool other = (ex[j].is_input && ex[j].numel > 0) || (ex[j].written && j > i);
            if (j == i || !other) continue;
            if (ex[i].lo < ex[j].hi && ex[j].lo < ex[i].hi) {
                aclconv_set_error("%s: output %s memory [%p, %p) overlaps %s memory [%p, %p)",
                                  CONV_BWD_OP, ex[i].name, (void *)ex[i].lo, (void *)ex[i].hi,
                                  ex[j].name, (void *)ex[j].lo, (void *)ex[j].hi);
                return ACLNN_ERR_PARAM_INVALID;
            }
        }
    }
    return ACLNN_SUCCESS;
}

static const char *strides_text(const aclTensor *t, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint64_t i = 0; i < t->ndim && used < cap; ++i) {
        int w = snprintf(buf + used, cap - used, "%s%" PRId64 "%s", i ? ", " : "[", t->stride[i],
                         i + 1 == t->ndim ? "]" : "");
        if (w < 0) break;
        used += (size_t)w;
    }
    return buf;
}

/* S.6: a written output's view reaches no element twice. Dims of more than
 * one element, by ascending stride: each stride must exceed the largest index
 * the smaller-stride dims reach. That is exact for every layout made of
 * permutations, gaps and slices; views interleaving two dims without sharing
 * an element (dims 3, 2 with strides 2, 3) are rejected too, as by S.3. */
static aclnnStatus check_self_overlap(const extent *e)
{
    const aclTensor *t = e->t;
    int64_t stride[ACLCONV_MAX_DIMS], size[ACLCONV_MAX_DIMS];
    int n = 0;
    for (uint64_t i = 0; i < t->ndim; ++i) {
        if (t->view[i] == 1) continue;
        int k = n++; /* insertion by stride; S.2 bounded every (view - 1) * stride */
        for (; k > 0 && stride[k - 1] > t->stride[i]; --k) {
            stride[k] = stride[k - 1];
            size[k] = size[k - 1];
        }
        stride[k] = t->stride[i];
        size[k] = t->view[i];
    }
    int64_t reach = 0; /* largest index offset of the dims so far */
    for (int k = 0; k < n; ++k) {
        if (stride[k] <= reach) {
            char b[DIMS_TEXT_CAP], bs[DIMS_TEXT_CAP];
            aclconv_set_error("%s: output %s view %s with strides %s reaches some elements more "
                              "than once (a stride of %" PRId64 " within the %" PRId64
                              " elements the smaller strides span)",
                              CONV_BWD_OP, e->name, conv_bwd_dims_text(t, b, sizeof b),
                              strides_text(t, bs, sizeof bs), stride[k], reach + 1);
            return ACLNN_ERR_PARAM_INVALID;
        }
        reach += (size[k] - 1) * stride[k];
    }
    return ACLNN_SUCCESS;
}

static bool same_view(const aclTensor *x, const aclTensor *y)
{
    if (x->ndim != y->ndim) return false;
    for (uint64_t i = 0; i < x->ndim; ++i)
        if (x->view[i] != y->view[i]) return false;
    return true;
}

/* S.4 (non-empty path): gradOutput and input have the same batch size N. */
static aclnnStatus check_batch(const conv_bwd_args *a)
{
    if (a->input->view[0] != a->grad_output->view[0]) {
        aclconv_set_error("%s: input N = %" PRId64 " differs from gradOutput N = %" PRId64,
                          CONV_BWD_OP, a->input->view[0], a->grad_output->view[0]);
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

/* S.5 (empty path, where F.3/F.4 do not run): the outputs that are filled
 * have the shape they are filled with. */
static aclnnStatus check_empty_outputs(const conv_bwd_args *a)
{
    char b1[DIMS_TEXT_CAP], b2[DIMS_TEXT_CAP];
    if (conv_bwd_mask(a, MASK_GRAD_INPUT) && !same_view(a->grad_input, a->input)) {
        aclconv_set_error("%s: gradInput shape %s differs from input shape %s", CONV_BWD_OP,
                          conv_bwd_dims_text(a->grad_input, b1, sizeof b1),
                          conv_bwd_dims_text(a->input, b2, sizeof b2));
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (conv_bwd_mask(a, MASK_GRAD_WEIGHT) && !same_view(a->grad_weight, a->weight)) {
        aclconv_set_error("%s: gradWeight shape %s differs from weight shape %s", CONV_BWD_OP,
                          conv_bwd_dims_text(a->grad_weight, b1, sizeof b1),
                          conv_bwd_dims_text(a->weight, b2, sizeof b2));
        return ACLNN_ERR_PARAM_INVALID;
    }
    /* E.1 passed, so biasSizes has one element. */
    if (conv_bwd_mask(a, MASK_GRAD_BIAS) &&
        (a->grad_bias->ndim != 1 || a->grad_bias->view[0] != a->bias_sizes->v[0])) {
        aclconv_set_error("%s: gradBias shape %s must be [biasSizes[0]] = [%" PRId64 "]",
                          CONV_BWD_OP, conv_bwd_dims_text(a->grad_bias, b1, sizeof b1),
                          a->bias_sizes->v[0]);
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

aclnnStatus conv_bwd_check_safety(const conv_bwd_args *a, bool empty_path)
{
    aclnnStatus st;
    const struct {
        const aclTensor *t;
        const char *name;
        int mask; /* outputMask index, -1 for inputs */
    } ts[] = {
        {a->grad_output, "gradOutput", -1},
        {a->input, "input", -1},
        {a->weight, "weight", -1},
        {a->grad_input, "gradInput", MASK_GRAD_INPUT},
        {a->grad_weight, "gradWeight", MASK_GRAD_WEIGHT},
        {a->grad_bias, "gradBias", MASK_GRAD_BIAS},
    };
    extent ex[ACLCONV_ARRAY_SIZE(ts)] = {{0}};
    /* S.1, S.2 for every non-null tensor */
    for (size_t i = 0; i < ACLCONV_ARRAY_SIZE(ts); ++i) {
        if (ts[i].t == NULL) continue;
        if ((st = check_tensor_memory(ts[i].t, ts[i].name, &ex[i])) != ACLNN_SUCCESS) return st;
        ex[i].is_input = ts[i].mask < 0;
        ex[i].written = ts[i].mask >= 0 && conv_bwd_mask(a, ts[i].mask) && ex[i].numel > 0;
    }
    /* S.3 */
    if ((st = check_overlap(ex, ACLCONV_ARRAY_SIZE(ex))) != ACLNN_SUCCESS) return st;
    /* S.4 / S.5 */
    if ((st = empty_path ? check_empty_outputs(a) : check_batch(a)) != ACLNN_SUCCESS) return st;
    /* S.6 */
    for (size_t i = 0; i < ACLCONV_ARRAY_SIZE(ex); ++i)
        if (ex[i].written && (st = check_self_overlap(&ex[i])) != ACLNN_SUCCESS) return st;
    return ACLNN_SUCCESS;
}
