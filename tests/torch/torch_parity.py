#!/usr/bin/env python3
"""Cross-checks aclconv against PyTorch's autograd on random convolutions.

An independent reading of the operator: PyTorch's conv{1,2,3}d and
conv_transpose{1,2,3}d backward, computed in float64, against aclconv in fp32
(cubeMathType 0) called through ctypes. Skips (exit 77) when torch is missing:
it is an optional comparison, never a requirement.

usage: torch_parity.py <path to libaclconv.so> [--count N] [--seed S]
"""
import ctypes as C
import random
import sys

SKIP = 77
try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print("SKIP: PyTorch is not installed (Debian python3-torch)")
    sys.exit(SKIP)

ACL_FLOAT, ACL_FORMAT_ND, ACL_FORMAT_NCHW, ACL_FORMAT_NCDHW = 0, 2, 0, 30


def load(path):
    lib = C.CDLL(path)
    i64p = C.POINTER(C.c_int64)
    lib.aclCreateTensor.restype = C.c_void_p
    lib.aclCreateTensor.argtypes = [i64p, C.c_uint64, C.c_int, i64p, C.c_int64, C.c_int, i64p,
                                    C.c_uint64, C.c_void_p]
    lib.aclCreateIntArray.restype = C.c_void_p
    lib.aclCreateIntArray.argtypes = [i64p, C.c_uint64]
    lib.aclCreateBoolArray.restype = C.c_void_p
    lib.aclCreateBoolArray.argtypes = [C.POINTER(C.c_bool), C.c_uint64]
    for f in ("aclDestroyTensor", "aclDestroyIntArray", "aclDestroyBoolArray"):
        getattr(lib, f).argtypes = [C.c_void_p]
    lib.aclnnConvolutionBackwardGetWorkspaceSize.argtypes = [
        C.c_void_p, C.c_void_p, C.c_void_p, C.c_void_p, C.c_void_p, C.c_void_p, C.c_void_p,
        C.c_bool, C.c_void_p, C.c_int, C.c_void_p, C.c_int8, C.c_void_p, C.c_void_p, C.c_void_p,
        C.POINTER(C.c_uint64), C.POINTER(C.c_void_p)]
    lib.aclnnConvolutionBackward.argtypes = [C.c_void_p, C.c_uint64, C.c_void_p, C.c_void_p]
    lib.aclrtSynchronizeStream.argtypes = [C.c_void_p]
    lib.aclrtCreateStream.argtypes = [C.POINTER(C.c_void_p)]
    lib.aclGetRecentErrMsg.restype = C.c_char_p
    return lib


def i64(values):
    return (C.c_int64 * len(values))(*values)


class Acl:
    def __init__(self, lib):
        self.lib, self.owned = lib, []

    def tensor(self, t):
        """A contiguous fp32 CPU torch tensor, viewed in place."""
        assert t.dtype == torch.float32 and t.is_contiguous()
        fmt = {4: ACL_FORMAT_NCHW, 5: ACL_FORMAT_NCDHW}.get(t.dim(), ACL_FORMAT_ND)
        dims, strides = i64(list(t.shape)), i64(list(t.stride()))
        h = self.lib.aclCreateTensor(dims, t.dim(), ACL_FLOAT, strides, 0, fmt, dims, t.dim(),
                                     C.c_void_p(t.data_ptr()))
        assert h, self.lib.aclGetRecentErrMsg()
        self.owned.append((self.lib.aclDestroyTensor, h))
        return h

    def ints(self, values):
        h = self.lib.aclCreateIntArray(i64(values), len(values))
        self.owned.append((self.lib.aclDestroyIntArray, h))
        return h

    def bools(self, values):
        h = self.lib.aclCreateBoolArray((C.c_bool * len(values))(*values), len(values))
        self.owned.append((self.lib.aclDestroyBoolArray, h))
        return h

    def release(self):
        for destroy, h in self.owned:
            destroy(h)
        self.owned = []


def random_case(rng):
    rank = rng.choice([1, 2, 3])
    transposed = rng.random() < 0.4
    g = rng.choice([1, 1, 2, 3])
    cin, cout = g * rng.randint(1, 3), g * rng.randint(1, 3)
    if rng.random() < 0.2:
        cin = cout = g = rng.randint(2, 5)  # depthwise
    k = [rng.randint(1, 3) for _ in range(rank)]
    s = [rng.randint(1, 3) for _ in range(rank)]
    d = [rng.randint(1, 2) for _ in range(rank)]
    p = [rng.randint(0, 2) for _ in range(rank)]
    op = [rng.randint(0, s[i] - 1) if transposed else 0 for i in range(rank)]
    if transposed:
        p = [min(p[i], d[i] * (k[i] - 1)) for i in range(rank)]  # torch's deconv limit
    size = [rng.randint(1 if transposed else (k[i] - 1) * d[i] + 1, 7) for i in range(rank)]
    pad4 = None
    if rank == 2 and not transposed and rng.random() < 0.4:
        pad4 = [rng.randint(0, 2) for _ in range(4)]  # top, bottom, left, right
    return dict(rank=rank, t=transposed, g=g, cin=cin, cout=cout, k=k, s=s, d=d, p=p, op=op,
                size=size, pad4=pad4, n=rng.randint(1, 3))


def torch_grads(case, x, w, dy_shape_only=False):
    """Forward output (float64) of the case; x, w are float64 leaf tensors."""
    r = case["rank"]
    if case["t"]:
        fn = [F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d][r - 1]
        return fn(x, w, None, case["s"], case["p"], case["op"], case["g"], case["d"])
    fn = [F.conv1d, F.conv2d, F.conv3d][r - 1]
    if case["pad4"] is not None:
        t, b, l, rr = case["pad4"]
        return fn(F.pad(x, (l, rr, t, b)), w, None, case["s"], 0, case["d"], case["g"])
    return fn(x, w, None, case["s"], case["p"], case["d"], case["g"])


def run_case(lib, stream, case, rng_t):
    x_shape = [case["n"], case["cin"]] + case["size"]
    if case["t"]:
        w_shape = [case["cin"], case["cout"] // case["g"]] + case["k"]
    else:
        w_shape = [case["cout"], case["cin"] // case["g"]] + case["k"]
    x = torch.randn(x_shape, generator=rng_t, dtype=torch.float32)
    w = torch.randn(w_shape, generator=rng_t, dtype=torch.float32)
    x64 = x.double().requires_grad_()
    w64 = w.double().requires_grad_()
    try:
        y = torch_grads(case, x64, w64)
    except RuntimeError:  # a shape torch rejects (e.g. a negative output size)
        return "skip"
    if y.numel() == 0:
        return "skip"
    dy = torch.randn(y.shape, generator=rng_t, dtype=torch.float32)
    y.backward(dy.double())
    want = (x64.grad, w64.grad, dy.double().sum(dim=[0] + list(range(2, dy.dim()))))

    acl = Acl(lib)
    got = (torch.full_like(x, float("nan")), torch.full_like(w, float("nan")),
           torch.full((dy.shape[1],), float("nan")))
    padding = case["pad4"] if case["pad4"] is not None else case["p"]
    ws, ex = C.c_uint64(0), C.c_void_p()
    st = lib.aclnnConvolutionBackwardGetWorkspaceSize(
        acl.tensor(dy), acl.tensor(x), acl.tensor(w), acl.ints([dy.shape[1]]),
        acl.ints(case["s"]), acl.ints(padding), acl.ints(case["d"]), case["t"],
        acl.ints(case["op"]), case["g"], acl.bools([True, True, True]), 0,
        acl.tensor(got[0]), acl.tensor(got[1]), acl.tensor(got[2]), C.byref(ws), C.byref(ex))
    if st != 0:
        acl.release()
        return "GetWorkspaceSize returned %d: %s" % (st, lib.aclGetRecentErrMsg().decode())
    workspace = torch.empty(max(1, (ws.value + 3) // 4), dtype=torch.float32)
    st = lib.aclnnConvolutionBackward(C.c_void_p(workspace.data_ptr()), ws.value, ex, stream)
    st = st or lib.aclrtSynchronizeStream(stream)
    acl.release()
    if st != 0:
        return "run returned %d" % st
    for name, g, ref in zip(("gradInput", "gradWeight", "gradBias"), got, want):
        # fp32 inputs are exact in float64; aclconv accumulates in fp32: each
        # element errs by at most ~L * 2^-24 * sum|terms| for L terms. With
        # L <= a few hundred and O(1) data, 1e-4 * (1 + |ref|) bounds it.
        err = (g.double() - ref).abs()
        tol = 1e-4 * (1 + ref.abs())
        if not bool((err <= tol).all()):
            i = int((err - tol).argmax())
            return "%s differs at flat index %d: aclconv %r, torch %r" % (
                name, i, g.flatten()[i].item(), ref.flatten()[i].item())
    return None


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    count, seed = 300, random.randrange(1 << 30)
    if "--count" in args:
        count = int(args[args.index("--count") + 1])
    if "--seed" in args:
        seed = int(args[args.index("--seed") + 1])
    lib = load(args[0])
    assert lib.aclInit(None) in (0, 100002)
    stream = C.c_void_p()
    assert lib.aclrtCreateStream(C.byref(stream)) == 0
    rng, rng_t = random.Random(seed), torch.Generator().manual_seed(seed)
    failures = ran = 0
    for i in range(count):
        case = random_case(rng)
        msg = run_case(lib, stream, case, rng_t)
        if msg == "skip":
            continue
        ran += 1
        if msg:
            failures += 1
            print("FAIL seed=%d case#%d %s: %s" % (seed, i, case, msg))
            if failures > 10:
                break
    print("torch parity: %d cases, %d failures (seed %d)" % (ran, failures, seed))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
