#!/usr/bin/env python3
"""Lists the microkernels whose innermost FMA loops touch the stack.

    bench/kernel_spills.py build-bench/libaclconv.a

A kernel's accumulators must stay in registers for the whole reduction. gcc
12 keeps them in a stack array when a loop over them is not fully unrolled
(a runtime trip count such as `m < mr`, or a loop it chose not to unroll):
the AVX2 conv 4x24 and convwt 6x16 kernels ran at half speed that way until
`_Pragma("GCC unroll N")` and constant trip counts fixed them. An innermost
loop (a backward branch containing no other) with FMAs (or vdpbf16ps) and vector operands
at (%rsp) / (%rbp) is reported with its (FMAs, stack operands); so is, as
"around inner loops", a loop right around an innermost FMA loop whose own
instructions move vectors to or from the stack (the convrv kernels stored
and reloaded every accumulator around each row that way). Masked tail
blocks that run once per row show up too; read the object code to tell
(objdump -d --no-show-raw-insn LIB, the function's loops).
"""
import re
import subprocess
import sys


def functions(lib):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", lib], capture_output=True, text=True,
                         check=True).stdout
    funcs, cur = {}, None
    for line in out.split("\n"):
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if m and cur:
            funcs[cur].append((int(m.group(1), 16), m.group(2).strip()))
    return funcs


def is_stack_vector(text):
    return text.startswith("v") and ("(%rsp" in text or "(%rbp" in text)


def stack_loops(ins):
    """(FMAs, stack operands) of the innermost FMA loops that touch the
    stack, and of the loops right around innermost FMA loops whose own
    instructions (the inner loop left out) move vectors to or from the stack:
    accumulators stored and reloaded around every inner loop."""
    loops = []
    for addr, text in ins:
        m = re.match(r"j\w+\s+([0-9a-f]+)", text)
        if m and int(m.group(1), 16) < addr:
            loops.append((int(m.group(1), 16), addr))
    inner, around = [], []
    for s, e in loops:
        if any(s <= s2 and e2 <= e and (s2, e2) != (s, e) for s2, e2 in loops):
            continue  # not innermost
        body = [t for a, t in ins if s <= a <= e]
        fma = sum("vfmadd" in t or "vdpbf16ps" in t for t in body)
        if not fma:
            continue
        stack = sum(is_stack_vector(t) for t in body)
        if stack:
            inner.append((fma, stack))
        outer = [(s2, e2) for s2, e2 in loops if s2 <= s and e <= e2 and (s2, e2) != (s, e)]
        if outer:
            s2, e2 = min(outer, key=lambda r: r[1] - r[0])
            ring = sum(is_stack_vector(t) and ("mm" in t and "%xmm" not in t)
                       for a, t in ins if s2 <= a <= e2 and not s <= a <= e)  # ymm / zmm
            if ring:
                around.append((fma, ring))
    return sorted(inner, reverse=True), sorted(set(around), reverse=True)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    for name, ins in sorted(functions(sys.argv[1]).items()):
        if re.match(r"(f32|bf16)_\w+_ukernel_", name) or any("vfmadd" in t or "vdpbf16ps" in t for _, t in ins):
            inner, around = stack_loops(ins)
            if inner:
                print(f"{name}: {inner[:6]}")
            if around:
                print(f"{name}: around inner loops {around[:6]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
