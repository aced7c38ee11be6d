/* Portable bf16 smallest exponent (and copy): the contract in cvt_ukernels.h. */
#include "kernels/cvt_ukernels.h"

int bf16_minexp_ukernel__scalar(size_t n, const uint16_t *src, uint16_t *dst, int emin)
{
    for (size_t i = 0; i < n; ++i) {
        const uint16_t h = src[i];
        const int e = (h & 0x7fff) == 0 ? 255 : (h >> 7) & 0xff;
        emin = e < emin ? e : emin;
        if (dst) dst[i] = h;
    }
    return emin;
}
