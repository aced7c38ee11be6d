/* Portable bf16 padded rows: the contract in cvt_ukernels.h. */
#include <string.h>

#include "kernels/cvt_ukernels.h"

int bf16_padrows_ukernel__scalar(size_t rows, size_t wp, size_t lo, size_t hi, const uint16_t *src,
                                 size_t lds, uint16_t *dst, size_t ldd, int emin)
{
    for (size_t r = 0; r < rows; ++r) {
        uint16_t *d = dst + r * ldd;
        memset(d, 0, lo * sizeof(uint16_t));
        emin = bf16_minexp_ukernel__scalar(hi - lo, src + r * lds, d + lo, emin);
        memset(d + hi, 0, (wp - hi) * sizeof(uint16_t));
    }
    return emin;
}
