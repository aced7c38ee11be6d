/* AVX2+FMA reduction-vector kernel: 3 x 4 dot products, 8 lanes each
 * (12 ymm accumulators, 3 vectors of a, 1 of b), reduced at the end. */
#include "kernels/avx2/f32_convrv__avx2.h"
#include "kernels/conv_ukernels.h"

void f32_convrv_ukernel_3x4__avx2(size_t mr, size_t nr, size_t nrows, size_t len,
                                  const float *const *a, size_t ars, const float *const *b,
                                  size_t brs, float *c, size_t ldm, size_t ldn, int accumulate)
{
    convrv_body__avx2(3, 4, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate);
}
