#!/bin/sh
# Prints time(bare dsyrk) / time(dpcov_gram_add_rows) per (n, d, percent of rows clipped) from one
# run of bench_gram, for OpenBLAS on 1 thread and on 2 threads.
# Usage: bench/gram_ratio.sh [build dir] [extra bench_gram arguments, e.g. --benchmark_filter=/100000/]
build="${1:-build}"
[ $# -gt 0 ] && shift
for threads in 1 2; do
  OPENBLAS_NUM_THREADS=$threads "$build/bench/bench_gram" --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only=true --benchmark_format=csv "$@" 2>/dev/null |
    awk -F, -v t="$threads" '/_median/ {
        split($1, p, "/"); gsub(/"/, "", p[1]); key = p[2] "/" p[3]; over = p[4]; sub(/_median.*/, "", over)
        if (p[1] == "BM_BareDsyrk") bare[key] = $3; else { time[key, over] = $3; keys[key, over] = 1 }
      }
      END { for (k in keys) { split(k, q, SUBSEP)
              printf "threads=%s n/d=%-12s clipped %3s%%  dsyrk %9.2f ms  add_rows %9.2f ms  ratio %.3f\n",
                t, q[1], q[2], bare[q[1]], time[k], bare[q[1]] / time[k] } }' | sort -t= -k3,3 -V
done
