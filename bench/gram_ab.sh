#!/bin/sh
# bench_gram_ab over the benchmark table's sizes, (1e5, 1e6) x (10, 100, 500), and one call of a
# few thousand rows, (5000, 100), the size of the exact release from rows, whose rows all wait in
# the accumulator's pending block (its figure of all calls together is bench_gram_ab's last
# column), on OpenBLAS's `threads` threads: add_rows of each library given, 0% and 50% of the rows
# clipped, against a bare dsyrk, as medians of per-round ratios (CPU of the calling thread: the
# figure least moved by the machine's load on one thread). The load average goes with each size.
# The small call runs 205 rounds: its all-rounds figure rests on the calls that close a block of
# 8192 rows, which 41 rounds of 5000 rows do 25 times and 205 rounds 125 times.
# --quick: n = 1e5 at d = 10 and 100 only (scripts/bench --quick).
# Usage: bench/gram_ab.sh [--quick] build-dir threads lib.so.0 [lib.so.0]
sizes='5000 100 205,100000 10 41,1000000 10 21,100000 100 21,1000000 100 9,100000 500 7,1000000 500 3'
if [ "$1" = "--quick" ]; then
  sizes='100000 10 41,100000 100 21'
  shift
fi
build="$1"
threads="$2"
shift 2
IFS=,
for size in $sizes; do
  unset IFS
  set -- $size "$@"
  n=$1 d=$2 rounds=$3
  shift 3
  echo "load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%H:%M:%S)"
  OPENBLAS_NUM_THREADS=$threads "$build/bench/bench_gram_ab" "$n" "$d" "$threads" "$rounds" "$@"
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%H:%M:%S)"
