/*
 * gradBias has a documented summation order (src/engine/conv_bias.h): per
 * (n, c) block, element k goes to lane k % 16, the lanes are added by a fixed
 * pairwise tree into the block sum S(n, c), and gradBias[c] = S(0, c) +
 * S(1, c) + ... over n. This test pins it: for real-valued FLOAT, FLOAT16 and
 * BF16 gradOutput, dense and strided (gapped) layouts, gradBias alone (its own
 * pass) and with gradWeight (block sums inside the weights pass where it
 * streams gradOutput: 2-D images with rows not a multiple of 16, 1-D rows
 * split into column blocks, images grouped in the GEMM path; also with
 * gradInput, the streamed pass), every result must equal a plain loop
 * written from that description, bit for bit, with every ISA's row kernel.
 * With a NaN in gradOutput, in every cubeMathType, gradBias computed with
 * gradWeight has the bits of gradBias alone.
 */
#include <stdlib.h>
#include <string.h>

#include "aclconv/aclconv.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "common/dtype.h"
#include "test_check.h"

enum { LANES = 16, GAP = 3 };

typedef struct shape {
    const char *name;
    int64_t n, c, o, h, w; /* 1-D when h == 0 */
    int64_t k;             /* kernel side (stride 1, padding k / 2) */
    bool weight;           /* gradWeight requested too */
    bool data;             /* gradInput requested too */
    int64_t ts;            /* > 0: transposed, kernel = stride = ts, no padding
                              (h, w: gradOutput's; the input is h / ts x w / ts) */
} shape;

/* The weights pass sums the blocks in its reduction-vector path (few
 * channels), its GEMM path (k3, many channels) and its flat path (1x1, many
 * channels); bias alone has its own pass. */
static const shape k_shapes[] = {
    {"2-D, bias alone", 3, 5, 5, 7, 9, 1, false, false, 0},
    {"2-D, with gradWeight", 3, 5, 5, 7, 9, 1, true, false, 0},
    {"2-D, 40 channels, with gradWeight", 2, 2, 40, 5, 13, 1, true, false, 0},
    {"1-D long rows, with gradWeight", 2, 2, 40, 0, 7001, 1, true, false, 0},
    {"1-D long rows, bias alone", 2, 2, 40, 0, 7001, 1, false, false, 0},
    {"2-D k3, 40 x 30 channels, with gradWeight", 2, 30, 40, 6, 11, 3, true, false, 0},
    /* nine images: chunks of two and three, each one group of images whose
     * block sums the weights pass takes image by image */
    {"2-D k3, 40 x 30 channels, 9 images, with gradWeight", 9, 30, 40, 6, 11, 3, true, false, 0},
    {"2-D 1x1, 40 x 30 channels, with gradWeight", 5, 30, 40, 6, 11, 1, true, false, 0},
    /* the streamed weights pass (few input channels, four images or more):
     * gradOutput read once for all three gradients, blocks of the data pass */
    {"1-D long rows, streamed, all three", 4, 1, 40, 0, 7001, 3, true, true, 0},
    {"2-D, streamed, all three", 5, 2, 20, 7, 9, 3, true, true, 0},
    {"2-D, streamed, with gradWeight", 5, 2, 20, 7, 9, 3, true, false, 0},
    /* transposed, k = s: gradBias sums x, which the streamed pass's F form
     * packs (block sums while it reads x once, in flattened order) */
    {"2-D transposed k2 s2, streamed, all three", 4, 40, 24, 8, 12, 0, true, true, 2},
    {"2-D transposed k2 s2, streamed, with gradWeight", 4, 40, 24, 8, 12, 0, true, false, 2},
    {"1-D transposed k3 s3 long rows, streamed, all three", 4, 40, 12, 0, 12000, 0, true, true, 3},
    {"2-D transposed k2 s2, 32 -> 48 channels, streamed, all three", 4, 32, 48, 8, 12, 0, true,
     true, 2},
    {"2-D transposed k2 s2, bias alone", 4, 40, 24, 8, 12, 0, false, false, 2},
};

/* The documented order, from the fp32 values of gradOutput. */
static float bias_by_contract(const shape *s, const float *v, int64_t c)
{
    const int64_t block = (s->h ? s->h : 1) * s->w;
    float total = 0.0f;
    for (int64_t n = 0; n < s->n; ++n) {
        float acc[LANES] = {0};
        for (int64_t k = 0; k < block; ++k) acc[k % LANES] += v[(n * s->o + c) * block + k];
        for (int width = LANES / 2; width > 0; width /= 2)
            for (int j = 0; j < width; ++j) acc[j] += acc[j + width];
        total = n == 0 ? acc[0] : total + acc[0];
    }
    return total;
}

/* gradBias of gradOutput v (values in dtype dt) laid out dense or with a gap
 * after every row, from a k x k convolution that keeps the size; out
 * receives fp32 results. */
static void run(aclrtStream st, const shape *s, aclDataType dt, const float *v, int gapped,
                float *out, int8_t cube, int64_t nan_at, uint32_t nan_bits)
{
    const int64_t hh = s->h ? s->h : 1, row = s->w + (gapped ? GAP : 0);
    const int nd = s->h ? 4 : 3;
    const int64_t yd4[4] = {s->n, s->o, hh, s->w}, ys4[4] = {s->o * hh * row, hh * row, row, 1};
    const int64_t yd3[3] = {s->n, s->o, s->w}, ys3[3] = {s->o * row, row, 1};
    /* transposed: the input is the smaller tensor, weight [c][o][k...] */
    const int64_t ts = s->ts > 0 ? s->ts : 1, xh = s->h ? hh / ts : 1, xw = s->w / ts;
    const int64_t k = s->ts > 0 ? s->ts : s->k;
    const int64_t xd4[4] = {s->n, s->c, xh, xw}, xd3[3] = {s->n, s->c, xw};
    const int64_t wd4[4] = {s->ts ? s->c : s->o, s->ts ? s->o : s->c, k, k};
    const int64_t wd3[3] = {s->ts ? s->c : s->o, s->ts ? s->o : s->c, k};
    const int64_t wnum = s->o * s->c * k * (s->h ? k : 1);
    const int64_t storage[1] = {s->n * s->o * hh * row};
    const size_t es = aclDataTypeSize(dt);
    unsigned char *y = calloc((size_t)storage[0], es);
    float *x = calloc((size_t)(s->n * s->c * xh * xw), sizeof(float));
    float *wt = calloc((size_t)wnum, sizeof(float));
    float *gw = calloc((size_t)wnum, sizeof(float));
    float *gi = calloc((size_t)(s->n * s->c * xh * xw), sizeof(float));
    for (int64_t i = 0; i < s->n * s->c * xh * xw; ++i)
        x[i] = (float)(i % 7) - 3.0f;
    for (int64_t n = 0; n < s->n; ++n)
        for (int64_t c = 0; c < s->o; ++c)
            for (int64_t h = 0; h < hh; ++h)
                for (int64_t w = 0; w < s->w; ++w)
                    store_from_f32(y, dt, ((n * s->o + c) * hh + h) * row + w,
                                   v[((n * s->o + c) * hh + h) * s->w + w]);
    if (nan_at >= 0) { /* element nan_at of the dense order gets NaN bits of dt's width */
        const int64_t at = nan_at / s->w * row + nan_at % s->w;
        if (es == 4)
            memcpy((float *)y + at, &nan_bits, 4);
        else
            ((uint16_t *)y)[at] = (uint16_t)nan_bits;
    }
    const int64_t bd[1] = {s->o}, one[2] = {1, 1}, zero[2] = {0, 0};
    const int64_t pad[2] = {s->ts ? 0 : s->k / 2, s->ts ? 0 : s->k / 2}, strides[2] = {ts, ts};
    const bool mask[3] = {s->data, s->weight, true};
    const aclFormat fmt = nd == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCL;
    const int64_t *yd = nd == 4 ? yd4 : yd3, *ys = nd == 4 ? ys4 : ys3;
    const int64_t *xd = nd == 4 ? xd4 : xd3, *wd = nd == 4 ? wd4 : wd3;
    aclTensor *ty = aclCreateTensor(yd, nd, dt, ys, 0, fmt, storage, 1, y);
    aclTensor *tx = aclCreateTensor(xd, nd, ACL_FLOAT, NULL, 0, fmt, xd, nd, x);
    aclTensor *tw = aclCreateTensor(wd, nd, ACL_FLOAT, NULL, 0, fmt, wd, nd, wt);
    aclTensor *tgw = aclCreateTensor(wd, nd, ACL_FLOAT, NULL, 0, fmt, wd, nd, gw);
    aclTensor *tgi = aclCreateTensor(xd, nd, ACL_FLOAT, NULL, 0, fmt, xd, nd, gi);
    aclTensor *tb = aclCreateTensor(bd, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, bd, 1, out);
    aclIntArray *sa = aclCreateIntArray(strides, nd - 2), *pd = aclCreateIntArray(pad, nd - 2);
    aclIntArray *dl = aclCreateIntArray(one, nd - 2), *op = aclCreateIntArray(zero, nd - 2);
    aclBoolArray *mk = aclCreateBoolArray(mask, 3);
    uint64_t wsize = 0;
    aclOpExecutor *e = NULL;
    CHECK_ST(aclnnConvolutionBackwardGetWorkspaceSize(ty, tx, tw, NULL, sa, pd, dl, s->ts > 0, op,
                                                      1, mk, cube, s->data ? tgi : NULL,
                                                      s->weight ? tgw : NULL, tb, &wsize, &e),
             ACLNN_SUCCESS);
    void *ws = NULL;
    if (wsize > 0) CHECK_ST(aclrtMalloc(&ws, wsize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_ST(aclnnConvolutionBackward(ws, wsize, e, st), ACLNN_SUCCESS);
    CHECK_ST(aclrtSynchronizeStream(st), ACL_SUCCESS);
    if (ws) aclrtFree(ws);
    aclDestroyTensor(ty), aclDestroyTensor(tx), aclDestroyTensor(tw), aclDestroyTensor(tgw);
    aclDestroyTensor(tb), aclDestroyTensor(tgi);
    aclDestroyIntArray(sa), aclDestroyIntArray(pd), aclDestroyIntArray(dl), aclDestroyIntArray(op);
    aclDestroyBoolArray(mk);
    free(y), free(x), free(wt), free(gw), free(gi);
}

int main(void)
{
    aclrtStream st = NULL;
    CHECK_ST(aclInit(NULL), ACL_SUCCESS);
    CHECK_ST(aclrtCreateStream(&st), ACL_SUCCESS);
    const aclDataType dts[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    srand(11);
    const int best = (int)aclconvGetIsa();
    for (int isa = ACLCONV_ISA_SCALAR; isa <= best; ++isa)
    for (size_t si = 0; si < sizeof k_shapes / sizeof k_shapes[0]; ++si) {
        aclconvSetMaxIsa((aclconvIsa)isa); /* every row kernel: the same bits */
        const shape *s = &k_shapes[si];
        const int64_t count = s->n * s->o * (s->h ? s->h : 1) * s->w;
        float *v = malloc((size_t)count * sizeof(float));
        float *dense = malloc((size_t)s->o * sizeof(float)), *gapped = malloc((size_t)s->o * sizeof(float));
        for (int t = 0; t < 3; ++t) {
            /* real values, rounded to the dtype so the contract sees what is stored */
            for (int64_t i = 0; i < count; ++i) {
                float r = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
                v[i] = dts[t] == ACL_FLOAT16 ? f32_round_f16(r) : dts[t] == ACL_BF16 ? f32_round_bf16(r) : r;
            }
            run(st, s, dts[t], v, 0, dense, 0, -1, 0);
            run(st, s, dts[t], v, 1, gapped, 0, -1, 0);
            for (int64_t c = 0; c < s->o; ++c) {
                float want = bias_by_contract(s, v, c);
                CHECK(memcmp(&dense[c], &want, sizeof want) == 0 &&
                          memcmp(&gapped[c], &want, sizeof want) == 0,
                      "isa %d, %s, %s, channel %lld: dense %.9g, gapped %.9g, contract %.9g", isa,
                      s->name, dtype_name(dts[t]), (long long)c, dense[c], gapped[c], want);
            }
        }
        /* a NaN in dy, signalling or quiet, with a payload, in every
         * cubeMathType: the fused sums (from the rows the weights pass
         * loaded, for 16-bit dy in the modes that keep it) must give the
         * bits of gradBias alone */
        for (int t = 0; t < 3 && s->weight; ++t)
            for (int8_t cube = 0; cube <= 3; ++cube) {
                for (int64_t i = 0; i < count; ++i)
                    v[i] = (float)(i % 5) - 2.0f;
                const uint32_t payload = (uint32_t)(1 + rand() % 63),
                               quiet = (uint32_t)(rand() % 2);
                const uint32_t bits = dts[t] == ACL_FLOAT  ? 0x7f800000u | quiet << 22 | payload
                                      : dts[t] == ACL_BF16 ? 0x7f80u | quiet << 6 | payload
                                                           : 0x7c00u | quiet << 9 | payload;
                const int64_t at = rand() % count;
                shape alone = *s;
                alone.weight = alone.data = false;
                run(st, s, dts[t], v, 0, dense, cube, at, bits);
                run(st, &alone, dts[t], v, 0, gapped, cube, at, bits);
                for (int64_t c = 0; c < s->o; ++c)
                    CHECK(memcmp(&dense[c], &gapped[c], sizeof dense[c]) == 0,
                          "isa %d, %s, %s, cube %d, NaN 0x%x at %lld, channel %lld: fused 0x%08x, "
                          "alone 0x%08x",
                          isa, s->name, dtype_name(dts[t]), (int)cube, (unsigned)bits,
                          (long long)at, (long long)c, (unsigned)f32_bits(dense[c]),
                          (unsigned)f32_bits(gapped[c]));
            }
        free(v), free(dense), free(gapped);
    }
    aclconvSetMaxIsa((aclconvIsa)best);
    CHECK_ST(aclrtDestroyStream(st), ACL_SUCCESS);
    CHECK_ST(aclFinalize(), ACL_SUCCESS);
    printf("test_conv_bias: %s\n", g_test_failures ? "FAILED" : "all checks passed");
    return g_test_failures != 0;
}
