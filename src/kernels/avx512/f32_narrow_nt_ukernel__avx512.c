/* AVX-512 fp32 -> fp16 / bf16 narrowing with non-temporal stores (the loop:
 * f32_narrow__avx512.h). */
#include "kernels/avx512/f32_narrow__avx512.h"
#include "kernels/cvt_ukernels.h"

void f32_narrow_nt_ukernel__avx512(size_t n, const float *src, uint16_t *dst, int bf16)
{
    narrow_row16(n, src, dst, bf16, 1);
}
