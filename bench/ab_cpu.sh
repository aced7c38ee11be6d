#!/bin/sh
# A/B timing of two (or more) aclconv_bench binaries on a loaded machine.
#
#   bench/ab_cpu.sh "BENCH ARGS" ROUNDS BINARY_A BINARY_B ...
#   bench/ab_cpu.sh "--filter r50_c4 --mask data" 6 /tmp/bench_before build-bench/bench/aclconv_bench
#
# Per binary: CPU milliseconds per execute call, 1 thread: the task-clock of a
# 10-rep run subtracted from a 30-rep run's, over 20 (data generation, planning
# and warm-up cancel out). The binaries take turns, ROUNDS times; the minimum
# is the least disturbed figure, the median shows the spread. Wall-clock
# medians swing by a factor of two while other work shares the two cores;
# CPU time does not count the time the process waits for a core, though cache
# and memory contention still shows. Needs perf (linux-perf).
set -eu
[ $# -ge 3 ] || { sed -n '2,12p' "$0"; exit 2; }
args=$1
rounds=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cpu_ms_per_call() { # binary
    for reps in 10 30; do
        # shellcheck disable=SC2086 # args is a list of options
        perf stat -e task-clock -x, -o "$tmp/stat" "$1" --threads 1 $args --reps $reps --min-time 1000 \
            --max-case-seconds 1000 --peak-seconds 0 --no-dnnl >/dev/null 2>&1
        cut -d, -f1 "$tmp/stat" | tail -n 1
    done | awk 'NR == 1 { a = $1 } NR == 2 { printf "%.2f\n", ($1 - a) / 20 }'
}

i=0
while [ $i -lt "$rounds" ]; do
    n=0
    for b in "$@"; do
        cpu_ms_per_call "$b" >>"$tmp/r$n"
        n=$((n + 1))
    done
    i=$((i + 1))
done
n=0
for b in "$@"; do
    sort -n "$tmp/r$n" | awk -v b="$b" '{ v[NR] = $1 }
        END { printf "%s: min %.2f  median %.2f ms CPU per call (%d rounds)\n", b, v[1], v[int((NR + 1) / 2)], NR }'
    n=$((n + 1))
done
