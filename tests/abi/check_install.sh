#!/bin/sh
# Installs the build into a scratch directory and builds a C99 program against it with nothing but
# `pkg-config --cflags --libs dpcov`, as a user would.
set -eu
build="$1"
program="$2"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
DESTDIR="$stage" meson install -C "$build" --no-rebuild --quiet
pcdir=$(dirname "$(find "$stage" -name dpcov.pc | head -n 1)")
[ -n "$pcdir" ] || { echo "dpcov.pc was not installed"; exit 1; }
# Point the .pc file's prefix at the staged tree, as if it had been installed there.
prefix=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=prefix dpcov)
pc() { PKG_CONFIG_PATH="$pcdir" pkg-config --define-variable=prefix="$stage$prefix" "$@" dpcov; }
flags=$(pc --cflags --libs)
echo "pkg-config: $flags"
cc -std=c99 -pedantic-errors -Wall -Werror "$program" $flags -o "$stage/c99_program"
libdir=$(pc --variable=libdir)
LD_LIBRARY_PATH="$libdir" "$stage/c99_program"
