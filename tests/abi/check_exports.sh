#!/bin/sh
# Fails if the shared library exports any symbol that is not dpcov_*, or exports none.
set -eu
lib="$1"
symbols=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}')
bad=$(printf '%s\n' "$symbols" | grep -v '^dpcov_' || true)
count=$(printf '%s\n' "$symbols" | grep -c '^dpcov_' || true)
if [ -n "$bad" ]; then
  echo "non-dpcov symbols exported by $lib:"
  printf '%s\n' "$bad"
  exit 1
fi
if [ "$count" -lt 5 ]; then
  echo "only $count dpcov_ symbols exported by $lib"
  exit 1
fi
soname=$(objdump -p "$lib" | awk '/SONAME/ {print $2}')
case "$soname" in
  libdpcov.so.[0-9]*) ;;
  *) echo "unexpected SONAME '$soname'"; exit 1 ;;
esac
echo "$count dpcov_ symbols exported, SONAME $soname"
