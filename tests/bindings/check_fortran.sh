#!/bin/sh
# The Fortran binding (bindings/fortran): the module and its test program compiled with gfortran
# (Fortran 2018, warnings as errors, runtime checks) against the library installed into a scratch
# prefix and found by pkg-config, then run.
# Usage: check_fortran.sh BUILD_ROOT SOURCE_ROOT
set -eu
build="$1"
source="$2"
command -v gfortran >/dev/null || { echo "FAILED: gfortran not found: install gfortran (scripts/setup)"; exit 1; }
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
libdir=$("$(dirname "$0")/stage_install.sh" "$build" "$stage")
flags=$(PKG_CONFIG_PATH="$stage/pkgconfig" pkg-config --cflags --libs dpcov)
echo "pkg-config: $flags"
# Exact comparisons are the point of several checks (exact symmetry, bit-identical reruns).
gfortran -std=f2018 -Wall -Wextra -Wno-compare-reals -Werror -fcheck=all -J "$stage" \
  "$source/bindings/fortran/dpcov.f90" "$source/bindings/fortran/dpcov_test.f90" $flags \
  -o "$stage/dpcov_test"
LD_LIBRARY_PATH="$libdir" "$stage/dpcov_test"
