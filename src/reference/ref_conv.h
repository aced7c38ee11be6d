/*
 * The plain reference of aclnnConvolutionBackward: the formulas of
 * docs/numerics.md (spec §5) written out as loops, in double, for rank 1, 2
 * and 3, any stride / head+tail padding / dilation / groups, transposed or not.
 * Used by the tests and the benchmark only; never linked into the library.
 *
 * All arrays are dense double arrays, channel-major and spatially contiguous:
 *   activations [N][C][S0][S1][S2], weights [Co][Ci/g][K0][K1][K2],
 * with unused trailing spatial dims of size 1. Nothing here knows dtypes: the
 * caller rounds operands and results (tests/util/conv_expect.c).
 *
 * The problem description (ref_problem) is shared by tests and benchmarks and
 * has a one-line text form, e.g.
 *   name=x dims=2 n=2 c=3:4 in=7x7 k=3x3 o=7x7 s=1x1 p=1x1 d=1x1 g=1 t=0 op=0x0
 *   dt=f32,f32,f32,f32,f32,f32 cmt=0 mask=111
 * Keys:
 *   name  free text without blanks (optional)
 *   dims  spatial rank: 1, 2 or 3
 *   n     batch
 *   c     Cin:Cout = channels of input : channels of gradOutput (both modes)
 *   in    spatial size of input,      one value per dim joined by 'x'
 *   k     kernel spatial size
 *   o     spatial size of gradOutput (optional: derived when absent, for
 *         transposed problems from op)
 *   s     stride;  d  dilation (1 = dense, aclnn convention)
 *   p     padding: "1x2" = symmetric per dim (rank-2 array for the API);
 *         "1:0x2:1" = head:tail per dim (2-D only: the API gets the 4-element
 *         array [top, bottom, left, right])
 *   g     groups;  t  1 = transposed;  op  outputPadding (transposed only)
 *   dt    dtypes of gradOutput,input,weight,gradInput,gradWeight,gradBias:
 *         f32 | f16 | bf16
 *   cmt   cubeMathType 0..3
 *   mask  outputMask as three digits: gradInput gradWeight gradBias
 *   seed  data / layout seed of a randomized case (optional, default 0)
 *   view  which tensors are strided views: a string of 6 digits in dt order
 *         (optional, default 000000)
 *   data  int = small-integer data (exact sums), real = real data
 *         (optional, default real)
 */
#ifndef ACLCONV_REF_CONV_H_
#define ACLCONV_REF_CONV_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#define REF_MAX_SPATIAL 3
/* Tensors of a problem, in the order of the dt key. */
enum { REF_T_DY = 0, REF_T_X, REF_T_W, REF_T_DX, REF_T_DW, REF_T_DB, REF_T_COUNT };
/* outputMask bits. */
#define REF_MASK_DX 1
#define REF_MASK_DW 2
#define REF_MASK_DB 4

/* Geometry of one forward convolution y = conv(x, w) (what the formulas see). */
typedef struct ref_geom {
    int64_t n;
    int64_t c_in;  /* channels of x */
    int64_t c_out; /* channels of y */
    int64_t groups;
    int64_t in[REF_MAX_SPATIAL];  /* spatial size of x (unused dims 1) */
    int64_t out[REF_MAX_SPATIAL]; /* spatial size of y */
    int64_t k[REF_MAX_SPATIAL];
    int64_t stride[REF_MAX_SPATIAL];
    int64_t pad_head[REF_MAX_SPATIAL];
    int64_t pad_tail[REF_MAX_SPATIAL]; /* only shapes use it */
    int64_t dil[REF_MAX_SPATIAL];
} ref_geom;

typedef struct ref_problem {
    char name[64];
    int dims; /* spatial rank 1..3 */
    int64_t n, c_in, c_out, groups;
    int64_t in[REF_MAX_SPATIAL], k[REF_MAX_SPATIAL], o[REF_MAX_SPATIAL];
    int64_t s[REF_MAX_SPATIAL], ph[REF_MAX_SPATIAL], pt[REF_MAX_SPATIAL], d[REF_MAX_SPATIAL];
    int64_t op[REF_MAX_SPATIAL];
    int pad4; /* 2-D: pass padding as [top, bottom, left, right] */
    int transposed;
    aclDataType dt[REF_T_COUNT];
    int cube_math;
    int mask; /* REF_MASK_* bits */
    uint64_t seed;
    int view[REF_T_COUNT];
    int int_data;
} ref_problem;

/* A problem with every field defaulted: dims 2, sizes 1, FLOAT, mask 111. */
void ref_problem_init(ref_problem *p);
/* Sets p->o from the other fields: the forward output size, or for a
 * transposed problem (S-1)*s - padsum + d*(K-1) + op + 1. */
void ref_problem_derive_out(ref_problem *p);
/* 0 if the shapes are consistent (floor((O_i + padsum - d(K-1) - 1)/s) + 1 ==
 * S_i for transposed, the forward formula otherwise, channel/group rules,
 * asymmetric padding only with pad4), else -1 with a reason in why. */
int ref_problem_check(const ref_problem *p, char *why, size_t why_len);
/* Writes the one-line key=value form; returns buf. */
char *ref_problem_format(const ref_problem *p, char *buf, size_t len);
/* Parses the one-line form (keys in any order; unknown keys are an error).
 * Returns 0, or -1 with a reason in err. o is derived when absent. */
int ref_problem_parse(const char *line, ref_problem *p, char *err, size_t err_len);

/* Shapes of the six tensors: dims written to shape (rank dims+2; gradBias 1).
 * Returns the rank. */
int ref_problem_shape(const ref_problem *p, int tensor, int64_t shape[5]);
int64_t ref_problem_numel(const ref_problem *p, int tensor);
/* Compute dtype name ("FLOAT", "HF32", "FLOAT16", "BFLOAT16") for printing. */
const char *ref_dtype_short(aclDataType dt);
int ref_dtype_parse(const char *s, aclDataType *dt);

/* ---- the formulas on dense double arrays -------------------------------- */

/* Geometry of the forward convolution the formulas see: for a non-transposed
 * problem x = input, y = gradOutput; for a transposed one x = gradOutput,
 * y = input (the transposed convolution is the adjoint of this one). */
void ref_problem_geom(const ref_problem *p, ref_geom *g);

int64_t ref_geom_x_numel(const ref_geom *g);
int64_t ref_geom_y_numel(const ref_geom *g);
int64_t ref_geom_w_numel(const ref_geom *g);

/* y[n,co,o] = sum_{ci', k} x[n, g(co)*Cin_g + ci', o*s - ph + k*d] * w[co,ci',k] */
void ref_conv_forward(const ref_geom *g, const double *x, const double *w, double *y);
/* dx[n,c,i] = sum_{co in group(c)} sum_{o,k: o*s - ph + k*d = i} dy[n,co,o] w[co,c',k]
 * (gathered per input position: for each k, o = (i + ph - k*d)/s when exact). */
void ref_conv_backward_data(const ref_geom *g, const double *dy, const double *w, double *dx);
/* dw[co,ci',k] = sum_{n,o} x[n, g(co)*Cin_g + ci', o*s - ph + k*d] * dy[n,co,o] */
void ref_conv_backward_weights(const ref_geom *g, const double *x, const double *dy, double *dw);
/* db[c] = sum_{n, o} dy[n,c,o]; dy is [n][c][spatial]. */
void ref_conv_backward_bias(int64_t n, int64_t c, int64_t spatial, const double *dy, double *db);

/* The transposed convolution's forward, written independently as a scatter:
 * for input x [N,Cin,S], weight [Cin, Cout/g, K] and the geometry of the
 * non-transposed conv from y [N,Cout,O] to x (ref_problem_geom of a
 * transposed problem), out[n,co,j] = sum over ci in group, i, k with
 * i*s - ph + k*d = j of x[n,ci,i] * w[ci, co', k]. out is [N, Cout, O]. */
void ref_conv_transposed_forward(const ref_geom *g, const double *x, const double *w,
                                 double *out);

/* The three gradients of a problem, transposed or not, in double, from dense
 * double operands (input x, weight w, gradOutput dy in the problem's own
 * shapes). Any of dx, dw, db may be NULL. For a transposed problem:
 * gradInput = forward conv of dy with w; gradWeight = backward_weights with
 * the roles of x and dy swapped. (Empty-tensor rules are not applied here.) */
void ref_problem_gradients(const ref_problem *p, const double *dy, const double *x,
                           const double *w, double *dx, double *dw, double *db);

#endif /* ACLCONV_REF_CONV_H_ */
