/* The store fence after non-temporal stores (see cvt_ukernels.h). */
#include <immintrin.h>

#include "kernels/cvt_ukernels.h"

void store_fence__avx2(void) { _mm_sfence(); }
