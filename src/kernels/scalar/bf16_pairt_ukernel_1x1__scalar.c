/* Portable transpose of BF16 pair words with the guard's exponent scan:
 * the contract in kernels/conv_ukernels.h. */
#include "kernels/conv_ukernels.h"

int bf16_pairt_ukernel_1x1__scalar(size_t m, size_t n, const uint32_t *src, size_t lds,
                                   uint32_t *dst, size_t ldd, int emin)
{
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            const uint32_t v = src[i * lds + j];
            dst[j * ldd + i] = v;
            const uint16_t h[2] = {(uint16_t)v, (uint16_t)(v >> 16)};
            emin = bf16_minexp_ukernel__scalar(2, h, NULL, emin);
        }
    return emin;
}
