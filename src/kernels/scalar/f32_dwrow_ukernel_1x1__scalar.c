/* Portable in-place depthwise correlation: one element at a time (multiply,
 * then add), the taps' sources read where they lie. */
#include "kernels/dw_ukernels.h"

/* X_t(i, k) of the contract: 0 outside the source plane. */
static inline float src_at(const f32_dwrow_src *s, size_t t, ptrdiff_t i, ptrdiff_t k)
{
    if (s->x[t] == NULL || i < 0 || k < 0 || (size_t)i >= s->ih || (size_t)k >= s->iw) return 0.0f;
    return s->x[t][(size_t)i * s->rs + (size_t)k];
}

void f32_dwrow_ukernel_1x1__scalar(size_t rows, size_t ow, const f32_dwrow_src *s, const float *w,
                                   float *y, size_t yrs)
{
    for (size_t r = 0; r < rows; ++r) {
        ukernel_prefetch_steps(&s->pf, r, r + 1, rows);
        for (size_t j = 0; j < ow; ++j) {
            float acc = 0.0f;
            for (size_t t = 0; t < s->nt; ++t) {
                const float prod =
                    w[t] * src_at(s, t, (ptrdiff_t)r + s->dh[t], (ptrdiff_t)j + s->dw[t]);
                acc = acc + prod;
            }
            y[r * yrs + j] = acc;
        }
    }
}
