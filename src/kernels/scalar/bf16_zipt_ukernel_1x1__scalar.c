/* Portable bf16 rows zipped into pairs and transposed, with the guard's
 * exponent scan: the contract in kernels/conv_ukernels.h. */
#include "kernels/conv_ukernels.h"

int bf16_zipt_ukernel_1x1__scalar(size_t m, size_t n, const uint16_t *lo, const uint16_t *hi,
                                  size_t ss, uint32_t *dst, size_t ldd, int emin)
{
    for (size_t i = 0; i < m; ++i) {
        const uint16_t *a = lo + i * ss, *b = hi ? hi + i * ss : NULL;
        for (size_t j = 0; j < n; ++j)
            dst[j * ldd + i] = (uint32_t)a[j] | (b ? (uint32_t)b[j] << 16 : 0u);
        emin = bf16_minexp_ukernel__scalar(n, a, NULL, emin);
        if (b) emin = bf16_minexp_ukernel__scalar(n, b, NULL, emin);
    }
    return emin;
}
