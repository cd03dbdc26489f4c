#!/bin/sh
# Prints time(bare dsyrk) / time(dpcov_gram_add_rows) per (n, d) from one run of bench_gram, for
# OpenBLAS on 1 thread and on 2 threads. Usage: bench/gram_ratio.sh [build dir]
build="${1:-build}"
for threads in 1 2; do
  OPENBLAS_NUM_THREADS=$threads "$build/bench/bench_gram" --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only=true --benchmark_format=csv 2>/dev/null |
    awk -F, -v t="$threads" '/_median/ {
        split($1, p, "/"); key = p[2] "/" p[3]; sub(/_median.*/, "", key); gsub(/"/, "", p[1])
        time[p[1], key] = $3; keys[key] = 1
      }
      END { for (k in keys) printf "threads=%s n/d=%-12s dsyrk %8.2f ms  add_rows %8.2f ms  ratio %.3f\n",
              t, k, time["BM_BareDsyrk", k], time["BM_GramAddRows", k],
              time["BM_BareDsyrk", k] / time["BM_GramAddRows", k] }'
done
