/* Portable lane sums of dense runs (gradBias's order): one channel at a time. */
#include "kernels/dw_ukernels.h"

void f32_dwsum_ukernel_1x16__scalar(size_t nch, size_t len, const float *const *x, float *acc)
{
    for (size_t ch = 0; ch < nch; ++ch) {
        float *a = acc + ch * DW_SUM_LANES;
        const float *r = x[ch];
        size_t k = 0;
        for (; k + DW_SUM_LANES <= len; k += DW_SUM_LANES)
            for (int j = 0; j < DW_SUM_LANES; ++j)
                a[j] += r[k + (size_t)j];
        for (int j = 0; k < len; ++k, ++j)
            a[j] += r[k];
    }
}
