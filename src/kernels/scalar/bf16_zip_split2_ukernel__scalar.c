/* Portable bf16 rows zipped into pairs and split into W phases: the
 * contract in cvt_ukernels.h. */
#include "kernels/cvt_ukernels.h"

int bf16_zip_split2_ukernel__scalar(size_t n, const uint16_t *lo, const uint16_t *hi,
                                    uint32_t *even, uint32_t *odd, int emin)
{
    for (size_t i = 0; i < n; ++i) {
        const uint32_t w = (uint32_t)lo[i] | (hi ? (uint32_t)hi[i] << 16 : 0u);
        (i % 2 ? odd : even)[i / 2] = w;
    }
    emin = bf16_minexp_ukernel__scalar(n, lo, NULL, emin);
    return hi ? bf16_minexp_ukernel__scalar(n, hi, NULL, emin) : emin;
}
