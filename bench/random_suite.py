#!/usr/bin/env python3
"""Random layers as a benchmark suite, for hunting cliffs outside the suites.

    python3 bench/random_suite.py SEED COUNT [--wide] > /tmp/r.suite
    ./build-bench/bench/aclconv_bench --suite /tmp/r.suite --mask all --rounds 1

Each case draws dims (1-3), a kind (dense, depthwise with a channel
multiplier of 1 or 2, grouped), channels, kernel, stride, dilation, padding
and transposition, and sizes N for about 0.3 GFLOP a pass. `--wide` draws
larger kernels (up to 11) and strides (up to 6) and more transposed layers.
Session 47 ran ~120 of these against oneDNN: every layer that fell to the
direct implementation or ran at under half of oneDNN's plain speed showed up
(docs/performance.md, "Session 47"). Deterministic per SEED.
"""
import random
import sys


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    wide = "--wide" in sys.argv[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    rng = random.Random(int(args[0]))
    count = int(args[1])
    out = []
    while len(out) < count:
        dims = rng.choice([1, 2, 2, 2, 2, 3])
        t = 1 if rng.random() < (0.35 if wide else 0.15) else 0
        kind = rng.choice(["dense", "dense", "dense", "dw", "grp"])
        c = rng.choice([3, 8, 16, 24, 32, 48, 64, 96, 128, 160, 256, 384, 512])
        o = rng.choice([8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512])
        g = 1
        if kind == "dw":
            g = c
            o = c if t else c * rng.choice([1, 1, 1, 2])
        elif kind == "grp":
            g = rng.choice([2, 4, 8, 16, 32])
            c, o = max(g, c // g * g), max(g, o // g * g)
        if dims < 3:
            k = rng.choice([1, 2, 3, 4, 5, 7, 9, 11] if wide else [1, 2, 3, 3, 3, 5, 7])
        else:
            k = rng.choice([1, 2, 3, 4] if wide else [1, 2, 3, 3])
        s = rng.choice([1, 1, 2, 2, 3, 4, 5, 6] if wide else [1, 1, 1, 2, 2, 3])
        d = 1 if k == 1 else rng.choice([1, 1, 1, 1, 2])
        p = rng.choice([0, d * (k - 1) // 2, d * (k - 1) // 2])
        sp = rng.choice({1: [64, 250, 1000, 4000], 2: [7, 13, 14, 28, 31, 56, 112],
                         3: [8, 12, 16, 24]}[dims])
        reach = d * (k - 1) + 1
        if not t and sp + 2 * p < reach:
            continue
        osp = (sp + 2 * p - reach) // s + 1 if not t else (sp - 1) * s - 2 * p + reach
        if osp < 1:
            continue
        if t:
            macs = sp ** dims * c * (o // g) * k ** dims
        else:
            macs = osp ** dims * o * (c // g) * k ** dims
        n = max(1, min(64, int(3e8 / (2 * macs))))
        if n * c * sp ** dims * 4 > 400e6:
            continue
        name = f"r{len(out):02d}_{dims}d_{kind}{'_t' if t else ''}"
        out.append(f"name={name} dims={dims} n={n} c={c} o={o} g={g} in={sp} k={k} s={s} "
                   f"p={p} d={d} t={t}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
