/* Scalar grouped weight-gradient dot products over one unpadded copy of x:
 * 4 lanes per accumulator (lane j % 4), multiply then add; an element whose
 * row-mask bit is clear is a zero and is not read. */
#include <stdint.h>

#include "kernels/grp_ukernels.h"

#define VL 4

void f32_grpwtm_ukernel_2x2__scalar(size_t mr, size_t nr, size_t len, const float *const *a,
                                    const float *const *b, const uint16_t *const *bm, float *acc,
                                    size_t ldm, const ukernel_prefetch *pf)
{
    (void)pf; /* a hint the portable kernel does without */
    for (size_t m = 0; m < mr; ++m)
        for (size_t n = 0; n < nr; ++n) {
            float s[VL];
            float *c = acc + m * ldm + n * GRP_ACC_LANES;
            for (int l = 0; l < VL; ++l) s[l] = c[l];
            for (size_t j = 0; j < len; ++j) {
                const float bv = (bm[n][j / 16] >> (j % 16)) & 1u ? b[n][j] : 0.0f;
                const float prod = a[m][j] * bv;
                s[j % VL] = s[j % VL] + prod;
            }
            for (int l = 0; l < VL; ++l) c[l] = s[l];
        }
}
