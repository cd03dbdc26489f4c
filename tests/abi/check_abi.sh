#!/bin/sh
# The C ABI of the built library against the committed baseline tests/abi/libdpcov.abi (abidw XML
# of the exported dpcov_* functions and the types they use): an incompatible change fails unless
# the ABI major version (the SONAME) moved. Compatible changes pass: new functions, new enumerators,
# and fields appended at the end of a struct that starts with struct_size (abi_suppressions.ini).
# Usage: check_abi.sh LIBRARY SOURCE_ROOT
# After an intended change, or when the major version moves, regenerate the baseline (docs/testing.md):
#   tests/abi/check_abi.sh build/capi/libdpcov.so.0 . --update
set -eu
library="$1"
source="$2"
baseline="$source/tests/abi/libdpcov.abi"
command -v abidiff >/dev/null ||
  { echo "FAILED: abidiff not found: install abigail-tools (scripts/setup)"; exit 1; }
# abidiff reads the library's DWARF: without debug information (buildtype=release, plain) there
# is nothing to compare, and the check is skipped (exit 77).
if ! readelf -S "$library" | grep -q '\.debug_info'; then
  echo "SKIP: $library has no debug information (configure with -Dbuildtype=debugoptimized)"
  exit 77
fi
if [ "${3:-}" = "--update" ]; then
  abidw --exported-interfaces-only \
    --no-corpus-path --no-comp-dir-path --no-show-locs --type-id-style hash \
    --out-file "$baseline" "$library"
  echo "wrote $baseline"
  exit 0
fi
soname=$(readelf -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
baseline_soname=$(sed -n "1s/.*soname='\([^']*\)'.*/\1/p" "$baseline")
if [ "$soname" != "$baseline_soname" ]; then
  echo "ABI major version moved ($baseline_soname -> $soname): incompatible changes are allowed;"
  echo "regenerate the baseline: tests/abi/check_abi.sh $library $source --update"
  exit 0
fi
status=0
abidiff --exported-interfaces-only --no-added-syms \
  --suppressions "$source/tests/abi/abi_suppressions.ini" "$baseline" "$library" || status=$?
# abidiff's exit status is a bit field: 1 error, 2 usage, 4 an ABI change, 8 an incompatible one.
if [ "$status" -ne 0 ]; then
  echo "FAILED: the C ABI of $soname changed incompatibly against tests/abi/libdpcov.abi (abidiff" \
    "status $status, report above). Keep the change compatible (append struct fields, add" \
    "functions and enumerators), or move DPCOV_VERSION_MAJOR; see docs/testing.md, 'ABI check'."
  exit 1
fi
echo "ABI of $soname compatible with tests/abi/libdpcov.abi"
