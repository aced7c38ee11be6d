// oneDNN side of the benchmark: the same case with oneDNN's backward-data
// and backward-weights (+bias) primitives, once with plain layouts (the
// NC[D]HW / [g]oi[d]hw tensors aclnn takes) and once with the layouts the
// primitives choose themselves (format_tag::any); data is reordered into those
// layouts once, outside the timing.
//
// Regular convolution:   convolution_backward_data    diff_dst -> diff_src
//                        convolution_backward_weights src, diff_dst -> diff_weights, diff_bias
// Transposed (t=1):      deconvolution_backward_data  diff_dst (gradOutput) -> diff_src (gradInput)
//                        deconvolution_backward_weights src (input), diff_dst -> diff_weights,
//                        diff_bias
// oneDNN's deconvolution weights are (OC, IC/g... ) = (o, c) dims; aclnn's
// transposed weight [c, o/g, k] is their "iohw" memory order (giohw grouped).
// Dilation: oneDNN counts from 0 (dense = 0), aclnn from 1.
#include <omp.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "dnnl.hpp"

#include "bench_rng.h"
#include "bench_run.h"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace
{

tag plain_act(int dims)
{
    return dims == 1 ? tag::abc : dims == 2 ? tag::abcd : tag::abcde;
}

// Regular weight [o, c/g, k] (grouped dims g, o/g, c/g, k: same order);
// transposed weight [c, o/g, k] in oneDNN's (o, c, k) dims: i and o swapped.
tag plain_wei(int dims, bool grouped, bool transposed)
{
    if (!transposed) {
        if (!grouped) return dims == 1 ? tag::abc : dims == 2 ? tag::abcd : tag::abcde;
        return dims == 1 ? tag::abcd : dims == 2 ? tag::abcde : tag::abcdef;
    }
    if (!grouped) return dims == 1 ? tag::bac : dims == 2 ? tag::bacd : tag::bacde;
    return dims == 1 ? tag::acbd : dims == 2 ? tag::acbde : tag::acbdef;
}

dt dnnl_dt(aclDataType t)
{
    return t == ACL_BF16 ? dt::bf16 : t == ACL_FLOAT16 ? dt::f16 : dt::f32;
}

// A memory of md filled with random values in [-1, 1): written as plain f32
// and reordered into md (the reorder is not timed).
memory random_memory(const memory::desc &md, const memory::dims &dims, tag plain, engine &eng,
                     stream &s, bench_rng *rng)
{
    memory::desc f32md(dims, dt::f32, plain);
    memory src(f32md, eng);
    float *p = static_cast<float *>(src.get_data_handle());
    const size_t n = f32md.get_size() / sizeof(float);
    for (size_t i = 0; i < n; ++i)
        p[i] = bench_rng_sym(rng);
    memory dst(md, eng);
    reorder(src, dst).execute(s, src, dst);
    s.wait();
    return dst;
}

struct dnnl_run {
    stream *s;
    primitive bwd_d, bwd_w;
    std::unordered_map<int, memory> args_d, args_w;
    bool do_d, do_w;
};

int run_once(void *arg)
{
    dnnl_run *r = static_cast<dnnl_run *>(arg);
    if (r->do_d) r->bwd_d.execute(*r->s, r->args_d);
    if (r->do_w) r->bwd_w.execute(*r->s, r->args_w);
    r->s->wait();
    return 0;
}

void copy_str(char *dst, size_t len, const char *src)
{
    std::snprintf(dst, len, "%s", src);
}

void run_variant(const bench_case *c, const bench_opts *o, bool blocked, dnnl_variant *v)
{
    std::memset(v, 0, sizeof *v);
    try {
        engine eng(engine::kind::cpu, 0);
        stream s(eng);
        const bool grouped = c->g > 1;
        const bool tr = c->t != 0;
        memory::dims src_d{c->n, c->c}, dst_d{c->n, c->o}, wei_d, bias_d{c->o};
        memory::dims strides, dil, pl, pr;
        // oneDNN weight dims: (g,) OC/g, IC/g, k with OC = output channels of
        // the primitive's forward op: o for both conv (c -> o) and deconv (c -> o).
        if (grouped)
            wei_d = {c->g, c->o / c->g, c->c / c->g};
        else
            wei_d = {c->o, c->c};
        for (int j = 0; j < c->dims; ++j) {
            src_d.push_back(c->in[j]);
            dst_d.push_back(c->out[j]);
            wei_d.push_back(c->k[j]);
            strides.push_back(c->s[j]);
            dil.push_back(c->d[j] - 1);
            pl.push_back(c->p[j]);
            const int64_t ext = (c->k[j] - 1) * c->d[j] + 1;
            // conv: out = (in + pl + pr - ext) / s + 1 exactly;
            // deconv: out = (in - 1) s + ext - pl - pr
            pr.push_back(tr ? (c->in[j] - 1) * c->s[j] + ext - c->p[j] - c->out[j]
                            : (c->out[j] - 1) * c->s[j] + ext - c->in[j] - c->p[j]);
        }
        const dt t = dnnl_dt(c->dtype);
        const tag a_plain = plain_act(c->dims);
        const tag w_plain = plain_wei(c->dims, grouped, tr);
        const tag a_tag = blocked ? tag::any : a_plain;
        const tag w_tag = blocked ? tag::any : w_plain;
        memory::desc src_md(src_d, t, a_tag), dst_md(dst_d, t, a_tag), wei_md(wei_d, t, w_tag);
        memory::desc bias_md(bias_d, t, blocked ? tag::any : tag::a);

        dnnl_run run;
        run.s = &s;
        run.do_d = (c->mask & BENCH_MASK_DATA) != 0;
        run.do_w = (c->mask & BENCH_MASK_WEIGHT) != 0;
        memory::desc d_diff_src, d_wei, d_diff_dst, w_src, w_diff_wei, w_diff_bias, w_diff_dst;
        if (!tr) {
            const algorithm alg = algorithm::convolution_direct;
            convolution_forward::desc fd(prop_kind::forward_training, alg, src_md, wei_md, bias_md,
                                         dst_md, strides, dil, pl, pr);
            convolution_forward::primitive_desc fpd(fd, eng);
            if (run.do_d) {
                convolution_backward_data::desc bd(alg, src_md, wei_md, dst_md, strides, dil, pl,
                                                   pr);
                convolution_backward_data::primitive_desc pd(bd, eng, fpd);
                d_diff_src = pd.diff_src_desc();
                d_wei = pd.weights_desc();
                d_diff_dst = pd.diff_dst_desc();
                copy_str(v->impl_data, sizeof v->impl_data, pd.impl_info_str());
                run.bwd_d = convolution_backward_data(pd);
            }
            if (run.do_w) {
                convolution_backward_weights::desc bw(alg, src_md, wei_md, bias_md, dst_md, strides,
                                                      dil, pl, pr);
                convolution_backward_weights::primitive_desc pd(bw, eng, fpd);
                w_src = pd.src_desc();
                w_diff_wei = pd.diff_weights_desc();
                w_diff_bias = pd.diff_bias_desc();
                w_diff_dst = pd.diff_dst_desc();
                copy_str(v->impl_weights, sizeof v->impl_weights, pd.impl_info_str());
                run.bwd_w = convolution_backward_weights(pd);
            }
        } else {
            const algorithm alg = algorithm::deconvolution_direct;
            deconvolution_forward::desc fd(prop_kind::forward_training, alg, src_md, wei_md,
                                           bias_md, dst_md, strides, dil, pl, pr);
            deconvolution_forward::primitive_desc fpd(fd, eng);
            if (run.do_d) {
                deconvolution_backward_data::desc bd(alg, src_md, wei_md, dst_md, strides, dil, pl,
                                                     pr);
                deconvolution_backward_data::primitive_desc pd(bd, eng, fpd);
                d_diff_src = pd.diff_src_desc();
                d_wei = pd.weights_desc();
                d_diff_dst = pd.diff_dst_desc();
                copy_str(v->impl_data, sizeof v->impl_data, pd.impl_info_str());
                run.bwd_d = deconvolution_backward_data(pd);
            }
            if (run.do_w) {
                deconvolution_backward_weights::desc bw(alg, src_md, wei_md, bias_md, dst_md,
                                                        strides, dil, pl, pr);
                deconvolution_backward_weights::primitive_desc pd(bw, eng, fpd);
                w_src = pd.src_desc();
                w_diff_wei = pd.diff_weights_desc();
                w_diff_bias = pd.diff_bias_desc();
                w_diff_dst = pd.diff_dst_desc();
                copy_str(v->impl_weights, sizeof v->impl_weights, pd.impl_info_str());
                run.bwd_w = deconvolution_backward_weights(pd);
            }
        }
        bench_rng rng;
        bench_rng_seed(&rng, o->seed ^ bench_rng_hash(c->name) ^ (blocked ? 0xb10cull : 0x91a1ull));
        if (run.do_d) {
            run.args_d[DNNL_ARG_DIFF_DST] = random_memory(d_diff_dst, dst_d, a_plain, eng, s, &rng);
            run.args_d[DNNL_ARG_WEIGHTS] = random_memory(d_wei, wei_d, w_plain, eng, s, &rng);
            run.args_d[DNNL_ARG_DIFF_SRC] = memory(d_diff_src, eng);
        }
        if (run.do_w) {
            run.args_w[DNNL_ARG_SRC] = random_memory(w_src, src_d, a_plain, eng, s, &rng);
            run.args_w[DNNL_ARG_DIFF_DST] = random_memory(w_diff_dst, dst_d, a_plain, eng, s, &rng);
            run.args_w[DNNL_ARG_DIFF_WEIGHTS] = memory(w_diff_wei, eng);
            run.args_w[DNNL_ARG_DIFF_BIAS] = memory(w_diff_bias, eng);
        }
        int rc = bench_time(run_once, &run, o, &v->exec);
        if (rc != 0) {
            std::snprintf(v->err, sizeof v->err, "run failed (%d)", rc);
            return;
        }
        v->ok = 1;
    } catch (const dnnl::error &e) {
        if (e.status == dnnl_unimplemented)
            std::snprintf(v->err, sizeof v->err, "oneDNN has no implementation for this case (%s)",
                          e.what());
        else
            std::snprintf(v->err, sizeof v->err, "%s (status %d)", e.what(), (int)e.status);
    } catch (const std::exception &e) {
        std::snprintf(v->err, sizeof v->err, "%s", e.what());
    }
}

} // namespace

extern "C" int dnnl_bench_available(void)
{
    return 1;
}

extern "C" const char *dnnl_bench_describe(void)
{
    static char buf[128];
    const dnnl_version_t *v = dnnl_version();
    const char *rt = v->cpu_runtime == DNNL_RUNTIME_OMP          ? "OpenMP"
                     : v->cpu_runtime == DNNL_RUNTIME_TBB        ? "TBB"
                     : v->cpu_runtime == DNNL_RUNTIME_THREADPOOL ? "threadpool"
                     : v->cpu_runtime == DNNL_RUNTIME_SEQ        ? "sequential"
                                                                 : "other";
    const bool hash = v->hash != nullptr && std::strcmp(v->hash, "N/A") != 0;
    std::snprintf(buf, sizeof buf, "oneDNN %d.%d.%d%s%s, cpu runtime %s, %d threads", v->major,
                  v->minor, v->patch, hash ? " " : "", hash ? v->hash : "", rt,
                  omp_get_max_threads());
    return buf;
}

extern "C" void dnnl_bench_set_threads(int threads)
{
    // oneDNN 2.6 from Debian runs on OpenMP (libgomp): its thread count is
    // omp_get_max_threads() of the calling thread.
    omp_set_num_threads(threads);
}

extern "C" int dnnl_bench_case(const bench_case *c, const bench_opts *o, dnnl_result *r)
{
    run_variant(c, o, false, &r->plain);
    run_variant(c, o, true, &r->blocked);
    return r->plain.ok || r->blocked.ok ? 0 : -1;
}
