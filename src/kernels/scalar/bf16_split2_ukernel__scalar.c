/* Portable bf16 row split into its W phases: the contract in cvt_ukernels.h. */
#include "kernels/cvt_ukernels.h"

int bf16_split2_ukernel__scalar(size_t n, const uint16_t *src, uint16_t *even, uint16_t *odd,
                                int emin)
{
    for (size_t i = 0; i < n; ++i) {
        if (i % 2 == 0)
            even[i / 2] = src[i];
        else
            odd[i / 2] = src[i];
    }
    return bf16_minexp_ukernel__scalar(n, src, NULL, emin);
}
