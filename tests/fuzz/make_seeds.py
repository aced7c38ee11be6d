#!/usr/bin/env python3
"""Writes the seed corpus of the API fuzzer (tests/fuzz/corpus/seed-*).

Each seed is a 30-byte header (see decode() in fuzz_conv_backward.c) that
decodes to a valid call, optionally followed by mutations (opcode, argument,
value bytes). Regenerate with: python3 tests/fuzz/make_seeds.py tests/fuzz/corpus
"""
import os
import sys

HDR = 30


def header(rank, flags=0, n=0, g=0, a=0, b=0, cube=0, layout=0, opts=0, fault=0, mix=0,
           spatial=None):
    h = [rank - 1, flags, n, g, a, b, cube, layout, opts, fault, mix & 255, mix >> 8]
    sp = spatial or []
    for i in range(3):
        h += sp[i] if i < len(sp) else [0, 0, 0, 0, 2, 0]  # k, s, d, p, S, op
    assert len(h) == HDR
    return bytes(h)


def main(out):
    os.makedirs(out, exist_ok=True)
    seeds = {}
    # plain valid problems: every rank, regular and transposed, each dtype
    for rank in (1, 2, 3):
        for tr in (0, 1):
            for dsel in (0, 1, 2, 3):
                sp = [[2, 1, 0, 1, 4, 0], [1, 1, 0, 0, 3, 1], [2, 0, 1, 0, 5, 0]][:rank]
                seeds[f"r{rank}-t{tr}-d{dsel}"] = header(rank, tr | dsel << 4, 1, 0, 1, 1,
                                                         spatial=sp, mix=0x0e4)
    # groups, strides, dilation, strided layouts, masks, cube types
    seeds["groups-strided"] = header(2, 0, 1, 2, 0, 1, layout=0x3f,
                                     spatial=[[2, 1, 1, 2, 5, 0], [2, 2, 0, 1, 4, 0]])
    seeds["transposed-op"] = header(2, 1, 0, 1, 1, 0, spatial=[[1, 2, 0, 1, 3, 1],
                                                                 [2, 1, 1, 0, 2, 1]])
    seeds["mask-none"] = header(1, 0x0e, spatial=[[2, 0, 0, 0, 3, 0]])
    seeds["mask-bias-only"] = header(1, 0x06, spatial=[[2, 0, 0, 0, 3, 0]])
    seeds["pad4"] = header(2, 0x40, spatial=[[2, 0, 0, 1, 3, 0], [2, 0, 0, 2, 3, 0]])
    for cube in range(4):
        seeds[f"cube{cube}"] = header(2, 0, cube=cube, spatial=[[2, 0, 0, 0, 3, 0]] * 2)
    # run options: repeatable x3, default stream, bad streams, workspace variants
    seeds["repeat3"] = header(2, 0, opts=0x04 | 2 << 3, spatial=[[2, 0, 0, 0, 3, 0]] * 2)
    seeds["oneshot-twice"] = header(2, 0, opts=1 << 3, spatial=[[2, 0, 0, 0, 3, 0]] * 2)
    seeds["default-stream"] = header(1, 0, opts=1, spatial=[[2, 0, 0, 0, 3, 0]])
    seeds["garbage-stream"] = header(1, 0, opts=2, spatial=[[2, 0, 0, 0, 3, 0]])
    seeds["dead-stream"] = header(1, 0, opts=3 | 4, spatial=[[2, 0, 0, 0, 3, 0]])
    seeds["no-run-destroy2"] = header(1, 0, opts=3 << 3 | 1 << 5, spatial=[[2, 0, 0, 0, 3, 0]])
    for m in range(1, 5):
        seeds[f"ws-mode{m}"] = header(2, 0, opts=(m + 3) << 5, spatial=[[2, 0, 0, 0, 3, 0]] * 2)
    seeds["fault-early"] = header(1, 0, fault=0xC0, spatial=[[2, 0, 0, 0, 3, 0]])
    seeds["fault-late"] = header(1, 0, fault=0xC8, spatial=[[2, 0, 0, 0, 3, 0]])
    # ISA caps (mix bits 12-13) and thread counts (bits 14-15), bigger channel
    # counts (>= 0xC0: 1 + b % 24), a repeatable executor run twice (the rerun
    # with another thread count must give the same bits)
    for isa in range(4):
        for tr in (0, 1):
            for rank in (1, 2, 3):
                sp = [[2, 1, 0, 1, 6, 0], [1, 0, 1, 0, 5, 0], [2, 0, 0, 1, 4, 0]][:rank]
                seeds[f"isa{isa}-r{rank}-t{tr}"] = header(
                    rank, tr, 1, 0, 0xC5 + isa, 0xCF - isa, opts=0x04 | 1 << 3,
                    mix=(isa << 12) | ((1 + (isa + rank) % 3) << 14), spatial=sp)
    base = header(2, 0, spatial=[[2, 0, 0, 0, 3, 0]] * 2)
    # mutations: op, arg, value...
    seeds["neg-dim"] = base + bytes([1, 1 | 2 << 3, 0xC0])
    seeds["huge-dim"] = base + bytes([1, 1 | 2 << 3, 0xC3])
    seeds["overflow-dims"] = base + bytes([1, 1 | 2 << 3, 0xCB, 1, 1 | 3 << 3, 0xCB])
    seeds["zero-dim"] = base + bytes([1, 1, 0])
    seeds["rank9"] = base + bytes([20, 0, 0])
    seeds["rank-huge"] = base + bytes([20, 2, 0xF7])
    seeds["stride-null"] = base + bytes([3, 1])
    seeds["neg-stride"] = base + bytes([2, 0 | 1 << 3, 0xC0])
    seeds["offset-out"] = base + bytes([4, 3, 0xCD])
    seeds["storage-small"] = base + bytes([5, 1, 1, 6, 1, 3])
    seeds["format-bad"] = base + bytes([7, 0, 0xC0])
    seeds["dtype-int"] = base + bytes([8, 1, 3])
    seeds["null-input"] = base + bytes([9, 1])
    seeds["null-data"] = base + bytes([10, 2])
    seeds["alias-in-out"] = base + bytes([22, 1 | 3 << 3])
    seeds["alias-buffer"] = base + bytes([11, 4 | 2 << 3, 0])
    seeds["array-len0"] = base + bytes([12, 0, 0])
    seeds["array-huge"] = base + bytes([12, 1, 0xF3])
    seeds["array-null"] = base + bytes([13, 2])
    seeds["array-val"] = base + bytes([14, 0, 0xC3, 14, 1 | 1 << 3, 0xC0])
    seeds["mask-len"] = base + bytes([15, 0, 2])
    seeds["mask-null"] = base + bytes([15, 0, 0xFF])
    seeds["groups-neg"] = base + bytes([17, 0, 0xC6])
    seeds["cube-neg"] = base + bytes([18, 0, 0x80])
    seeds["transposed-flip"] = base + bytes([19, 0])
    for name, data in seeds.items():
        with open(os.path.join(out, "seed-" + name), "wb") as f:
            f.write(data)
    print(f"{len(seeds)} seeds in {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus"))
