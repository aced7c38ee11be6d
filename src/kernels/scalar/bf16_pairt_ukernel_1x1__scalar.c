/* Portable transpose of BF16 pairs with the guard's exponent scan (a row's
 * 2n values in one call): the contract in kernels/conv_ukernels.h. */
#include "kernels/conv_ukernels.h"

int bf16_pairt_ukernel_1x1__scalar(size_t m, size_t n, const uint16_t *src, size_t lds,
                                   uint32_t *dst, size_t ldd, int emin)
{
    for (size_t i = 0; i < m; ++i) {
        const uint16_t *row = src + i * lds;
        for (size_t j = 0; j < n; ++j)
            dst[j * ldd + i] = (uint32_t)row[2 * j] | (uint32_t)row[2 * j + 1] << 16;
        emin = bf16_minexp_ukernel__scalar(2 * n, row, NULL, emin);
    }
    return emin;
}
