/* AVX2 fp32 -> fp16 / bf16 narrowing (the loop: f32_narrow__avx2.h). */
#include "kernels/avx2/f32_narrow__avx2.h"
#include "kernels/cvt_ukernels.h"

void f32_narrow_ukernel__avx2(size_t n, const float *src, uint16_t *dst, int bf16)
{
    narrow_row8(n, src, dst, bf16, 0);
}
