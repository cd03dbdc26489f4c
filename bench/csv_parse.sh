#!/bin/sh
# Parse throughput and peak memory of `dpcov gram` on a generated CSV of about 1 GB, on one core
# (taskset, OpenBLAS on one thread), next to `cat` reading the same cached file in the same run
# (the baseline the ratio is taken against), and the ceilings under it on the same file: the CSV
# reader alone (rows parsed, no Gram), fast_float alone on the same numbers, the reader's number
# parsers alone (short decimals, fast_float for the rest) and the line scan (bench/csv_read.cpp). The file is written to /tmp and deleted afterwards.
# Usage: bench/csv_parse.sh [build dir] [megabytes] [columns] [make_csv options, e.g. --precision 9]
set -eu
build="${1:-build}"
megabytes="${2:-1000}"
columns="${3:-16}"
[ $# -gt 3 ] && shift 3 || set --
csv="$(mktemp /tmp/dpcov-bench-XXXXXX.csv)"
out="$(mktemp -d /tmp/dpcov-bench-out-XXXXXX)"
trap 'rm -rf "$csv" "$out"' EXIT
"$build/bench/make_csv" "$csv" "$megabytes" "$columns" 1 "$@"
bytes=$(stat -c %s "$csv")
cat "$csv" > /dev/null  # into the page cache: the parser is measured, not the disk
/usr/bin/time -f "%e %U %S" -o "$out/cat.txt" taskset -c 0 cat "$csv" > /dev/null
OPENBLAS_NUM_THREADS=1 /usr/bin/time -v -o "$out/time.txt" \
  taskset -c 0 "$build/cli/dpcov" gram "$csv" --bound 1e6 -o "$out/gram.npy" --quiet
awk -v bytes="$bytes" -F': ' '
  /User time/ { user = $2 } /System time/ { sys = $2 } /Maximum resident/ { rss = $2 }
  /Elapsed/ { n = split($2, t, ":"); wall = t[n] + (n > 1 ? 60 * t[n - 1] : 0) }
  END {
    printf "input %.0f MB; wall %.2f s, cpu %.2f s (user %.2f + sys %.2f)\n",
           bytes / 1e6, wall, user + sys, user, sys
    printf "throughput: %.0f MB/s of wall time, %.0f MB/s of cpu time; peak RSS %.1f MB\n",
           bytes / 1e6 / wall, bytes / 1e6 / (user + sys), rss / 1024
    split(cat_line, c, " "); cat_wall = c[1] > 0.01 ? c[1] : 0.01; cat_cpu = c[2] + c[3] > 0.01 ? c[2] + c[3] : 0.01
    printf "cat: %.0f MB/s of wall time, %.0f MB/s of cpu time; parse / cat: %.3f wall, %.3f cpu\n",
           bytes / 1e6 / cat_wall, bytes / 1e6 / cat_cpu, cat_wall / wall, cat_cpu / (user + sys)
  }' cat_line="$(cat "$out/cat.txt")" "$out/time.txt"
for mode in reader fast_float numbers lines; do
  taskset -c 0 "$build/bench/csv_read" "$csv" "$mode" |
    awk -v bytes="$bytes" -v mode="$mode" '{
      for (k = 1; k < NF; ++k) { if ($k == "cpu") cpu = $(k + 1); if ($k == "wall") wall = $(k + 1) }
      wall = wall > 0.001 ? wall : 0.001; cpu = cpu > 0.001 ? cpu : 0.001
      printf "%s: %.0f MB/s of wall time, %.0f MB/s of cpu time\n", mode, bytes / 1e6 / wall,
             bytes / 1e6 / cpu
    }'
done
