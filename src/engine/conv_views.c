#include "engine/conv_views.h"

#include <string.h>

#include "common/dtype.h"
#include "engine/conv_fast_convert.h" /* f16 conversions: branch-free, vectorize */

/* Strided 16-bit runs at most this long are narrowed by the kernel, then
 * spread (>= every kernel's column tile). */
#define STORE_CHUNK 128

float conv_round_operand(float v, conv_mode mode)
{
    switch (mode) {
    case CONV_MODE_HF32: return f32_round_hf32(v);
    case CONV_MODE_F16: return f32_round_f16(v);
    case CONV_MODE_BF16: return f32_round_bf16(v);
    default: return v;
    }
}

float conv_round_result(float v, conv_mode mode)
{
    switch (mode) {
    case CONV_MODE_F16: return f32_round_f16(v);
    case CONV_MODE_BF16: return f32_round_bf16(v);
    default: return v; /* fp32 and HF32 produce fp32 */
    }
}

bool conv_h16_widens(const conv_view *v, conv_mode mode, int *quiet)
{
    /* a mode that rounds to the other 16-bit format changes the values;
     * every other one keeps them (fp16's 11 significant bits fit HF32's) */
    const bool bf16 = v->dtype == ACL_BF16 && mode != CONV_MODE_F16;
    const bool f16 = v->dtype == ACL_FLOAT16 && mode != CONV_MODE_BF16;
    *quiet = (bf16 && mode == CONV_MODE_BF16) || (f16 && mode == CONV_MODE_F16);
    return bf16 || f16;
}

void conv_load_row(const conv_view *v, int64_t n, int64_t c, int64_t d, int64_t h, int64_t w0,
                   int64_t step, int64_t count, conv_mode mode, const conv_ukernels *k, float *dst)
{
    conv_load_elems(v, conv_view_index(v, n, c, d, h, w0), v->stride[4] * step, count, mode, k,
                    dst);
}

void conv_load_elems(const conv_view *v, int64_t base, int64_t sw, int64_t count, conv_mode mode,
                     const conv_ukernels *k, float *dst)
{
    if (v->dtype == ACL_FLOAT) {
        const float *s = (const float *)v->data + base;
        if (mode == CONV_MODE_F32 && sw == 1) {
            memcpy(dst, s, (size_t)count * sizeof(float));
        } else if (sw ==
                   2) { /* phase split by 2: the ISA's step-2 load, then the mode's rounding */
            k->f32_load_step2((size_t)count, s, dst);
            if (mode != CONV_MODE_F32) k->f32_round((size_t)count, dst, dst, conv_round_kind(mode));
        } else if (sw == 1) { /* unit stride: the ISA's rounding kernel */
            k->f32_round((size_t)count, s, dst, conv_round_kind(mode));
        } else { /* gathered, then rounded in place by the ISA's kernel (one
                  * value at a time through the scalar helpers was most of
                  * conv1d_wav_k10s5's x packing in the rounding modes) */
            for (int64_t i = 0; i < count; ++i)
                dst[i] = s[i * sw];
            if (mode != CONV_MODE_F32) k->f32_round((size_t)count, dst, dst, conv_round_kind(mode));
        }
        return;
    }
    const uint16_t *s = (const uint16_t *)v->data + base;
    int quiet;
    const bool keeps = conv_h16_widens(v, mode, &quiet), bf16 = v->dtype == ACL_BF16;
    /* widened exactly: unit stride through the ISA's kernels (bf16 NaNs
     * quieted as BF16 mode's rounding does; the other modes leave NaNs as
     * they are), else a loop without calls (it vectorizes) */
    if (sw == 1) {
        (bf16 ? k->bf16_f32_cvt : k->f16_f32_cvt)((size_t)count, s, dst, quiet);
    } else {
        if (bf16)
            for (int64_t i = 0; i < count; ++i)
                dst[i] = f32_from_bits((uint32_t)s[i * sw] << 16);
        else
            for (int64_t i = 0; i < count; ++i)
                dst[i] = f16_to_f32_inl(s[i * sw]);
        /* the FLOAT16 / BF16 roundings quiet NaNs; FLOAT / HF32 keep them */
        if (quiet) f32_quiet_nans(dst, count);
    }
    /* bf16 in FLOAT16 mode, fp16 in BF16 mode: then the mode's rounding by
     * the ISA's kernel, the bits of conv_round_operand (one value at a time
     * through the scalar helpers, dw_3x3's bf16 run in FLOAT16 mode took 14x
     * its fp32 time) */
    if (!keeps) k->f32_round((size_t)count, dst, dst, conv_round_kind(mode));
}

void conv_split_row(const conv_view *v, int64_t n, int64_t c, int64_t d, int64_t h, int64_t w0,
                    int64_t count, conv_mode mode, const conv_ukernels *k, float *even, float *odd)
{
    const int64_t at = conv_view_index(v, n, c, d, h, w0);
    if (v->dtype == ACL_FLOAT) {
        k->f32_split2((size_t)count, (const float *)v->data + at, even, odd,
                      mode == CONV_MODE_F32 ? F32_ROUND_NONE : conv_round_kind(mode));
        return;
    }
    /* exact widening; the FLOAT16 / BF16 roundings quiet NaNs (conv_load_row) */
    const bool bf16 = v->dtype == ACL_BF16;
    k->h16_f32_split2((size_t)count, (const uint16_t *)v->data + at, even, odd, bf16,
                      mode == (bf16 ? CONV_MODE_BF16 : CONV_MODE_F16));
}

void conv_store_results(const conv_view *out, conv_mode mode, const conv_ukernels *k, bool stream,
                        int64_t base, int64_t sw, int64_t count, const float *src)
{
    const f32_narrow_ukernel_fn narrow =
        stream && k->f32_narrow_nt ? k->f32_narrow_nt : k->f32_narrow;
    const bool rounds = conv_result_round_kind(mode) != F32_ROUND_NONE;
    if (out->dtype == ACL_FLOAT && !rounds) {
        float *o = (float *)out->data + base;
        if (src && sw == 1 && count > 64)
            memcpy(o, src, (size_t)count * sizeof(float));
        else if (src && sw == 1) /* short rows: a loop, no call */
            for (int64_t i = 0; i < count; ++i) o[i] = src[i];
        else if (src && sw == 2) /* a stride-2 W phase */
            k->f32_store_step2((size_t)count, src, o);
        else
            for (int64_t i = 0; i < count; ++i) o[i * sw] = src ? src[i] : 0.0f;
        return;
    }
    if (!src) { /* the rounding of zero is zero */
        for (int64_t i = 0; i < count; ++i) store_from_f32(out->data, out->dtype, base + i * sw, 0.0f);
        return;
    }
    if (out->dtype == ACL_FLOAT) {
        float *o = (float *)out->data + base;
        if (sw == 1 && stream && k->f32_round_nt) /* conv_round_result: the ISA's rounding kernel */
            k->f32_round_nt((size_t)count, src, o, conv_round_kind(mode));
        else if (sw == 1)
            k->f32_round((size_t)count, src, o, conv_round_kind(mode));
        else if (sw == 2) /* a stride-2 W phase: rounded a chunk at a time, then spread */
            for (int64_t i = 0; i < count; i += STORE_CHUNK) {
                float t[STORE_CHUNK];
                const size_t n = (size_t)(count - i < STORE_CHUNK ? count - i : STORE_CHUNK);
                k->f32_round(n, src + i, t, conv_round_kind(mode));
                k->f32_store_step2(n, t, o + 2 * i);
            }
        else if (mode == CONV_MODE_F16) /* conv_round_result, inline */
            for (int64_t i = 0; i < count; ++i) o[i * sw] = f32_round_f16_inl(src[i]);
        else
            for (int64_t i = 0; i < count; ++i) o[i * sw] = f32_round_bf16(src[i]);
        return;
    }
    uint16_t *o = (uint16_t *)out->data + base;
    const bool bf16 = out->dtype == ACL_BF16;
    /* one rounding when the mode's result rounding is to the same or a wider
     * format: the same bits as conv_round_result then the store */
    if (conv_mode_keeps(out->dtype, mode) && sw == 1) {
        narrow((size_t)count, src, o, bf16);
    } else if (conv_mode_keeps(out->dtype, mode) && sw == 2 && k->f32_narrow_step2) {
        /* a W phase of a stride-2 gradInput (the spread below: 8% of
         * r50_c3_3x3s2's fp16 dx) */
        k->f32_narrow_step2((size_t)count, src, o, bf16);
    } else { /* a chunk at a time: FLOAT16 results stored as bf16, or BF16
              * results as fp16, rounded to the mode's format first (two
              * roundings: conv_round_result, then the store's); narrowed,
              * then spread where the step is not 1 */
        const bool keeps = conv_mode_keeps(out->dtype, mode);
        for (int64_t i = 0; i < count; i += STORE_CHUNK) {
            float t[STORE_CHUNK];
            uint16_t h[STORE_CHUNK];
            const int64_t n = count - i < STORE_CHUNK ? count - i : STORE_CHUNK;
            const float *c = src + i;
            if (!keeps) {
                k->f32_round((size_t)n, c, t, conv_round_kind(mode));
                c = t;
            }
            k->f32_narrow((size_t)n, c, sw == 1 ? o + i : h, bf16);
            if (sw != 1)
                for (int64_t j = 0; j < n; ++j)
                    o[(i + j) * sw] = h[j];
        }
    }
}

void conv_pack_block(const conv_view *v, int64_t n, int64_t c, conv_mode mode,
                     const conv_ukernels *k, float *dst)
{
    for (int64_t d = 0; d < v->dim[2]; ++d)
        for (int64_t h = 0; h < v->dim[3]; ++h, dst += v->dim[4])
            conv_load_row(v, n, c, d, h, 0, 1, v->dim[4], mode, k, dst);
}

void conv_view_zero_row(const conv_view *v, int64_t n, int64_t c, int64_t d, int64_t h, int64_t w0,
                        int64_t step, int64_t end)
{
    const int64_t es = v->dtype == ACL_FLOAT ? 4 : 2, ws = v->stride[4] * step;
    char *at = v->data + conv_view_index(v, n, c, d, h, w0) * es;
    if (ws == 1) {
        if (end > w0) memset(at, 0, (size_t)((end - w0) * es));
        return;
    }
    const int64_t count = end > w0 ? (end - w0 + step - 1) / step : 0;
    if (es == 4)
        for (int64_t i = 0; i < count; ++i)
            ((uint32_t *)(void *)at)[i * ws] = 0;
    else
        for (int64_t i = 0; i < count; ++i)
            ((uint16_t *)(void *)at)[i * ws] = 0;
}

void conv_view_zero_plane(const conv_view *v, int64_t n, int64_t c)
{
    if (conv_view_blocks_dense(v)) { /* one run: one memset (a call a row for 13 x 13 planes) */
        conv_view_zero_row(v, n, c, 0, 0, 0, 1, v->dim[2] * v->dim[3] * v->dim[4]);
        return;
    }
    for (int64_t d = 0; d < v->dim[2]; ++d)
        for (int64_t h = 0; h < v->dim[3]; ++h)
            conv_view_zero_row(v, n, c, d, h, 0, 1, v->dim[4]);
}

void conv_view_zero(const conv_view *v)
{
    for (int64_t n = 0; n < v->dim[0]; ++n)
        for (int64_t c = 0; c < v->dim[1]; ++c)
            conv_view_zero_plane(v, n, c);
}
