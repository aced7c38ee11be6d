/* Portable in-place depthwise weight-gradient dot products: 1 tap x 4 lanes
 * (lane = column mod 4), one tap at a time (multiply, then add), the x rows
 * read where they lie. */
#include "kernels/dw_ukernels.h"

#define VL 4

void f32_dwrowwt_ukernel_1x4__scalar(size_t rows, size_t ow, const f32_dwrow_src *s,
                                     const float *dy, size_t dyrs, float *acc)
{
    for (size_t t = 0; t < s->nt; ++t) {
        float a[VL];
        for (int l = 0; l < VL; ++l)
            a[l] = acc[t * DW_ACC_LANES + (size_t)l];
        for (size_t r = 0; r < rows; ++r) {
            if (t == 0) ukernel_prefetch_steps(&s->pf, r, r + 1, rows);
            const float *dr = dy + r * dyrs;
            const ptrdiff_t i = (ptrdiff_t)r + s->dh[t];
            const bool row_in = s->x[t] != NULL && i >= 0 && (size_t)i < s->ih;
            for (size_t j = 0; j < ow; ++j) {
                const ptrdiff_t k = (ptrdiff_t)j + s->dw[t];
                const float xv = row_in && k >= 0 && (size_t)k < s->iw
                                     ? s->x[t][(size_t)i * s->rs + (size_t)k]
                                     : 0.0f;
                const float prod = xv * dr[j];
                a[j % VL] = a[j % VL] + prod;
            }
        }
        for (int l = 0; l < VL; ++l)
            acc[t * DW_ACC_LANES + (size_t)l] = a[l];
    }
}
