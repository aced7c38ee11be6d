/* AVX-512 depthwise 3x3 weight-gradient dot products with 16 channels in
 * the vector ("dwchwt", kernels/dw_ukernels.h), the packing of 16 channel
 * planes into that layout ("dwch_pack"), and the correlation of such a
 * packed source written back as 16 planes ("dwchconv"). Small planes (rows
 * of at most 8 columns) cost the plane-per-call kernels more in their
 * per-plane work than in FMAs (a 7x7 plane: 63 FMAs on 7 of 16 lanes, the
 * 18 accumulator loads and stores, the call); here a vector is 16 channels
 * of one position, every lane is used, and no load is shifted or masked.
 * Each sum sees its terms in the plane kernels' order, so the results are
 * bitwise theirs. */
#include <immintrin.h>

#include "kernels/avx512/f32_round__avx512.h"
#include "kernels/avx512/transpose16__avx512.h"
#include "kernels/dw_ukernels.h"

#define NC 16 /* channels: the vector */
#define NJ 2  /* columns a pass: 18 accumulators, the dy and x vectors next to them */

/* A pack kind: the source dtype (PACK_F32, PACK_BF16, PACK_F16) plus the
 * rounding after the exact widening (PACK_ROUND_*: f32_round's kinds). */
enum { PACK_F32 = 0, PACK_BF16 = 4, PACK_F16 = 8 };
enum { PACK_ROUND_NONE = 0, PACK_ROUND_HF32 = 1, PACK_ROUND_F16 = 2, PACK_ROUND_BF16 = 3 };

/* Widened values rounded as f32_round does (the kind's rounding): each
 * value is packed once, so rounded once. */
static inline __attribute__((always_inline)) __m512 pack_round(const int kind, __m512 v)
{
    const int round = kind & 3;
    return round == PACK_ROUND_HF32   ? f32x16_round(v, F32_ROUND_HF32)
           : round == PACK_ROUND_F16  ? f32x16_round(v, F32_ROUND_F16)
           : round == PACK_ROUND_BF16 ? f32x16_round(v, F32_ROUND_BF16)
                                      : v;
}

/* Columns j .. j + 15 (lanes in m) of row i of src[c] (kind: its dtype),
 * widened to fp32 (exactly: a shift for bf16, vcvtph2ps for fp16), not yet
 * rounded (pack_round). */
static inline __attribute__((always_inline)) __m512 pack_load(const int kind, const void *src,
                                                              size_t i, size_t rs, size_t j,
                                                              __mmask16 m)
{
    if ((kind & ~3) == PACK_F32) return _mm512_maskz_loadu_ps(m, (const float *)src + i * rs + j);
    const __m256i h = _mm256_maskz_loadu_epi16(m, (const uint16_t *)src + i * rs + j);
    return (kind & ~3) == PACK_F16
               ? _mm512_cvtph_ps(h)
               : _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

static inline __attribute__((always_inline)) void pack(const int kind, const void *const *src,
                                                       size_t rs, size_t rows, size_t cols,
                                                       float *dst, size_t dp,
                                                       const ukernel_prefetch *pf)
{
    for (size_t i = 0; i < rows; ++i) {
        ukernel_prefetch_steps(pf, i, i + 1, rows);
        for (size_t j = 0; j < cols; j += NC) {
            const size_t n = cols - j < NC ? cols - j : NC;
            const __mmask16 m = (__mmask16)((1u << n) - 1u);
            __m512 r[NC];
#pragma GCC unroll 16
            for (int c = 0; c < NC; ++c)
                r[c] = src[c] != NULL ? pack_round(kind, pack_load(kind, src[c], i, rs, j, m))
                                      : _mm512_setzero_ps();
            transpose16(r);
            float *d = dst + (i * dp + j) * NC;
            /* unrolled: r[l] by a runtime l put r on the stack (gcc then
             * copied it with rep movsq) */
#pragma GCC unroll 16
            for (int l = 0; l < NC; ++l)
                if ((size_t)l < n) _mm512_storeu_ps(d + (size_t)l * NC, r[l]);
        }
    }
}

/* The flattened forms walk a plane of rows x cols positions (cols < 16)
 * 16 at a time; position i = r*cols + j lies at (r*pitch + j)*16 floats. A
 * chunk starts at row r0, column j0 < cols; its position l is q = (j0 + l)
 * / cols rows further, and q = ((j0 + l) * magic) >> 24 exactly: magic
 * exceeds 2^24 / cols by at most 1, which adds less than (cols + 16) /
 * 2^24 < 1 / cols to a quotient whose fraction is at most 1 - 1 / cols.
 * Each position's offset is then a few independent integer operations,
 * where row and column counters stepped position by position (~4 cycles
 * each, a chain). */
typedef struct flat_walk {
    size_t cols, pitch, magic;
    size_t r0, j0; /* the chunk's first position */
} flat_walk;

static inline flat_walk flat_start(size_t cols, size_t pitch)
{
    return (flat_walk){.cols = cols, .pitch = pitch, .magic = ((size_t)1 << 24) / cols + 1};
}

static inline __attribute__((always_inline)) size_t flat_off(const flat_walk *w, size_t l)
{
    const size_t jl = w->j0 + l;
    return (w->r0 * w->pitch + jl + ((jl * w->magic) >> 24) * (w->pitch - w->cols)) * NC;
}

static inline void flat_next(flat_walk *w)
{
    const size_t jl = w->j0 + NC, q = (jl * w->magic) >> 24;
    w->r0 += q;
    w->j0 = jl - q * w->cols;
}

/* gradBias's lane tree over 16 lane vectors (l, l + 8), (l, l + 4), (l, l +
 * 2), (l, l + 1): lane c of the result is channel c's block sum. */
static inline __attribute__((always_inline)) __m512 lanes_tree(__m512 a[NC])
{
#pragma GCC unroll 8
    for (int l = 0; l < 8; ++l) a[l] = _mm512_add_ps(a[l], a[l + 8]);
#pragma GCC unroll 4
    for (int l = 0; l < 4; ++l) a[l] = _mm512_add_ps(a[l], a[l + 4]);
#pragma GCC unroll 2
    for (int l = 0; l < 2; ++l) a[l] = _mm512_add_ps(a[l], a[l + 2]);
    return _mm512_add_ps(a[0], a[1]);
}

/* pack for planes of contiguous rows (rs == cols): 16 positions of the
 * flattened plane a transpose, across rows (a 7 x 7 plane: 4 transposes,
 * not 7 of 7 columns each), each position stored at its (row, column).
 * With sums, the values as loaded are also added up per channel: before
 * the transpose vector c holds positions p0 .. p0 + 15 of channel c, lane l
 * flattened position p0 + l, which is gradBias's lane l (p0 is a multiple
 * of 16); the tail's zero lanes add +0 to sums that are never -0. */
static inline __attribute__((always_inline)) void pack_flat(const int kind, const int sum,
                                                            const void *const *src, size_t rows,
                                                            size_t cols, float *dst, size_t dp,
                                                            float *sums, const ukernel_prefetch *pf)
{
    const size_t len = rows * cols, chunks = (len + NC - 1) / NC;
    flat_walk fw = flat_start(cols, dp);
    __m512 acc[NC];
#pragma GCC unroll 16
    for (int c = 0; c < NC; ++c) acc[c] = _mm512_setzero_ps();
    for (size_t q = 0; q < chunks; ++q) {
        ukernel_prefetch_steps(pf, q, q + 1, chunks);
        const size_t p0 = q * NC, n = len - p0 < NC ? len - p0 : NC;
        const __mmask16 m = (__mmask16)((1u << n) - 1u);
        __m512 r[NC];
#pragma GCC unroll 16
        for (int c = 0; c < NC; ++c) {
            r[c] = src[c] != NULL ? pack_load(kind, src[c], 0, 0, p0, m) : _mm512_setzero_ps();
            if (sum) acc[c] = _mm512_add_ps(acc[c], r[c]);
            r[c] = pack_round(kind, r[c]);
        }
        transpose16(r);
#pragma GCC unroll 16
        for (int l = 0; l < NC; ++l)
            if ((size_t)l < n) _mm512_storeu_ps(dst + flat_off(&fw, (size_t)l), r[l]);
        flat_next(&fw);
    }
    if (sum) {
        transpose16(acc); /* acc[l]: lane l of the 16 channels */
        _mm512_storeu_ps(sums, lanes_tree(acc));
    }
}

static inline __attribute__((always_inline)) int pack_any(const int kind, const void *const *src,
                                                          size_t rs, size_t rows, size_t cols,
                                                          float *dst, size_t dp, float *sums,
                                                          const ukernel_prefetch *pf)
{
    if (rs == cols && cols < NC && sums != NULL) {
        pack_flat(kind, 1, src, rows, cols, dst, dp, sums, pf);
        return 1;
    }
    if (rs == cols && cols < NC)
        pack_flat(kind, 0, src, rows, cols, dst, dp, NULL, pf);
    else
        pack(kind, src, rs, rows, cols, dst, dp, pf);
    return 0;
}

int f32_dwch_pack_16__avx512(const float *const *src, size_t rs, size_t rows, size_t cols,
                             float *dst, size_t dp, int round, float *sums,
                             const ukernel_prefetch *pf)
{
    const void *const *s = (const void *const *)src;
    switch (round) {
    case F32_ROUND_HF32:
        return pack_any(PACK_F32 + PACK_ROUND_HF32, s, rs, rows, cols, dst, dp, sums, pf);
    case F32_ROUND_F16:
        return pack_any(PACK_F32 + PACK_ROUND_F16, s, rs, rows, cols, dst, dp, sums, pf);
    case F32_ROUND_BF16:
        return pack_any(PACK_F32 + PACK_ROUND_BF16, s, rs, rows, cols, dst, dp, sums, pf);
    default: return pack_any(PACK_F32, s, rs, rows, cols, dst, dp, sums, pf);
    }
}

int h16_dwch_pack_16__avx512(const uint16_t *const *src, int bf16, size_t rs, size_t rows,
                             size_t cols, float *dst, size_t dp, int round, float *sums,
                             const ukernel_prefetch *pf)
{
    /* the one rounding a mode applies to a 16-bit dtype it does not keep:
     * FLOAT16's of bf16, BF16's of fp16 */
    const void *const *s = (const void *const *)src;
    if (bf16 && round == F32_ROUND_F16)
        return pack_any(PACK_BF16 + PACK_ROUND_F16, s, rs, rows, cols, dst, dp, sums, pf);
    if (!bf16 && round == F32_ROUND_BF16)
        return pack_any(PACK_F16 + PACK_ROUND_BF16, s, rs, rows, cols, dst, dp, sums, pf);
    return bf16 ? pack_any(PACK_BF16, s, rs, rows, cols, dst, dp, sums, pf)
                : pack_any(PACK_F16, s, rs, rows, cols, dst, dp, sums, pf);
}

/* Columns j0 .. j0 + nj - 1 over all rows: their 9 taps' sums in registers,
 * the nj + 2 x columns of a tap row loaded once for all of them. */
static inline __attribute__((always_inline)) void columns(const int nj, size_t j0, size_t rows,
                                                          const float *xt, size_t xp,
                                                          const float *dyt, size_t dp, float *acc,
                                                          const ukernel_prefetch *pf)
{
    __m512 a[NJ][9];
#pragma GCC unroll 2
    for (int j = 0; j < nj; ++j)
#pragma GCC unroll 9
        for (int t = 0; t < 9; ++t)
            a[j][t] = _mm512_loadu_ps(acc + ((j0 + (size_t)j) * 9 + (size_t)t) * NC);
    for (size_t r = 0; r < rows; ++r) {
        ukernel_prefetch_steps(pf, r, r + 1, rows);
        __m512 d[NJ];
#pragma GCC unroll 2
        for (int j = 0; j < nj; ++j)
            d[j] = _mm512_loadu_ps(dyt + (r * dp + j0 + (size_t)j) * NC);
#pragma GCC unroll 3
        for (int kh = 0; kh < 3; ++kh) {
            const float *xr = xt + ((r + (size_t)kh) * xp + j0) * NC;
#pragma GCC unroll 4
            for (int cc = 0; cc < nj + 2; ++cc) {
                const __m512 xv = _mm512_loadu_ps(xr + (size_t)cc * NC);
#pragma GCC unroll 2
                for (int j = 0; j < nj; ++j) {
                    const int kw = cc - j;
                    if (kw < 0 || kw > 2) continue;
                    a[j][3 * kh + kw] = _mm512_fmadd_ps(xv, d[j], a[j][3 * kh + kw]);
                }
            }
        }
    }
#pragma GCC unroll 2
    for (int j = 0; j < nj; ++j)
#pragma GCC unroll 9
        for (int t = 0; t < 9; ++t)
            _mm512_storeu_ps(acc + ((j0 + (size_t)j) * 9 + (size_t)t) * NC, a[j][t]);
}

void f32_dwchwt_ukernel_16x2__avx512(size_t rows, size_t ow, const float *xt, size_t xp,
                                     const float *dyt, size_t dp, float *acc,
                                     const ukernel_prefetch *pf)
{
    /* pf's lines a part per pass of columns, a part of that per row */
    const size_t passes = (ow + NJ - 1) / NJ;
    size_t j = 0, q = 0;
    for (; j + NJ <= ow; j += NJ, ++q) {
        const ukernel_prefetch part = ukernel_prefetch_part(pf, q, passes);
        columns(NJ, j, rows, xt, xp, dyt, dp, acc, &part);
    }
    if (j < ow) {
        const ukernel_prefetch part = ukernel_prefetch_part(pf, q, passes);
        columns(1, j, rows, xt, xp, dyt, dp, acc, &part);
    }
}

/* dwchconv of planes of contiguous rows (drs == ow): 16 positions of the
 * flattened plane a transpose, across rows, each channel's 16 results one
 * store (a 7 x 7 plane: 4 transposes, not 7). */
static void conv_flat(size_t rows, size_t ow, const float *src, size_t sp, const ptrdiff_t *toff,
                      const __m512 wv[9], float *const *dst)
{
    const size_t len = rows * ow;
    flat_walk fw = flat_start(ow, sp);
    for (size_t p0 = 0; p0 < len; p0 += NC, flat_next(&fw)) {
        const size_t n = len - p0 < NC ? len - p0 : NC;
        __m512 a[NC];
#pragma GCC unroll 16
        for (int k = 0; k < NC; ++k) {
            a[k] = _mm512_setzero_ps();
            if ((size_t)k >= n) continue;
            const float *sk = src + flat_off(&fw, (size_t)k);
#pragma GCC unroll 9
            for (int t = 0; t < 9; ++t)
                a[k] = _mm512_fmadd_ps(wv[t], _mm512_loadu_ps(sk + toff[t] * NC), a[k]);
        }
        transpose16(a);
        const __mmask16 m = (__mmask16)((1u << n) - 1u);
#pragma GCC unroll 16
        for (int c = 0; c < NC; ++c)
            if (dst[c] != NULL) _mm512_mask_storeu_ps(dst[c] + p0, m, a[c]);
    }
}

void f32_dwchconv_ukernel_16__avx512(size_t rows, size_t ow, const float *src, size_t sp,
                                     const ptrdiff_t *toff, const float *w, size_t wp,
                                     float *const *dst, size_t drs)
{
    __m512 wv[9];
    for (int t = 0; t < 9; ++t)
        wv[t] = _mm512_loadu_ps(w + (size_t)t * wp);
    if (drs == ow && ow < NC) {
        conv_flat(rows, ow, src, sp, toff, wv, dst);
        return;
    }
    const __mmask16 m = (__mmask16)((1u << ow) - 1u);
    for (size_t r = 0; r < rows; ++r) {
        const float *sr = src + r * sp * NC;
        __m512 a[NC];
        /* a position's taps one chain from +0 in t order (the dwconv order);
         * the positions past ow stay zero for the transpose */
#pragma GCC unroll 16
        for (int j = 0; j < NC; ++j) {
            a[j] = _mm512_setzero_ps();
            if ((size_t)j >= ow) continue;
#pragma GCC unroll 9
            for (int t = 0; t < 9; ++t)
                a[j] = _mm512_fmadd_ps(wv[t], _mm512_loadu_ps(sr + ((ptrdiff_t)j + toff[t]) * NC),
                                       a[j]);
        }
        transpose16(a);
#pragma GCC unroll 16
        for (int c = 0; c < NC; ++c)
            if (dst[c] != NULL) _mm512_mask_storeu_ps(dst[c] + r * drs, m, a[c]);
    }
}
