#!/bin/sh
# `dpcov release` from a file of rows, as a user runs it, in one run:
#  - analyze_gauss with the default (exact) numerics against `--numerics idealized` (the baseline
#    of the ratio) on ROWS x 50 raw float64 rows, the two interleaved REPEATS times;
#  - the zCDP row mechanisms (dly_adaptive, coinpress, coinpress centred on its private mean,
#    coinpress_mean) on the first SMALL rows and on all ROWS: their peak RSS must not grow with
#    the rows (they re-read the file once per pass, not hold it).
# Every line on stdout is one run: mechanism (coinpress_center: coinpress --center), numerics,
# rows, wall s, cpu s (user + sys), peak RSS in kB (GNU time); the command's warnings (the fixed
# seed, a few rows over the bound) are dropped, its errors printed. OpenBLAS on one thread. Rows: iid N(0, 0.01) entries (norms about 0.7, under
# the bound 1), written to /tmp and deleted afterwards.
# Usage: bench/release_rows.sh [build dir] [rows] [small rows] [repeats]
set -eu
build="${1:-build}"
rows="${2:-1000000}"
small="${3:-100000}"
repeats="${4:-3}"
dims=50
dir="$(mktemp -d /tmp/dpcov-bench-rows-XXXXXX)"
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 - "$rows" "$dims" "$dir/rows.bin" <<'PY'
import sys
import numpy as np
n, d, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
g = np.random.default_rng(0)
with open(path, "wb") as f:
    left = n
    while left:
        k = min(left, 200000)
        f.write((g.standard_normal((k, d)) * 0.1).astype("<f8").tobytes())
        left -= k
PY
head -c $((small * dims * 8)) "$dir/rows.bin" > "$dir/small.bin"
cat "$dir/rows.bin" "$dir/small.bin" > /dev/null  # into the page cache: the release is measured

run() {  # label, numerics, rows, file, options (-m mechanism ...)...
  label=$1 numerics=$2 n=$3 file=$4
  shift 4
  OPENBLAS_NUM_THREADS=1 /usr/bin/time -f "%e %U %S %M" -o "$dir/time.txt" \
    "$build/cli/dpcov" release -e 1 -d 1e-6 --dims $dims --format raw --seed 1 \
    --quiet "$@" "$file" -o "$dir/out.npy" > /dev/null 2> "$dir/stderr.txt" || {
    cat "$dir/stderr.txt" >&2
    exit 1
  }
  read -r wall user sys rss < "$dir/time.txt"
  echo "$label $numerics $n $wall $(echo "$user $sys" | awk '{ printf "%.2f", $1 + $2 }') $rss"
}

echo "# mechanism numerics rows wall_s cpu_s peak_rss_kb"
k=0
while [ $k -lt "$repeats" ]; do
  run analyze_gauss exact "$rows" "$dir/rows.bin" -m analyze_gauss --bound 1 --numerics exact
  run analyze_gauss idealized "$rows" "$dir/rows.bin" -m analyze_gauss --bound 1 \
    --numerics idealized
  k=$((k + 1))
done
for n in "$small" "$rows"; do
  file="$dir/rows.bin"
  [ "$n" = "$small" ] && file="$dir/small.bin"
  run dly_adaptive idealized "$n" "$file" -m dly_adaptive --bound 1
  run coinpress idealized "$n" "$file" -m coinpress --k-bound 10
  run coinpress_center idealized "$n" "$file" -m coinpress --k-bound 10 --center --mean-radius 1
  run coinpress_mean idealized "$n" "$file" -m coinpress_mean --mean-radius 1
done
