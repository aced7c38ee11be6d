/* gradBias[c] = sum over n and space of gradOutput[n, c, ...], in fp32.
 *
 * The summation order is part of the numeric contract (results must not
 * depend on threads, strides or dtype path): element i of each (n, c)
 * spatial block, in flattened order, goes to accumulator i % BIAS_LANES; the
 * accumulators live across n; at the end they are added in a fixed pairwise
 * tree. Dense blocks take a loop per dtype that the compiler vectorizes;
 * strided layouts read element by element in the same order, so both paths
 * give the same bits. */
#include "engine/conv_bias.h"

#include "common/dtype.h"
#include "engine/conv_fast_convert.h"
#include "engine/conv_views.h"
#include "threading/pool.h"

#define BIAS_LANES 16

/* true when each (n, c) spatial block is one contiguous row (unit dims, such
 * as the D of a 2-D call, may have any stride). */
static bool block_is_dense(const conv_view *v)
{
    return (v->dim[4] == 1 || v->stride[4] == 1) && (v->dim[3] == 1 || v->stride[3] == v->dim[4]) &&
           (v->dim[2] == 1 || v->stride[2] == v->dim[3] * v->dim[4]);
}

/* acc[k % LANES] += row[k] for k in [0, len) of a dense row of dtype dt: a
 * loop per dtype with an inline, branch-free widening, so each vectorizes. */
#define BIAS_ADD_ROW(type, widen)                                                                  \
    do {                                                                                           \
        const type *r_ = (const type *)row;                                                        \
        int64_t k_ = 0;                                                                            \
        for (; k_ + BIAS_LANES <= len; k_ += BIAS_LANES)                                           \
            for (int j_ = 0; j_ < BIAS_LANES; ++j_) acc[j_] += widen(r_[k_ + j_]);                 \
        for (int j_ = 0; k_ < len; ++k_, ++j_) acc[j_] += widen(r_[k_]);                           \
    } while (0)

static inline float f32_as_is(float v) { return v; }

static void add_dense_row(float acc[BIAS_LANES], const void *row, aclDataType dt, int64_t len)
{
    switch (dt) {
    case ACL_FLOAT16: BIAS_ADD_ROW(uint16_t, f16_to_f32_inl); break;
    case ACL_BF16: BIAS_ADD_ROW(uint16_t, bf16_to_f32); break;
    default: BIAS_ADD_ROW(float, f32_as_is); break;
    }
}

static void bias_task(void *arg, size_t i)
{
    const conv_problem *p = arg;
    const conv_view *src = &p->bias_src, *out = &p->grad_bias;
    const int64_t c = (int64_t)i;
    const int64_t block = src->dim[2] * src->dim[3] * src->dim[4];
    const bool dense = block_is_dense(src);
    const int64_t esize = (int64_t)aclDataTypeSize(src->dtype);
    float acc[BIAS_LANES] = {0};
    for (int64_t n = 0; n < src->dim[0]; ++n) {
        if (dense) {
            add_dense_row(acc, src->data + conv_view_index(src, n, c, 0, 0, 0) * esize,
                          src->dtype, block);
            continue;
        }
        int64_t k = 0;
        for (int64_t d = 0; d < src->dim[2]; ++d)
            for (int64_t h = 0; h < src->dim[3]; ++h)
                for (int64_t w = 0; w < src->dim[4]; ++w, ++k)
                    acc[k % BIAS_LANES] +=
                        load_as_f32(src->data, src->dtype, conv_view_index(src, n, c, d, h, w));
    }
    for (int width = BIAS_LANES / 2; width > 0; width /= 2)
        for (int j = 0; j < width; ++j) acc[j] += acc[j + width];
    store_from_f32(out->data, out->dtype, conv_view_index(out, 0, c, 0, 0, 0), acc[0]);
}

void conv_bias_run(const conv_problem *p)
{
    pool_parallel_for((size_t)p->grad_bias.dim[1], bias_task, (void *)p);
}
