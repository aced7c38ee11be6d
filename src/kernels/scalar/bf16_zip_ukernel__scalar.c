/* Portable bf16 rows zipped into pairs: the contract in cvt_ukernels.h. */
#include "kernels/cvt_ukernels.h"

int bf16_zip_ukernel__scalar(size_t rows, size_t n, const uint16_t *lo, const uint16_t *hi,
                             size_t ss, uint32_t *dst, size_t ds, int emin)
{
    for (size_t r = 0; r < rows; ++r, lo += ss, hi = hi ? hi + ss : NULL, dst += ds) {
        for (size_t i = 0; i < n; ++i) {
            const uint16_t h = hi ? hi[i] : 0;
            dst[i] = (uint32_t)lo[i] | (uint32_t)h << 16;
        }
        emin = bf16_minexp_ukernel__scalar(n, lo, NULL, emin);
        if (hi) emin = bf16_minexp_ukernel__scalar(n, hi, NULL, emin);
    }
    return emin;
}
