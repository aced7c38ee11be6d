/* Portable step-2 row copies (the W phases of a stride-2 layer). */
#include "kernels/cvt_ukernels.h"

void f32_load_step2_ukernel__scalar(size_t n, const float *src, float *dst)
{
    for (size_t i = 0; i < n; ++i)
        dst[i] = src[2 * i];
}

void f32_store_step2_ukernel__scalar(size_t n, const float *src, float *dst)
{
    for (size_t i = 0; i < n; ++i)
        dst[2 * i] = src[i];
}
