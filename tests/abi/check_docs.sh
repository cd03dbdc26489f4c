#!/bin/sh
# Runs Doxygen over the public headers and fails on any warning (an undocumented declaration, a
# parameter that does not exist, a broken reference). Also checks that every `@proof` link in a
# public header names a file that exists.
set -eu
root="$1"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$root"
( cat docs/Doxyfile; echo "OUTPUT_DIRECTORY = $out"; echo "WARN_LOGFILE = $out/warnings" ) |
  doxygen - >/dev/null
if [ -s "$out/warnings" ]; then
  cat "$out/warnings"
  exit 1
fi
missing=0
for p in $(grep -ho '@proof [^ ]*' capi/include/dpcov.h capi/include/dpcov/*.h | awk '{print $2}' | sort -u); do
  if [ ! -f "$p" ]; then echo "missing proof file: $p"; missing=1; fi
done
exit $missing
