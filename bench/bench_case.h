/*
 * One benchmark case: a line of a suite file, e.g.
 *   name=r50_c2_3x3 dims=2 n=16 c=64 o=64 in=56 k=3 p=1
 * Keys (all optional except in; any order; '#' starts a comment):
 *   name  free text without blanks
 *   dims  spatial rank 1, 2 or 3 (default: the rank of in, else 2)
 *   n     batch (1)
 *   c     channels of input         (both modes; 1)
 *   o     channels of gradOutput    (both modes; default c)
 *   in    spatial size of input: one number for every dim, or AxBxC
 *   k     kernel size (1);  s stride (1);  p padding, both sides (0)
 *   d     dilation, 1 = dense (1);  g groups (1);  t transposed 0|1 (0)
 *   op    output padding (transposed only; 0)
 *   dtype fp32|bf16|fp16 (fp32);  mask data|weight|all (all);  cube 0..3 (0)
 * k, s, p, d and op take one number for every dim or AxBxC like in.
 * The last three are usually set for the whole run on the command line
 * (--dtype, --mask, --cube); a key in the line overrides the command line.
 *
 * Shapes (aclnn convention):
 *   regular:    input [N, c, in], weight [o, c/g, k], gradOutput [N, o, out],
 *               out = floor((in + 2p - d(k-1) - 1) / s) + 1
 *   transposed: input [N, c, in], weight [c, o/g, k], gradOutput [N, o, out],
 *               out = (in - 1)s - 2p + d(k-1) + op + 1
 */
#ifndef ACLCONV_BENCH_CASE_H_
#define ACLCONV_BENCH_CASE_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#define BENCH_MAX_DIMS 3

/* What the case computes (outputMask). */
enum {
    BENCH_MASK_DATA = 1,   /* gradInput */
    BENCH_MASK_WEIGHT = 2, /* gradWeight + gradBias */
    BENCH_MASK_ALL = 3
};

typedef struct bench_case {
    char name[64];
    int dims;
    int64_t n, c, o, g;
    int64_t in[BENCH_MAX_DIMS], k[BENCH_MAX_DIMS], s[BENCH_MAX_DIMS], p[BENCH_MAX_DIMS];
    int64_t d[BENCH_MAX_DIMS], op[BENCH_MAX_DIMS];
    int t;
    aclDataType dtype;
    int mask;
    int cube;
    /* derived by bench_case_finish */
    int64_t out[BENCH_MAX_DIMS];
} bench_case;

/* Defaults for the keys the command line may set. */
typedef struct bench_case_defaults {
    aclDataType dtype;
    int mask;
    int cube;
} bench_case_defaults;

/* Parses one suite line. Returns 1 for a case, 0 for a blank or comment
 * line, -1 on error (reason in err). The case is checked and its output size
 * derived. */
int bench_case_parse(const char *line, const bench_case_defaults *def, bench_case *c, char *err,
                     size_t err_len);

/* The one-line form (the suite syntax plus the derived output size). */
char *bench_case_format(const bench_case *c, char *buf, size_t len);

const char *bench_dtype_name(aclDataType dt);
const char *bench_mask_name(int mask);
int bench_dtype_parse(const char *s, aclDataType *dt);
int bench_mask_parse(const char *s, int *mask);

/* Shapes of the call's tensors (rank dims + 2). */
void bench_case_input_shape(const bench_case *c, int64_t shape[5]);
void bench_case_weight_shape(const bench_case *c, int64_t shape[5]);
void bench_case_grad_output_shape(const bench_case *c, int64_t shape[5]);
int64_t bench_shape_numel(const int64_t *shape, int rank);

/* Multiply-accumulates of one direction (gradInput or gradWeight: the same
 * count): N * C_y * prod(y) * (C_x / g) * prod(k), where y is the output of
 * the forward convolution (gradOutput, or input when transposed). */
double bench_case_macs(const bench_case *c);
/* FLOPs of what the mask computes: 2 * MACs per direction (bias not counted). */
double bench_case_flops(const bench_case *c);

#endif /* ACLCONV_BENCH_CASE_H_ */
