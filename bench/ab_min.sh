#!/bin/sh
# A/B timing of aclconv_bench binaries (or wrappers) by their fastest runs.
#
#   bench/ab_min.sh "BENCH ARGS" ROUNDS BINARY_A BINARY_B ...
#   bench/ab_min.sh "--filter conv1d_wav --mask weight --cube 1 --threads 1 --reps 60" 5 \
#       /tmp/bench_before build-bench/bench/aclconv_bench
#
# Per round each binary runs once (they take turns) and reports the minimum
# of its timed runs ("min" on its exec line); the script prints, per binary,
# the smallest and the median of those minima. Where other tenants slow the
# machine in bursts (session 50's host: medians of the same binary 1.5x
# apart within minutes, task-clock CPU time too), the fastest run of each
# round is the least disturbed figure. A wrapper script can stand for a
# setting: `exec aclconv_bench "$@" --cube 0` times mode 0 in the same turns.
set -eu
[ $# -ge 3 ] || { sed -n '2,14p' "$0"; exit 2; }
args=$1
rounds=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

r=0
while [ "$r" -lt "$rounds" ]; do
    i=0
    for b in "$@"; do
        i=$((i + 1))
        # shellcheck disable=SC2086 # args is a list of options
        "$b" $args --no-dnnl --peak-seconds 0 --rounds 1 2>/dev/null |
            sed -n 's/.* exec .*min \([0-9.]*\)).*/\1/p' | head -n 1 >>"$tmp/$i"
    done
    r=$((r + 1))
done
i=0
for b in "$@"; do
    i=$((i + 1))
    sort -n "$tmp/$i" | awk -v b="$b" '{ a[NR] = $1 }
        END { if (NR == 0) { print b ": no times"; exit }
              printf "%s: min %.3f  median %.3f ms (%d rounds)\n", b, a[1], a[int((NR + 1) / 2)], NR }'
done
