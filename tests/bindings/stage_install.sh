#!/bin/sh
# Installs the build into STAGE/root (meson install with DESTDIR) and writes STAGE/pkgconfig/dpcov.pc
# pointing at it, so that bindings build against the library with nothing but
# `pkg-config dpcov`, as a user's build would. Prints the staged library directory.
# Usage: stage_install.sh BUILD_ROOT STAGE
set -eu
build="$1"
stage="$2"
DESTDIR="$stage/root" meson install -C "$build" --no-rebuild --quiet >/dev/null
pc=$(find "$stage/root" -name dpcov.pc | head -n 1)
[ -n "$pc" ] || { echo "dpcov.pc was not installed" >&2; exit 1; }
prefix=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --variable=prefix dpcov)
mkdir -p "$stage/pkgconfig"
# The installed file with its prefix moved into the staged tree.
sed "s|^prefix=.*|prefix=$stage/root$prefix|" "$pc" > "$stage/pkgconfig/dpcov.pc"
PKG_CONFIG_PATH="$stage/pkgconfig" pkg-config --variable=libdir dpcov
