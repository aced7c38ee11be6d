/* The run-time to compile-time dispatch shared by the SIMD "conv" kernels
 * (f32_conv_ukernel_*__avx2.c / __avx512.c): each file defines its body
 * (conv_body, conv1_body) with constant vector counts and a constant
 * "rounds" (xround != F32_ROUND_NONE), VL its vector width, and expands
 * these macros inside its entry point, whose parameters they name. Include
 * only from those files. */
#ifndef ACLCONV_CONV_DISPATCH_H_
#define ACLCONV_CONV_DISPATCH_H_

/* A tile of `rows` rows: 3, 2 or 1 vectors of columns. */
#define CONV_COLUMNS(rows, rounds)                                                                 \
    do {                                                                                           \
        if (nr > 2 * VL)                                                                           \
            conv_body(3, rows, rounds, nr, nc, nt, w, x, cs, toff, y, ldy, accumulate, xround);    \
        else if (nr > VL)                                                                          \
            conv_body(2, rows, rounds, nr, nc, nt, w, x, cs, toff, y, ldy, accumulate, xround);    \
        else                                                                                       \
            conv_body(1, rows, rounds, nr, nc, nt, w, x, cs, toff, y, ldy, accumulate, xround);    \
    } while (0)

/* The single-row kernels: 1 to 8 vectors of columns. */
#define CONV1_VECTORS(rounds)                                                                      \
    do {                                                                                           \
        switch ((nr + VL - 1) / VL) {                                                              \
        case 8: conv1_body(8, rounds, nr, nc, nt, w, x, cs, toff, y, accumulate, xround); break;   \
        case 7: conv1_body(7, rounds, nr, nc, nt, w, x, cs, toff, y, accumulate, xround); break;   \
        case 6: conv1_body(6, rounds, nr, nc, nt, w, x, cs, toff, y, accumulate, xround); break;   \
        case 5: conv1_body(5, rounds, nr, nc, nt, w, x, cs, toff, y, accumulate, xround); break;   \
        case 4: conv1_body(4, rounds, nr, nc, nt, w, x, cs, toff, y, accumulate, xround); break;   \
        case 3: conv1_body(3, rounds, nr, nc, nt, w, x, cs, toff, y, accumulate, xround); break;   \
        case 2: conv1_body(2, rounds, nr, nc, nt, w, x, cs, toff, y, accumulate, xround); break;   \
        default: conv1_body(1, rounds, nr, nc, nt, w, x, cs, toff, y, accumulate, xround); break;  \
        }                                                                                          \
    } while (0)

#endif /* ACLCONV_CONV_DISPATCH_H_ */
