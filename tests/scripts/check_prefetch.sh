#!/bin/sh
# The kernels that ask for their caller's next operands while they compute
# must still contain prefetch instructions. gcc deletes calls to helpers
# that only prefetch (docs/kernels.md, "Prefetch requests and the
# compiler"): a refactor once left the dwrow kernels and the grouped bursts
# asking for nothing, and only a profile showed it.
#   check_prefetch.sh LIBRARY OBJDUMP
set -eu
lib=$1
objdump=$2
counts=$("$objdump" -d --no-show-raw-insn "$lib" |
    awk '/^[0-9a-f]+ <.*>:$/ { f = substr($2, 2, length($2) - 3) } /\tprefetch/ { n[f]++ }
         END { for (f in n) print f, n[f] }')
status=0
for f in f32_conv_ukernel_8x48__avx512 f32_conv_ukernel_4x24__avx2 \
         f32_dwrow_ukernel_4x32__avx512 f32_dwrow_ukernel_4x16__avx2 \
         f32_dwrowwt_ukernel_12x32__avx512 f32_dwrowwt_ukernel_4x16__avx2 \
         f32_grpconv_ukernel_8x48__avx512 f32_grpconv_ukernel_4x24__avx2 \
         f32_grpwtm_ukernel_4x6__avx512 f32_grpwtm_ukernel_3x4__avx2; do
    n=$(printf '%s\n' "$counts" | awk -v f="$f" '$1 == f { print $2 }')
    if [ -z "$n" ]; then
        echo "FAIL $f: no prefetch instruction in $lib"
        status=1
    else
        echo "ok   $f: $n prefetch instructions"
    fi
done
exit $status
