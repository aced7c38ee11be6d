/* AVX-512 reduction-vector kernel: 4 x 6 dot products, 16 lanes each
 * (24 zmm accumulators, 4 vectors of a, 1 of b), reduced at the end. */
#include "kernels/avx512/f32_convrv__avx512.h"
#include "kernels/conv_ukernels.h"

/* the columns the tile has, as a constant: an edge tile (nr < 6) neither
 * loads nor multiplies the b rows it drops */
void f32_convrv_ukernel_4x6__avx512(size_t mr, size_t nr, size_t nrows, size_t len,
                                    const float *const *a, size_t ars, const float *const *b,
                                    size_t brs, float *c, size_t ldm, size_t ldn, int accumulate)
{
    switch (nr) {
    case 1:
        convrv_body__avx512(4, 1, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate);
        break;
    case 2:
        convrv_body__avx512(4, 2, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate);
        break;
    case 3:
        convrv_body__avx512(4, 3, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate);
        break;
    case 4:
        convrv_body__avx512(4, 4, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate);
        break;
    case 5:
        convrv_body__avx512(4, 5, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate);
        break;
    default:
        convrv_body__avx512(4, 6, mr, nr, nrows, len, a, ars, b, brs, c, ldm, ldn, accumulate);
        break;
    }
}
