/* AVX-512 reduction-vector kernel: 1 x 8 dot products, 16 lanes each
 * (8 zmm accumulators, 1 vector of a, 1 of b), reduced at the end. */
#include "kernels/avx512/f32_convrv__avx512.h"
#include "kernels/conv_ukernels.h"

void f32_convrv_ukernel_1x8__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                    const float *const *a, size_t ars, const float *const *b,
                                    size_t brs, float *c, size_t ldm, size_t ldn, int accumulate)
{
    convrv_body__avx512(1, 8, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate);
}
