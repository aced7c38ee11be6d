/* Portable bf16 -> fp32 row widening. */
#include <string.h>

#include "kernels/cvt_ukernels.h"

void bf16_f32_cvt_ukernel__scalar(size_t n, const uint16_t *src, float *dst, int quiet)
{
    for (size_t i = 0; i < n; ++i) {
        uint32_t u = (uint32_t)src[i] << 16;
        if (quiet && (u & 0x7fffffffu) > 0x7f800000u) u |= 0x400000u;
        memcpy(dst + i, &u, sizeof u);
    }
}
