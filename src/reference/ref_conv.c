/* The plain reference: formulas as loops, in double. See ref_conv.h. */
#include "reference/ref_conv.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- geometry helpers ---------------------------------------------------- */

static int64_t prod3(const int64_t v[REF_MAX_SPATIAL]) { return v[0] * v[1] * v[2]; }

int64_t ref_geom_x_numel(const ref_geom *g) { return g->n * g->c_in * prod3(g->in); }
int64_t ref_geom_y_numel(const ref_geom *g) { return g->n * g->c_out * prod3(g->out); }
int64_t ref_geom_w_numel(const ref_geom *g)
{
    return g->groups > 0 ? g->c_out * (g->c_in / g->groups) * prod3(g->k) : 0;
}

/* Flat index of [a][b][s0][s1][s2] in an array of [..][B][S0][S1][S2]. */
static int64_t idx5(int64_t a, int64_t b, int64_t B, const int64_t S[3], int64_t s0, int64_t s1,
                    int64_t s2)
{
    return (((a * B + b) * S[0] + s0) * S[1] + s1) * S[2] + s2;
}

/* ---- the formulas --------------------------------------------------------- */

void ref_conv_forward(const ref_geom *g, const double *x, const double *w, double *y)
{
    const int64_t cin_g = g->c_in / g->groups, cout_g = g->c_out / g->groups;
    for (int64_t n = 0; n < g->n; ++n)
        for (int64_t co = 0; co < g->c_out; ++co)
            for (int64_t o0 = 0; o0 < g->out[0]; ++o0)
                for (int64_t o1 = 0; o1 < g->out[1]; ++o1)
                    for (int64_t o2 = 0; o2 < g->out[2]; ++o2) {
                        double acc = 0.0;
                        const int64_t grp = co / cout_g;
                        for (int64_t cj = 0; cj < cin_g; ++cj)
                            for (int64_t k0 = 0; k0 < g->k[0]; ++k0)
                                for (int64_t k1 = 0; k1 < g->k[1]; ++k1)
                                    for (int64_t k2 = 0; k2 < g->k[2]; ++k2) {
                                        int64_t i0 = o0 * g->stride[0] - g->pad_head[0] + k0 * g->dil[0];
                                        int64_t i1 = o1 * g->stride[1] - g->pad_head[1] + k1 * g->dil[1];
                                        int64_t i2 = o2 * g->stride[2] - g->pad_head[2] + k2 * g->dil[2];
                                        if (i0 < 0 || i0 >= g->in[0] || i1 < 0 || i1 >= g->in[1] ||
                                            i2 < 0 || i2 >= g->in[2])
                                            continue;
                                        acc += x[idx5(n, grp * cin_g + cj, g->c_in, g->in, i0, i1, i2)] *
                                               w[idx5(co, cj, cin_g, g->k, k0, k1, k2)];
                                    }
                        y[idx5(n, co, g->c_out, g->out, o0, o1, o2)] = acc;
                    }
}

/* The output position o with o*s - ph + k*d == i, or -1 when there is none. */
static int64_t out_pos(int64_t i, int64_t k, int64_t s, int64_t ph, int64_t d, int64_t out)
{
    int64_t num = i + ph - k * d;
    if (num < 0 || num % s != 0) return -1;
    int64_t o = num / s;
    return o < out ? o : -1;
}

void ref_conv_backward_data(const ref_geom *g, const double *dy, const double *w, double *dx)
{
    const int64_t cin_g = g->c_in / g->groups, cout_g = g->c_out / g->groups;
    for (int64_t n = 0; n < g->n; ++n)
        for (int64_t c = 0; c < g->c_in; ++c)
            for (int64_t i0 = 0; i0 < g->in[0]; ++i0)
                for (int64_t i1 = 0; i1 < g->in[1]; ++i1)
                    for (int64_t i2 = 0; i2 < g->in[2]; ++i2) {
                        double acc = 0.0;
                        const int64_t grp = c / cin_g, cj = c % cin_g;
                        for (int64_t cq = 0; cq < cout_g; ++cq) {
                            const int64_t co = grp * cout_g + cq;
                            for (int64_t k0 = 0; k0 < g->k[0]; ++k0) {
                                int64_t o0 = out_pos(i0, k0, g->stride[0], g->pad_head[0], g->dil[0], g->out[0]);
                                if (o0 < 0) continue;
                                for (int64_t k1 = 0; k1 < g->k[1]; ++k1) {
                                    int64_t o1 = out_pos(i1, k1, g->stride[1], g->pad_head[1], g->dil[1], g->out[1]);
                                    if (o1 < 0) continue;
                                    for (int64_t k2 = 0; k2 < g->k[2]; ++k2) {
                                        int64_t o2 = out_pos(i2, k2, g->stride[2], g->pad_head[2], g->dil[2], g->out[2]);
                                        if (o2 < 0) continue;
                                        acc += dy[idx5(n, co, g->c_out, g->out, o0, o1, o2)] *
                                               w[idx5(co, cj, cin_g, g->k, k0, k1, k2)];
                                    }
                                }
                            }
                        }
                        dx[idx5(n, c, g->c_in, g->in, i0, i1, i2)] = acc;
                    }
}

void ref_conv_backward_weights(const ref_geom *g, const double *x, const double *dy, double *dw)
{
    const int64_t cin_g = g->c_in / g->groups, cout_g = g->c_out / g->groups;
    for (int64_t co = 0; co < g->c_out; ++co)
        for (int64_t cj = 0; cj < cin_g; ++cj)
            for (int64_t k0 = 0; k0 < g->k[0]; ++k0)
                for (int64_t k1 = 0; k1 < g->k[1]; ++k1)
                    for (int64_t k2 = 0; k2 < g->k[2]; ++k2) {
                        double acc = 0.0;
                        const int64_t ci = (co / cout_g) * cin_g + cj;
                        for (int64_t n = 0; n < g->n; ++n)
                            for (int64_t o0 = 0; o0 < g->out[0]; ++o0)
                                for (int64_t o1 = 0; o1 < g->out[1]; ++o1)
                                    for (int64_t o2 = 0; o2 < g->out[2]; ++o2) {
                                        int64_t i0 = o0 * g->stride[0] - g->pad_head[0] + k0 * g->dil[0];
                                        int64_t i1 = o1 * g->stride[1] - g->pad_head[1] + k1 * g->dil[1];
                                        int64_t i2 = o2 * g->stride[2] - g->pad_head[2] + k2 * g->dil[2];
                                        if (i0 < 0 || i0 >= g->in[0] || i1 < 0 || i1 >= g->in[1] ||
                                            i2 < 0 || i2 >= g->in[2])
                                            continue;
                                        acc += x[idx5(n, ci, g->c_in, g->in, i0, i1, i2)] *
                                               dy[idx5(n, co, g->c_out, g->out, o0, o1, o2)];
                                    }
                        dw[idx5(co, cj, cin_g, g->k, k0, k1, k2)] = acc;
                    }
}

void ref_conv_backward_bias(int64_t n, int64_t c, int64_t spatial, const double *dy, double *db)
{
    for (int64_t cc = 0; cc < c; ++cc) {
        double acc = 0.0;
        for (int64_t nn = 0; nn < n; ++nn)
            for (int64_t s = 0; s < spatial; ++s) acc += dy[(nn * c + cc) * spatial + s];
        db[cc] = acc;
    }
}

void ref_conv_transposed_forward(const ref_geom *g, const double *x, const double *w, double *out)
{
    /* Here g maps out -> x: g->c_in = Cout (channels of out), g->c_out = Cin
     * (channels of x), g->out = spatial of x, g->in = spatial of out. The
     * weight is [Cin][Cout/g][K]. Scatter every x element through the kernel. */
    const int64_t cx = g->c_out, co_all = g->c_in;
    const int64_t cxg = cx / g->groups, cog = co_all / g->groups;
    const int64_t out_n = g->n * co_all * prod3(g->in);
    for (int64_t e = 0; e < out_n; ++e) out[e] = 0.0;
    for (int64_t n = 0; n < g->n; ++n)
        for (int64_t ci = 0; ci < cx; ++ci)
            for (int64_t i0 = 0; i0 < g->out[0]; ++i0)
                for (int64_t i1 = 0; i1 < g->out[1]; ++i1)
                    for (int64_t i2 = 0; i2 < g->out[2]; ++i2) {
                        const double xv = x[idx5(n, ci, cx, g->out, i0, i1, i2)];
                        const int64_t grp = ci / cxg;
                        for (int64_t cq = 0; cq < cog; ++cq)
                            for (int64_t k0 = 0; k0 < g->k[0]; ++k0)
                                for (int64_t k1 = 0; k1 < g->k[1]; ++k1)
                                    for (int64_t k2 = 0; k2 < g->k[2]; ++k2) {
                                        int64_t j0 = i0 * g->stride[0] - g->pad_head[0] + k0 * g->dil[0];
                                        int64_t j1 = i1 * g->stride[1] - g->pad_head[1] + k1 * g->dil[1];
                                        int64_t j2 = i2 * g->stride[2] - g->pad_head[2] + k2 * g->dil[2];
                                        if (j0 < 0 || j0 >= g->in[0] || j1 < 0 || j1 >= g->in[1] ||
                                            j2 < 0 || j2 >= g->in[2])
                                            continue;
                                        out[idx5(n, grp * cog + cq, co_all, g->in, j0, j1, j2)] +=
                                            xv * w[idx5(ci, cq, cog, g->k, k0, k1, k2)];
                                    }
                    }
}

/* ---- problems ------------------------------------------------------------- */

void ref_problem_init(ref_problem *p)
{
    memset(p, 0, sizeof *p);
    p->dims = 2;
    p->n = p->c_in = p->c_out = p->groups = 1;
    for (int i = 0; i < REF_MAX_SPATIAL; ++i) {
        p->in[i] = p->k[i] = p->o[i] = p->s[i] = p->d[i] = 1;
    }
    for (int t = 0; t < REF_T_COUNT; ++t) p->dt[t] = ACL_FLOAT;
    p->mask = REF_MASK_DX | REF_MASK_DW | REF_MASK_DB;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

/* Forward output size of one dim: floor((S + padsum - d(K-1) - 1)/s) + 1. */
static int64_t fwd_out(int64_t S, int64_t ph, int64_t pt, int64_t k, int64_t s, int64_t d)
{
    return floor_div(S + ph + pt - d * (k - 1) - 1, s) + 1;
}

void ref_problem_derive_out(ref_problem *p)
{
    for (int i = 0; i < p->dims; ++i) {
        if (p->transposed)
            p->o[i] = (p->in[i] - 1) * p->s[i] - p->ph[i] - p->pt[i] + p->d[i] * (p->k[i] - 1) +
                      p->op[i] + 1;
        else
            p->o[i] = fwd_out(p->in[i], p->ph[i], p->pt[i], p->k[i], p->s[i], p->d[i]);
    }
    for (int i = p->dims; i < REF_MAX_SPATIAL; ++i) p->o[i] = 1;
}

int ref_problem_check(const ref_problem *p, char *why, size_t why_len)
{
#define FAIL(...)                                                                                  \
    do {                                                                                           \
        if (why) snprintf(why, why_len, __VA_ARGS__);                                              \
        return -1;                                                                                 \
    } while (0)
    if (p->dims < 1 || p->dims > 3) FAIL("dims %d not in 1..3", p->dims);
    if (p->n < 0 || p->c_in < 0 || p->c_out < 0) FAIL("negative n or channels");
    if (p->groups < 1) FAIL("groups %" PRId64 " < 1", p->groups);
    if (p->c_in % p->groups || p->c_out % p->groups)
        FAIL("channels %" PRId64 ":%" PRId64 " not divisible by groups %" PRId64, p->c_in,
             p->c_out, p->groups);
    for (int i = 0; i < p->dims; ++i) {
        if (p->s[i] < 1 || p->d[i] < 1 || p->ph[i] < 0 || p->pt[i] < 0 || p->op[i] < 0)
            FAIL("dim %d: bad stride/dilation/padding", i);
        if (p->in[i] < 0 || p->k[i] < 1 || p->o[i] < 0) FAIL("dim %d: bad sizes", i);
        if (p->ph[i] != p->pt[i] && !(p->pad4 && p->dims == 2))
            FAIL("dim %d: asymmetric padding needs the 2-D 4-element form", i);
        if (!p->transposed && p->op[i] != 0) FAIL("outputPadding without transposed");
        /* the forward direction x -> y of the formulas */
        int64_t S = p->transposed ? p->o[i] : p->in[i];
        int64_t O = p->transposed ? p->in[i] : p->o[i];
        if (S + p->ph[i] + p->pt[i] < p->d[i] * (p->k[i] - 1) + 1)
            FAIL("dim %d: kernel extent exceeds padded size", i);
        int64_t want = fwd_out(S, p->ph[i], p->pt[i], p->k[i], p->s[i], p->d[i]);
        if (want != O)
            FAIL("dim %d: %s size %" PRId64 " but the formula gives %" PRId64, i,
                 p->transposed ? "input" : "gradOutput", O, want);
    }
    return 0;
#undef FAIL
}

int ref_problem_shape(const ref_problem *p, int tensor, int64_t shape[5])
{
    const int r = p->dims + 2;
    switch (tensor) {
    case REF_T_DY:
        shape[0] = p->n, shape[1] = p->c_out;
        for (int i = 0; i < p->dims; ++i) shape[2 + i] = p->o[i];
        return r;
    case REF_T_X:
    case REF_T_DX:
        shape[0] = p->n, shape[1] = p->c_in;
        for (int i = 0; i < p->dims; ++i) shape[2 + i] = p->in[i];
        return r;
    case REF_T_W:
    case REF_T_DW:
        if (p->transposed)
            shape[0] = p->c_in, shape[1] = p->c_out / p->groups;
        else
            shape[0] = p->c_out, shape[1] = p->c_in / p->groups;
        for (int i = 0; i < p->dims; ++i) shape[2 + i] = p->k[i];
        return r;
    default:
        shape[0] = p->c_out;
        return 1;
    }
}

int64_t ref_problem_numel(const ref_problem *p, int tensor)
{
    int64_t shape[5];
    int r = ref_problem_shape(p, tensor, shape);
    int64_t e = 1;
    for (int i = 0; i < r; ++i) e *= shape[i];
    return e;
}

void ref_problem_geom(const ref_problem *p, ref_geom *g)
{
    memset(g, 0, sizeof *g);
    g->n = p->n;
    g->groups = p->groups;
    g->c_in = p->transposed ? p->c_out : p->c_in;
    g->c_out = p->transposed ? p->c_in : p->c_out;
    for (int i = 0; i < REF_MAX_SPATIAL; ++i) {
        int used = i < p->dims;
        g->in[i] = used ? (p->transposed ? p->o[i] : p->in[i]) : 1;
        g->out[i] = used ? (p->transposed ? p->in[i] : p->o[i]) : 1;
        g->k[i] = used ? p->k[i] : 1;
        g->stride[i] = used ? p->s[i] : 1;
        g->pad_head[i] = used ? p->ph[i] : 0;
        g->pad_tail[i] = used ? p->pt[i] : 0;
        g->dil[i] = used ? p->d[i] : 1;
    }
}

void ref_problem_gradients(const ref_problem *p, const double *dy, const double *x,
                           const double *w, double *dx, double *dw, double *db)
{
    ref_geom g;
    ref_problem_geom(p, &g);
    if (p->transposed) {
        /* x of the formulas is gradOutput, y is input */
        if (dx) ref_conv_forward(&g, dy, w, dx);
        if (dw) ref_conv_backward_weights(&g, dy, x, dw);
    } else {
        if (dx) ref_conv_backward_data(&g, dy, w, dx);
        if (dw) ref_conv_backward_weights(&g, x, dy, dw);
    }
    if (db) {
        int64_t sp = 1;
        for (int i = 0; i < p->dims; ++i) sp *= p->o[i];
        ref_conv_backward_bias(p->n, p->c_out, sp, dy, db);
    }
}

/* ---- text form ------------------------------------------------------------ */

static const struct {
    aclDataType dt;
    const char *s;
} k_dt_names[] = {{ACL_FLOAT, "f32"}, {ACL_FLOAT16, "f16"}, {ACL_BF16, "bf16"}};

const char *ref_dtype_short(aclDataType dt)
{
    for (size_t i = 0; i < sizeof k_dt_names / sizeof k_dt_names[0]; ++i)
        if (k_dt_names[i].dt == dt) return k_dt_names[i].s;
    return "?";
}

int ref_dtype_parse(const char *s, aclDataType *dt)
{
    for (size_t i = 0; i < sizeof k_dt_names / sizeof k_dt_names[0]; ++i)
        if (strcmp(k_dt_names[i].s, s) == 0) {
            *dt = k_dt_names[i].dt;
            return 0;
        }
    return -1;
}

/* Appends with snprintf semantics; keeps *pos bounded. */
static void app(char *buf, size_t len, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void app(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    if (*pos >= len) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *pos, len - *pos, fmt, ap);
    va_end(ap);
    if (w > 0) *pos += (size_t)w;
    if (*pos >= len) *pos = len;
}

static void app_dims(char *buf, size_t len, size_t *pos, const char *key, const int64_t *v, int n)
{
    app(buf, len, pos, " %s=", key);
    for (int i = 0; i < n; ++i) app(buf, len, pos, "%s%" PRId64, i ? "x" : "", v[i]);
}

char *ref_problem_format(const ref_problem *p, char *buf, size_t len)
{
    size_t pos = 0;
    if (len == 0) return buf;
    buf[0] = '\0';
    app(buf, len, &pos, "name=%s dims=%d n=%" PRId64 " c=%" PRId64 ":%" PRId64,
        p->name[0] ? p->name : "-", p->dims, p->n, p->c_in, p->c_out);
    app_dims(buf, len, &pos, "in", p->in, p->dims);
    app_dims(buf, len, &pos, "k", p->k, p->dims);
    app_dims(buf, len, &pos, "o", p->o, p->dims);
    app_dims(buf, len, &pos, "s", p->s, p->dims);
    app(buf, len, &pos, " p=");
    for (int i = 0; i < p->dims; ++i) {
        if (p->pad4)
            app(buf, len, &pos, "%s%" PRId64 ":%" PRId64, i ? "x" : "", p->ph[i], p->pt[i]);
        else
            app(buf, len, &pos, "%s%" PRId64, i ? "x" : "", p->ph[i]);
    }
    app_dims(buf, len, &pos, "d", p->d, p->dims);
    app(buf, len, &pos, " g=%" PRId64 " t=%d", p->groups, p->transposed);
    app_dims(buf, len, &pos, "op", p->op, p->dims);
    app(buf, len, &pos, " dt=");
    for (int t = 0; t < REF_T_COUNT; ++t)
        app(buf, len, &pos, "%s%s", t ? "," : "", ref_dtype_short(p->dt[t]));
    app(buf, len, &pos, " cmt=%d mask=%d%d%d", p->cube_math, !!(p->mask & REF_MASK_DX),
        !!(p->mask & REF_MASK_DW), !!(p->mask & REF_MASK_DB));
    app(buf, len, &pos, " seed=%" PRIu64 " view=", p->seed);
    for (int t = 0; t < REF_T_COUNT; ++t) app(buf, len, &pos, "%d", !!p->view[t]);
    app(buf, len, &pos, " data=%s", p->int_data ? "int" : "real");
    return buf;
}

static int parse_i64(const char **s, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(*s, &end, 10);
    if (end == *s || errno) return -1;
    *v = x;
    *s = end;
    return 0;
}

/* "AxBxC" with exactly n values (n = dims; when dims is not yet known the
 * count is returned in *got). */
static int parse_dims(const char *s, int64_t *v, int *got)
{
    int n = 0;
    while (1) {
        if (n >= REF_MAX_SPATIAL) return -1;
        if (parse_i64(&s, &v[n])) return -1;
        ++n;
        if (*s == '\0') break;
        if (*s != 'x') return -1;
        ++s;
    }
    *got = n;
    return 0;
}

int ref_problem_parse(const char *line, ref_problem *p, char *err, size_t err_len)
{
#define PFAIL(...)                                                                                 \
    do {                                                                                           \
        if (err) snprintf(err, err_len, __VA_ARGS__);                                              \
        return -1;                                                                                 \
    } while (0)
    ref_problem_init(p);
    int n_in = -1, n_k = -1, n_o = -1, n_s = -1, n_p = -1, n_d = -1, n_op = -1;
    int have_dims = 0;
    const char *c = line;
    char tok[256];
    while (*c) {
        while (*c && isspace((unsigned char)*c)) ++c;
        if (!*c) break;
        size_t l = 0;
        while (c[l] && !isspace((unsigned char)c[l])) ++l;
        if (l >= sizeof tok) PFAIL("token too long");
        memcpy(tok, c, l);
        tok[l] = '\0';
        c += l;
        char *eq = strchr(tok, '=');
        if (!eq) PFAIL("token '%s' is not key=value", tok);
        *eq = '\0';
        const char *key = tok, *val = eq + 1;
        if (!strcmp(key, "name")) {
            snprintf(p->name, sizeof p->name, "%s", strcmp(val, "-") ? val : "");
        } else if (!strcmp(key, "dims")) {
            int64_t v;
            if (parse_i64(&val, &v) || *val || v < 1 || v > 3) PFAIL("bad dims");
            p->dims = (int)v;
            have_dims = 1;
        } else if (!strcmp(key, "n") || !strcmp(key, "g") || !strcmp(key, "t") ||
                   !strcmp(key, "cmt")) {
            int64_t v;
            if (parse_i64(&val, &v) || *val) PFAIL("bad value for %s", key);
            if (key[0] == 'n') p->n = v;
            else if (key[0] == 'g') p->groups = v;
            else if (key[0] == 't') p->transposed = v != 0;
            else p->cube_math = (int)v;
        } else if (!strcmp(key, "c")) {
            if (parse_i64(&val, &p->c_in) || *val != ':') PFAIL("c wants Cin:Cout");
            ++val;
            if (parse_i64(&val, &p->c_out) || *val) PFAIL("c wants Cin:Cout");
        } else if (!strcmp(key, "in")) {
            if (parse_dims(val, p->in, &n_in)) PFAIL("bad in");
        } else if (!strcmp(key, "k")) {
            if (parse_dims(val, p->k, &n_k)) PFAIL("bad k");
        } else if (!strcmp(key, "o")) {
            if (parse_dims(val, p->o, &n_o)) PFAIL("bad o");
        } else if (!strcmp(key, "s")) {
            if (parse_dims(val, p->s, &n_s)) PFAIL("bad s");
        } else if (!strcmp(key, "d")) {
            if (parse_dims(val, p->d, &n_d)) PFAIL("bad d");
        } else if (!strcmp(key, "op")) {
            if (parse_dims(val, p->op, &n_op)) PFAIL("bad op");
        } else if (!strcmp(key, "p")) {
            /* "a" or "a:b" per dim, joined by 'x' */
            int n = 0, colon = 0;
            const char *s = val;
            while (1) {
                if (n >= REF_MAX_SPATIAL || parse_i64(&s, &p->ph[n])) PFAIL("bad p");
                p->pt[n] = p->ph[n];
                if (*s == ':') {
                    ++s;
                    colon = 1;
                    if (parse_i64(&s, &p->pt[n])) PFAIL("bad p");
                }
                ++n;
                if (!*s) break;
                if (*s != 'x') PFAIL("bad p");
                ++s;
            }
            n_p = n;
            p->pad4 = colon;
        } else if (!strcmp(key, "dt")) {
            int t = 0;
            const char *q = val;
            while (1) {
                char one[16];
                size_t ql = strcspn(q, ",");
                if (t >= REF_T_COUNT || ql == 0 || ql >= sizeof one) PFAIL("bad dt '%s'", val);
                memcpy(one, q, ql);
                one[ql] = '\0';
                if (ref_dtype_parse(one, &p->dt[t])) PFAIL("bad dtype '%s'", one);
                ++t;
                q += ql;
                if (!*q) break;
                ++q;
            }
            if (t != REF_T_COUNT) PFAIL("dt wants 6 dtypes");
        } else if (!strcmp(key, "mask")) {
            if (strlen(val) != 3 || strspn(val, "01") != 3) PFAIL("mask wants 3 digits 0/1");
            p->mask = (val[0] == '1' ? REF_MASK_DX : 0) | (val[1] == '1' ? REF_MASK_DW : 0) |
                      (val[2] == '1' ? REF_MASK_DB : 0);
        } else if (!strcmp(key, "seed")) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(val, &end, 10);
            if (end == val || *end || errno) PFAIL("bad seed");
            p->seed = v;
        } else if (!strcmp(key, "view")) {
            if (strlen(val) != REF_T_COUNT || strspn(val, "01") != REF_T_COUNT)
                PFAIL("view wants 6 digits 0/1");
            for (int t = 0; t < REF_T_COUNT; ++t) p->view[t] = val[t] == '1';
        } else if (!strcmp(key, "data")) {
            if (!strcmp(val, "int")) p->int_data = 1;
            else if (!strcmp(val, "real")) p->int_data = 0;
            else PFAIL("data wants int or real");
        } else {
            PFAIL("unknown key '%s'", key);
        }
    }
    if (!have_dims) {
        if (n_in > 0) p->dims = n_in;
        else PFAIL("dims missing");
    }
    const int counts[] = {n_in, n_k, n_o, n_s, n_p, n_d, n_op};
    const char *names[] = {"in", "k", "o", "s", "p", "d", "op"};
    for (int i = 0; i < 7; ++i)
        if (counts[i] >= 0 && counts[i] != p->dims)
            PFAIL("%s has %d values, dims is %d", names[i], counts[i], p->dims);
    if (n_in < 0 || n_k < 0) PFAIL("in and k are required");
    for (int i = p->dims; i < REF_MAX_SPATIAL; ++i) {
        p->in[i] = p->k[i] = p->o[i] = p->s[i] = p->d[i] = 1;
        p->ph[i] = p->pt[i] = p->op[i] = 0;
    }
    if (p->pad4 && p->dims != 2) PFAIL("head:tail padding is 2-D only");
    if (n_o < 0) ref_problem_derive_out(p);
    return 0;
#undef PFAIL
}
