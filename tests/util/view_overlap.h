/* Whether a strided view reaches some element twice, by enumeration: the
 * oracle of validation rule S.6 (an independent check, not the library's
 * stride-sorting rule). Header-only: the fuzz harness links no test helper. */
#ifndef ACLCONV_TEST_VIEW_OVERLAP_H_
#define ACLCONV_TEST_VIEW_OVERLAP_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static int view_overlap_cmp(const void *x, const void *y)
{
    const int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* dims / strides of nd <= 8 dims; scratch holds cap element indices. false
 * when the view has fewer than 2 or more than cap elements. */
static inline bool view_reaches_twice(const int64_t *dims, const int64_t *strides, uint64_t nd,
                                      int64_t *scratch, int64_t cap)
{
    int64_t numel = 1;
    for (uint64_t j = 0; j < nd; ++j) {
        if (dims[j] <= 0) return false;
        if (dims[j] > cap / numel) return false;
        numel *= dims[j];
    }
    if (numel < 2 || nd > 8) return false;
    int64_t pos[8] = {0};
    for (int64_t e = 0; e < numel; ++e) {
        int64_t off = 0;
        for (uint64_t j = 0; j < nd; ++j) off += pos[j] * strides[j];
        scratch[e] = off;
        for (uint64_t j = nd; j-- > 0;) {
            if (++pos[j] < dims[j]) break;
            pos[j] = 0;
        }
    }
    qsort(scratch, (size_t)numel, sizeof scratch[0], view_overlap_cmp);
    for (int64_t e = 1; e < numel; ++e)
        if (scratch[e] == scratch[e - 1]) return true;
    return false;
}

#endif /* ACLCONV_TEST_VIEW_OVERLAP_H_ */
