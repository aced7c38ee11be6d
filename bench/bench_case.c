/* Suite lines: parsing, checking, printing, shapes and FLOP counts. */
#include "bench_case.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *bench_dtype_name(aclDataType dt)
{
    switch (dt) {
    case ACL_FLOAT: return "fp32";
    case ACL_BF16: return "bf16";
    case ACL_FLOAT16: return "fp16";
    default: return "?";
    }
}

int bench_dtype_parse(const char *s, aclDataType *dt)
{
    if (strcmp(s, "fp32") == 0 || strcmp(s, "f32") == 0)
        *dt = ACL_FLOAT;
    else if (strcmp(s, "bf16") == 0)
        *dt = ACL_BF16;
    else if (strcmp(s, "fp16") == 0 || strcmp(s, "f16") == 0)
        *dt = ACL_FLOAT16;
    else
        return -1;
    return 0;
}

const char *bench_mask_name(int mask)
{
    return mask == BENCH_MASK_DATA ? "data" : mask == BENCH_MASK_WEIGHT ? "weight" : "all";
}

int bench_mask_parse(const char *s, int *mask)
{
    if (strcmp(s, "data") == 0)
        *mask = BENCH_MASK_DATA;
    else if (strcmp(s, "weight") == 0)
        *mask = BENCH_MASK_WEIGHT;
    else if (strcmp(s, "all") == 0)
        *mask = BENCH_MASK_ALL;
    else
        return -1;
    return 0;
}

/* "7" or "7x5" or "3x7x5": returns the number of values, -1 on error. */
static int parse_dims(const char *s, int64_t v[BENCH_MAX_DIMS])
{
    int count = 0;
    const char *p = s;
    for (;;) {
        if (count == BENCH_MAX_DIMS || !isdigit((unsigned char)*p)) return -1;
        char *end = NULL;
        errno = 0;
        long long x = strtoll(p, &end, 10);
        if (errno != 0 || x < 0 || x > (1LL << 40)) return -1;
        v[count++] = x;
        if (*end == '\0') return count;
        if (*end != 'x') return -1;
        p = end + 1;
    }
}

static int parse_int(const char *s, int64_t *v)
{
    char *end = NULL;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || x < 0 || x > (1LL << 40)) return -1;
    *v = x;
    return 0;
}

typedef struct spatial_key {
    const char *key;
    size_t offset;
    int count; /* values given; 0 = not given */
    int64_t v[BENCH_MAX_DIMS];
} spatial_key;

static void set_err(char *err, size_t len, const char *fmt, const char *a, const char *b)
{
    snprintf(err, len, fmt, a, b);
}

int bench_case_parse(const char *line, const bench_case_defaults *def, bench_case *c, char *err,
                     size_t err_len)
{
    memset(c, 0, sizeof *c);
    c->n = c->c = c->g = 1;
    c->o = -1;
    c->dims = 0;
    c->dtype = def->dtype;
    c->mask = def->mask;
    c->cube = def->cube;
    spatial_key sk[] = {
        {"in", offsetof(bench_case, in), 0, {0}}, {"k", offsetof(bench_case, k), 0, {0}},
        {"s", offsetof(bench_case, s), 0, {0}},   {"p", offsetof(bench_case, p), 0, {0}},
        {"d", offsetof(bench_case, d), 0, {0}},   {"op", offsetof(bench_case, op), 0, {0}},
    };
    const int nsk = (int)(sizeof sk / sizeof sk[0]);

    char buf[1024];
    snprintf(buf, sizeof buf, "%s", line);
    char *hash = strchr(buf, '#');
    if (hash != NULL) *hash = '\0';
    int tokens = 0;
    for (char *save = NULL, *tok = strtok_r(buf, " \t\r\n", &save); tok != NULL;
         tok = strtok_r(NULL, " \t\r\n", &save)) {
        ++tokens;
        char *eq = strchr(tok, '=');
        if (eq == NULL || eq == tok || eq[1] == '\0') {
            set_err(err, err_len, "'%s': expected key=value%s", tok, "");
            return -1;
        }
        *eq = '\0';
        const char *key = tok, *val = eq + 1;
        int64_t iv = 0;
        int done = 0;
        for (int i = 0; i < nsk && !done; ++i) {
            if (strcmp(key, sk[i].key) != 0) continue;
            sk[i].count = parse_dims(val, sk[i].v);
            if (sk[i].count < 0) {
                set_err(err, err_len, "%s=%s: expected N or AxB or AxBxC", key, val);
                return -1;
            }
            done = 1;
        }
        if (done) continue;
        if (strcmp(key, "name") == 0) {
            snprintf(c->name, sizeof c->name, "%s", val);
        } else if (strcmp(key, "dtype") == 0) {
            if (bench_dtype_parse(val, &c->dtype) != 0) {
                set_err(err, err_len, "dtype=%s: expected fp32, bf16 or fp16%s", val, "");
                return -1;
            }
        } else if (strcmp(key, "mask") == 0) {
            if (bench_mask_parse(val, &c->mask) != 0) {
                set_err(err, err_len, "mask=%s: expected data, weight or all%s", val, "");
                return -1;
            }
        } else {
            if (parse_int(val, &iv) != 0) {
                set_err(err, err_len, "%s=%s: expected a non-negative integer", key, val);
                return -1;
            }
            if (strcmp(key, "dims") == 0)
                c->dims = (int)iv;
            else if (strcmp(key, "n") == 0)
                c->n = iv;
            else if (strcmp(key, "c") == 0)
                c->c = iv;
            else if (strcmp(key, "o") == 0)
                c->o = iv;
            else if (strcmp(key, "g") == 0)
                c->g = iv;
            else if (strcmp(key, "t") == 0)
                c->t = (int)iv;
            else if (strcmp(key, "cube") == 0)
                c->cube = (int)iv;
            else {
                set_err(err, err_len, "unknown key '%s'%s", key, "");
                return -1;
            }
        }
    }
    if (tokens == 0) return 0;

    if (sk[0].count == 0) {
        snprintf(err, err_len, "missing in=");
        return -1;
    }
    if (c->dims == 0) c->dims = sk[0].count > 1 ? sk[0].count : 2;
    if (c->dims < 1 || c->dims > BENCH_MAX_DIMS) {
        snprintf(err, err_len, "dims=%d: expected 1, 2 or 3", c->dims);
        return -1;
    }
    static const int64_t defaults[] = {1, 1, 1, 0, 1, 0}; /* in k s p d op */
    for (int i = 0; i < nsk; ++i) {
        int64_t *dst = (int64_t *)((char *)c + sk[i].offset);
        if (sk[i].count > 1 && sk[i].count != c->dims) {
            snprintf(err, err_len, "%s has %d values but dims=%d", sk[i].key, sk[i].count, c->dims);
            return -1;
        }
        for (int j = 0; j < BENCH_MAX_DIMS; ++j)
            dst[j] = j >= c->dims       ? 1
                     : sk[i].count == 0 ? defaults[i]
                                        : sk[i].v[sk[i].count == 1 ? 0 : j];
        if (i == 3 || i == 5) /* p, op: unused dims 0 */
            for (int j = c->dims; j < BENCH_MAX_DIMS; ++j)
                dst[j] = 0;
    }
    if (c->o < 0) c->o = c->c;
    if (c->name[0] == '\0') snprintf(c->name, sizeof c->name, "case");

    /* checks */
    if (c->n < 1 || c->c < 1 || c->o < 1 || c->g < 1) {
        snprintf(err, err_len, "n, c, o and g must be >= 1");
        return -1;
    }
    if (c->c % c->g != 0 || c->o % c->g != 0) {
        snprintf(err, err_len, "c=%lld and o=%lld must be multiples of g=%lld", (long long)c->c,
                 (long long)c->o, (long long)c->g);
        return -1;
    }
    if (c->t != 0 && c->t != 1) {
        snprintf(err, err_len, "t=%d: expected 0 or 1", c->t);
        return -1;
    }
    if (c->cube < 0 || c->cube > 3) {
        snprintf(err, err_len, "cube=%d: expected 0..3", c->cube);
        return -1;
    }
    for (int j = 0; j < c->dims; ++j) {
        if (c->in[j] < 1 || c->k[j] < 1 || c->s[j] < 1 || c->d[j] < 1) {
            snprintf(err, err_len, "in, k, s and d must be >= 1");
            return -1;
        }
        if (!c->t && c->op[j] != 0) {
            snprintf(err, err_len, "op is for transposed cases only (t=1)");
            return -1;
        }
        const int64_t ext = c->d[j] * (c->k[j] - 1) + 1;
        if (c->t) {
            c->out[j] = (c->in[j] - 1) * c->s[j] - 2 * c->p[j] + ext - 1 + c->op[j] + 1;
        } else {
            const int64_t span = c->in[j] + 2 * c->p[j] - ext;
            c->out[j] = span < 0 ? 0 : span / c->s[j] + 1;
        }
        if (c->out[j] < 1) {
            snprintf(err, err_len, "the output size of dim %d is %lld", j, (long long)c->out[j]);
            return -1;
        }
    }
    for (int j = c->dims; j < BENCH_MAX_DIMS; ++j)
        c->out[j] = 1;
    return 1;
}

static int put_dims(char *buf, size_t len, const char *key, const int64_t *v, int dims)
{
    int w = snprintf(buf, len, " %s=%lld", key, (long long)v[0]);
    for (int j = 1; j < dims; ++j)
        w += snprintf(buf + w, len > (size_t)w ? len - (size_t)w : 0, "x%lld", (long long)v[j]);
    return w;
}

char *bench_case_format(const bench_case *c, char *buf, size_t len)
{
    size_t w = (size_t)snprintf(buf, len, "name=%s dims=%d n=%lld c=%lld o=%lld", c->name, c->dims,
                                (long long)c->n, (long long)c->c, (long long)c->o);
#define PUT(key, arr)                                                                              \
    if (w < len) w += (size_t)put_dims(buf + w, len - w, key, arr, c->dims)
    PUT("in", c->in);
    PUT("k", c->k);
    PUT("s", c->s);
    PUT("p", c->p);
    PUT("d", c->d);
    if (w < len) w += (size_t)snprintf(buf + w, len - w, " g=%lld t=%d", (long long)c->g, c->t);
    if (c->t) PUT("op", c->op);
    if (w < len)
        w += (size_t)snprintf(buf + w, len - w, " dtype=%s mask=%s cube=%d #",
                              bench_dtype_name(c->dtype), bench_mask_name(c->mask), c->cube);
    PUT("out", c->out);
#undef PUT
    return buf;
}

static void shape_nc(const bench_case *c, int64_t a, int64_t b, const int64_t *sp, int64_t shape[5])
{
    shape[0] = a;
    shape[1] = b;
    for (int j = 0; j < c->dims; ++j)
        shape[2 + j] = sp[j];
}

void bench_case_input_shape(const bench_case *c, int64_t shape[5])
{
    shape_nc(c, c->n, c->c, c->in, shape);
}

void bench_case_grad_output_shape(const bench_case *c, int64_t shape[5])
{
    shape_nc(c, c->n, c->o, c->out, shape);
}

void bench_case_weight_shape(const bench_case *c, int64_t shape[5])
{
    if (c->t)
        shape_nc(c, c->c, c->o / c->g, c->k, shape);
    else
        shape_nc(c, c->o, c->c / c->g, c->k, shape);
}

int64_t bench_shape_numel(const int64_t *shape, int rank)
{
    int64_t n = 1;
    for (int i = 0; i < rank; ++i)
        n *= shape[i];
    return n;
}

double bench_case_macs(const bench_case *c)
{
    /* y = forward output: gradOutput (regular) or input (transposed) */
    const int64_t cy = c->t ? c->c : c->o, cx = c->t ? c->o : c->c;
    const int64_t *ys = c->t ? c->in : c->out;
    double m = (double)c->n * (double)cy * (double)(cx / c->g);
    for (int j = 0; j < c->dims; ++j)
        m *= (double)ys[j] * (double)c->k[j];
    return m;
}

double bench_case_flops(const bench_case *c)
{
    int dirs = ((c->mask & BENCH_MASK_DATA) ? 1 : 0) + ((c->mask & BENCH_MASK_WEIGHT) ? 1 : 0);
    return 2.0 * bench_case_macs(c) * dirs;
}
