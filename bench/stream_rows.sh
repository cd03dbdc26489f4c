#!/bin/sh
# `dpcov release` with default (exact) numerics of ROWS x 50 rows generated and piped to its
# standard input, never stored (10^8 rows are 40 GB): the streaming release's peak RSS, which must
# not grow with the rows (scripts/bench divides it by the same release's from a file of 10^6 rows).
# The rows are release_rows.sh's (iid N(0, 0.01) entries from NumPy's generator seeded 0, in
# blocks of 200000 rows), so the stream's first 10^6 rows are that file's. One line on stdout as
# release_rows.sh prints them: mechanism, numerics, rows, wall s, cpu s (user + sys), peak RSS in
# kB (GNU time, of dpcov alone). OpenBLAS on one thread.
# Usage: bench/stream_rows.sh [build dir] [rows, a multiple of 200000]
set -eu
build="${1:-build}"
rows="${2:-100000000}"
dims=50
dir="$(mktemp -d /tmp/dpcov-bench-stream-XXXXXX)"
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 -c 'import sys, numpy as np
g = np.random.default_rng(0)
for _ in range(int(sys.argv[1]) // 200000):
    sys.stdout.buffer.write((g.standard_normal((200000, 50)) * 0.1).astype("<f8").tobytes())' \
  "$rows" |
  OPENBLAS_NUM_THREADS=1 /usr/bin/time -f "%e %U %S %M" -o "$dir/time.txt" \
    "$build/cli/dpcov" release -m analyze_gauss -e 1 -d 1e-6 --bound 1 --dims $dims --format raw \
    --seed 1 --quiet - -o "$dir/out.npy" > /dev/null 2> "$dir/stderr.txt" || {
  cat "$dir/stderr.txt" >&2
  exit 1
}
read -r wall user sys rss < "$dir/time.txt"
echo "# mechanism numerics rows wall_s cpu_s peak_rss_kb"
echo "analyze_gauss exact $rows $wall $(echo "$user $sys" | awk '{ printf "%.2f", $1 + $2 }') $rss"
