/* Row conversion kernels of the fast engine's packing loops. */
#ifndef ACLCONV_CVT_UKERNELS_H_
#define ACLCONV_CVT_UKERNELS_H_

#include <stddef.h>
#include <stdint.h>

/*
 * fp16 -> fp32 widening ("f16_f32_cvt"): dst[i] = f16_to_f32(src[i]) for
 * i < n, bit for bit, for every half: normals, subnormals, zeros, infinities
 * and NaNs (the payload shifted up 13 bits, the quiet bit as in the source:
 * a signalling NaN stays signalling, unlike a plain vcvtph2ps, so the
 * vector kernels restore bit 22 from the source). When quiet != 0 every NaN
 * gets its quiet bit set instead, as f32_round_f16 does (the FLOAT16 compute
 * mode's operand rounding; then a plain vcvtph2ps is the answer). Any n >= 0;
 * reads and writes exactly the n elements.
 */
typedef void (*f16_f32_cvt_ukernel_fn)(size_t n, const uint16_t *src, float *dst, int quiet);

void f16_f32_cvt_ukernel__scalar(size_t n, const uint16_t *src, float *dst, int quiet);
void f16_f32_cvt_ukernel__avx2(size_t n, const uint16_t *src, float *dst, int quiet);
void f16_f32_cvt_ukernel__avx512(size_t n, const uint16_t *src, float *dst, int quiet);

/*
 * bf16 -> fp32 widening ("bf16_f32_cvt"): dst[i] = bf16_to_f32(src[i]) (the
 * bits shifted up 16, exact), and when quiet != 0 every NaN gets its quiet bit
 * (bit 22) set, as f32_round_bf16 does (the BF16 compute mode's operand
 * rounding). Any n >= 0; reads and writes exactly the n elements.
 */
typedef void (*bf16_f32_cvt_ukernel_fn)(size_t n, const uint16_t *src, float *dst, int quiet);

void bf16_f32_cvt_ukernel__scalar(size_t n, const uint16_t *src, float *dst, int quiet);
void bf16_f32_cvt_ukernel__avx2(size_t n, const uint16_t *src, float *dst, int quiet);
void bf16_f32_cvt_ukernel__avx512(size_t n, const uint16_t *src, float *dst, int quiet);

/*
 * bf16 smallest exponent ("bf16_minexp"): returns the smaller of emin and the
 * smallest exponent field (bits 7-14) of src[i], i < n, over the values whose
 * bits other than the sign are not all zero (a subnormal counts as 0;
 * infinities and NaNs as 255); 0 <= emin <= 255. With dst != NULL also
 * copies: dst[i] = src[i].
 * The BF16 pair kernels' guard (conv_ukernels.h, "bf16 convwt"). Any n >= 0;
 * reads (and writes) exactly the n elements.
 */
typedef int (*bf16_minexp_ukernel_fn)(size_t n, const uint16_t *src, uint16_t *dst, int emin);

int bf16_minexp_ukernel__scalar(size_t n, const uint16_t *src, uint16_t *dst, int emin);
int bf16_minexp_ukernel__avx512(size_t n, const uint16_t *src, uint16_t *dst, int emin);

/*
 * Padded rows ("f32_padrows"): for r < rows and j < wp,
 *   dst[r*ldd + j] = src[r*lds + j - lo] rounded as f32_round does for kind
 *                    (F32_ROUND_NONE: copied) where lo <= j < hi, else +0.
 * src points at row 0's value for column lo. The rows of a padded slab
 * plane in one call (pack_slab: a memcpy and two memsets per row of 28-56
 * floats cost more than the copy). 0 <= lo <= hi <= wp; reads exactly the
 * hi - lo values of each row, writes exactly its wp elements.
 */
typedef void (*f32_padrows_ukernel_fn)(size_t rows, size_t wp, size_t lo, size_t hi,
                                       const float *src, size_t lds, float *dst, size_t ldd,
                                       int kind);

void f32_padrows_ukernel__scalar(size_t rows, size_t wp, size_t lo, size_t hi, const float *src,
                                 size_t lds, float *dst, size_t ldd, int kind);
void f32_padrows_ukernel__avx2(size_t rows, size_t wp, size_t lo, size_t hi, const float *src,
                               size_t lds, float *dst, size_t ldd, int kind);
void f32_padrows_ukernel__avx512(size_t rows, size_t wp, size_t lo, size_t hi, const float *src,
                                 size_t lds, float *dst, size_t ldd, int kind);

/*
 * bf16 padded rows ("bf16_padrows"): f32_padrows's layout over bf16 bits,
 * copied (no rounding), for the BF16 pair slabs (pack_slab_bf16). Returns
 * the smaller of emin and bf16_minexp of every value read. Same bounds and
 * accesses as f32_padrows.
 */
typedef int (*bf16_padrows_ukernel_fn)(size_t rows, size_t wp, size_t lo, size_t hi,
                                       const uint16_t *src, size_t lds, uint16_t *dst, size_t ldd,
                                       int emin);

int bf16_padrows_ukernel__scalar(size_t rows, size_t wp, size_t lo, size_t hi, const uint16_t *src,
                                 size_t lds, uint16_t *dst, size_t ldd, int emin);
int bf16_padrows_ukernel__avx512(size_t rows, size_t wp, size_t lo, size_t hi, const uint16_t *src,
                                 size_t lds, uint16_t *dst, size_t ldd, int emin);

/*
 * bf16 rows zipped into pairs ("bf16_zip"): dst[r*ds + i] = lo[r*ss + i] |
 * hi[r*ss + i] << 16 for r < rows, i < n (hi == NULL: +0 high halves), the
 * BF16 pair slabs' rows (a channel pair's values at one position in a 32-bit
 * word); a run of rows is one call (the padded slab rows of a plane: a call
 * per row cost more than the zipping, r50_c3_3x3s2's bf16 dx). Returns the
 * smaller of emin and bf16_minexp of every element read. Any rows, n >= 0;
 * reads and writes exactly those elements.
 */
typedef int (*bf16_zip_ukernel_fn)(size_t rows, size_t n, const uint16_t *lo, const uint16_t *hi,
                                   size_t ss, uint32_t *dst, size_t ds, int emin);

int bf16_zip_ukernel__scalar(size_t rows, size_t n, const uint16_t *lo, const uint16_t *hi,
                             size_t ss, uint32_t *dst, size_t ds, int emin);
int bf16_zip_ukernel__avx512(size_t rows, size_t n, const uint16_t *lo, const uint16_t *hi,
                             size_t ss, uint32_t *dst, size_t ds, int emin);

/*
 * bf16 row split into its two W phases ("bf16_split2"): even[i] = src[2i]
 * for i < (n + 1) / 2, odd[i] = src[2i + 1] for i < n / 2 (bits copied);
 * returns the smaller of emin and bf16_minexp of the n values. The stride-2
 * bf16 slab of the weights pass's BF16 pairs. Any n >= 0; reads and writes
 * exactly the elements named.
 */
typedef int (*bf16_split2_ukernel_fn)(size_t n, const uint16_t *src, uint16_t *even, uint16_t *odd,
                                      int emin);

int bf16_split2_ukernel__scalar(size_t n, const uint16_t *src, uint16_t *even, uint16_t *odd,
                                int emin);
int bf16_split2_ukernel__avx512(size_t n, const uint16_t *src, uint16_t *even, uint16_t *odd,
                                int emin);

/*
 * bf16 rows zipped into pairs and split into their two W phases
 * ("bf16_zip_split2"): even[i] = lo[2i] | hi[2i] << 16 for i < (n + 1) / 2,
 * odd[i] = lo[2i + 1] | hi[2i + 1] << 16 for i < n / 2 (hi == NULL: +0 high
 * halves); returns the smaller of emin and bf16_minexp of every value read.
 * The data pass's stride-2 pair slabs (bf16_split2 and bf16_zip through a
 * buffer before). Any n >= 0; reads and writes exactly the elements named.
 */
typedef int (*bf16_zip_split2_ukernel_fn)(size_t n, const uint16_t *lo, const uint16_t *hi,
                                          uint32_t *even, uint32_t *odd, int emin);

int bf16_zip_split2_ukernel__scalar(size_t n, const uint16_t *lo, const uint16_t *hi,
                                    uint32_t *even, uint32_t *odd, int emin);
int bf16_zip_split2_ukernel__avx512(size_t n, const uint16_t *lo, const uint16_t *hi,
                                    uint32_t *even, uint32_t *odd, int emin);

/*
 * fp16 / bf16 pairs split and widened ("h16_f32_split2"): for i < n,
 * (i even ? even[i/2] : odd[i/2]) = src[i] widened as f16_f32_cvt (bf16 == 0)
 * or bf16_f32_cvt (bf16 != 0) do it, NaNs quieted when quiet != 0. The W phase
 * split of a stride-2 row (conv_fast_pack.c's pack_pair) in one pass. Any n >= 0;
 * reads exactly n values, writes (n + 1) / 2 and n / 2.
 */
typedef void (*h16_f32_split2_ukernel_fn)(size_t n, const uint16_t *src, float *even, float *odd, int bf16,
                                          int quiet);

void h16_f32_split2_ukernel__scalar(size_t n, const uint16_t *src, float *even, float *odd, int bf16, int quiet);
void h16_f32_split2_ukernel__avx2(size_t n, const uint16_t *src, float *even, float *odd, int bf16, int quiet);
void h16_f32_split2_ukernel__avx512(size_t n, const uint16_t *src, float *even, float *odd, int bf16, int quiet);

/*
 * fp32 operand / result rounding ("f32_round"): dst[i] = the rounding of
 * src[i] named by kind, bit for bit as the scalar helpers of
 * src/common/dtype.h: F32_ROUND_HF32 = f32_round_hf32 (11 mantissa bits,
 * inf / NaN unchanged), F32_ROUND_F16 = f32_round_f16 (through fp16: NaNs
 * quieted, payload cut to 10 bits), F32_ROUND_BF16 = f32_round_bf16 (NaNs
 * quieted), F32_ROUND_NONE a copy (conv_round_kind of mode FLOAT). Ties to
 * even. src == dst allowed. Any n >= 0; reads and writes exactly the n
 * elements.
 */
enum { F32_ROUND_NONE = -1, F32_ROUND_HF32, F32_ROUND_F16, F32_ROUND_BF16 };
typedef void (*f32_round_ukernel_fn)(size_t n, const float *src, float *dst, int kind);

void f32_round_ukernel__scalar(size_t n, const float *src, float *dst, int kind);
void f32_round_ukernel__avx2(size_t n, const float *src, float *dst, int kind);
void f32_round_ukernel__avx512(size_t n, const float *src, float *dst, int kind);

/*
 * The same rounding with non-temporal stores ("f32_round_nt"), for results
 * not read again soon: the full vectors whose destination is vector-aligned
 * (32 bytes AVX2, 64 AVX-512) bypass the cache. Same bits as f32_round; the
 * caller runs store_fence before another thread reads them. Portable C has
 * no such store: the scalar ISA uses f32_round.
 */
void f32_round_nt_ukernel__avx2(size_t n, const float *src, float *dst, int kind);
void f32_round_nt_ukernel__avx512(size_t n, const float *src, float *dst, int kind);

/*
 * fp32 pairs split and rounded ("f32_split2"): for i < n,
 * (i even ? even[i/2] : odd[i/2]) = src[i] rounded as f32_round does for kind,
 * or copied when kind is F32_ROUND_NONE. The W phase split of a stride-2 row
 * (conv_fast_pack.c's pack_pair) in one pass, h16_f32_split2's fp32 sibling. Any
 * n >= 0; reads exactly n values, writes (n + 1) / 2 and n / 2.
 */
typedef void (*f32_split2_ukernel_fn)(size_t n, const float *src, float *even, float *odd,
                                      int kind);

void f32_split2_ukernel__scalar(size_t n, const float *src, float *even, float *odd, int kind);
void f32_split2_ukernel__avx2(size_t n, const float *src, float *even, float *odd, int kind);
void f32_split2_ukernel__avx512(size_t n, const float *src, float *even, float *odd, int kind);

/*
 * Step-2 fp32 row copies ("f32_step2"), the W phases of a stride-2 layer:
 *   load:  dst[i] = src[2*i],  i < n  (reads src[2*i] and the elements
 *          between them, never past src[2*(n-1)]);
 *   store: dst[2*i] = src[i],  i < n  (the elements between, another
 *          phase's, are neither read nor written).
 * Pure data movement: every ISA gives the same bits. Any n >= 0.
 */
typedef void (*f32_step2_ukernel_fn)(size_t n, const float *src, float *dst);

void f32_load_step2_ukernel__scalar(size_t n, const float *src, float *dst);
void f32_load_step2_ukernel__avx2(size_t n, const float *src, float *dst);
void f32_load_step2_ukernel__avx512(size_t n, const float *src, float *dst);
void f32_store_step2_ukernel__scalar(size_t n, const float *src, float *dst);
void f32_store_step2_ukernel__avx2(size_t n, const float *src, float *dst);
void f32_store_step2_ukernel__avx512(size_t n, const float *src, float *dst);

/*
 * fp32 -> 16-bit narrowing ("f32_narrow"): dst[i] = f32_to_bf16(src[i]) when
 * bf16 != 0, else f32_to_f16(src[i]), bit for bit (ties to even, overflow to
 * infinity, NaNs quieted). Any n >= 0; reads and writes exactly the n
 * elements.
 */
typedef void (*f32_narrow_ukernel_fn)(size_t n, const float *src, uint16_t *dst, int bf16);

void f32_narrow_ukernel__scalar(size_t n, const float *src, uint16_t *dst, int bf16);
void f32_narrow_ukernel__avx2(size_t n, const float *src, uint16_t *dst, int bf16);
void f32_narrow_ukernel__avx512(size_t n, const float *src, uint16_t *dst, int bf16);

/*
 * The same narrowing with non-temporal stores ("f32_narrow_nt"), for results
 * not read again soon (no read for ownership of the lines written whole): the
 * full vectors whose destination is vector-aligned (16 bytes AVX2, 32
 * AVX-512) bypass the cache, so a row that starts aligned is streamed whole.
 * Same bits as f32_narrow; the caller runs store_fence before another
 * thread reads them. Portable C has no such store: the scalar ISA uses
 * f32_narrow_ukernel__scalar.
 */
void f32_narrow_nt_ukernel__avx2(size_t n, const float *src, uint16_t *dst, int bf16);
void f32_narrow_nt_ukernel__avx512(size_t n, const float *src, uint16_t *dst, int bf16);

/*
 * The same narrowing into every other element ("f32_narrow_step2"): dst[2*i]
 * = f32_narrow's result for src[i], i < n; the odd elements dst[2*i + 1] are
 * neither read nor written (another output phase's). AVX-512 (16-bit masked
 * stores) and AVX2 (a 16-bit store a value); the scalar ISA narrows into a
 * buffer and spreads.
 */
void f32_narrow_step2_ukernel__avx2(size_t n, const float *src, uint16_t *dst, int bf16);
void f32_narrow_step2_ukernel__avx512(size_t n, const float *src, uint16_t *dst, int bf16);

/*
 * fp32 row copy with non-temporal stores ("f32_copy_nt"): dst[i] = src[i],
 * i < n, for results not read again soon: the full vectors whose destination
 * is vector-aligned (32 bytes AVX2, 64 AVX-512) bypass the cache, so the
 * lines a long run covers whole are not read for ownership. Reads and writes
 * exactly the n elements; the caller runs store_fence before another thread
 * reads them. Portable C has no such store: the scalar ISA uses memcpy.
 */
typedef void (*f32_copy_ukernel_fn)(size_t n, const float *src, float *dst);

void f32_copy_nt_ukernel__avx2(size_t n, const float *src, float *dst);
void f32_copy_nt_ukernel__avx512(size_t n, const float *src, float *dst);

/* Orders the non-temporal stores of the calls before (f32_narrow_nt,
 * f32_copy_nt, the grpconv kernels' stream mode) before anything the task does next (x86
 * sfence; AVX2 and AVX-512 both use it). */
void store_fence__avx2(void);

#endif /* ACLCONV_CVT_UKERNELS_H_ */
