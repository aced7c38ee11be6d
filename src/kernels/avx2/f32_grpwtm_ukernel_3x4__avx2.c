/* AVX2 grouped weight-gradient dot products over one unpadded copy of x:
 * grpwt's 3x4 tile with each b row's lanes cleared by its W tap's row mask
 * (8 bits of a 16-bit word per vector, its lane mask from a table). The b
 * vectors are loaded whole (the engine keeps guard floats around the copy)
 * and the cleared lanes are exact zeros. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/avx2/lane_mask__avx2.h"
#include "kernels/grp_ukernels.h"

#define VL 8
#define NR 4

/* The lane masks of the 256 values of a byte of row-mask bits (bit l: lane
 * l), one load where building one from its bits took a broadcast, an and and
 * a compare next to the scalar shifts (resnext_g32's weights pass on AVX2:
 * ~3 extra operations per multiply-add, the kernel front-end bound). */
#define LUT1(b)                                                                                    \
    {-((b) & 1), -((b) >> 1 & 1), -((b) >> 2 & 1), -((b) >> 3 & 1),                               \
     -((b) >> 4 & 1), -((b) >> 5 & 1), -((b) >> 6 & 1), -((b) >> 7 & 1)}
#define LUT4(b) LUT1(b), LUT1((b) + 1), LUT1((b) + 2), LUT1((b) + 3)
#define LUT16(b) LUT4(b), LUT4((b) + 4), LUT4((b) + 8), LUT4((b) + 12)
#define LUT64(b) LUT16(b), LUT16((b) + 16), LUT16((b) + 32), LUT16((b) + 48)
static const int32_t k_lanes[256][8] __attribute__((aligned(32))) = {LUT64(0), LUT64(64),
                                                                     LUT64(128), LUT64(192)};
#undef LUT64
#undef LUT16
#undef LUT4
#undef LUT1

/* Byte j / 8 of a run's mask words is the bits of the vector at position j
 * (j a multiple of 8; little-endian words: bit j % 16 of word j / 16). */
static inline __m256 lanes_at(const uint16_t *words, size_t j)
{
    return _mm256_load_ps((const float *)k_lanes[((const uint8_t *)words)[j / 8]]);
}

/* How a call's b rows are masked: each by its own row mask, all by one (the
 * rows of one W tap: one mask load a step instead of four), or by none (one
 * W tap whose lanes never leave their rows, the middle tap of a 3x3: plain
 * loads, grpwt's instructions; its ANDs cost as much as a quarter of the
 * multiply-adds). */
enum { ROWS_OWN, ROWS_SHARED, ROWS_PLAIN };

static inline __attribute__((always_inline)) void body(const int M, const int kind, size_t nr,
                                                       size_t len, const float *const *a,
                                                       const float *const *b,
                                                       const uint16_t *const *bm, float *acc,
                                                       size_t ldm, const ukernel_prefetch *pf)
{
    __m256 c[3][NR];
    const float *bp[NR];
    const uint16_t *mp[NR];
    _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
        bp[n] = b[(size_t)n < nr ? (size_t)n : nr - 1];
        mp[n] = bm[(size_t)n < nr ? (size_t)n : nr - 1];
    }
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            c[m][n] = (size_t)n < nr ? _mm256_loadu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES)
                                     : _mm256_setzero_ps();
    const size_t full = len / VL * VL;
    const ukernel_prefetch q = ukernel_prefetch_or_none(pf);
    for (size_t j = 0; j < full; j += VL) {
        ukernel_prefetch_line(&q, j / VL);
        __m256 av[3];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm256_loadu_ps(a[m] + j);
        const __m256 shared = kind == ROWS_SHARED ? lanes_at(mp[0], j) : _mm256_setzero_ps();
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
            const __m256 bl = _mm256_loadu_ps(bp[n] + j);
            const __m256 bv = kind == ROWS_PLAIN    ? bl
                              : kind == ROWS_SHARED ? _mm256_and_ps(bl, shared)
                                                    : _mm256_and_ps(bl, lanes_at(mp[n], j));
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm256_fmadd_ps(av[m], bv, c[m][n]);
        }
    }
    ukernel_prefetch_from(&q, full / VL);
    if (len > full) {
        const __m256i tm = avx2_lane_mask(len - full);
        __m256 av[3];
        _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) av[m] = _mm256_maskload_ps(a[m] + full, tm);
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n) {
            const __m256 bv =
                _mm256_and_ps(_mm256_maskload_ps(bp[n] + full, tm), lanes_at(mp[n], full));
            _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m) c[m][n] = _mm256_fmadd_ps(av[m], bv, c[m][n]);
        }
    }
    _Pragma("GCC unroll 8") for (int m = 0; m < M; ++m)
        _Pragma("GCC unroll 8") for (int n = 0; n < NR; ++n)
            if ((size_t)n < nr) _mm256_storeu_ps(acc + m * ldm + (size_t)n * GRP_ACC_LANES, c[m][n]);
}

/* Whether the first len bits of a row mask are all set. */
static int all_set(const uint16_t *words, size_t len)
{
    for (size_t i = 0; i < len / 16; ++i)
        if (words[i] != 0xFFFFu) return 0;
    const unsigned rest = (unsigned)(len % 16), tail = (1u << rest) - 1u;
    return rest == 0 || (words[len / 16] & tail) == tail;
}

void f32_grpwtm_ukernel_3x4__avx2(size_t mr, size_t nr, size_t len, const float *const *a,
                                  const float *const *b, const uint16_t *const *bm, float *acc,
                                  size_t ldm, const ukernel_prefetch *pf)
{
    int kind = ROWS_SHARED;
    for (size_t n = 1; n < nr; ++n)
        if (bm[n] != bm[0]) kind = ROWS_OWN;
    if (kind == ROWS_SHARED && all_set(bm[0], len)) kind = ROWS_PLAIN;
    switch ((mr < 3 ? mr : 3) * 3 + (size_t)kind) {
    case 3: body(1, ROWS_OWN, nr, len, a, b, bm, acc, ldm, pf); break;
    case 4: body(1, ROWS_SHARED, nr, len, a, b, bm, acc, ldm, pf); break;
    case 5: body(1, ROWS_PLAIN, nr, len, a, b, bm, acc, ldm, pf); break;
    case 6: body(2, ROWS_OWN, nr, len, a, b, bm, acc, ldm, pf); break;
    case 7: body(2, ROWS_SHARED, nr, len, a, b, bm, acc, ldm, pf); break;
    case 8: body(2, ROWS_PLAIN, nr, len, a, b, bm, acc, ldm, pf); break;
    case 9: body(3, ROWS_OWN, nr, len, a, b, bm, acc, ldm, pf); break;
    case 10: body(3, ROWS_SHARED, nr, len, a, b, bm, acc, ldm, pf); break;
    default: body(3, ROWS_PLAIN, nr, len, a, b, bm, acc, ldm, pf); break;
    }
}
