/* gradBias[c] = sum over n and space of gradOutput[n, c, ...], in fp32, in
 * the order conv_bias.h states. Dense rows take a loop per dtype that the
 * compiler vectorizes; strided rows are read element by element in the same
 * order, so both give the same bits. */
#include "engine/conv_bias.h"

#include <string.h>

#include "common/dtype.h"
#include "engine/conv_fast_convert.h"
#include "engine/conv_views.h"
#include "kernels/conv_ukernels.h"
#include "threading/pool.h"

#define LANES CONV_BIAS_LANES

bool conv_bias_wanted(const conv_problem *p)
{
    return p->grad_bias.data != NULL && conv_view_numel(&p->grad_bias) > 0;
}

bool conv_bias_fusable(const conv_problem *p)
{
    const int64_t n = p->bias_src.dim[0], c = p->bias_src.dim[1];
    return conv_bias_wanted(p) && !p->transposed && n > 0 && c > 0 && n <= CONV_BIAS_MAX_SUMS / c;
}

/* The lanes of k in [0, len) of a dense row of dtype dt, from lane lane0: up
 * to the first lane 0 one by one, then whole vectors of lanes (the loop
 * vectorizes, the widening is inline and branch-free), then the tail. */
#define BIAS_ADD_ROW(type, widen)                                                                  \
    do {                                                                                           \
        const type *r_ = (const type *)row;                                                        \
        int64_t k_ = 0, l_ = lane0;                                                                \
        for (; k_ < len && l_ != 0; ++k_, l_ = (l_ + 1) % LANES) acc[l_] += widen(r_[k_]);         \
        for (; k_ + LANES <= len; k_ += LANES)                                                     \
            for (int j_ = 0; j_ < LANES; ++j_) acc[j_] += widen(r_[k_ + j_]);                      \
        for (int j_ = 0; k_ < len; ++k_, ++j_) acc[j_] += widen(r_[k_]);                           \
    } while (0)

static inline float f32_as_is(float v) { return v; }

void conv_bias_add_row(float lanes[LANES], int64_t lane0, const conv_view *src, int64_t n, int64_t c,
                       int64_t d, int64_t h, int64_t w0, int64_t len, f32_lanes16_ukernel_fn lanes16)
{
    lane0 %= LANES;
    const int64_t at = conv_view_index(src, n, c, d, h, w0);
    if (len > 1 && src->stride[4] != 1) {
        for (int64_t k = 0; k < len; ++k)
            lanes[(lane0 + k) % LANES] += load_as_f32(src->data, src->dtype, at + k * src->stride[4]);
        return;
    }
    const void *row = src->data + at * (int64_t)aclDataTypeSize(src->dtype);
    if (src->dtype == ACL_FLOAT) {
        /* up to lane 0, then the ISA's kernel from lane 0 */
        const float *x = row;
        int64_t k = 0;
        for (; k < len && (lane0 + k) % LANES != 0; ++k) lanes[lane0 + k] += x[k];
        if (k < len) lanes16((size_t)(len - k), x + k, lanes);
        return;
    }
    /* a local copy: the row may not alias it, so the lanes stay in a register */
    float acc[LANES];
    memcpy(acc, lanes, sizeof acc);
    switch (src->dtype) {
    case ACL_FLOAT16: BIAS_ADD_ROW(uint16_t, f16_to_f32_inl); break;
    case ACL_BF16: BIAS_ADD_ROW(uint16_t, bf16_to_f32); break;
    default: BIAS_ADD_ROW(float, f32_as_is); break;
    }
    memcpy(lanes, acc, sizeof acc);
}

float conv_bias_lanes_sum(float acc[LANES])
{
    for (int width = LANES / 2; width > 0; width /= 2)
        for (int j = 0; j < width; ++j) acc[j] += acc[j + width];
    return acc[0];
}

/* true when each (n, c) spatial block is one contiguous row (unit dims, such
 * as the D of a 2-D call, may have any stride). */
static bool block_is_dense(const conv_view *v)
{
    return (v->dim[4] == 1 || v->stride[4] == 1) && (v->dim[3] == 1 || v->stride[3] == v->dim[4]) &&
           (v->dim[2] == 1 || v->stride[2] == v->dim[3] * v->dim[4]);
}

static float block_sum(const conv_view *src, int64_t n, int64_t c, f32_lanes16_ukernel_fn lanes16)
{
    float acc[LANES] = {0};
    const int64_t dd = src->dim[2], hh = src->dim[3], ww = src->dim[4];
    if (block_is_dense(src)) {
        conv_bias_add_row(acc, 0, src, n, c, 0, 0, 0, dd * hh * ww, lanes16);
    } else {
        for (int64_t d = 0; d < dd; ++d)
            for (int64_t h = 0; h < hh; ++h)
                conv_bias_add_row(acc, (d * hh + h) * ww, src, n, c, d, h, 0, ww, lanes16);
    }
    return conv_bias_lanes_sum(acc);
}

typedef struct bias_ctx {
    const conv_problem *p;
    f32_lanes16_ukernel_fn lanes16;
} bias_ctx;

static void bias_task(void *arg, size_t i)
{
    const bias_ctx *b = arg;
    const conv_view *src = &b->p->bias_src, *out = &b->p->grad_bias;
    const int64_t c = (int64_t)i;
    float total = 0.0f;
    for (int64_t n = 0; n < src->dim[0]; ++n) {
        const float s = block_sum(src, n, c, b->lanes16);
        total = n == 0 ? s : total + s;
    }
    store_from_f32(out->data, out->dtype, conv_view_index(out, 0, c, 0, 0, 0), total);
}

void conv_bias_run(const conv_problem *p, aclconvIsa isa)
{
    bias_ctx b = {p, conv_ukernels_for(isa)->lanes16};
    pool_parallel_for((size_t)p->grad_bias.dim[1], bias_task, &b);
}

typedef struct sums_ctx {
    const conv_problem *p;
    const float *sums;
} sums_ctx;

static void sums_task(void *arg, size_t i)
{
    const sums_ctx *s = arg;
    const conv_view *out = &s->p->grad_bias;
    const int64_t c = (int64_t)i, channels = out->dim[1];
    float total = s->sums[c];
    for (int64_t n = 1; n < s->p->bias_src.dim[0]; ++n) total += s->sums[n * channels + c];
    store_from_f32(out->data, out->dtype, conv_view_index(out, 0, c, 0, 0, 0), total);
}

void conv_bias_store_sums(const conv_problem *p, const float *sums)
{
    sums_ctx s = {p, sums};
    pool_parallel_for((size_t)p->grad_bias.dim[1], sums_task, &s);
}
