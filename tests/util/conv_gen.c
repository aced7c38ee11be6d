#include "conv_gen.h"

#include <string.h>

void conv_gen_default_opts(conv_gen_opts *o)
{
    o->allow_empty = 1;
    o->allow_dtypes = 1;
    o->allow_views = 1;
    o->max_spatial_1d = 23;
    o->max_spatial_2d = 11;
    o->max_spatial_3d = 6;
    o->wide_percent = 15;
    o->max_macs = 200000;
}

void conv_gen_big_opts(conv_gen_opts *o)
{
    conv_gen_default_opts(o);
    o->max_spatial_1d = 160;
    o->max_spatial_2d = 36;
    o->max_spatial_3d = 12;
    o->wide_percent = 50;
    o->max_macs = 3000000;
}

aclDataType conv_promote(aclDataType a, aclDataType b)
{
    if (a == b) return a;
    return ACL_FLOAT; /* FLOAT with anything, FP16 with BF16 */
}

aclDataType conv_promoted(const ref_problem *p)
{
    return conv_promote(conv_promote(p->dt[REF_T_DY], p->dt[REF_T_X]), p->dt[REF_T_W]);
}

static const int64_t k_primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23};

static aclDataType random_dtype(test_rng *r)
{
    static const aclDataType all[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    return all[rng_range(r, 0, 2)];
}

/* One spatial dim. Returns 0 when the draw is usable. */
static int gen_dim(test_rng *r, ref_problem *p, int i, int max_s)
{
    const int max_k = p->dims == 3 ? 3 : 4;
    p->k[i] = rng_range(r, 1, max_k);
    /* stride: often 1, sometimes larger than the kernel */
    p->s[i] = rng_chance(r, 1, 2) ? 1 : rng_range(r, 2, p->k[i] + 2);
    p->d[i] = rng_chance(r, 2, 3) ? 1 : rng_range(r, 2, 3);
    p->ph[i] = rng_chance(r, 1, 3) ? 0 : rng_range(r, 0, 2);
    p->pt[i] = p->pad4 ? (rng_chance(r, 1, 3) ? p->ph[i] : rng_range(r, 0, 2)) : p->ph[i];
    const int64_t extent = p->d[i] * (p->k[i] - 1) + 1;
    if (p->transposed) {
        /* input size S; gradOutput size from the transposed formula with an
         * outputPadding < stride, so the forward formula maps O back to S */
        const int64_t max_in = max_s / 2 > 3 ? max_s / 2 : 3;
        p->in[i] = rng_chance(r, 1, 4) ? k_primes[rng_range(r, 0, 2)] : rng_range(r, 1, max_in);
        p->op[i] = rng_range(r, 0, p->s[i] - 1);
        p->o[i] = (p->in[i] - 1) * p->s[i] - p->ph[i] - p->pt[i] + extent + p->op[i];
        return p->o[i] >= 1 && p->o[i] <= 2 * max_s ? 0 : -1;
    }
    p->op[i] = 0;
    const int64_t min_s = extent - p->ph[i] - p->pt[i] < 1 ? 1 : extent - p->ph[i] - p->pt[i];
    if (min_s > max_s) return -1;
    if (rng_chance(r, 1, 4)) {
        /* a prime size that fits */
        int64_t cand = k_primes[rng_range(r, 0, 8)];
        if (cand < min_s || cand > max_s) return -1;
        p->in[i] = cand;
    } else {
        p->in[i] = rng_range(r, min_s, max_s);
    }
    p->o[i] = (p->in[i] + p->ph[i] + p->pt[i] - extent) / p->s[i] + 1;
    return 0;
}

void conv_gen_problem(test_rng *r, const conv_gen_opts *o, ref_problem *p)
{
    for (;;) {
        ref_problem_init(p);
        const int dsel = (int)rng_range(r, 0, 9);
        p->dims = dsel < 3 ? 1 : dsel < 7 ? 2 : 3;
        p->transposed = rng_chance(r, 3, 10);
        p->pad4 = p->dims == 2 && rng_chance(r, 2, 5);
        const int max_s = p->dims == 1 ? o->max_spatial_1d
                          : p->dims == 2 ? o->max_spatial_2d
                                         : o->max_spatial_3d;
        int bad = 0;
        for (int i = 0; i < p->dims && !bad; ++i) bad = gen_dim(r, p, i, max_s);
        if (bad) continue;

        /* channels and groups: Cin = g * cin_g, Cout = g * cout_g */
        int64_t g = 1, cin_g, cout_g;
        const int gsel = (int)rng_range(r, 0, 9);
        const int64_t max_cg = p->dims == 3 ? 3 : 5;
        const int wide = rng_range(r, 0, 99) < o->wide_percent;
        if (wide) { /* channel counts around and above vector widths, not multiples of 16 */
            g = rng_chance(r, 3, 4) ? 1 : 2;
            cin_g = rng_range(r, 9, 40);
            cout_g = rng_range(r, 9, 40);
        } else if (gsel < 5) { /* dense */
            g = 1;
            cin_g = rng_range(r, 1, p->dims == 3 ? 4 : 7);
            cout_g = rng_range(r, 1, p->dims == 3 ? 4 : 7);
        } else if (gsel < 8) { /* grouped */
            g = rng_range(r, 2, 4);
            cin_g = rng_range(r, 1, max_cg);
            cout_g = rng_range(r, 1, max_cg);
        } else { /* depthwise (g = C of the forward input), maybe a channel multiplier */
            g = rng_range(r, 2, 6);
            cin_g = 1;
            cout_g = rng_chance(r, 1, 2) ? 1 : rng_range(r, 2, 3);
            if (p->transposed) { /* forward input of the formulas is gradOutput */
                int64_t t = cin_g;
                cin_g = cout_g;
                cout_g = t;
            }
        }
        p->groups = g;
        p->n = rng_range(r, 1, 3);

        /* empty tensors accepted by the 910B checker (spec §2) */
        if (o->allow_empty && rng_chance(r, 1, 25)) {
            if (!p->transposed && rng_chance(r, 1, 2))
                cin_g = 0; /* input [N,0,S], weight [Cout,0,K] */
            else
                p->n = 0;
        }
        p->c_in = g * cin_g;
        p->c_out = g * cout_g;

        /* keep the work small: bound the multiply-adds of one pass */
        int64_t sp_in = 1, sp_out = 1, sp_k = 1;
        for (int i = 0; i < p->dims; ++i) sp_in *= p->in[i], sp_out *= p->o[i], sp_k *= p->k[i];
        const int64_t macs = p->n * p->c_out * (p->c_in / g) * sp_k *
                             (p->transposed ? sp_in : sp_out);
        if (macs > o->max_macs) continue;

        p->mask = (int)rng_range(r, 0, 7);
        if (o->allow_dtypes) {
            if (rng_chance(r, 1, 2)) {
                aclDataType dt = random_dtype(r);
                for (int t = 0; t < REF_T_COUNT; ++t) p->dt[t] = dt;
            } else {
                for (int t = 0; t < REF_T_COUNT; ++t) p->dt[t] = random_dtype(r);
            }
            p->cube_math = (int)rng_range(r, 0, 3);
        }
        /* 910B rule (spec §1 step I.5): the grouped FLOAT-gradWeight kernel has
         * no FP16/BF16 variant; such requests are rejected, not computed. */
        if ((p->mask & REF_MASK_DW) && p->groups > 1 && p->dt[REF_T_DW] == ACL_FLOAT &&
            (p->cube_math == 2 || conv_promoted(p) != ACL_FLOAT))
            continue;
        if (o->allow_views && rng_chance(r, 7, 10)) /* else every tensor dense */
            for (int t = 0; t < REF_T_COUNT; ++t) p->view[t] = rng_chance(r, 1, 3);
        p->int_data = rng_chance(r, 1, 2);
        p->seed = rng_next(r) >> 16;
        if (ref_problem_check(p, NULL, 0) != 0) continue;
        return;
    }
}
