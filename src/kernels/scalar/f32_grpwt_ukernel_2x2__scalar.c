/* Scalar grouped weight-gradient dot products: 4 lanes per accumulator
 * (lane j % 4), multiply then add. */
#include "kernels/grp_ukernels.h"

#define VL 4

void f32_grpwt_ukernel_2x2__scalar(size_t mr, size_t nr, size_t len, const float *const *a,
                                   const float *const *b, float *acc, size_t ldm)
{
    for (size_t m = 0; m < mr; ++m)
        for (size_t n = 0; n < nr; ++n) {
            float s[VL];
            float *c = acc + m * ldm + n * GRP_ACC_LANES;
            for (int l = 0; l < VL; ++l) s[l] = c[l];
            for (size_t j = 0; j < len; ++j) {
                const float prod = a[m][j] * b[n][j];
                s[j % VL] = s[j % VL] + prod;
            }
            for (int l = 0; l < VL; ++l) c[l] = s[l];
        }
}
