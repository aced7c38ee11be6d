/* gradBias[c] = sum over n and space of gradOutput[n, c, ...], in fp32, in
 * the order conv_bias.h states. Dense rows take a loop per dtype that the
 * compiler vectorizes; strided rows are read element by element in the same
 * order, so both give the same bits. */
#include "engine/conv_bias.h"

#include "common/dtype.h"
#include "engine/conv_views.h"
#include "kernels/conv_ukernels.h"
#include "threading/pool.h"

#define LANES CONV_BIAS_LANES

bool conv_bias_wanted(const conv_problem *p)
{
    return p->grad_bias.data != NULL && conv_view_numel(&p->grad_bias) > 0;
}

bool conv_bias_sums_fit(const conv_problem *p)
{
    const int64_t n = p->bias_src.dim[0], c = p->bias_src.dim[1];
    return conv_bias_wanted(p) && n > 0 && c > 0 && n <= CONV_BIAS_MAX_SUMS / c;
}

bool conv_bias_fusable(const conv_problem *p)
{
    return conv_bias_sums_fit(p) && !p->transposed;
}

void conv_bias_add_f32(float *acc, int64_t lane0, const float *x, int64_t ldx, int64_t m,
                       int64_t len, const conv_ukernels *k)
{
    lane0 %= LANES;
    /* up to lane 0 one by one, then the ISA's row kernel from lane 0 */
    int64_t i = 0;
    for (; i < len && (lane0 + i) % LANES != 0; ++i)
        for (int64_t o = 0; o < m; ++o) acc[o * LANES + lane0 + i] += x[o * ldx + i];
    if (i < len && m > 0) k->lanes16((size_t)m, (size_t)(len - i), x + i, (size_t)ldx, acc);
}

void conv_bias_add_rows(float *acc, int64_t lane0, const conv_view *src, int64_t n, int64_t c,
                        int64_t m, int64_t d, int64_t h, int64_t w0, int64_t len,
                        const conv_ukernels *k)
{
    if ((len > 1 && src->stride[4] != 1) || (m > 1 && src->stride[1] < 0)) {
        for (int64_t o = 0; o < m; ++o) {
            const int64_t at = conv_view_index(src, n, c + o, d, h, w0);
            for (int64_t i = 0; i < len; ++i)
                acc[o * LANES + (lane0 + i) % LANES] +=
                    load_as_f32(src->data, src->dtype, at + i * src->stride[4]);
        }
        return;
    }
    const int64_t at = conv_view_index(src, n, c, d, h, w0);
    if (src->dtype == ACL_FLOAT) {
        conv_bias_add_f32(acc, lane0, (const float *)src->data + at, src->stride[1], m, len, k);
        return;
    }
    /* 16-bit rows are widened (exactly, NaNs as they are) a chunk of up to
     * ROWS rows at a time first; each chunk but the last ends on a lane
     * boundary */
    enum { CHUNK = 256, ROWS = 4 };
    float buf[ROWS * CHUNK];
    const uint16_t *row = (const uint16_t *)src->data + at;
    for (int64_t o0 = 0; o0 < m; o0 += ROWS) {
        const int64_t rows = m - o0 < ROWS ? m - o0 : ROWS;
        for (int64_t i = 0; i < len;) {
            const int64_t cnt = i == 0 ? CHUNK - lane0 % LANES : CHUNK;
            const size_t num = (size_t)(len - i < cnt ? len - i : cnt);
            for (int64_t o = 0; o < rows; ++o) {
                const uint16_t *src_row = row + (o0 + o) * src->stride[1] + i;
                if (src->dtype == ACL_BF16)
                    k->bf16_f32_cvt(num, src_row, buf + o * CHUNK, 0);
                else
                    k->f16_f32_cvt(num, src_row, buf + o * CHUNK, 0);
            }
            conv_bias_add_f32(acc + o0 * LANES, lane0 + i, buf, CHUNK, rows, (int64_t)num, k);
            i += (int64_t)num;
        }
    }
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

float conv_bias_block_sum(const conv_view *src, int64_t n, int64_t c, const conv_ukernels *k)
{
    float acc[LANES] = {0};
    const int64_t dd = src->dim[2], hh = src->dim[3], ww = src->dim[4];
    if (block_is_dense(src)) {
        conv_bias_add_rows(acc, 0, src, n, c, 1, 0, 0, 0, dd * hh * ww, k);
    } else {
        for (int64_t d = 0; d < dd; ++d)
            for (int64_t h = 0; h < hh; ++h)
                conv_bias_add_rows(acc, (d * hh + h) * ww, src, n, c, 1, d, h, 0, ww, k);
    }
    return conv_bias_lanes_sum(acc);
}

typedef struct bias_ctx {
    const conv_problem *p;
    const conv_ukernels *k;
} bias_ctx;

static void bias_task(void *arg, size_t i)
{
    const bias_ctx *b = arg;
    const conv_view *src = &b->p->bias_src, *out = &b->p->grad_bias;
    const int64_t c = (int64_t)i;
    float total = 0.0f;
    for (int64_t n = 0; n < src->dim[0]; ++n) {
        const float s = conv_bias_block_sum(src, n, c, b->k);
        total = n == 0 ? s : total + s;
    }
    store_from_f32(out->data, out->dtype, conv_view_index(out, 0, c, 0, 0, 0), total);
}

void conv_bias_run(const conv_problem *p, aclconvIsa isa)
{
    bias_ctx b = {p, conv_ukernels_for(isa)};
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
